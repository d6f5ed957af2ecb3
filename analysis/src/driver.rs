//! From a dependence graph to a validated clustering: build the ILP, solve it under
//! limits, read the solution, check it with the independent validator, and fall back to
//! the unfused clustering whenever anything on the way fails (with a warning saying why).
//! No MLIR here, so tests and benchmarks run it on hand-made and random graphs.

use super::baseline::{Strategy, greedy};
use super::clustering::Clustering;
use super::cost::{CostFunction, evaluate_function};
use super::formulation::{self, Formulation, FormulationError};
use super::graph::Graph;
use super::report::{Status, relative_gap};
use super::validate::validate;
use fusion_solver::{Limits, SolveStatus};
use std::path::PathBuf;
use std::time::Instant;

/// Everything the analysis can be asked (the pass options of `array-fusion-analysis`).
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// The ILP (the default), or a baseline to compare it with.
    pub strategy: Strategy,
    pub formulation: Formulation,
    pub cost: CostFunction,
    pub limits: Limits,
    /// Write each model in CPLEX LP format to this file (`--dump-ilp=FILE`).
    pub dump_ilp: Option<PathBuf>,
}

/// The clustering chosen for one graph and how it was obtained.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub clustering: Clustering,
    pub status: Status,
    /// The cost function's value for `clustering`, computed independently of the ILP.
    pub objective: f64,
    /// The ILP's own value of its solution (plus its constant part), when solved.
    pub ilp_objective: Option<f64>,
    /// The solver's dual bound plus the constant part: no clustering in the
    /// formulation's space costs less. `None` without a solver answer or a finite bound.
    pub bound: Option<f64>,
    pub solve_ms: f64,
    pub variables: usize,
    pub rows: usize,
    /// Why a fallback or incumbent was used; shown to the user as warnings.
    pub warnings: Vec<String>,
}

/// Chooses the clustering of `graph`. Errors only for requests that cannot be honoured
/// at all (an impossible formulation/cost pair); solver trouble is a warning.
pub fn choose_clustering(graph: &Graph, options: &AnalysisOptions) -> Result<Outcome, FormulationError> {
    if options.strategy != Strategy::Ilp {
        return Ok(baseline_outcome(graph, options));
    }
    let ilp = formulation::build(graph, options.formulation, &options.cost)?;
    let mut warnings = Vec::new();
    if let Some(path) = &options.dump_ilp
        && let Err(e) = fusion_solver::lp::write_lp_file(&ilp.model, path)
    {
        warnings.push(format!("could not write the ILP to {}: {e}", path.display()));
    }
    let started = Instant::now();
    let solved = fusion_solver::scip::solve(&ilp.model, &options.limits);
    let solve_ms = started.elapsed().as_secs_f64() * 1000.0;
    let (variables, rows) = (ilp.model.variables.len(), ilp.model.rows.len());

    let (clustering, status, ilp_objective, bound) = match solved {
        Ok(solution) => {
            let clustering = ilp.clustering(graph, &solution.values);
            let status = match solution.status {
                SolveStatus::Optimal => Status::Optimal,
                SolveStatus::LimitReached => Status::TimeLimit,
            };
            let bound = solution.dual_bound.is_finite().then_some(solution.dual_bound + ilp.objective_offset);
            (clustering, status, Some(solution.objective + ilp.objective_offset), bound)
        }
        Err(e) => {
            warnings.push(format!("no clustering from the solver ({e}); the program is left unfused"));
            (Clustering::unfused(graph), Status::Fallback, None, None)
        }
    };

    // Every clustering passes the independent validator before use (DESIGN.md).
    let (clustering, status) = match validate(graph, &clustering) {
        Ok(()) => (clustering, status),
        Err(violations) => {
            let list: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
            warnings
                .push(format!("the solver's clustering is invalid ({}); the program is left unfused", list.join("; ")));
            (Clustering::unfused(graph), Status::Fallback)
        }
    };
    if status == Status::Fallback
        && let Err(violations) = validate(graph, &clustering)
    {
        // The unfused clustering is valid by construction; if not, the graph is broken.
        let list: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
        return Err(FormulationError(format!("even the unfused clustering is invalid: {}", list.join("; "))));
    }
    let objective = evaluate_function(graph, &clustering, &options.cost);
    // "Optimal" only when the cost of the clustering actually used, computed
    // independently of the ILP, reaches the solver's proven lower bound.
    let bound = if status == Status::Fallback { None } else { bound };
    let reached = bound.is_some_and(|b| objective <= b + 1e-6 * objective.abs().max(1.0));
    let status = match status {
        Status::Optimal if !reached => Status::Unproven,
        s => s,
    };
    let bound_words = |b: Option<f64>| match b {
        Some(b) => format!("lower bound {b}, gap {:.1} %", 100.0 * relative_gap(objective, b)),
        None => "no lower bound known".to_string(),
    };
    match status {
        Status::TimeLimit => warnings.push(format!(
            "the solver stopped at its limit ({} s); using its best clustering (cost {objective}, {}), which may not be optimal",
            options.limits.time_seconds,
            bound_words(bound)
        )),
        Status::Unproven if options.limits.relative_gap > 0.0 => warnings.push(format!(
            "the solver stopped within the requested gap ({}); its clustering costs {objective} ({}); not proven optimal",
            options.limits.relative_gap,
            bound_words(bound)
        )),
        Status::Unproven => warnings.push(format!(
            "the {} formulation's optimum is a lower bound here: its clustering costs {objective} ({}); not proven optimal",
            options.formulation,
            bound_words(bound)
        )),
        _ => {}
    }
    Ok(Outcome { clustering, status, objective, ilp_objective, bound, solve_ms, variables, rows, warnings })
}

/// The clustering of a baseline strategy, priced by the cost function and reported as
/// what it is ([`Status::Baseline`]): no bound, no ILP.
fn baseline_outcome(graph: &Graph, options: &AnalysisOptions) -> Outcome {
    let started = Instant::now();
    let clustering = match options.strategy {
        Strategy::GreedyTopDown => greedy(graph, true),
        Strategy::GreedyBottomUp => greedy(graph, false),
        Strategy::Unfused | Strategy::Ilp => Clustering::unfused(graph),
    };
    let solve_ms = started.elapsed().as_secs_f64() * 1000.0;
    // Valid by construction (every greedy step passed the validator); checked once more
    // like every clustering before use.
    let (clustering, warnings) = match validate(graph, &clustering) {
        Ok(()) => (clustering, Vec::new()),
        Err(violations) => {
            let list: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
            (
                Clustering::unfused(graph),
                vec![format!(
                    "the {} clustering is invalid ({}); the program is left unfused",
                    options.strategy,
                    list.join("; ")
                )],
            )
        }
    };
    let objective = evaluate_function(graph, &clustering, &options.cost);
    Outcome {
        clustering,
        status: Status::Baseline,
        objective,
        ilp_objective: None,
        bound: None,
        solve_ms,
        variables: 0,
        rows: 0,
        warnings,
    }
}
