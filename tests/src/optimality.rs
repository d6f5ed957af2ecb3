//! Optimality is a checked property: on random small programs using every node kind,
//! the clustering each formulation returns under each cost model is compared with the
//! true optimum found by the exhaustive reference search
//! (`fusion_analysis::exhaustive`), which shares no code with the ILP.
//!
//! `FUSION_EXHAUSTIVE_CASES=N` runs N programs instead of the default (the long mode),
//! from seed `FUSION_EXHAUSTIVE_FIRST` (default 0).

use fusion_analysis::{
    cost::{self, CostFunction, CostModel},
    driver::{AnalysisOptions, choose_clustering},
    exhaustive,
    formulation::{self, Formulation},
    graph::{Access, Graph, NodeKind},
    random::small_program,
    rens::FixIntegralDecisions,
    report::Status,
};
use fusion_solver::Limits;

/// The cost models each formulation can express.
fn models(formulation: Formulation) -> &'static [CostModel] {
    match formulation {
        Formulation::Robinson => &[CostModel::Robinson, CostModel::FusedEdges, CostModel::IntermediateArrays],
        Formulation::Gather | Formulation::Combined => &[
            CostModel::Clusters,
            CostModel::FusedEdges,
            CostModel::IntermediateArrays,
            CostModel::Reads,
            CostModel::ReadsWrites,
            CostModel::Bytes,
            CostModel::GatheredFolds,
            CostModel::ChainedGathers,
        ],
    }
}

/// The cost functions compared under `formulation`: each model it can express alone,
/// and for the linear formulations the pipeline's default (a sum of two models).
fn cost_functions(formulation: Formulation) -> Vec<CostFunction> {
    let mut costs: Vec<CostFunction> = models(formulation).iter().map(|m| CostFunction::single(*m)).collect();
    if formulation != Formulation::Robinson {
        costs.push(CostFunction::default());
    }
    costs
}

/// Compares every formulation × cost model on one program; the mismatches, described.
pub fn compare(g: &Graph) -> Vec<String> {
    let mut costs: Vec<CostFunction> = CostModel::ALL.iter().map(|m| CostFunction::single(*m)).collect();
    costs.push(CostFunction::default());
    let Some(full) = exhaustive::search(g, &costs) else { return vec![format!("too large:\n{g}")] };
    let Some(directions) = exhaustive::search_with_max_order(g, &costs, 1) else { unreachable!() };
    let mut problems = Vec::new();
    for formulation in [Formulation::Combined, Formulation::Gather, Formulation::Robinson] {
        // Seed 001's formulation knows only the orders 0 and 1 (see formulation.rs).
        let reference = if formulation == Formulation::Robinson { &directions } else { &full };
        for model in cost_functions(formulation) {
            let k = costs.iter().position(|c| *c == model).unwrap();
            let best = &reference.optima[k];
            let options = AnalysisOptions {
                strategy: Default::default(),
                formulation,
                cost: costs[k].clone(),
                limits: Limits { time_seconds: 20.0, ..Limits::default() },
                dump_ilp: None,
            };
            let o = match choose_clustering(g, &options) {
                Ok(o) => o,
                Err(e) => {
                    problems.push(format!("{formulation} {model}: error {e}"));
                    continue;
                }
            };
            let tol = 1e-6 * best.cost.abs().max(1.0);
            let what = format!(
                "{formulation} {model}: status {} objective {} (ilp {:?}), exhaustive {} with {:?} orders {:?}; ilp clusters {:?} orders {:?} warnings {:?}",
                o.status.as_str(),
                o.objective,
                o.ilp_objective,
                best.cost,
                best.clustering.names(g),
                best.clustering.output_orders,
                o.clustering.names(g),
                o.clustering.output_orders,
                o.warnings
            );
            // No valid clustering costs less than the optimum over every clustering (seed
            // 001's formulation's answer may be the driver's warm start, which may use a
            // gather's order: outside that formulation's space, never below `full`).
            let floor = full.optima[k].cost;
            // The bound covers the formulation's space; the driver drops it only when it
            // uses a warm start cheaper than the bound (outside that space).
            let warm_start_used = o.warnings.iter().any(|w| w.contains("using the warm start"));
            if o.objective < floor - 1e-6 * floor.abs().max(1.0) {
                problems.push(format!("below the exhaustive optimum (a search bug): {what}"));
            } else if o.bound.is_some_and(|b| b > best.cost + tol) || (o.bound.is_none() && !warm_start_used) {
                problems.push(format!("no sound lower bound: {what}"));
            } else if o.status == Status::Optimal && o.objective > best.cost + tol {
                problems.push(format!("reported optimal but worse: {what}"));
            } else if o.status != Status::Optimal
                && (formulation != Formulation::Robinson || o.status != Status::Unproven)
            {
                // Only seed 001's formulation may end unproven (see report::Status).
                problems.push(format!("not optimal: {what}"));
            }
        }
    }
    problems
}

fn cases() -> u64 {
    std::env::var("FUSION_EXHAUSTIVE_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(150)
}

/// The first program's seed (`FUSION_EXHAUSTIVE_FIRST`, default 0).
fn first_seed() -> u64 {
    std::env::var("FUSION_EXHAUSTIVE_FIRST").ok().and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// Each of `models` alone, and the pipeline's default cost.
fn with_the_default(models: &[CostModel]) -> Vec<CostFunction> {
    let mut costs: Vec<CostFunction> = models.iter().map(|m| CostFunction::single(*m)).collect();
    costs.push(CostFunction::default());
    costs
}

#[test]
fn ilp_optimum_equals_exhaustive_optimum_on_random_programs() {
    let mut failures = Vec::new();
    let n = cases();
    let first = first_seed();
    for seed in first..first + n {
        let g = small_program(3 + (seed % 5) as usize, seed);
        for p in compare(&g) {
            failures.push(format!("seed {seed}: {p}\n{g}"));
        }
    }
    let mut by_kind = std::collections::BTreeMap::new();
    for f in &failures {
        // "seed N: <what>: <formulation> <cost>: status …"
        let key: String = f.splitn(4, ':').skip(1).take(2).collect::<Vec<_>>().join(":");
        *by_kind.entry(key).or_insert(0) += 1;
    }
    assert!(
        failures.is_empty(),
        "{} mismatches over {n} programs: {by_kind:?}\nfirst ones:\n{}",
        failures.len(),
        failures.iter().take(6).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The cycle rows' propagation at every node of the search and the root heuristic that
/// fixes the decisions the LP decides (`rens`; both on by default only above
/// `formulation::PROPAGATE_ABOVE_VARIABLES` and `formulation::RENS_ABOVE_VARIABLES`, far
/// beyond these programs) forced on: the lazy model, solved as the driver solves it
/// there, still reaches the exhaustive optimum, and its answer, completed with
/// positions, is a point of the full model.
#[test]
fn propagating_the_cycle_rows_and_fixing_decided_fusions_keep_the_exhaustive_optimum() {
    let costs = with_the_default(&[
        CostModel::ReadsWrites,
        CostModel::FusedEdges,
        CostModel::IntermediateArrays,
        CostModel::Reads,
    ]);
    let mut failures = Vec::new();
    let mut solved = 0;
    let first = first_seed();
    for seed in first..first + cases() {
        let g = small_program(3 + (seed % 5) as usize, seed);
        let Some(reference) = exhaustive::search(&g, &costs) else { continue };
        for (k, cost) in costs.iter().enumerate() {
            let ilp = formulation::build(&g, Formulation::Combined, cost).expect("combined expresses these costs");
            let (Some(model), Some(cuts)) = (ilp.lazy_model(), ilp.cycle_cuts.clone()) else { continue };
            let hooks = fusion_solver::Hooks {
                separator: Some(Box::new(cuts.propagating(true))),
                lazy: true,
                heuristic: Some(Box::new(FixIntegralDecisions::new(ilp.fusion_decisions()))),
                ..fusion_solver::Hooks::default()
            };
            let limits = Limits { time_seconds: 20.0, ..Limits::default() };
            let outcome =
                fusion_solver::solve_with(&model, &limits, hooks).map_err(|e| e.to_string()).and_then(|mut s| {
                    ilp.complete_positions(&mut s.values)?;
                    fusion_solver::check_feasible(&ilp.model, &s.values, 1e-6)?;
                    Ok(s)
                });
            let best = reference.optima[k].cost;
            match outcome {
                Ok(s)
                    if s.status == fusion_solver::SolveStatus::Optimal
                        && (s.objective + ilp.objective_offset - best).abs() <= 1e-6 * best.abs().max(1.0) =>
                {
                    solved += 1
                }
                Ok(s) => failures.push(format!(
                    "seed {seed} {cost}: {:?} objective {} against the exhaustive {best}",
                    s.status,
                    s.objective + ilp.objective_offset
                )),
                Err(e) => failures.push(format!("seed {seed} {cost}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    assert!(solved > 100, "only {solved} lazy solves compared");
}

/// The pipeline with `threads=2` (the default formulation races two differently
/// seeded solves that share incumbents, `fusion_solver::solve_racing`) reaches the
/// exhaustive optimum and reports it `optimal`, its clustering validated by the driver.
#[test]
fn racing_solves_keep_the_exhaustive_optimum() {
    let costs =
        with_the_default(&[CostModel::ReadsWrites, CostModel::FusedEdges, CostModel::Reads, CostModel::Clusters]);
    let mut failures = Vec::new();
    let mut solved = 0;
    let first = first_seed();
    for seed in first..first + cases() / 2 {
        let g = small_program(3 + (seed % 5) as usize, seed);
        let Some(reference) = exhaustive::search(&g, &costs) else { continue };
        for (k, cost) in costs.iter().enumerate() {
            let options = AnalysisOptions {
                strategy: Default::default(),
                formulation: Formulation::Combined,
                cost: cost.clone(),
                limits: Limits { time_seconds: 20.0, threads: 2, ..Limits::default() },
                dump_ilp: None,
            };
            let best = reference.optima[k].cost;
            match choose_clustering(&g, &options) {
                Ok(o) if o.status == Status::Optimal && (o.objective - best).abs() <= 1e-6 * best.abs().max(1.0) => {
                    solved += 1
                }
                Ok(o) => failures.push(format!(
                    "seed {seed} {cost}: {} objective {} against the exhaustive {best}, warnings {:?}",
                    o.status.as_str(),
                    o.objective,
                    o.warnings
                )),
                Err(e) => failures.push(format!("seed {seed} {cost}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    assert!(solved > 100, "only {solved} racing solves compared");
}

/// The comparison is not vacuous: the programs use every node kind, and the optimum
/// often fuses.
#[test]
fn random_small_programs_use_every_kind_and_fuse() {
    let mut kinds = std::collections::BTreeSet::new();
    let mut fused = 0;
    for seed in 0..60 {
        let g = small_program(3 + (seed % 5) as usize, seed);
        for n in &g.nodes {
            kinds.insert(match n.kind {
                NodeKind::Gather { .. } => "gather",
                NodeKind::Scan { backward } => {
                    if backward {
                        "scanr"
                    } else {
                        "scanl"
                    }
                }
                k => k.mnemonic(),
            });
        }
        let r = exhaustive::search(&g, &[CostFunction::single(CostModel::ReadsWrites)]).expect("small");
        if r.optima[0].clustering.clusters.len() < g.nodes.len() {
            fused += 1;
        }
    }
    for k in ["map", "generate", "gather", "fold", "scanl", "scanr", "filter", "expand", "scatter", "input"] {
        assert!(kinds.contains(k), "no {k} in 60 programs: {kinds:?}");
    }
    assert!(fused >= 30, "only {fused} of 60 optima fuse anything");
}

/// The comparison of `gathered-folds` is not vacuous either. Few random programs gather
/// a fold's output, so among the first seeds those that do are compared here, every
/// formulation × cost function as above; in some of them the `reads-writes` optimum runs
/// a fold in a gather's order, and the default cost's optimum runs none there.
#[test]
fn programs_that_gather_a_fold_compare_and_the_default_cost_keeps_folds_in_order() {
    let costs = [CostFunction::single(CostModel::ReadsWrites), CostFunction::default()];
    let (mut compared, mut gathered) = (0, 0);
    let mut failures = Vec::new();
    for seed in 0..20 * cases() {
        let g = small_program(3 + (seed % 5) as usize, seed);
        let gathers_a_fold = g.edges.iter().any(|e| {
            matches!(g.node(e.from).kind, NodeKind::Fold { .. }) && matches!(e.access, Access::GatherSource { .. })
        });
        if !gathers_a_fold {
            continue;
        }
        compared += 1;
        for p in compare(&g) {
            failures.push(format!("seed {seed}: {p}\n{g}"));
        }
        let r = exhaustive::search(&g, &costs).expect("small");
        if cost::gathered_folds(&g, &r.optima[0].clustering) > 0 {
            gathered += 1;
            assert_eq!(cost::gathered_folds(&g, &r.optima[1].clustering), 0, "seed {seed}:\n{g}");
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures[..failures.len().min(4)].join("\n"));
    assert!(gathered >= 3, "only {gathered} of {compared} programs that gather a fold gather it fused");
}

/// The same for `chained-gathers`: among the first seeds, the programs whose
/// `reads-writes` optimum runs a gather in another gather's order are compared, every
/// formulation × cost function as above (the first three: each compares in seconds, as
/// gathers multiply the orders), and the default cost's optimum runs none there.
#[test]
fn programs_that_chain_gathers_compare_and_the_default_cost_keeps_gathers_unchained() {
    let costs = [CostFunction::single(CostModel::ReadsWrites), CostFunction::default()];
    let mut chained = 0;
    let mut failures = Vec::new();
    for seed in 0..20 * cases() {
        let g = small_program(3 + (seed % 5) as usize, seed);
        let gathers_a_gather = g.edges.iter().any(|e| {
            matches!(g.node(e.from).kind, NodeKind::Gather { .. }) && matches!(e.access, Access::GatherSource { .. })
        });
        if !gathers_a_gather {
            continue;
        }
        let r = exhaustive::search(&g, &costs).expect("small");
        if cost::chained_gathers(&g, &r.optima[0].clustering) == 0 {
            continue;
        }
        chained += 1;
        assert_eq!(cost::chained_gathers(&g, &r.optima[1].clustering), 0, "seed {seed}:\n{g}");
        for p in compare(&g) {
            failures.push(format!("seed {seed}: {p}\n{g}"));
        }
        if chained == 3 {
            break;
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures[..failures.len().min(4)].join("\n"));
    assert_eq!(chained, 3, "only {chained} programs whose reads-writes optimum chains gathers");
}

/// The comparison checks the proofs of the combined formulation's tightenings only
/// where they appear: among the programs compared by default, some combined models
/// (cost reads-writes) hold rows of every family.
#[test]
fn compared_programs_exercise_every_tightening_of_combined() {
    let families = [
        "share_transitive_",   // add_share_transitivity
        "high_order_read_",    // add_high_order_read
        "some_read_",          // add_reads: Σ r ≥ x
        "saved_by_payer_",     // add_reads: w ≤ r_j
        "first_payer_",        // add_first_payer_rows
        "share_reads_memory_", // add_shares_between_memory_readers: z ≤ x
    ];
    let cost = CostFunction::single(CostModel::ReadsWrites);
    let mut seen = std::collections::BTreeMap::new();
    for seed in 0..cases() {
        let g = small_program(3 + (seed % 5) as usize, seed);
        let Ok(ilp) = formulation::build(&g, Formulation::Combined, &cost) else { continue };
        for row in &ilp.model.rows {
            if let Some(f) = families.iter().find(|f| row.name.starts_with(**f)) {
                *seen.entry(*f).or_insert(0) += 1;
            }
        }
    }
    for f in families {
        assert!(seen.contains_key(f), "no {f} row in {} programs: {seen:?}", cases());
    }
}
