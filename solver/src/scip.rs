//! Solving a [`Model`] with SCIP 10 through russcip.
//!
//! The contract the fusion passes rely on: never panic on a bad model or a solver
//! failure, and report whether the answer is proven optimal, merely the best incumbent
//! found before a limit, or absent.

use crate::model::{Model, Sense, VarKind};
use russcip::prelude::*;
use russcip::{ObjSense, Status, VarType};

/// Resource limits of one solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Wall-clock limit in seconds (SCIP's `limits/time`).
    pub time_seconds: f64,
    /// Relative optimality gap at which to stop (`limits/gap`); 0 proves optimality.
    pub relative_gap: f64,
    /// Threads for SCIP's LP solver (`lp/threads`).
    pub threads: i32,
}

impl Default for Limits {
    fn default() -> Self {
        Self { time_seconds: 10.0, relative_gap: 0.0, threads: 1 }
    }
}

/// How good a returned solution is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveStatus {
    /// Proven optimal (within the requested gap).
    Optimal,
    /// The best incumbent when a limit stopped the search.
    LimitReached,
}

/// Values of all variables, indexed like `Model::variables`.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub status: SolveStatus,
    pub objective: f64,
    pub values: Vec<f64>,
}

/// Why no solution came back.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveError {
    Infeasible,
    Unbounded,
    /// A limit was hit before any feasible solution was found.
    NoSolutionWithinLimits(String),
    /// SCIP refused the model or a parameter.
    Solver(String),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Infeasible => write!(f, "the model is infeasible"),
            SolveError::Unbounded => write!(f, "the model is unbounded"),
            SolveError::NoSolutionWithinLimits(s) => write!(f, "no solution found before the limit ({s})"),
            SolveError::Solver(s) => write!(f, "SCIP failed: {s}"),
        }
    }
}

impl std::error::Error for SolveError {}

fn finite(x: f64) -> f64 {
    // SCIP's infinity is 1e20; anything beyond is treated as infinite.
    x.clamp(-1e20, 1e20)
}

/// Solves `model` with SCIP under `limits`.
pub fn solve(model: &Model, limits: &Limits) -> Result<Solution, SolveError> {
    let solver_error = |e: russcip::Retcode| SolveError::Solver(format!("{e:?}"));
    let mut scip = russcip::Model::try_new()
        .map_err(solver_error)?
        .hide_output()
        .include_default_plugins()
        .create_prob(&model.name)
        .set_obj_sense(match model.sense {
            Sense::Minimize => ObjSense::Minimize,
            Sense::Maximize => ObjSense::Maximize,
        })
        .set_real_param("limits/time", limits.time_seconds.max(0.001))
        .map_err(solver_error)?
        .set_real_param("limits/gap", limits.relative_gap.max(0.0))
        .map_err(solver_error)?
        .set_int_param("lp/threads", limits.threads.max(1))
        .map_err(solver_error)?;

    let mut objective = vec![0.0; model.variables.len()];
    for &(id, coef) in &model.objective {
        objective[id.0] += coef;
    }
    let vars: Vec<_> = model
        .variables
        .iter()
        .zip(&objective)
        .map(|(v, &obj)| {
            let kind = match v.kind {
                VarKind::Continuous => VarType::Continuous,
                VarKind::Integer => VarType::Integer,
                VarKind::Binary => VarType::Binary,
            };
            scip.add_var(finite(v.lower), finite(v.upper), obj, &v.name, kind)
        })
        .collect();
    for row in &model.rows {
        let row_vars: Vec<_> = row.terms.iter().map(|(id, _)| &vars[id.0]).collect();
        let coefs: Vec<f64> = row.terms.iter().map(|(_, c)| *c).collect();
        scip.add_cons(row_vars, &coefs, finite(row.lower), finite(row.upper), &row.name);
    }

    let solved = scip.try_solve().map_err(solver_error)?;
    let status = match solved.status() {
        Status::Optimal | Status::GapLimit => SolveStatus::Optimal,
        Status::Infeasible => return Err(SolveError::Infeasible),
        Status::Unbounded | Status::Inforunbd => return Err(SolveError::Unbounded),
        _ => SolveStatus::LimitReached,
    };
    match solved.best_sol() {
        Some(best) => Ok(Solution {
            status,
            objective: best.obj_val(),
            values: vars.iter().map(|v| best.val(v)).collect(),
        }),
        None => Err(SolveError::NoSolutionWithinLimits(format!("{:?}", solved.status()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Model, Sense, VarKind};

    /// A knapsack whose optimum is known by enumeration: the runtime is linked and works.
    #[test]
    fn solves_small_integer_program_to_optimality() {
        let mut m = Model::new("knapsack", Sense::Maximize);
        let weights = [3.0, 4.0, 5.0, 6.0];
        let values = [30.0, 50.0, 60.0, 70.0];
        let xs: Vec<_> = (0..4).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for (x, v) in xs.iter().zip(values) {
            m.add_objective_term(*x, v);
        }
        m.add_row("capacity", xs.iter().copied().zip(weights).collect(), f64::NEG_INFINITY, 10.0);
        let s = solve(&m, &Limits::default()).expect("solvable");
        // Best subsets of weight <= 10: {4,6} -> 120, {3,6} -> 100, {4,5} -> 110.
        assert_eq!(s.status, SolveStatus::Optimal);
        assert!((s.objective - 120.0).abs() < 1e-6, "objective {}", s.objective);
        let chosen: Vec<bool> = s.values.iter().map(|v| *v > 0.5).collect();
        assert_eq!(chosen, vec![false, true, false, true]);
    }

    #[test]
    fn reports_infeasible_models_without_panicking() {
        let mut m = Model::new("infeasible", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Integer, 0.0, 10.0);
        m.add_row("low", vec![(x, 1.0)], 11.0, f64::INFINITY);
        assert_eq!(solve(&m, &Limits::default()), Err(SolveError::Infeasible));
    }
}
