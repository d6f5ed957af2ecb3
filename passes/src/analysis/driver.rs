//! From a dependence graph to a validated clustering: build the ILP, solve it under
//! limits, read the solution, check it with the independent validator, and fall back to
//! the unfused clustering whenever anything on the way fails (with a warning saying why).
//! No MLIR here, so tests and benchmarks run it on hand-made and random graphs.

use super::clustering::Clustering;
use super::cost::{CostFunction, evaluate_function};
use super::formulation::{self, Formulation, FormulationError};
use super::graph::Graph;
use super::report::Status;
use super::validate::validate;
use fusion_solver::{Limits, SolveStatus};
use std::path::PathBuf;
use std::time::Instant;

/// Everything the analysis can be asked (the pass options of `array-fusion-analysis`).
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
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
    /// The ILP's own optimal value (plus its constant part), when solved.
    pub ilp_objective: Option<f64>,
    pub solve_ms: f64,
    pub variables: usize,
    pub rows: usize,
    /// Why a fallback or incumbent was used; shown to the user as warnings.
    pub warnings: Vec<String>,
}

/// Chooses the clustering of `graph`. Errors only for requests that cannot be honoured
/// at all (an impossible formulation/cost pair); solver trouble is a warning.
pub fn choose_clustering(graph: &Graph, options: &AnalysisOptions) -> Result<Outcome, FormulationError> {
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

    let (clustering, status, ilp_objective) = match solved {
        Ok(solution) => {
            let clustering = ilp.clustering(graph, &solution.values);
            let status = match solution.status {
                SolveStatus::Optimal => Status::Optimal,
                SolveStatus::LimitReached => {
                    warnings.push(format!(
                        "the solver stopped at its limit ({} s); using its best clustering, which may not be optimal",
                        options.limits.time_seconds
                    ));
                    Status::TimeLimit
                }
            };
            (clustering, status, Some(solution.objective + ilp.objective_offset))
        }
        Err(e) => {
            warnings.push(format!("no clustering from the solver ({e}); the program is left unfused"));
            (Clustering::unfused(graph), Status::Fallback, None)
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
    Ok(Outcome { clustering, status, objective, ilp_objective, solve_ms, variables, rows, warnings })
}
