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
//! values can be jointly infeasible once every cycle row is enforced; seed 8) costs its
//! time and nothing else.

use fusion_solver::{PrimalHeuristic, VarId};

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
