//! Pieces the measurement examples share: the relaxation with the cycle inequalities
//! separated to the end, and the hooks of a lazy solve as the driver sets them up.

// Each example compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use fusion_analysis::cycle_cuts::CycleCuts;
use fusion_analysis::formulation::PROPAGATE_ABOVE_VARIABLES;
use fusion_solver::{CutSeparator, Hooks, Limits, Model, VarId, VarKind, solve};

/// The time limit of every solve in these examples: they measure, so they wait.
pub const EXAMPLE_LIMIT_SECONDS: f64 = 600.0;

/// The optimum of `model` with every variable that `keep_integral` does not name
/// relaxed to continuous and the cycle inequalities of `cuts` added round after round
/// until none is violated: its value, its point and the number of solves it took.
/// With integral variables kept, each round is a MIP, still a relaxation of the model.
pub fn separated_relaxation(
    mut model: Model,
    cuts: &CycleCuts,
    keep_integral: impl Fn(&str) -> bool,
) -> Result<(f64, Vec<f64>, usize), String> {
    for v in &mut model.variables {
        if !keep_integral(&v.name) {
            v.kind = VarKind::Continuous;
        }
    }
    for round in 1.. {
        let solution = solve(&model, &Limits { time_seconds: EXAMPLE_LIMIT_SECONDS, ..Limits::default() })
            .map_err(|e| format!("the relaxation did not solve: {e}"))?;
        let violated = cuts.violated(&solution.values);
        if violated.is_empty() {
            return Ok((solution.objective, solution.values, round));
        }
        model.rows.extend(violated.into_iter().map(|(_, row)| row));
    }
    unreachable!("the loop returns")
}

/// The hooks of a solve of `lazy_model` as the driver sets them up with one thread:
/// the cycle inequalities separated and enforced as lazy rows, propagated at every node
/// on models larger than `PROPAGATE_ABOVE_VARIABLES`, no root heuristic; `start` is
/// a (partial) starting solution.
pub fn lazy_hooks(cuts: &CycleCuts, lazy_model: &Model, start: Vec<(VarId, f64)>) -> Hooks {
    let propagates = lazy_model.variables.len() > PROPAGATE_ABOVE_VARIABLES;
    Hooks {
        separator: Some(Box::new(cuts.clone().propagating(propagates)) as Box<dyn CutSeparator>),
        start,
        lazy: true,
        heuristic: None,
    }
}
