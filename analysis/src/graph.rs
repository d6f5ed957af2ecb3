//! The dependence graph of one block: the data every later step works on.
//!
//! Plain data with no MLIR types, so the ILP builder, the validator and the
//! benchmarks can be exercised on hand-made and random graphs. `extract.rs` builds it
//! from IR.
//!
//! Nodes are combinators, plus *barrier* nodes for everything that cannot fuse
//! (function arguments, `force`, calls, ops of other dialects, `scf` control flow:
//! seed 000 §4.1 "Control flow", seed 001 Fig. 1.10 "external"). Edges follow the
//! arrays from producer to consumer; an edge is *fusible* unless seed 000 Table 1 /
//! §4.1 or seed 001 Fig. 1.10 says the consumer reads the array in no predictable
//! order, or the producer must finish before the consumer starts.

use std::fmt;

/// Index of a node in [`Graph::nodes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub usize);

/// Index of an edge in [`Graph::edges`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdgeId(pub usize);

/// A traversal order (seed 000 §3.3): 0 is left-to-right, 1 right-to-left, and each
/// gather has its own label `2..g+1`.
pub type Order = u32;

/// Left-to-right traversal.
pub const ORDER_FORWARD: Order = 0;
/// Right-to-left traversal (`scanr`).
pub const ORDER_BACKWARD: Order = 1;

/// What kind of loop a node is, as far as fusion is concerned (seed 000 Table 1,
/// seed 001 Fig. 1.2, seed 004 §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// `map`: output in any order, inputs in the output's order.
    Map,
    /// `generate`: output in any order, no array inputs.
    Generate,
    /// `gather` with its label: indices in the output's order, source in order `label`.
    Gather { label: Order },
    /// `scatter`: values read in order 0; the destination is consumed. Seed 000 Table 1
    /// lets a scatter read its values in order 0 or 1, but this dialect's scatter combines
    /// in source order (a later value is combined over an earlier one at a repeated
    /// index), so only order 0 keeps the meaning for every combine.
    Scatter,
    /// `fold`: input order equals output order (seed 000 §4.2, last paragraph). The dialect
    /// folds from the left; a right-to-left loop (order 1) gives the same value only when
    /// the combine commutes (`commutes`, decided by the extractor from the element
    /// function), so a fold whose combine may not commute never has order 1 (a deviation
    /// from seed 000, whose folds are in any order). Gather orders stay open to it: a
    /// fold fused into a gather folds the gathered row from the left.
    Fold { commutes: bool },
    /// `scan`: `left` is order 0 in and out, `right` order 1.
    Scan { backward: bool },
    /// `filter`, a transducer (seed 001 §1.3.6): sequential, order 0.
    Filter,
    /// `expand`, a transducer whose output segments follow the input: order 0.
    Expand,
    /// Cannot fuse with anything: its iteration size is unknown (⊥, seed 001 §1.3.5).
    /// Calls, `force`, ops of other dialects, `scf` control flow.
    Barrier,
    /// A function argument (an array that exists before the block runs). Like a
    /// barrier it never fuses; seed 000's graphs show inputs as nodes (Fig. 3), seed
    /// 001's do not (its N counts combinators only), so formulations tell them apart.
    Input,
}

impl NodeKind {
    /// Whether the node is a real loop that can take part in a fused cluster.
    pub fn is_fusible_kind(self) -> bool {
        !matches!(self, NodeKind::Barrier | NodeKind::Input)
    }

    /// Whether the node may run right to left (order 1). Only a fold whose combine may
    /// not commute cannot (see [`NodeKind::Fold`]); its other orders are free.
    pub fn may_run_backward(self) -> bool {
        self != NodeKind::Fold { commutes: false }
    }

    /// The output order when it is fixed by the combinator, `None` when free.
    pub fn fixed_output_order(self) -> Option<Order> {
        match self {
            NodeKind::Scan { backward: false } | NodeKind::Filter | NodeKind::Expand | NodeKind::Scatter => {
                Some(ORDER_FORWARD)
            }
            NodeKind::Scan { backward: true } => Some(ORDER_BACKWARD),
            _ => None,
        }
    }

    pub fn mnemonic(self) -> &'static str {
        match self {
            NodeKind::Map => "map",
            NodeKind::Generate => "generate",
            NodeKind::Gather { .. } => "gather",
            NodeKind::Scatter => "scatter",
            NodeKind::Fold { .. } => "fold",
            NodeKind::Scan { backward: false } => "scanl",
            NodeKind::Scan { backward: true } => "scanr",
            NodeKind::Filter => "filter",
            NodeKind::Expand => "expand",
            NodeKind::Barrier => "barrier",
            NodeKind::Input => "input",
        }
    }
}

/// How a consumer reads the array an edge carries: this decides whether the edge can
/// be fused over and in which order (seed 000 Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// Element by element in the consumer's own output order (map, fold, the index
    /// arrays of a gather, scatter values, filter and expand inputs, scan inputs).
    InOutputOrder,
    /// The source of a gather: read in the gather's order `label`.
    GatherSource { label: Order },
    /// The destination of a scatter (seed 000 (8)): written in place at computed
    /// indices, so never fusible, and every other use of the array must run before the
    /// scatter (seed 000 (9)).
    ScatterDestination,
    /// In no predictable order, or after the producer has finished: free variables
    /// (`array.index` inside a region), uses after a scatter,
    /// operands of barriers, fold results used as scalars. Never fusible.
    Unordered,
}

impl Access {
    /// Whether the consumer reads element by element in some traversal order, the only
    /// kind of use that can be fused over.
    pub fn is_ordered(self) -> bool {
        matches!(self, Access::InOutputOrder | Access::GatherSource { .. })
    }
}

/// One use of an array: an edge from the producing node to a consuming node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    /// Which output of `from` (an op may produce several arrays).
    pub output: usize,
    /// The array's name (the SSA name of the value), for reports.
    pub array: String,
    pub access: Access,
    /// Whether the ILP may place both ends in one cluster (seed 000 F vs I).
    pub fusible: bool,
}

impl Edge {
    /// Whether the edge may be fused over: marked fusible and read in a known order. An
    /// [`Access::Unordered`] use carries no order annotation, and seed 000 §3.1 says "the
    /// fusion rules only fuse arrays with an order annotation".
    pub fn is_fusible(&self) -> bool {
        self.fusible && self.access.is_ordered()
    }

    /// The order in which the consumer reads the array (the `d` of `x:d` in seed 000
    /// Table 1), given the output orders of all nodes; `None` for an unordered use.
    pub fn read_order(&self, output_orders: &[Order]) -> Option<Order> {
        match self.access {
            Access::InOutputOrder => Some(output_orders.get(self.to.0).copied().unwrap_or(0)),
            Access::GatherSource { label } => Some(label),
            Access::Unordered | Access::ScatterDestination => None,
        }
    }
}

/// A node: one combinator or barrier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Name of the node for reports: the SSA name of its first result, else
    /// `file:line:col` of the op.
    pub name: String,
    pub kind: NodeKind,
    /// Iteration size class from size inference (seed 001 Fig. 1.6); `None` is ⊥.
    pub iteration: Option<SizeClass>,
    /// Output size class when it differs from the iteration size: the node is then a
    /// *transducer* (seed 001 §1.3.6). Filters and expands are; so is a fold, whose
    /// loop runs over its input and whose output drops the innermost dimension.
    pub output_size: Option<SizeClass>,
    /// Number of array results.
    pub outputs: usize,
    /// Bytes of each output: exact for static shapes, else estimated with
    /// `extract::DYNAMIC_EXTENT_ESTIMATE` elements per dynamic dimension; the weights of
    /// the `bytes` cost model.
    pub output_bytes: Vec<Option<u64>>,
    /// Whether any output is used outside the block (returned, or by a barrier), so it
    /// must be manifest whatever the clustering.
    pub escapes: bool,
    /// Per output, whether that output escapes; empty means "as `escapes` says" (hand-made
    /// graphs). See [`Node::output_escapes`].
    pub escaping_outputs: Vec<bool>,
}

/// An equivalence class of sizes after size inference (seed 001 §1.3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SizeClass(pub usize);

/// A dependence graph of one block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// Nodes in program order (a topological order of the edges).
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// Rigid (existential) size classes: produced by filters, expands and
    /// data-dependent generates (seed 001 §1.3.4).
    pub rigid_sizes: Vec<SizeClass>,
    /// For each transducer's output size class, the transducer that produced it
    /// (seed 001 Fig. 1.7 `trans`), by size class index.
    pub size_parent: Vec<(SizeClass, NodeId)>,
    /// How many gathers compute their indices rather than load them (the extractor: the
    /// sugar `reverse`, `replicate`, `backpermute`, and `array.gather`s whose index arrays
    /// are all `generate`s). They have the labels `2 … 1 + computed_index_gathers`; every
    /// higher label is a gather that loads its indices from an array
    /// ([`Graph::first_loaded_index_label`]). 0 for hand-made and random graphs: every
    /// gather loads.
    pub computed_index_gathers: Order,
}

impl Node {
    /// Whether output `k` is used outside the block, so it must be manifest.
    pub fn output_escapes(&self, k: usize) -> bool {
        self.escaping_outputs.get(k).copied().unwrap_or(self.escapes)
    }

    /// Whether the node's output size differs from its iteration size (seed 001 §1.3.6).
    pub fn is_transducer(&self) -> bool {
        self.kind.is_fusible_kind()
            && self.kind != NodeKind::Scatter
            && self.iteration.is_some()
            && self.output_size.is_some()
            && self.output_size != self.iteration
    }
}

impl Graph {
    /// The first label of a gather that loads its indices from an array (see
    /// [`Graph::computed_index_gathers`]): a fold that runs in such an order folds rows
    /// in the order of data the compiler cannot see (`gathered-folds`), and such a gather
    /// run in it reads its index at random (`chained-gathers`).
    pub fn first_loaded_index_label(&self) -> Order {
        ORDER_BACKWARD + 1 + self.computed_index_gathers
    }

    /// Whether a node cannot be fused with anything: a barrier, a function argument, or
    /// any node of unknown (⊥) iteration size (seed 001 §1.3.5).
    pub fn is_barrier(&self, n: NodeId) -> bool {
        let node = self.node(n);
        !node.kind.is_fusible_kind() || node.iteration.is_none()
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0]
    }

    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.nodes.len()).map(NodeId)
    }

    pub fn edge(&self, id: EdgeId) -> &Edge {
        &self.edges[id.0]
    }

    /// Edges leaving `node`.
    pub fn out_edges(&self, node: NodeId) -> impl Iterator<Item = (EdgeId, &Edge)> + '_ {
        self.edges.iter().enumerate().filter(move |(_, e)| e.from == node).map(|(i, e)| (EdgeId(i), e))
    }

    /// Edges entering `node`.
    pub fn in_edges(&self, node: NodeId) -> impl Iterator<Item = (EdgeId, &Edge)> + '_ {
        self.edges.iter().enumerate().filter(move |(_, e)| e.to == node).map(|(i, e)| (EdgeId(i), e))
    }

    /// The number of gathers, `g` of seed 000 §4.2.
    pub fn gather_count(&self) -> u32 {
        self.nodes.iter().filter(|n| matches!(n.kind, NodeKind::Gather { .. })).count() as u32
    }

    /// The transducer whose output size is `size`, if any (seed 001 Fig. 1.7).
    /// Several transducers may share an output size class (all scalar folds do), so
    /// prefer [`Graph::parent_transducer`], which follows the data.
    pub fn transducer_of(&self, size: SizeClass) -> Option<NodeId> {
        self.size_parent.iter().find(|(s, _)| *s == size).map(|(_, n)| *n)
    }

    /// The parent transducer of node `n` (seed 001 Fig. 1.7 `trans'`): following the
    /// arrays `n` iterates over (its elementwise inputs) back through size-preserving
    /// producers to the transducer that made that size. `None` when the size comes from
    /// an input, a generate or a barrier.
    pub fn parent_transducer(&self, n: NodeId) -> Option<NodeId> {
        TransducerSearch::new(self).of_inputs(n)
    }

    /// [`Graph::parent_transducer`] of every node, indexed like `nodes`: one pass over
    /// the edges for all of them, for callers that ask about many nodes (the
    /// validator's rule on iteration sizes, at every clustering the local search
    /// judges).
    pub fn parent_transducers(&self) -> Vec<Option<NodeId>> {
        let mut search = TransducerSearch::new(self);
        self.node_ids().map(|n| search.of_inputs(n)).collect()
    }

    /// Looks a node up by name (tests and reports).
    pub fn find(&self, name: &str) -> Option<NodeId> {
        self.nodes.iter().position(|n| n.name == name).map(NodeId)
    }
}

impl fmt::Display for Graph {
    /// A compact listing, one node per line, used in test failure messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, n) in self.nodes.iter().enumerate() {
            write!(f, "{i}: {} = {}", n.name, n.kind.mnemonic())?;
            if let Some(s) = n.iteration {
                write!(f, " iter=k{}", s.0)?;
            }
            if let Some(s) = n.output_size {
                write!(f, " out=k{}", s.0)?;
            }
            let ins: Vec<String> = self
                .in_edges(NodeId(i))
                .map(|(_, e)| format!("{}{}", self.nodes[e.from.0].name, if e.fusible { "" } else { "!" }))
                .collect();
            writeln!(f, " <- [{}]", ins.join(", "))?;
        }
        Ok(())
    }
}

/// The search behind [`Graph::parent_transducer`]: `trans'` and `trans` of seed 001
/// Fig. 1.7, over an index of each node's incoming edges, remembering `trans` of every
/// array it has followed.
///
/// Remembering is exact because the edges run forward in program order (the nodes are
/// a topological order): `trans` of an array depends on nothing but the array, so an
/// answer found while following one node's inputs is the answer for every other node
/// that reaches the array. An array is marked before its inputs are followed, so that
/// a malformed cyclic graph ends (its cycle reads as "no transducer") instead of
/// recursing forever.
struct TransducerSearch<'g> {
    graph: &'g Graph,
    /// The edges entering each node, in the order of `Graph::edges`.
    inputs: Vec<Vec<EdgeId>>,
    /// `trans` of each array found so far (`Some(None)`: none, or being followed).
    arrays: Vec<Option<Option<NodeId>>>,
}

impl<'g> TransducerSearch<'g> {
    fn new(graph: &'g Graph) -> Self {
        let mut inputs = vec![Vec::new(); graph.nodes.len()];
        for (i, e) in graph.edges.iter().enumerate() {
            if let Some(list) = inputs.get_mut(e.to.0) {
                list.push(EdgeId(i));
            }
        }
        TransducerSearch { graph, inputs, arrays: vec![None; graph.nodes.len()] }
    }

    /// `trans'`: the transducer behind the iteration-driving inputs of node `n`.
    fn of_inputs(&mut self, n: NodeId) -> Option<NodeId> {
        let graph = self.graph;
        let iteration = graph.node(n).iteration?;
        for k in 0..self.inputs[n.0].len() {
            let e = graph.edge(self.inputs[n.0][k]);
            if e.access != Access::InOutputOrder {
                continue;
            }
            let producer = graph.node(e.from);
            // Only inputs of the node's own iteration size drive its loop.
            let produced_size = if producer.is_transducer() { producer.output_size } else { producer.iteration };
            if produced_size != Some(iteration) && producer.kind != NodeKind::Input {
                continue;
            }
            if let Some(t) = self.of_array(e.from) {
                return Some(t);
            }
        }
        None
    }

    /// `trans`: the transducer that made the size of the array produced by `p`.
    fn of_array(&mut self, p: NodeId) -> Option<NodeId> {
        if let Some(known) = self.arrays.get(p.0).copied().flatten() {
            return known;
        }
        self.arrays[p.0] = Some(None);
        let producer = self.graph.node(p);
        let found = if !producer.kind.is_fusible_kind() {
            None
        } else if producer.is_transducer() {
            Some(p)
        } else {
            self.of_inputs(p)
        };
        self.arrays[p.0] = Some(found);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{random_graph, small_program};

    /// `trans'` of seed 001 Fig. 1.7 as the figure reads, one query at a time: every
    /// edge scanned for the node's inputs, a fresh visited set per query.
    fn reference_parent(g: &Graph, n: NodeId) -> Option<NodeId> {
        fn of_inputs(g: &Graph, n: NodeId, visited: &mut [bool]) -> Option<NodeId> {
            let iteration = g.node(n).iteration?;
            g.edges.iter().filter(|e| e.to == n && e.access == Access::InOutputOrder).find_map(|e| {
                let producer = g.node(e.from);
                let size = if producer.is_transducer() { producer.output_size } else { producer.iteration };
                if size != Some(iteration) && producer.kind != NodeKind::Input {
                    return None;
                }
                if std::mem::replace(&mut visited[e.from.0], true) || !producer.kind.is_fusible_kind() {
                    return None;
                }
                if producer.is_transducer() { Some(e.from) } else { of_inputs(g, e.from, visited) }
            })
        }
        of_inputs(g, n, &mut vec![false; g.nodes.len()])
    }

    /// The remembering search gives every node the transducer the one-query-at-a-time
    /// reading of Fig. 1.7 gives it, on random programs with folds, filters, expands and
    /// scans (transducers) behind chains of maps.
    #[test]
    fn parent_transducers_agree_with_fig_1_7_one_query_at_a_time() {
        let graphs = [30, 100, 200].iter().flat_map(|&n| (0..5).map(move |s| random_graph(n, s)));
        let mut found = 0;
        for g in graphs.chain((0..40).map(|s| small_program(7, s))) {
            let all = g.parent_transducers();
            for n in g.node_ids() {
                let expected = reference_parent(&g, n);
                assert_eq!(all[n.0], expected, "node {}", g.node(n).name);
                assert_eq!(g.parent_transducer(n), expected, "node {}", g.node(n).name);
                found += usize::from(expected.is_some());
            }
        }
        assert!(found > 100, "only {found} nodes have a parent transducer");
    }
}
