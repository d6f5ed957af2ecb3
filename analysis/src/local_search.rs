//! A primal heuristic for the fusion ILP: local search over legal clusterings.
//!
//! SCIP proves an optimum faster when it starts from a good clustering: an incumbent of
//! cost c lets it discard every subtree whose bound reaches c. On the six slowest of
//! twenty random programs of 100 combinators, telling SCIP the optimum's value in
//! advance cut the solve times from 2.7–26.5 s to 1.5–7.8 s. Seed 000's greedy
//! clusterings (`baseline`), where the search starts, fuse along edges only; the optimum
//! also fuses horizontally (readers of one array sharing its read, seed 000 §4.1) and leaves
//! unfused what greedy fused too early.
//!
//! The search starts from a legal clustering and repeatedly takes the first move that
//! lowers the cost, until no move does or the time budget is spent:
//!
//! * **merge** two clusters that are *adjacent* (an edge between them, or both read one
//!   array);
//! * **move** one node into an adjacent cluster;
//! * **split** one node out into a cluster of its own.
//!
//! A descent ends in a local minimum. The search then *kicks* the best clustering found
//! (`KICK_MOVES` random legal moves of one node into a neighbour's cluster or out on its
//! own, whatever they cost) and descends again, `KICKS` times, keeping the cheapest
//! (iterated local search). The generator is seeded by the program's size, so a program
//! gets the same start on every run unless the time budget cuts the search short. On
//! random programs of 100 combinators the kicks find better starts for the slowest
//! solves; where the root heuristic RENS supplies incumbents they bought nothing, and
//! the driver asks for none there (`RootHeuristic::warm_start_kicks` in `driver`; docs/ilp-measurements.md).
//!
//! The changed cluster's orders follow from its internal edges (`cluster_orders`: a
//! fused edge is read in the producer's order, seed 000 (12)); the orders left free are
//! kept, or all set forward, or all backward: three candidates per move. Every
//! candidate is put in execution order (clusters topologically sorted along the
//! edges between them), priced by the cost evaluator and, when cheaper, judged by the
//! independent validator, the same two functions that judge the solver's answer. So the
//! result is legal by construction; it is only a hint to the solver, which proves (or
//! fails to prove) optimality on its own, and it plays no part in any bound.

use super::clustering::Clustering;
use super::cost::{CostFunction, evaluate_function};
use super::formulation::Ilp;
use super::graph::{Access, Graph, NodeId, ORDER_BACKWARD, ORDER_FORWARD, Order};
use super::validate::validate;
use fusion_solver::{PrimalHeuristic, VarId};
use std::time::{Duration, Instant};

/// The best clustering found from `start` (which must be legal) within `budget`, and
/// its cost, after a descent and up to `kicks` kicks (usually [`KICKS`]). Returns
/// `start` itself when no move improves it, or when it leaves a node out of every
/// cluster or lacks an order per node.
pub fn improve(
    graph: &Graph,
    start: Clustering,
    cost: &CostFunction,
    budget: Duration,
    kicks: usize,
) -> (Clustering, f64) {
    // No deadline when the budget is beyond any clock (an unlimited time limit).
    let deadline = Instant::now().checked_add(budget);
    let n = graph.nodes.len();
    let start_cost = evaluate_function(graph, &start, cost);
    let mut label: Vec<usize> = vec![usize::MAX; n];
    for (c, nodes) in start.clusters.iter().enumerate() {
        for v in nodes {
            if let Some(slot) = label.get_mut(v.0) {
                *slot = c;
            }
        }
    }
    if label.contains(&usize::MAX) || start.output_orders.len() != n {
        return (start, start_cost);
    }
    let search = Search { graph, cost, neighbours: neighbours(graph), deadline };
    let mut best =
        search.descend(State { label, orders: start.output_orders.clone(), clustering: start, cost: start_cost });
    // Iterated local search: kick the best clustering out of its local minimum with a
    // few random legal moves, descend again, keep what is cheaper. Deterministic (the
    // generator is seeded by the graph's size), so a program always gets the same start.
    let mut random = XorShift(0x9e37_79b9_7f4a_7c15 ^ n as u64);
    for _ in 0..kicks {
        if search.deadline.is_some_and(|deadline| Instant::now() > deadline) {
            break;
        }
        let Some(kicked) = search.kick(&best, &mut random) else { continue };
        let found = search.descend(kicked);
        if found.cost < best.cost - 1e-9 {
            best = found;
        }
    }
    (best.clustering, best.cost)
}

/// The legal clustering that follows `links` (pairs of nodes, strongest first): from
/// the unfused clustering, the clusters of each pair are merged when the merge is legal
/// (whatever it costs: the links come from an LP solution, whose merges pay off
/// together), then the search descends to a local minimum within `budget`. Returns the
/// clustering and its cost.
pub fn follow_links(
    graph: &Graph,
    links: &[(NodeId, NodeId)],
    cost: &CostFunction,
    budget: Duration,
) -> (Clustering, f64) {
    let deadline = Instant::now().checked_add(budget);
    let unfused = Clustering::unfused(graph);
    let search = Search { graph, cost, neighbours: neighbours(graph), deadline };
    let mut state = State {
        label: (0..graph.nodes.len()).collect(),
        orders: unfused.output_orders.clone(),
        cost: evaluate_function(graph, &unfused, cost),
        clustering: unfused,
    };
    for &(a, b) in links {
        if search.deadline.is_some_and(|deadline| Instant::now() > deadline) {
            break;
        }
        let (Some(&keep), Some(&gone)) = (state.label.get(a.0), state.label.get(b.0)) else { continue };
        if keep == gone {
            continue;
        }
        let merged: Vec<usize> = state.label.iter().map(|&l| if l == gone { keep } else { l }).collect();
        let next = [None, Some(ORDER_FORWARD), Some(ORDER_BACKWARD)].into_iter().find_map(|direction| {
            let orders = cluster_orders(graph, &merged, &state.orders, keep, direction)?;
            search.judge((merged.clone(), orders), f64::INFINITY)
        });
        if let Some(next) = next {
            state = next;
        }
    }
    let state = search.descend(state);
    (state.clustering, state.cost)
}

/// The root LP solution turned into a legal clustering (a
/// [`fusion_solver::PrimalHeuristic`]): the pairs the LP puts in one cluster at least
/// half-way ([`Ilp::link_strengths`]), strongest first, are followed ([`follow_links`])
/// and the result, when it is cheaper than the warm start, goes back to SCIP as a
/// partial solution ([`Ilp::partial_solution`]).
///
/// Why: where the model is solved with lazy rows, SCIP's diving and neighbourhood
/// heuristics are off (they do not see those rows; `Ilp::lazy_model`), and on large
/// models SCIP then often ends with the warm start. This heuristic builds legal
/// clusterings only (each merge judged by the validator).
pub struct LpGuided {
    graph: Graph,
    ilp: Ilp,
    cost: CostFunction,
    /// The time the descent may take.
    budget: Duration,
    /// The warm start's cost (or infinity): a proposal must be cheaper.
    to_beat: f64,
}

impl LpGuided {
    /// A heuristic for `ilp`, the model of `graph` under `cost`, whose proposal must cost
    /// less than `to_beat`.
    pub fn new(graph: Graph, ilp: Ilp, cost: CostFunction, budget: Duration, to_beat: f64) -> Self {
        LpGuided { graph, ilp, cost, budget, to_beat }
    }
}

impl PrimalHeuristic for LpGuided {
    fn propose(&mut self, values: &[f64]) -> Vec<(VarId, f64)> {
        let mut links: Vec<(NodeId, NodeId, f64)> =
            self.ilp.link_strengths(values).into_iter().filter(|&(_, _, strength)| strength >= 0.5).collect();
        links.sort_by(|a, b| b.2.total_cmp(&a.2).then((a.0, a.1).cmp(&(b.0, b.1))));
        let pairs: Vec<(NodeId, NodeId)> = links.iter().map(|&(a, b, _)| (a, b)).collect();
        let (clustering, cost) = follow_links(&self.graph, &pairs, &self.cost, self.budget);
        if cost >= self.to_beat - 1e-9 {
            return Vec::new();
        }
        self.to_beat = cost;
        self.ilp.partial_solution(&self.graph, &clustering)
    }
}

/// How many kicks the iterated local search tries after the first descent, where the
/// driver asks for them (`driver::warm_start`).
pub const KICKS: usize = 10;
/// How many random moves one kick makes.
const KICK_MOVES: usize = 3;

/// A small deterministic generator (xorshift64).
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// A legal clustering as the search holds it: cluster labels and orders by node, the
/// clustering in execution order, and its cost.
struct State {
    label: Vec<usize>,
    orders: Vec<Order>,
    clustering: Clustering,
    cost: f64,
}

struct Search<'g> {
    graph: &'g Graph,
    cost: &'g CostFunction,
    neighbours: Vec<Vec<NodeId>>,
    deadline: Option<Instant>,
}

impl Search<'_> {
    /// The candidate's clustering and cost, when it is legal and costs less than
    /// `below` (priced first: the cost evaluator is cheaper than the validator and
    /// accepts any partition).
    fn judge(&self, (label, orders): Candidate, below: f64) -> Option<State> {
        let clustering = Clustering::in_execution_order(self.graph, &label, &orders)?;
        let cost = evaluate_function(self.graph, &clustering, self.cost);
        if cost >= below {
            return None;
        }
        validate(self.graph, &clustering).ok()?;
        Some(State { label, orders, clustering, cost })
    }

    /// `KICK_MOVES` random legal moves from `state`, whatever they cost; `None` when no
    /// move was legal.
    fn kick(&self, state: &State, random: &mut XorShift) -> Option<State> {
        let n = state.label.len();
        let mut current: Option<State> = None;
        for _ in 0..KICK_MOVES {
            let from = current.as_ref().unwrap_or(state);
            // A random node moves into a random neighbour's cluster, or out on its own.
            let next = (0..n.min(20)).find_map(|_| {
                let v = random.below(n);
                let near = &self.neighbours[v];
                let mut label = from.label.clone();
                let target = if near.is_empty() || random.below(4) == 0 {
                    n + v
                } else {
                    from.label[near[random.below(near.len())].0]
                };
                if target == label[v] {
                    return None;
                }
                label[v] = target;
                let orders = if target >= n {
                    from.orders.clone()
                } else {
                    cluster_orders(self.graph, &label, &from.orders, target, None)?
                };
                self.judge((label, orders), f64::INFINITY)
            });
            match next {
                Some(next) => current = Some(next),
                None => break,
            }
        }
        current
    }

    /// First-improvement descent from a legal state.
    fn descend(&self, mut state: State) -> State {
        loop {
            let mut improved = None;
            for candidate in moves(self.graph, &self.neighbours, &state.label, &state.orders) {
                if self.deadline.is_some_and(|deadline| Instant::now() > deadline) {
                    break;
                }
                if let Some(next) = self.judge(candidate, state.cost - 1e-9) {
                    improved = Some(next);
                    break;
                }
            }
            match improved {
                Some(next) => state = next,
                None => return state,
            }
        }
    }
}

/// For every node, the nodes it can share a cluster with to any effect: its producers
/// and consumers over fusible edges between loops, and the other readers of the arrays
/// it reads.
pub(crate) fn neighbours(graph: &Graph) -> Vec<Vec<NodeId>> {
    let n = graph.nodes.len();
    let mut near: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    let mut add = |a: NodeId, b: NodeId| {
        if a != b && !near[a.0].contains(&b) {
            near[a.0].push(b);
            near[b.0].push(a);
        }
    };
    let loop_node = |v: NodeId| graph.node(v).kind.is_fusible_kind();
    for e in &graph.edges {
        if e.is_fusible() && loop_node(e.from) && loop_node(e.to) {
            add(e.from, e.to);
        }
    }
    for producer in graph.node_ids() {
        let readers: Vec<(usize, NodeId)> =
            graph.out_edges(producer).map(|(_, e)| (e.output, e.to)).filter(|&(_, r)| loop_node(r)).collect();
        for (i, &(output, a)) in readers.iter().enumerate() {
            for &(other_output, b) in &readers[i + 1..] {
                if output == other_output {
                    add(a, b);
                }
            }
        }
    }
    near
}

type Candidate = (Vec<usize>, Vec<Order>);

/// The candidate moves from one clustering (cluster labels and orders), lazily: merges
/// first (they save the most), then moves of single nodes, then splits.
fn moves<'a>(
    graph: &'a Graph,
    neighbours: &'a [Vec<NodeId>],
    label: &'a [usize],
    orders: &'a [Order],
) -> impl Iterator<Item = Candidate> + 'a {
    let n = label.len();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for v in 0..n {
        for w in &neighbours[v] {
            let (a, b) = (label[v].min(label[w.0]), label[v].max(label[w.0]));
            if a != b && !pairs.contains(&(a, b)) {
                pairs.push((a, b));
            }
        }
    }
    let merges = pairs.into_iter().flat_map(move |(a, b)| {
        let merged: Vec<usize> = label.iter().map(|&l| if l == b { a } else { l }).collect();
        [None, Some(ORDER_FORWARD), Some(ORDER_BACKWARD)].into_iter().filter_map(move |direction| {
            cluster_orders(graph, &merged, orders, a, direction).map(|orders| (merged.clone(), orders))
        })
    });
    let node_moves = (0..n).flat_map(move |v| {
        let mut targets: Vec<usize> =
            neighbours[v].iter().map(|w| label[w.0]).filter(|&c| c != label[v]).collect::<Vec<_>>();
        targets.sort_unstable();
        targets.dedup();
        targets.into_iter().flat_map(move |target| {
            let mut moved = label.to_vec();
            moved[v] = target;
            [None, Some(ORDER_FORWARD), Some(ORDER_BACKWARD)].into_iter().filter_map(move |direction| {
                cluster_orders(graph, &moved, orders, target, direction).map(|orders| (moved.clone(), orders))
            })
        })
    });
    let splits = (0..n).filter_map(move |v| {
        let alone = label.iter().filter(|&&l| l == label[v]).count() == 1;
        (!alone).then(|| {
            let mut split = label.to_vec();
            split[v] = n + v;
            (split, orders.to_vec())
        })
    });
    merges.chain(node_moves).chain(splits)
}

/// The orders of one cluster (`label[v] == cluster`) forced by its internal edges
/// (seed 000 (12): a fused edge is read in the producer's order), every other order
/// unchanged. An edge read in output order joins the producer's and consumer's orders
/// into one class; a class takes the order a combinator fixes or a gather's label
/// reading it, else `direction`, else the order its first node had (forward if that was
/// a gather label). `None` when a class is forced two ways, or backward where a node may
/// not run backward.
pub(crate) fn cluster_orders(
    graph: &Graph,
    label: &[usize],
    orders: &[Order],
    cluster: usize,
    direction: Option<Order>,
) -> Option<Vec<Order>> {
    let n = label.len();
    let mut class: Vec<usize> = (0..n).collect();
    fn find(class: &mut [usize], mut v: usize) -> usize {
        while class[v] != v {
            class[v] = class[class[v]];
            v = class[v];
        }
        v
    }
    let inside = |e: &super::graph::Edge| label[e.from.0] == cluster && label[e.to.0] == cluster && e.is_fusible();
    for e in graph.edges.iter().filter(|e| inside(e)) {
        if e.access == Access::InOutputOrder {
            let (a, b) = (find(&mut class, e.from.0), find(&mut class, e.to.0));
            class[a] = b;
        }
    }
    let mut forced: Vec<Option<Order>> = vec![None; n];
    let mut force = |class: &mut [usize], v: usize, order: Order| {
        let c = find(class, v);
        match forced[c] {
            Some(o) if o != order => false,
            _ => {
                forced[c] = Some(order);
                true
            }
        }
    };
    for v in (0..n).filter(|&v| label[v] == cluster) {
        if let Some(order) = graph.node(NodeId(v)).kind.fixed_output_order()
            && !force(&mut class, v, order)
        {
            return None;
        }
    }
    for e in graph.edges.iter().filter(|e| inside(e)) {
        if let Access::GatherSource { label } = e.access
            && !force(&mut class, e.from.0, label)
        {
            return None;
        }
    }
    let mut chosen: Vec<Option<Order>> = vec![None; n];
    let mut out = orders.to_vec();
    for v in (0..n).filter(|&v| label[v] == cluster) {
        let c = find(&mut class, v);
        let order = *chosen[c].get_or_insert_with(|| {
            forced[c].or(direction).unwrap_or(if orders[v] <= ORDER_BACKWARD { orders[v] } else { ORDER_FORWARD })
        });
        if order == ORDER_BACKWARD && forced[c].is_none() && !graph.node(NodeId(v)).kind.may_run_backward() {
            return None;
        }
        out[v] = order;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::greedy;
    use crate::cost::CostModel;
    use crate::exhaustive;
    use crate::random::{random_graph, small_program};

    /// On small random programs, under every cost model: the search returns a legal
    /// clustering, never costs more than the greedy start, and never less than the
    /// exhaustive optimum (a cheaper answer would mean the validator or the cost
    /// evaluator was fooled). And it does improve on greedy somewhere, or it would be
    /// dead weight in front of the solver.
    #[test]
    fn improves_greedy_legally_and_never_beats_the_exhaustive_optimum() {
        let mut improved = 0;
        for seed in 0..60 {
            let graph = small_program(6, seed);
            let costs: Vec<CostFunction> = CostModel::ALL.iter().map(|&m| CostFunction::single(m)).collect();
            let Some(reference) = exhaustive::search(&graph, &costs) else { continue };
            for (cost, optimum) in costs.iter().zip(&reference.optima) {
                let start = greedy(&graph, seed % 2 == 0);
                let start_cost = evaluate_function(&graph, &start, cost);
                let (found, found_cost) = improve(&graph, start, cost, Duration::from_secs(10), KICKS);
                assert_eq!(validate(&graph, &found), Ok(()), "seed {seed}, {cost:?}");
                assert_eq!(found_cost, evaluate_function(&graph, &found, cost));
                assert!(found_cost <= start_cost, "seed {seed}: {found_cost} > greedy {start_cost}");
                assert!(found_cost >= optimum.cost - 1e-9, "seed {seed}: {found_cost} < optimum {}", optimum.cost);
                improved += usize::from(found_cost < start_cost);
            }
        }
        assert!(improved >= 10, "the search improved on greedy only {improved} times");
    }

    /// Following links gives a legal clustering, never cheaper than the exhaustive
    /// optimum (which would mean the validator or the cost evaluator was fooled), and
    /// following the pairs of nodes that share a cluster in the optimum often gives the
    /// optimum.
    #[test]
    fn following_links_is_legal_and_never_beats_the_exhaustive_optimum() {
        let cost = CostFunction::single(CostModel::ReadsWrites);
        let mut reached = 0;
        for seed in 0..60 {
            let graph = small_program(6, seed);
            let Some(reference) = exhaustive::search(&graph, std::slice::from_ref(&cost)) else { continue };
            let optimum = &reference.optima[0];
            let mut links = Vec::new();
            for cluster in &optimum.clustering.clusters {
                for (i, &a) in cluster.iter().enumerate() {
                    links.extend(cluster[i + 1..].iter().map(|&b| (a, b)));
                }
            }
            let everything: Vec<(NodeId, NodeId)> =
                graph.node_ids().flat_map(|a| graph.node_ids().map(move |b| (a, b))).collect();
            for pairs in [&links, &everything] {
                let (found, found_cost) = follow_links(&graph, pairs, &cost, Duration::from_secs(10));
                assert_eq!(validate(&graph, &found), Ok(()), "seed {seed}");
                assert_eq!(found_cost, evaluate_function(&graph, &found, &cost));
                assert!(found_cost >= optimum.cost - 1e-9, "seed {seed}: {found_cost} < optimum {}", optimum.cost);
            }
            reached +=
                usize::from(follow_links(&graph, &links, &cost, Duration::from_secs(10)).1 <= optimum.cost + 1e-9);
        }
        assert!(reached >= 20, "the optimum's own links reached it only {reached} times");
    }

    /// The kicks are seeded, so the search is a function of the program (given a budget it
    /// does not exhaust): the same start twice gives the same clustering.
    #[test]
    fn is_deterministic() {
        let graph = random_graph(60, 3);
        let cost = CostFunction::single(CostModel::ReadsWrites);
        let start = greedy(&graph, true);
        let first = improve(&graph, start.clone(), &cost, Duration::from_secs(600), KICKS);
        let second = improve(&graph, start, &cost, Duration::from_secs(600), KICKS);
        assert_eq!(first, second);
    }

    /// A budget of zero returns the start unchanged; on a program of 100 combinators the
    /// search improves on greedy under the default cost.
    #[test]
    fn respects_its_budget_and_improves_a_large_program() {
        let graph = random_graph(100, 0);
        let cost = CostFunction::single(CostModel::ReadsWrites);
        let start = greedy(&graph, true);
        let start_cost = evaluate_function(&graph, &start, &cost);
        let (same, same_cost) = improve(&graph, start.clone(), &cost, Duration::ZERO, KICKS);
        assert_eq!((same, same_cost), (start.clone(), start_cost));
        let (found, found_cost) = improve(&graph, start, &cost, Duration::from_secs(60), KICKS);
        assert_eq!(validate(&graph, &found), Ok(()));
        assert!(found_cost < start_cost, "{found_cost} vs greedy {start_cost}");
    }
}
