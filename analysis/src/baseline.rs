//! Baseline fusion strategies, to show what the optimal clustering buys: no fusion, the
//! two greedy algorithms of seed 000 §5 ("Greedy"), and pull-stream fusion (seed 001
//! §1.1 and §1.5, "Stream").
//!
//! Seed 000's greedy algorithms "iteratively pick edges, try to fuse them, and check
//! whether there is still a solution"; they differ only in the order in which they
//! traverse the edges: top-down prefers edges near the sources of the dependence graph,
//! bottom-up edges near its sinks. Their answers are locally maximal: no further edge can
//! be fused without unfusing another. Seed 000 checks each step with its ILP; here the
//! check is incremental and concrete: the clusters joined by the fused edges (nothing
//! else is merged: a greedy pass fuses along edges, so it never fuses horizontally), the
//! traversal orders those edges force, and the clusters in a topological order, given to
//! the independent validator (`validate`). The cost function plays no part in the choice
//! (it only prices the result), as in the seed.
//!
//! Pull streams (seed 001 Fig. 1.1, the "Stream" column of its Table 1.1; Coutts et al.'s
//! stream fusion) fuse a producer into its consumer only when the consumer pulls the
//! producer's elements one by one and is its only reader: "pull streams do not support
//! distributing an input stream among multiple consumers". So a computed array read by
//! two consumers, or also returned, stays manifest, a gather's source (read at random
//! indices) is never fused, and nothing is fused horizontally; arrays that exist before
//! the function (inputs) are read by as many streams as need them. The candidate edges
//! are taken top-down with the same incremental validity check as greedy.
//!
//! Megiddo and Sarkar's clustering (seed 001 §1.1 and Table 1.1, "Megiddo") is an ILP
//! like ours that "only cluster together loops of the same iteration size": no filter
//! or fold fused with the consumers of its output, no gather fused with its source. It
//! is the project's ILP run on [`megiddo_view`], a graph with those fusions removed, so
//! it is optimal among the clusterings Megiddo's model allows, and only a baseline for
//! the real problem.
//!
//! Seed 003's (Bohrium's) greedy and linear partition algorithms are in
//! [`crate::bohrium`], selected here as `bohrium-greedy` and `bohrium-linear`; its exact
//! branch and bound is in [`crate::branch_and_bound`], selected as `bohrium-optimal`.

use super::clustering::Clustering;
use super::graph::{Access, EdgeId, Graph, ORDER_FORWARD, Order};
use super::validate::validate;
use std::fmt;
use std::str::FromStr;
use std::time::Instant;

/// How the analysis chooses a clustering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The optimum of the fusion ILP (the project's answer).
    #[default]
    Ilp,
    /// Every combinator its own loop.
    Unfused,
    /// Seed 000 §5's greedy algorithm, edges from the top of the graph down.
    GreedyTopDown,
    /// Seed 000 §5's greedy algorithm, edges from the bottom of the graph up.
    GreedyBottomUp,
    /// Pull-stream fusion (seed 001 §1.1): a producer fused only into its one reader.
    Stream,
    /// Megiddo and Sarkar's ILP (seed 001 §1.1): loops of one iteration size only.
    Megiddo,
    /// Seed 003's greedy merge (Bohrium, Fig. 7): the heaviest saving first
    /// ([`crate::bohrium::greedy`]).
    BohriumGreedy,
    /// Seed 003's linear merge (Bohrium, §V-E): program order, one current cluster
    /// ([`crate::bohrium::linear`]).
    BohriumLinear,
    /// Seed 003's exact partition algorithm (Bohrium, §V-D, Fig. 11): branch and bound
    /// over every legal clustering ([`crate::branch_and_bound`]); proven optimal when it
    /// finishes within the time limit, like the ILP.
    BohriumOptimal,
}

impl Strategy {
    pub const ALL: [Strategy; 9] = [
        Strategy::Ilp,
        Strategy::Unfused,
        Strategy::GreedyTopDown,
        Strategy::GreedyBottomUp,
        Strategy::Stream,
        Strategy::Megiddo,
        Strategy::BohriumGreedy,
        Strategy::BohriumLinear,
        Strategy::BohriumOptimal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Ilp => "ilp",
            Strategy::Unfused => "unfused",
            Strategy::GreedyTopDown => "greedy-top-down",
            Strategy::GreedyBottomUp => "greedy-bottom-up",
            Strategy::Stream => "stream",
            Strategy::Megiddo => "megiddo",
            Strategy::BohriumGreedy => "bohrium-greedy",
            Strategy::BohriumLinear => "bohrium-linear",
            Strategy::BohriumOptimal => "bohrium-optimal",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Strategy::ALL.into_iter().find(|x| x.name() == s.trim()).ok_or_else(|| {
            let names: Vec<&str> = Strategy::ALL.iter().map(|x| x.name()).collect();
            format!("unknown strategy '{s}' (expected one of: {})", names.join(", "))
        })
    }
}

/// The greedy clustering of `graph`, traversing the fusible edges top-down (by producer,
/// then consumer, in program order) or bottom-up (the reverse). Always valid: it starts
/// from the unfused clustering and keeps only steps the validator accepts.
pub fn greedy(graph: &Graph, top_down: bool) -> Clustering {
    greedy_until(graph, top_down, None)
}

/// [`greedy`] stopped at `deadline`: the edges not yet tried when it passes stay unfused.
/// Still valid (every step kept was validated); at the deadline it is a prefix of the
/// full greedy's steps. The warm start of the ILP uses it, whose time comes out of the
/// solver's limit: trying one edge rebuilds and validates the whole clustering, so on
/// random programs of 1000 combinators one greedy pass took about 3.5 s.
pub fn greedy_until(graph: &Graph, top_down: bool, deadline: Option<Instant>) -> Clustering {
    let mut edges = fusible_edges(graph);
    edges.sort_by_key(|e| (graph.edge(*e).from.0, graph.edge(*e).to.0, e.0));
    if !top_down {
        edges.sort_by_key(|e| std::cmp::Reverse((graph.edge(*e).to.0, graph.edge(*e).from.0, e.0)));
    }
    fuse_while_valid(graph, edges, deadline)
}

/// The pull-stream clustering of `graph` (see the module comment): the fusible edges
/// along which the consumer pulls, in its own order, an array that it alone reads and
/// that is not returned, fused top-down while the clustering stays valid.
pub fn stream(graph: &Graph) -> Clustering {
    let mut edges: Vec<EdgeId> = fusible_edges(graph)
        .into_iter()
        .filter(|e| {
            let edge = graph.edge(*e);
            let producer = graph.node(edge.from);
            let readers = graph.out_edges(edge.from).filter(|(_, other)| other.output == edge.output).count();
            edge.access == Access::InOutputOrder && readers == 1 && !producer.output_escapes(edge.output)
        })
        .collect();
    edges.sort_by_key(|e| (graph.edge(*e).from.0, graph.edge(*e).to.0, e.0));
    fuse_while_valid(graph, edges, None)
}

/// The graph as Megiddo and Sarkar's model sees it (see the module comment): an edge is
/// fusible only between loops of one iteration size and not into a gather's source, and
/// no size is the output size of a transducer, so loops of different sizes have no
/// compatible concestors (seed 001 Fig. 1.8) and never share a cluster. Every clustering
/// valid here is valid for `graph`: the view only removes fusions.
pub fn megiddo_view(graph: &Graph) -> Graph {
    let mut view = graph.clone();
    for e in &mut view.edges {
        let same_size =
            graph.node(e.from).iteration.is_some() && graph.node(e.from).iteration == graph.node(e.to).iteration;
        if !same_size || matches!(e.access, Access::GatherSource { .. }) {
            e.fusible = false;
        }
    }
    view.size_parent.clear();
    view
}

/// The fusible edges between two loops (combinators that may share a cluster).
fn fusible_edges(graph: &Graph) -> Vec<EdgeId> {
    (0..graph.edges.len())
        .map(EdgeId)
        .filter(|e| {
            let edge = graph.edge(*e);
            edge.is_fusible()
                && graph.node(edge.from).kind.is_fusible_kind()
                && graph.node(edge.to).kind.is_fusible_kind()
        })
        .collect()
}

/// Fuses `edges` one by one, in order, keeping each step the validator accepts, until
/// `deadline` (if any) passes.
fn fuse_while_valid(graph: &Graph, edges: Vec<EdgeId>, deadline: Option<Instant>) -> Clustering {
    let mut fused: Vec<EdgeId> = Vec::new();
    let mut best = Clustering::unfused(graph);
    for edge in edges {
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            break;
        }
        fused.push(edge);
        match clustering_fusing(graph, &fused) {
            Some(clustering) if validate(graph, &clustering).is_ok() => best = clustering,
            _ => {
                fused.pop();
            }
        }
    }
    best
}

/// The clustering in which exactly the edges `fused` are fused: their endpoints joined
/// into clusters, the traversal orders they force, the clusters in a topological order.
/// `None` when the fused edges force two orders on one node or the clusters form a cycle.
/// (The validator judges everything else.)
pub fn clustering_fusing(graph: &Graph, fused: &[EdgeId]) -> Option<Clustering> {
    let n = graph.nodes.len();
    // Clusters: connected components of the fused edges.
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], x: usize) -> usize {
        let mut root = x;
        while parent[root] != root {
            root = parent[root];
        }
        let mut y = x;
        while parent[y] != root {
            let next = parent[y];
            parent[y] = root;
            y = next;
        }
        root
    }
    for e in fused {
        let edge = graph.edge(*e);
        let (a, b) = (find(&mut parent, edge.from.0), find(&mut parent, edge.to.0));
        parent[a] = b;
    }
    // Orders (seed 000 Table 1): a fused edge makes the producer output in the order the
    // consumer reads — the consumer's own output order, or a gather's label. Equalities
    // are joined first, then each class takes its one fixed or label order (forward when
    // free).
    let mut same: Vec<usize> = (0..n).collect();
    for e in fused {
        let edge = graph.edge(*e);
        if edge.access == Access::InOutputOrder {
            let (a, b) = (find(&mut same, edge.from.0), find(&mut same, edge.to.0));
            same[a] = b;
        }
    }
    let mut class_order: Vec<Option<Order>> = vec![None; n];
    let mut require = |class: usize, order: Order| match class_order[class] {
        Some(o) if o != order => false,
        _ => {
            class_order[class] = Some(order);
            true
        }
    };
    for node in graph.node_ids() {
        if let Some(order) = graph.node(node).kind.fixed_output_order() {
            let class = find(&mut same, node.0);
            if !require(class, order) {
                return None;
            }
        }
    }
    for e in fused {
        let edge = graph.edge(*e);
        if let Access::GatherSource { label } = edge.access {
            let class = find(&mut same, edge.from.0);
            if !require(class, label) {
                return None;
            }
        }
    }
    let output_orders: Vec<Order> = (0..n).map(|i| class_order[find(&mut same, i)].unwrap_or(ORDER_FORWARD)).collect();

    // The clusters, each in program order, listed in a topological order of the edges
    // between them.
    let label: Vec<usize> = (0..n).map(|i| find(&mut parent, i)).collect();
    Clustering::in_execution_order(graph, &label, &output_orders)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::NodeId;
    use crate::validate::tests::B;

    #[test]
    fn strategies_parse_by_name() {
        for s in Strategy::ALL {
            assert_eq!(s.name().parse::<Strategy>(), Ok(s));
        }
        assert!("greedy".parse::<Strategy>().unwrap_err().contains("greedy-top-down"));
    }

    /// Megiddo's view keeps fusion between loops of one size only: a filter's consumer
    /// (over the filter's output size) and a gather's source are cut off, and no
    /// transducer is the parent of a size any more.
    #[test]
    fn megiddo_view_keeps_only_same_size_fusion() {
        use crate::graph::NodeKind;
        let mut b = B::new();
        let xs = b.input("xs");
        let a = b.op("a", NodeKind::Map, 0);
        let f = b.transducer("f", NodeKind::Filter, 0, 1);
        let c = b.op("c", NodeKind::Map, 1);
        let g = b.op("g", NodeKind::Gather { label: 2 }, 0);
        b.read(xs, a);
        b.read(a, f);
        b.read(f, c);
        b.read(xs, g);
        b.source(a, g);
        let graph = b.g;
        assert!(!graph.size_parent.is_empty());
        let view = megiddo_view(&graph);
        let fusible = |g: &Graph, x: NodeId, y: NodeId| g.edges.iter().any(|e| e.from == x && e.to == y && e.fusible);
        assert!(fusible(&view, a, f), "same size");
        assert!(fusible(&graph, f, c) && !fusible(&view, f, c), "over the filter's output");
        assert!(fusible(&graph, a, g) && !fusible(&view, a, g), "a gather's source");
        assert!(view.size_parent.is_empty());
    }

    /// Pull streams fuse a chain whose arrays each have one reader, and nothing else:
    /// not an array read twice, not one that is also returned, not a gather's source.
    #[test]
    fn stream_fuses_only_arrays_with_one_pulling_reader() {
        use crate::graph::NodeKind;
        let mut b = B::new();
        let xs = b.input("xs");
        let a = b.op("a", NodeKind::Map, 0); // read by c only: fused
        let c = b.op("c", NodeKind::Map, 0); // read by d and e: stays manifest
        let d = b.op("d", NodeKind::Map, 0);
        let e = b.op("e", NodeKind::Map, 0);
        let f = b.op("f", NodeKind::Map, 0); // read by h only, but also returned
        let g = b.op("g", NodeKind::Gather { label: 2 }, 0); // reads e as its source
        let h = b.op("h", NodeKind::Map, 0);
        b.read(xs, a);
        b.read(xs, g);
        b.read(a, c);
        b.read(c, d);
        b.read(c, e);
        b.source(e, g);
        b.read(d, f);
        b.read(f, h);
        b.escape(f);
        let graph = b.g;
        let clustering = stream(&graph);
        assert!(validate(&graph, &clustering).is_ok());
        let together = |x: NodeId, y: NodeId| {
            let of = clustering.cluster_of(graph.nodes.len());
            of[x.0] == of[y.0]
        };
        assert!(together(a, c), "{:?}", clustering.names(&graph));
        assert!(!together(c, d) && !together(c, e), "c has two readers: {:?}", clustering.names(&graph));
        assert!(together(d, f), "d has one reader: {:?}", clustering.names(&graph));
        assert!(!together(f, h), "f is returned: {:?}", clustering.names(&graph));
        assert!(!together(e, g), "a gather source is read at random: {:?}", clustering.names(&graph));
        // Greedy, which may distribute, fuses more.
        let greedy_clusters = greedy(&graph, true).clusters.len();
        assert!(greedy_clusters < clustering.clusters.len(), "{greedy_clusters} vs {:?}", clustering.names(&graph));
    }

    /// A chain of maps fuses completely; a cycle through an unordered read cannot form.
    #[test]
    fn greedy_fuses_a_chain_and_refuses_a_cycle() {
        let mut b = B::new();
        let xs = b.input("xs");
        let a = b.op("a", crate::graph::NodeKind::Map, 0);
        let c = b.op("c", crate::graph::NodeKind::Map, 0);
        let d = b.op("d", crate::graph::NodeKind::Map, 0);
        b.read(xs, a);
        b.read(a, c);
        b.read(c, d);
        b.free(a, d); // d reads a at arbitrary indices: a must be complete before d runs
        let g = b.g;
        for top_down in [true, false] {
            let clustering = greedy(&g, top_down);
            assert!(validate(&g, &clustering).is_ok());
            let names = clustering.names(&g);
            // a–c–d in one cluster would put the free read of a inside a's own loop.
            assert!(!names.iter().any(|c| c.contains(&"a".to_string()) && c.contains(&"d".to_string())), "{names:?}");
            assert!(names.iter().any(|c| c.len() == 2), "one of the two edges is fused: {names:?}");
        }
    }

    /// A greedy pass stopped at a deadline is still valid: with no deadline it is the
    /// whole pass, with one already passed it fuses nothing.
    #[test]
    fn greedy_until_a_deadline_is_a_valid_prefix() {
        for seed in 0..4 {
            let g = crate::random::random_graph(40, seed);
            for top_down in [true, false] {
                let whole = greedy(&g, top_down);
                assert_eq!(greedy_until(&g, top_down, None).clusters, whole.clusters);
                let none = greedy_until(&g, top_down, Some(Instant::now()));
                assert_eq!(none.clusters, Clustering::unfused(&g).clusters, "seed {seed}");
                assert!(validate(&g, &none).is_ok());
                assert!(whole.clusters.len() < none.clusters.len(), "seed {seed}: greedy fuses something");
            }
        }
    }
}
