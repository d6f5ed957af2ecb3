//! A primal heuristic for the fusion ILP: the fusion decisions the root LP already
//! decides, kept; the rest solved (RENS, "relaxation enforced neighbourhood search",
//! Berthold 2014).
//!
//! Why: on random programs of 200 combinators about half of a proof's time went into
//! finding the optimum (SCIP found it after some 70 % of its nodes, as an integral LP
//! deep in the tree), and started from the optimum the same solves took half as long
//! (docs/ilp-measurements.md). The root LP, after SCIP's cuts and the cycle rows, puts
//! most fusion decisions x at 0 or 1 (at n = 200 seeds 4, 5, 6 and 9: 165 of 180, 144 of
//! 173, 142 of 186 and 122 of 191); the model restricted to those values is a small
//! problem whose optimum is often the whole model's or close to it (seed 6: 234 against
//! the optimum 232, found in 1.0 s where SCIP's own search found 234 after 8 s).
//!
//! [`FixIntegralDecisions`] proposes those values as a partial solution; the solver's
//! heuristic bridge (`fusion_solver::Hooks::heuristic`) completes it by solving the
//! model with them fixed, with the same lazy rows, within a node limit (a time cap
//! besides), and offers the completed point to SCIP, which checks it against every row
//! like any other.
//! Nothing here bounds or prunes: a proposal whose completion fails (the LP's integral
//! values can be jointly infeasible once every cycle row is enforced; seeds 8 and 9)
//! costs its time and nothing else, and the heuristic proposes again from the LP points
//! of the next nodes ([`ATTEMPTS`]).

use fusion_solver::{PrimalHeuristic, VarId};

/// How many proposals a solve may ask for: the root's and, while none has been
/// completed, those of the nodes SCIP processes next (its first dive from the root,
/// each LP point deciding some fusion decisions the last one left open). The root's
/// fixings can be jointly infeasible and those one branching later feasible: on random
/// programs of 200 combinators (seeds 8 and 9, where the root's failed) the second
/// proposal, at depth 1, completed into the optimum, and those proofs took 147 and 157
/// nodes instead of 241 and 225. Over seeds 0–19 the root's proposal failed on twelve
/// programs: the five that both versions proved took fewer nodes (seeds 8, 9, 10, 12,
/// 17: 147, 157, 153, 275, 422 against 241, 225, 612, 343, 593), seed 13 was newly
/// proven, and the six at the time limit ended with bounds within 0.1 unit of before or
/// higher; the other programs' searches did not change (docs/ilp-measurements.md,
/// 2026-12-03). Seed 8's second completion is near the time cap, though: in a slower
/// hour it stopped short with a worse clustering, and the proof took 277 nodes. A failed proposal costs a fraction of a second where its fixed model is
/// infeasible in presolving or within a few nodes; and all the completions together
/// take at most the time cap of one (`fusion_solver`'s `COMPLETION_SHARE`).
pub const ATTEMPTS: usize = 5;

/// How far from 0 or 1 an LP value may be and still count as decided.
const INTEGRAL_TOLERANCE: f64 = 1e-6;

/// Proposes every fusion decision that the LP solution puts at 0 or 1 (see the module
/// comment).
pub struct FixIntegralDecisions {
    decisions: Vec<VarId>,
}

impl FixIntegralDecisions {
    /// A heuristic over `decisions`, the model's fusion decisions x
    /// (`Ilp::fusion_decisions`).
    pub fn new(decisions: Vec<VarId>) -> Self {
        FixIntegralDecisions { decisions }
    }
}

impl PrimalHeuristic for FixIntegralDecisions {
    fn propose(&mut self, values: &[f64]) -> Vec<(VarId, f64)> {
        self.decisions
            .iter()
            .filter_map(|&x| {
                let value = *values.get(x.0)?;
                let rounded = value.round();
                ((rounded == 0.0 || rounded == 1.0) && (value - rounded).abs() <= INTEGRAL_TOLERANCE)
                    .then_some((x, rounded))
            })
            .collect()
    }

    fn attempts(&self) -> usize {
        ATTEMPTS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposes_exactly_the_decided_fusion_decisions() {
        let decisions = vec![VarId(0), VarId(2), VarId(3), VarId(4), VarId(9)];
        let mut heuristic = FixIntegralDecisions::new(decisions);
        // x0 fused, x2 half-way, x3 unfused up to round-off, x4 nearly decided but not
        // within the tolerance; variable 1 is no fusion decision; variable 9 lies beyond
        // the point.
        let values = [0.0, 1.0, 0.5, 1.0 - 1e-9, 1e-3];
        assert_eq!(heuristic.propose(&values), vec![(VarId(0), 0.0), (VarId(3), 1.0)]);
    }
}
