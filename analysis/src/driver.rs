//! From a dependence graph to a validated clustering: build the ILP, solve it under
//! limits, read the solution, check it with the independent validator, and fall back to
//! the unfused clustering whenever anything on the way fails (with a warning saying why).
//! No MLIR here, so tests and benchmarks run it on hand-made and random graphs.

use super::baseline::{Strategy, greedy, greedy_until, megiddo_view, stream};
use super::clustering::Clustering;
use super::cost::{CostFunction, evaluate_function};
use super::formulation::{self, Formulation, FormulationError};
use super::graph::Graph;
use super::local_search::{self, LpGuided};
use super::rens::FixIntegralDecisions;
use super::report::{Status, relative_gap};
use super::validate::validate;
use fusion_solver::{CutSeparator, Hooks, Limits, PrimalHeuristic, SearchEffort, SolveError, SolveStatus};
use std::path::PathBuf;
use std::time::{Duration, Instant};

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

/// The clustering the ILP solver started from: its cost under the cost function and the
/// time it took to find it (greedy and local search; included in `Outcome::solve_ms`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WarmStart {
    pub objective: f64,
    pub ms: f64,
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
    /// The ILP's warm start (`warm_start`), when there was one: the solver may do no
    /// worse, and the gap between the two is what the solver's own search had to find.
    pub warm_start: Option<WarmStart>,
    /// The solver's nodes and simplex iterations (`fusion_solver::SearchEffort`), when it
    /// answered: unlike `solve_ms`, the same on every run and machine for one program
    /// solved in one thread to a proof.
    pub effort: Option<SearchEffort>,
    pub variables: usize,
    pub rows: usize,
    /// Why a fallback or incumbent was used; shown to the user as warnings.
    pub warnings: Vec<String>,
}

/// Chooses the clustering of `graph`. Errors only for requests that cannot be honoured
/// at all (an impossible formulation/cost pair); solver trouble is a warning.
pub fn choose_clustering(graph: &Graph, options: &AnalysisOptions) -> Result<Outcome, FormulationError> {
    match options.strategy {
        Strategy::Ilp => {}
        Strategy::Megiddo => return megiddo_outcome(graph, options),
        Strategy::BohriumOptimal => return Ok(branch_and_bound_outcome(graph, options)),
        _ => return Ok(baseline_outcome(graph, options)),
    }
    let ilp = formulation::build(graph, options.formulation, &options.cost)?;
    let mut warnings = Vec::new();
    if let Some(path) = &options.dump_ilp
        && let Err(e) = fusion_solver::lp::write_lp_file(&ilp.model, path)
    {
        warnings.push(format!("could not write the ILP to {}: {e}", path.display()));
    }
    let started = Instant::now();
    // SCIP solves the model without its rows on π where the cycle rows can stand in for
    // them as lazy rows (`Ilp::lazy_model`); its answer is completed and checked
    // against the full model below.
    let lazy_model = ilp.lazy_model();
    let root = RootHeuristic::for_model(lazy_model.as_ref());
    let start = warm_start(
        graph,
        &options.cost,
        greedy_budget(options),
        share_of_limit(options, LOCAL_SEARCH_SHARE),
        root.warm_start_kicks(),
    );
    let warm_start_ms = started.elapsed().as_secs_f64() * 1000.0;
    let warm_start_found =
        start.as_ref().map(|c| WarmStart { objective: evaluate_function(graph, c, &options.cost), ms: warm_start_ms });
    // Larger lazy models also propagate their cycle rows at every node
    // (measured: `formulation::PROPAGATE_ABOVE_VARIABLES`).
    let propagates = lazy_model.as_ref().is_some_and(|m| m.variables.len() > formulation::PROPAGATE_ABOVE_VARIABLES);
    let partial_start = start.as_ref().map(|c| ilp.partial_solution(graph, c)).unwrap_or_default();
    let root_heuristic = || -> Option<Box<dyn PrimalHeuristic>> {
        match root {
            RootHeuristic::LpGuided => {
                let to_beat = warm_start_found.as_ref().map_or(f64::INFINITY, |w| w.objective);
                let budget = share_of_limit(options, LP_GUIDED_SHARE);
                Some(Box::new(LpGuided::new(graph.clone(), ilp.clone(), options.cost.clone(), budget, to_beat)))
            }
            RootHeuristic::Rens => Some(Box::new(FixIntegralDecisions::new(ilp.fusion_decisions()))),
            RootHeuristic::Nothing => None,
        }
    };
    // The hooks of one solve; with `threads=N` each of the N racers gets its own
    // (`fusion_solver::solve_racing`).
    let hooks_for = |_racer: usize| Hooks {
        separator: ilp.cycle_cuts.clone().map(|cuts| Box::new(cuts.propagating(propagates)) as Box<dyn CutSeparator>),
        start: partial_start.clone(),
        lazy: lazy_model.is_some(),
        heuristic: root_heuristic(),
    };
    // The time limit covers the warm start and what follows the solve too, so a user's
    // limit is the wall time.
    let after_solve = options.limits.time_seconds * AFTER_SOLVE_SHARE;
    let limits = Limits {
        time_seconds: (options.limits.time_seconds - started.elapsed().as_secs_f64() - after_solve).max(0.0),
        ..options.limits
    };
    // With the cycle rows, `threads=N` races N solves (differently seeded, every second
    // one on reliability branching: `fusion_solver::solve_racing`), each with
    // every row (SCIP's concurrent solver would drop them); without, SCIP's
    // concurrent solver runs.
    let solve = |model: &fusion_solver::Model| match ilp.cycle_cuts {
        Some(_) => fusion_solver::solve_racing(model, &limits, &hooks_for),
        None => fusion_solver::solve_with(model, &limits, hooks_for(0)),
    };
    let solved = match &lazy_model {
        Some(model) => solve(model).and_then(|mut solution| {
            ilp.complete_positions(&mut solution.values).map_err(|e| {
                SolveError::Solver(format!("the solver's answer has no legal order of its clusters: {e}"))
            })?;
            fusion_solver::check_feasible(&ilp.model, &solution.values, FULL_MODEL_TOLERANCE).map_err(|violation| {
                SolveError::Solver(format!("the solver's answer, completed with positions, violates {violation}"))
            })?;
            Ok(solution)
        }),
        None => solve(&ilp.model),
    };
    let solve_ms = started.elapsed().as_secs_f64() * 1000.0;
    let (variables, rows) = (ilp.model.variables.len(), ilp.model.rows.len());

    let effort = solved.as_ref().ok().map(|solution| solution.effort);
    let mut from_warm_start = false;
    let (clustering, status, ilp_objective, bound) = match solved {
        Ok(solution) => {
            warnings.extend(solution.warnings.iter().cloned());
            let clustering = ilp.clustering(graph, &solution.values);
            let status = match solution.status {
                SolveStatus::Optimal => Status::Optimal,
                SolveStatus::LimitReached => Status::TimeLimit,
            };
            let bound = solution.dual_bound.is_finite().then_some(solution.dual_bound + ilp.objective_offset);
            (clustering, status, Some(solution.objective + ilp.objective_offset), bound)
        }
        // A limit struck before the solver had a solution of its own: the warm start is a
        // valid clustering (checked again below) that beats the unfused one, so it is the
        // best known answer; the status says the limit struck, with no bound.
        Err(SolveError::NoSolutionWithinLimits(_)) if start.is_some() => {
            from_warm_start = true;
            (start.clone().expect("checked by the guard"), Status::TimeLimit, None, None)
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
    let mut objective = evaluate_function(graph, &clustering, &options.cost);
    // An answer not proven optimal (a time limit's incumbent, or the optimum of a
    // formulation that is only a relaxation here, such as `robinson`, which cannot fuse a
    // gather with its source) may cost more than the warm start, a valid clustering of
    // the same graph priced by the same evaluator: then the warm start is the best
    // clustering known, and it is used, with a warning. It proves nothing: the status
    // becomes `unproven` where the solver had proved its model's optimum (the warm start
    // may lie outside `robinson`'s space, which the bound covers), and a bound above the
    // warm start's cost (a bound of that smaller space only) is dropped.
    let mut clustering = clustering;
    let (mut status, mut bound) = (status, bound);
    if matches!(status, Status::TimeLimit | Status::Optimal)
        && !from_warm_start
        && let Some(start) = start.filter(|s| validate(graph, s).is_ok())
    {
        let start_objective = evaluate_function(graph, &start, &options.cost);
        let proven =
            status == Status::Optimal && bound.is_some_and(|b| objective <= b + 1e-6 * objective.abs().max(1.0));
        if !proven && start_objective < objective {
            warnings.push(format!(
                "the solver's clustering costs {objective}, the warm start (seed 000's greedy clustering improved by local search) {start_objective}: using the warm start"
            ));
            clustering = start;
            objective = start_objective;
            if status == Status::Optimal {
                status = Status::Unproven;
            }
            bound = bound.filter(|b| *b <= objective);
        }
    }
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
        Status::TimeLimit if from_warm_start => warnings.push(format!(
            "the solver stopped at its limit ({} s) before it found a clustering; using the warm start (seed 000's greedy clustering improved by local search; cost {objective}, {}), which may not be optimal",
            options.limits.time_seconds,
            bound_words(bound)
        )),
        Status::TimeLimit => warnings.push(format!(
            "the solver stopped at its limit ({} s); the best clustering known (cost {objective}, {}) may not be optimal",
            options.limits.time_seconds,
            bound_words(bound)
        )),
        Status::Unproven if options.limits.relative_gap > 0.0 => warnings.push(format!(
            "the solver stopped within the requested gap ({}); the clustering used costs {objective} ({}); not proven optimal",
            options.limits.relative_gap,
            bound_words(bound)
        )),
        Status::Unproven => warnings.push(format!(
            "the {} formulation's optimum is a lower bound here: the clustering used costs {objective} ({}); not proven optimal",
            options.formulation,
            bound_words(bound)
        )),
        _ => {}
    }
    Ok(Outcome {
        clustering,
        status,
        objective,
        ilp_objective,
        bound,
        solve_ms,
        warm_start: warm_start_found,
        effort,
        variables,
        rows,
        warnings,
    })
}

/// The share of the time limit the warm start's two greedy passes may take together at
/// most: a cap for very large programs, not a budget they use up. Trying one edge
/// rebuilds and validates the whole clustering, so a pass grows faster than the program:
/// on random programs of 1000 combinators each took about 3.5 s of a 30 s limit, and
/// cutting them to 1.5 s each left the solver worse incumbents at the limit (1387 and
/// 1467 against 1321 and 1337 on seeds 0 and 1), so they run whole there.
const GREEDY_SHARE: f64 = 0.5;

/// The greedy passes' time whatever the limit: so that even a zero limit leaves a
/// clustering better than the unfused one to fall back on (`Status::TimeLimit` with the
/// warm start) on programs of a few hundred combinators, at the price of overrunning a
/// limit below two seconds by up to one second.
const GREEDY_MIN_SECONDS: f64 = 1.0;

/// The share of the time limit the warm start's local search may take, after the greedy
/// passes. On random programs of 1000 combinators the search improves on greedy for many
/// seconds; the solver needs the rest.
const LOCAL_SEARCH_SHARE: f64 = 0.1;

/// The share of the time limit the root's LP-guided clustering ([`LpGuided`]) may
/// take for its descent: a cap, not a budget it uses up.
const LP_GUIDED_SHARE: f64 = 0.05;

/// The share of the time limit kept from the solver for what follows its stop: reading
/// the clustering back, validating and pricing it, and freeing SCIP's problem. At 1000
/// combinators (fusion-bench, 30 s) that took about 65 ms past the limit.
const AFTER_SOLVE_SHARE: f64 = 0.01;

/// How far a completed answer of the lazy model may miss a row of the full model: the
/// solver's own check of its answers.
const FULL_MODEL_TOLERANCE: f64 = fusion_solver::scip::SOLUTION_CHECK_TOLERANCE;

/// The greedy passes' cap: [`GREEDY_SHARE`] of the limit, at least [`GREEDY_MIN_SECONDS`].
fn greedy_budget(options: &AnalysisOptions) -> Duration {
    share_of_limit(options, GREEDY_SHARE).max(Duration::from_secs_f64(GREEDY_MIN_SECONDS))
}

/// `share` of the time limit; unlimited when the limit is.
fn share_of_limit(options: &AnalysisOptions, share: f64) -> Duration {
    Duration::try_from_secs_f64((options.limits.time_seconds * share).max(0.0)).unwrap_or(Duration::MAX)
}

/// The driver's own heuristic at the root of a lazy model, where SCIP's searching
/// heuristics are off (`Ilp::lazy_model`): it turns the root LP into an incumbent.
/// Measured at both constants (docs/ilp-measurements.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RootHeuristic {
    /// Models solved whole, and lazy models of at most
    /// `formulation::RENS_ABOVE_VARIABLES` variables: none.
    Nothing,
    /// Up to `formulation::LP_GUIDED_ABOVE_VARIABLES`: the model solved with the fusion
    /// decisions the LP decides fixed (`rens`).
    Rens,
    /// Above: the LP's links followed (`LpGuided`).
    LpGuided,
}

impl RootHeuristic {
    /// The heuristic for a solve of `lazy_model` (`None`: the model is solved whole).
    fn for_model(lazy_model: Option<&fusion_solver::Model>) -> Self {
        match lazy_model.map(|model| model.variables.len()) {
            Some(variables) if variables > formulation::LP_GUIDED_ABOVE_VARIABLES => RootHeuristic::LpGuided,
            Some(variables) if variables > formulation::RENS_ABOVE_VARIABLES => RootHeuristic::Rens,
            _ => RootHeuristic::Nothing,
        }
    }

    /// How many kicks the warm start's local search makes before a solve with this
    /// heuristic. None with RENS: measured at 200 combinators, its incumbent made them
    /// pointless (the starts within a unit of each other, the proofs the same nodes) for
    /// 0.5–1 s of the limit each (docs/ilp-measurements.md). A hint either way: the
    /// start proves nothing.
    fn warm_start_kicks(self) -> usize {
        match self {
            RootHeuristic::Rens => 0,
            RootHeuristic::Nothing | RootHeuristic::LpGuided => local_search::KICKS,
        }
    }
}

/// A valid clustering to start the solver from: the cheaper of seed 000 §5's two
/// greedy clusterings under `cost`, if it beats the unfused one, improved by
/// `local_search` within `search_budget` and with `kicks` kicks. The top-down pass may take half of
/// `greedy_budget`, the bottom-up pass what is left of it (a pass cut short is still
/// valid, with fewer edges fused). Only a hint: the solver completes or drops it, and
/// its answer is validated like any other.
fn warm_start(
    graph: &Graph,
    cost: &CostFunction,
    greedy_budget: Duration,
    search_budget: Duration,
    kicks: usize,
) -> Option<Clustering> {
    let started = Instant::now();
    // No deadline when the budget is beyond any clock (an unlimited time limit).
    let top_down = greedy_until(graph, true, started.checked_add(greedy_budget / 2));
    let bottom_up = greedy_until(graph, false, started.checked_add(greedy_budget));
    let unfused = evaluate_function(graph, &Clustering::unfused(graph), cost);
    let (greedy, _) = [top_down, bottom_up]
        .into_iter()
        .filter(|c| validate(graph, c).is_ok())
        .map(|c| (evaluate_function(graph, &c, cost), c))
        .filter(|(value, _)| *value < unfused)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(value, c)| (c, value))?;
    Some(local_search::improve(graph, greedy, cost, search_budget, kicks).0)
}

/// Megiddo and Sarkar's clustering: the ILP's answer on [`megiddo_view`], checked
/// against the real graph and reported as a baseline (its bound is no bound of the real
/// problem). The ILP's own warnings (a time limit, a fallback) are kept.
fn megiddo_outcome(graph: &Graph, options: &AnalysisOptions) -> Result<Outcome, FormulationError> {
    let view = megiddo_view(graph);
    let inner = choose_clustering(&view, &AnalysisOptions { strategy: Strategy::Ilp, ..options.clone() })?;
    let mut warnings: Vec<String> = inner.warnings.iter().map(|w| format!("megiddo: {w}")).collect();
    let clustering = match validate(graph, &inner.clustering) {
        Ok(()) => inner.clustering,
        Err(violations) => {
            let list: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
            warnings
                .push(format!("the megiddo clustering is invalid ({}); the program is left unfused", list.join("; ")));
            Clustering::unfused(graph)
        }
    };
    let objective = evaluate_function(graph, &clustering, &options.cost);
    Ok(Outcome {
        clustering,
        status: Status::Baseline,
        objective,
        ilp_objective: None,
        bound: None,
        solve_ms: inner.solve_ms,
        warm_start: inner.warm_start,
        effort: inner.effort,
        variables: inner.variables,
        rows: inner.rows,
        warnings,
    })
}

/// Seed 003's branch and bound (`bohrium-optimal`): `optimal` with the cost as its bound
/// when the search finished within the time limit, else the best clustering found with a
/// warning and no bound. Like every clustering, validated before use.
fn branch_and_bound_outcome(graph: &Graph, options: &AnalysisOptions) -> Outcome {
    let started = Instant::now();
    let deadline = Duration::try_from_secs_f64(options.limits.time_seconds.max(0.0)).ok().map(|d| started + d);
    let search = crate::branch_and_bound::optimal(graph, &options.cost, deadline);
    let solve_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut warnings = Vec::new();
    let (clustering, status) = match validate(graph, &search.clustering) {
        Ok(()) if search.complete => (search.clustering, Status::Optimal),
        Ok(()) => (search.clustering, Status::TimeLimit),
        Err(violations) => {
            let list: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
            warnings.push(format!(
                "the bohrium-optimal clustering is invalid ({}); the program is left unfused",
                list.join("; ")
            ));
            (Clustering::unfused(graph), Status::Fallback)
        }
    };
    let objective = evaluate_function(graph, &clustering, &options.cost);
    if status == Status::TimeLimit {
        warnings.push(format!(
            "the branch and bound stopped at its limit ({} s) after {} search nodes; the best clustering found (cost {objective}) may not be optimal, and no lower bound is known",
            options.limits.time_seconds, search.visited
        ));
    }
    Outcome {
        clustering,
        status,
        objective,
        ilp_objective: None,
        bound: (status == Status::Optimal).then_some(objective),
        solve_ms,
        warm_start: None,
        effort: None,
        variables: 0,
        rows: 0,
        warnings,
    }
}

/// The clustering of a baseline strategy, priced by the cost function and reported as
/// what it is ([`Status::Baseline`]): no bound, no ILP.
fn baseline_outcome(graph: &Graph, options: &AnalysisOptions) -> Outcome {
    let started = Instant::now();
    let clustering = match options.strategy {
        Strategy::GreedyTopDown => greedy(graph, true),
        Strategy::GreedyBottomUp => greedy(graph, false),
        Strategy::Stream => stream(graph),
        Strategy::BohriumGreedy => crate::bohrium::greedy(graph, &options.cost),
        Strategy::BohriumLinear => crate::bohrium::linear(graph, &options.cost),
        Strategy::Unfused | Strategy::Ilp | Strategy::Megiddo | Strategy::BohriumOptimal => Clustering::unfused(graph),
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
        warm_start: None,
        effort: None,
        variables: 0,
        rows: 0,
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulation;
    use crate::random::{random_graph, small_program};

    fn reads_writes() -> CostFunction {
        "reads-writes".parse().expect("a cost model")
    }

    /// The root heuristic follows the size of the model SCIP solves: none on a random
    /// program of 30 combinators, RENS at 200 (about 1500 variables, where the warm start
    /// then makes no kicks), none on a model solved whole.
    #[test]
    fn the_root_heuristic_and_the_kicks_follow_the_model_size() {
        let kind = |n: usize| {
            let ilp = formulation::build(&random_graph(n, 0), Formulation::Combined, &reads_writes()).expect("built");
            RootHeuristic::for_model(ilp.lazy_model().as_ref())
        };
        assert_eq!(kind(30), RootHeuristic::Nothing);
        assert_eq!(kind(30).warm_start_kicks(), local_search::KICKS);
        assert_eq!(kind(200), RootHeuristic::Rens);
        assert_eq!(kind(200).warm_start_kicks(), 0);
        assert_eq!(RootHeuristic::for_model(None), RootHeuristic::Nothing);
    }

    /// The warm start is a real point of the model: fixing its x and d, the solver
    /// completes it, at a cost no higher than the greedy clustering's own (the
    /// completion may add shared reads, never lose anything). And no cycle inequality
    /// cuts off the completed point or the optimum, as the proof in `cycle_cuts` says.
    #[test]
    fn warm_start_completes_and_integer_points_satisfy_every_cycle_row() {
        let limits = Limits { time_seconds: 20.0, ..Limits::default() };
        let graphs = (0..6).map(|s| random_graph(30, s)).chain((0..20).map(|s| small_program(6, s)));
        let mut started = 0;
        for g in graphs {
            let cost = reads_writes();
            let ilp = formulation::build(&g, Formulation::Combined, &cost).expect("a model");
            let cuts = ilp.cycle_cuts.clone().expect("combined has cycle cuts");
            let optimum = fusion_solver::solve(&ilp.model, &limits).expect("solved");
            assert!(cuts.violated(&optimum.values).is_empty(), "a cycle row cuts off the optimum");
            let Some(start) =
                warm_start(&g, &cost, Duration::from_secs(5), Duration::from_secs(5), local_search::KICKS)
            else {
                continue;
            };
            started += 1;
            let mut fixed = ilp.model.clone();
            for (var, value) in ilp.partial_solution(&g, &start) {
                fixed.variables[var.0].lower = value;
                fixed.variables[var.0].upper = value;
            }
            let completed = fusion_solver::solve(&fixed, &limits).expect("the warm start completes");
            assert!(cuts.violated(&completed.values).is_empty(), "a cycle row cuts off the warm start");
            let greedy_cost = evaluate_function(&g, &start, &cost);
            let completed_cost = completed.objective + ilp.objective_offset;
            assert!(completed_cost <= greedy_cost + 1e-6, "completed {completed_cost} > greedy {greedy_cost}");
            assert!(optimum.objective <= completed.objective + 1e-6);
        }
        assert!(started >= 10, "only {started} graphs had a warm start");
    }

    /// The outcome reports the warm start the solver was given: what `warm_start` finds
    /// for the graph, priced by the cost evaluator, found within the solve's own time,
    /// and never cheaper than a proven optimum. Baselines have none.
    #[test]
    fn the_outcome_reports_its_warm_start() {
        let mut reported = 0;
        for seed in 0..6 {
            let g = random_graph(30, seed);
            let options = AnalysisOptions {
                strategy: Strategy::Ilp,
                formulation: Formulation::Combined,
                cost: reads_writes(),
                limits: Limits { time_seconds: 20.0, ..Limits::default() },
                dump_ilp: None,
            };
            let outcome = choose_clustering(&g, &options).expect("an outcome");
            let expected = warm_start(
                &g,
                &options.cost,
                greedy_budget(&options),
                share_of_limit(&options, LOCAL_SEARCH_SHARE),
                local_search::KICKS,
            )
            .map(|c| evaluate_function(&g, &c, &options.cost));
            assert_eq!(outcome.warm_start.map(|w| w.objective), expected, "seed {seed}");
            if let Some(start) = outcome.warm_start {
                reported += 1;
                assert!(start.ms >= 0.0 && start.ms <= outcome.solve_ms, "{start:?} within {} ms", outcome.solve_ms);
                if outcome.status == Status::Optimal {
                    assert!(outcome.objective <= start.objective + 1e-9, "seed {seed}: {outcome:?}");
                }
            }
            let baseline = choose_clustering(&g, &AnalysisOptions { strategy: Strategy::GreedyTopDown, ..options })
                .expect("a baseline");
            assert_eq!(baseline.warm_start, None);
        }
        assert!(reported >= 4, "only {reported} of 6 graphs had a warm start");
    }

    /// A limit that strikes before the solver has a solution of its own leaves the
    /// validated warm start in use (status time-limit, no bound), not the unfused program.
    #[test]
    fn a_limit_before_any_solution_keeps_the_warm_start() {
        let mut kept = 0;
        for seed in 0..4 {
            let g = random_graph(400, seed);
            let options = AnalysisOptions {
                strategy: Strategy::Ilp,
                formulation: Formulation::Combined,
                cost: reads_writes(),
                limits: Limits { time_seconds: 0.0, ..Limits::default() },
                dump_ilp: None,
            };
            let outcome = choose_clustering(&g, &options).expect("an outcome");
            assert_ne!(outcome.status, Status::Fallback, "{:?}", outcome.warnings);
            assert!(validate(&g, &outcome.clustering).is_ok());
            if outcome.status == Status::TimeLimit && outcome.bound.is_none() {
                let unfused = evaluate_function(&g, &Clustering::unfused(&g), &options.cost);
                assert!(outcome.objective < unfused, "the warm start beats the unfused program");
                assert!(outcome.warnings.iter().any(|w| w.contains("warm start")), "{:?}", outcome.warnings);
                kept += 1;
            }
        }
        assert!(kept >= 1, "no graph hit the limit before a solution");
    }
}
