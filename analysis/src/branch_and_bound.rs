//! Seed 003's exact partition algorithm (Bohrium, §V-D, Fig. 11: branch and bound) on
//! this project's dependence graphs: strategy `bohrium-optimal`.
//!
//! [`crate::wsp::optimal`] is the paper's algorithm on its own model, whose cost
//! functions are sums over blocks that merging never raises (Def. 6); its bound merges
//! every open block with the unplaced vertices. This project's cost models are not of
//! that form (they count edges, arrays and reads in traversal orders, seed 000 §4.1), so
//! here the bound is [`PartialBound`]: what the blocks placed so far already decide.
//! Everything else follows Fig. 11 and the definitions:
//!
//! * The combinators are placed one at a time, in a topological order of the
//!   precedences (edges, and "other users of a scatter's destination before the
//!   scatter", seed 000 (9)), each into one of the blocks built so far or into a new
//!   block; every partition arises from exactly one sequence of choices. Barriers and
//!   function arguments are alone from the start (validator rule 3).
//! * The incumbent starts as the best of the unfused clustering, Bohrium's greedy and
//!   linear ones and seed 000's two greedy ones (Fig. 11 line 8's "good guess": any legal
//!   partition); the search only looks for a strictly cheaper legal clustering, so when
//!   it stops at its limit its answer is still no worse than any of these.
//! * A complete partition still needs traversal orders (seed 000 §4.2), which seed 003's
//!   model lacks. They are chosen exactly, per cluster (see `OrderChoice`).
//! * Legality is the validator's ([`validate`]), checked on every complete clustering
//!   the search would keep; the pruning rules below only skip placements that every
//!   completion of which the validator rejects.
//!
//! The search stops at the analysis's time limit; the answer is then the best clustering
//! found, reported as not proven.

use std::collections::HashMap;
use std::time::Instant;

use super::clustering::Clustering;
use super::cost::{CostFunction, PartialBound, evaluate_function};
use super::graph::{Access, Graph, NodeId, NodeKind, Order};
use super::validate::validate;
use super::{baseline, bohrium};

/// What [`optimal`] found.
#[derive(Clone, Debug)]
pub struct Search {
    /// The cheapest legal clustering found (the incumbent when nothing beat it).
    pub clustering: Clustering,
    pub cost: f64,
    /// The whole tree was searched: `clustering` is optimal over every legal
    /// clustering.
    pub complete: bool,
    /// Search-tree nodes visited.
    pub visited: u64,
}

/// The cheapest legal clustering of `graph` under `cost`, by branch and bound, searching
/// until `deadline` (if any).
pub fn optimal(graph: &Graph, cost: &CostFunction, deadline: Option<Instant>) -> Search {
    let incumbent = [
        Clustering::unfused(graph),
        bohrium::greedy(graph, cost),
        bohrium::linear(graph, cost),
        baseline::greedy(graph, true),
        baseline::greedy(graph, false),
    ]
    .into_iter()
    .filter(|c| validate(graph, c).is_ok())
    .map(|c| (evaluate_function(graph, &c, cost), c))
    .min_by(|a, b| a.0.total_cmp(&b.0));
    improve(graph, cost, incumbent, deadline)
}

/// The search of [`optimal`] from `incumbent` (a legal clustering and its cost, or
/// none). Tests start it from none, so that the search, not the heuristics, has to find
/// the optimum.
fn improve(
    graph: &Graph,
    cost: &CostFunction,
    incumbent: Option<(f64, Clustering)>,
    deadline: Option<Instant>,
) -> Search {
    let Some(precedence) = Precedence::new(graph) else {
        // The precedences have a cycle: no clustering at all is legal (not even the
        // unfused one, which the driver reports).
        let (cost, clustering) = incumbent.unwrap_or_else(|| (f64::INFINITY, Clustering::unfused(graph)));
        return Search { clustering, cost, complete: false, visited: 0 };
    };
    let n = graph.nodes.len();
    let mut block = vec![None; n];
    let mut members = Vec::new();
    for v in graph.node_ids().filter(|v| graph.is_barrier(*v)) {
        block[v.0] = Some(members.len());
        members.push(vec![v.0]);
    }
    let fixed_blocks = members.len();
    let sequence: Vec<usize> =
        precedence.topological.iter().copied().filter(|&v| !graph.is_barrier(NodeId(v))).collect();
    let (best_cost, best) = match incumbent {
        Some((c, clustering)) => (c, Some(clustering)),
        None => (f64::INFINITY, None),
    };
    let mut search = BranchAndBound {
        graph,
        cost,
        bound: PartialBound::new(graph, cost),
        orders: OrderChoice::new(graph, cost, &precedence, deadline),
        precedence,
        sequence,
        block,
        members,
        fixed_blocks,
        best_cost,
        best,
        deadline,
        stopped: false,
        visited: 0,
    };
    search.place(0);
    let complete = !search.stopped;
    let visited = search.visited;
    match search.best {
        Some(clustering) => Search { clustering, cost: search.best_cost, complete, visited },
        None => Search { clustering: Clustering::unfused(graph), cost: f64::INFINITY, complete, visited },
    }
}

/// The precedences between nodes that every legal clustering keeps (validator rules 2
/// and 4): `a` before `b` for an edge a→b (in one cluster or in an earlier one), and
/// every other user of a scatter's destination in a cluster strictly before the
/// scatter's.
struct Precedence {
    predecessors: Vec<Vec<usize>>,
    successors: Vec<Vec<usize>>,
    /// Every node, each after its predecessors (Kahn's algorithm, smallest index first).
    topological: Vec<usize>,
    /// Index of each node in `topological`.
    position: Vec<usize>,
}

impl Precedence {
    /// `None` when the precedences have a cycle.
    fn new(graph: &Graph) -> Option<Self> {
        let n = graph.nodes.len();
        let mut successors = vec![Vec::new(); n];
        let mut predecessors = vec![Vec::new(); n];
        let mut add = |a: usize, b: usize| {
            if a != b && !successors[a].contains(&b) {
                successors[a].push(b);
                predecessors[b].push(a);
            }
        };
        for e in &graph.edges {
            add(e.from.0, e.to.0);
        }
        for s in graph.node_ids().filter(|s| graph.node(*s).kind == NodeKind::Scatter) {
            for (_, d) in graph.in_edges(s).filter(|(_, d)| d.access == Access::ScatterDestination) {
                for (_, u) in graph.out_edges(d.from).filter(|(_, u)| u.output == d.output && u.to != s) {
                    add(u.to.0, s.0);
                }
            }
        }
        let mut indegree: Vec<usize> = predecessors.iter().map(Vec::len).collect();
        let mut ready: std::collections::BTreeSet<usize> = (0..n).filter(|&v| indegree[v] == 0).collect();
        let mut topological = Vec::with_capacity(n);
        while let Some(v) = ready.pop_first() {
            topological.push(v);
            for &s in &successors[v] {
                indegree[s] -= 1;
                if indegree[s] == 0 {
                    ready.insert(s);
                }
            }
        }
        if topological.len() < n {
            return None;
        }
        let mut position = vec![0; n];
        for (i, &v) in topological.iter().enumerate() {
            position[v] = i;
        }
        Some(Precedence { predecessors, successors, topological, position })
    }

    /// The clusters `members` (node indices) in an execution order that keeps every
    /// precedence, each listing its nodes in topological order; `None` when the clusters
    /// have a cycle.
    fn execution_order(&self, node_count: usize, members: &[Vec<usize>]) -> Option<Vec<Vec<NodeId>>> {
        let mut cluster_of = vec![0; node_count];
        for (c, m) in members.iter().enumerate() {
            for &v in m {
                cluster_of[v] = c;
            }
        }
        let k = members.len();
        let mut indegree = vec![0usize; k];
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); k];
        for (a, succ) in self.successors.iter().enumerate() {
            for &b in succ {
                let (ca, cb) = (cluster_of[a], cluster_of[b]);
                if ca != cb && !next[ca].contains(&cb) {
                    next[ca].push(cb);
                    indegree[cb] += 1;
                }
            }
        }
        let first = |c: usize| members[c].iter().map(|&v| self.position[v]).min().unwrap_or(usize::MAX);
        let mut ready: std::collections::BTreeSet<(usize, usize)> =
            (0..k).filter(|&c| indegree[c] == 0).map(|c| (first(c), c)).collect();
        let mut clusters = Vec::with_capacity(k);
        while let Some((_, c)) = ready.pop_first() {
            for &d in &next[c] {
                indegree[d] -= 1;
                if indegree[d] == 0 {
                    ready.insert((first(d), d));
                }
            }
            let mut nodes = members[c].clone();
            nodes.sort_by_key(|&v| self.position[v]);
            clusters.push(nodes.into_iter().map(NodeId).collect());
        }
        (clusters.len() == k).then_some(clusters)
    }
}

/// The traversal orders of one cluster: the cheapest legal assignment, found by trying
/// every one, until the search's deadline.
///
/// Why per cluster: every validator rule about orders (rules 5 to 8) concerns the nodes
/// of one cluster (their own orders, the edges between them, and whether their arrays
/// leave the cluster, which the partition decides), and the only costs that depend on
/// orders are sums over clusters of terms that depend on that cluster's orders alone:
/// the reads, per consumer cluster ([`crate::cost::reads`]), and `gathered-folds` and
/// `chained-gathers`, per fold or gather in its own cluster ([`crate::cost::gathered_folds`],
/// [`crate::cost::chained_gathers`]). So the cheapest legal
/// orders of a whole partition are the cheapest legal orders of each cluster, chosen
/// independently; a cluster is judged in the clustering where it is the only one fused
/// (every other node alone, in its default order), which changes neither its rules nor
/// its terms.
///
/// The assignments tried: over a fusible edge read in the consumer's order, producer
/// and consumer have one order (rule 5, so they form one class); a class with a node
/// of fixed order, or whose array a fused gather reads, has that order; every other
/// class takes 0, 1 and each order something else in the cluster is read in (the rest of
/// rule 5's range `0..=g+1` is never needed: proof in `search`). Results are cached by member
/// set, since the search meets the same cluster in many partitions.
///
/// The assignments are exponential in the free classes, so one cluster can take longer than the
/// whole time limit: the enumeration checks the deadline at every assignment and, when
/// it passes, returns [`OrdersStopped`] instead of an answer, which is neither cached nor
/// taken to mean that no order is legal.
struct OrderChoice<'g> {
    graph: &'g Graph,
    cost: &'g CostFunction,
    deadline: Option<Instant>,
    max_order: Order,
    cache: HashMap<Vec<usize>, Option<Vec<(usize, Order)>>>,
    default_orders: Vec<Order>,
    topological: Vec<usize>,
}

impl<'g> OrderChoice<'g> {
    fn new(graph: &'g Graph, cost: &'g CostFunction, precedence: &Precedence, deadline: Option<Instant>) -> Self {
        OrderChoice {
            graph,
            cost,
            deadline,
            max_order: graph.gather_count() + 1,
            cache: HashMap::new(),
            default_orders: Clustering::unfused(graph).output_orders,
            topological: precedence.topological.clone(),
        }
    }

    /// The cheapest legal orders of the cluster `members` (sorted node indices), as
    /// (node, order) pairs; `None` when no assignment is legal.
    fn choose(
        &mut self,
        precedence: &Precedence,
        members: &[usize],
    ) -> Result<Option<Vec<(usize, Order)>>, OrdersStopped> {
        if let Some(known) = self.cache.get(members) {
            return Ok(known.clone());
        }
        let chosen = self.search(precedence, members)?;
        self.cache.insert(members.to_vec(), chosen.clone());
        Ok(chosen)
    }

    fn search(&self, precedence: &Precedence, members: &[usize]) -> Result<Option<Vec<(usize, Order)>>, OrdersStopped> {
        let g = self.graph;
        let inside = |v: usize| members.binary_search(&v).is_ok();
        // Classes of nodes with one order (union-find over the fused in-order edges).
        let mut class: HashMap<usize, usize> = members.iter().map(|&v| (v, v)).collect();
        fn find(class: &mut HashMap<usize, usize>, mut v: usize) -> usize {
            while class[&v] != v {
                v = class[&v];
            }
            v
        }
        let fused = |e: &&crate::graph::Edge| inside(e.from.0) && inside(e.to.0) && e.is_fusible();
        for e in g.edges.iter().filter(fused) {
            if e.access == Access::InOutputOrder {
                let (a, b) = (find(&mut class, e.from.0), find(&mut class, e.to.0));
                class.insert(a, b);
            }
        }
        let mut forced: HashMap<usize, Order> = HashMap::new();
        let mut force = |class: &mut HashMap<usize, usize>, v: usize, order: Order| -> bool {
            let root = find(class, v);
            *forced.entry(root).or_insert(order) == order
        };
        for &v in members {
            if let Some(order) = g.node(NodeId(v)).kind.fixed_output_order()
                && !force(&mut class, v, order)
            {
                return Ok(None);
            }
        }
        for e in g.edges.iter().filter(fused) {
            if let Access::GatherSource { label } = e.access
                && !force(&mut class, e.from.0, label)
            {
                return Ok(None);
            }
        }
        let mut roots: Vec<usize> = members.iter().map(|&v| find(&mut class, v)).collect();
        roots.sort_unstable();
        roots.dedup();
        let free: Vec<usize> = roots.iter().copied().filter(|r| !forced.contains_key(r)).collect();
        let root_of: Vec<(usize, usize)> = members.iter().map(|&v| (v, find(&mut class, v))).collect();

        // The clustering with this cluster fused and every other node alone.
        let mut groups: Vec<Vec<usize>> = vec![members.to_vec()];
        groups.extend(self.topological.iter().copied().filter(|v| !inside(*v)).map(|v| vec![v]));
        let Some(clusters) = precedence.execution_order(g.nodes.len(), &groups) else { return Ok(None) };

        // The orders a free class may take: 0, 1, and the orders something else in the
        // cluster is read in (a forced class's order, a member gather's label).
        //
        // **Why no other order is needed.** Take a legal assignment and move every free
        // class whose order k is none of these to 0. Rule 5 holds: a free class has no
        // node of fixed order, 0 is in range and never backward, and its fused in-order
        // edges stay inside the class. Rule 6 only constrains orders ≥ 2. Rule 7 joins
        // two nodes reading one parent in one order: a class at such a k can be joined
        // at k only with another free class at k (no forced class and no gather source
        // read is at k), which moves to 0 with it. Rule 8 changes nothing: a node in
        // order k runs in the space of a member gather labelled k, and there is none.
        // The cost does not rise: reads are counted per (array, cluster, order), and
        // moving orders to 0 only merges such groups; the charges count orders at or
        // above a gather label, never 0. So the cheapest legal assignment is among these.
        let mut candidates: Vec<Order> = vec![0, 1];
        candidates.extend(forced.values().copied());
        candidates.extend(members.iter().filter_map(|&v| match g.node(NodeId(v)).kind {
            NodeKind::Gather { label } => Some(label),
            _ => None,
        }));
        candidates.retain(|&o| o <= self.max_order);
        candidates.sort_unstable();
        candidates.dedup();

        let mut best: Option<(f64, Vec<(usize, Order)>)> = None;
        // Per free class, the index of its order in `candidates`.
        let mut values = vec![0usize; free.len()];
        loop {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(OrdersStopped);
            }
            let order_of = |root: usize| {
                forced
                    .get(&root)
                    .copied()
                    .unwrap_or_else(|| candidates[values[free.binary_search(&root).expect("a free root")]])
            };
            let assignment: Vec<(usize, Order)> = root_of.iter().map(|&(v, r)| (v, order_of(r))).collect();
            let mut orders = self.default_orders.clone();
            for &(v, o) in &assignment {
                orders[v] = o;
            }
            let candidate = Clustering { clusters: clusters.clone(), output_orders: orders };
            if validate(g, &candidate).is_ok() {
                let value = evaluate_function(g, &candidate, self.cost);
                if best.as_ref().is_none_or(|(b, _)| value < *b - 1e-9) {
                    best = Some((value, assignment));
                }
            }
            // The next assignment of the free classes (an odometer over `candidates`).
            let mut i = 0;
            loop {
                if i == values.len() {
                    return Ok(best.map(|(_, a)| a));
                }
                if values[i] + 1 < candidates.len() {
                    values[i] += 1;
                    break;
                }
                values[i] = 0;
                i += 1;
            }
        }
    }
}

/// The deadline passed while [`OrderChoice`] enumerated a cluster's orders.
struct OrdersStopped;

struct BranchAndBound<'g> {
    graph: &'g Graph,
    cost: &'g CostFunction,
    bound: PartialBound<'g>,
    orders: OrderChoice<'g>,
    precedence: Precedence,
    /// The combinators in the order they are placed (topological).
    sequence: Vec<usize>,
    /// The block of every placed node.
    block: Vec<Option<usize>>,
    /// The nodes of each block; blocks below `fixed_blocks` hold one barrier or argument
    /// each and take nothing else.
    members: Vec<Vec<usize>>,
    fixed_blocks: usize,
    best_cost: f64,
    best: Option<Clustering>,
    deadline: Option<Instant>,
    stopped: bool,
    visited: u64,
}

impl BranchAndBound<'_> {
    /// Whether `a` and `b` can never share a cluster: an infusible edge joins them
    /// (validator rule 2), or one is a scatter and the other another user of its
    /// destination, which must run in a strictly earlier cluster (rule 4). The exhaustive
    /// search has its own copy of this rule on purpose: it is the reference this search is
    /// tested against, so the two share no code but the validator.
    fn incompatible(&self, a: usize, b: usize) -> bool {
        let g = self.graph;
        let (a, b) = (NodeId(a), NodeId(b));
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

    /// Whether block `from` reaches block `to` along precedences between placed nodes.
    fn reaches(&self, from: usize, to: usize) -> bool {
        let mut seen = vec![false; self.members.len()];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(b) = stack.pop() {
            for &v in &self.members[b] {
                for &s in &self.precedence.successors[v] {
                    if let Some(c) = self.block[s]
                        && !seen[c]
                    {
                        if c == to {
                            return true;
                        }
                        seen[c] = true;
                        stack.push(c);
                    }
                }
            }
        }
        false
    }

    fn place(&mut self, k: usize) {
        self.visited += 1;
        if self.stopped || self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
            return;
        }
        // Bound: no completion costs less than the partial bound (its proof is in
        // `PartialBound`), so when that is no less than the incumbent's cost no
        // completion is strictly cheaper, and the subtree can go.
        if self.bound.lower_bound(&self.block) >= self.best_cost - 1e-9 {
            return;
        }
        if k == self.sequence.len() {
            self.complete();
            return;
        }
        let v = self.sequence[k];
        for i in self.fixed_blocks..self.members.len() {
            if self.members[i].iter().any(|&m| self.incompatible(m, v)) {
                continue;
            }
            // Pruning: v's precedences add edges C → block i from the blocks C of its
            // predecessors (all placed: topological order; its successors are all
            // unplaced). If block i already reaches such a C, the new edge closes a cycle
            // between clusters; blocks never split, so every completion keeps it, and the
            // validator rejects a cycle (rule 2, and rule 4 for scatter precedences).
            let closes_cycle = self.precedence.predecessors[v]
                .iter()
                .filter_map(|&p| self.block[p])
                .any(|c| c != i && self.reaches(i, c));
            if closes_cycle {
                continue;
            }
            self.block[v] = Some(i);
            self.members[i].push(v);
            self.place(k + 1);
            self.members[i].pop();
            self.block[v] = None;
        }
        // A new block for v: only edges into it appear, which close no cycle.
        self.block[v] = Some(self.members.len());
        self.members.push(vec![v]);
        self.place(k + 1);
        self.members.pop();
        self.block[v] = None;
    }

    /// A complete partition: its cheapest legal orders, and the incumbent replaced when
    /// it is legal and strictly cheaper.
    fn complete(&mut self) {
        let mut orders = self.orders.default_orders.clone();
        for b in self.fixed_blocks..self.members.len() {
            let mut members = self.members[b].clone();
            members.sort_unstable();
            match self.orders.choose(&self.precedence, &members) {
                Ok(Some(assignment)) => {
                    for (v, o) in assignment {
                        orders[v] = o;
                    }
                }
                Ok(None) => return,
                Err(OrdersStopped) => {
                    // Cut short: this partition is not judged, and the search ends as
                    // at any other deadline (its answer is not proven).
                    self.stopped = true;
                    return;
                }
            }
        }
        let Some(clusters) = self.precedence.execution_order(self.graph.nodes.len(), &self.members) else { return };
        let candidate = Clustering { clusters, output_orders: orders };
        if validate(self.graph, &candidate).is_err() {
            return;
        }
        let value = evaluate_function(self.graph, &candidate, self.cost);
        if value < self.best_cost - 1e-9 {
            self.best_cost = value;
            self.best = Some(candidate);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::CostModel;
    use crate::exhaustive;
    use crate::random::small_program;

    /// From no incumbent at all, on small random programs under every cost model, the
    /// search finds a legal clustering of exactly the exhaustive optimum, and says it
    /// searched everything.
    #[test]
    fn finds_the_exhaustive_optimum_without_an_incumbent() {
        let costs: Vec<CostFunction> = CostModel::ALL.iter().map(|&m| CostFunction::single(m)).collect();
        let mut compared = 0;
        for seed in 0..60 {
            let g = small_program(6, seed);
            let Some(reference) = exhaustive::search(&g, &costs) else { continue };
            for (cost, optimum) in costs.iter().zip(&reference.optima) {
                let found = improve(&g, cost, None, None);
                assert!(found.complete, "seed {seed}, {cost}: the search stopped without a deadline");
                validate(&g, &found.clustering).unwrap_or_else(|v| panic!("seed {seed}, {cost}: illegal: {v:?}"));
                let value = evaluate_function(&g, &found.clustering, cost);
                assert!((value - found.cost).abs() < 1e-9, "seed {seed}, {cost}: reported {} for {value}", found.cost);
                assert!(
                    (value - optimum.cost).abs() < 1e-9,
                    "seed {seed}, {cost}: branch and bound {value}, exhaustive optimum {} ({:?} against {:?})",
                    optimum.cost,
                    found.clustering.clusters,
                    optimum.clustering.clusters
                );
                compared += 1;
            }
        }
        assert!(compared > 200, "only {compared} comparisons");
    }

    /// A deadline already past stops the search at once: the answer is the incumbent,
    /// marked incomplete.
    #[test]
    fn a_past_deadline_returns_the_incumbent_as_incomplete() {
        let g = small_program(6, 3);
        let cost = CostFunction::single(CostModel::ReadsWrites);
        let unfused = Clustering::unfused(&g);
        let value = evaluate_function(&g, &unfused, &cost);
        let found = improve(&g, &cost, Some((value, unfused.clone())), Some(Instant::now()));
        assert!(!found.complete);
        assert_eq!((found.clustering, found.cost, found.visited), (unfused, value, 1));
    }

    /// A cluster's order enumeration past the deadline stops with `OrdersStopped`, not
    /// with "no legal order", and caches nothing (a later search must not take the cut
    /// short answer for the cluster's); without a deadline the same cluster gets its
    /// orders and a cache entry.
    #[test]
    fn an_order_search_past_its_deadline_stops_and_caches_nothing() {
        let g = small_program(6, 3);
        let cost = CostFunction::single(CostModel::ReadsWrites);
        let precedence = Precedence::new(&g).expect("the random program's precedences are acyclic");
        let loop_node = precedence.topological.iter().copied().find(|&v| !g.is_barrier(NodeId(v)));
        let members = vec![loop_node.expect("a combinator")];
        let mut late = OrderChoice::new(&g, &cost, &precedence, Some(Instant::now()));
        assert!(late.choose(&precedence, &members).is_err());
        assert!(late.cache.is_empty());
        let mut timely = OrderChoice::new(&g, &cost, &precedence, None);
        let orders = timely.choose(&precedence, &members).ok().flatten();
        assert_eq!(orders.map(|a| a.len()), Some(1), "one node alone has one legal order assignment");
        assert_eq!(timely.cache.len(), 1);
    }
}
