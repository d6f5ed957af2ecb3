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

fn add_node(
    g: &mut Graph,
    name: String,
    kind: NodeKind,
    iteration: Option<SizeClass>,
    output_size: Option<SizeClass>,
) -> NodeId {
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
}

fn add_edge(g: &mut Graph, from: NodeId, to: NodeId, access: Access) {
    // A scatter's result has no traversal order (seed 000 Table 1: `[.. | ys]`), so
    // nothing fuses with it.
    let fusible = !matches!(access, Access::Unordered | Access::ScatterDestination)
        && g.nodes[from.0].kind != NodeKind::Scatter
        && g.nodes[from.0].kind.is_fusible_kind()
        && g.nodes[to.0].kind.is_fusible_kind();
    let array = g.nodes[from.0].name.clone();
    g.edges.push(Edge { from, to, output: 0, array, access, fusible });
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
            // An integer sum: its combine commutes, so it may run in either direction.
            let n = add_node(&mut g, name, NodeKind::Fold { commutes: true }, Some(arrays[input].size), Some(out));
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
/// their labels, folds (half of them with a combine that may not commute) to scalars and row folds of a 2-D argument (transducers whose
/// output is an array), left and right scans, filters and expands (rigid output
/// sizes), and scatters into arguments or into computed arrays (other uses of the
/// destination come before the scatter). `combinators` combinator nodes after two 1-D
/// arguments and one 2-D argument.
pub fn small_program(combinators: usize, seed: u64) -> Graph {
    let mut p = SmallProgram {
        rng: Rng::new(seed),
        g: Graph::default(),
        arrays: Vec::new(),
        scalars: Vec::new(),
        labels: 1,
        next_size: 4,
    };
    for (name, size) in [("in0", BASE), ("in1", BASE), ("mat", MATRIX)] {
        let n = p.push(name.into(), NodeKind::Input, None, Some(size));
        p.arrays.push((n, size, false));
    }
    for i in 0..combinators {
        let name = format!("v{i}");
        // A scatter's destination is not read after the scatter: `extract` would make
        // such a use unordered, and the scatter precedence (seed 000 (9)) would then
        // put it before the scatter, against program order.
        let live: Vec<usize> = (0..p.arrays.len()).filter(|a| !p.arrays[*a].2).collect();
        let choice = p.rng.below(100);
        let node = match choice {
            0..28 => p.map(name, &live),
            28..36 => p.generate(name),
            36..48 => p.gather(name, &live),
            48..58 => p.fold(name, &live),
            58..68 => p.scan(name, &live),
            68..82 => p.filter_or_expand(name, &live),
            _ => match p.scatter(name, &live) {
                Some(node) => node,
                None => continue,
            },
        };
        p.maybe_free_variable(node, &live);
    }
    p.finish()
}

// Size classes of `small_program`: the 1-D arguments, the 2-D argument, its rows,
// scalars; then one rigid class per filter or expand.
const BASE: SizeClass = SizeClass(0);
const MATRIX: SizeClass = SizeClass(1);
const ROWS: SizeClass = SizeClass(2);
const SCALAR: SizeClass = SizeClass(3);

/// The state of [`small_program`] while it adds nodes.
struct SmallProgram {
    rng: Rng,
    g: Graph,
    /// Arrays that can be read: (producer, size, consumed by a scatter).
    arrays: Vec<(NodeId, SizeClass, bool)>,
    scalars: Vec<NodeId>,
    labels: u32,
    next_size: usize,
}

impl SmallProgram {
    fn push(&mut self, name: String, kind: NodeKind, iteration: Option<SizeClass>, out: Option<SizeClass>) -> NodeId {
        self.g.nodes.push(Node {
            name,
            kind,
            iteration,
            output_size: out,
            outputs: 1,
            output_bytes: vec![Some(1 << 20)],
            escapes: false,
            escaping_outputs: Vec::new(),
        });
        NodeId(self.g.nodes.len() - 1)
    }

    /// A use of array `a` (index into `arrays`) by `to`.
    fn read(&mut self, a: usize, to: NodeId, access: Access) {
        let from = self.arrays[a].0;
        if self.g.edges.iter().any(|e| e.from == from && e.to == to && e.access == access) {
            return;
        }
        let array = self.g.nodes[from.0].name.clone();
        self.g.edges.push(Edge { from, to, output: 0, array, access, fusible: false });
    }

    fn of_size(&self, live: &[usize], s: SizeClass) -> Vec<usize> {
        live.iter().copied().filter(|a| self.arrays[*a].1 == s).collect()
    }

    fn any(&mut self, live: &[usize]) -> usize {
        live[self.rng.below(live.len())]
    }

    fn map(&mut self, name: String, live: &[usize]) -> NodeId {
        let first = self.any(live);
        let size = self.arrays[first].1;
        let node = self.push(name, NodeKind::Map, Some(size), None);
        self.read(first, node, Access::InOutputOrder);
        for _ in 0..self.rng.below(3) {
            let same = self.of_size(live, size);
            let other = same[self.rng.below(same.len())];
            self.read(other, node, Access::InOutputOrder);
        }
        self.arrays.push((node, size, false));
        node
    }

    fn generate(&mut self, name: String) -> NodeId {
        let size = if self.rng.chance(70) { BASE } else { ROWS };
        let node = self.push(name, NodeKind::Generate, Some(size), None);
        self.arrays.push((node, size, false));
        node
    }

    fn gather(&mut self, name: String, live: &[usize]) -> NodeId {
        let index = self.of_size(live, BASE).into_iter().chain(self.of_size(live, ROWS)).collect::<Vec<_>>();
        let index = index[self.rng.below(index.len())];
        let source = self.any(live);
        self.labels += 1;
        let label = self.labels;
        let size = self.arrays[index].1;
        let node = self.push(name, NodeKind::Gather { label }, Some(size), None);
        self.read(index, node, Access::InOutputOrder);
        self.read(source, node, Access::GatherSource { label });
        self.arrays.push((node, size, false));
        node
    }

    fn fold(&mut self, name: String, live: &[usize]) -> NodeId {
        let input = self.any(live);
        // Half of the folds have a combine that may not commute (fixed to order 0).
        let kind = NodeKind::Fold { commutes: self.rng.chance(50) };
        let size = self.arrays[input].1;
        if size == MATRIX {
            // Row fold: a transducer from the matrix's size to its rows.
            let node = self.push(name, kind, Some(MATRIX), Some(ROWS));
            self.g.size_parent.push((ROWS, node));
            self.read(input, node, Access::InOutputOrder);
            self.arrays.push((node, ROWS, false));
            node
        } else {
            let node = self.push(name, kind, Some(size), Some(SCALAR));
            self.g.size_parent.push((SCALAR, node));
            self.read(input, node, Access::InOutputOrder);
            self.scalars.push(node);
            node
        }
    }

    fn scan(&mut self, name: String, live: &[usize]) -> NodeId {
        let input = self.any(live);
        let size = self.arrays[input].1;
        let backward = self.rng.chance(40);
        let node = self.push(name, NodeKind::Scan { backward }, Some(size), None);
        self.read(input, node, Access::InOutputOrder);
        self.arrays.push((node, size, false));
        node
    }

    fn filter_or_expand(&mut self, name: String, live: &[usize]) -> NodeId {
        let input = self.any(live);
        let size = self.arrays[input].1;
        let out = SizeClass(self.next_size);
        self.next_size += 1;
        self.g.rigid_sizes.push(out);
        let kind = if self.rng.chance(60) { NodeKind::Filter } else { NodeKind::Expand };
        let node = self.push(name, kind, Some(size), Some(out));
        self.g.size_parent.push((out, node));
        self.read(input, node, Access::InOutputOrder);
        self.arrays.push((node, out, false));
        node
    }

    /// Scatters values (any array) into a 1-D destination not yet consumed; `None` when
    /// there is none.
    fn scatter(&mut self, name: String, live: &[usize]) -> Option<NodeId> {
        let dests: Vec<usize> = (0..self.arrays.len())
            .filter(|a| {
                let (producer, size, consumed) = self.arrays[*a];
                size == BASE && !consumed && self.g.nodes[producer.0].kind != NodeKind::Scatter
            })
            .collect();
        let values = self.any(live);
        if dests.is_empty() {
            return None;
        }
        let dest = dests[self.rng.below(dests.len())];
        let size = self.arrays[values].1;
        let node = self.push(name, NodeKind::Scatter, Some(size), Some(BASE));
        self.read(dest, node, Access::ScatterDestination);
        self.read(values, node, Access::InOutputOrder);
        self.arrays[dest].2 = true;
        self.arrays.push((node, BASE, false));
        Some(node)
    }

    /// Free variables of maps and generates: a fold result, or a whole array read with
    /// `array.index`.
    fn maybe_free_variable(&mut self, node: NodeId, live: &[usize]) {
        if !matches!(self.g.nodes[node.0].kind, NodeKind::Map | NodeKind::Generate) || !self.rng.chance(35) {
            return;
        }
        if !self.scalars.is_empty() && self.rng.chance(50) {
            let s = self.scalars[self.rng.below(self.scalars.len())];
            let array = self.g.nodes[s.0].name.clone();
            self.g.edges.push(Edge { from: s, to: node, output: 0, array, access: Access::Unordered, fusible: false });
        } else {
            let a = live[self.rng.below(live.len())];
            if self.arrays[a].0 != node {
                self.read(a, node, Access::Unordered);
            }
        }
    }

    /// Fusible edges exactly as `extract` decides (an ordered use between two
    /// combinators, not out of a scatter, and no unordered use between the same two
    /// nodes); arrays nobody reads are results, and a few others escape too.
    fn finish(mut self) -> Graph {
        let g = &mut self.g;
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
        for i in 0..g.nodes.len() {
            let unread = !g.edges.iter().any(|e| e.from == NodeId(i));
            if g.nodes[i].kind.is_fusible_kind() && (unread || self.rng.chance(15)) {
                g.nodes[i].escapes = true;
            }
        }
        self.g
    }
}
