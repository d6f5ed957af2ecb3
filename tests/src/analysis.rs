//! The optimal fusion analysis on the papers' programs: the clusterings the papers
//! report, consistency between the ILP and the independent cost evaluator, and the
//! validator's verdict on every solver answer.

use crate::graphs::graph;
use fusion_analysis::{
    baseline::Strategy,
    cost::{CostFunction, CostModel},
    driver::{AnalysisOptions, Outcome, choose_clustering},
    formulation::{self, Formulation},
    graph::Graph,
    random::random_graph,
    report::{Status, cluster_names},
    validate::validate,
};
use fusion_solver::Limits;

fn options(formulation: Formulation, cost: &str) -> AnalysisOptions {
    AnalysisOptions {
        strategy: Default::default(),
        formulation,
        cost: cost.parse().expect("cost parses"),
        limits: Limits { time_seconds: 30.0, ..Limits::default() },
        dump_ilp: None,
    }
}

fn solve(g: &Graph, formulation: Formulation, cost: &str) -> Outcome {
    let o = choose_clustering(g, &options(formulation, cost)).unwrap_or_else(|e| panic!("{e}\n{g}"));
    assert_eq!(o.status, Status::Optimal, "warnings: {:?}\n{g}", o.warnings);
    o
}

/// seed 001's formulation, which may end `unproven`: its objective rewards unrelated
/// loops of one size in one cluster, which seed 000 §4.1 splits (report::Status). The
/// clustering is valid either way, and its cost is bounded by the solver's bound.
fn solve_robinson(g: &Graph) -> Outcome {
    let o = choose_clustering(g, &options(Formulation::Robinson, "robinson")).unwrap_or_else(|e| panic!("{e}\n{g}"));
    assert!(matches!(o.status, Status::Optimal | Status::Unproven), "{:?}: {:?}\n{g}", o.status, o.warnings);
    assert!(o.bound.is_some_and(|b| b <= o.objective + 1e-9), "bound {:?} objective {}", o.bound, o.objective);
    assert_eq!(o.status == Status::Optimal, o.bound == Some(o.objective), "{:?}", o.warnings);
    o
}

fn clusters(g: &Graph, o: &Outcome) -> Vec<Vec<String>> {
    cluster_names(g, &o.clustering)
}

fn cluster_with<'a>(all: &'a [Vec<String>], name: &str) -> &'a Vec<String> {
    all.iter().find(|c| c.iter().any(|n| n == name)).unwrap_or_else(|| panic!("{name} in no cluster: {all:?}"))
}

/// seed 001 §1.5.1, Figs. 1.15–1.16: optimal value 51 with {sum1, gts, sum2}, {ys1, ys2}.
#[test]
fn normalize2_with_robinsons_ilp_has_value_51_and_the_papers_clusters() {
    let g = graph("seed001_normalize2.mlir", "normalize2");
    let o = solve(&g, Formulation::Robinson, "robinson");
    assert_eq!(o.ilp_objective, Some(51.0));
    assert_eq!(o.objective, 51.0);
    assert_eq!(clusters(&g, &o), vec![vec!["sum1", "gts", "sum2"], vec!["ys1", "ys2"]]);
}

/// seed 001 Table 1.1, last column: the number of loops of our clustering.
#[test]
fn table_1_1_loop_counts() {
    let count = |file: &str, functions: &[&str]| -> usize {
        functions
            .iter()
            .map(|f| {
                let g = graph(file, f);
                clusters(&g, &solve_robinson(&g)).len()
            })
            .sum()
    };
    assert_eq!(count("seed001_normalize2.mlir", &["normalize2"]), 2);
    assert_eq!(count("seed001_closest_points.mlir", &["closestPointsStep"]), 4);
    assert_eq!(count("seed001_quickhull.mlir", &["filterMax"]), 1);
    // quadtree: initialBounds (one loop) and the four filters of `go`, which sit in
    // the else-branch of go's guards: a nested block, analysed on its own.
    let bounds = count("seed001_quadtree.mlir", &["initialBounds"]);
    let context = array_dialect::context();
    let path = crate::repo_root().join("examples/seed001_quadtree.mlir");
    let module = array_dialect::source::load_file(&context, &path).unwrap();
    let source = std::fs::read_to_string(&path).unwrap();
    use melior::ir::operation::OperationLike;
    let mut filters_loops = 0;
    module.as_operation().walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        use melior::ir::operation::OperationLike;
        use melior::ir::{BlockLike, RegionLike};
        if op.name().as_string_ref().as_str() == Ok("scf.if") {
            for region in op.regions() {
                if let Some(block) = region.first_block() {
                    let mut has_filter = false;
                    let mut o = block.first_operation();
                    while let Some(inner) = o {
                        has_filter |= inner.name().as_string_ref().as_str() == Ok("array.filter");
                        o = inner.next_in_block();
                    }
                    if has_filter {
                        let g = fusion_passes::extract::extract(block, Some(&source)).unwrap();
                        filters_loops += clusters(&g, &solve_robinson(&g)).len();
                    }
                }
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    assert_eq!(bounds + filters_loops, 2);
}

/// seed 000 §1: singleLoop fuses into one loop (diagonal fusion, two reads of `as`).
#[test]
fn single_loop_is_one_cluster() {
    let g = graph("seed000_single_loop.mlir", "singleLoop");
    for cost in ["reads-writes", "reads", "intermediate-arrays", "fused-edges"] {
        let o = solve(&g, Formulation::Combined, cost);
        assert_eq!(clusters(&g, &o).len(), 1, "{cost}: {:?}", clusters(&g, &o));
    }
}

/// seed 000 §3.4, Fig. 3: `as` fuses into the scatter; `bs` is computed before.
#[test]
fn scatter_example_fuses_as_into_the_scatter() {
    let g = graph("seed000_scatter_example.mlir", "scatterExample");
    let o = solve(&g, Formulation::Combined, "reads-writes");
    let c = clusters(&g, &o);
    assert_eq!(c, vec![vec!["bs"], vec!["as", "result"]]);
}

/// seed 000 §3.3: `as` is an output, so it cannot be produced in the gather's order.
#[test]
fn simple3_keeps_as_out_of_the_gathers_cluster() {
    let g = graph("seed000_simple.mlir", "simple3");
    for formulation in [Formulation::Combined, Formulation::Gather] {
        let o = solve(&g, formulation, "reads-writes");
        let c = clusters(&g, &o);
        assert!(!cluster_with(&c, "as").contains(&"bs".to_owned()), "{c:?}");
    }
    // simple1 (same program, `as` not returned) does fuse, with `as` in order l.
    let g = graph("seed000_simple.mlir", "simple1");
    let o = solve(&g, Formulation::Combined, "reads-writes");
    assert_eq!(clusters(&g, &o), vec![vec!["as", "bs"]]);
    let as_node = g.find("as").unwrap();
    assert!(o.clustering.output_orders[as_node.0] >= 2, "as must be produced in the gather's order");
}

/// seed 000 §5: bottom-up greedy fuses `result` into `ys` and leaves `large` manifest;
/// the ILP contracts `large` by fusing both folds with it. Under the paper's cost
/// functions (d) reads and (c) intermediate arrays.
#[test]
fn greedy_bottom_up_counterexample() {
    let g = graph("seed000_greedy.mlir", "greedyBottomUpBad");
    for cost in ["reads", "intermediate-arrays"] {
        let o = solve(&g, Formulation::Combined, cost);
        let c = clusters(&g, &o);
        let with_large = cluster_with(&c, "large");
        assert!(with_large.contains(&"ys".into()) && with_large.contains(&"zs".into()), "{cost}: {c:?}");
        assert!(!with_large.contains(&"result".into()), "{cost}: {c:?}");
    }
}

/// With the traffic model weighted by bytes, the rank-2 `large` outweighs everything
/// else, so the ILP contracts it even under reads + writes.
#[test]
fn greedy_bottom_up_counterexample_under_bytes() {
    let g = graph("seed000_greedy.mlir", "greedyBottomUpBad");
    let o = solve(&g, Formulation::Combined, "bytes");
    let c = clusters(&g, &o);
    let with_large = cluster_with(&c, "large");
    assert!(with_large.contains(&"ys".into()) && with_large.contains(&"zs".into()), "{c:?}");
}

/// seed 000 §5: top-down greedy fuses `cs` diagonally with `bs`; the ILP fuses `cs`
/// vertically with `es` (bs must be complete before ds reads bs!0).
#[test]
fn greedy_top_down_counterexample() {
    let g = graph("seed000_greedy.mlir", "greedyTopDownBad");
    let o = solve(&g, Formulation::Combined, "reads-writes");
    let c = clusters(&g, &o);
    let with_cs = cluster_with(&c, "cs");
    assert!(with_cs.contains(&"es".into()) && !with_cs.contains(&"bs".into()), "{c:?}");
}

/// seed 002 §4.4: the extended normalise2 fuses the map into the first half
/// diagonally: {xs, sum1, scn, sum2}, {ys1, ys2}.
#[test]
fn extended_normalise2_fuses_diagonally() {
    let g = graph("seed002_normalise2.mlir", "normalise2Extended");
    let o = solve(&g, Formulation::Combined, "reads-writes");
    assert_eq!(clusters(&g, &o), vec![vec!["xs", "sum1", "scn", "sum2"], vec!["ys1", "ys2"]]);
}

/// For the cost models the linear ILP counts exactly, its optimum equals the
/// independent evaluation of the clustering read back from it, on every example.
#[test]
fn ilp_objective_matches_the_independent_cost_on_all_examples() {
    let dir = crate::repo_root().join("examples");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        // Only the programs (examples/inputs/ holds input files).
        if !file.ends_with(".mlir") {
            continue;
        }
        for (name, g) in crate::graphs::graphs_of(&file) {
            let g = g.unwrap();
            if !g.nodes.iter().any(|n| n.kind.is_fusible_kind()) {
                continue;
            }
            for cost in ["reads-writes", "reads", "intermediate-arrays", "fused-edges"] {
                let o = solve(&g, Formulation::Combined, cost);
                let ilp = o.ilp_objective.unwrap();
                assert!(
                    (ilp - o.objective).abs() < 1e-6,
                    "{file} {name} {cost}: ILP {ilp} vs evaluated {}\n{g}",
                    o.objective
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// Every solver answer on random programs passes the validator (no fallback), for
/// both linear formulations, and the combined one is never worse than the paper's.
#[test]
fn random_programs_get_valid_optimal_clusterings() {
    for seed in 0..12 {
        for size in [8, 20, 40] {
            let g = random_graph(size, seed);
            let combined = solve(&g, Formulation::Combined, "reads-writes");
            let gather = solve(&g, Formulation::Gather, "reads-writes");
            validate(&g, &combined.clustering).unwrap();
            validate(&g, &gather.clustering).unwrap();
            assert!(
                combined.objective <= gather.objective + 1e-6,
                "seed {seed} size {size}: {} > {}\n{g}",
                combined.objective,
                gather.objective
            );
        }
    }
}

/// The LP text of the paper's normalize2 model, to review against Fig. 1.15.
#[test]
fn normalize2_robinson_lp_snapshot() {
    let g = graph("seed001_normalize2.mlir", "normalize2");
    let ilp = formulation::build(&g, Formulation::Robinson, &CostFunction::single(CostModel::Robinson)).unwrap();
    insta::assert_snapshot!(fusion_solver::lp::write_lp(&ilp.model));
}

/// The LP text of scatterExample under seed 000 Fig. 4 exactly.
#[test]
fn scatter_example_gather_formulation_lp_snapshot() {
    let g = graph("seed000_scatter_example.mlir", "scatterExample");
    let ilp = formulation::build(&g, Formulation::Gather, &"reads-writes".parse().unwrap()).unwrap();
    insta::assert_snapshot!(fusion_solver::lp::write_lp(&ilp.model));
}

/// An impossible request is an error, not a wrong answer.
#[test]
fn robinson_cost_needs_robinson_formulation() {
    let g = graph("seed001_normalize2.mlir", "normalize2");
    let e = choose_clustering(&g, &options(Formulation::Combined, "robinson")).unwrap_err();
    assert!(e.to_string().contains("formulation=robinson"), "{e}");
}

/// Every formulation with every cost model on random programs: a validated clustering
/// (solved, or the unfused fallback with a warning), or a clear error for the pairs
/// that cannot be combined; never a panic.
#[test]
fn every_formulation_and_cost_gives_a_valid_clustering_or_a_clear_error() {
    let costs = [
        "clusters",
        "fused-edges",
        "intermediate-arrays",
        "reads",
        "reads-writes",
        "robinson",
        "bytes",
        "reads-writes+0.5*clusters",
        "max-locality",
        "reads+max-locality",
    ];
    for seed in 0..6 {
        let g = random_graph(12, 100 + seed);
        for formulation in [Formulation::Combined, Formulation::Gather, Formulation::Robinson] {
            for cost in costs {
                match choose_clustering(&g, &options(formulation, cost)) {
                    Ok(o) => {
                        // No formulation models seed 003's Max Locality, even as one term.
                        assert!(!cost.contains("max-locality"), "{formulation} {cost}: solved");
                        validate(&g, &o.clustering).unwrap_or_else(|v| panic!("{formulation} {cost}: {v:?}"))
                    }
                    // Alone it is refused for that reason; in a combination an earlier
                    // term may be refused first (`reads` under robinson).
                    Err(e) if cost.contains("max-locality") => assert!(
                        cost != "max-locality" || e.to_string().contains("strategy=bohrium-optimal"),
                        "{formulation} {cost}: {e}"
                    ),
                    Err(e) => {
                        let robinson_pair = (cost == "robinson") != (formulation == Formulation::Robinson);
                        let orders_needed = formulation == Formulation::Robinson
                            && ["reads", "reads-writes", "bytes"].iter().any(|c| cost.starts_with(c));
                        assert!(robinson_pair || orders_needed, "{formulation} {cost}: unexpected error {e}");
                    }
                }
            }
        }
    }
}

/// An ILP-based baseline listed in [`NOT_PROVEN_IN_TIME`]: 5 s, and at most the warning
/// that the limit struck.
fn slow_baseline(g: &Graph, strategy: Strategy, cost: &str) -> Outcome {
    let mut options = AnalysisOptions { strategy, ..options(Formulation::Combined, cost) };
    options.limits.time_seconds = 5.0;
    let o = choose_clustering(g, &options).unwrap_or_else(|e| panic!("{e}\n{g}"));
    assert_eq!(o.status, Status::Baseline);
    assert!(o.warnings.iter().all(|w| w.contains("stopped at its limit")), "{:?}", o.warnings);
    validate(g, &o.clustering).unwrap();
    o
}

fn baseline(g: &Graph, strategy: Strategy, cost: &str) -> Outcome {
    let options = AnalysisOptions { strategy, ..options(Formulation::Combined, cost) };
    let o = choose_clustering(g, &options).unwrap_or_else(|e| panic!("{e}\n{g}"));
    assert_eq!(o.status, Status::Baseline);
    assert!(o.warnings.is_empty(), "{:?}", o.warnings);
    validate(g, &o.clustering).unwrap();
    o
}

/// Seed 001 Table 1.1's loop counts (unfused / Stream / Megiddo / ours) reproduce for
/// normalize2 (5 / 4 / 3 / 2) and quickhull's filterMax (4 / 3 / 2 / 1). For closest
/// points the seed lists 7 / 6 / 4 / 4; our program has more combinators (12 unfused)
/// and Megiddo's model gives 6 loops here, not the seed's 4 (its program is not printed
/// whole), so that row is not asserted.
#[test]
fn seed001_table_1_1_loop_counts_reproduce() {
    let loops = |g: &Graph, o: &Outcome| {
        o.clustering.clusters.iter().filter(|c| c.iter().any(|n| g.node(*n).kind.is_fusible_kind())).count()
    };
    for (file, function, expected) in
        [("seed001_normalize2.mlir", "normalize2", [5, 4, 3, 2]), ("seed001_quickhull.mlir", "filterMax", [4, 3, 2, 1])]
    {
        let g = graph(file, function);
        let counts = [
            loops(&g, &baseline(&g, Strategy::Unfused, "reads-writes")),
            loops(&g, &baseline(&g, Strategy::Stream, "reads-writes")),
            loops(&g, &baseline(&g, Strategy::Megiddo, "reads-writes")),
            loops(&g, &solve(&g, Formulation::Combined, "reads-writes")),
        ];
        assert_eq!(counts, expected, "{function}: unfused / stream / megiddo / ILP loops");
    }
}

/// seed 000 §5: top-down greedy fuses `cs` diagonally with `bs`, which the ILP does not,
/// and pays for it under reads + writes.
#[test]
fn greedy_top_down_falls_into_the_seeds_trap() {
    let g = graph("seed000_greedy.mlir", "greedyTopDownBad");
    let greedy = baseline(&g, Strategy::GreedyTopDown, "reads-writes");
    let greedy_clusters = clusters(&g, &greedy);
    let with_cs = cluster_with(&greedy_clusters, "cs");
    assert!(with_cs.contains(&"bs".into()), "{with_cs:?}");
    let ilp = solve(&g, Formulation::Combined, "reads-writes");
    assert!(ilp.objective < greedy.objective, "ILP {} vs greedy {}", ilp.objective, greedy.objective);
}

/// seed 001 Table 1.1, the "Stream" loop counts: normalize2 4, closest points 6,
/// quickhull (filterMax) 3. Quadtree: the seed counts 8 loops after replacing
/// initialBounds' two maps by a constant-time unzip, which this dialect has no op for;
/// with the maps, as the seed says ("would require a separate loop for each map
/// operation, as each result is used twice"), initialBounds has 6 and go 4.
#[test]
fn stream_baseline_has_seed_001_loop_counts() {
    for (file, function, loops) in [
        ("seed001_normalize2.mlir", "normalize2", 4),
        ("seed001_closest_points.mlir", "closestPointsStep", 6),
        ("seed001_quickhull.mlir", "filterMax", 3),
        ("seed001_quadtree.mlir", "initialBounds", 6),
    ] {
        let g = graph(file, function);
        let o = baseline(&g, Strategy::Stream, "reads-writes");
        let real_loops =
            o.clustering.clusters.iter().filter(|c| c.iter().any(|n| g.node(*n).kind.is_fusible_kind())).count();
        assert_eq!(real_loops, loops, "{function}: {:?}", clusters(&g, &o));
    }
}

/// seed 001 Table 1.1, the "Megiddo" loop counts: normalize2 3 (the filter's fold
/// alone: it loops over the filter's output), quickhull's filterMax 2 (the map over the
/// filter's output alone), quadtree 2 (initialBounds and go one loop each; go's four
/// filters sit in a block nested in `scf.if`, checked in lit/analysis/strategies.mlir). Closest
/// points is left out: the seed encodes its recursion and `length` as external
/// combinators, so its loop counts are of another graph.
#[test]
fn megiddo_baseline_has_seed_001_loop_counts() {
    for (function, g, loops) in [
        ("normalize2", graph("seed001_normalize2.mlir", "normalize2"), 3),
        ("filterMax", graph("seed001_quickhull.mlir", "filterMax"), 2),
        ("initialBounds", graph("seed001_quadtree.mlir", "initialBounds"), 1),
    ] {
        let o = baseline(&g, Strategy::Megiddo, "reads-writes");
        let real_loops =
            o.clustering.clusters.iter().filter(|c| c.iter().any(|n| g.node(*n).kind.is_fusible_kind())).count();
        assert_eq!(real_loops, loops, "{function}: {:?}", clusters(&g, &o));
        // Megiddo's model allows fewer clusterings than ours: never below our optimum.
        let optimum = solve(&g, Formulation::Combined, "reads-writes");
        assert!(o.objective >= optimum.objective, "{function}: {} below {}", o.objective, optimum.objective);
    }
}

/// Example functions, cost models and ILP-based strategies whose optimum SCIP does not
/// prove within the test's time (issue 9): under `clusters`, conflicts between traversal
/// orders leave the LP bound below the best clustering found (the D2Q9 and water-ice
/// steps: bound 2, found 3). There the test gives the solver 5 s, takes its incumbent with the time-limit
/// warning, and compares the baselines with the ILP's proven lower bound.
const NOT_PROVEN_IN_TIME: &[(&str, &str, Strategy)] = &[
    ("seed003_lattice_boltzmann.mlir lbmStep", "clusters", Strategy::Ilp),
    ("seed003_lattice_boltzmann.mlir lbmStep", "clusters", Strategy::Megiddo),
    ("seed000_lulesh.mlir hydroStep", "clusters", Strategy::Megiddo),
    ("seed003_water_ice.mlir wispStep", "clusters", Strategy::Ilp),
    ("seed003_water_ice.mlir wispStep", "clusters", Strategy::Megiddo),
];

/// On every example and random program, under every cost model the combined ILP
/// expresses, each baseline's clustering is valid and never cheaper than the ILP's
/// proven optimum (or, for [`NOT_PROVEN_IN_TIME`], its proven bound); the greedy ones
/// fuse an edge wherever the optimum does.
#[test]
fn baselines_are_valid_and_never_beat_the_optimum() {
    let mut graphs: Vec<(String, Graph)> = Vec::new();
    for entry in std::fs::read_dir(crate::repo_root().join("examples")).unwrap() {
        let file = entry.unwrap().path().file_name().unwrap().to_string_lossy().into_owned();
        if !file.ends_with(".mlir") {
            continue;
        }
        for (name, g) in crate::graphs::graphs_of(&file) {
            graphs.push((format!("{file} {name}"), g.unwrap()));
        }
    }
    for seed in 0..6 {
        graphs.push((format!("random seed {seed}"), random_graph(10, seed)));
    }
    let mut compared = 0;
    for (what, g) in &graphs {
        if !g.nodes.iter().any(|n| n.kind.is_fusible_kind()) {
            continue;
        }
        for cost in ["reads-writes", "reads", "intermediate-arrays", "fused-edges", "clusters", "bytes"] {
            let slow = |strategy| NOT_PROVEN_IN_TIME.contains(&(what.as_str(), cost, strategy));
            let (optimum, floor) = if slow(Strategy::Ilp) {
                let mut o = options(Formulation::Combined, cost);
                o.limits.time_seconds = 5.0;
                let outcome = choose_clustering(g, &o).unwrap_or_else(|e| panic!("{e}\n{g}"));
                assert!(
                    matches!(outcome.status, Status::Optimal | Status::TimeLimit),
                    "{what} {cost}: {:?}",
                    outcome.status
                );
                let bound = outcome.bound.expect("a proven lower bound");
                assert!(bound <= outcome.objective + 1e-6);
                (outcome, bound)
            } else {
                let o = solve(g, Formulation::Combined, cost);
                let objective = o.objective;
                (o, objective)
            };
            for strategy in [
                Strategy::Unfused,
                Strategy::GreedyTopDown,
                Strategy::GreedyBottomUp,
                Strategy::Stream,
                Strategy::Megiddo,
                Strategy::BohriumGreedy,
                Strategy::BohriumLinear,
            ] {
                let o = if slow(strategy) { slow_baseline(g, strategy, cost) } else { baseline(g, strategy, cost) };
                assert!(
                    o.objective >= floor - 1e-6,
                    "{what} {cost}: {strategy} costs {} below the optimum (or bound) {floor}",
                    o.objective,
                );
                compared += 1;
            }
            // Greedy fuses along edges only (never horizontally: baseline.rs).
            let fuses_an_edge = |o: &Outcome| {
                let of = o.clustering.cluster_of(g.nodes.len());
                g.edges.iter().any(|e| e.is_fusible() && of[e.from.0] == of[e.to.0])
            };
            if fuses_an_edge(&optimum) {
                for strategy in [Strategy::GreedyTopDown, Strategy::GreedyBottomUp] {
                    assert!(fuses_an_edge(&baseline(g, strategy, cost)), "{what} {cost}: {strategy} fuses no edge");
                }
            }
        }
    }
    assert!(compared > 300, "{compared}");
}

/// Where the ILP's answer is not proven optimal, the driver uses the warm start when it
/// is cheaper: under seed 001's `robinson` cost, whose formulation cannot fuse a gather
/// with its source, the attention and multigrid programs' ILP clusterings cost more than
/// greedy bottom-up's (issue 12: 9851 against 3672, 43843 against 42779). The clustering
/// used is never costlier than either greedy baseline, is valid, is not called optimal,
/// and a warning says the warm start is used.
#[test]
fn an_unproven_answer_is_never_costlier_than_the_warm_start() {
    for (file, function) in [("seed000_attention.mlir", "attention"), ("seed000_multigrid.mlir", "vcycle")] {
        let g = graph(file, function);
        let o = choose_clustering(&g, &options(Formulation::Robinson, "robinson")).unwrap();
        validate(&g, &o.clustering).unwrap();
        for strategy in [Strategy::GreedyTopDown, Strategy::GreedyBottomUp] {
            let greedy = baseline(&g, strategy, "robinson").objective;
            assert!(o.objective <= greedy + 1e-9, "{function}: {} above {strategy}'s {greedy}", o.objective);
        }
        assert!(o.warnings.iter().any(|w| w.contains("using the warm start")), "{function}: {:?}", o.warnings);
        // The warm start proves nothing: never `optimal`, and no bound above its cost.
        assert_eq!(o.status, Status::Unproven, "{function}");
        assert!(o.bound.is_none_or(|b| b <= o.objective + 1e-9), "{function}: {:?}", o.bound);
    }
}

/// Seed 003's branch and bound (`bohrium-optimal`) is a second exact method, written
/// without the ILP: on every example function small enough for it to finish (at most
/// [`EXACT_SEARCH_COMBINATORS`] combinators) and under every cost model, it proves an
/// optimum, and that optimum is the combined ILP's proven one (for `robinson`, whose
/// formulation searches fewer traversal orders, it costs at most the ILP's clustering;
/// for `max-locality`, which no formulation models, at most every baseline's). The exhaustive comparison stops at 10 combinators; this reaches
/// the examples' real programs.
#[test]
fn the_branch_and_bound_proves_the_ilps_optimum_on_the_examples() {
    let mut compared = 0;
    let mut largest = 0;
    for entry in std::fs::read_dir(crate::repo_root().join("examples")).unwrap() {
        let file = entry.unwrap().path().file_name().unwrap().to_string_lossy().into_owned();
        if !file.ends_with(".mlir") {
            continue;
        }
        for (name, g) in crate::graphs::graphs_of(&file) {
            let g = g.unwrap();
            let combinators = g.node_ids().filter(|n| !g.is_barrier(*n)).count();
            if combinators == 0 || combinators > EXACT_SEARCH_COMBINATORS {
                continue;
            }
            for model in CostModel::ALL {
                let cost = model.name();
                let mut exact = options(Formulation::Combined, cost);
                exact.strategy = Strategy::BohriumOptimal;
                let b = choose_clustering(&g, &exact).unwrap();
                assert_eq!(b.status, Status::Optimal, "{file} {name} {cost}: {:?}", b.warnings);
                assert_eq!(b.bound, Some(b.objective));
                validate(&g, &b.clustering).unwrap();
                if model == CostModel::MaxLocality {
                    // No ILP models it (a clear error); the exact search is no worse than
                    // any baseline.
                    let err = choose_clustering(&g, &options(Formulation::Combined, cost)).unwrap_err();
                    assert!(err.to_string().contains("strategy=bohrium-optimal"), "{err}");
                    for strategy in [
                        Strategy::Unfused,
                        Strategy::GreedyTopDown,
                        Strategy::GreedyBottomUp,
                        Strategy::Stream,
                        Strategy::BohriumGreedy,
                        Strategy::BohriumLinear,
                    ] {
                        let other = baseline(&g, strategy, cost).objective;
                        assert!(
                            b.objective <= other + 1e-9,
                            "{file} {name}: {} above {strategy}'s {other}",
                            b.objective
                        );
                    }
                } else if model == CostModel::Robinson {
                    let ilp = choose_clustering(&g, &options(Formulation::Robinson, cost)).unwrap();
                    assert!(
                        b.objective <= ilp.objective + 1e-9,
                        "{file} {name}: {} above {}",
                        b.objective,
                        ilp.objective
                    );
                } else {
                    let ilp = choose_clustering(&g, &options(Formulation::Combined, cost)).unwrap();
                    let what = format!(
                        "{file} {name} {cost}: branch and bound {} ({:?}), ILP {} {:?} ({:?})",
                        b.objective,
                        clusters(&g, &b),
                        ilp.objective,
                        ilp.status,
                        clusters(&g, &ilp)
                    );
                    if ilp.status == Status::Optimal {
                        assert!((b.objective - ilp.objective).abs() < 1e-9, "{what}");
                    } else {
                        // The ILP stopped at its limit: the proven optimum lies between its
                        // bound and its clustering's cost.
                        assert_eq!(ilp.status, Status::TimeLimit, "{what}");
                        assert!(b.objective <= ilp.objective + 1e-9, "{what}");
                        assert!(ilp.bound.is_some_and(|l| l <= b.objective + 1e-9), "{what}: bound {:?}", ilp.bound);
                        eprintln!("only the branch and bound proves it: {what}");
                    }
                }
                compared += 1;
                largest = largest.max(combinators);
            }
        }
    }
    assert!(compared > 200 && largest > 10, "{compared} comparisons, largest {largest} combinators");
}

/// The largest example functions the branch and bound comparison above takes (it is
/// exponential; these finish in well under the time limit).
const EXACT_SEARCH_COMBINATORS: usize = 14;

/// The objective and status the analysis records on `@f` (`array.fusion`).
pub(crate) fn analysed_objective(source: &str, options: &str) -> (f64, String, String) {
    fusion_passes::register_all_passes();
    let context = array_dialect::context();
    let mut module = array_dialect::source::parse_source(&context, source, "recompute.mlir")
        .unwrap_or_else(|e| panic!("{e}\n{source}"));
    let pm = melior::pass::PassManager::new(&context);
    melior::utility::parse_pass_pipeline(
        pm.as_operation_pass_manager(),
        &format!("builtin.module(func.func(array-fusion-analysis{{{options}}}))"),
    )
    .unwrap();
    pm.run(&mut module).unwrap_or_else(|e| panic!("{options}: {e}\n{source}"));
    let text = module.as_operation().to_string();
    let summary = text.split("array.fusion = \"").nth(1).and_then(|s| s.split('"').next()).expect("a summary");
    let objective: f64 = summary
        .split("objective ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("no objective in {summary}"));
    (objective, summary.to_owned(), text)
}

/// passes/src/recompute.rs proves that giving each consumer its own copy of a cheap
/// producer never raises the optimum of the ILP's cost models; this checks it against
/// the ILP itself, on random programs where the transformation applies.
#[test]
fn recomputation_never_raises_the_optimum() {
    let (mut applied, mut lowered, mut unproven) = (0, 0, 0);
    for seed in 0..60 {
        let source = integration_tests::recompute_program(seed, 3 + (seed as usize % 5));
        for cost in ["reads-writes", "reads", "intermediate-arrays", "fused-edges", "clusters", "bytes"] {
            let (with, summary_with, text) = analysed_objective(&source, &format!("cost={cost} time-limit=20"));
            let (without, summary_without, _) =
                analysed_objective(&source, &format!("cost={cost} time-limit=20 recompute=false"));
            // Optima only: an incumbent stopped by the time limit proves nothing either way.
            if !(summary_with.ends_with("optimal") && summary_without.ends_with("optimal")) {
                unproven += 1;
                continue;
            }
            assert!(with <= without + 1e-9, "{cost}: {with} with recomputation > {without} without\n{source}\n{text}");
            if text.contains("array.recomputed") {
                applied += 1;
                if with < without - 1e-9 {
                    lowered += 1;
                }
            }
        }
    }
    assert!(unproven <= 6, "{unproven} of 360 solves were not proven optimal");
    eprintln!("recomputation applied in {applied} solves, lowered the optimum in {lowered}, {unproven} unproven");
    assert!(applied >= 100 && lowered >= 40, "the property is vacuous: applied {applied}, lowered {lowered}");
}
