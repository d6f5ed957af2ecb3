//! Dependence graphs of the bundled examples (seed 000 §4.1, seed 001 §1.3 and
//! Fig. 1.10): nodes, edges, fusibility, gather labels and size classes.

use fusion_analysis::graph::{Access, Edge, Graph, NodeId, NodeKind};
use fusion_passes::extract::{ExtractError, extract_module};
use melior::ir::{BlockLike, RegionLike, operation::OperationLike};
use std::collections::BTreeSet;

/// Every function of `file` (in examples/) with its graph or error.
pub fn graphs_of(file: &str) -> Vec<(String, Result<Graph, ExtractError>)> {
    let context = array_dialect::context();
    let path = crate::repo_root().join("examples").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let module = array_dialect::source::load_file(&context, &path).unwrap_or_else(|e| panic!("{e}"));
    extract_module(&module, Some(&text))
}

pub fn graph(file: &str, function: &str) -> Graph {
    let all = graphs_of(file);
    let (_, g) =
        all.into_iter().find(|(n, _)| n == function).unwrap_or_else(|| panic!("no function {function} in {file}"));
    g.unwrap_or_else(|e| panic!("{function}: {e}"))
}

fn id(g: &Graph, name: &str) -> NodeId {
    g.find(name).unwrap_or_else(|| panic!("no node {name} in\n{g}"))
}

/// The edges from `from` to `to`.
fn edges<'g>(g: &'g Graph, from: &str, to: &str) -> Vec<&'g Edge> {
    let (a, b) = (id(g, from), id(g, to));
    g.edges.iter().filter(|e| e.from == a && e.to == b).collect()
}

/// The single edge from `from` to `to`.
fn edge<'g>(g: &'g Graph, from: &str, to: &str) -> &'g Edge {
    let es = edges(g, from, to);
    assert_eq!(es.len(), 1, "expected one edge {from} -> {to} in\n{g}{:#?}", g.edges);
    es[0]
}

fn names(g: &Graph) -> Vec<&str> {
    g.nodes.iter().map(|n| n.name.as_str()).collect()
}

#[test]
fn every_example_function_extracts() {
    let dir = crate::repo_root().join("examples");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".mlir"))
        .collect();
    files.sort();
    let mut count = 0;
    for file in &files {
        for (function, result) in graphs_of(file) {
            count += 1;
            match result {
                Ok(g) => check_invariants(&g, &format!("{file}: @{function}")),
                Err(e) => panic!("{file}: @{function} does not extract: {e}"),
            }
        }
    }
    assert!(count >= 30, "only {count} functions");
}

/// Structural invariants every extracted graph satisfies.
fn check_invariants(g: &Graph, what: &str) {
    for (i, e) in g.edges.iter().enumerate() {
        assert!(e.from.0 < e.to.0, "{what}: edge #{i} goes backwards in program order\n{g}");
        let from = g.node(e.from);
        assert!(e.output < from.outputs, "{what}: edge #{i} reads output {} of {}\n{g}", e.output, from.name);
        if e.fusible {
            assert!(e.access.is_ordered(), "{what}: unordered edge #{i} is fusible\n{g}");
            assert!(from.kind.is_fusible_kind() && g.node(e.to).kind.is_fusible_kind(), "{what}: #{i}\n{g}");
        }
    }
    for n in &g.nodes {
        assert_eq!(n.output_bytes.len(), n.outputs, "{what}: {}", n.name);
        match n.kind {
            NodeKind::Input => assert!(n.iteration.is_none() && n.output_size.is_some(), "{what}: {}\n{g}", n.name),
            NodeKind::Barrier => assert!(n.iteration.is_none() && n.output_size.is_none(), "{what}: {}\n{g}", n.name),
            _ => assert!(n.iteration.is_some(), "{what}: {} has no iteration size\n{g}", n.name),
        }
    }
    for (size, node) in &g.size_parent {
        let n = g.node(*node);
        assert!(matches!(n.kind, NodeKind::Fold { .. } | NodeKind::Filter | NodeKind::Expand), "{what}\n{g}");
        assert_eq!(n.output_size, Some(*size), "{what}\n{g}");
        assert_ne!(n.iteration, Some(*size), "{what}\n{g}");
    }
    let labels: Vec<u32> = g
        .nodes
        .iter()
        .filter_map(|n| if let NodeKind::Gather { label } = n.kind { Some(label) } else { None })
        .collect();
    assert_eq!(labels, (2..2 + labels.len() as u32).collect::<Vec<_>>(), "{what}\n{g}");
}

/// Seed 001 §1.1 / Fig. 1.1 and §1.3.6: normalize2.
#[test]
fn normalize2() {
    let g = graph("seed001_normalize2.mlir", "normalize2");
    assert_eq!(names(&g), ["xs", "sum1", "gts", "sum2", "ys1", "ys2"], "{g}");
    let kinds: Vec<NodeKind> = g.nodes.iter().map(|n| n.kind).collect();
    use NodeKind::*;
    // Both folds are integer sums: their combines commute.
    let sum = Fold { commutes: true };
    assert_eq!(kinds, [Input, sum, Filter, sum, Map, Map], "{g}");
    for to in ["sum1", "gts", "ys1", "ys2"] {
        let e = edge(&g, "xs", to);
        assert!(!e.fusible && e.access == Access::InOutputOrder, "xs -> {to}: {g}");
    }
    let e = edge(&g, "gts", "sum2");
    assert!(e.fusible && e.access == Access::InOutputOrder, "{g}");
    for (from, to) in [("sum1", "ys1"), ("sum2", "ys2")] {
        let e = edge(&g, from, to);
        assert!(!e.fusible && e.access == Access::Unordered, "free variable {from} -> {to}: {g}");
    }
    assert_eq!(g.edges.len(), 7, "{g}");
    let iter = |n: &str| g.node(id(&g, n)).iteration;
    let k = iter("sum1");
    assert!(k.is_some());
    for n in ["gts", "ys1", "ys2"] {
        assert_eq!(iter(n), k, "{n}: {g}");
    }
    let gts = g.node(id(&g, "gts"));
    let rigid = gts.output_size.expect("filter output size");
    assert_ne!(Some(rigid), k);
    assert_eq!(iter("sum2"), Some(rigid), "{g}");
    assert_eq!(g.rigid_sizes, [rigid], "{g}");
    assert!(g.size_parent.contains(&(rigid, id(&g, "gts"))), "{:?}\n{g}", g.size_parent);
    assert_eq!(g.transducer_of(rigid), Some(id(&g, "gts")));
    assert_eq!(g.node(id(&g, "xs")).output_size, k, "{g}");
    assert!(g.node(id(&g, "ys1")).escapes && g.node(id(&g, "ys2")).escapes);
    assert!(!gts.escapes);
    assert_eq!(g.node(id(&g, "sum1")).output_bytes, [Some(8)]);
}

/// Seed 000 §3.4, Fig. 3: F = {(as, result)}, I = {(xs, as), (xs, bs), (bs, result)}.
#[test]
fn scatter_example() {
    let g = graph("seed000_scatter_example.mlir", "scatterExample");
    assert_eq!(names(&g), ["xs", "as", "bs", "result"], "{g}");
    let dest = edge(&g, "bs", "result");
    assert!(!dest.fusible && dest.access == Access::ScatterDestination, "the destination edge: {g}");
    let source = edges(&g, "as", "result");
    assert_eq!(source.len(), 2, "indices and values: {g}");
    assert!(source.iter().all(|e| e.fusible && e.access == Access::InOutputOrder), "{g}");
    assert_eq!(source.iter().map(|e| e.output).collect::<Vec<_>>(), [0, 1]);
    assert!(!edge(&g, "xs", "as").fusible && !edge(&g, "xs", "bs").fusible);
    assert_eq!(g.node(id(&g, "result")).kind, NodeKind::Scatter);
    assert_eq!(g.node(id(&g, "as")).outputs, 2);
}

/// Seed 000 §3.3: simple1..simple5, their gather labels and gather-source edges.
#[test]
fn simple_programs() {
    let file = "seed000_simple.mlir";
    let g = graph(file, "simple1");
    assert_eq!(names(&g), ["is", "xs", "as", "bs"], "{g}");
    assert_eq!(g.node(id(&g, "bs")).kind, NodeKind::Gather { label: 2 });
    let e = edge(&g, "as", "bs");
    assert!(e.fusible && e.access == Access::GatherSource { label: 2 }, "{g}");
    assert_eq!(edge(&g, "is", "bs").access, Access::InOutputOrder);
    // The gather iterates over its indices, the map over xs.
    assert_eq!(g.node(id(&g, "bs")).iteration, g.node(id(&g, "is")).output_size, "{g}");
    assert_eq!(g.node(id(&g, "as")).iteration, g.node(id(&g, "xs")).output_size, "{g}");
    assert_ne!(g.node(id(&g, "bs")).iteration, g.node(id(&g, "as")).iteration, "{g}");

    let g = graph(file, "simple2");
    assert_eq!(g.node(id(&g, "as")).kind, NodeKind::Gather { label: 2 });
    assert_eq!(g.node(id(&g, "bs")).kind, NodeKind::Gather { label: 3 });
    assert_eq!(edge(&g, "xs", "as").access, Access::GatherSource { label: 2 });
    let e = edge(&g, "as", "bs");
    assert!(e.fusible && e.access == Access::GatherSource { label: 3 }, "{g}");
    assert_eq!(g.gather_count(), 2);

    let g = graph(file, "simple3");
    assert!(g.node(id(&g, "as")).escapes && g.node(id(&g, "bs")).escapes, "both returned: {g}");
    assert!(edge(&g, "as", "bs").fusible);

    let g = graph(file, "simple4");
    let fold = g.node(id(&g, "as"));
    // An integer sum (`acc + x`): its combine commutes, so it may also run right to left.
    assert_eq!(fold.kind, NodeKind::Fold { commutes: true });
    assert_ne!(fold.iteration, fold.output_size, "a fold drops the innermost dimension: {g}");
    let e = edge(&g, "as", "bs");
    assert!(e.fusible && e.access == Access::GatherSource { label: 2 }, "{g}");

    let g = graph(file, "simple5");
    assert_eq!(edge(&g, "xs", "bs").access, Access::GatherSource { label: 2 });
    assert!(edge(&g, "as", "cs").fusible && edge(&g, "bs", "cs").fusible, "{g}");
    // zipWith requires is and xs to have the same size.
    let iter = |n: &str| g.node(id(&g, n)).iteration;
    assert_eq!(iter("as"), iter("bs"), "{g}");
    assert_eq!(iter("as"), iter("cs"), "{g}");
}

/// Seed 000 §3.3 singleLoop: `reverse` is a gather with its own label.
#[test]
fn single_loop_reverse_is_a_gather() {
    let g = graph("seed000_single_loop.mlir", "singleLoop");
    assert_eq!(names(&g), ["as", "bs", "cs", "ds", "result"], "{g}");
    assert_eq!(g.node(id(&g, "bs")).kind, NodeKind::Gather { label: 2 });
    assert_eq!(edge(&g, "as", "bs").access, Access::GatherSource { label: 2 });
    for from in ["bs", "cs", "ds"] {
        assert!(edge(&g, from, "result").fusible, "{from}: {g}");
    }
    let iters: BTreeSet<_> = g.nodes.iter().filter_map(|n| n.iteration).collect();
    assert_eq!(iters.len(), 1, "one size throughout: {g}");
    let g = graph("seed000_reverse.mlir", "reverseSugar");
    assert_eq!(g.node(id(&g, "result")).kind, NodeKind::Gather { label: 2 });
}

/// Seed 000 §4.1 "Control flow": scf ops are single barrier nodes.
#[test]
fn control_flow_is_a_barrier() {
    let g = graph("seed004_bfs.mlir", "bfs");
    assert_eq!(names(&g), ["offsets", "edges", "parentsI", "parentsN", "loop"], "{g}");
    let lp = g.node(id(&g, "loop"));
    assert_eq!(lp.kind, NodeKind::Barrier);
    assert_eq!((lp.outputs, lp.iteration), (2, None));
    for from in ["parentsI", "parentsN", "offsets", "edges"] {
        let e = edge(&g, from, "loop");
        assert!(!e.fusible && e.access == Access::Unordered, "{from}: {g}");
        assert!(g.node(id(&g, from)).escapes, "{from}");
    }
    // Both generates have the shape (%totalNodes): one size.
    assert_eq!(g.node(id(&g, "parentsI")).iteration, g.node(id(&g, "parentsN")).iteration);

    let g = graph("seed001_quadtree.mlir", "go");
    assert_eq!(names(&g), ["ins", "box", "result"], "{g}");
    assert_eq!(g.node(id(&g, "result")).kind, NodeKind::Barrier);
    assert!(!edge(&g, "ins", "result").fusible && !edge(&g, "box", "result").fusible);

    let g = graph("seed001_quadtree.mlir", "quadtree");
    assert_eq!(names(&g), ["pts", "x1", "box", "tree"], "{g}");
    assert!(g.nodes.iter().skip(1).all(|n| n.kind == NodeKind::Barrier), "{g}");
    // The four scalars read from the call's results feed tensor.from_elements.
    let scalars = edges(&g, "x1", "box");
    assert_eq!(scalars.iter().map(|e| e.output).collect::<Vec<_>>(), [0, 1, 2, 3], "{g}");
    assert_eq!(g.node(id(&g, "box")).output_bytes, [Some(32)]);
}

/// Seed 004: permute is a scatter; its destination is consumed and its index region
/// reads `neighbours` as a free variable, so it cannot fuse with the expand.
#[test]
fn bfs_step_permute_and_scatter() {
    let g = graph("seed004_bfs.mlir", "bfsStep");
    let p = g.node(id(&g, "p"));
    assert_eq!(p.kind, NodeKind::Scatter);
    let dest = edge(&g, "parents", "p");
    assert_eq!(dest.access, Access::ScatterDestination);
    assert!(edges(&g, "neighbours", "p").iter().all(|e| !e.fusible), "{g}");
    let g = graph("seed004_bfs.mlir", "bfsStepScatter");
    assert_eq!(edge(&g, "parents", "p").access, Access::ScatterDestination);
    assert!(edges(&g, "neighbours", "p").iter().all(|e| e.fusible && e.access == Access::InOutputOrder), "{g}");
    let expand = g.node(id(&g, "neighbours"));
    assert_eq!(g.node(id(&g, "p")).iteration, expand.output_size, "{g}");
    assert_eq!(expand.iteration, g.node(id(&g, "knownFlags")).output_size, "{g}");
    assert_eq!(g.rigid_sizes.len(), 2, "{g}");
}

/// The unprovable size equalities of one function of examples/seed001_ill_sized.mlir.
fn unprovable_in(function: &str) -> Vec<String> {
    let context = array_dialect::context();
    let path = crate::repo_root().join("examples/seed001_ill_sized.mlir");
    let text = std::fs::read_to_string(&path).unwrap();
    let module = array_dialect::source::load_file(&context, &path).unwrap();
    let mut op = module.body().first_operation();
    while let Some(f) = op {
        if f.attribute("sym_name").is_ok_and(|a| a.to_string() == format!("\"{function}\"")) {
            let body = f.region(0).unwrap().first_block().unwrap();
            let extracted = fusion_passes::extract::extract_block(body, Some(&text)).unwrap();
            return extracted.unprovable.iter().map(|u| u.error.to_string()).collect();
        }
        op = f.next_in_block();
    }
    panic!("no function {function}")
}

/// Seed 001 §1.3.4: bad1's and bad2's map requires an equality size inference can neither
/// prove nor refute. Seed 001 rejects both programs; here each extracts, the equality is
/// listed (naming the op and both arrays), every edge into the map is infusible, and the
/// other edges keep their fusibility (bad2's filters still share their input).
#[test]
fn unprovable_size_equalities_make_only_the_ops_in_edges_infusible() {
    let path = crate::repo_root().join("examples/seed001_ill_sized.mlir").display().to_string();
    assert_eq!(
        unprovable_in("bad1"),
        [format!(
            "{path}:49:9: size equality not provable: 'array.map' requires its inputs to have the same size, \
             but %flt has a data-dependent size (from 'array.filter' at {path}:43:10) and %xs is a function argument"
        )]
    );
    assert_eq!(
        unprovable_in("bad2"),
        [format!(
            "{path}:72:9: size equality not provable: 'array.map' requires its inputs to have the same size, \
             but %flt1 has a data-dependent size (from 'array.filter' at {path}:58:11) and %flt2 has a different \
             data-dependent size (from 'array.filter' at {path}:64:11)"
        )]
    );
    let bad1 = graph("seed001_ill_sized.mlir", "bad1");
    assert!(!edge(&bad1, "flt", "ys").fusible, "{bad1}");
    let bad2 = graph("seed001_ill_sized.mlir", "bad2");
    for filter in ["flt1", "flt2"] {
        assert!(!edge(&bad2, filter, "ys").fusible, "{bad2}");
    }
    // The two filters are different sizes, so the map is in no class with either.
    assert_ne!(bad2.node(id(&bad2, "flt1")).output_size, bad2.node(id(&bad2, "flt2")).output_size, "{bad2}");
}

/// Seed 001 closestPoints: a generate over the sizes of two filter results waits for
/// both filters; the scalar read from `border` orders the folds after it.
#[test]
fn closest_points_sizes_and_scalar_dependencies() {
    let g = graph("seed001_closest_points.mlir", "closestPointsStep");
    for f in ["aboveB", "belowB"] {
        let e = edge(&g, f, "mergedI");
        assert!(!e.fusible && e.access == Access::Unordered, "{f}: {g}");
    }
    assert!(edge(&g, "aboveB", "mergedA").fusible);
    // border = min above' below' is a scalar computed from the two recursive calls:
    // everything that uses it depends on both calls (seed 001 Fig. 1.10, external).
    for user in ["aboveB", "belowB", "minsRows", "mins"] {
        for call in ["abovePrime", "belowPrime"] {
            assert_eq!(edge(&g, call, user).access, Access::Unordered, "{call} -> {user}: {g}");
        }
    }
    // minsRows has one element per element of aboveB.
    assert_eq!(g.node(id(&g, "minsRows")).output_size, g.node(id(&g, "aboveB")).output_size, "{g}");
    assert_eq!(g.node(id(&g, "abovePrime")).kind, NodeKind::Barrier);
}
