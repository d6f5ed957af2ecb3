//! An independent checker for clusterings, written from the papers' rules rather than
//! from any ILP: whatever produced a [`Clustering`] (the solver, a greedy baseline, a
//! hand-written test), [`validate`] says whether executing its clusters in sequence is
//! a legal fusion of the [`Graph`], and if not, exactly which rule breaks where.
//!
//! The rules, and where they come from:
//!
//! 1. **Partition** — every node in exactly one cluster, no unknown node, no empty
//!    cluster, one output order per node (seed 000 §4.1: the clustering is a mapping π
//!    from nodes to clusters).
//! 2. **Precedence** — for every edge a→b, π_a ≤ π_b, and π_a < π_b when the edge is
//!    infusible (seed 000 §4.1 constraints (2), (4), (5); §3.4 "the relative order among
//!    operations needs to be preserved"). Inside one cluster the producer is listed
//!    before the consumer (seed 000 §3.2: fusion is asymmetric, "the top half of the
//!    resulting loop cannot use results produced by the bottom half"). Because cluster
//!    positions are a total order and every edge goes forward or stays inside a
//!    cluster, the sequence of clusters can have no cycle (seed 001 §1.4.2).
//! 3. **Barriers** — a node of unknown iteration size (⊥: a barrier or a function
//!    argument) is alone in its cluster (seed 001 §1.3.5 "it cannot be fused with any
//!    other operator", seed 000 §4.1 "Control flow").
//! 4. **Scatter temporal uniqueness** — all other uses of a scatter's destination come
//!    in clusters strictly before the scatter's (seed 000 §3.4, constraint (9)).
//! 5. **Traversal orders** — orders lie in `0..=g+1`; combinators that fix their order
//!    have it (seed 000 Table 1, §4.2: scanl 0, scanr 1; seed 001 §1.3.6: filters are
//!    sequential); a scatter reads its values in order 0 and a fold whose combine may
//!    not commute never runs in order 1 (this dialect's scatters combine in source
//!    order and its folds fold from the left; seed 000 allows both directions, which
//!    only a commutative combine makes equal); gather labels are distinct and
//!    in `2..=g+1` (seed 000 §2); over a fused edge the producer's output order is the
//!    order in which the consumer reads it (seed 000 §3.2 rules VERTICAL/DIAGONAL need
//!    `x:d` on both sides, constraint (12)).
//! 6. **Complete outputs** — an array that leaves its cluster (read by another cluster,
//!    or escaping the block) is produced in order 0 or 1 (seed 000 §3.3, constraint (11);
//!    this rejects `simple3`).
//! 7. **Connected clusters** — the nodes of a cluster are connected by fused edges, or
//!    by reading a common parent in the same order (seed 000 §4.1 "Performance and
//!    correctness": parents are added "once for every order they are read in").
//! 8. **Iteration sizes** — two nodes of different iteration size share a cluster only
//!    through their compatible concestors (A, B), which must be in that cluster too
//!    (seed 001 §1.3.6, Fig. 1.8, §1.4.3 "Fusion between different iteration sizes").
//!    A node producing in a gather's order runs in that gather's iteration space
//!    (seed 000 §3.3 `simple1`: the gather's index permutation is pushed into it).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

use crate::clustering::Clustering;
use crate::graph::{Access, Graph, NodeId, NodeKind, ORDER_BACKWARD, Order, SizeClass};

/// One broken rule, with the nodes, arrays and clusters involved. Cluster numbers are
/// positions in [`Clustering::clusters`] (execution order, from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The graph itself is inconsistent (an edge names a node or output that does not
    /// exist, a gather source edge into a non-gather, …); nothing else was checked
    /// when this is about node or output indices.
    MalformedGraph { detail: String },

    // Rule 1: partition (seed 000 §4.1, π).
    /// `output_orders` does not have one entry per node.
    OrderCountMismatch { expected: usize, found: usize },
    /// A cluster with no node.
    EmptyCluster { cluster: usize },
    /// A cluster lists a node index the graph does not have.
    UnknownNode { node: usize, cluster: usize },
    /// A node is listed twice (`first == second` when twice in one cluster).
    DuplicateNode { node: String, first: usize, second: usize },
    /// A node is in no cluster.
    MissingNode { node: String },

    // Rule 2: precedence (seed 000 (2), (4), (5)).
    /// An edge goes from a later cluster to an earlier one.
    PrecedenceViolated {
        producer: String,
        consumer: String,
        array: String,
        producer_cluster: usize,
        consumer_cluster: usize,
    },
    /// Both ends of an infusible edge are in one cluster.
    FusedOverInfusibleEdge { producer: String, consumer: String, array: String, cluster: usize },
    /// Inside one cluster the consumer is listed before its producer.
    ConsumerBeforeProducer { producer: String, consumer: String, array: String, cluster: usize },

    // Rule 3: barriers (seed 001 §1.3.5).
    /// A node of unknown iteration size (⊥) shares its cluster.
    BarrierFused { barrier: String, cluster: usize, others: Vec<String> },

    // Rule 4: scatter (seed 000 (9)).
    /// Another use of a scatter's destination is not in an earlier cluster.
    ScatterDestinationUsedAfter {
        scatter: String,
        destination: String,
        user: String,
        user_cluster: usize,
        scatter_cluster: usize,
    },

    // Rule 5: traversal orders (seed 000 §3.3, §4.2, Table 1).
    /// An output order outside `0..=g+1`.
    OrderOutOfRange { node: String, order: Order, max: Order },
    /// A combinator that fixes its order (scanl, scanr, filter, expand, scatter) has
    /// another one.
    FixedOrderViolated { node: String, combinator: &'static str, expected: Order, found: Order },
    /// A fold whose combine may not commute runs right to left (order 1): the dialect
    /// folds from the left, so the value would change.
    BackwardFold { node: String },
    /// A gather label outside `2..=g+1`.
    InvalidGatherLabel { gather: String, label: Order, max: Order },
    /// Two gathers share a label.
    DuplicateGatherLabel { label: Order, first: String, second: String },
    /// Over a fused edge, the producer's output order differs from the consumer's read
    /// order.
    OrderMismatch { producer: String, consumer: String, array: String, cluster: usize, produced: Order, read: Order },

    // Rule 6: complete outputs (seed 000 §3.3, (11)).
    /// An array produced in a gather's order leaves its cluster.
    IncompleteOutput { node: String, order: Order, cluster: usize, leaves: Leak },

    // Rule 7: connected components (seed 000 §4.1).
    /// A cluster falls apart into several connected components.
    Disconnected { cluster: usize, components: Vec<Vec<String>> },

    // Rule 8: iteration sizes (seed 001 §1.3.6).
    /// Two nodes of different iteration size with no compatible concestors.
    IterationSizeMismatch { a: String, b: String, cluster: usize, size_a: SizeClass, size_b: SizeClass },
    /// Two nodes of different iteration size whose compatible concestors are not all
    /// in their cluster.
    ConcestorsNotFused { a: String, b: String, cluster: usize, concestors: (String, String), missing: Vec<String> },
}

/// How an array produced in a gather's order leaves its cluster (rule 6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leak {
    /// The array is used outside the block.
    Escapes,
    /// The array is read by a node of a later cluster.
    ReadBy { consumer: String, consumer_cluster: usize },
}

impl Violation {
    /// A short stable name of the broken rule, for diagnostics and tests.
    pub fn code(&self) -> &'static str {
        match self {
            Violation::MalformedGraph { .. } => "malformed-graph",
            Violation::OrderCountMismatch { .. } => "order-count",
            Violation::EmptyCluster { .. } => "empty-cluster",
            Violation::UnknownNode { .. } => "unknown-node",
            Violation::DuplicateNode { .. } => "duplicate-node",
            Violation::MissingNode { .. } => "missing-node",
            Violation::PrecedenceViolated { .. } => "precedence",
            Violation::FusedOverInfusibleEdge { .. } => "infusible-edge",
            Violation::ConsumerBeforeProducer { .. } => "consumer-before-producer",
            Violation::BarrierFused { .. } => "barrier-fused",
            Violation::ScatterDestinationUsedAfter { .. } => "scatter-destination",
            Violation::OrderOutOfRange { .. } => "order-range",
            Violation::FixedOrderViolated { .. } => "fixed-order",
            Violation::BackwardFold { .. } => "backward-fold",
            Violation::InvalidGatherLabel { .. } => "gather-label",
            Violation::DuplicateGatherLabel { .. } => "duplicate-gather-label",
            Violation::OrderMismatch { .. } => "order-mismatch",
            Violation::IncompleteOutput { .. } => "incomplete-output",
            Violation::Disconnected { .. } => "disconnected",
            Violation::IterationSizeMismatch { .. } => "iteration-size",
            Violation::ConcestorsNotFused { .. } => "concestors-not-fused",
        }
    }
}

/// A traversal order in words (seed 000 §3.3).
fn order_words(o: Order) -> String {
    match o {
        0 => "0 (left-to-right)".to_string(),
        1 => "1 (right-to-left)".to_string(),
        l => format!("{l} (the order of the gather labelled {l})"),
    }
}

fn names(list: &[String]) -> String {
    list.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::MalformedGraph { detail } => write!(f, "malformed dependence graph: {detail}"),
            Violation::OrderCountMismatch { expected, found } => write!(
                f,
                "the clustering gives {found} output orders but the graph has {expected} nodes; every node needs exactly one"
            ),
            Violation::EmptyCluster { cluster } => write!(f, "cluster {cluster} is empty"),
            Violation::UnknownNode { node, cluster } => {
                write!(f, "cluster {cluster} lists node #{node}, which is not in the graph")
            }
            Violation::DuplicateNode { node, first, second } if first == second => {
                write!(f, "`{node}` is listed twice in cluster {first}")
            }
            Violation::DuplicateNode { node, first, second } => {
                write!(f, "`{node}` is in two clusters, {first} and {second}; every node must be in exactly one")
            }
            Violation::MissingNode { node } => {
                write!(f, "`{node}` is in no cluster; every node must be in exactly one")
            }
            Violation::PrecedenceViolated { producer, consumer, array, producer_cluster, consumer_cluster } => write!(
                f,
                "`{consumer}` (cluster {consumer_cluster}) reads `{array}`, which `{producer}` produces later in cluster {producer_cluster}; a producer's cluster must run no later than its consumers'"
            ),
            Violation::FusedOverInfusibleEdge { producer, consumer, array, cluster } => write!(
                f,
                "`{producer}` and `{consumer}` are fused in cluster {cluster}, but `{consumer}` needs all of `{array}` before it starts (an infusible edge); `{producer}` must be in an earlier cluster"
            ),
            Violation::ConsumerBeforeProducer { producer, consumer, array, cluster } => write!(
                f,
                "in cluster {cluster}, `{consumer}` is listed before `{producer}`, whose output `{array}` it reads; within a loop a producer must come first"
            ),
            Violation::BarrierFused { barrier, cluster, others } => write!(
                f,
                "`{barrier}` has no known iteration size (a barrier or function argument) and cannot be fused, but cluster {cluster} also holds {}",
                names(others)
            ),
            Violation::ScatterDestinationUsedAfter { scatter, destination, user, user_cluster, scatter_cluster } => {
                write!(
                    f,
                    "`{scatter}` (cluster {scatter_cluster}) updates `{destination}` in place, but `{user}` (cluster {user_cluster}) also uses `{destination}` and does not run before it; every other use of a scatter's destination must be in an earlier cluster"
                )
            }
            Violation::OrderOutOfRange { node, order, max } => write!(
                f,
                "`{node}` is produced in traversal order {order}, but orders range over 0..={max} (0, 1 and one label per gather)"
            ),
            Violation::FixedOrderViolated { node, combinator, expected, found } => write!(
                f,
                "`{node}` is a {combinator}, which always traverses in order {}, but the clustering gives it order {}",
                order_words(*expected),
                order_words(*found)
            ),
            Violation::BackwardFold { node } => write!(
                f,
                "fold `{node}` runs right to left (order 1), but its combine may not commute and the fold is defined from the left"
            ),
            Violation::InvalidGatherLabel { gather, label, max } => {
                write!(f, "gather `{gather}` has label {label}, but gather labels range over 2..={max}")
            }
            Violation::DuplicateGatherLabel { label, first, second } => {
                write!(f, "gathers `{first}` and `{second}` share label {label}; every gather needs its own")
            }
            Violation::OrderMismatch { producer, consumer, array, cluster, produced, read } => write!(
                f,
                "`{producer}` and `{consumer}` are fused over `{array}` in cluster {cluster}, but `{producer}` produces it in order {} while `{consumer}` reads it in order {}",
                order_words(*produced),
                order_words(*read)
            ),
            Violation::IncompleteOutput { node, order, cluster, leaves } => {
                write!(
                    f,
                    "`{node}` is produced in order {} in cluster {cluster}, which may not compute every element, but ",
                    order_words(*order)
                )?;
                match leaves {
                    Leak::Escapes => write!(f, "it is used outside the block")?,
                    Leak::ReadBy { consumer, consumer_cluster } => {
                        write!(f, "`{consumer}` reads it in cluster {consumer_cluster}")?
                    }
                }
                write!(f, "; an array that leaves its cluster must be produced in order 0 or 1")
            }
            Violation::Disconnected { cluster, components } => {
                let parts: Vec<String> = components.iter().map(|c| format!("{{{}}}", names(c))).collect();
                write!(
                    f,
                    "cluster {cluster} is not one loop: its nodes fall into the unrelated groups {}, joined neither by a fused edge nor by reading a common array in the same order",
                    parts.join(" and ")
                )
            }
            Violation::IterationSizeMismatch { a, b, cluster, size_a, size_b } => write!(
                f,
                "`{a}` (iteration size k{}) and `{b}` (iteration size k{}) are fused in cluster {cluster}, but their sizes differ and they descend from no common transducer with a shared iteration size",
                size_a.0, size_b.0
            ),
            Violation::ConcestorsNotFused { a, b, cluster, concestors, missing } => write!(
                f,
                "`{a}` and `{b}` have different iteration sizes and may share cluster {cluster} only together with their compatible concestors `{}` and `{}`, but {} {} not in it",
                concestors.0,
                concestors.1,
                names(missing),
                if missing.len() == 1 { "is" } else { "are" }
            ),
        }
    }
}

/// The parent transducer of `n` (seed 001 Fig. 1.7 `trans`): the transducer whose
/// output `n` iterates over, found by following the data (several transducers may share
/// an output size class). A transducer's own iteration size is its input size, so its
/// parent is the transducer above it. `parents` is [`Graph::parent_transducers`].
fn parent_transducer(graph: &Graph, parents: &[Option<NodeId>], n: NodeId) -> Option<NodeId> {
    graph.node(n).iteration?;
    parents.get(n.0).copied().flatten().filter(|t| *t != n && t.0 < graph.nodes.len())
}

/// A pair of compatible concestors with their distance (`concestors'` of Fig. 1.8).
type Concestors = Option<(NodeId, NodeId, usize)>;

/// `concestors'` of seed 001 Fig. 1.8 with memoisation; `busy` guards against cycles
/// in a malformed transducer relation; `parents` is [`Graph::parent_transducers`].
fn concestors_rec(
    graph: &Graph,
    parents: &[Option<NodeId>],
    a: NodeId,
    b: NodeId,
    memo: &mut HashMap<(NodeId, NodeId), Concestors>,
    busy: &mut BTreeSet<(NodeId, NodeId)>,
) -> Concestors {
    if let Some(r) = memo.get(&(a, b)) {
        return *r;
    }
    let (ia, ib) = (graph.node(a).iteration?, graph.node(b).iteration?);
    if ia == ib {
        return Some((a, b, 0));
    }
    if !busy.insert((a, b)) {
        return None;
    }
    // p_a: climb from a to its parent transducer a'; p_b: from b to b'.
    let pa = parent_transducer(graph, parents, a).and_then(|a2| concestors_rec(graph, parents, a2, b, memo, busy));
    let pb = parent_transducer(graph, parents, b).and_then(|b2| concestors_rec(graph, parents, a, b2, memo, busy));
    let closest = match (pa, pb) {
        // closest: the pair with the smaller distance, the left one on ties.
        (Some(l), Some(r)) => Some(if l.2 <= r.2 { l } else { r }),
        (l, r) => l.or(r),
    };
    // increment
    let result = closest.map(|(x, y, d)| (x, y, d + 1));
    busy.remove(&(a, b));
    memo.insert((a, b), result);
    result
}

/// The compatible concestors of `a` and `b` (seed 001 §1.3.6, Fig. 1.8): the most
/// recent pair of ancestor transducers (or the nodes themselves) `(A, B)`, `A` on
/// `a`'s side and `B` on `b`'s, with equal iteration sizes; `None` (⊥) when there is
/// none or either size is unknown. Nodes of equal iteration size are their own
/// concestors. Written independently of `formulation::concestors` (the validator shares
/// no rule code with what it checks). In normalize2, `concestors(sum1, sum2) = (sum1, gts)` and
/// `concestors(gts, sum2) = (gts, gts)`.
pub fn concestors(graph: &Graph, a: NodeId, b: NodeId) -> Option<(NodeId, NodeId)> {
    let mut memo = HashMap::new();
    let mut busy = BTreeSet::new();
    concestors_rec(graph, &graph.parent_transducers(), a, b, &mut memo, &mut busy).map(|(x, y, _)| (x, y))
}

/// Checks `clustering` against every rule of the module documentation and returns all
/// violations found. When the clustering is not a partition of the graph's nodes
/// (rule 1) or an edge names a node that does not exist, only those violations are
/// returned: the other rules are meaningless without a partition.
pub fn validate(graph: &Graph, clustering: &Clustering) -> Result<(), Vec<Violation>> {
    let mut out = Vec::new();
    if !check_graph_structure(graph, &mut out) {
        return Err(out);
    }
    let Some(cluster_of) = check_partition(graph, clustering, &mut out) else {
        return Err(out);
    };
    let mut position = vec![0usize; graph.nodes.len()];
    for nodes in &clustering.clusters {
        for (i, n) in nodes.iter().enumerate() {
            position[n.0] = i;
        }
    }
    let cx = Ctx { graph, clustering, cluster_of: &cluster_of, position: &position };
    cx.check_precedence(&mut out);
    cx.check_barriers(&mut out);
    cx.check_scatters(&mut out);
    let out_of_range = cx.check_orders(&mut out);
    cx.check_complete_outputs(&out_of_range, &mut out);
    cx.check_connected(&mut out);
    cx.check_iteration_sizes(&mut out);
    if out.is_empty() { Ok(()) } else { Err(out) }
}

/// Edge endpoints and output indices exist, no self-edge, gather-source edges go
/// into gathers of that label. Returns false when indices are out of range.
fn check_graph_structure(graph: &Graph, out: &mut Vec<Violation>) -> bool {
    let n = graph.nodes.len();
    let mut fatal = false;
    for (i, e) in graph.edges.iter().enumerate() {
        if e.from.0 >= n || e.to.0 >= n {
            out.push(Violation::MalformedGraph {
                detail: format!(
                    "edge #{i} (`{}`) joins node #{} to node #{}, but the graph has {n} nodes",
                    e.array, e.from.0, e.to.0
                ),
            });
            fatal = true;
            continue;
        }
        let (from, to) = (graph.node(e.from), graph.node(e.to));
        if e.output >= from.outputs {
            out.push(Violation::MalformedGraph {
                detail: format!(
                    "edge #{i} reads output {} of `{}`, which has {} outputs",
                    e.output, from.name, from.outputs
                ),
            });
        }
        if e.from == e.to {
            out.push(Violation::MalformedGraph {
                detail: format!("edge #{i} (`{}`) goes from `{}` to itself", e.array, from.name),
            });
        }
        if let Access::GatherSource { label } = e.access
            && to.kind != (NodeKind::Gather { label })
        {
            out.push(Violation::MalformedGraph {
                detail: format!(
                    "`{}` reads `{}` as the source of gather label {label}, but it is a {}",
                    to.name,
                    e.array,
                    match to.kind {
                        NodeKind::Gather { label: l } => format!("gather labelled {l}"),
                        k => k.mnemonic().to_string(),
                    }
                ),
            });
        }
    }
    !fatal
}

/// Rule 1. Returns the cluster of every node when the clustering is a partition.
fn check_partition(graph: &Graph, clustering: &Clustering, out: &mut Vec<Violation>) -> Option<Vec<usize>> {
    let n = graph.nodes.len();
    let before = out.len();
    if clustering.output_orders.len() != n {
        out.push(Violation::OrderCountMismatch { expected: n, found: clustering.output_orders.len() });
    }
    let mut seen: Vec<Option<usize>> = vec![None; n];
    for (c, nodes) in clustering.clusters.iter().enumerate() {
        if nodes.is_empty() {
            out.push(Violation::EmptyCluster { cluster: c });
        }
        for node in nodes {
            if node.0 >= n {
                out.push(Violation::UnknownNode { node: node.0, cluster: c });
            } else if let Some(first) = seen[node.0] {
                out.push(Violation::DuplicateNode { node: graph.node(*node).name.clone(), first, second: c });
            } else {
                seen[node.0] = Some(c);
            }
        }
    }
    for (i, s) in seen.iter().enumerate() {
        if s.is_none() {
            out.push(Violation::MissingNode { node: graph.nodes[i].name.clone() });
        }
    }
    if out.len() > before {
        return None;
    }
    Some(seen.into_iter().map(|c| c.unwrap_or(0)).collect())
}

struct Ctx<'a> {
    graph: &'a Graph,
    clustering: &'a Clustering,
    cluster_of: &'a [usize],
    position: &'a [usize],
}

/// A tiny union-find.
struct UnionFind(Vec<usize>);

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind((0..n).collect())
    }
    fn find(&mut self, i: usize) -> usize {
        let mut r = i;
        while self.0[r] != r {
            r = self.0[r];
        }
        let mut i = i;
        while self.0[i] != r {
            let next = self.0[i];
            self.0[i] = r;
            i = next;
        }
        r
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb)] = ra.min(rb);
        }
    }
}

impl Ctx<'_> {
    fn name(&self, n: NodeId) -> String {
        self.graph.node(n).name.clone()
    }

    fn orders(&self) -> &[Order] {
        &self.clustering.output_orders
    }

    /// Rule 2 (seed 000 (2), (4), (5); §3.2 asymmetry).
    fn check_precedence(&self, out: &mut Vec<Violation>) {
        let mut reported = BTreeSet::new();
        for e in &self.graph.edges {
            let (ca, cb) = (self.cluster_of[e.from.0], self.cluster_of[e.to.0]);
            let key = (e.from, e.to, e.output);
            if ca > cb {
                if reported.insert(key) {
                    out.push(Violation::PrecedenceViolated {
                        producer: self.name(e.from),
                        consumer: self.name(e.to),
                        array: e.array.clone(),
                        producer_cluster: ca,
                        consumer_cluster: cb,
                    });
                }
            } else if ca == cb && e.from != e.to {
                if !e.is_fusible() {
                    if reported.insert(key) {
                        out.push(Violation::FusedOverInfusibleEdge {
                            producer: self.name(e.from),
                            consumer: self.name(e.to),
                            array: e.array.clone(),
                            cluster: ca,
                        });
                    }
                } else if self.position[e.from.0] > self.position[e.to.0] && reported.insert(key) {
                    out.push(Violation::ConsumerBeforeProducer {
                        producer: self.name(e.from),
                        consumer: self.name(e.to),
                        array: e.array.clone(),
                        cluster: ca,
                    });
                }
            }
        }
    }

    /// Rule 3 (seed 001 §1.3.5, seed 000 §4.1 "Control flow").
    fn check_barriers(&self, out: &mut Vec<Violation>) {
        for (c, nodes) in self.clustering.clusters.iter().enumerate() {
            if nodes.len() < 2 {
                continue;
            }
            for &n in nodes {
                if self.graph.is_barrier(n) {
                    let others = nodes.iter().filter(|m| **m != n).map(|m| self.name(*m)).collect();
                    out.push(Violation::BarrierFused { barrier: self.name(n), cluster: c, others });
                }
            }
        }
    }

    /// Rule 4 (seed 000 §3.4, (9)). The destination of a scatter is its unordered
    /// in-edge; a scatter whose combining function has free array variables has more
    /// than one, and all are treated as destinations (see the module report: graph.rs
    /// does not mark the destination).
    fn check_scatters(&self, out: &mut Vec<Violation>) {
        let mut reported = BTreeSet::new();
        for dest in &self.graph.edges {
            let j = dest.to;
            if self.graph.node(j).kind != NodeKind::Scatter || dest.access != Access::ScatterDestination {
                continue;
            }
            let cj = self.cluster_of[j.0];
            for (_, other) in self.graph.out_edges(dest.from) {
                if other.output != dest.output || other.to == j {
                    continue;
                }
                let ci = self.cluster_of[other.to.0];
                if ci >= cj && reported.insert((j, dest.from, dest.output, other.to)) {
                    out.push(Violation::ScatterDestinationUsedAfter {
                        scatter: self.name(j),
                        destination: dest.array.clone(),
                        user: self.name(other.to),
                        user_cluster: ci,
                        scatter_cluster: cj,
                    });
                }
            }
        }
    }

    /// Rule 5 (seed 000 §2, §3.3, §4.2, Table 1, (12)). Returns the nodes whose order
    /// is out of range, so that rule 6 does not report them twice.
    fn check_orders(&self, out: &mut Vec<Violation>) -> Vec<bool> {
        let g = self.graph.gather_count();
        let max = g + 1;
        let orders = self.orders();
        let mut out_of_range = vec![false; self.graph.nodes.len()];
        let mut labels: BTreeMap<Order, NodeId> = BTreeMap::new();
        for n in self.graph.node_ids() {
            let node = self.graph.node(n);
            let o = orders[n.0];
            if o > max {
                out.push(Violation::OrderOutOfRange { node: node.name.clone(), order: o, max });
                out_of_range[n.0] = true;
            } else if let Some(fixed) = node.kind.fixed_output_order()
                && o != fixed
            {
                out.push(Violation::FixedOrderViolated {
                    node: node.name.clone(),
                    combinator: node.kind.mnemonic(),
                    expected: fixed,
                    found: o,
                });
            } else if o == ORDER_BACKWARD && !node.kind.may_run_backward() {
                out.push(Violation::BackwardFold { node: node.name.clone() });
            }
            if let NodeKind::Gather { label } = node.kind {
                if label < 2 || label > max {
                    out.push(Violation::InvalidGatherLabel { gather: node.name.clone(), label, max });
                } else if let Some(first) = labels.insert(label, n) {
                    labels.insert(label, first);
                    out.push(Violation::DuplicateGatherLabel {
                        label,
                        first: self.name(first),
                        second: node.name.clone(),
                    });
                }
            }
        }
        let mut reported = BTreeSet::new();
        for e in &self.graph.edges {
            let c = self.cluster_of[e.from.0];
            if c != self.cluster_of[e.to.0] || !e.is_fusible() {
                continue;
            }
            let Some(read) = e.read_order(orders) else { continue };
            let produced = orders[e.from.0];
            if produced != read && reported.insert((e.from, e.to, e.output, read)) {
                out.push(Violation::OrderMismatch {
                    producer: self.name(e.from),
                    consumer: self.name(e.to),
                    array: e.array.clone(),
                    cluster: c,
                    produced,
                    read,
                });
            }
        }
        out_of_range
    }

    /// Rule 6 (seed 000 §3.3, (11)).
    fn check_complete_outputs(&self, out_of_range: &[bool], out: &mut Vec<Violation>) {
        for n in self.graph.node_ids() {
            let o = self.orders()[n.0];
            if o <= 1 || out_of_range[n.0] {
                continue;
            }
            let c = self.cluster_of[n.0];
            let leaves = if self.graph.node(n).escapes {
                Some(Leak::Escapes)
            } else {
                self.graph
                    .out_edges(n)
                    .find(|(_, e)| self.cluster_of[e.to.0] != c)
                    .map(|(_, e)| Leak::ReadBy { consumer: self.name(e.to), consumer_cluster: self.cluster_of[e.to.0] })
            };
            if let Some(leaves) = leaves {
                out.push(Violation::IncompleteOutput { node: self.name(n), order: o, cluster: c, leaves });
            }
        }
    }

    /// Rule 7 (seed 000 §4.1 "Performance and correctness"). The nodes of the cluster
    /// and their parents, a parent counted once per order it is read in, split into
    /// connected components over the ordered edges; the parents are then dropped.
    /// Nodes are joined by a fused edge, or by reading the same parent node in the same
    /// order (horizontal fusion, seed 000 Fig. 2 HORIZONTAL). The `fusible` flag of the
    /// read does not matter for sharing: two maps over a function argument read it in
    /// one loop although neither can fuse with the argument (seed 000 Fig. 3). Unordered
    /// reads (free variables, scatter destinations) join nothing. Clusters holding a
    /// barrier are rule 3's concern and are skipped.
    fn check_connected(&self, out: &mut Vec<Violation>) {
        for (c, nodes) in self.clustering.clusters.iter().enumerate() {
            if nodes.len() < 2 || nodes.iter().any(|n| self.graph.is_barrier(*n)) {
                continue;
            }
            let k = nodes.len();
            let mut parent_vertex: BTreeMap<(NodeId, Order), usize> = BTreeMap::new();
            let mut pairs: Vec<(usize, usize)> = Vec::new();
            for (i, &n) in nodes.iter().enumerate() {
                for (_, e) in self.graph.in_edges(n) {
                    let Some(order) = e.read_order(self.orders()) else { continue };
                    if self.cluster_of[e.from.0] == c {
                        if e.is_fusible() {
                            pairs.push((i, self.position[e.from.0]));
                        }
                    } else {
                        let next = k + parent_vertex.len();
                        let v = *parent_vertex.entry((e.from, order)).or_insert(next);
                        pairs.push((i, v));
                    }
                }
            }
            let mut uf = UnionFind::new(k + parent_vertex.len());
            for (a, b) in pairs {
                uf.union(a, b);
            }
            let mut components: BTreeMap<usize, Vec<String>> = BTreeMap::new();
            for (i, &n) in nodes.iter().enumerate() {
                components.entry(uf.find(i)).or_default().push(self.name(n));
            }
            if components.len() > 1 {
                out.push(Violation::Disconnected { cluster: c, components: components.into_values().collect() });
            }
        }
    }

    /// The node whose iteration space `n` runs in: `n` itself, or, when `n` produces in
    /// the order of a gather of its own cluster, that gather's (transitively: seed 000
    /// `simple2` pushes one gather's indices through another).
    fn driver(&self, n: NodeId) -> NodeId {
        let c = self.cluster_of[n.0];
        let mut cur = n;
        for _ in 0..self.graph.nodes.len() {
            let o = self.orders()[cur.0];
            if o < 2 {
                break;
            }
            let gather = self
                .graph
                .node_ids()
                .find(|g| self.graph.node(*g).kind == NodeKind::Gather { label: o } && self.cluster_of[g.0] == c);
            match gather {
                Some(g) if g != cur => cur = g,
                _ => break,
            }
        }
        cur
    }

    /// Rule 8 (seed 001 §1.3.6, §1.4.3): for two nodes `a`, `b` of one cluster with
    /// different iteration sizes, `x_{a,A} ≤ x_{a,b}`, `x_{b,B} ≤ x_{a,b}`,
    /// `x_{A,B} ≤ x_{a,b}` where `(A, B) = concestors(a, b)`, and no fusion at all when
    /// there are no concestors. Sizes are those of the nodes' drivers (gathers).
    fn check_iteration_sizes(&self, out: &mut Vec<Violation>) {
        let mut memo = HashMap::new();
        let mut busy = BTreeSet::new();
        // Found when a cluster first mixes iteration sizes (most clusterings have none).
        let mut parents: Option<Vec<Option<NodeId>>> = None;
        for (c, nodes) in self.clustering.clusters.iter().enumerate() {
            if nodes.len() < 2 {
                continue;
            }
            let members: Vec<NodeId> = nodes.iter().copied().filter(|n| !self.graph.is_barrier(*n)).collect();
            for (i, &a) in members.iter().enumerate() {
                for &b in &members[i + 1..] {
                    let (da, db) = (self.driver(a), self.driver(b));
                    let (Some(sa), Some(sb)) = (self.graph.node(da).iteration, self.graph.node(db).iteration) else {
                        continue;
                    };
                    if sa == sb {
                        continue;
                    }
                    let parents = parents.get_or_insert_with(|| self.graph.parent_transducers());
                    match concestors_rec(self.graph, parents, da, db, &mut memo, &mut busy) {
                        None => out.push(Violation::IterationSizeMismatch {
                            a: self.name(a),
                            b: self.name(b),
                            cluster: c,
                            size_a: sa,
                            size_b: sb,
                        }),
                        Some((ca, cb, _)) => {
                            let mut missing: Vec<String> = Vec::new();
                            for x in [ca, cb] {
                                if self.cluster_of[x.0] != c && !missing.contains(&self.name(x)) {
                                    missing.push(self.name(x));
                                }
                            }
                            if !missing.is_empty() {
                                out.push(Violation::ConcestorsNotFused {
                                    a: self.name(a),
                                    b: self.name(b),
                                    cluster: c,
                                    concestors: (self.name(ca), self.name(cb)),
                                    missing,
                                });
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! Hand-built graphs of the papers' examples, shared with `cost.rs`'s tests.

    use super::*;
    use crate::graph::{Edge, Node};

    /// A small graph builder: every node has one output and every input node is a
    /// [`NodeKind::Input`].
    pub(crate) struct B {
        pub g: Graph,
    }

    impl B {
        pub fn new() -> Self {
            B { g: Graph::default() }
        }

        fn push(&mut self, name: &str, kind: NodeKind, iteration: Option<usize>, output_size: Option<usize>) -> NodeId {
            self.g.nodes.push(Node {
                name: name.to_string(),
                kind,
                iteration: iteration.map(SizeClass),
                output_size: output_size.map(SizeClass),
                outputs: 1,
                output_bytes: vec![None],
                escapes: false,
                escaping_outputs: Vec::new(),
            });
            NodeId(self.g.nodes.len() - 1)
        }

        /// A function argument (⊥ iteration size; its size class does not matter here).
        pub fn input(&mut self, name: &str) -> NodeId {
            self.push(name, NodeKind::Input, None, None)
        }

        /// A barrier (call, `force`, …).
        pub fn barrier(&mut self, name: &str) -> NodeId {
            self.push(name, NodeKind::Barrier, None, None)
        }

        /// A size-preserving combinator iterating over `iter`.
        pub fn op(&mut self, name: &str, kind: NodeKind, iter: usize) -> NodeId {
            self.push(name, kind, Some(iter), None)
        }

        /// A transducer from `iter` to `out`, registered as the parent of `out`.
        pub fn transducer(&mut self, name: &str, kind: NodeKind, iter: usize, out: usize) -> NodeId {
            let n = self.push(name, kind, Some(iter), Some(out));
            self.g.size_parent.push((SizeClass(out), n));
            self.g.rigid_sizes.push(SizeClass(out));
            n
        }

        /// A scalar fold over `iter` (its result is used as a scalar: unordered) whose
        /// combine commutes (a sum).
        pub fn fold(&mut self, name: &str, iter: usize) -> NodeId {
            self.push(name, NodeKind::Fold { commutes: true }, Some(iter), Some(1000 + iter))
        }

        fn edge(&mut self, from: NodeId, to: NodeId, access: Access, fusible: bool) {
            let array = self.g.nodes[from.0].name.clone();
            self.g.edges.push(Edge { from, to, output: 0, array, access, fusible });
        }

        /// `to` reads `from` in its output order; fusible unless an end cannot fuse.
        pub fn read(&mut self, from: NodeId, to: NodeId) {
            let fusible = !self.g.is_barrier(from) && !self.g.is_barrier(to);
            self.edge(from, to, Access::InOutputOrder, fusible);
        }

        /// `to` (a gather) reads `from` as its source.
        pub fn source(&mut self, from: NodeId, to: NodeId) {
            let NodeKind::Gather { label } = self.g.nodes[to.0].kind else { panic!("not a gather") };
            let fusible = !self.g.is_barrier(from);
            self.edge(from, to, Access::GatherSource { label }, fusible);
        }

        /// `to` reads `from` in no order (free variable, scalar).
        pub fn free(&mut self, from: NodeId, to: NodeId) {
            self.edge(from, to, Access::Unordered, false);
        }

        /// `from` is the destination the scatter `to` updates in place.
        pub fn dest(&mut self, from: NodeId, to: NodeId) {
            self.edge(from, to, Access::ScatterDestination, false);
        }

        pub fn escape(&mut self, n: NodeId) {
            self.g.nodes[n.0].escapes = true;
        }

        pub fn id(&self, name: &str) -> NodeId {
            self.g.find(name).unwrap_or_else(|| panic!("no node {name}"))
        }
    }

    /// A clustering by names: input and barrier nodes that no cluster mentions go first,
    /// alone; nodes of a cluster are sorted into program order; orders default to the
    /// fixed order or 0.
    pub(crate) fn clustering(g: &Graph, clusters: &[&[&str]], orders: &[(&str, Order)]) -> Clustering {
        let id = |s: &str| g.find(s).unwrap_or_else(|| panic!("no node {s}"));
        let mentioned: BTreeSet<NodeId> = clusters.iter().flat_map(|c| c.iter().map(|s| id(s))).collect();
        let mut out: Vec<Vec<NodeId>> =
            g.node_ids().filter(|n| !mentioned.contains(n) && g.is_barrier(*n)).map(|n| vec![n]).collect();
        for c in clusters {
            let mut ids: Vec<NodeId> = c.iter().map(|s| id(s)).collect();
            ids.sort();
            out.push(ids);
        }
        let mut output_orders: Vec<Order> = g.nodes.iter().map(|n| n.kind.fixed_output_order().unwrap_or(0)).collect();
        for (name, o) in orders {
            output_orders[id(name).0] = *o;
        }
        Clustering { clusters: out, output_orders }
    }

    /// seed 000 §3.4 `scatterExample`: `result = scatter (+, bs, as)`, with `bs` the
    /// destination and `as` the values.
    pub(crate) fn scatter_example() -> B {
        let mut b = B::new();
        let xs = b.input("xs");
        let as_ = b.op("as", NodeKind::Map, 0);
        let bs = b.op("bs", NodeKind::Map, 0);
        let result = b.op("result", NodeKind::Scatter, 0);
        b.read(xs, as_);
        b.read(xs, bs);
        b.read(as_, result);
        b.dest(bs, result);
        b.escape(result);
        b
    }

    /// seed 001 §1.1 / §1.5.1 `normalize2`.
    pub(crate) fn normalize2() -> B {
        let mut b = B::new();
        let xs = b.input("xs");
        let sum1 = b.fold("sum1", 0);
        let gts = b.transducer("gts", NodeKind::Filter, 0, 1);
        let sum2 = b.fold("sum2", 1);
        let ys1 = b.op("ys1", NodeKind::Map, 0);
        let ys2 = b.op("ys2", NodeKind::Map, 0);
        b.read(xs, sum1);
        b.read(xs, gts);
        b.read(gts, sum2);
        b.read(xs, ys1);
        b.free(sum1, ys1);
        b.read(xs, ys2);
        b.free(sum2, ys2);
        b.escape(ys1);
        b.escape(ys2);
        b
    }

    /// seed 000 §3.3 `simple1` (`simple3` when `as_escapes`): `bs = gather (is, map f xs)`.
    pub(crate) fn simple1(as_escapes: bool) -> B {
        let mut b = B::new();
        let is = b.input("is");
        let xs = b.input("xs");
        let as_ = b.op("as", NodeKind::Map, 1);
        let bs = b.op("bs", NodeKind::Gather { label: 2 }, 0);
        b.read(xs, as_);
        b.read(is, bs);
        b.source(as_, bs);
        b.escape(bs);
        if as_escapes {
            b.escape(as_);
        }
        b
    }

    /// seed 000 §3.3 `simple5`: `cs = zipWith (h, map g xs, gather (is, xs))`; the zip
    /// makes `is` and `xs` the same size.
    pub(crate) fn simple5() -> B {
        let mut b = B::new();
        let is = b.input("is");
        let xs = b.input("xs");
        let as_ = b.op("as", NodeKind::Map, 0);
        let bs = b.op("bs", NodeKind::Gather { label: 2 }, 0);
        let cs = b.op("cs", NodeKind::Map, 0);
        b.read(xs, as_);
        b.read(is, bs);
        b.source(xs, bs);
        b.read(as_, cs);
        b.read(bs, cs);
        b.escape(cs);
        b
    }

    /// seed 000 §1 `singleLoop` with `reverse` inlined (generate + gather); with
    /// `cs_escapes`, `cs` is also returned, which makes its fusion diagonal.
    pub(crate) fn single_loop(cs_escapes: bool) -> B {
        let mut b = B::new();
        let as_ = b.input("as");
        let inds = b.op("inds", NodeKind::Generate, 0);
        let bs = b.op("bs", NodeKind::Gather { label: 2 }, 0);
        let cs = b.op("cs", NodeKind::Map, 0);
        let ds = b.op("ds", NodeKind::Map, 0);
        let result = b.op("result", NodeKind::Map, 0);
        b.read(inds, bs);
        b.source(as_, bs);
        b.read(as_, cs);
        b.read(cs, ds);
        b.read(bs, result);
        b.read(cs, result);
        b.read(ds, result);
        b.escape(result);
        if cs_escapes {
            b.escape(cs);
        }
        b
    }

    fn ok(b: &B, c: &Clustering) {
        if let Err(v) = validate(&b.g, c) {
            let msgs: Vec<String> = v.iter().map(|v| v.to_string()).collect();
            panic!("expected a valid clustering of\n{}\n{:?}\nbut got:\n{}", b.g, c.names(&b.g), msgs.join("\n"));
        }
    }

    /// Asserts that validation fails and that every violation has code `code`.
    fn only(b: &B, c: &Clustering, code: &str) -> Vec<Violation> {
        let v = validate(&b.g, c).expect_err("expected violations");
        for x in &v {
            assert_eq!(x.code(), code, "unexpected violation: {x}\nall: {v:#?}");
            // Every message is a sentence naming something.
            assert!(!x.to_string().is_empty());
        }
        v
    }

    // ---- concestors (seed 001 Fig. 1.8) ----

    #[test]
    fn concestors_of_normalize2() {
        let b = normalize2();
        let g = &b.g;
        let id = |s| b.id(s);
        assert_eq!(concestors(g, id("sum1"), id("sum2")), Some((id("sum1"), id("gts"))));
        assert_eq!(concestors(g, id("sum2"), id("sum1")), Some((id("gts"), id("sum1"))));
        assert_eq!(concestors(g, id("gts"), id("sum2")), Some((id("gts"), id("gts"))));
        assert_eq!(concestors(g, id("sum1"), id("gts")), Some((id("sum1"), id("gts"))));
        assert_eq!(concestors(g, id("ys1"), id("sum2")), Some((id("ys1"), id("gts"))));
        assert_eq!(concestors(g, id("xs"), id("sum2")), None, "an input has no iteration size");
    }

    #[test]
    fn concestors_of_two_filters_and_nested_filters() {
        let mut b = B::new();
        let xs = b.input("xs");
        let f1 = b.transducer("f1", NodeKind::Filter, 0, 1);
        let f2 = b.transducer("f2", NodeKind::Filter, 0, 2);
        let a = b.op("a", NodeKind::Map, 1);
        let c = b.op("c", NodeKind::Map, 2);
        let f3 = b.transducer("f3", NodeKind::Filter, 1, 3);
        let d = b.op("d", NodeKind::Map, 3);
        b.read(xs, f1);
        b.read(xs, f2);
        b.read(f1, a);
        b.read(f2, c);
        b.read(a, f3);
        b.read(f3, d);
        let g = &b.g;
        assert_eq!(concestors(g, a, c), Some((f1, f2)));
        // d descends from f3 which descends from f1: the closest pair with c is (f1, f2).
        assert_eq!(concestors(g, d, c), Some((f1, f2)));
        assert_eq!(concestors(g, d, a), Some((f3, a)));
        assert_eq!(concestors(g, d, f3), Some((f3, f3)));
    }

    #[test]
    fn concestors_none_across_unrelated_inputs() {
        let mut b = B::new();
        let _xs = b.input("xs");
        let _ys = b.input("ys");
        let f = b.transducer("f", NodeKind::Filter, 1, 2);
        let m1 = b.op("m1", NodeKind::Map, 0);
        let m2 = b.op("m2", NodeKind::Map, 2);
        assert_eq!(concestors(&b.g, m1, m2), None);
        assert_eq!(concestors(&b.g, m1, f), None);
    }

    // ---- the papers' clusterings validate ----

    #[test]
    fn normalize2_optimal_and_stream_clusterings_validate() {
        let b = normalize2();
        // seed 001 Fig. 1.16: {sum1, gts, sum2}, {ys1, ys2}.
        ok(&b, &clustering(&b.g, &[&["sum1", "gts", "sum2"], &["ys1", "ys2"]], &[]));
        // §1.5.1 stream fusion: {sum1}, {gts, sum2}, {ys1}, {ys2}.
        ok(&b, &clustering(&b.g, &[&["sum1"], &["gts", "sum2"], &["ys1"], &["ys2"]], &[]));
        // Fig. 1.1 right (Megiddo): gts materialised.
        ok(&b, &clustering(&b.g, &[&["sum1", "gts"], &["sum2"], &["ys1", "ys2"]], &[]));
        ok(&b, &Clustering::unfused(&b.g));
    }

    #[test]
    fn scatter_example_both_clusterings_validate() {
        let b = scatter_example();
        // seed 000 Fig. 3 left: as and bs fused horizontally over xs.
        ok(&b, &clustering(&b.g, &[&["as", "bs"], &["result"]], &[]));
        // Fig. 3 right: bs first, then as fused vertically into the scatter.
        ok(&b, &clustering(&b.g, &[&["bs"], &["as", "result"]], &[]));
        // A scatter combines in source order, so it reads its values in order 0 only
        // (seed 000 also allows 1).
        only(&b, &clustering(&b.g, &[&["bs"], &["as", "result"]], &[("as", 1), ("result", 1)]), "fixed-order");
    }

    #[test]
    fn simple1_fused_in_gather_order_validates() {
        let b = simple1(false);
        // [is:0, xs:l | bs:0]: as runs in the gather's order l = 2.
        ok(&b, &clustering(&b.g, &[&["as", "bs"]], &[("as", 2)]));
        ok(&b, &clustering(&b.g, &[&["as"], &["bs"]], &[]));
    }

    #[test]
    fn simple3_unfused_validates() {
        let b = simple1(true);
        ok(&b, &clustering(&b.g, &[&["as"], &["bs"]], &[]));
    }

    #[test]
    fn simple5_one_loop_reading_xs_twice_validates() {
        let b = simple5();
        ok(&b, &clustering(&b.g, &[&["as", "bs", "cs"]], &[]));
    }

    #[test]
    fn simple2_two_gathers_fused_validates() {
        let mut b = B::new();
        let is1 = b.input("is1");
        let is2 = b.input("is2");
        let xs = b.input("xs");
        let as_ = b.op("as", NodeKind::Gather { label: 2 }, 0);
        let bs = b.op("bs", NodeKind::Gather { label: 3 }, 1);
        b.read(is1, as_);
        b.source(xs, as_);
        b.read(is2, bs);
        b.source(as_, bs);
        b.escape(bs);
        // [is2:0, is1:l2, xs:l1 | bs:0]
        ok(&b, &clustering(&b.g, &[&["as", "bs"]], &[("as", 3)]));
    }

    #[test]
    fn single_loop_fused_vertically_and_diagonally_validates() {
        let b = single_loop(false);
        ok(&b, &clustering(&b.g, &[&["inds", "bs", "cs", "ds", "result"]], &[]));
        let b = single_loop(true);
        ok(&b, &clustering(&b.g, &[&["inds", "bs", "cs", "ds", "result"]], &[]));
    }

    #[test]
    fn two_filters_of_one_input_fuse_with_their_consumers() {
        let mut b = B::new();
        let xs = b.input("xs");
        let f1 = b.transducer("f1", NodeKind::Filter, 0, 1);
        let f2 = b.transducer("f2", NodeKind::Filter, 0, 2);
        let a = b.op("a", NodeKind::Map, 1);
        let c = b.op("c", NodeKind::Map, 2);
        b.read(xs, f1);
        b.read(xs, f2);
        b.read(f1, a);
        b.read(f2, c);
        b.escape(a);
        b.escape(c);
        ok(&b, &clustering(&b.g, &[&["f1", "f2", "a", "c"]], &[]));
    }

    // ---- one illegal clustering per rule ----

    #[test]
    fn rejects_missing_node() {
        let b = scatter_example();
        let mut c = clustering(&b.g, &[&["bs"], &["as", "result"]], &[]);
        c.clusters[2].retain(|n| b.g.node(*n).name != "as");
        let v = only(&b, &c, "missing-node");
        assert_eq!(v, vec![Violation::MissingNode { node: "as".into() }]);
    }

    #[test]
    fn rejects_duplicate_node() {
        let b = scatter_example();
        let mut c = clustering(&b.g, &[&["bs"], &["as", "result"]], &[]);
        c.clusters[1].push(b.id("as"));
        let v = only(&b, &c, "duplicate-node");
        assert_eq!(v, vec![Violation::DuplicateNode { node: "as".into(), first: 1, second: 2 }]);
    }

    #[test]
    fn rejects_unknown_node_empty_cluster_and_order_count() {
        let b = scatter_example();
        let mut c = Clustering::unfused(&b.g);
        c.clusters.push(vec![NodeId(17)]);
        only(&b, &c, "unknown-node");
        let mut c = Clustering::unfused(&b.g);
        c.clusters.insert(1, vec![]);
        only(&b, &c, "empty-cluster");
        let mut c = Clustering::unfused(&b.g);
        c.output_orders.pop();
        only(&b, &c, "order-count");
    }

    #[test]
    fn rejects_infusible_edge_inside_a_cluster() {
        let b = normalize2();
        // sum1 → ys1 carries a scalar that needs the whole fold first.
        let c = clustering(&b.g, &[&["gts", "sum2"], &["sum1", "ys1", "ys2"]], &[]);
        let v = only(&b, &c, "infusible-edge");
        assert_eq!(v.len(), 1);
        assert!(v[0].to_string().contains("`sum1` and `ys1`"), "{}", v[0]);
    }

    #[test]
    fn rejects_reversed_precedence() {
        let b = scatter_example();
        let c = clustering(&b.g, &[&["result"], &["as"], &["bs"]], &[]);
        let v = only(&b, &c, "precedence");
        assert_eq!(v.len(), 2);
    }

    #[test]
    fn rejects_consumer_listed_before_producer() {
        let b = simple1(false);
        let mut c = clustering(&b.g, &[&["as", "bs"]], &[("as", 2)]);
        c.clusters.last_mut().unwrap().reverse();
        only(&b, &c, "consumer-before-producer");
    }

    #[test]
    fn rejects_fused_barrier() {
        let mut b = scatter_example();
        b.input("ys");
        let c = clustering(&b.g, &[&["ys", "bs"], &["as", "result"]], &[]);
        let v = only(&b, &c, "barrier-fused");
        assert_eq!(v, vec![Violation::BarrierFused { barrier: "ys".into(), cluster: 1, others: vec!["bs".into()] }]);

        // A `force` between two maps stays alone; fused with its operand it breaks
        // rules 2 and 3 at once.
        let mut b = B::new();
        let xs = b.input("xs");
        let a = b.op("a", NodeKind::Map, 0);
        let frc = b.barrier("frc");
        let c2 = b.op("c", NodeKind::Map, 0);
        b.read(xs, a);
        b.free(a, frc);
        b.read(frc, c2);
        b.escape(c2);
        ok(&b, &clustering(&b.g, &[&["a"], &["frc"], &["c"]], &[]));
        let v = validate(&b.g, &clustering(&b.g, &[&["a", "frc"], &["c"]], &[])).unwrap_err();
        let codes: BTreeSet<&str> = v.iter().map(|v| v.code()).collect();
        assert_eq!(codes, BTreeSet::from(["barrier-fused", "infusible-edge"]), "{v:#?}");
    }

    #[test]
    fn rejects_scatter_destination_used_after_the_scatter() {
        let mut b = B::new();
        let xs = b.input("xs");
        let as_ = b.op("as", NodeKind::Map, 0);
        let bs = b.op("bs", NodeKind::Map, 0);
        let cs = b.op("cs", NodeKind::Map, 0);
        let result = b.op("result", NodeKind::Scatter, 0);
        b.read(xs, as_);
        b.read(xs, bs);
        b.read(bs, cs);
        b.read(as_, result);
        b.dest(bs, result);
        b.escape(cs);
        b.escape(result);
        ok(&b, &clustering(&b.g, &[&["bs", "cs"], &["as", "result"]], &[]));
        let c = clustering(&b.g, &[&["bs"], &["as", "result"], &["cs"]], &[]);
        let v = only(&b, &c, "scatter-destination");
        assert_eq!(
            v,
            vec![Violation::ScatterDestinationUsedAfter {
                scatter: "result".into(),
                destination: "bs".into(),
                user: "cs".into(),
                user_cluster: 3,
                scatter_cluster: 2,
            }]
        );
    }

    #[test]
    fn rejects_order_mismatch_over_a_fused_edge() {
        let mut b = B::new();
        let xs = b.input("xs");
        let a = b.op("a", NodeKind::Map, 0);
        let s = b.op("s", NodeKind::Scan { backward: false }, 0);
        b.read(xs, a);
        b.read(a, s);
        b.escape(s);
        ok(&b, &clustering(&b.g, &[&["a", "s"]], &[]));
        let c = clustering(&b.g, &[&["a", "s"]], &[("a", 1)]);
        let v = only(&b, &c, "order-mismatch");
        assert!(matches!(&v[0], Violation::OrderMismatch { produced: 1, read: 0, .. }));
    }

    #[test]
    fn rejects_simple1_fused_in_the_wrong_order() {
        // With equal sizes, fusing as into the gather in order 0 only breaks rule 5.
        let mut b = simple1(false);
        let as_ = b.id("as");
        b.g.nodes[as_.0].iteration = Some(SizeClass(0));
        only(&b, &clustering(&b.g, &[&["as", "bs"]], &[]), "order-mismatch");
    }

    #[test]
    fn rejects_simple3_gather_ordered_output_that_escapes() {
        let b = simple1(true);
        // [is:0, xs:l | as:l, bs:0]: `as` may not be completely computed.
        let c = clustering(&b.g, &[&["as", "bs"]], &[("as", 2)]);
        let v = only(&b, &c, "incomplete-output");
        assert_eq!(
            v,
            vec![Violation::IncompleteOutput { node: "as".into(), order: 2, cluster: 2, leaves: Leak::Escapes }]
        );
        assert!(v[0].to_string().contains("order 0 or 1"));
    }

    #[test]
    fn rejects_gather_ordered_output_read_by_a_later_cluster() {
        let mut b = simple1(false);
        let as_ = b.id("as");
        let later = b.op("later", NodeKind::Map, 1);
        b.read(as_, later);
        b.escape(later);
        let c = clustering(&b.g, &[&["as", "bs"], &["later"]], &[("as", 2)]);
        let v = only(&b, &c, "incomplete-output");
        assert!(matches!(&v[0], Violation::IncompleteOutput { leaves: Leak::ReadBy { .. }, .. }));
    }

    #[test]
    fn rejects_disconnected_cluster() {
        let mut b = B::new();
        let xs = b.input("xs");
        let ys = b.input("ys");
        let a = b.op("a", NodeKind::Map, 0);
        let c = b.op("c", NodeKind::Map, 0);
        b.read(xs, a);
        b.read(ys, c);
        b.escape(a);
        b.escape(c);
        let v = only(&b, &clustering(&b.g, &[&["a", "c"]], &[]), "disconnected");
        assert_eq!(
            v,
            vec![Violation::Disconnected { cluster: 2, components: vec![vec!["a".into()], vec!["c".into()]] }]
        );
    }

    #[test]
    fn rejects_horizontal_sharing_in_different_orders() {
        // simple5 without the zip: as reads xs in order 0, bs in order 2; seed 000 §4.1
        // adds the parent once per order, so they are not connected.
        let mut b = simple5();
        let cs = b.id("cs");
        b.g.edges.retain(|e| e.to != cs);
        b.escape(b.id("as"));
        b.escape(b.id("bs"));
        only(&b, &clustering(&b.g, &[&["as", "bs"], &["cs"]], &[]), "disconnected");
        ok(&b, &clustering(&b.g, &[&["as"], &["bs"], &["cs"]], &[]));
    }

    #[test]
    fn rejects_different_sizes_without_concestors() {
        // m1 maps xs; m2 maps a filter of another array ys; z zips them (a size error
        // size inference would catch; the checker must too).
        let mut b = B::new();
        let xs = b.input("xs");
        let ys = b.input("ys");
        let f = b.transducer("f", NodeKind::Filter, 1, 2);
        let m1 = b.op("m1", NodeKind::Map, 0);
        let m2 = b.op("m2", NodeKind::Map, 2);
        let z = b.op("z", NodeKind::Map, 0);
        b.read(ys, f);
        b.read(xs, m1);
        b.read(f, m2);
        b.read(m1, z);
        b.read(m2, z);
        b.escape(z);
        let v = only(&b, &clustering(&b.g, &[&["f"], &["m1", "m2", "z"]], &[]), "iteration-size");
        assert_eq!(v.len(), 2, "{v:#?}");
        assert!(v.contains(&Violation::IterationSizeMismatch {
            a: "m1".into(),
            b: "m2".into(),
            cluster: 3,
            size_a: SizeClass(0),
            size_b: SizeClass(2),
        }));
    }

    #[test]
    fn rejects_concestors_outside_the_cluster() {
        let mut b = B::new();
        let xs = b.input("xs");
        let f = b.transducer("f", NodeKind::Filter, 0, 1);
        let m1 = b.op("m1", NodeKind::Map, 0);
        let m2 = b.op("m2", NodeKind::Map, 1);
        let z = b.op("z", NodeKind::Map, 0);
        b.read(xs, f);
        b.read(xs, m1);
        b.read(f, m2);
        b.read(m1, z);
        b.read(m2, z);
        b.escape(z);
        let v = only(&b, &clustering(&b.g, &[&["f"], &["m1", "m2", "z"]], &[]), "concestors-not-fused");
        assert!(v.contains(&Violation::ConcestorsNotFused {
            a: "m1".into(),
            b: "m2".into(),
            cluster: 2,
            concestors: ("m1".into(), "f".into()),
            missing: vec!["f".into()],
        }));
    }

    #[test]
    fn normalize2_folds_without_the_filter_break_two_rules() {
        // {sum1, sum2} without gts: sum2 reads gts from outside, sum1 reads xs, so the
        // cluster is disconnected, and the concestors (sum1, gts) are not all in it.
        let b = normalize2();
        let c = clustering(&b.g, &[&["gts"], &["sum1", "sum2"], &["ys1", "ys2"]], &[]);
        let v = validate(&b.g, &c).unwrap_err();
        let codes: BTreeSet<&str> = v.iter().map(|v| v.code()).collect();
        assert_eq!(codes, BTreeSet::from(["disconnected", "concestors-not-fused"]), "{v:#?}");
    }

    #[test]
    fn rejects_order_out_of_range() {
        let mut b = B::new();
        let xs = b.input("xs");
        let a = b.op("a", NodeKind::Map, 0);
        b.read(xs, a);
        b.escape(a);
        let v = only(&b, &clustering(&b.g, &[&["a"]], &[("a", 2)]), "order-range");
        assert_eq!(v, vec![Violation::OrderOutOfRange { node: "a".into(), order: 2, max: 1 }]);
    }

    #[test]
    fn rejects_fixed_and_scatter_orders() {
        let mut b = B::new();
        let xs = b.input("xs");
        let s = b.op("s", NodeKind::Scan { backward: true }, 0);
        b.read(xs, s);
        b.escape(s);
        only(&b, &clustering(&b.g, &[&["s"]], &[("s", 0)]), "fixed-order");

        let mut b = simple1(false);
        let bs = b.id("bs");
        let xs = b.id("xs");
        let sc = b.op("sc", NodeKind::Scatter, 0);
        b.read(bs, sc);
        b.dest(xs, sc);
        only(&b, &clustering(&b.g, &[&["as"], &["bs"], &["sc"]], &[("sc", 1)]), "fixed-order");

        let mut b = B::new();
        let xs = b.input("xs");
        let sum = b.fold("sum", 0);
        let last = b.fold("last", 0);
        b.g.nodes[last.0].kind = NodeKind::Fold { commutes: false };
        b.read(xs, sum);
        b.read(xs, last);
        b.escape(sum);
        b.escape(last);
        ok(&b, &clustering(&b.g, &[&["sum", "last"]], &[("sum", 0), ("last", 0)]));
        only(&b, &clustering(&b.g, &[&["sum", "last"]], &[("sum", 1), ("last", 1)]), "backward-fold");
    }

    #[test]
    fn rejects_bad_gather_labels() {
        let mut b = simple1(false);
        let bs = b.id("bs");
        b.g.nodes[bs.0].kind = NodeKind::Gather { label: 1 };
        for e in &mut b.g.edges {
            if let Access::GatherSource { .. } = e.access {
                e.access = Access::GatherSource { label: 1 };
            }
        }
        only(&b, &clustering(&b.g, &[&["as"], &["bs"]], &[]), "gather-label");
    }

    #[test]
    fn rejects_malformed_graph() {
        let mut b = scatter_example();
        b.g.edges[0].to = NodeId(99);
        let v = only(&b, &Clustering::unfused(&b.g), "malformed-graph");
        assert_eq!(v.len(), 1);
    }

    #[test]
    fn messages_name_the_culprits() {
        let b = normalize2();
        let c = clustering(&b.g, &[&["gts", "sum2"], &["sum1", "ys1", "ys2"]], &[]);
        let msg = validate(&b.g, &c).unwrap_err()[0].to_string();
        assert_eq!(
            msg,
            "`sum1` and `ys1` are fused in cluster 2, but `ys1` needs all of `sum1` before it starts (an infusible edge); `sum1` must be in an earlier cluster"
        );
    }
}
