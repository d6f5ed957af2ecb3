//! Cost models, evaluated on any clustering independently of the ILP: the five cost
//! functions of seed 000 §4.1 (a)–(e), the weighted objective of seed 001 §1.4.4
//! (Figs. 1.12–1.14), a byte-weighted variant of (e), and seed 003's Max Locality
//! (Def. 20), and this project's `gathered-folds` and `chained-gathers`, which charge
//! what the lowering does with a fold or a gather run in a gather's order. A
//! [`CostFunction`] is a
//! linear combination of them (seed 000 §4.1: "any linear combination of valid cost
//! functions is allowed"; §5.1 suggests tuning its coefficients).
//!
//! All models are costs: smaller is better. They assume a clustering that passes
//! [`validate`](super::validate::validate); on other clusterings they still return a
//! number (nodes in no cluster count as alone) but it means little.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use crate::clustering::Clustering;
use crate::graph::{Access, Graph, NodeId, NodeKind, Order};

/// One cost model (pass option `cost=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CostModel {
    /// seed 000 §4.1 (a): the number of clusters (loops).
    Clusters,
    /// seed 000 §4.1 (b): the number of fusible edges left unfused (Σ x over F).
    FusedEdges,
    /// seed 000 §4.1 (c): the number of intermediate arrays left manifest.
    IntermediateArrays,
    /// seed 000 §4.1 (d): the number of array reads from memory.
    Reads,
    /// seed 000 §4.1 (e): reads plus writes of manifest arrays.
    ReadsWrites,
    /// seed 001 §1.4.4 Fig. 1.14: Σ W_ij·x_ij + Σ N·c_i.
    Robinson,
    /// (e) with every array weighted by its size in bytes (`Node::output_bytes`).
    Bytes,
    /// seed 003 Def. 20 (Max Locality): pairs of operations in different clusters that
    /// access one array. No ILP formulation models it; the baselines and
    /// `strategy=bohrium-optimal` optimise it.
    MaxLocality,
    /// The folds that run in the order of a gather that loads its indices (an output
    /// order ≥ [`Graph::first_loaded_index_label`], seed 000 §3.3): a fold fused into
    /// such a gather of its output, directly or through in-order consumers. Not from the
    /// seeds: it charges what the lowering does with such a fold (seed 000's `simple4`).
    /// The fused loop folds a whole row of the fold's input for every gathered element,
    /// so rows are read in the order of the loaded indices (each starts cold, where the
    /// unfused fold streams its input once) and a row gathered twice is folded twice.
    /// The count models do not see either: fusing saves the fold's output, a write and a
    /// read, which is all they weigh. A gather that computes its indices (a row maximum
    /// replicated over its row) is not charged: the lowering folds each row once, in
    /// order, where the index does not depend on the inner dimensions. Measured
    /// (`kernel-bench`, 3162 × 3162 `i64`, as many gathered rows): the fused loop 4–25 %
    /// slower than the unfused pair over repeated runs, prefetches included. The default
    /// cost adds it with weight 3, more than the write and read the fusion saves.
    GatheredFolds,
    /// The gathers that load their indices and run in the order of another gather that
    /// loads its indices (both labels ≥ [`Graph::first_loaded_index_label`]): seed 000's
    /// `simple2`, `xs[is1[is2[i]]]`, a gather fused into a gather of its output. Not from
    /// the seeds: the fused loop makes two dependent random reads per element (the index
    /// `is1[is2[i]]`, then the source at it), where the unfused pair makes one random
    /// read in each of two loops and writes and streams the intermediate array between
    /// them. The count models see only the intermediate saved (a write and a read).
    /// Measured on an Intel Xeon guest (`kernel-bench`, 10^7 `i64`, prefetches
    /// included): the fused loop 0.83–0.87× of the unfused pair in every run; a C loop
    /// over the same arrays, with or without prefetches or strip-mining the chain through
    /// a small buffer, lost the same way at 2·10^6, 10^7 and 4·10^7 elements; on an AMD
    /// EPYC guest 0.94–1.15×. A gather that computes its indices is not charged on either
    /// side: it makes no random read of an index. The default cost adds it with weight 3,
    /// more than the write and read the fusion saves.
    ChainedGathers,
}

impl CostModel {
    /// Every model, in declaration order.
    pub const ALL: [CostModel; 10] = [
        CostModel::Clusters,
        CostModel::FusedEdges,
        CostModel::IntermediateArrays,
        CostModel::Reads,
        CostModel::ReadsWrites,
        CostModel::Robinson,
        CostModel::Bytes,
        CostModel::MaxLocality,
        CostModel::GatheredFolds,
        CostModel::ChainedGathers,
    ];

    /// The model's name as written in a cost function.
    pub fn name(self) -> &'static str {
        match self {
            CostModel::Clusters => "clusters",
            CostModel::FusedEdges => "fused-edges",
            CostModel::IntermediateArrays => "intermediate-arrays",
            CostModel::Reads => "reads",
            CostModel::ReadsWrites => "reads-writes",
            CostModel::Robinson => "robinson",
            CostModel::Bytes => "bytes",
            CostModel::MaxLocality => "max-locality",
            CostModel::GatheredFolds => "gathered-folds",
            CostModel::ChainedGathers => "chained-gathers",
        }
    }
}

impl fmt::Display for CostModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn model_list() -> String {
    CostModel::ALL.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ")
}

impl FromStr for CostModel {
    type Err = String;

    /// Exactly one of the names of [`CostModel::name`].
    fn from_str(s: &str) -> Result<Self, String> {
        CostModel::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown cost model '{s}' (expected one of {})", model_list()))
    }
}

/// A linear combination of cost models, e.g. `reads-writes` or `reads+0.5*clusters`.
#[derive(Clone, Debug, PartialEq)]
pub struct CostFunction {
    terms: Vec<(CostModel, f64)>,
}

impl CostFunction {
    /// The combination `Σ weight·model`.
    pub fn new(terms: Vec<(CostModel, f64)>) -> Self {
        CostFunction { terms }
    }

    /// One model with weight 1.
    pub fn single(model: CostModel) -> Self {
        CostFunction { terms: vec![(model, 1.0)] }
    }

    /// The terms `(model, weight)`, in the order written.
    pub fn terms(&self) -> &[(CostModel, f64)] {
        &self.terms
    }

    /// The cost of `clustering`: `Σ weight · evaluate(model)`.
    pub fn evaluate(&self, graph: &Graph, clustering: &Clustering) -> f64 {
        self.terms.iter().map(|(m, w)| w * evaluate(graph, clustering, *m)).sum()
    }
}

/// The weight of [`CostModel::GatheredFolds`] in the default cost function: a fold fused
/// into a gather saves its output's write and its read (2 under `reads-writes`), and
/// loses more than that in time (the model's doc), so the charge must exceed 2.
pub const GATHERED_FOLD_WEIGHT: f64 = 3.0;

/// The weight of [`CostModel::ChainedGathers`] in the default cost function, for the same
/// reason: a gather fused into a gather of its output saves a write and a read (2 under
/// `reads-writes`) and loses more than that in time (the model's doc).
pub const CHAINED_GATHER_WEIGHT: f64 = 3.0;

impl Default for CostFunction {
    /// `reads-writes`, the metric of seed 000's solve-time table (Table 2), plus
    /// [`GATHERED_FOLD_WEIGHT`] per fold run in a gather's order
    /// ([`CostModel::GatheredFolds`]) and [`CHAINED_GATHER_WEIGHT`] per gather run in a
    /// gather's order ([`CostModel::ChainedGathers`]):
    /// `reads-writes+3*gathered-folds+3*chained-gathers`.
    fn default() -> Self {
        CostFunction::new(vec![
            (CostModel::ReadsWrites, 1.0),
            (CostModel::GatheredFolds, GATHERED_FOLD_WEIGHT),
            (CostModel::ChainedGathers, CHAINED_GATHER_WEIGHT),
        ])
    }
}

impl FromStr for CostFunction {
    type Err = String;

    /// Terms separated by `+`; a term is `model`, `weight*model` or `model*weight`,
    /// with optional spaces. Model names contain `-`, so `-` is never an operator; a
    /// negative weight is written `reads+-1*clusters`.
    fn from_str(s: &str) -> Result<Self, String> {
        if s.trim().is_empty() {
            return Err(format!("empty cost function (expected a model among {})", model_list()));
        }
        let mut terms = Vec::new();
        for raw in s.split('+') {
            let term = raw.trim();
            if term.is_empty() {
                return Err(format!("empty term in cost function '{s}'"));
            }
            let parsed = match term.split_once('*') {
                None => (term.parse::<CostModel>()?, 1.0),
                Some((l, r)) => {
                    let (l, r) = (l.trim(), r.trim());
                    match (l.parse::<f64>(), r.parse::<f64>()) {
                        (Ok(w), Err(_)) => (r.parse::<CostModel>()?, w),
                        (Err(_), Ok(w)) => (l.parse::<CostModel>()?, w),
                        _ => {
                            return Err(format!(
                                "term '{term}' of cost function '{s}' must be a number times a cost model"
                            ));
                        }
                    }
                }
            };
            if !parsed.1.is_finite() {
                return Err(format!("weight of term '{term}' is not a finite number"));
            }
            terms.push(parsed);
        }
        Ok(CostFunction { terms })
    }
}

impl fmt::Display for CostFunction {
    /// The canonical form, which parses back to an equal function.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (m, w)) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            if *w == 1.0 {
                write!(f, "{m}")?;
            } else {
                write!(f, "{w}*{m}")?;
            }
        }
        Ok(())
    }
}

/// The cost of `clustering` under one model.
pub fn evaluate(graph: &Graph, clustering: &Clustering, model: CostModel) -> f64 {
    match model {
        CostModel::Clusters => clusters(graph, clustering) as f64,
        CostModel::FusedEdges => unfused_edges(graph, clustering) as f64,
        CostModel::IntermediateArrays => intermediate_arrays(graph, clustering) as f64,
        CostModel::Reads => reads(graph, clustering, false),
        CostModel::ReadsWrites => reads(graph, clustering, false) + writes(graph, clustering, false),
        CostModel::Robinson => robinson(graph, clustering),
        CostModel::Bytes => reads(graph, clustering, true) + writes(graph, clustering, true),
        CostModel::MaxLocality => max_locality(graph, clustering) as f64,
        CostModel::GatheredFolds => gathered_folds(graph, clustering) as f64,
        CostModel::ChainedGathers => chained_gathers(graph, clustering) as f64,
    }
}

/// The cost of `clustering` under a whole cost function (same as
/// [`CostFunction::evaluate`]).
pub fn evaluate_function(graph: &Graph, clustering: &Clustering, cost: &CostFunction) -> f64 {
    cost.evaluate(graph, clustering)
}

/// The cluster of every node; a node in no cluster is alone in a cluster of its own.
fn assignment(graph: &Graph, clustering: &Clustering) -> Vec<usize> {
    let n = graph.nodes.len();
    let k = clustering.clusters.len();
    clustering.cluster_of(n).into_iter().enumerate().map(|(i, c)| c.unwrap_or(k + i)).collect()
}

fn orders(graph: &Graph, clustering: &Clustering) -> Vec<Order> {
    (0..graph.nodes.len()).map(|i| clustering.output_orders.get(i).copied().unwrap_or(0)).collect()
}

/// The weight of output `output` of `n`: its size in bytes for the `bytes` model
/// (1 when unknown), else 1.
fn weight(graph: &Graph, n: NodeId, output: usize, bytes: bool) -> f64 {
    if bytes { graph.node(n).output_bytes.get(output).copied().flatten().unwrap_or(1) as f64 } else { 1.0 }
}

/// seed 000 §4.1 (a): the number of clusters. A cluster holding only function
/// arguments is no loop and is not counted (seed 001 Table 1.1 counts loops);
/// barriers (calls, `force`, control flow) are.
pub fn clusters(graph: &Graph, clustering: &Clustering) -> usize {
    clustering
        .clusters
        .iter()
        .filter(|c| c.iter().any(|n| graph.nodes.get(n.0).is_some_and(|node| node.kind != NodeKind::Input)))
        .count()
}

/// seed 000 §4.1 (b): Σ x_ab over the fusible pairs (a, b) ∈ F, i.e. the number of
/// producer–consumer pairs joined by a fusible edge whose ends are in different
/// clusters. Pairs, not edges: x is indexed by node pairs (seed 000 §4.1).
pub fn unfused_edges(graph: &Graph, clustering: &Clustering) -> usize {
    let cl = assignment(graph, clustering);
    let pairs: BTreeSet<(NodeId, NodeId)> =
        graph.edges.iter().filter(|e| e.is_fusible()).map(|e| (e.from, e.to)).collect();
    pairs.iter().filter(|(a, b)| cl[a.0] != cl[b.0]).count()
}

/// Whether output `output` of `n` is manifest (m_a = 0 of seed 000 §4.1 (6)), under the
/// cluster assignment `cl`: it is fused away only when every use is fused over (consumer
/// in the same cluster, over a fusible edge) and it does not escape the block. An output
/// with no use that does not escape is fused away (nothing needs it).
fn manifest(graph: &Graph, read_outside: &[Vec<bool>], n: NodeId, output: usize) -> bool {
    // A barrier (a call, a loop, an op of another dialect) produces all its results in
    // memory, used or not.
    !graph.node(n).kind.is_fusible_kind() || graph.node(n).output_escapes(output) || read_outside[n.0][output]
}

/// Per node and output: whether some consumer reads it from another cluster or over an
/// infusible edge (one pass over the edges).
fn read_outside(graph: &Graph, cl: &[usize]) -> Vec<Vec<bool>> {
    let mut outside: Vec<Vec<bool>> = graph.nodes.iter().map(|node| vec![false; node.outputs]).collect();
    for e in &graph.edges {
        if (cl[e.to.0] != cl[e.from.0] || !e.is_fusible())
            && let Some(flag) = outside[e.from.0].get_mut(e.output)
        {
            *flag = true;
        }
    }
    outside
}

/// seed 000 §4.1 (c), as a cost: the number of manifest intermediate arrays, i.e. the
/// outputs of nodes of the block (not function arguments) that do not escape and are
/// not fused away. Maximising Σ m_a is minimising this: the two differ by a constant.
pub fn intermediate_arrays(graph: &Graph, clustering: &Clustering) -> usize {
    let cl = assignment(graph, clustering);
    let outside = read_outside(graph, &cl);
    graph
        .node_ids()
        .filter(|n| graph.node(*n).kind != NodeKind::Input)
        .map(|n| {
            (0..graph.node(n).outputs)
                .filter(|o| !graph.node(n).output_escapes(*o) && manifest(graph, &outside, n, *o))
                .count()
        })
        .sum()
}

/// The writes of (e): every manifest array the block produces, escaping ones included;
/// function arguments are not written by the block. Weighted by bytes if asked.
pub fn writes(graph: &Graph, clustering: &Clustering, bytes: bool) -> f64 {
    let cl = assignment(graph, clustering);
    let outside = read_outside(graph, &cl);
    let mut total = 0.0;
    for n in graph.node_ids().filter(|n| graph.node(*n).kind != NodeKind::Input) {
        for o in 0..graph.node(n).outputs {
            if manifest(graph, &outside, n, o) {
                total += weight(graph, n, o, bytes);
            }
        }
    }
    total
}

/// seed 000 §4.1 (d): the number of times arrays are read from memory. For each array
/// (node output): a consumer fused with the producer reads nothing; consumers in one
/// cluster that read it in the same order share one read (horizontal fusion, seed 000
/// Fig. 2); reading it in different orders are separate reads (seed 000 §3.3
/// `simple5`: "a cost function should not treat this as horizontal fusion"); each
/// unordered consumer (and each barrier) reads it once. Weighted by bytes if asked.
pub fn reads(graph: &Graph, clustering: &Clustering, bytes: bool) -> f64 {
    let cl = assignment(graph, clustering);
    let orders = orders(graph, clustering);
    // The reads of each array (producer, output), in one pass over the edges: a (cluster,
    // order) a fusible reader reads it in, or another reader.
    let mut reads: BTreeSet<(usize, usize, Read)> = BTreeSet::new();
    for e in &graph.edges {
        if e.output >= graph.node(e.from).outputs || (cl[e.to.0] == cl[e.from.0] && e.is_fusible()) {
            continue;
        }
        let read = match e.read_order(&orders) {
            Some(r) if graph.node(e.to).kind.is_fusible_kind() => Read::Shared(cl[e.to.0], r),
            _ => Read::Alone(e.to),
        };
        reads.insert((e.from.0, e.output, read));
    }
    // A fold from +0.0: `sum` of no f64 is -0.0, which reports print as "-0".
    reads.iter().fold(0.0, |total, &(n, o, _)| total + weight(graph, NodeId(n), o, bytes))
}

/// One read of an array from memory ([`reads`]): shared by the fusible readers of one
/// cluster that read it in one order, or a reader's own.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Read {
    Shared(usize, Order),
    Alone(NodeId),
}

/// Whether a node produces an array in seed 001's sense (an *abind*, Fig. 1.2): its
/// `c_i` exists. Seed 001's folds produce scalars; the graph does not record ranks, so
/// a fold whose every use is unordered (the graph's encoding of a scalar use) counts
/// as a scalar.
fn produces_array(graph: &Graph, n: NodeId) -> bool {
    let node = graph.node(n);
    node.outputs > 0
        && !(matches!(node.kind, NodeKind::Fold { .. })
            && graph.out_edges(n).all(|(_, e)| e.access == Access::Unordered))
}

/// Per node `a`, whether some path from `a` to `b` contains a fusion-preventing edge
/// (seed 001 Fig. 1.13). A fixpoint over the edges, so it does not rely on node order.
fn preventing_paths(graph: &Graph) -> Vec<Vec<bool>> {
    let n = graph.nodes.len();
    let mut reach = vec![vec![false; n]; n];
    let mut prevent = vec![vec![false; n]; n];
    loop {
        let mut changed = false;
        for e in &graph.edges {
            let (a, b) = (e.from.0, e.to.0);
            let blocked = !e.is_fusible();
            let mut set = |m: &mut Vec<Vec<bool>>, c: usize| {
                if !m[a][c] {
                    m[a][c] = true;
                    changed = true;
                }
            };
            set(&mut reach, b);
            if blocked {
                set(&mut prevent, b);
            }
            for c in 0..n {
                if reach[b][c] {
                    set(&mut reach, c);
                    if blocked || prevent[b][c] {
                        set(&mut prevent, c);
                    }
                }
            }
        }
        if !changed {
            return prevent;
        }
    }
}

/// [`CostModel::GatheredFolds`]: the folds whose output order is the label of a gather
/// that loads its indices (≥ [`Graph::first_loaded_index_label`]).
pub fn gathered_folds(graph: &Graph, clustering: &Clustering) -> usize {
    let orders = orders(graph, clustering);
    let first = graph.first_loaded_index_label();
    graph.node_ids().filter(|n| matches!(graph.node(*n).kind, NodeKind::Fold { .. }) && orders[n.0] >= first).count()
}

/// [`CostModel::ChainedGathers`]: the gathers that load their indices (label ≥
/// [`Graph::first_loaded_index_label`]) whose output order is the label of a gather that
/// loads its indices.
pub fn chained_gathers(graph: &Graph, clustering: &Clustering) -> usize {
    let orders = orders(graph, clustering);
    let first = graph.first_loaded_index_label();
    graph
        .node_ids()
        .filter(|n| matches!(graph.node(*n).kind, NodeKind::Gather { label } if label >= first) && orders[n.0] >= first)
        .count()
}

/// seed 001 §1.4.4–1.4.5, Fig. 1.14: `Σ W_ij·x_ij + Σ N·c_i`.
///
/// * V is the combinator nodes: seed 001's programs take their arguments as inputs,
///   not bindings, so [`NodeKind::Input`] nodes are left out; barriers are its
///   `external` bindings and stay (with ⊥ iteration size their x are always 1).
///   N = |V|.
/// * x_ij is there for every unordered pair i < j of V with `possible(i, j)`: no
///   path between them, either way, contains a fusion-preventing edge (Fig. 1.13). It
///   is 0 when i and j share a cluster.
/// * W_ij = N² when an edge joins i and j or they read a common array (through any
///   edge, also from a function argument); 1 otherwise (Fig. 1.12).
/// * c_i is there for each node producing an array (not for scalar folds) and is 1
///   when some consumer is in another cluster (`x_ij ≤ c_i` for the edges from i,
///   minimised). Returned arrays do not force c_i = 1: Fig. 1.16 sets c_ys1 = c_ys2 = 0.
///
/// normalize2 gives 51 for seed 001's clustering and 102 for stream fusion's (§1.5.1).
pub fn robinson(graph: &Graph, clustering: &Clustering) -> f64 {
    let cl = assignment(graph, clustering);
    let terms = RobinsonTerms::new(graph);
    let mut total = 0.0;
    for &(i, j, w) in &terms.pairs {
        if cl[i.0] != cl[j.0] {
            total += w;
        }
    }
    for &i in &terms.arrays {
        if graph.out_edges(i).any(|(_, e)| cl[e.to.0] != cl[i.0]) {
            total += terms.big_n;
        }
    }
    total
}

/// The clustering-independent part of [`robinson`]: the pairs with an x_ij and their
/// weights W_ij, the nodes with a c_i, and N.
struct RobinsonTerms {
    pairs: Vec<(NodeId, NodeId, f64)>,
    arrays: Vec<NodeId>,
    big_n: f64,
}

impl RobinsonTerms {
    fn new(graph: &Graph) -> Self {
        let v: Vec<NodeId> = graph.node_ids().filter(|n| graph.node(*n).kind != NodeKind::Input).collect();
        let big_n = v.len() as f64;
        let prevent = preventing_paths(graph);
        let joined =
            |i: NodeId, j: NodeId| graph.edges.iter().any(|e| (e.from == i && e.to == j) || (e.from == j && e.to == i));
        let share_input = |i: NodeId, j: NodeId| {
            graph.in_edges(i).any(|(_, a)| graph.in_edges(j).any(|(_, b)| a.from == b.from && a.output == b.output))
        };
        let mut pairs = Vec::new();
        for (k, &i) in v.iter().enumerate() {
            for &j in &v[k + 1..] {
                if !(prevent[i.0][j.0] || prevent[j.0][i.0]) {
                    pairs.push((i, j, if joined(i, j) || share_input(i, j) { big_n * big_n } else { 1.0 }));
                }
            }
        }
        let arrays = v.into_iter().filter(|&i| produces_array(graph, i)).collect();
        RobinsonTerms { pairs, arrays, big_n }
    }
}

/// seed 003 Def. 20 (Max Locality) on this project's graphs: the number of pairs of
/// distinct operations (combinators and barriers, not function arguments) that access a
/// common array (one produces it and the other reads it, or both read it) and lie in
/// different clusters, once per common array. Seed 003's prose counts unordered pairs
/// ("fusing four identical accesses saves 6"); its formula (6) counts ordered ones,
/// twice as many (`wsp.rs` follows the formula on seed 003's own model).
pub fn max_locality(graph: &Graph, clustering: &Clustering) -> usize {
    let cl = assignment(graph, clustering);
    locality_pairs(graph).iter().filter(|(a, b)| cl[a.0] != cl[b.0]).count()
}

/// The pairs [`max_locality`] counts when they are apart, each once per common array.
fn locality_pairs(graph: &Graph) -> Vec<(NodeId, NodeId)> {
    let mut pairs = Vec::new();
    for n in graph.node_ids() {
        for o in 0..graph.node(n).outputs {
            let mut accessors: BTreeSet<NodeId> =
                graph.out_edges(n).filter(|(_, e)| e.output == o).map(|(_, e)| e.to).collect();
            if graph.node(n).kind != NodeKind::Input {
                accessors.insert(n);
            }
            let accessors: Vec<NodeId> = accessors.into_iter().collect();
            for (k, &a) in accessors.iter().enumerate() {
                for &b in &accessors[k + 1..] {
                    pairs.push((a, b));
                }
            }
        }
    }
    pairs
}

/// Lower bounds on a cost function over the completions of a *partial assignment*, for
/// branch and bound (`crate::branch_and_bound`).
///
/// A partial assignment gives some nodes, the *placed* ones, a block. The search that
/// builds it guarantees that in every completion two placed nodes share a cluster
/// exactly when they share a block: later nodes may join a block, but blocks never
/// merge or split. Each model's bound counts only terms that such an assignment already
/// decides, whatever the unplaced nodes and the traversal orders become; the proof is at
/// each term. A term with a negative weight would need an upper bound instead, so a
/// cost function with one gets no bound (−∞): the search then prunes by legality only.
pub struct PartialBound<'g> {
    graph: &'g Graph,
    terms: Vec<(CostModel, f64)>,
    robinson: Option<RobinsonTerms>,
    locality: Vec<(NodeId, NodeId)>,
    /// The edges out of each node.
    out: Vec<Vec<usize>>,
}

impl<'g> PartialBound<'g> {
    pub fn new(graph: &'g Graph, cost: &CostFunction) -> Self {
        let robinson = cost.terms().iter().any(|(m, _)| *m == CostModel::Robinson).then(|| RobinsonTerms::new(graph));
        let mut out = vec![Vec::new(); graph.nodes.len()];
        for (k, e) in graph.edges.iter().enumerate() {
            out[e.from.0].push(k);
        }
        let locality = if cost.terms().iter().any(|(m, _)| *m == CostModel::MaxLocality) {
            locality_pairs(graph)
        } else {
            Vec::new()
        };
        PartialBound { graph, terms: cost.terms().to_vec(), robinson, locality, out }
    }

    /// A value no completion of `block` (the block of each placed node, `None` for the
    /// others) costs less than; exact when every node is placed and the orders do not
    /// matter to the cost function (every model but the read counts).
    pub fn lower_bound(&self, block: &[Option<usize>]) -> f64 {
        if self.terms.iter().any(|(_, w)| *w < 0.0) {
            return f64::NEG_INFINITY;
        }
        self.terms.iter().map(|(m, w)| w * self.model_bound(*m, block)).sum()
    }

    fn separated(block: &[Option<usize>], a: NodeId, b: NodeId) -> bool {
        matches!((block[a.0], block[b.0]), (Some(x), Some(y)) if x != y)
    }

    fn model_bound(&self, model: CostModel, block: &[Option<usize>]) -> f64 {
        let g = self.graph;
        match model {
            // Every block holding a non-argument is a cluster of its own in every
            // completion (blocks never merge), and `clusters` counts exactly those.
            CostModel::Clusters => {
                let counted: BTreeSet<usize> =
                    g.node_ids().filter(|n| g.node(*n).kind != NodeKind::Input).filter_map(|n| block[n.0]).collect();
                counted.len() as f64
            }
            // A fusible pair whose ends are placed in different blocks is unfused in
            // every completion.
            CostModel::FusedEdges => {
                let pairs: BTreeSet<(NodeId, NodeId)> = g
                    .edges
                    .iter()
                    .filter(|e| e.is_fusible() && Self::separated(block, e.from, e.to))
                    .map(|e| (e.from, e.to))
                    .collect();
                pairs.len() as f64
            }
            CostModel::IntermediateArrays => {
                let mut count = 0;
                for n in g.node_ids().filter(|n| g.node(*n).kind != NodeKind::Input && block[n.0].is_some()) {
                    count += (0..g.node(n).outputs)
                        .filter(|&o| !g.node(n).output_escapes(o) && self.surely_manifest(block, n, o))
                        .count();
                }
                count as f64
            }
            CostModel::Reads => self.reads(block, false),
            CostModel::ReadsWrites => self.reads(block, false) + self.writes(block, false),
            CostModel::Bytes => self.reads(block, true) + self.writes(block, true),
            // The orders are chosen after the placement, and a fold may still end in a
            // gather's order or not: no term is decided, and 0 is a lower bound.
            CostModel::GatheredFolds | CostModel::ChainedGathers => 0.0,
            // A pair placed in different blocks is apart in every completion.
            CostModel::MaxLocality => {
                self.locality.iter().filter(|(a, b)| Self::separated(block, *a, *b)).count() as f64
            }
            CostModel::Robinson => {
                let terms = self.robinson.as_ref().expect("built for a cost function with robinson");
                // x_ij = 1 in every completion when i and j are placed apart, and c_i = 1
                // when a consumer of i is placed in another block than i.
                let pairs: f64 =
                    terms.pairs.iter().filter(|(i, j, _)| Self::separated(block, *i, *j)).map(|(_, _, w)| w).sum();
                let arrays = terms
                    .arrays
                    .iter()
                    .filter(|&&i| self.out[i.0].iter().any(|&k| Self::separated(block, i, g.edges[k].to)))
                    .count();
                pairs + arrays as f64 * terms.big_n
            }
        }
    }

    /// Whether output `o` of the placed node `n` is manifest in every completion: the
    /// conditions of [`manifest`] that no later placement can undo (a barrier, an
    /// escaping output, an infusible use, a use placed in another block).
    fn surely_manifest(&self, block: &[Option<usize>], n: NodeId, o: usize) -> bool {
        let g = self.graph;
        !g.node(n).kind.is_fusible_kind()
            || g.node(n).output_escapes(o)
            || self.out[n.0]
                .iter()
                .map(|&k| &g.edges[k])
                .any(|e| e.output == o && (!e.is_fusible() || Self::separated(block, n, e.to)))
    }

    /// [`writes`] counts every manifest output of a non-argument; these are.
    fn writes(&self, block: &[Option<usize>], bytes: bool) -> f64 {
        let g = self.graph;
        let mut total = 0.0;
        for n in g.node_ids().filter(|n| g.node(*n).kind != NodeKind::Input && block[n.0].is_some()) {
            for o in 0..g.node(n).outputs {
                if self.surely_manifest(block, n, o) {
                    total += weight(g, n, o, bytes);
                }
            }
        }
        total
    }

    /// [`reads`] counts, per array, one read per (consumer cluster, read order) and one
    /// per unordered or barrier consumer, leaving out only consumers fused with the
    /// producer over a fusible edge. A consumer placed in another block than its placed
    /// producer is such a reader, or one fused over an infusible edge (which legality
    /// rules out), and consumers in different blocks end in different clusters, so each
    /// such block adds at least one read, whatever the orders.
    fn reads(&self, block: &[Option<usize>], bytes: bool) -> f64 {
        let g = self.graph;
        let mut total = 0.0;
        for n in g.node_ids().filter(|n| block[n.0].is_some()) {
            for o in 0..g.node(n).outputs {
                let readers: BTreeSet<usize> = self.out[n.0]
                    .iter()
                    .map(|&k| &g.edges[k])
                    .filter(|e| e.output == o && Self::separated(block, n, e.to))
                    .filter_map(|e| block[e.to.0])
                    .collect();
                total += readers.len() as f64 * weight(g, n, o, bytes);
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::tests::{B, clustering, normalize2, scatter_example, simple5, single_loop};
    use crate::validate::validate;

    fn eval(b: &B, c: &Clustering, m: CostModel) -> f64 {
        validate(&b.g, c).expect("test clusterings are valid");
        evaluate(&b.g, c, m)
    }

    #[test]
    fn parses_every_model_name_exactly() {
        for m in CostModel::ALL {
            assert_eq!(m.name().parse::<CostModel>(), Ok(m));
            assert_eq!(m.to_string(), m.name());
        }
        let names: Vec<&str> = CostModel::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(
            names,
            [
                "clusters",
                "fused-edges",
                "intermediate-arrays",
                "reads",
                "reads-writes",
                "robinson",
                "bytes",
                "max-locality",
                "gathered-folds",
                "chained-gathers"
            ]
        );
        assert!("Reads".parse::<CostModel>().is_err());
        assert!(" reads".parse::<CostModel>().is_err());
        assert!("writes".parse::<CostModel>().is_err());
    }

    #[test]
    fn parses_linear_combinations() {
        let f: CostFunction = "reads-writes".parse().unwrap();
        assert_eq!(f.terms(), &[(CostModel::ReadsWrites, 1.0)]);
        let f: CostFunction = "reads+0.5*clusters".parse().unwrap();
        assert_eq!(f.terms(), &[(CostModel::Reads, 1.0), (CostModel::Clusters, 0.5)]);
        let f: CostFunction = " 2 * reads + clusters*3 + reads+-1*fused-edges".parse().unwrap();
        assert_eq!(
            f.terms(),
            &[
                (CostModel::Reads, 2.0),
                (CostModel::Clusters, 3.0),
                (CostModel::Reads, 1.0),
                (CostModel::FusedEdges, -1.0)
            ]
        );
        assert_eq!(f.to_string(), "2*reads+3*clusters+reads+-1*fused-edges");
        assert_eq!(f.to_string().parse::<CostFunction>().unwrap(), f);
        for bad in ["", "  ", "foo", "reads+", "+reads", "0.5*", "reads*clusters", "1*2", "reads-write", "inf*reads"] {
            assert!(bad.parse::<CostFunction>().is_err(), "'{bad}' should not parse");
        }
        assert_eq!(CostFunction::default().to_string(), "reads-writes+3*gathered-folds+3*chained-gathers");
        assert_eq!(
            "reads-writes+3*gathered-folds+3*chained-gathers".parse::<CostFunction>().unwrap(),
            CostFunction::default()
        );
    }

    /// seed 000 §3.3 `simple4`: `bs = gather (is, fold (+) 0 xs)`, the fold over the rows
    /// of the matrix `xs`.
    #[test]
    fn gathered_folds_counts_a_fold_run_in_a_loaded_gathers_order() {
        let mut b = B::new();
        let is = b.input("is");
        let xs = b.input("xs");
        let as_ = b.transducer("as", NodeKind::Fold { commutes: true }, 1, 2);
        let bs = b.op("bs", NodeKind::Gather { label: 2 }, 3);
        b.read(xs, as_);
        b.read(is, bs);
        b.source(as_, bs);
        b.escape(bs);
        let fused = clustering(&b.g, &[&["as", "bs"]], &[("as", 2)]);
        let unfused = Clustering::unfused(&b.g);
        assert_eq!(eval(&b, &fused, CostModel::GatheredFolds), 1.0);
        assert_eq!(eval(&b, &unfused, CostModel::GatheredFolds), 0.0);
        // Under reads-writes the fusion saves the write and the read of `as` (3 against
        // 5); the default cost charges 3 for it and prefers the unfused pair.
        assert_eq!(eval(&b, &fused, CostModel::ReadsWrites), 3.0);
        assert_eq!(eval(&b, &unfused, CostModel::ReadsWrites), 5.0);
        let default = CostFunction::default();
        assert!(default.evaluate(&b.g, &fused) > default.evaluate(&b.g, &unfused));
        // A gather that computes its indices (label 2 below the first loaded label) is
        // not charged.
        b.g.computed_index_gathers = 1;
        assert_eq!(b.g.first_loaded_index_label(), 3);
        assert_eq!(eval(&b, &fused, CostModel::GatheredFolds), 0.0);
    }

    /// seed 000 §3.3 `simple2`: `bs = gather (is2, gather (is1, xs))`, with the labels
    /// of the inner and the outer gather given.
    fn simple2(inner: Order, outer: Order) -> B {
        let mut b = B::new();
        let is1 = b.input("is1");
        let is2 = b.input("is2");
        let xs = b.input("xs");
        let as_ = b.op("as", NodeKind::Gather { label: inner }, 1);
        let bs = b.op("bs", NodeKind::Gather { label: outer }, 1);
        b.read(is1, as_);
        b.source(xs, as_);
        b.read(is2, bs);
        b.source(as_, bs);
        b.escape(bs);
        b
    }

    #[test]
    fn chained_gathers_counts_a_loaded_gather_run_in_a_loaded_gathers_order() {
        let b = simple2(2, 3);
        let fused = clustering(&b.g, &[&["as", "bs"]], &[("as", 3)]);
        let unfused = Clustering::unfused(&b.g);
        assert_eq!(eval(&b, &fused, CostModel::ChainedGathers), 1.0);
        assert_eq!(eval(&b, &unfused, CostModel::ChainedGathers), 0.0);
        assert_eq!(eval(&b, &fused, CostModel::GatheredFolds), 0.0);
        // reads-writes: the fusion saves the write and the read of `as`; the default
        // cost charges 3 for the chain and prefers the unfused pair.
        assert_eq!(eval(&b, &unfused, CostModel::ReadsWrites) - eval(&b, &fused, CostModel::ReadsWrites), 2.0);
        let default = CostFunction::default();
        assert!(default.evaluate(&b.g, &fused) > default.evaluate(&b.g, &unfused));
        // The inner gather computing its indices (label 2 below the first loaded label 3):
        // the fused loop makes one random read per element, not charged.
        let mut b = simple2(2, 3);
        b.g.computed_index_gathers = 1;
        assert_eq!(eval(&b, &fused, CostModel::ChainedGathers), 0.0);
        // Nor a loaded gather run in the order of an outer gather that computes its
        // indices (`reverse (gather (is1, xs))`).
        let mut b = simple2(3, 2);
        b.g.computed_index_gathers = 1;
        let fused = clustering(&b.g, &[&["as", "bs"]], &[("as", 2)]);
        assert_eq!(eval(&b, &fused, CostModel::ChainedGathers), 0.0);
    }

    #[test]
    fn normalize2_under_robinson_is_51_optimal_and_102_stream() {
        let b = normalize2();
        // seed 001 Fig. 1.16.
        let ours = clustering(&b.g, &[&["sum1", "gts", "sum2"], &["ys1", "ys2"]], &[]);
        assert_eq!(eval(&b, &ours, CostModel::Robinson), 51.0);
        // §1.5.1: the clustering implied by pull-based stream fusion.
        let stream = clustering(&b.g, &[&["sum1"], &["gts", "sum2"], &["ys1"], &["ys2"]], &[]);
        assert_eq!(eval(&b, &stream, CostModel::Robinson), 102.0);
        // Unfused: all seven x are 1 (25·5 + 1·2) and gts is materialised (5).
        assert_eq!(eval(&b, &Clustering::unfused(&b.g), CostModel::Robinson), 132.0);
    }

    #[test]
    fn normalize2_under_the_seed_000_models() {
        let b = normalize2();
        let ours = clustering(&b.g, &[&["sum1", "gts", "sum2"], &["ys1", "ys2"]], &[]);
        assert_eq!(eval(&b, &ours, CostModel::Clusters), 2.0);
        // xs once per cluster, sum1 and sum2 once each; gts is fused away.
        assert_eq!(eval(&b, &ours, CostModel::Reads), 4.0);
        // sum1, sum2, ys1, ys2.
        assert_eq!(eval(&b, &ours, CostModel::ReadsWrites), 8.0);
        assert_eq!(eval(&b, &ours, CostModel::IntermediateArrays), 2.0);
        assert_eq!(eval(&b, &ours, CostModel::FusedEdges), 0.0);
        let unfused = Clustering::unfused(&b.g);
        assert_eq!(eval(&b, &unfused, CostModel::Clusters), 5.0);
        assert_eq!(eval(&b, &unfused, CostModel::Reads), 7.0);
        assert_eq!(eval(&b, &unfused, CostModel::ReadsWrites), 12.0);
        assert_eq!(eval(&b, &unfused, CostModel::FusedEdges), 1.0);
    }

    /// Def. 20 on normalize2: `xs` has four readers (6 pairs); `sum1`, `gts` and `sum2`
    /// each one reader (a pair with their producer): 9 pairs, all apart when unfused.
    /// Seed 001's clustering keeps 4 pairs of `xs` readers apart, and `sum1`–`ys1` and
    /// `sum2`–`ys2`.
    #[test]
    fn normalize2_under_max_locality() {
        let b = normalize2();
        assert_eq!(eval(&b, &Clustering::unfused(&b.g), CostModel::MaxLocality), 9.0);
        let ours = clustering(&b.g, &[&["sum1", "gts", "sum2"], &["ys1", "ys2"]], &[]);
        assert_eq!(eval(&b, &ours, CostModel::MaxLocality), 6.0);
    }

    #[test]
    fn scatter_example_both_clusterings_of_fig_3() {
        let b = scatter_example();
        // Fig. 3 left: {as, bs} horizontally over xs, then the scatter.
        let left = clustering(&b.g, &[&["as", "bs"], &["result"]], &[]);
        // Fig. 3 right: bs, then as fused vertically into the scatter.
        let right = clustering(&b.g, &[&["bs"], &["as", "result"]], &[]);
        assert_eq!(eval(&b, &left, CostModel::Clusters), 2.0);
        assert_eq!(eval(&b, &right, CostModel::Clusters), 2.0);
        // left: xs once (shared), as once, bs once (destination); right: xs twice, bs once.
        assert_eq!(eval(&b, &left, CostModel::Reads), 3.0);
        assert_eq!(eval(&b, &right, CostModel::Reads), 3.0);
        // left writes as, bs, result; right writes bs, result: "the second is clearly
        // preferable" (seed 000 §3.4).
        assert_eq!(eval(&b, &left, CostModel::ReadsWrites), 6.0);
        assert_eq!(eval(&b, &right, CostModel::ReadsWrites), 5.0);
        assert_eq!(eval(&b, &left, CostModel::IntermediateArrays), 2.0);
        assert_eq!(eval(&b, &right, CostModel::IntermediateArrays), 1.0);
        assert_eq!(eval(&b, &left, CostModel::FusedEdges), 1.0);
        assert_eq!(eval(&b, &right, CostModel::FusedEdges), 0.0);
        let f: CostFunction = "reads+0.5*clusters".parse().unwrap();
        assert_eq!(f.evaluate(&b.g, &right), 4.0);
    }

    #[test]
    fn reads_in_different_orders_are_not_shared() {
        // simple5: one loop reads xs in order 0 and in the gather's order.
        let b = simple5();
        let one = clustering(&b.g, &[&["as", "bs", "cs"]], &[]);
        assert_eq!(eval(&b, &one, CostModel::Reads), 3.0);
        assert_eq!(eval(&b, &one, CostModel::ReadsWrites), 4.0);
        assert_eq!(eval(&b, &one, CostModel::Clusters), 1.0);
    }

    #[test]
    fn diagonal_fusion_keeps_the_write() {
        let b = single_loop(false);
        let all: &[&[&str]] = &[&["inds", "bs", "cs", "ds", "result"]];
        let c = clustering(&b.g, all, &[]);
        // as is read in the gather's order and in order 0; only result is written.
        assert_eq!(eval(&b, &c, CostModel::Reads), 2.0);
        assert_eq!(eval(&b, &c, CostModel::ReadsWrites), 3.0);
        assert_eq!(eval(&b, &c, CostModel::IntermediateArrays), 0.0);
        let b = single_loop(true);
        let c = clustering(&b.g, all, &[]);
        assert_eq!(eval(&b, &c, CostModel::ReadsWrites), 4.0);
        assert_eq!(eval(&b, &c, CostModel::IntermediateArrays), 0.0, "cs escapes: not intermediate");
    }

    #[test]
    fn bytes_weighs_reads_and_writes() {
        let mut b = scatter_example();
        for (name, bytes) in [("xs", 400), ("as", 800), ("result", 16)] {
            let id = b.id(name);
            b.g.nodes[id.0].output_bytes = vec![Some(bytes)];
        }
        let right = clustering(&b.g, &[&["bs"], &["as", "result"]], &[]);
        // reads: xs twice (800), bs once (unknown: 1); writes: bs (1), result (16).
        assert_eq!(eval(&b, &right, CostModel::Bytes), 800.0 + 1.0 + 1.0 + 16.0);
        let left = clustering(&b.g, &[&["as", "bs"], &["result"]], &[]);
        // reads: xs once, as once, bs once; writes: as, bs, result.
        assert_eq!(eval(&b, &left, CostModel::Bytes), 400.0 + 800.0 + 1.0 + 800.0 + 1.0 + 16.0);
    }

    #[test]
    fn every_model_evaluates_every_example() {
        for b in [normalize2(), scatter_example(), simple5(), single_loop(true)] {
            let c = Clustering::unfused(&b.g);
            for m in CostModel::ALL {
                let v = eval(&b, &c, m);
                assert!(v.is_finite() && v >= 0.0, "{m} = {v}");
            }
        }
    }
}
