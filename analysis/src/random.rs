//! Seeded random dependence graphs for benchmarks and property tests: well-sized
//! programs of maps, generates, gathers, folds (read as free variables or fused into
//! consumers of their rows), scans, filters and scatters over a few inputs.

use super::graph::{Access, Edge, Graph, Node, NodeId, NodeKind, SizeClass};
pub use super::rng::SplitMix64;

/// The generator of random programs: [`SplitMix64`] started from the seed.
pub type Rng = SplitMix64;

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64::from_state(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
}

struct Array {
    node: NodeId,
    size: SizeClass,
}

/// A random graph of `combinators` combinator nodes (plus a few inputs).
pub fn random_graph(combinators: usize, seed: u64) -> Graph {
    let mut rng = Rng::new(seed);
    let mut g = Graph::default();
    let mut next_size = 1usize;
    let mut arrays: Vec<Array> = Vec::new();
    let mut scalars: Vec<NodeId> = Vec::new(); // fold results read as free variables
    let mut labels = 1u32;
    let base = SizeClass(0);

    let add_node =
        |g: &mut Graph, name: String, kind: NodeKind, iteration: Option<SizeClass>, output_size: Option<SizeClass>| {
            g.nodes.push(Node {
                name,
                kind,
                iteration,
                output_size,
                outputs: 1,
                output_bytes: vec![Some(4 << 20)],
                escapes: false,
                escaping_outputs: Vec::new(),
            });
            NodeId(g.nodes.len() - 1)
        };
    let add_edge = |g: &mut Graph, from: NodeId, to: NodeId, access: Access| {
        // A scatter's result has no traversal order (seed 000 Table 1: `[.. | ys]`), so
        // nothing fuses with it.
        let fusible = !matches!(access, Access::Unordered | Access::ScatterDestination)
            && g.nodes[from.0].kind != NodeKind::Scatter
            && g.nodes[from.0].kind.is_fusible_kind()
            && g.nodes[to.0].kind.is_fusible_kind();
        let array = g.nodes[from.0].name.clone();
        g.edges.push(Edge { from, to, output: 0, array, access, fusible });
    };

    for i in 0..(2 + combinators / 20) {
        let n = add_node(&mut g, format!("in{i}"), NodeKind::Input, None, None);
        arrays.push(Array { node: n, size: base });
    }

    for i in 0..combinators {
        let name = format!("v{i}");
        let choice = rng.below(100);
        let pick = |rng: &mut Rng, arrays: &[Array]| rng.below(arrays.len());
        if choice < 40 {
            // map over 1–3 arrays of one size, sometimes with a free variable
            let first = pick(&mut rng, &arrays);
            let size = arrays[first].size;
            let mut inputs = vec![arrays[first].node];
            for _ in 0..rng.below(3) {
                let same: Vec<NodeId> = arrays.iter().filter(|a| a.size == size).map(|a| a.node).collect();
                let other = same[rng.below(same.len())];
                if !inputs.contains(&other) {
                    inputs.push(other);
                }
            }
            let n = add_node(&mut g, name, NodeKind::Map, Some(size), None);
            for input in inputs {
                add_edge(&mut g, input, n, Access::InOutputOrder);
            }
            if !scalars.is_empty() && rng.chance(30) {
                let s = scalars[rng.below(scalars.len())];
                add_edge(&mut g, s, n, Access::Unordered);
            }
            arrays.push(Array { node: n, size });
        } else if choice < 50 {
            // Over a size known before the block runs: a generate over a filter's
            // output size would need that size first (an infusible edge in real IR).
            let size = base;
            let n = add_node(&mut g, name, NodeKind::Generate, Some(size), None);
            arrays.push(Array { node: n, size });
        } else if choice < 62 {
            // gather: index array of some size, source anything
            let index = pick(&mut rng, &arrays);
            let source = pick(&mut rng, &arrays);
            labels += 1;
            let size = arrays[index].size;
            let n = add_node(&mut g, name, NodeKind::Gather { label: labels }, Some(size), None);
            add_edge(&mut g, arrays[index].node, n, Access::InOutputOrder);
            add_edge(&mut g, arrays[source].node, n, Access::GatherSource { label: labels });
            arrays.push(Array { node: n, size });
        } else if choice < 74 {
            // fold to a scalar, later read as a free variable (seed 001 §1.1)
            let input = pick(&mut rng, &arrays);
            let out = SizeClass(next_size);
            next_size += 1;
            let n = add_node(&mut g, name, NodeKind::Fold, Some(arrays[input].size), Some(out));
            g.size_parent.push((out, n));
            add_edge(&mut g, arrays[input].node, n, Access::InOutputOrder);
            scalars.push(n);
        } else if choice < 82 {
            let input = pick(&mut rng, &arrays);
            let size = arrays[input].size;
            let n = add_node(&mut g, name, NodeKind::Scan { backward: rng.chance(30) }, Some(size), None);
            add_edge(&mut g, arrays[input].node, n, Access::InOutputOrder);
            arrays.push(Array { node: n, size });
        } else if choice < 93 {
            // filter: a transducer with a fresh rigid size (seed 001 §1.3.4)
            let input = pick(&mut rng, &arrays);
            let out = SizeClass(next_size);
            next_size += 1;
            g.rigid_sizes.push(out);
            let n = add_node(&mut g, name, NodeKind::Filter, Some(arrays[input].size), Some(out));
            g.size_parent.push((out, n));
            add_edge(&mut g, arrays[input].node, n, Access::InOutputOrder);
            arrays.push(Array { node: n, size: out });
        } else {
            // scatter into a fresh destination (only the scatter uses it)
            let values = pick(&mut rng, &arrays);
            let dest = add_node(&mut g, format!("dest{i}"), NodeKind::Input, None, None);
            let size = arrays[values].size;
            let n = add_node(&mut g, name, NodeKind::Scatter, Some(size), None);
            add_edge(&mut g, dest, n, Access::ScatterDestination);
            add_edge(&mut g, arrays[values].node, n, Access::InOutputOrder);
            arrays.push(Array { node: n, size: SizeClass(next_size) });
            next_size += 1;
        }
    }
    // Arrays nobody reads are results of the program.
    for i in 0..g.nodes.len() {
        if g.nodes[i].kind.is_fusible_kind() && !g.edges.iter().any(|e| e.from == NodeId(i)) {
            g.nodes[i].escapes = true;
        }
    }
    g
}

/// A small random graph shaped like what `extract` builds from real programs, using
/// every kind of node the analysis knows, for the exhaustive optimality comparison:
/// maps over one to three arrays (with free variables: fold results or whole arrays
/// read with `array.index`), generates (some reading a free variable), gathers with
/// their labels, folds to scalars and row folds of a 2-D argument (transducers whose
/// output is an array), left and right scans, filters and expands (rigid output
/// sizes), and scatters into arguments or into computed arrays (other uses of the
/// destination come before the scatter). `combinators` combinator nodes after two 1-D
/// arguments and one 2-D argument.
pub fn small_program(combinators: usize, seed: u64) -> Graph {
    let mut rng = Rng::new(seed);
    let mut g = Graph::default();
    // Size classes: 0 the 1-D arguments, 1 the 2-D argument, 2 its rows, 3 scalars,
    // then one rigid class per filter or expand.
    let (base, matrix, rows, scalar) = (SizeClass(0), SizeClass(1), SizeClass(2), SizeClass(3));
    let mut next_size = 4usize;
    // Arrays that can be read: (producer, size, consumed by a scatter).
    let mut arrays: Vec<(NodeId, SizeClass, bool)> = Vec::new();
    let mut scalars: Vec<NodeId> = Vec::new();
    let mut labels = 1u32;

    fn push(
        g: &mut Graph,
        name: String,
        kind: NodeKind,
        iteration: Option<SizeClass>,
        out: Option<SizeClass>,
    ) -> NodeId {
        g.nodes.push(Node {
            name,
            kind,
            iteration,
            output_size: out,
            outputs: 1,
            output_bytes: vec![Some(1 << 20)],
            escapes: false,
            escaping_outputs: Vec::new(),
        });
        NodeId(g.nodes.len() - 1)
    }
    // A use of array `a` (index into `arrays`) by `to`.
    fn read(g: &mut Graph, arrays: &[(NodeId, SizeClass, bool)], a: usize, to: NodeId, access: Access) {
        let from = arrays[a].0;
        if g.edges.iter().any(|e| e.from == from && e.to == to && e.access == access) {
            return;
        }
        let array = g.nodes[from.0].name.clone();
        g.edges.push(Edge { from, to, output: 0, array, access, fusible: false });
    }

    for (name, size) in [("in0", base), ("in1", base), ("mat", matrix)] {
        let n = push(&mut g, name.into(), NodeKind::Input, None, Some(size));
        arrays.push((n, size, false));
    }
    for i in 0..combinators {
        let name = format!("v{i}");
        // A scatter's destination is not read after the scatter: `extract` would make
        // such a use unordered, and the scatter precedence (seed 000 (9)) would then
        // put it before the scatter, against program order.
        let live: Vec<usize> = (0..arrays.len()).filter(|a| !arrays[*a].2).collect();
        let of_size = |s: SizeClass| -> Vec<usize> { live.iter().copied().filter(|a| arrays[*a].1 == s).collect() };
        let any = |rng: &mut Rng| live[rng.below(live.len())];
        let choice = rng.below(100);
        let node;
        if choice < 28 {
            let first = any(&mut rng);
            let size = arrays[first].1;
            node = push(&mut g, name, NodeKind::Map, Some(size), None);
            read(&mut g, &arrays, first, node, Access::InOutputOrder);
            for _ in 0..rng.below(3) {
                let same = of_size(size);
                read(&mut g, &arrays, same[rng.below(same.len())], node, Access::InOutputOrder);
            }
            arrays.push((node, size, false));
        } else if choice < 36 {
            let size = if rng.chance(70) { base } else { rows };
            node = push(&mut g, name, NodeKind::Generate, Some(size), None);
            arrays.push((node, size, false));
        } else if choice < 48 {
            let index = of_size(base).into_iter().chain(of_size(rows)).collect::<Vec<_>>();
            let index = index[rng.below(index.len())];
            let source = any(&mut rng);
            labels += 1;
            let size = arrays[index].1;
            node = push(&mut g, name, NodeKind::Gather { label: labels }, Some(size), None);
            read(&mut g, &arrays, index, node, Access::InOutputOrder);
            read(&mut g, &arrays, source, node, Access::GatherSource { label: labels });
            arrays.push((node, size, false));
        } else if choice < 58 {
            let input = any(&mut rng);
            let size = arrays[input].1;
            if size == matrix {
                // Row fold: a transducer from the matrix's size to its rows.
                node = push(&mut g, name, NodeKind::Fold, Some(matrix), Some(rows));
                g.size_parent.push((rows, node));
                read(&mut g, &arrays, input, node, Access::InOutputOrder);
                arrays.push((node, rows, false));
            } else {
                node = push(&mut g, name, NodeKind::Fold, Some(size), Some(scalar));
                g.size_parent.push((scalar, node));
                read(&mut g, &arrays, input, node, Access::InOutputOrder);
                scalars.push(node);
            }
        } else if choice < 68 {
            let input = any(&mut rng);
            let size = arrays[input].1;
            node = push(&mut g, name, NodeKind::Scan { backward: rng.chance(40) }, Some(size), None);
            read(&mut g, &arrays, input, node, Access::InOutputOrder);
            arrays.push((node, size, false));
        } else if choice < 82 {
            let input = any(&mut rng);
            let size = arrays[input].1;
            let out = SizeClass(next_size);
            next_size += 1;
            g.rigid_sizes.push(out);
            let kind = if rng.chance(60) { NodeKind::Filter } else { NodeKind::Expand };
            node = push(&mut g, name, kind, Some(size), Some(out));
            g.size_parent.push((out, node));
            read(&mut g, &arrays, input, node, Access::InOutputOrder);
            arrays.push((node, out, false));
        } else {
            // Scatter values (any array) into a 1-D destination not yet consumed.
            let dests: Vec<usize> = (0..arrays.len())
                .filter(|a| arrays[*a].1 == base && !arrays[*a].2 && g.nodes[arrays[*a].0.0].kind != NodeKind::Scatter)
                .collect();
            let values = any(&mut rng);
            if dests.is_empty() {
                continue;
            }
            let dest = dests[rng.below(dests.len())];
            let size = arrays[values].1;
            node = push(&mut g, name, NodeKind::Scatter, Some(size), Some(base));
            read(&mut g, &arrays, dest, node, Access::ScatterDestination);
            read(&mut g, &arrays, values, node, Access::InOutputOrder);
            arrays[dest].2 = true;
            arrays.push((node, base, false));
        }
        // Free variables: a fold result, or a whole array read with `array.index`.
        if matches!(g.nodes[node.0].kind, NodeKind::Map | NodeKind::Generate) && rng.chance(35) {
            if !scalars.is_empty() && rng.chance(50) {
                let s = scalars[rng.below(scalars.len())];
                let array = g.nodes[s.0].name.clone();
                g.edges.push(Edge { from: s, to: node, output: 0, array, access: Access::Unordered, fusible: false });
            } else {
                let a = live[rng.below(live.len())];
                if arrays[a].0 != node {
                    read(&mut g, &arrays, a, node, Access::Unordered);
                }
            }
        }
    }
    // Fusible exactly as `extract` decides: an ordered use between two combinators,
    // not out of a scatter, and no unordered use between the same two nodes.
    let blocked: Vec<(NodeId, NodeId)> =
        g.edges.iter().filter(|e| !e.access.is_ordered()).map(|e| (e.from, e.to)).collect();
    let kinds: Vec<NodeKind> = g.nodes.iter().map(|n| n.kind).collect();
    for e in &mut g.edges {
        e.fusible = e.access.is_ordered()
            && kinds[e.from.0].is_fusible_kind()
            && kinds[e.to.0].is_fusible_kind()
            && kinds[e.from.0] != NodeKind::Scatter
            && !blocked.contains(&(e.from, e.to));
    }
    // Arrays nobody reads are results; a few others escape too.
    for i in 0..g.nodes.len() {
        let unread = !g.edges.iter().any(|e| e.from == NodeId(i));
        if g.nodes[i].kind.is_fusible_kind() && (unread || rng.chance(15)) {
            g.nodes[i].escapes = true;
        }
    }
    g
}
