//! The fusion ILP, built as solver-neutral data (`fusion_solver::Model`).
//!
//! Three formulations (pass option `formulation=`):
//! * `gather`: seed 000 Fig. 4 as printed: π, x, m, dᵒ/dⁱ with the paper's big-M
//!   constants (n for π, g+2 for orders), x fixed to 1 on infusible edges; plus the
//!   scatter precedences of (9) and the separation of pairs whose iteration sizes are
//!   incompatible (seed 001 §1.3.6), which seed 000's combinators never produce.
//! * `robinson`: seed 001 Fig. 1.14: pairwise x variables over the pairs that
//!   `possible` keeps (fusion-preventing-path pruning, Fig. 1.13), c variables, the
//!   concestor constraints and the weighted objective; plus one direction (0 or 1) per
//!   loop, since this dialect has right scans, and gather sources as fusion-preventing
//!   edges, as in seed 001. Its objective rewards unrelated loops of one size in one
//!   cluster, which seed 000 §4.1 splits, so its optimum can be only a lower bound
//!   (the driver then reports `unproven`).
//! * `combined` (default): seed 000's linear formulation with seed 001's size rules per
//!   fused edge, so gathers and filters fuse in one program, and every bound, fixing
//!   and cut proved in its comment: π bounds from chains of strict arcs
//!   (`pi_bounds`), pairs that can never share a cluster (`apart_pairs`), order
//!   bounds from the reachable gathers (`order_upper_bounds`), per-pair big-M
//!   constants, path inequalities (`add_path_cuts`), outputs whose consumers conflict
//!   fixed manifest (`consumers_conflict`), reads saved only by sharing with a memory
//!   reader (`add_reads`), and the cycle inequalities that SCIP separates during the
//!   solve (`cycle_cuts.rs`, built by `cycle_separator`).
//!
//! The cost `clusters` counts real loops in both linear formulations
//! (`add_cluster_count`), not the "imaginary target" π_max + 1 of seed 000 §4.1.
//!
//! Every formulation is checked against the exhaustive search of
//! `exhaustive` on random programs (tests/src/optimality.rs).
//! Reading the solution back (seed 000 §4.1 "Performance and correctness") is
//! `Ilp::clustering`.

use super::clustering::Clustering;
use super::cost::{CostFunction, CostModel};
use super::cycle_cuts::{self, CycleCuts, Strictness};
use super::graph::{Access, Graph, NodeId, NodeKind, ORDER_BACKWARD, ORDER_FORWARD, Order};
use fusion_solver::{Branching, GeneralCuts, Heuristics, Model, Sense, VarId, VarKind};
use indexmap::IndexMap;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::str::FromStr;

/// Which ILP to build (pass option `formulation=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Formulation {
    #[default]
    Combined,
    Gather,
    Robinson,
}

impl FromStr for Formulation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "combined" => Ok(Formulation::Combined),
            "gather" => Ok(Formulation::Gather),
            "robinson" => Ok(Formulation::Robinson),
            other => Err(format!("unknown formulation '{other}' (expected combined, gather or robinson)")),
        }
    }
}

impl fmt::Display for Formulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Formulation::Combined => "combined",
            Formulation::Gather => "gather",
            Formulation::Robinson => "robinson",
        })
    }
}

/// Why a model could not be built for this graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormulationError(pub String);

impl fmt::Display for FormulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A built model and the variables needed to read a solution back.
#[derive(Clone, Debug)]
pub struct Ilp {
    pub formulation: Formulation,
    pub model: Model,
    /// π of every node (position in the cluster order).
    pi: Vec<VarId>,
    /// Output order dᵒ of every node, when it has a variable.
    order: Vec<Option<VarId>>,
    /// x of node pairs (smaller index first): 0 when fused.
    x: IndexMap<(NodeId, NodeId), VarId>,
    /// Constant added to the objective value to report the cost model's value.
    pub objective_offset: f64,
    /// The model's cycle inequalities, separated during the solve (`combined` only).
    pub cycle_cuts: Option<CycleCuts>,
    /// Pairs kept in different π levels for their iteration sizes, with the binary that
    /// says which comes first ([`separate_incompatible_sizes`]).
    size_pairs: Vec<(NodeId, NodeId, VarId)>,
    /// Whether the objective counts clusters through π ([`add_cluster_count`]).
    counts_clusters: bool,
    /// The share variables z with their two readers ([`share_variable`]).
    shares: Vec<(NodeId, NodeId, VarId)>,
}

/// Variables and rows are named after nodes; names of nodes are SSA names that may
/// repeat across the graph in principle, so the node index is part of every name.
fn vname(graph: &Graph, prefix: &str, n: NodeId) -> String {
    format!("{prefix}_{}_{}", n.0, graph.node(n).name)
}

fn pair_key(a: NodeId, b: NodeId) -> (NodeId, NodeId) {
    if a <= b { (a, b) } else { (b, a) }
}

/// Whether some path from `a` to `b` exists and whether one contains an infusible
/// edge (seed 001 Fig. 1.13 `possible`).
fn reachability(graph: &Graph) -> (Vec<Vec<bool>>, Vec<Vec<bool>>) {
    let n = graph.nodes.len();
    let mut reach = vec![vec![false; n]; n];
    let mut preventing = vec![vec![false; n]; n];
    // Process nodes in reverse program order: successors are already complete.
    for a in (0..n).rev() {
        for (_, e) in graph.out_edges(NodeId(a)) {
            let b = e.to.0;
            reach[a][b] = true;
            if !e.fusible {
                preventing[a][b] = true;
            }
            for c in 0..n {
                if reach[b][c] {
                    reach[a][c] = true;
                    if preventing[b][c] || !e.fusible {
                        preventing[a][c] = true;
                    }
                }
            }
        }
    }
    (reach, preventing)
}

/// seed 001 Fig. 1.13: no path between `a` and `b` (either way) has an infusible edge.
fn possible(preventing: &[Vec<bool>], a: NodeId, b: NodeId) -> bool {
    !preventing[a.0][b.0] && !preventing[b.0][a.0]
}

/// The parent transducer of a node (seed 001 Fig. 1.7): the transducer whose output
/// size is the node's iteration size. `parents` is [`Graph::parent_transducers`].
fn parent_transducer(parents: &[Option<NodeId>], n: NodeId) -> Option<NodeId> {
    parents[n.0].filter(|t| *t != n)
}

/// Compatible concestors of `a` and `b` with their distance (seed 001 Fig. 1.8).
fn concestors_with_distance(
    graph: &Graph,
    parents: &[Option<NodeId>],
    a: NodeId,
    b: NodeId,
    fuel: usize,
) -> Option<(NodeId, NodeId, usize)> {
    let (ia, ib) = (graph.node(a).iteration?, graph.node(b).iteration?);
    if ia == ib {
        return Some((a, b, 0));
    }
    if fuel == 0 {
        return None;
    }
    let pa = parent_transducer(parents, a).and_then(|a2| concestors_with_distance(graph, parents, a2, b, fuel - 1));
    let pb = parent_transducer(parents, b).and_then(|b2| concestors_with_distance(graph, parents, a, b2, fuel - 1));
    let closest = match (pa, pb) {
        (Some(l), Some(r)) => Some(if l.2 <= r.2 { l } else { r }),
        (l, r) => l.or(r),
    };
    closest.map(|(x, y, d)| (x, y, d + 1))
}

/// `concestors(a, b)` of seed 001 Fig. 1.8, or `None` (⊥).
///
/// The validator has its own implementation (`validate::concestors`) on purpose: every
/// clustering this formulation produces is checked by the validator, so a defect here
/// must not be hidden by the same defect there. `parents` is [`Graph::parent_transducers`].
fn concestors(graph: &Graph, parents: &[Option<NodeId>], a: NodeId, b: NodeId) -> Option<(NodeId, NodeId)> {
    concestors_with_distance(graph, parents, a, b, graph.nodes.len() * 2).map(|(x, y, _)| (x, y))
}

/// The graph as seed 001 sees it: a gather reads its source at computed indices, so
/// that edge prevents fusion (seed 001 Fig. 1.10).
fn seed001_view(graph: &Graph) -> Graph {
    let mut view = graph.clone();
    for e in &mut view.edges {
        if matches!(e.access, Access::GatherSource { .. }) {
            e.fusible = false;
        }
    }
    view
}

/// Builder state shared by the formulations.
struct Builder<'g> {
    graph: &'g Graph,
    model: Model,
    pi: Vec<VarId>,
    order: Vec<Option<VarId>>,
    /// Per fold, and per gather that loads its indices, whose order may be the label of a
    /// gather that loads its indices: the binary that is 1 exactly when it is
    /// ([`add_output_orders`]).
    loaded_gather: Vec<Option<VarId>>,
    x: IndexMap<(NodeId, NodeId), VarId>,
    /// Pairs no legal clustering puts in one cluster ([`apart_pairs`]), when computed.
    apart: Option<Vec<Vec<bool>>>,
    /// Pairs of x that cannot both be 0 ([`add_order_conflict_cuts`]), smaller first.
    order_conflicts: BTreeSet<(VarId, VarId)>,
    /// Whether every legal clustering has an integer point whose loop clusters are
    /// numbered 1, 2, …, C in π ([`pi_bounds`]: `combined` only), which the cluster count
    /// uses (`add_cluster_count`).
    compact_pi: bool,
    /// See [`Ilp::size_pairs`].
    size_pairs: Vec<(NodeId, NodeId, VarId)>,
    /// See [`Ilp::counts_clusters`].
    counts_clusters: bool,
    /// See [`Ilp::shares`].
    shares: Vec<(NodeId, NodeId, VarId)>,
    /// Each node's parent transducer ([`Graph::parent_transducers`]), for the concestors.
    parents: Vec<Option<NodeId>>,
}

impl<'g> Builder<'g> {
    fn new(graph: &'g Graph, name: &str, pi_upper: f64) -> Self {
        let mut model = Model::new(name, Sense::Minimize);
        let pi = graph
            .node_ids()
            .map(|n| model.add_variable(vname(graph, "pi", n), VarKind::Integer, 0.0, pi_upper))
            .collect();
        Builder {
            graph,
            model,
            pi,
            order: vec![None; graph.nodes.len()],
            loaded_gather: vec![None; graph.nodes.len()],
            x: IndexMap::new(),
            apart: None,
            order_conflicts: BTreeSet::new(),
            compact_pi: false,
            size_pairs: Vec::new(),
            counts_clusters: false,
            shares: Vec::new(),
            parents: graph.parent_transducers(),
        }
    }

    fn x_var(&mut self, a: NodeId, b: NodeId) -> VarId {
        let key = pair_key(a, b);
        if let Some(v) = self.x.get(&key) {
            return *v;
        }
        let name = format!("x_{}_{}_{}_{}", key.0.0, self.graph.node(key.0).name, key.1.0, self.graph.node(key.1).name);
        let v = self.model.add_variable(name, VarKind::Binary, 0.0, 1.0);
        self.x.insert(key, v);
        v
    }

    /// The x of the pair (a, c) when it exists and is not fixed to 1 (never fused).
    fn free_x(&self, a: NodeId, c: NodeId) -> Option<VarId> {
        self.x.get(&pair_key(a, c)).copied().filter(|x| self.model.variables[x.0].lower < 0.5)
    }

    fn row(&mut self, name: String, terms: Vec<(VarId, f64)>, lower: f64, upper: f64) {
        self.model.add_row(name, terms, lower, upper);
    }

    /// `lo·x <= π_b − π_a <= hi·x` (seed 000 (5), seed 001 §1.4.3).
    fn precedence(&mut self, a: NodeId, b: NodeId, x: VarId, lo: f64, hi: f64, tag: &str) {
        let (pa, pb) = (self.pi[a.0], self.pi[b.0]);
        self.row(format!("{tag}_lo_{}_{}", a.0, b.0), vec![(pb, 1.0), (pa, -1.0), (x, -lo)], 0.0, f64::INFINITY);
        self.row(format!("{tag}_hi_{}_{}", a.0, b.0), vec![(pb, 1.0), (pa, -1.0), (x, -hi)], f64::NEG_INFINITY, 0.0);
    }

    /// `π_b − π_a >= 1`: b runs in a later cluster than a.
    fn strictly_after(&mut self, a: NodeId, b: NodeId, tag: &str) {
        let (pa, pb) = (self.pi[a.0], self.pi[b.0]);
        self.row(format!("{tag}_{}_{}", a.0, b.0), vec![(pb, 1.0), (pa, -1.0)], 1.0, f64::INFINITY);
    }
}

/// Whether an edge may be fused over at all: fusible by kind, both ends real loops,
/// and iteration sizes compatible (seed 001 §1.4.3 "Fusion between different iteration
/// sizes": the consumer's iteration size is the producer's, or the producer is a
/// transducer whose output size it is).
fn edge_size_compatible(graph: &Graph, a: NodeId, b: NodeId) -> bool {
    let (na, nb) = (graph.node(a), graph.node(b));
    if !na.kind.is_fusible_kind() || !nb.kind.is_fusible_kind() {
        return false;
    }
    match (na.iteration, nb.iteration) {
        (None, _) | (_, None) => false,
        (Some(ia), Some(ib)) => {
            ia == ib
                || na.output_size == Some(ib)
                // A gather pushes its index into the producer of its source: the
                // producer then runs over the gather's iteration space (seed 000 §3.3).
                || graph.edges.iter().any(|e| e.from == a && e.to == b && matches!(e.access, Access::GatherSource { .. }))
        }
    }
}

/// An ordering requirement between two nodes: `later` runs in a cluster no earlier than
/// `earlier`'s, strictly later when `strict`.
#[derive(Clone, Copy, Debug)]
struct Arc {
    earlier: NodeId,
    later: NodeId,
    strict: bool,
}

/// Every ordering requirement of a clustering: each edge (strict when its pair can never
/// be fused) and each scatter precedence of seed 000 (9) (always strict; it is no
/// edge of the graph).
fn precedence_arcs(graph: &Graph, can_fuse: impl Fn(NodeId, NodeId) -> bool) -> Vec<Arc> {
    let mut arcs: Vec<Arc> =
        graph.edges.iter().map(|e| Arc { earlier: e.from, later: e.to, strict: !can_fuse(e.from, e.to) }).collect();
    for (earlier, later) in scatter_precedence_pairs(graph) {
        arcs.push(Arc { earlier, later, strict: true });
    }
    arcs
}

/// Sound bounds on π for the `combined` formulation.
///
/// **Claim.** Let P be the number of non-argument nodes. Every legal clustering can be
/// numbered so that arguments have π = 0, every other cluster has its own π in 1..=P
/// (a topological numbering of the non-argument clusters, which are at most P), and
/// for every node a: `into(a) ≤ π_a ≤ P − out_of(a)`, where `into(a)` (`out_of(a)`)
/// is the largest number of strict arcs on a chain of arcs ending (starting) at a.
///
/// **Proof.** A legal clustering orders its clusters so that every arc goes forward or
/// stays inside a cluster, and every strict arc goes strictly forward (validator rules
/// 2 and 4). Number the non-argument clusters 1, 2, … in such an order; arguments are
/// clusters with no incoming arc, so π = 0 keeps every arc out of them forward. Along a
/// chain, π never decreases and rises by at least 1 at every strict arc, so a chain
/// with k strict arcs ending at a starts at π ≥ 0 and gives π_a ≥ k; one starting at
/// a ends at π ≤ P and gives π_a ≤ P − k. ∎
///
/// Distinct π for distinct clusters also means the read-back (nodes grouped by π) finds
/// exactly the clusters of the numbered clustering, so the model loses no clustering.
/// Returns `None` when the arcs have a cycle (no legal clustering at all).
struct PiBounds {
    levels: usize,
    lower: Vec<usize>,
    upper: Vec<usize>,
}

/// Each node's successors, with the arc's strictness (1 or 0).
type Successors = Vec<Vec<(usize, usize)>>;

/// A topological order of the nodes under `arcs` (Kahn), and the successors of each
/// node with the arc's strictness (1 or 0); `None` when the arcs have a cycle.
fn topological(n: usize, arcs: &[Arc]) -> Option<(Vec<usize>, Successors)> {
    let mut indegree = vec![0usize; n];
    let mut succ: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for a in arcs {
        indegree[a.later.0] += 1;
        succ[a.earlier.0].push((a.later.0, usize::from(a.strict)));
    }
    let mut order: Vec<usize> = (0..n).filter(|v| indegree[*v] == 0).collect();
    let mut i = 0;
    while i < order.len() {
        let v = order[i];
        i += 1;
        for &(w, _) in &succ[v] {
            indegree[w] -= 1;
            if indegree[w] == 0 {
                order.push(w);
            }
        }
    }
    (order.len() == n).then_some((order, succ))
}

fn pi_bounds(graph: &Graph, arcs: &[Arc]) -> Option<PiBounds> {
    let n = graph.nodes.len();
    let levels = graph.nodes.iter().filter(|nd| nd.kind != NodeKind::Input).count();
    let (order, succ) = topological(n, arcs)?;
    let mut into = vec![0usize; n];
    for &v in &order {
        for &(w, strict) in &succ[v] {
            into[w] = into[w].max(into[v] + strict);
        }
    }
    let mut out_of = vec![0usize; n];
    for &v in order.iter().rev() {
        for &(w, strict) in &succ[v] {
            out_of[v] = out_of[v].max(out_of[w] + strict);
        }
    }
    let mut lower = into;
    let mut upper: Vec<usize> = out_of.iter().map(|o| levels.saturating_sub(*o)).collect();
    for v in graph.node_ids() {
        if graph.node(v).kind == NodeKind::Input {
            lower[v.0] = 0;
            upper[v.0] = 0;
        }
    }
    Some(PiBounds { levels, lower, upper })
}

/// Pairs of nodes that no legal clustering puts in one cluster: `apart[a][b]` when a
/// chain of arcs from a to b, or from b to a, contains a strict arc.
///
/// **Proof.** A legal clustering runs its clusters in a sequence where every arc goes
/// forward or stays inside a cluster and every strict arc goes strictly forward
/// (validator rules 2 and 4), so the last node of such a chain is in a strictly later
/// cluster than the first. (Seed 001 Fig. 1.13's fusion-preventing paths, with scatter
/// precedences counted as arcs.)
fn apart_pairs(n: usize, arcs: &[Arc]) -> Option<Vec<Vec<bool>>> {
    let (order, succ) = topological(n, arcs)?;
    // reach[a][b]: 0 none, 1 a chain without a strict arc, 2 a chain with one.
    let mut reach = vec![vec![0u8; n]; n];
    for &a in order.iter().rev() {
        let mut row = std::mem::take(&mut reach[a]);
        for &(w, strict) in &succ[a] {
            let via = if strict == 1 { 2 } else { 1 };
            row[w] = row[w].max(via);
            for (t, &r) in reach[w].iter().enumerate() {
                if r > 0 {
                    let through = if strict == 1 { 2 } else { r };
                    if through > row[t] {
                        row[t] = through;
                    }
                }
            }
        }
        reach[a] = row;
    }
    let mut apart = vec![vec![false; n]; n];
    for a in 0..n {
        for b in 0..n {
            if reach[a][b] == 2 {
                apart[a][b] = true;
                apart[b][a] = true;
            }
        }
    }
    Some(apart)
}

/// The largest output order each node can have in any feasible point of the linear
/// formulations, given the pairs that may be fused.
///
/// **Proof.** An output with an order ≥ 2 must be fused away (seed 000 (11)), so every
/// consumer of it is fused with the node and, by (12), reads it in exactly that order:
/// a gather reading it as its source in order `label`, or a node reading it in its own
/// output order, which is then ≥ 2 too. By induction from the last node backwards the
/// order is at most the largest label reachable this way. A node with an output that
/// must stay manifest (it escapes, or a consumer can never be fused with it) has order
/// 0 or 1. A node whose outputs nobody reads is unconstrained (g + 1).
fn order_upper_bounds(graph: &Graph, can_fuse: impl Fn(NodeId, NodeId) -> bool) -> Vec<u32> {
    let g = graph.gather_count();
    let mut upper = vec![1u32; graph.nodes.len()];
    for node in (0..graph.nodes.len()).rev().map(NodeId) {
        let nd = graph.node(node);
        let mut up = 1;
        let mut any_use = false;
        let mut manifest = false;
        for output in 0..nd.outputs {
            manifest |= nd.output_escapes(output);
        }
        for (_, e) in graph.out_edges(node) {
            any_use = true;
            if !e.fusible || !can_fuse(e.from, e.to) {
                manifest = true;
                continue;
            }
            up = up.max(match e.access {
                Access::GatherSource { label } => label,
                Access::InOutputOrder if e.to > node => upper[e.to.0],
                _ => g + 1,
            });
        }
        upper[node.0] = if manifest {
            1
        } else if !any_use {
            g + 1
        } else {
            up
        };
    }
    upper
}

/// Builds the ILP of `formulation` for `graph` under `cost`.
pub fn build(graph: &Graph, formulation: Formulation, cost: &CostFunction) -> Result<Ilp, FormulationError> {
    match formulation {
        Formulation::Robinson => build_robinson(graph, cost),
        Formulation::Gather | Formulation::Combined => build_linear(graph, formulation, cost),
    }
}

/// seed 000 Fig. 4 (`gather`), or its tightened and size-aware version (`combined`).
fn build_linear(graph: &Graph, formulation: Formulation, cost: &CostFunction) -> Result<Ilp, FormulationError> {
    let exact = formulation == Formulation::Gather;
    let n = graph.nodes.len();
    let g = graph.gather_count() as f64;
    let (fusible_pairs, apart) = reduced_fusible_pairs(graph, exact)?;
    let can_fuse = |a: NodeId, c: NodeId| fusible_pairs.contains(&(a, c));
    let bounds =
        if exact { None } else { Some(pi_bounds(graph, &precedence_arcs(graph, can_fuse)).ok_or_else(cycle_error)?) };
    // Used for the order variables' bounds in `combined` only (the paper's are g + 1),
    // and by both to find the pairs of [`separate_incompatible_sizes`].
    let order_upper = order_upper_bounds(graph, can_fuse);
    let pi_upper = bounds.as_ref().map_or(n as f64, |b| b.levels as f64);
    let mut b = Builder::new(graph, &format!("fusion_{formulation}"), pi_upper);
    b.apart = apart;
    b.compact_pi = bounds.is_some();
    if let Some(bounds) = &bounds {
        for node in graph.node_ids() {
            let v = &mut b.model.variables[b.pi[node.0].0];
            v.lower = bounds.lower[node.0] as f64;
            v.upper = bounds.upper[node.0] as f64;
            // Branch on the fusion decisions before the positions: once x, z, d and
            // the size binaries are integral, the rows on π are difference constraints
            // with integer constants (a network matrix), so the LP's vertex π is
            // integral and branching on π is rarely needed. A search hint only.
            v.branch_priority = -1;
        }
    }
    add_output_orders(&mut b, exact, &order_upper);
    let fused_candidates = add_precedences(&mut b, exact, can_fuse);
    if !exact {
        forward_where_nothing_runs_backward(&mut b);
        add_order_conflict_cuts(&mut b);
    }
    let manifest_terms = add_manifest_variables(&mut b, exact, g, &fused_candidates);
    add_matching_orders(&mut b, exact, if exact { g + 2.0 } else { g + 1.0 }, &fused_candidates);
    scatter_precedences(&mut b);
    separate_incompatible_sizes(&mut b, &order_upper);

    let (offset, cycle_cuts) = add_linear_objective(&mut b, cost, &manifest_terms, &fused_candidates, exact)?;
    if !exact {
        // A fusion decision fixes many others by propagation (equal π and orders along
        // fused edges, the cycle and conflict rows), which inference branching rewards.
        // Measured with fusion-bench at n = 100 over 20 seeds: median 2.8 s → 1.2 s.
        b.model.branching = Branching::Inference;
        // On small models SCIP's primal heuristics cost more than they find: the warm
        // start (greedy + local search, completed by `completesol`) is near the optimum,
        // and the time goes into proving it. With only `completesol`, fusion-bench at
        // n = 100 over 20 seeds (about 700-850 variables): median 1.2 s -> 0.66 s, all
        // optimal. On larger ones the heuristics find better incumbents before a time
        // limit (n = 200, seed 1: cost 249 against 260; n = 1000: an incumbent with a
        // bound, 16 % gap, where the warm start alone has no bound), so they stay on there.
        if b.model.variables.len() <= WARM_START_ONLY_UP_TO_VARIABLES {
            b.model.heuristics = Heuristics::WarmStartOnly;
        }
    }
    Ok(Ilp {
        formulation,
        model: b.model,
        pi: b.pi,
        order: b.order,
        x: b.x,
        objective_offset: offset,
        cycle_cuts,
        size_pairs: b.size_pairs,
        counts_clusters: b.counts_clusters,
        shares: b.shares,
    })
}

/// The largest model (in variables) that SCIP solves with lazy rows in place of the
/// rows on π ([`Ilp::lazy_model`]). Measured with `fusion-bench --formulations
/// combined --time-limit 30`, the full model against the lazy one: random programs of
/// 300 combinators (about 2200 variables) ended with cheaper clusterings and higher
/// bounds (341 and 362 against 350 and 365), of 500 (3600–3900) with clusterings within
/// 4 of each other and bounds 5–8 higher, of 1000 (7800) with the warm start's
/// clusterings (1350, 1352) where the full model's heuristics found 1320 and 1337.
const LAZY_UP_TO_VARIABLES: usize = 5000;

/// The largest lazy model whose general-purpose cuts run at the root only
/// (`Ilp::lazy_model`): random programs of 100 combinators have about 650–800
/// variables, of 150 about 950–1300, of 200 about 1400–1550.
const ROOT_ONLY_CUTS_UP_TO_VARIABLES: usize = 1000;

/// The size (in variables) above which a lazy model's root LP is also turned into a
/// clustering by the driver's heuristic (`local_search::LpGuided`): models where SCIP's
/// searching heuristics are off and its deeper cuts on. Measured with `fusion-bench
/// --formulations combined --time-limit 30`, with and without it, one after the other:
/// n = 300 seed 0 proven in 14.3 s against 17.9 s, n = 500 seed 1 ended at 653 against
/// its warm start 674, the other two programs the same; at n = 200 (below) seed 1
/// ended at 244 against 242 and seeds 0 and 4 took 0.2–0.4 s longer, so it stays off there.
pub const LP_GUIDED_ABOVE_VARIABLES: usize = 2000;

/// The size (in variables) above which a lazy model's root LP is also turned into an
/// incumbent by solving the model with the fusion decisions the LP decides fixed
/// (`rens::FixIntegralDecisions`; up to [`LP_GUIDED_ABOVE_VARIABLES`], where
/// `LpGuided` takes over). Measured with `fusion-bench --formulations combined
/// --time-limit 30`, without and with it, one after the other (docs/ilp-measurements.md):
/// random programs of 200 combinators (about 1400–1650 variables), seeds 0–9,
/// the proven ones took a median of 301 nodes against 468 (seeds 4, 5, 6: 283, 394, 258
/// against 452, 724, 939; seeds 8 and 9 the same), and the median solve 12.9 s against
/// 13.7 s; of 100 (650–800 variables), 20 seeds, the root LP leaves more of the
/// decisions open (43 of 99 on seed 2), the completion took its whole 1.5 s there and
/// all twenty took 21.3 s against 16.2 s, so it stays off there.
pub const RENS_ABOVE_VARIABLES: usize = 1000;

/// The size (in variables) above which the lazy rows also propagate at every node of
/// SCIP's search (`CycleCuts::implied`, set by the driver): fixing inactive the links
/// that would close a cycle through a strict arc, and cutting off nodes whose fixed
/// links already do. Measured with `fusion-bench --formulations combined`, the binary
/// without and the one with it side by side: random programs of 200 combinators
/// (about 1400–1650 variables), 10 seeds at a 45 s limit, all ten 195 s → 168 s,
/// 8 → 9 proven, median 16.1 → 10.6 s; of 100 (650–800), 20 seeds at 30 s, all
/// twenty 10.1 → 11.3 s, median 0.44 → 0.52 s, so it stays off there.
pub const PROPAGATE_ABOVE_VARIABLES: usize = ROOT_ONLY_CUTS_UP_TO_VARIABLES;

/// The largest model (in variables) solved with the warm start as its only primal
/// heuristic; see `build`.
const WARM_START_ONLY_UP_TO_VARIABLES: usize = 1000;

fn cycle_error() -> FormulationError {
    FormulationError("the dependence graph has a cycle of ordering requirements; no clustering is legal".into())
}

/// Producer–consumer pairs of nodes.
type NodePairs = BTreeSet<(NodeId, NodeId)>;

/// `apart[u][v]`: nodes u and v are never in one cluster ([`apart_pairs`]).
type ApartMatrix = Vec<Vec<bool>>;

/// The producer–consumer pairs the ILP may fuse, with the apart pairs when computed.
///
/// seed 000 Fig. 4 as printed (`exact`): every fusible edge. `combined` also drops pairs
/// whose iteration sizes are incompatible, pairs that are never in one cluster
/// ([`apart_pairs`]) and pairs whose orders can never agree over their edges, repeated
/// until nothing changes, since every removal makes an arc strict.
fn reduced_fusible_pairs(graph: &Graph, exact: bool) -> Result<(NodePairs, Option<ApartMatrix>), FormulationError> {
    let mut fusible_pairs: BTreeSet<(NodeId, NodeId)> = graph
        .edges
        .iter()
        .filter(|e| e.fusible && (exact || edge_size_compatible(graph, e.from, e.to)))
        .map(|e| (e.from, e.to))
        .collect();
    if exact {
        return Ok((fusible_pairs, None));
    }
    loop {
        let arcs = precedence_arcs(graph, |a, c| fusible_pairs.contains(&(a, c)));
        let pairs = apart_pairs(graph.nodes.len(), &arcs).ok_or_else(cycle_error)?;
        let before = fusible_pairs.len();
        fusible_pairs.retain(|(a, c)| !pairs[a.0][c.0]);
        let upper = order_upper_bounds(graph, |a, c| fusible_pairs.contains(&(a, c)));
        let range = |v: NodeId| order_range(graph, &upper, v);
        fusible_pairs.retain(|&(a, c)| required_producer_order(graph, a, c, range).is_some());
        if fusible_pairs.len() == before {
            return Ok((fusible_pairs, Some(pairs)));
        }
    }
}

/// Output order variables dᵒ ∈ [0, g+1] (`combined`: [0, the bound of
/// [`order_upper_bounds`]]), fixed where the combinator fixes them (seed 000 Fig. 4:
/// scanl 0, scanr 1; filter/expand stream in order 0; a scatter combines in source
/// order, 0), and never 1 for a fold whose combine may not commute
/// ([`NodeKind::may_run_backward`]). Every fold, and every gather that loads its
/// indices, that may run in the order of a gather that loads its indices gets a binary
/// `loaded_gather` = [dᵒ ≥ T], T = [`Graph::first_loaded_index_label`], which the costs
/// `gathered-folds` and `chained-gathers` weigh.
///
/// **The hole at 1.** For a fold whose combine may not commute, with upper bound U: when
/// U ≤ 1 its order is 0;
/// otherwise a binary `at_gather` with 2·at_gather ≤ dᵒ ≤ U·at_gather. Exact: at_gather = 0
/// gives dᵒ = 0, at_gather = 1 gives 2 ≤ dᵒ ≤ U, so dᵒ ranges over {0} ∪ [2, U], which is
/// every order the fold may have, and no other.
///
/// **`loaded_gather`.** For such a node with upper bound U ≥ T:
/// T·loaded_gather ≤ dᵒ ≤ (T − 1) + (U − T + 1)·loaded_gather.
/// loaded_gather = 0 gives dᵒ ≤ T − 1, loaded_gather = 1
/// gives T ≤ dᵒ ≤ U: together every value of [0, U], each with loaded_gather = [dᵒ ≥ T],
/// so the binary is exact whatever sign the objective gives it. A node with U < T has
/// dᵒ < T in every feasible point and counts 0.
fn add_output_orders(b: &mut Builder, exact: bool, order_upper: &[Order]) {
    let graph = b.graph;
    let g = graph.gather_count() as f64;
    for node in graph.node_ids() {
        let kind = graph.node(node).kind;
        if !kind.is_fusible_kind() {
            continue;
        }
        let (lo, mut hi) = match kind.fixed_output_order() {
            Some(o) => (o as f64, o as f64),
            None if exact => (0.0, g + 1.0),
            None => (0.0, order_upper[node.0] as f64),
        };
        if !kind.may_run_backward() && hi <= 1.0 {
            hi = 0.0;
        }
        let d = b.model.add_variable(vname(graph, "d", node), VarKind::Integer, lo, hi);
        b.order[node.0] = Some(d);
        if !kind.may_run_backward() && hi >= 2.0 {
            let at_gather = b.model.add_variable(vname(graph, "at_gather", node), VarKind::Binary, 0.0, 1.0);
            b.row(format!("not_backward_lo_{}", node.0), vec![(d, 1.0), (at_gather, -2.0)], 0.0, f64::INFINITY);
            b.row(format!("not_backward_hi_{}", node.0), vec![(d, 1.0), (at_gather, -hi)], f64::NEG_INFINITY, 0.0);
        }
        let first_loaded = graph.first_loaded_index_label() as f64;
        if charged_in_loaded_gather_order(graph, kind).is_some() && hi >= first_loaded {
            let y = b.model.add_variable(vname(graph, "loaded_gather", node), VarKind::Binary, 0.0, 1.0);
            b.row(format!("loaded_gather_lo_{}", node.0), vec![(d, 1.0), (y, -first_loaded)], 0.0, f64::INFINITY);
            b.row(
                format!("loaded_gather_hi_{}", node.0),
                vec![(d, 1.0), (y, -(hi - first_loaded + 1.0))],
                f64::NEG_INFINITY,
                first_loaded - 1.0,
            );
            b.loaded_gather[node.0] = Some(y);
        }
    }
}

/// The cost model that charges a node of `kind` for running in the order of a gather
/// that loads its indices: a fold (`gathered-folds`), or a gather that loads its own
/// indices (`chained-gathers`); `None` for every other node.
fn charged_in_loaded_gather_order(graph: &Graph, kind: NodeKind) -> Option<CostModel> {
    match kind {
        NodeKind::Fold { .. } => Some(CostModel::GatheredFolds),
        NodeKind::Gather { label } if label >= graph.first_loaded_index_label() => Some(CostModel::ChainedGathers),
        _ => None,
    }
}

/// x on node pairs and the precedences of seed 000 (2)-(5); returns the pairs that may
/// be fused (each once).
fn add_precedences(b: &mut Builder, exact: bool, can_fuse: impl Fn(NodeId, NodeId) -> bool) -> Vec<(NodeId, NodeId)> {
    let graph = b.graph;
    let n = graph.nodes.len() as f64;
    let mut fused_candidates: Vec<(NodeId, NodeId)> = Vec::new();
    let mut seen_pairs = BTreeSet::new();
    for e in &graph.edges {
        if !seen_pairs.insert((e.from, e.to)) {
            continue;
        }
        if can_fuse(e.from, e.to) {
            let x = b.x_var(e.from, e.to);
            // π_b − π_a ≤ M·x: M = n in the paper; in `combined` the largest value
            // π_b − π_a can take within the bounds.
            let m = if exact {
                n
            } else {
                let bound = |v: VarId| (b.model.variables[v.0].lower, b.model.variables[v.0].upper);
                let ((lo_a, _), (_, hi_b)) = (bound(b.pi[e.from.0]), bound(b.pi[e.to.0]));
                (hi_b - lo_a).max(1.0)
            };
            b.precedence(e.from, e.to, x, 1.0, m, "prec");
            fused_candidates.push((e.from, e.to));
        } else if exact {
            // seed 000 (4): x_ab = 1 on infusible edges, kept as a fixed variable.
            let x = b.x_var(e.from, e.to);
            b.model.variables[x.0].lower = 1.0;
            b.precedence(e.from, e.to, x, 1.0, n, "prec");
        } else {
            b.strictly_after(e.from, e.to, "after");
        }
    }
    fused_candidates
}

/// m: whether an output array is fused away (1) or manifest (0), seed 000 (6)-(7);
/// (11): a manifest output has order 0 or 1. Returns one term per output that counts
/// (`None`: manifest whatever the clustering).
fn add_manifest_variables(
    b: &mut Builder,
    exact: bool,
    g: f64,
    fused_candidates: &[(NodeId, NodeId)],
) -> Vec<(NodeId, usize, Option<VarId>)> {
    let graph = b.graph;
    let mut manifest_terms: Vec<(NodeId, usize, Option<VarId>)> = Vec::new();
    for node in graph.node_ids() {
        let nd = graph.node(node);
        for output in 0..nd.outputs {
            let out_edges: Vec<_> =
                graph.out_edges(node).filter(|(_, e)| e.output == output).map(|(_, e)| e.clone()).collect();
            if out_edges.is_empty() && !nd.output_escapes(output) && nd.kind.is_fusible_kind() {
                // A dead output: nobody reads it and it is not a result, so the loop
                // need not store it (it counts as fused away, seed 000 (6) with no x).
                continue;
            }
            let always_manifest = !nd.kind.is_fusible_kind()
                || nd.output_escapes(output)
                || out_edges.iter().any(|e| !e.fusible || !fused_candidates.contains(&(e.from, e.to)))
                || (!exact && consumers_conflict(b, node, &out_edges));
            if always_manifest && !exact {
                manifest_terms.push((node, output, None));
                if let Some(d) = b.order[node.0] {
                    b.row(format!("manifest_order_{}_{}", node.0, output), vec![(d, 1.0)], f64::NEG_INFINITY, 1.0);
                }
                continue;
            }
            let m = b.model.add_variable(format!("m_{}_{}_{}", node.0, output, nd.name), VarKind::Binary, 0.0, 1.0);
            if always_manifest {
                b.model.variables[m.0].upper = 0.0;
            }
            manifest_terms.push((node, output, Some(m)));
            for e in &out_edges {
                let x = b.x_var(e.from, e.to);
                // x_ab <= 1 − m_a
                b.row(
                    format!("contract_{}_{}_{}", node.0, output, e.to.0),
                    vec![(x, 1.0), (m, 1.0)],
                    f64::NEG_INFINITY,
                    1.0,
                );
            }
            if let Some(d) = b.order[node.0] {
                // dᵒ_a <= 1 + g·m_a
                b.row(format!("manifest_order_{}_{}", node.0, output), vec![(d, 1.0), (m, -g)], f64::NEG_INFINITY, 1.0);
            }
        }
    }
    manifest_terms
}

/// Whether two consumers of one output of `producer` can never both be fused with it,
/// so the output is manifest in every legal clustering (seed 000 (6): fused away only
/// when every consumer is fused).
///
/// **Proof.** Consumers k and l both fused with the producer share its cluster, so
/// (i) π_k = π_l, which [`apart_pairs`] rules out for apart pairs, and (ii) the
/// producer's order lies in both required ranges, which an order conflict
/// ([`add_order_conflict_cuts`]) rules out.
fn consumers_conflict(b: &Builder, producer: NodeId, out_edges: &[super::graph::Edge]) -> bool {
    let consumers: Vec<NodeId> = out_edges.iter().map(|e| e.to).collect();
    for (i, &k) in consumers.iter().enumerate() {
        for &l in &consumers[i + 1..] {
            if k == l {
                continue;
            }
            if b.apart.as_ref().is_some_and(|apart| apart[k.0][l.0]) {
                return true;
            }
            let (Some(&xk), Some(&xl)) = (b.x.get(&pair_key(producer, k)), b.x.get(&pair_key(producer, l))) else {
                continue;
            };
            if b.order_conflicts.contains(&(xk.min(xl), xk.max(xl))) {
                return true;
            }
        }
    }
    false
}

/// Matching orders over fused edges, seed 000 (12): −M·x <= dᵒ_a − dⁱ_b <= M·x, with
/// M = `order_m` (g + 2 as printed) or, in `combined`, the largest |dᵒ_a − dⁱ_b| the
/// two orders' bounds allow (both lie in [0, max upper]), never more than `order_m`.
fn add_matching_orders(b: &mut Builder, exact: bool, order_m: f64, fused_candidates: &[(NodeId, NodeId)]) {
    let graph = b.graph;
    for (i, e) in graph.edges.iter().enumerate() {
        if !e.fusible || !fused_candidates.contains(&(e.from, e.to)) {
            continue;
        }
        let Some(d_a) = b.order[e.from.0] else { continue };
        let x = b.x_var(e.from, e.to);
        let (read_var, read_const) = match e.access {
            Access::InOutputOrder => (b.order[e.to.0], 0.0),
            Access::GatherSource { label } => (None, label as f64),
            Access::Unordered | Access::ScatterDestination => continue,
        };
        let m = if exact {
            order_m
        } else {
            let upper = |v: VarId| b.model.variables[v.0].upper;
            upper(d_a).max(read_var.map_or(read_const, upper)).clamp(1.0, order_m)
        };
        let mut terms = vec![(d_a, 1.0), (x, m)];
        if let Some(r) = read_var {
            terms.push((r, -1.0));
        }
        b.row(format!("order_lo_{i}"), terms.clone(), read_const, f64::INFINITY);
        let mut terms = vec![(d_a, 1.0), (x, -m)];
        if let Some(r) = read_var {
            terms.push((r, -1.0));
        }
        b.row(format!("order_hi_{i}"), terms, f64::NEG_INFINITY, read_const);
    }
}

/// Two loop nodes whose iteration sizes differ and have no compatible concestors
/// (seed 001 §1.3.6, Fig. 1.8: ⊥) are never in one cluster (validator rule 8), even
/// when no edge joins them: a generate over the rows of a matrix and a fold of that
/// matrix's rows can each be fused into a map over the rows, but not both. Such a pair
/// gets a binary y and π_a ≠ π_b: `π_b − π_a ≥ 1 − M·y`, `π_a − π_b ≥ 1 − M'·(1 − y)`.
///
/// **Proof.** With every cluster numbered apart ([`pi_bounds`]) two nodes of different
/// clusters have different π, so no legal clustering is lost; and nodes with equal π
/// and a link between them are one cluster, which this keeps apart. Pairs where either
/// node may produce in a gather's order (order bound ≥ 2) are left out: rule 8 then
/// compares the gather's size, which may be compatible (never cut a legal clustering;
/// the validator still checks every answer). So are pairs in different
/// [`potential_clusters`], which nothing can join.
fn separate_incompatible_sizes(b: &mut Builder, order_upper: &[u32]) {
    let graph = b.graph;
    let component = potential_clusters(b);
    let loops: Vec<NodeId> = graph
        .node_ids()
        .filter(|n| {
            let nd = graph.node(*n);
            nd.kind.is_fusible_kind() && nd.iteration.is_some() && order_upper[n.0] <= 1
        })
        .collect();
    for (i, &a) in loops.iter().enumerate() {
        for &c in &loops[i + 1..] {
            if graph.node(a).iteration == graph.node(c).iteration
                || component[a.0] != component[c.0]
                || b.apart.as_ref().is_some_and(|apart| apart[a.0][c.0])
                || concestors(graph, &b.parents, a, c).is_some()
            {
                continue;
            }
            let bounds = |v: VarId| (b.model.variables[v.0].lower, b.model.variables[v.0].upper);
            let ((lo_a, hi_a), (lo_c, hi_c)) = (bounds(b.pi[a.0]), bounds(b.pi[c.0]));
            if hi_a < lo_c || hi_c < lo_a {
                continue; // already in different π levels
            }
            let y = b.model.add_variable(format!("y_{}_{}", a.0, c.0), VarKind::Binary, 0.0, 1.0);
            b.size_pairs.push((a, c, y));
            let (pa, pc) = (b.pi[a.0], b.pi[c.0]);
            // y = 0: π_c ≥ π_a + 1; y = 1: π_a ≥ π_c + 1.
            b.row(
                format!("sizes_apart_lo_{}_{}", a.0, c.0),
                vec![(pc, 1.0), (pa, -1.0), (y, 1.0 + hi_a - lo_c)],
                1.0,
                f64::INFINITY,
            );
            b.row(
                format!("sizes_apart_hi_{}_{}", a.0, c.0),
                vec![(pa, 1.0), (pc, -1.0), (y, -(1.0 + hi_c - lo_a))],
                1.0 - (1.0 + hi_c - lo_a),
                f64::INFINITY,
            );
        }
    }
}

/// Per node, a representative of the nodes it could share a cluster with *while both
/// produce in order 0 or 1*: the connected components of the links possible between
/// such nodes (a pair with a free x over an edge read in the consumer's own order, or
/// two loop nodes reading one array in their own orders, which can be equal), leaving
/// out pairs that are apart.
///
/// **Proof** that the nodes of orders 0 and 1 in a legal cluster lie in one component:
/// rule 7 connects the cluster by fused edges and same-order reads, which join nodes
/// of equal order, except a gather's source edge, which joins a node of order ℓ ≥ 2 to
/// the gather labelled ℓ. The nodes of order ℓ are therefore joined to the rest of the
/// cluster only through that one gather, so a path between two nodes of order ≤ 1
/// never needs to leave the nodes of order ≤ 1.
fn potential_clusters(b: &Builder) -> Vec<usize> {
    let graph = b.graph;
    let n = graph.nodes.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let apart = |a: NodeId, c: NodeId| b.apart.as_ref().is_some_and(|ap| ap[a.0][c.0]);
    let join = |a: NodeId, c: NodeId, p: &mut Vec<usize>| {
        if !apart(a, c) {
            let (ra, rc) = (find(p, a.0), find(p, c.0));
            p[ra] = rc;
        }
    };
    for (&(a, c), &x) in &b.x {
        let in_own_order =
            graph.edges.iter().any(|e| e.from == a && e.to == c && e.fusible && e.access == Access::InOutputOrder);
        if b.model.variables[x.0].lower < 0.5 && in_own_order {
            join(a, c, &mut parent);
        }
    }
    for node in graph.node_ids() {
        let readers: Vec<(NodeId, usize, Option<u32>)> = graph
            .out_edges(node)
            .filter(|(_, e)| e.access == Access::InOutputOrder && graph.node(e.to).kind.is_fusible_kind())
            .map(|(_, e)| (e.to, e.output, graph.node(e.to).kind.fixed_output_order()))
            .collect();
        for (i, &(r, out, fixed)) in readers.iter().enumerate() {
            for &(q, out_q, fixed_q) in &readers[i + 1..] {
                let orders_can_meet = fixed.is_none() || fixed_q.is_none() || fixed == fixed_q;
                if out == out_q && orders_can_meet {
                    join(r, q, &mut parent);
                }
            }
        }
    }
    (0..n).map(|i| find(&mut parent, i)).collect()
}

/// The orders node `v` can have: its fixed order, or `0..=upper[v]`.
/// (A fold that may not run backward keeps the range [0, upper] when upper ≥ 2: a
/// superset of its orders, so what is pruned by it is still never legal.)
fn order_range(graph: &Graph, upper: &[u32], v: NodeId) -> (u32, u32) {
    let kind = graph.node(v).kind;
    match kind.fixed_output_order() {
        Some(o) => (o, o),
        None if !kind.may_run_backward() && upper[v.0] <= 1 => (0, 0),
        None => (0, upper[v.0]),
    }
}

fn intersect((lo, hi): (u32, u32), (lo2, hi2): (u32, u32)) -> Option<(u32, u32)> {
    (lo.max(lo2) <= hi.min(hi2)).then_some((lo.max(lo2), hi.min(hi2)))
}

/// The orders producer `a` can have when fused with consumer `c` (seed 000 (12): over
/// every edge between them, `a`'s order is `c`'s read order: `c`'s own order, or a
/// gather's label), within `a`'s own range; `None` when they cannot agree, so the pair
/// can never be fused.
fn required_producer_order(
    graph: &Graph,
    a: NodeId,
    c: NodeId,
    range: impl Fn(NodeId) -> (u32, u32),
) -> Option<(u32, u32)> {
    let mut required = range(a);
    for e in graph.edges.iter().filter(|e| e.from == a && e.to == c && e.fusible) {
        let read = match e.access {
            Access::InOutputOrder => range(c),
            Access::GatherSource { label } => (label, label),
            Access::Unordered | Access::ScatterDestination => continue,
        };
        required = intersect(required, read)?;
    }
    Some(required)
}

/// Order conflicts: two fusible pairs at one node that would require disjoint orders of
/// it cannot both be fused: `x_1 + x_2 ≥ 1`.
///
/// **Proof.** A fused pair (a, c) puts `a`'s order in [`required_producer_order`];
/// when some edge of the pair is read in `c`'s own order, `c`'s order equals `a`'s, so
/// it lies in that range too. If both pairs were fused, the node's order would lie in
/// two disjoint ranges. (The big-M rows of (12) allow both at x ≈ 1/M in the LP.)
fn add_order_conflict_cuts(b: &mut Builder) {
    let graph = b.graph;
    let range = |v: NodeId| match b.order[v.0] {
        Some(d) => (b.model.variables[d.0].lower as u32, b.model.variables[d.0].upper as u32),
        None => (0, 0),
    };
    let mut at: Vec<Vec<((u32, u32), VarId)>> = vec![Vec::new(); graph.nodes.len()];
    for (&(a, c), &x) in &b.x {
        if b.model.variables[x.0].lower >= 0.5 {
            continue;
        }
        let Some(required) = required_producer_order(graph, a, c, range) else { continue };
        at[a.0].push((required, x));
        let own_order =
            graph.edges.iter().any(|e| e.from == a && e.to == c && e.fusible && e.access == Access::InOutputOrder);
        if own_order {
            at[c.0].push((required, x));
        }
    }
    let mut cuts = Vec::new();
    for links in &at {
        for (i, &(r1, x1)) in links.iter().enumerate() {
            for &(r2, x2) in &links[i + 1..] {
                if x1 != x2 && intersect(r1, r2).is_none() {
                    cuts.push((x1, x2));
                }
            }
        }
    }
    for (k, (x1, x2)) in cuts.into_iter().enumerate() {
        b.row(format!("order_conflict_{k}"), vec![(x1, 1.0), (x2, 1.0)], 1.0, f64::INFINITY);
        b.order_conflicts.insert((x1.min(x2), x1.max(x2)));
    }
}

/// Symmetry breaking between the orders 0 and 1: a node whose order is at most 1 and
/// that can share a cluster with no right scan (none in its [`potential_clusters`]
/// component) gets order 0.
///
/// **Proof.** Take an optimal clustering and a cluster without a right scan. Turning
/// every order 1 of the cluster into 0 keeps it legal: fused edges join equal orders
/// (rule 5), so they still agree; a manifest output still has order 0 or 1 (rule 6);
/// nodes fixed at 0 (left scans, filters, expands) are untouched; reads that shared an
/// order still share one (rule 7 connectivity is kept, and two groups of readers of one
/// array may merge into one read, which costs no more under any cost model). Such a
/// cluster's nodes of order ≤ 1 lie in one component (see [`potential_clusters`]), so
/// if that component has no right scan, neither has the cluster.
fn forward_where_nothing_runs_backward(b: &mut Builder) {
    let graph = b.graph;
    let component = potential_clusters(b);
    let mut backward = vec![false; graph.nodes.len()];
    for n in graph.node_ids() {
        if graph.node(n).kind.fixed_output_order() == Some(ORDER_BACKWARD) {
            backward[component[n.0]] = true;
        }
    }
    for n in graph.node_ids() {
        let Some(d) = b.order[n.0] else { continue };
        let v = &mut b.model.variables[d.0];
        if !backward[component[n.0]] && v.lower == 0.0 && v.upper == 1.0 {
            v.upper = 0.0;
        }
    }
}

/// Scatter, seed 000 (9): the pairs (user, scatter) where `user` is another use of
/// the scatter's destination, which must run in an earlier cluster (the destination is
/// updated in place).
fn scatter_precedence_pairs(graph: &Graph) -> Vec<(NodeId, NodeId)> {
    let mut pairs = Vec::new();
    for (j, node) in graph.nodes.iter().enumerate() {
        if node.kind != NodeKind::Scatter {
            continue;
        }
        for (_, dest) in graph.in_edges(NodeId(j)).filter(|(_, e)| e.access == Access::ScatterDestination) {
            for (_, other) in graph.out_edges(dest.from) {
                if other.output == dest.output && other.to != NodeId(j) && !pairs.contains(&(other.to, NodeId(j))) {
                    pairs.push((other.to, NodeId(j)));
                }
            }
        }
    }
    pairs
}

/// seed 000 (9) as rows: π_scatter − π_user ≥ 1.
fn scatter_precedences(b: &mut Builder) {
    for (user, scatter) in scatter_precedence_pairs(b.graph) {
        b.strictly_after(user, scatter, "scatter");
    }
}

/// The order in which consumer `e.to` reads `e`: a variable or a constant.
fn read_order(b: &Builder, access: Access, consumer: NodeId) -> Option<(Option<VarId>, f64)> {
    match access {
        Access::InOutputOrder => b.order[consumer.0].map(|v| (Some(v), 0.0)),
        Access::GatherSource { label } => Some((None, label as f64)),
        Access::Unordered | Access::ScatterDestination => None,
    }
}

/// The error for `cost=max-locality` under every formulation.
fn no_max_locality_formulation() -> FormulationError {
    FormulationError(
        "cost=max-locality (seed 003 Def. 20) weighs every pair of accessors of an array, which no ILP formulation here models; use strategy=bohrium-optimal (exact) or a baseline strategy".into(),
    )
}

/// Adds the objective of seed 000 §4.1 (a)–(e) and the bytes model; returns the
/// constant part (manifest arrays that no variable models, reads that always happen).
fn add_linear_objective(
    b: &mut Builder,
    cost: &CostFunction,
    manifest: &[(NodeId, usize, Option<VarId>)],
    fused_candidates: &[(NodeId, NodeId)],
    exact: bool,
) -> Result<(f64, Option<CycleCuts>), FormulationError> {
    let graph = b.graph;
    let mut offset = 0.0;
    // The readers of every array and their share variables, built once for all terms.
    let mut shared_readers: Option<Vec<ArrayReaders>> = None;
    for (model, weight) in cost.terms() {
        let w = *weight;
        match model {
            CostModel::Clusters => {
                let readers = shared_readers.get_or_insert_with(|| array_readers(b));
                offset += add_cluster_count(b, readers, w);
            }
            CostModel::FusedEdges => {
                // (b) minimise the x of fusible pairs: each unfused pair costs 1.
                for (a, c) in fused_candidates {
                    let x = b.x_var(*a, *c);
                    b.model.add_objective_term(x, w);
                }
                if !exact {
                    // Fusible pairs the combined model proved unfusible are constant 1.
                    let mut seen = BTreeSet::new();
                    for e in &graph.edges {
                        if e.fusible && !fused_candidates.contains(&(e.from, e.to)) && seen.insert((e.from, e.to)) {
                            offset += w;
                        }
                    }
                }
            }
            CostModel::IntermediateArrays | CostModel::ReadsWrites | CostModel::Bytes | CostModel::Reads => {
                let count_writes = !matches!(model, CostModel::Reads);
                let bytes = matches!(model, CostModel::Bytes);
                if count_writes {
                    for &(node, output, m) in manifest {
                        let nd = graph.node(node);
                        if matches!(model, CostModel::IntermediateArrays)
                            && (nd.output_escapes(output) || nd.kind == NodeKind::Input)
                        {
                            continue; // only intermediate arrays count
                        }
                        if nd.kind == NodeKind::Input {
                            continue; // inputs are never written
                        }
                        let weight = if bytes {
                            nd.output_bytes.get(output).copied().flatten().unwrap_or(1) as f64
                        } else {
                            1.0
                        };
                        // manifest = 1 − m
                        offset += w * weight;
                        if let Some(m) = m {
                            b.model.add_objective_term(m, -w * weight);
                        }
                    }
                }
                if !matches!(model, CostModel::IntermediateArrays) {
                    let readers = shared_readers.get_or_insert_with(|| array_readers(b));
                    offset += add_reads(b, readers, w, bytes, exact);
                }
            }
            CostModel::Robinson => {
                return Err(FormulationError(
                    "cost=robinson weighs pairs of nodes and needs formulation=robinson".into(),
                ));
            }
            CostModel::MaxLocality => return Err(no_max_locality_formulation()),
            CostModel::GatheredFolds | CostModel::ChainedGathers => {
                // Σ loaded_gather over the folds (gathers that load their indices) that
                // have one; every other one has an order below the first loaded-index
                // label in every feasible point (`add_output_orders`) and counts 0.
                for node in graph.node_ids() {
                    if let Some(y) = b.loaded_gather[node.0]
                        && charged_in_loaded_gather_order(graph, graph.node(node).kind) == Some(*model)
                    {
                        b.model.add_objective_term(y, w);
                    }
                }
            }
        }
    }
    if !exact {
        add_shares_between_memory_readers(b, shared_readers.as_deref().unwrap_or(&[]));
    }
    add_path_cuts(b, shared_readers.as_deref().unwrap_or(&[]));
    let cycle_cuts = (!exact).then(|| cycle_separator(b, shared_readers.as_deref().unwrap_or(&[])));
    Ok((offset, cycle_cuts))
}

/// The links and arcs of the model for the cycle inequalities of [`CycleCuts`]
/// (`cycle_cuts.rs` has the proof): every link of [`cluster_links`], and every
/// precedence arc, strict always or exactly when its pair's x is 1 (seed 000 (5):
/// `π_c − π_a ≥ x`, and `strictly_after` rows for the rest).
fn cycle_separator(b: &Builder, readers: &[ArrayReaders]) -> CycleCuts {
    let graph = b.graph;
    let free_x = |a: NodeId, c: NodeId| b.free_x(a, c);
    let links = cluster_links(b, readers)
        .into_iter()
        .map(|(u, v, var, active_at_zero)| cycle_cuts::Link { u: u.0, v: v.0, var, active_at_zero })
        .collect();
    let arcs = precedence_arcs(graph, |a, c| free_x(a, c).is_some())
        .into_iter()
        .map(|arc| cycle_cuts::Arc {
            from: arc.earlier.0,
            to: arc.later.0,
            strictness: match free_x(arc.earlier, arc.later) {
                Some(x) if !arc.strict => Strictness::WhenUnfused(x),
                _ => Strictness::Always,
            },
        })
        .collect();
    let conflicts = b.size_pairs.iter().map(|&(a, c, _)| (a.0, c.0)).collect();
    CycleCuts::new(graph.nodes.len(), links, arcs).with_conflicts(conflicts).with_pair_links(pair_links(readers))
}

/// The links that put two nodes in one cluster of the read-back: a fusible pair with
/// x = 0, or two readers of one array with z = 1. `(u, v, variable, active at 0)`.
fn cluster_links(b: &Builder, readers: &[ArrayReaders]) -> Vec<(NodeId, NodeId, VarId, bool)> {
    let graph = b.graph;
    let mut links = Vec::new();
    for (&(a, c), &x) in &b.x {
        let fusible_nodes = graph.node(a).kind.is_fusible_kind() && graph.node(c).kind.is_fusible_kind();
        if fusible_nodes && b.model.variables[x.0].lower < 0.5 {
            links.push((a, c, x, true));
        }
    }
    for array in readers {
        for &(j, i, z) in &array.shares {
            links.push((array.ordered[j].0, array.ordered[i].0, z, false));
        }
    }
    links
}

/// Path inequalities (as in multicut formulations): for two nodes u, v that are
/// [`apart_pairs`] and a path of two or three links between them, not every link of
/// the path is active: Σ_path (1 − active) ≥ 1.
///
/// **Proof.** An active link forces equal π (x = 0 by (5), z = 1 by the share rows),
/// so a path of active links gives π_u = π_v, while the chain with a strict arc between
/// u and v forces π_v ≥ π_u + 1 (or the reverse) in every feasible point. They only
/// cut fractional points; the big-M rows let the LP relaxation spread x thinly along
/// such paths (x ≈ 1/M), which these rows forbid. At most 40 per node are added (any
/// subset of valid rows is valid).
fn add_path_cuts(b: &mut Builder, readers: &[ArrayReaders]) {
    let Some(apart) = b.apart.clone() else { return };
    let links = cluster_links(b, readers);
    let n = b.graph.nodes.len();
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, &(u, v, _, _)) in links.iter().enumerate() {
        at[u.0].push(k);
        at[v.0].push(k);
    }
    let other = |k: usize, w: usize| if links[k].0.0 == w { links[k].1.0 } else { links[k].0.0 };
    let mut paths: BTreeSet<Vec<usize>> = BTreeSet::new();
    let budget = 40 * n;
    // Two links meeting at w.
    for (w, meeting) in at.iter().enumerate() {
        for (i, &l1) in meeting.iter().enumerate() {
            for &l2 in &meeting[i + 1..] {
                let (u, v) = (other(l1, w), other(l2, w));
                if u != v && apart[u][v] && paths.len() < budget {
                    let mut p = vec![l1, l2];
                    p.sort_unstable();
                    paths.insert(p);
                }
            }
        }
    }
    // Three links: u — w1 — w2 — v.
    for (l0, &(w1, w2, _, _)) in links.iter().enumerate() {
        for &l1 in &at[w1.0] {
            for &l2 in &at[w2.0] {
                if l1 == l0 || l2 == l0 || l1 == l2 {
                    continue;
                }
                let (u, v) = (other(l1, w1.0), other(l2, w2.0));
                let distinct = u != v && u != w2.0 && v != w1.0;
                if distinct && apart[u][v] && !apart[u][w2.0] && !apart[w1.0][v] && paths.len() < budget {
                    let mut p = vec![l1, l0, l2];
                    p.sort_unstable();
                    paths.insert(p);
                }
            }
        }
    }
    for (i, path) in paths.into_iter().enumerate() {
        // Σ_x x + Σ_z (1 − z) ≥ 1
        let mut terms = Vec::new();
        let mut lower = 1.0;
        for k in path {
            let (_, _, var, active_at_zero) = links[k];
            if active_at_zero {
                terms.push((var, 1.0));
            } else {
                terms.push((var, -1.0));
                lower -= 1.0;
            }
        }
        b.row(format!("path_cut_{i}"), terms, lower, f64::INFINITY);
    }
}

/// The consumers of one array (an output of a node) and the variables saying which of
/// them share a loop and a read order.
struct ArrayReaders {
    node: NodeId,
    output: usize,
    /// Reads that always go to memory alone: unordered uses and uses by barriers.
    alone: usize,
    /// Consumers reading element by element, each with its x towards the producer when
    /// that x is free (`None`: never fused with the producer).
    ordered: Vec<(NodeId, Option<VarId>)>,
    /// Per entry of `ordered`, the order it reads in: `var + constant`.
    read_orders: Vec<(Option<VarId>, f64)>,
    /// `(j, i, z)` with j < i indexing `ordered`: z = 1 only if consumers j and i are
    /// in one π level (one cluster, see [`pi_bounds`]) and read the array in one order.
    shares: Vec<(usize, usize, VarId)>,
}

impl ArrayReaders {
    /// The share variable of readers `a` and `c` (indices of `ordered`, either order);
    /// `None` when the two can never share.
    fn share(&self, a: usize, c: usize) -> Option<VarId> {
        let (lo, hi) = (a.min(c), a.max(c));
        self.shares.iter().find(|&&(p, q, _)| p == lo && q == hi).map(|&(_, _, z)| z)
    }
}

/// The readers of every array, with a share variable z for every pair of ordered
/// readers that can meet (seed 000 §4.1 (d): "horizontal fusion"). z = 1 implies equal
/// π and equal read order; the rows are big-M rows whose constants are the variables'
/// own ranges, so they cut off nothing when z = 0. Pairs whose π ranges or read-order
/// ranges do not overlap get no z: they can never share. Quadratic in the out-degree,
/// as the paper says.
fn array_readers(b: &mut Builder) -> Vec<ArrayReaders> {
    let graph = b.graph;
    let mut all = Vec::new();
    for node in graph.node_ids() {
        let nd = graph.node(node);
        for output in 0..nd.outputs {
            // One read per consumer and way of reading (a gather may read one array as
            // index and as source).
            let mut readers: Vec<(NodeId, Access)> = Vec::new();
            for (_, e) in graph.out_edges(node).filter(|(_, e)| e.output == output) {
                if !readers.contains(&(e.to, e.access)) {
                    readers.push((e.to, e.access));
                }
            }
            let mut alone = 0;
            let mut ordered: Vec<(NodeId, Option<VarId>, Option<VarId>, f64)> = Vec::new();
            for (consumer, access) in readers {
                let order = read_order(b, access, consumer);
                let Some((var, constant)) = order.filter(|_| graph.node(consumer).kind.is_fusible_kind()) else {
                    alone += 1;
                    continue;
                };
                let x = b.free_x(node, consumer);
                ordered.push((consumer, x, var, constant));
            }
            let mut shares = Vec::new();
            for i in 0..ordered.len() {
                for j in 0..i {
                    let (consumer, _, var_i, const_i) = ordered[i];
                    let (other, _, var_j, const_j) = ordered[j];
                    if let Some(z) =
                        share_variable(b, (node, output), (consumer, var_i, const_i), (other, var_j, const_j))
                    {
                        shares.push((j, i, z));
                    }
                }
            }
            all.push(ArrayReaders {
                node,
                output,
                alone,
                read_orders: ordered.iter().map(|&(_, _, v, c)| (v, c)).collect(),
                ordered: ordered.into_iter().map(|(c, x, _, _)| (c, x)).collect(),
                shares,
            });
        }
    }
    all
}

/// The z of two readers `i` and `j` of one array (see [`array_readers`]), or `None`
/// when they can never be in one π level with one read order.
fn share_variable(
    b: &mut Builder,
    (node, output): (NodeId, usize),
    (consumer, var_i, const_i): (NodeId, Option<VarId>, f64),
    (other, var_j, const_j): (NodeId, Option<VarId>, f64),
) -> Option<VarId> {
    if b.apart.as_ref().is_some_and(|apart| apart[consumer.0][other.0]) {
        return None;
    }
    let (pi_i, pi_j) = (b.pi[consumer.0], b.pi[other.0]);
    let bounds = |v: VarId| (b.model.variables[v.0].lower, b.model.variables[v.0].upper);
    let ((lo_i, hi_i), (lo_j, hi_j)) = (bounds(pi_i), bounds(pi_j));
    if hi_i < lo_j || hi_j < lo_i {
        return None;
    }
    let order_range = |var: Option<VarId>, constant: f64| match var {
        Some(v) => (b.model.variables[v.0].lower + constant, b.model.variables[v.0].upper + constant),
        None => (constant, constant),
    };
    let ((olo_i, ohi_i), (olo_j, ohi_j)) = (order_range(var_i, const_i), order_range(var_j, const_j));
    if ohi_i < olo_j || ohi_j < olo_i {
        return None;
    }
    let z =
        b.model.add_variable(format!("z_{}_{}_{}_{}", node.0, output, other.0, consumer.0), VarKind::Binary, 0.0, 1.0);
    b.shares.push((consumer, other, z));
    // π_i − π_j ≤ (hi_i − lo_j)·(1 − z) and π_j − π_i ≤ (hi_j − lo_i)·(1 − z).
    let (m_up, m_down) = ((hi_i - lo_j).max(0.0), (hi_j - lo_i).max(0.0));
    if m_up > 0.0 {
        b.row(
            format!("share_pi_hi_{}_{}_{}", node.0, other.0, consumer.0),
            vec![(pi_i, 1.0), (pi_j, -1.0), (z, m_up)],
            f64::NEG_INFINITY,
            m_up,
        );
    }
    if m_down > 0.0 {
        b.row(
            format!("share_pi_lo_{}_{}_{}", node.0, other.0, consumer.0),
            vec![(pi_i, 1.0), (pi_j, -1.0), (z, -m_down)],
            -m_down,
            f64::INFINITY,
        );
    }
    // order_i − order_j ≤ (ohi_i − olo_j)·(1 − z), and the other way round.
    let mut diff = Vec::new();
    if let Some(v) = var_i {
        diff.push((v, 1.0));
    }
    if let Some(v) = var_j {
        diff.push((v, -1.0));
    }
    let c = const_i - const_j; // order_i − order_j = vars + c
    let (o_up, o_down) = ((ohi_i - olo_j).max(0.0), (ohi_j - olo_i).max(0.0));
    if o_up > 0.0 {
        let mut hi = diff.clone();
        hi.push((z, o_up));
        b.row(format!("share_ord_hi_{}_{}_{}", node.0, other.0, consumer.0), hi, f64::NEG_INFINITY, o_up - c);
    }
    if o_down > 0.0 {
        let mut lo = diff;
        lo.push((z, -o_down));
        b.row(format!("share_ord_lo_{}_{}_{}", node.0, other.0, consumer.0), lo, -o_down - c, f64::INFINITY);
    }
    Some(z)
}

/// seed 000 §4.1 (d): reads of each array. A consumer fused with the producer reads
/// nothing; consumers in one cluster reading it in one order share one read; unordered
/// consumers and barriers always read. `r_i ≥ [i reads from memory] − Σ_{j<i} w_ji`
/// with `w_ji ≤ z_ji` and `w_ji ≤ x_j`: in a group of sharing readers only the first
/// pays. Returns the constant reads.
///
/// **Why w loses nothing.** A reader i sharing with a j that is fused with the
/// producer (z_ji = 1, x_j = 0) is in the producer's π level, where an unfused edge
/// from the producer cannot end (`π_i ≥ π_p + x_i`), so it is fused too (x_i = 0) and
/// its row is `r_i ≥ −Σ w`, met by r_i = 0. When i does read from memory (x_i = 1, or
/// no x), every j it shares with reads from memory too, so x_j = 1 and w_ji can be
/// z_ji: the row is the plain `r_i ≥ 1 − Σ z_ji`. At integer x and z the least r is
/// therefore the same with and without w. The LP relaxation is tighter: it can no
/// longer save a read by half sharing with a half-fused reader.
///
/// **Why `w_ji ≤ r_j` loses nothing** (a reader saves its read only by sharing with a
/// reader that pays). Take an optimal integer solution and close z transitively
/// ([`add_share_transitivity`] proves that keeps it optimal and feasible). The readers
/// that read from memory then fall into groups, each in one π level and one order with
/// z = 1 between any two members. Let f be a group's member of smallest index: set
/// r_f = 1, and r_i = 0, w_fi = 1 for every other member i, every other w = 0. Each read
/// row holds (`r_i + w_fi ≥ 1`), `w_fi ≤ z_fi = 1`, `w_fi ≤ x_f = 1`, `w_fi ≤ r_f = 1`,
/// and the reads cost one per group, which is the least any solution with those x and z
/// pays (f has no earlier partner that reads from memory, so the old rows force r_f = 1
/// too). So the optimum is unchanged; the LP can no longer save a read through a chain
/// of readers that each save half of theirs.
/// r is binary (at integer x, z, w the least r is 0 or 1), which lets SCIP know the
/// objective is integral and round its bound up. `gather` keeps seed 000's rows as
/// printed: continuous r and z in place of w.
fn add_reads(b: &mut Builder, readers: &[ArrayReaders], w: f64, bytes: bool, exact: bool) -> f64 {
    let graph = b.graph;
    let mut offset = 0.0;
    for array in readers {
        let nd = graph.node(array.node);
        let weight = if bytes { nd.output_bytes.get(array.output).copied().flatten().unwrap_or(1) as f64 } else { 1.0 };
        offset += w * weight * array.alone as f64;
        let mut read_vars = Vec::new();
        let mut payer_shares = Vec::new();
        for (i, &(consumer, x)) in array.ordered.iter().enumerate() {
            let r = b.model.add_variable(
                format!("r_{}_{}_{}", array.node.0, array.output, consumer.0),
                if exact { VarKind::Continuous } else { VarKind::Binary },
                0.0,
                1.0,
            );
            b.model.add_objective_term(r, w * weight);
            let mut terms = vec![(r, 1.0)];
            let mut lower = 0.0;
            match x {
                Some(x) => terms.push((x, -1.0)),
                None => lower = 1.0,
            }
            for &(j, _, z) in array.shares.iter().filter(|(_, k, _)| *k == i) {
                if exact {
                    terms.push((z, 1.0));
                    continue;
                }
                // Sharing with j saves i's read only while j pays for its own read:
                // w_ji ≤ z_ji, w_ji ≤ x_j and w_ji ≤ r_j (see above; j < i, so r_j exists).
                // w_ji ≤ x_j is not written: it follows from w_ji ≤ z_ji and the row
                // z_ji ≤ x_j (`add_shares_between_memory_readers`), so the relaxation
                // is the same with one row fewer per share.
                let share = b.model.add_variable(
                    format!("w_{}_{}_{}_{}", array.node.0, array.output, array.ordered[j].0.0, consumer.0),
                    VarKind::Continuous,
                    0.0,
                    1.0,
                );
                let tag = format!("{}_{}_{}_{}", array.node.0, array.output, array.ordered[j].0.0, consumer.0);
                b.row(format!("saved_by_share_{tag}"), vec![(share, 1.0), (z, -1.0)], f64::NEG_INFINITY, 0.0);
                b.row(
                    format!("saved_by_payer_{tag}"),
                    vec![(share, 1.0), (read_vars[j], -1.0)],
                    f64::NEG_INFINITY,
                    0.0,
                );
                terms.push((share, 1.0));
                payer_shares.push((j, i, z, share));
            }
            b.row(format!("read_{}_{}_{}", array.node.0, array.output, consumer.0), terms, lower, f64::INFINITY);
            if !exact {
                add_high_order_read(b, array, i, r);
            }
            read_vars.push(r);
        }
        if !exact {
            add_share_transitivity(b, array);
            add_first_payer_rows(b, array, &payer_shares);
        }
        // Some reader pays whenever any reader reads from memory: Σ_i r_i ≥ x_k.
        // Valid: the readers that read from memory and share form groups (z = 1 joins
        // them); the group's reader of smallest index has no sharing partner before
        // it, so its row is r ≥ 1. Only worth a row when several readers could share.
        if !exact && array.ordered.len() > 1 && !array.shares.is_empty() {
            for &(consumer, x) in &array.ordered {
                let Some(x) = x else { continue };
                let mut terms: Vec<(VarId, f64)> = read_vars.iter().map(|&r| (r, 1.0)).collect();
                terms.push((x, -1.0));
                b.row(format!("some_read_{}_{}_{}", array.node.0, array.output, consumer.0), terms, 0.0, f64::INFINITY);
            }
        }
    }
    offset
}

/// A reader j saves k's read only as the first of their group: `z_ij + z_ik − z_jk +
/// 2 w_jk ≤ 1` for every earlier reader i < j (indices of `ordered`; an absent z is 0:
/// that pair never shares), one row per share w_jk and earlier reader i that may share
/// with j or k. `payer_shares` holds `(j, k, z_jk, w_jk)` with j < k.
///
/// **Proof** that some optimal solution satisfies these rows. Take the optimal solution
/// of [`add_reads`]'s proof: shares closed transitively among the readers that read from
/// memory, so that they form groups (z = 1 exactly between two members of one group),
/// the first member of each group (smallest index) pays (r = 1) and saves every other
/// member (w = 1 from it, 0 elsewhere). If w_jk = 1, j is the first of k's group, so
/// the earlier i belongs to it neither with j nor with k: z_ij = z_ik = 0, z_jk = 1, and
/// the row reads −1 + 2 = 1. If w_jk = 0, the row is `z_ij + z_ik − z_jk ≤ 1`, the
/// transitivity row through i ([`add_share_transitivity`]; with z_ij or z_ik absent it
/// holds since z ≤ 1 and the other z ≥ 0).
///
/// Why: the rows `w_jk ≤ z_jk` and `w_jk ≤ r_j` let the LP save k's read from several
/// earlier readers at once, each a little, while those readers share among themselves,
/// which no mixture of groupings does (in each grouping only the first saves). In the
/// LP of a random program of 40 combinators (seed 1) three readers i < j < k of one
/// argument had z_ij = 0.625, z_ik = 0.375 and w_jk = z_jk = 0.375: j saves k whenever
/// they share, so no grouping has j with k and i with either, nor i with both (that
/// joins all three), and the three shares would be disjoint events of total weight
/// 1.375. The row reads 1.375 ≤ 1 there (docs/ilp-measurements.md).
fn add_first_payer_rows(b: &mut Builder, array: &ArrayReaders, payer_shares: &[(usize, usize, VarId, VarId)]) {
    for &(j, k, zjk, wjk) in payer_shares {
        for i in 0..j {
            let (zij, zik) = (array.share(i, j), array.share(i, k));
            if zij.is_none() && zik.is_none() {
                continue;
            }
            let mut terms = vec![(wjk, 2.0), (zjk, -1.0)];
            terms.extend(zij.map(|v| (v, 1.0)));
            terms.extend(zik.map(|v| (v, 1.0)));
            let name = |t: usize| array.ordered[t].0.0;
            b.row(
                format!("first_payer_{}_{}_{}_{}_{}", array.node.0, array.output, name(i), name(j), name(k)),
                terms,
                f64::NEG_INFINITY,
                1.0,
            );
        }
    }
}

/// A reader whose read order is a gather label (≥ 2) that no earlier sharing partner
/// can read in shares with none of them: `r_i ≥ x_i − 1 + (d_i − 1)/(U_i − 1)`, with
/// U_i ≥ 2 the largest order of i.
///
/// **Proof.** At d_i ∈ {0, 1} the right side is at most x_i − 1 ≤ 0 ≤ r_i. At
/// d_i ≥ 2 it is at most x_i, and i shares with no earlier reader j (z_ji = 1 needs
/// equal orders, and j's orders are ≤ 1), so its read row is `r_i ≥ x_i` already.
/// The LP gains where a half-fused gather source (d_i fractional between 0 and a
/// label) would otherwise share half its read with each of two partners.
fn add_high_order_read(b: &mut Builder, array: &ArrayReaders, i: usize, r: VarId) {
    let (Some(d), constant) = array.read_orders[i] else { return };
    let upper = b.model.variables[d.0].upper + constant;
    if upper < 2.0 || constant != 0.0 || b.model.variables[d.0].lower > 0.0 {
        return;
    }
    let partners: Vec<usize> = array.shares.iter().filter(|(_, k, _)| *k == i).map(|(j, _, _)| *j).collect();
    if partners.is_empty() {
        return;
    }
    let low_partners = partners.iter().all(|&j| match array.read_orders[j] {
        (Some(v), c) => b.model.variables[v.0].upper + c <= 1.0,
        (None, c) => c <= 1.0,
    });
    if !low_partners {
        return;
    }
    let slope = 1.0 / (upper - 1.0);
    // r − x − slope·d ≥ −1 − slope  (x = 1 when the reader is never fused: constant).
    let mut terms = vec![(r, 1.0), (d, -slope)];
    let mut lower = -1.0 - slope;
    match array.ordered[i].1 {
        Some(x) => terms.push((x, -1.0)),
        None => lower += 1.0,
    }
    let consumer = array.ordered[i].0;
    b.row(format!("high_order_read_{}_{}_{}", array.node.0, array.output, consumer.0), terms, lower, f64::INFINITY);
}

/// Only readers that read from memory share a read: `z_ij ≤ x_i` and `z_ij ≤ x_j` for
/// the readers' fusion decisions towards the producer (where a reader has no x it is
/// never fused, x ≡ 1, and there is no row).
///
/// **Proof** that some optimal solution satisfies these rows. In the model z_ij = 1
/// forces x_i = x_j (see [`add_reads`], "Why w loses nothing"). Take an optimal integer
/// solution whose shares are closed transitively ([`add_share_transitivity`]) and set
/// z_ij = 0 for every pair of readers that are both fused with the producer. Nothing
/// else changes and every row still holds: the share rows on π and orders are relaxed
/// at z = 0; `w_ij ≤ x_i = 0` already held (a row of the model without these rows;
/// with them it follows from `w_ij ≤ z_ij ≤ x_i`, and [`add_reads`] does not write
/// it, so the model's points are the same either way); a transitivity row
/// `z_ik + z_kj − z_ij ≤ 1` whose z_ij dropped has z_ik = 0 too (z_ik = 1 would have
/// forced x_k = x_i = 0, and so z_ik dropped as well), and the pairs still at z = 1
/// all read from memory, among
/// which nothing changed; the cycle, path and conflict rows only weigh a dropped link
/// more; and i and j stay in one cluster through the producer (both fused with it), so
/// the clusters, the numbering π and the objective are unchanged.
/// The rows make the separator's pair links sound (`cycle_cuts.rs`, "Pair links"):
/// `x_i + x_j − 2 z_ij` is then 0 exactly when i and j are joined through the
/// producer or by the share, and never negative.
fn add_shares_between_memory_readers(b: &mut Builder, readers: &[ArrayReaders]) {
    for array in readers {
        for &(j, i, z) in &array.shares {
            for k in [j, i] {
                if let (consumer, Some(x)) = array.ordered[k] {
                    let name = format!("share_reads_memory_{}_{}_{}_{}", array.node.0, array.output, z.0, consumer.0);
                    b.row(name, vec![(z, 1.0), (x, -1.0)], f64::NEG_INFINITY, 0.0);
                }
            }
        }
    }
}

/// The pair links of the cycle separator (`cycle_cuts.rs`, "Pair links"): two readers
/// of one array that may share it and may both be fused with its producer.
fn pair_links(readers: &[ArrayReaders]) -> Vec<cycle_cuts::PairLink> {
    let mut links = Vec::new();
    for array in readers {
        for &(j, i, z) in &array.shares {
            if let ((u, Some(x_u)), (v, Some(x_v))) = (array.ordered[j], array.ordered[i]) {
                links.push(cycle_cuts::PairLink { u: u.0, v: v.0, x_u, x_v, z });
            }
        }
    }
    links
}

/// Sharing is transitive: `z_ij + z_jk − z_ik ≤ 1` for three readers of one array
/// (and `z_ij + z_jk ≤ 1` when i and k have no z: they can never share).
///
/// **Proof** that some optimal solution satisfies these rows. z = 1 forces equal π and
/// equal read order, both transitive, so in any integer solution with z_ij = z_jk = 1
/// the pair i, k is in one π level with one order and z_ik = 1 satisfies its share rows
/// (when i and k have no z, they can never meet, so z_ij = z_jk = 1 cannot happen).
/// Raising z_ik to 1 changes nothing else: i and k are already joined by links through
/// j, so the clusters (components of links in π levels) and the cycle and path rows'
/// active links are unchanged, and z appears in the read rows only as `r_i ≥ … − Σ w`
/// with `w ≤ z`, where a larger z never forces a larger r. Closing every such triple
/// therefore turns an optimal solution into one of equal cost that meets every row.
/// The LP relaxation gains: it can no longer share half a read along each side of a
/// triangle whose third side is not shared.
fn add_share_transitivity(b: &mut Builder, array: &ArrayReaders) {
    let n = array.ordered.len();
    let z = |i: usize, j: usize| array.share(i, j);
    let tag = |i: usize, j: usize, k: usize| {
        let name = |t: usize| array.ordered[t].0.0;
        format!("share_transitive_{}_{}_{}_{}_{}", array.node.0, array.output, name(i), name(j), name(k))
    };
    for j in 0..n {
        for i in 0..n {
            for k in i + 1..n {
                if i == j || k == j {
                    continue;
                }
                let (Some(zij), Some(zjk)) = (z(i, j), z(j, k)) else { continue };
                let mut terms = vec![(zij, 1.0), (zjk, 1.0)];
                if let Some(zik) = z(i, k) {
                    terms.push((zik, -1.0));
                }
                b.row(tag(i, j, k), terms, f64::NEG_INFINITY, 1.0);
            }
        }
    }
}

/// seed 000 §4.1 (a), the real number of loops (not π_max + 1, which §4.1 calls an
/// imaginary target: nodes in one π level that share nothing are separate loops).
///
/// The read-back's clusters are the connected components of the *links* inside π
/// levels: fused edges (x = 0) and shared reads (z = 1). The number of components of a
/// graph is its node count minus the size of a spanning forest, so the model picks a
/// forest among the active links and maximises its size: every link gets two oriented
/// binaries f_uv + f_vu ≤ [link active], every node at most one parent
/// (Σ_u f_uv ≤ 1), and potentials h_v ≥ h_u + 1 − n·(1 − f_uv) (Miller–Tucker–Zemlin)
/// forbid directed cycles, so the chosen links form a forest (each tree has one root,
/// so trees = nodes − chosen links). At the optimum the forest spans every component,
/// so loops = (non-argument nodes) − Σ f. Arguments are no loops (seed 001 Table 1.1),
/// barriers are. Returns the constant part.
fn add_cluster_count(b: &mut Builder, readers: &[ArrayReaders], w: f64) -> f64 {
    let graph = b.graph;
    b.counts_clusters = true;
    let n = graph.nodes.len() as f64;
    let loops = graph.nodes.iter().filter(|nd| nd.kind != NodeKind::Input).count() as f64;
    // (u, v, variable, active when the variable is 0 (an x) or 1 (a z)).
    let links = cluster_links(b, readers);
    let mut h: HashMap<NodeId, VarId> = HashMap::new();
    let mut parents: HashMap<NodeId, Vec<VarId>> = HashMap::new();
    // The two f variables of each link, in link order.
    let mut forest_edges: Vec<[VarId; 2]> = Vec::with_capacity(links.len());
    for (k, &(u, v, var, active_at_zero)) in links.iter().enumerate() {
        let mut pair = Vec::new();
        for (from, to) in [(u, v), (v, u)] {
            let f = b.model.add_variable(format!("f_{k}_{}_{}", from.0, to.0), VarKind::Binary, 0.0, 1.0);
            b.model.add_objective_term(f, -w);
            parents.entry(to).or_default().push(f);
            for node in [from, to] {
                if let std::collections::hash_map::Entry::Vacant(e) = h.entry(node) {
                    let hv = b.model.add_variable(format!("h_{}", node.0), VarKind::Continuous, 0.0, n);
                    e.insert(hv);
                }
            }
            // h_to − h_from − n·f ≥ 1 − n
            b.row(
                format!("forest_mtz_{k}_{}_{}", from.0, to.0),
                vec![(h[&to], 1.0), (h[&from], -1.0), (f, -n)],
                1.0 - n,
                f64::INFINITY,
            );
            pair.push((f, 1.0));
        }
        forest_edges.push([pair[0].0, pair[1].0]);
        // f_uv + f_vu ≤ 1 − x, or ≤ z.
        if active_at_zero {
            pair.push((var, 1.0));
            b.row(format!("forest_link_{k}"), pair, f64::NEG_INFINITY, 1.0);
        } else {
            pair.push((var, -1.0));
            b.row(format!("forest_link_{k}"), pair, f64::NEG_INFINITY, 0.0);
        }
    }
    let mut parent_rows: Vec<(NodeId, Vec<VarId>)> = parents.into_iter().collect();
    parent_rows.sort_by_key(|(v, _)| *v);
    for (v, fs) in parent_rows {
        b.row(format!("forest_parent_{}", v.0), fs.into_iter().map(|f| (f, 1.0)).collect(), f64::NEG_INFINITY, 1.0);
    }
    add_forest_size_rows(b, &links, &forest_edges);
    // The cluster count is at least every loop's π: `top ≥ π_v` for each loop v and
    // Σ f + top ≤ loops. Proof that no clustering is lost at its cost: `pi_bounds`'
    // numbering gives the C loop clusters of a legal clustering the π values 1..=C in a
    // topological order (arguments 0) and satisfies every row on π; with top = C and f a
    // spanning tree of each cluster's links (a cluster is connected by its links, which
    // the read-back relies on), Σ f = loops − C. Why: the forest rows alone leave the LP
    // bound at one cluster per component, while chains of conflicting fusions (where x
    // of a conflict pair sums to 1) raise π; on seed 003's shallow water (37
    // combinators, 3 clusters that its gathers of computed grids force) SCIP could not
    // prove 3 optimal within 30 s.
    if b.compact_pi && !forest_edges.is_empty() {
        let top = b.model.add_variable("cluster_count_top", VarKind::Continuous, 0.0, loops);
        for v in graph.node_ids().filter(|v| graph.node(*v).kind != NodeKind::Input) {
            b.row(format!("cluster_count_top_{}", v.0), vec![(top, 1.0), (b.pi[v.0], -1.0)], 0.0, f64::INFINITY);
        }
        let mut terms: Vec<(VarId, f64)> = forest_edges.iter().flatten().map(|&f| (f, 1.0)).collect();
        terms.push((top, 1.0));
        b.row("cluster_count_at_least_top".into(), terms, f64::NEG_INFINITY, loops);
    }
    w * loops
}

/// Σ f ≤ |V_c| − 1 for every connected component V_c of the nodes the links join.
///
/// Proof that no clustering is cut off: in every integer solution the chosen f edges form
/// a forest (at most one parent per node, `forest_parent`; no directed cycle, the MTZ rows
/// `forest_mtz`), and every f edge joins two nodes of one component, so the chosen edges
/// of a component form a forest on its nodes, which has at most |V_c| − 1 edges. Why: the
/// parent and MTZ rows alone let the LP relaxation give nearly every node a fractional
/// parent, so its bound on the cluster count could fall to 0; on the n-body example
/// (`examples/seed003_nbody.mlir`, 20 combinators that all fit in one cluster) SCIP then
/// could not prove the 1 cluster it found optimal within 30 s. With these rows the bound is
/// at least the number of components.
fn add_forest_size_rows(b: &mut Builder, links: &[(NodeId, NodeId, VarId, bool)], forest_edges: &[[VarId; 2]]) {
    let mut parent: HashMap<NodeId, NodeId> = HashMap::new();
    fn find(parent: &mut HashMap<NodeId, NodeId>, v: NodeId) -> NodeId {
        let p = *parent.entry(v).or_insert(v);
        if p == v {
            return v;
        }
        let root = find(parent, p);
        parent.insert(v, root);
        root
    }
    for &(u, v, _, _) in links {
        let (ru, rv) = (find(&mut parent, u), find(&mut parent, v));
        if ru != rv {
            parent.insert(ru, rv);
        }
    }
    let mut components: BTreeMap<NodeId, (usize, Vec<VarId>)> = BTreeMap::new();
    let nodes: Vec<NodeId> = parent.keys().copied().collect();
    for v in nodes {
        let root = find(&mut parent, v);
        components.entry(root).or_default().0 += 1;
    }
    for (&(u, _, _, _), edges) in links.iter().zip(forest_edges) {
        let root = find(&mut parent, u);
        components.entry(root).or_default().1.extend(edges);
    }
    for (root, (size, fs)) in components {
        b.row(
            format!("forest_size_{}", root.0),
            fs.into_iter().map(|f| (f, 1.0)).collect(),
            f64::NEG_INFINITY,
            size as f64 - 1.0,
        );
    }
}

/// seed 001 Fig. 1.14: the pairwise formulation with fusion-preventing-path pruning.
/// Function arguments are not nodes there (its N counts combinators only).
///
/// Seed 001 has no traversal orders and no fusion over a gather's source (its
/// `gather` reads the source at computed indices: a fusion-preventing edge), and its
/// scans and filters run left to right. To stay sound on this dialect, which has right
/// scans, the model gets one direction variable dᵒ ∈ {0, 1} per loop node (fixed for
/// scans, filters and expands) that fused edges must agree on, and gather sources are
/// fusion-preventing. Its space is therefore the legal clusterings whose every order
/// is 0 or 1 (what `exhaustive::search_with_max_order(.., 1)` enumerates).
fn build_robinson(graph: &Graph, cost: &CostFunction) -> Result<Ilp, FormulationError> {
    let view = seed001_view(graph);
    let graph = &view;
    let nodes: Vec<NodeId> = graph.node_ids().filter(|n| graph.node(*n).kind != NodeKind::Input).collect();
    let n = nodes.len() as f64;
    let mut b = Builder::new(graph, "fusion_robinson", n);
    for input in graph.node_ids().filter(|n| graph.node(*n).kind == NodeKind::Input) {
        b.model.variables[b.pi[input.0].0].upper = 0.0;
    }
    let weights = add_robinson_pairs(&mut b, &nodes);
    // Seed 001 has no scatter; its in-place update still needs seed 000 (9).
    scatter_precedences(&mut b);
    // x = 1 on a pair with ⊥ concestors does not keep it out of one π level, where
    // links to common neighbours would join it (every order here is 0 or 1).
    separate_incompatible_sizes(&mut b, &vec![1; graph.nodes.len()]);
    add_directions(&mut b);
    let contracted = add_contraction_variables(&mut b, &nodes);
    add_robinson_objective(&mut b, cost, &weights, &contracted, n)?;
    Ok(Ilp {
        formulation: Formulation::Robinson,
        model: b.model,
        pi: b.pi,
        order: b.order,
        x: b.x,
        objective_offset: 0.0,
        cycle_cuts: None,
        size_pairs: b.size_pairs,
        counts_clusters: false,
        shares: b.shares,
    })
}

fn has_edge(graph: &Graph, a: NodeId, c: NodeId) -> bool {
    graph.edges.iter().any(|e| e.from == a && e.to == c)
}

/// The pair variables of seed 001 Fig. 1.14 over the combinators `nodes`, with their
/// objective weights: n² for pairs joined by an edge or a shared input, 1 otherwise.
/// Pairs joined by a fusion-preventing edge are strictly ordered; pairs a
/// fusion-preventing path separates get no variable (they are never fused).
fn add_robinson_pairs(b: &mut Builder, nodes: &[NodeId]) -> Vec<((NodeId, NodeId), f64)> {
    let graph = b.graph;
    let n = nodes.len() as f64;
    let (_, preventing) = reachability(graph);
    let edge_where = |a: NodeId, c: NodeId, fusible: bool| {
        graph.edges.iter().any(|e| e.from == a && e.to == c && e.fusible == fusible)
    };
    let shares_input = |a: NodeId, c: NodeId| {
        graph
            .edges
            .iter()
            .any(|e| e.to == a && graph.edges.iter().any(|f| f.to == c && f.from == e.from && f.output == e.output))
    };
    let mut weights: Vec<((NodeId, NodeId), f64)> = Vec::new();
    for (ii, &i) in nodes.iter().enumerate() {
        for &j in &nodes[ii + 1..] {
            let edge_ij = has_edge(graph, i, j);
            let edge_ji = has_edge(graph, j, i);
            if edge_where(i, j, false) || edge_where(j, i, false) {
                let (a, c) = if edge_where(i, j, false) { (i, j) } else { (j, i) };
                b.strictly_after(a, c, "prevent");
                continue;
            }
            if !possible(&preventing, i, j) {
                continue;
            }
            let (ni, nj) = (graph.node(i), graph.node(j));
            let unknown = ni.iteration.is_none()
                || nj.iteration.is_none()
                || !ni.kind.is_fusible_kind()
                || !nj.kind.is_fusible_kind();
            if unknown {
                continue; // x = 1: never fused, and no constraint needed between them.
            }
            let x = b.x_var(i, j);
            if edge_where(i, j, true) || edge_where(j, i, true) {
                let (a, c) = if edge_ij { (i, j) } else { (j, i) };
                b.precedence(a, c, x, 1.0, n, "prec");
            } else if !edge_ij && !edge_ji {
                b.precedence(i, j, x, -n, n, "pair");
            }
            if ni.iteration != nj.iteration {
                // Different iteration sizes: fusible only through compatible concestors.
                let same_size_via_transducer = (ni.output_size.is_some() && ni.output_size == nj.iteration && edge_ij)
                    || (nj.output_size.is_some() && nj.output_size == ni.iteration && edge_ji);
                if !same_size_via_transducer {
                    require_fused_concestors(b, &preventing, (i, j), x);
                }
            }
            let w = if edge_ij || edge_ji || shares_input(i, j) { n * n } else { 1.0 };
            weights.push(((i, j), w));
        }
    }
    weights
}

/// Seed 001 Fig. 1.14: `i` and `j` of different iteration sizes share a loop only with
/// their compatible concestors `(ci, cj)` (x_pq ≤ x_ij for the pairs (i, ci), (j, cj),
/// (ci, cj)); without concestors, or when a fusion-preventing path separates them,
/// never (x_ij = 1).
fn require_fused_concestors(b: &mut Builder, preventing: &[Vec<bool>], (i, j): (NodeId, NodeId), x: VarId) {
    match concestors(b.graph, &b.parents, i, j) {
        Some((ci, cj))
            if possible(preventing, ci, i) && possible(preventing, cj, j) && possible(preventing, ci, cj) =>
        {
            for (p, q) in [(i, ci), (j, cj), (ci, cj)] {
                if p != q {
                    let xpq = b.x_var(p, q);
                    b.row(
                        format!("concestor_{}_{}_{}_{}", i.0, j.0, p.0, q.0),
                        vec![(xpq, 1.0), (x, -1.0)],
                        f64::NEG_INFINITY,
                        0.0,
                    );
                }
            }
        }
        _ => b.model.variables[x.0].lower = 1.0,
    }
}

/// Directions: dᵒ ∈ {0, 1}, and −x ≤ dᵒ_a − dᵒ_b ≤ x for every pair that may share a
/// loop. Valid: a legal cluster whose orders are all 0 or 1 has one direction, since
/// what connects its nodes (validator rule 7: a fused edge, seed 000 (12), or reading a
/// common array in one order) joins nodes of equal order. A fold whose combine may not
/// commute runs forward (dᵒ = 0, [`NodeKind::may_run_backward`]).
fn add_directions(b: &mut Builder) {
    let graph = b.graph;
    for node in graph.node_ids().filter(|n| graph.node(*n).kind.is_fusible_kind()) {
        let kind = graph.node(node).kind;
        let (lo, hi) = match kind.fixed_output_order() {
            Some(o) => (o as f64, o as f64),
            None if !kind.may_run_backward() => (0.0, 0.0),
            None => (0.0, 1.0),
        };
        let d = b.model.add_variable(vname(graph, "d", node), VarKind::Integer, lo, hi);
        b.order[node.0] = Some(d);
    }
    let pairs: Vec<((NodeId, NodeId), VarId)> = b.x.iter().map(|(k, v)| (*k, *v)).collect();
    for ((a, c), x) in pairs {
        let (Some(da), Some(dc)) = (b.order[a.0], b.order[c.0]) else { continue };
        b.row(format!("direction_lo_{}_{}", a.0, c.0), vec![(da, 1.0), (dc, -1.0), (x, 1.0)], 0.0, f64::INFINITY);
        b.row(format!("direction_hi_{}_{}", a.0, c.0), vec![(da, 1.0), (dc, -1.0), (x, -1.0)], f64::NEG_INFINITY, 0.0);
    }
}

/// c_i (seed 001 §1.4.3 "Array contraction"): 1 unless every consumer of node i's array
/// is fused with it; x_ij <= c_i for every edge from i. Only array-producing bindings
/// have one: a fold read as a scalar is an sbind in seed 001 Fig. 1.2 (Fig. 1.15 has no
/// c_sum1), and an output of the program is not forced manifest here (Fig. 1.16 sets
/// c_ys1 = c_ys2 = 0): the returned arrays are written either way.
fn add_contraction_variables(b: &mut Builder, nodes: &[NodeId]) -> Vec<(NodeId, VarId)> {
    let graph = b.graph;
    let mut c_vars = Vec::new();
    for &i in nodes {
        let nd = graph.node(i);
        let out: Vec<NodeId> = graph.out_edges(i).map(|(_, e)| e.to).collect();
        let scalar = matches!(nd.kind, NodeKind::Fold { .. })
            && !out.is_empty()
            && graph.out_edges(i).all(|(_, e)| e.access == Access::Unordered);
        if !nd.kind.is_fusible_kind() || scalar {
            continue;
        }
        let c = b.model.add_variable(vname(graph, "c", i), VarKind::Binary, 0.0, 1.0);
        for j in out {
            match b.x.get(&pair_key(i, j)).copied() {
                Some(x) => {
                    b.row(format!("contracted_{}_{}", i.0, j.0), vec![(x, 1.0), (c, -1.0)], f64::NEG_INFINITY, 0.0)
                }
                // Never fusible with this consumer: never contracted.
                None => b.model.variables[c.0].lower = 1.0,
            }
        }
        c_vars.push((i, c));
    }
    c_vars
}

/// The objective of seed 001 Fig. 1.14 (`robinson`: weighted pairs plus n per
/// uncontracted array), or seed 000's fused-edges and intermediate-arrays counts over
/// the same variables; other cost models are not expressible here.
fn add_robinson_objective(
    b: &mut Builder,
    cost: &CostFunction,
    weights: &[((NodeId, NodeId), f64)],
    contracted: &[(NodeId, VarId)],
    n: f64,
) -> Result<(), FormulationError> {
    let graph = b.graph;
    for (model, w) in cost.terms() {
        match model {
            CostModel::Robinson => {
                for ((i, j), weight) in weights {
                    let x = b.x_var(*i, *j);
                    b.model.add_objective_term(x, w * weight);
                }
                for (_, c) in contracted {
                    b.model.add_objective_term(*c, w * n);
                }
            }
            CostModel::FusedEdges => {
                for ((i, j), _) in weights {
                    if has_edge(graph, *i, *j) || has_edge(graph, *j, *i) {
                        let x = b.x_var(*i, *j);
                        b.model.add_objective_term(x, *w);
                    }
                }
            }
            CostModel::IntermediateArrays => {
                for (i, c) in contracted {
                    if !graph.node(*i).escapes {
                        b.model.add_objective_term(*c, *w);
                    }
                }
            }
            CostModel::MaxLocality => return Err(no_max_locality_formulation()),
            other => {
                return Err(FormulationError(format!(
                    "cost={} is not part of seed 001's formulation (formulation=robinson); use formulation=combined",
                    other
                )));
            }
        }
    }
    Ok(())
}

impl Ilp {
    /// The model SCIP solves: the model without the rows on the positions π (and the
    /// binaries that order pairs of incompatible sizes, which appear only there), whose
    /// part the cycle and conflict rows of [`Ilp::cycle_cuts`] take over as lazy rows
    /// (`fusion_solver::Hooks::lazy`); `None` where the model needs π itself (the
    /// cluster count, which reads the loops' positions) or has no cycle rows (`gather`,
    /// `robinson`), which then solve the full model.
    ///
    /// **Why the same optimum.** Every point of the full model gives a point of this one
    /// (drop π) that meets the cycle and conflict rows (`cycle_cuts`, proofs there).
    /// Conversely, an integral point of this one that meets them has a legal numbering
    /// of its clusters ([`CycleCuts::positions`]) with which it meets every row of the
    /// full model ([`Ilp::complete_positions`] sets it; the driver checks the completed
    /// point against the full model). The objective does not mention π. The big-M rows
    /// on π added nothing to the LP bound once the cycle rows are in
    /// (`analysis/examples/lp_bound.rs`), and made every node's LP slower.
    ///
    /// Also `None` above `LAZY_UP_TO_VARIABLES` (5000): SCIP's primal heuristics do not see
    /// lazy rows, so on large models most of their points are rejected, while with the
    /// rows on π they find the better clusterings before a time limit.
    pub fn lazy_model(&self) -> Option<Model> {
        if self.counts_clusters || self.cycle_cuts.is_none() || self.model.variables.len() > LAZY_UP_TO_VARIABLES {
            return None;
        }
        let mut dropped = vec![false; self.model.variables.len()];
        for &pi in &self.pi {
            dropped[pi.0] = true;
        }
        for &(_, _, y) in &self.size_pairs {
            dropped[y.0] = true;
        }
        let mut model = self.model.clone();
        // SCIP's diving, shifting, randomised-rounding and neighbourhood heuristics do not
        // see the lazy rows, so their points mostly fail them: on n = 200 seed 1 they took
        // 6.1 of 29 s (and most of the 2.4 s the lazy rows spent checking points), and
        // only shifting improved the incumbent, twice (docs/ilp-measurements.md). The
        // rounding and one-opt heuristics stay: one-opt found that run's best answer.
        // A search setting: it never changes the optimum or a proof of it.
        if model.heuristics == Heuristics::SolverDefault {
            model.heuristics = Heuristics::RoundingOnly;
        }
        // On models of at most ROOT_ONLY_CUTS_UP_TO_VARIABLES, SCIP's Gomory, zero-half and
        // aggregation cuts at the root only (they run at every tenth depth by default; the
        // cycle rows are still separated at every node): the nodes are cheaper and the
        // bounds about the same. Random programs, 30 s limit (docs/ilp-measurements.md):
        // n = 100 over 20 seeds, all twenty 11.6–12.2 s → 9.9–10.1 s, slowest 2.0 s → 1.3 s.
        // On larger models the deeper cuts pay for their slower nodes once a proof takes
        // more than a few seconds: with a 60 s limit, n = 150 seed 3 proven in 21 s with
        // them and at the limit without; n = 200 seed 1 proven in 25–29 s with them and not
        // in 90 s without; n = 300 seed 0 proven in 17.8 s with them, at the limit at
        // 352 ≥ 336.6 without. Valid cuts either way: the optimum is unchanged.
        if model.variables.len() <= ROOT_ONLY_CUTS_UP_TO_VARIABLES {
            model.general_cuts = GeneralCuts::RootOnly;
        }
        model.rows.retain(|row| !row.terms.iter().any(|(v, _)| dropped[v.0]));
        for (k, v) in model.variables.iter_mut().enumerate() {
            if dropped[k] {
                v.upper = v.lower;
            }
        }
        Some(model)
    }

    /// Sets π (each cluster its own position, in execution order, arguments at 0) and
    /// the size-order binaries of a solution of [`Ilp::lazy_model`], so that it is a
    /// point of the full model. An error when the point is not a legal numbering.
    pub fn complete_positions(&self, values: &mut [f64]) -> Result<(), String> {
        let cuts = self.cycle_cuts.as_ref().ok_or("the model has no cycle rows")?;
        let at_zero: Vec<bool> = self.pi.iter().map(|&pi| self.model.variables[pi.0].upper < 0.5).collect();
        let positions = cuts.positions(values, &at_zero)?;
        for (node, &pi) in self.pi.iter().enumerate() {
            values[pi.0] = positions[node] as f64;
        }
        for &(a, c, y) in &self.size_pairs {
            // y = 0: c after a; y = 1: a after c (`separate_incompatible_sizes`).
            values[y.0] = if positions[a.0] < positions[c.0] { 0.0 } else { 1.0 };
        }
        Ok(())
    }

    /// The fusion decisions (x) and output orders (d) of a legal `clustering`, as a
    /// partial solution for the solver to complete (a warm start): x = 0 exactly for
    /// the pairs inside one cluster, and z = 0 for readers in different clusters (in
    /// the full model π decides that; in [`Ilp::lazy_model`] a completion would
    /// otherwise share reads across clusters and meet the lazy rows one by one).
    pub fn partial_solution(&self, graph: &Graph, clustering: &Clustering) -> Vec<(VarId, f64)> {
        let cluster_of = clustering.cluster_of(graph.nodes.len());
        let together = |a: NodeId, c: NodeId| cluster_of[a.0].is_some() && cluster_of[a.0] == cluster_of[c.0];
        let mut values = Vec::new();
        for (&(a, c), &x) in &self.x {
            values.push((x, if together(a, c) { 0.0 } else { 1.0 }));
        }
        for &(u, v, z) in &self.shares {
            if !together(u, v) {
                values.push((z, 0.0));
            }
        }
        for node in graph.node_ids() {
            if let (Some(d), Some(&order)) = (self.order[node.0], clustering.output_orders.get(node.0)) {
                values.push((d, order as f64));
            }
        }
        values
    }

    /// The fusion decisions x, one per pair of nodes that may be fused (0 = fused).
    pub fn fusion_decisions(&self) -> Vec<VarId> {
        self.x.values().copied().collect()
    }

    /// How strongly `values` (a point of the model, fractional or not) put each pair of
    /// nodes that a fusion decision or a shared read could join in one cluster:
    /// 1 − x for a fusible pair, z for two readers that may share a read, each in [0, 1].
    /// A primal heuristic's guide ([`crate::local_search::LpGuided`]); it proves nothing.
    pub fn link_strengths(&self, values: &[f64]) -> Vec<(NodeId, NodeId, f64)> {
        let value = |v: VarId| values.get(v.0).copied().unwrap_or(0.0).clamp(0.0, 1.0);
        let fusions = self.x.iter().map(|(&(a, c), &x)| (a, c, 1.0 - value(x)));
        fusions.chain(self.shares.iter().map(|&(u, v, z)| (u, v, value(z)))).collect()
    }

    /// Turns solver values into a clustering (seed 000 §4.1 "Performance and
    /// correctness"): nodes grouped by π; within a group, nodes joined by a fused edge
    /// (x = 0) or reading a common parent in the same order stay together, the rest are
    /// split into connected components; clusters are ordered by π, then by program
    /// order of their first node.
    pub fn clustering(&self, graph: &Graph, values: &[f64]) -> Clustering {
        let value = |v: VarId| values.get(v.0).copied().unwrap_or(0.0);
        let round = |v: VarId| value(v).round() as i64;
        let mut output_orders: Vec<u32> = graph
            .node_ids()
            .map(|n| match self.order[n.0] {
                Some(v) => round(v).max(0) as u32,
                None => graph.node(n).kind.fixed_output_order().unwrap_or(0),
            })
            .collect();
        let pi: Vec<i64> = graph.node_ids().map(|n| round(self.pi[n.0])).collect();
        let fused =
            |a: NodeId, c: NodeId| self.x.get(&pair_key(a, c)).is_some_and(|x| value(*x) < 0.5) && pi[a.0] == pi[c.0];
        // Union-find over nodes.
        let mut parent: Vec<usize> = (0..graph.nodes.len()).collect();
        fn find(p: &mut [usize], i: usize) -> usize {
            let mut r = i;
            while p[r] != r {
                r = p[r];
            }
            let mut i = i;
            while p[i] != r {
                let next = p[i];
                p[i] = r;
                i = next;
            }
            r
        }
        let union = |p: &mut Vec<usize>, a: usize, c: usize| {
            let (ra, rc) = (find(p, a), find(p, c));
            if ra != rc {
                p[ra.max(rc)] = ra.min(rc);
            }
        };
        for e in &graph.edges {
            if e.fusible && fused(e.from, e.to) {
                union(&mut parent, e.from.0, e.to.0);
            }
        }
        // Horizontal: two consumers of one array in one π group reading it in one order
        // (parents are added once per order they are read in).
        let read_order_of = |e: &super::graph::Edge| match e.access {
            Access::InOutputOrder => Some(output_orders[e.to.0]),
            Access::GatherSource { label } => Some(label),
            Access::Unordered | Access::ScatterDestination => None,
        };
        let mut groups: HashMap<(NodeId, usize, u32, i64), usize> = HashMap::new();
        // Robinson's clusters are exactly its x = 0 pairs (seed 001 §1.4.2).
        let horizontal_edges = if self.formulation == Formulation::Robinson { &[][..] } else { &graph.edges[..] };
        for e in horizontal_edges {
            let consumer = graph.node(e.to);
            if !consumer.kind.is_fusible_kind() {
                continue;
            }
            let Some(order) = read_order_of(e) else { continue };
            let key = (e.from, e.output, order, pi[e.to.0]);
            match groups.get(&key) {
                Some(&first) => union(&mut parent, first, e.to.0),
                None => {
                    groups.insert(key, e.to.0);
                }
            }
        }
        // Robinson's pairwise x also marks fused non-adjacent pairs.
        if self.formulation == Formulation::Robinson {
            for (&(a, c), _) in &self.x {
                if fused(a, c) && graph.node(a).kind.is_fusible_kind() && graph.node(c).kind.is_fusible_kind() {
                    union(&mut parent, a.0, c.0);
                }
            }
        }
        // Split every group into connected components (seed 000 §4.1): nodes joined by
        // an edge inside the group, or reading a common parent in the same order. For
        // the linear formulations this changes nothing; Robinson's x = 0 pairs may join
        // loops of one size that share nothing, which are separate loops.
        let group: Vec<usize> = (0..graph.nodes.len()).map(|i| find(&mut parent, i)).collect();
        let mut component: Vec<usize> = (0..graph.nodes.len()).collect();
        for e in &graph.edges {
            if e.fusible && group[e.from.0] == group[e.to.0] {
                union(&mut component, e.from.0, e.to.0);
            }
        }
        let mut readers: HashMap<(NodeId, usize, u32, usize), usize> = HashMap::new();
        for e in &graph.edges {
            if !graph.node(e.to).kind.is_fusible_kind() {
                continue;
            }
            let Some(order) = read_order_of(e) else { continue };
            let key = (e.from, e.output, order, group[e.to.0]);
            match readers.get(&key) {
                Some(&first) => union(&mut component, first, e.to.0),
                None => {
                    readers.insert(key, e.to.0);
                }
            }
        }
        let mut by_root: IndexMap<usize, Vec<NodeId>> = IndexMap::new();
        for node in graph.node_ids() {
            let r = find(&mut component, node.0);
            by_root.entry(r).or_default().push(node);
        }
        let mut clusters: Vec<Vec<NodeId>> = by_root.into_values().collect();
        // Execution order: by π, then by the first node's program position. A cluster's
        // nodes share π (they are joined by fused x = 0 pairs or same-π reads).
        clusters.sort_by_key(|c| (c.iter().map(|n| pi[n.0]).min().unwrap_or(0), c[0].0));
        // Order 0 and order 1 are interchangeable in a cluster that has no `scanr`
        // (every constraint between them is an equality, and outputs may be 0 or 1), so
        // the solver may pick either; prefer forward loops for readable, stable output.
        for cluster in &clusters {
            if cluster.iter().all(|n| graph.node(*n).kind.fixed_output_order() != Some(ORDER_BACKWARD)) {
                for n in cluster {
                    if output_orders[n.0] == ORDER_BACKWARD {
                        output_orders[n.0] = ORDER_FORWARD;
                    }
                }
            }
        }
        Clustering { clusters, output_orders }
    }
}
