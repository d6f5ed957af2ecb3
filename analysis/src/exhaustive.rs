//! The exhaustive reference search: the true optimum of small graphs, found by trying
//! every legal clustering, with no ILP in sight.
//!
//! It exists to check the ILP (tests and `fusion-bench --exhaustive`), so it is written
//! to be obviously right rather than fast:
//! * legality is decided by the independent validator ([`validate`], written from seed
//!   000 §3 / Fig. 2 / Table 1 and seed 001 §1.3), and cost by the independent cost
//!   evaluator ([`cost`](super::cost)); this module only enumerates;
//! * every set partition of the fusible nodes is tried (barriers and function
//!   arguments are alone in their cluster: validator rule 3), and every assignment of
//!   traversal orders `0..=g+1` to the nodes of multi-node clusters.
//!
//! The only shortcuts, each a necessary condition of the validator or a symmetry of
//! the cost, never a heuristic:
//! 1. *Partition pruning.* Two nodes joined by an edge that cannot be fused over, or a
//!    scatter and another user of its destination, are never put in one cluster
//!    (validator rules 2 and 4 reject it whatever else holds).
//! 2. *Cluster order.* Among the execution orders of the clusters, one topological
//!    order of the quotient graph (edges between clusters, and "other users of a
//!    scatter's destination before the scatter") is tried. The validator's only
//!    order-dependent rules are exactly these precedences (rules 2 and 4), and no cost
//!    model depends on the order of clusters, so if any order is legal this one is,
//!    with the same cost; if the quotient graph has a cycle, no order is legal.
//! 3. *Singleton orders.* A node alone in its cluster produces in its fixed order, else
//!    0. Its order only matters to the validator through rule 5 (0 is always in range
//!    and allowed for every combinator without a fixed order) and rule 6 (0 is a
//!    complete order), and to the cost only through reads shared inside its cluster,
//!    of which a singleton has none.
//! 4. *Fused-edge orders.* Inside a cluster, over a fusible edge the producer's order
//!    is the consumer's read order (validator rule 5, `OrderMismatch`); assignments
//!    breaking it are not generated.

use super::clustering::Clustering;
use super::cost::CostFunction;
use super::graph::{Access, Graph, NodeId, NodeKind, Order};
use super::validate::validate;

/// The best clustering found for one cost function.
#[derive(Clone, Debug)]
pub struct Optimum {
    pub cost: f64,
    pub clustering: Clustering,
}

/// What [`search`] found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Per cost function asked, in order: the optimum (every graph has one, the unfused
    /// clustering being legal).
    pub optima: Vec<Optimum>,
    /// Legal clusterings examined (after the shortcuts above).
    pub legal: usize,
}

/// Graphs with more fusible nodes than this are refused (the Bell number of 10 is
/// 115 975 partitions, before orders).
pub const MAX_FUSIBLE_NODES: usize = 10;

/// Finds, for each cost function, a legal clustering of least cost. `None` when the
/// graph is too large to search or when not even the unfused clustering is legal (a
/// malformed graph).
pub fn search(graph: &Graph, costs: &[CostFunction]) -> Option<SearchResult> {
    search_with_max_order(graph, costs, graph.gather_count() + 1)
}

/// [`search`] over the clusterings whose every traversal order is at most
/// `max_order`: `1` is the space of seed 001's formulation, which knows only
/// left-to-right and right-to-left loops (no fusion over a gather's source).
pub fn search_with_max_order(graph: &Graph, costs: &[CostFunction], max_order: Order) -> Option<SearchResult> {
    let fusible: Vec<NodeId> = graph.node_ids().filter(|n| !graph.is_barrier(*n)).collect();
    if fusible.len() > MAX_FUSIBLE_NODES {
        return None;
    }
    let mut s = Search {
        graph,
        costs,
        fusible,
        block_of: vec![usize::MAX; graph.nodes.len()],
        best: vec![None; costs.len()],
        legal: 0,
        max_order: max_order.min(graph.gather_count() + 1),
    };
    s.partitions(0, 0);
    let optima: Option<Vec<Optimum>> = s.best.into_iter().collect();
    optima.map(|optima| SearchResult { optima, legal: s.legal })
}

struct Search<'g> {
    graph: &'g Graph,
    costs: &'g [CostFunction],
    fusible: Vec<NodeId>,
    /// Block of every fusible node assigned so far (`usize::MAX`: not yet, or a barrier).
    block_of: Vec<usize>,
    best: Vec<Option<Optimum>>,
    legal: usize,
    max_order: Order,
}

impl Search<'_> {
    /// Whether `a` and `b` can never share a cluster (shortcut 1).
    fn incompatible(&self, a: NodeId, b: NodeId) -> bool {
        let g = self.graph;
        let joined_infusibly =
            g.edges.iter().any(|e| ((e.from == a && e.to == b) || (e.from == b && e.to == a)) && !e.is_fusible());
        let scatter_conflict = |s: NodeId, other: NodeId| {
            g.node(s).kind == NodeKind::Scatter
                && g.in_edges(s).any(|(_, d)| {
                    d.access == Access::ScatterDestination
                        && g.out_edges(d.from).any(|(_, u)| u.output == d.output && u.to == other)
                })
        };
        joined_infusibly || scatter_conflict(a, b) || scatter_conflict(b, a)
    }

    /// Restricted-growth enumeration of set partitions of `self.fusible`.
    fn partitions(&mut self, i: usize, blocks: usize) {
        if i == self.fusible.len() {
            self.with_partition(blocks);
            return;
        }
        let n = self.fusible[i];
        for b in 0..=blocks {
            let clash = self.fusible[..i].iter().any(|m| self.block_of[m.0] == b && self.incompatible(*m, n));
            if clash {
                continue;
            }
            self.block_of[n.0] = b;
            self.partitions(i + 1, blocks.max(b + 1));
        }
        self.block_of[n.0] = usize::MAX;
    }

    /// Orders the clusters of one partition (shortcut 2) and tries every order
    /// assignment.
    fn with_partition(&mut self, blocks: usize) {
        let g = self.graph;
        // Clusters: the fusible blocks, then one per barrier or argument.
        let mut clusters: Vec<Vec<NodeId>> = vec![Vec::new(); blocks];
        let mut cluster_of = vec![0usize; g.nodes.len()];
        for n in g.node_ids() {
            if self.block_of[n.0] == usize::MAX {
                cluster_of[n.0] = clusters.len();
                clusters.push(vec![n]);
            } else {
                cluster_of[n.0] = self.block_of[n.0];
                clusters[self.block_of[n.0]].push(n);
            }
        }
        let k = clusters.len();
        let mut succ = vec![Vec::new(); k];
        let mut indegree = vec![0usize; k];
        let mut before = |a: usize, b: usize| {
            if a != b {
                succ[a].push(b);
                indegree[b] += 1;
            }
        };
        for e in &g.edges {
            before(cluster_of[e.from.0], cluster_of[e.to.0]);
        }
        for s in g.node_ids().filter(|s| g.node(*s).kind == NodeKind::Scatter) {
            for (_, d) in g.in_edges(s).filter(|(_, d)| d.access == Access::ScatterDestination) {
                for (_, u) in g.out_edges(d.from).filter(|(_, u)| u.output == d.output && u.to != s) {
                    before(cluster_of[u.to.0], cluster_of[s.0]);
                }
            }
        }
        // Kahn's algorithm, smallest cluster first for a deterministic result.
        let mut ready: Vec<usize> = (0..k).filter(|c| indegree[*c] == 0).collect();
        let mut sequence = Vec::with_capacity(k);
        while let Some(pos) = ready.iter().enumerate().min_by_key(|(_, c)| **c).map(|(p, _)| p) {
            let c = ready.swap_remove(pos);
            sequence.push(c);
            for &d in &succ[c] {
                indegree[d] -= 1;
                if indegree[d] == 0 {
                    ready.push(d);
                }
            }
        }
        if sequence.len() < k {
            return; // a cycle between clusters: no execution order is legal
        }
        let ordered: Vec<Vec<NodeId>> = sequence.into_iter().map(|c| std::mem::take(&mut clusters[c])).collect();
        let mut orders: Vec<Order> = g.nodes.iter().map(|n| n.kind.fixed_output_order().unwrap_or(0)).collect();
        // Nodes whose order is enumerated (shortcut 3), in program order.
        let free: Vec<NodeId> = ordered
            .iter()
            .filter(|c| c.len() > 1)
            .flatten()
            .copied()
            .filter(|n| g.node(*n).kind.fixed_output_order().is_none())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let clustering = Clustering { clusters: ordered, output_orders: Vec::new() };
        self.assign_orders(&free, 0, &mut orders, &clustering, &cluster_of);
    }

    /// Whether the orders assigned so far to `n` and its same-cluster producers agree
    /// over fusible edges (shortcut 4). Producers precede consumers in program order,
    /// so checking at the consumer sees both ends assigned.
    fn orders_agree_into(&self, n: NodeId, orders: &[Order], cluster_of: &[usize]) -> bool {
        self.graph.in_edges(n).all(|(_, e)| {
            if cluster_of[e.from.0] != cluster_of[n.0] || !e.is_fusible() {
                return true;
            }
            match e.access {
                Access::InOutputOrder => orders[e.from.0] == orders[n.0],
                Access::GatherSource { label } => orders[e.from.0] == label,
                Access::Unordered | Access::ScatterDestination => true,
            }
        })
    }

    fn assign_orders(
        &mut self,
        free: &[NodeId],
        i: usize,
        orders: &mut Vec<Order>,
        clustering: &Clustering,
        cluster_of: &[usize],
    ) {
        if i == free.len() {
            // Fixed-order nodes were never checked against their producers; the
            // validator checks everything anyway.
            let candidate = Clustering { clusters: clustering.clusters.clone(), output_orders: orders.clone() };
            if validate(self.graph, &candidate).is_err() {
                return;
            }
            self.legal += 1;
            for (k, cost) in self.costs.iter().enumerate() {
                let value = cost.evaluate(self.graph, &candidate);
                if self.best[k].as_ref().is_none_or(|b| value < b.cost - 1e-9) {
                    self.best[k] = Some(Optimum { cost: value, clustering: candidate.clone() });
                }
            }
            return;
        }
        let n = free[i];
        for o in 0..=self.max_order {
            orders[n.0] = o;
            if self.orders_agree_into(n, orders, cluster_of) {
                self.assign_orders(free, i + 1, orders, clustering, cluster_of);
            }
        }
        orders[n.0] = 0;
    }
}
