//! Seed 003 (Kristensen, Lund, Blum, Avery: *Fusion of Array Operations at Runtime*, the
//! Bohrium paper): the Weighted Subroutine Partition problem (WSP) and its partition
//! algorithms, as a self-contained module that shares no code with the rest of the crate.
//!
//! # What is here, and where it comes from
//! * [`WspGraph`]: a WSP graph `(V, E_d, E_f)` (§III Def. 1): vertices `0..n`, dependency
//!   edges `E_d` forming a DAG, and undirected forbidden (non-fusible) edges `E_f`. A
//!   [`Partition`] is a list of blocks (Def. 3). [`WspGraph::check`] decides legality
//!   (Def. 5, read as Lemma 1 and Theorem 2 use it: see deviation 1), and
//!   [`WspGraph::can_merge`] is Lemma 1's local test for merging two blocks of a legal
//!   partition (Def. 4). [`WspGraph::partition_graph`] is Def. 14 for `E_d`.
//! * [`BlockCost`]: a WSP cost (Def. 6) that is a sum over blocks, as the Bohrium cost of
//!   Def. 13 and all of §VI-A's are. [`partition_cost`] sums it.
//! * [`Program`]: Bohrium's array-operation model (§IV): base arrays and 1-D views of
//!   them ("identical" = equal views, "overlapping" = sharing an element of one base),
//!   operations with `in`/`out`/`new`/`del` sets (Def. 10), fusibility (Def. 12 plus
//!   Bohrium's same-length requirement), dependencies from read/write order, and the
//!   construction of a WSP instance from bytecode (§IV-A.3, [`Program::wsp_graph`]).
//!   [`CostModel`] selects the cost: Bohrium's external bytes (Def. 13) or Max Contract,
//!   Max Locality, Robinson (§VI-A Defs. 19–21); [`Program::cost`] gives the
//!   [`BlockCost`]. [`fig3_program`] is the paper's running example (Fig. 3b).
//! * The algorithms of §V, each returning a legal partition and its cost ([`Solution`]):
//!   [`singleton`] (every vertex alone, the ⊥ of Fig. 4), [`greedy`] (Fig. 7, result
//!   Fig. 8), [`linear`] (§V-E, Fig. 13) and [`optimal`] (an exact branch and bound in the
//!   spirit of §V-D, Figs. 10–12, but not its edge-mask search: see deviation 3).
//!
//! # Interpretations and deviations from the paper
//! 1. *Legality.* Def. 5(2) is stated as block convexity ("if `v1 ← v2 ← v3` and
//!    `v1, v3 ∈ B` then `v2 ∈ B`") followed by "i.e. the directed edges between blocks
//!    must not form cycles". The two differ: with `a → b`, `c → d` the blocks `{a, d}`
//!    and `{b, c}` are both convex but depend on each other. Lemma 1's proof, Theorem 2
//!    and executing blocks one after the other all need the second, so legality here is
//!    "no forbidden pair in a block and an acyclic partition graph" (which implies
//!    convexity).
//! 2. *LEGAL (Fig. 5)* prints "longest path = 1 ⇒ false", the inverse of Lemma 1: a merge
//!    is legal when the blocks share no forbidden edge and no path of length ≥ 2 joins
//!    them (in either direction: weight edges are undirected); a direct edge alone is
//!    fine. [`WspGraph::can_merge`] implements Lemma 1.
//! 3. *OPTIMAL (Fig. 11).* As printed, the loop that enqueues the children (lines 21–25)
//!    lost its indentation: it runs for every dequeued mask, so nothing is ever pruned.
//!    The text says what is meant: a subtree is skipped when its root costs at least the
//!    incumbent or is legal. Even so corrected, the mask search is exact only if the
//!    weight edges include every legal pair, zero saving or not (Fig. 3's `SYNC D`
//!    saves nothing with anyone, yet the optimum needs it inside a block so that `DEL D`
//!    can join that block), and then very many masks give the same partition. So
//!    [`optimal`] enumerates partitions directly, placing the vertices one by one in a
//!    topological order, and prunes with the same monotonicity (Def. 6(2)) the paper's
//!    bound rests on; each pruning rule carries its proof. The unintrusive preconditioner
//!    (Fig. 6, Theorem 3) is not implemented: it only shrinks the search, and its
//!    informal non-fusible sets (Def. 18) do not obviously keep an optimum.
//! 4. *Costs are sums over blocks.* Def. 6 allows any monotone `cost(P)`; every cost the
//!    paper uses is `Σ_B c(B)`, which is monotone exactly when `c` is subadditive
//!    (`c(B1 ∪ B2) ≤ c(B1) + c(B2)`, merging two blocks never costs more) and `c ≥ 0`.
//!    Then Def. 15's weight is `w(B1, B2) = c(B1) + c(B2) − c(B1 ∪ B2)`.
//! 5. *`new` and `del` name base arrays.* Bohrium allocates and frees bases, so `DEL D`
//!    frees every view of `D`; a view counts as in `new[B]` (`del[B]`) when its base is
//!    allocated (deleted) in `B`. This is the reading that gives Fig. 13's linear cost
//!    58: the last linear block writes `D[1:]` and `E[1:]` and deletes `D` and `E`; with
//!    views compared to bases by identity those 8 writes would stay external (66).
//!    Allocation is implicit, as in Bohrium: an operation allocates the bases it writes
//!    that no earlier operation touched (and it does not read).
//! 6. *Units.* Fig. 4's 94 counts elements (4 + 4 + 5 + 5 for the four COPYs, then
//!    12 + 8 + 12 + 8 + 12 + 12 + 12 for lines 5 to 11), so [`fig3_program`] gives every
//!    element 1 byte; with the float64 of `bh.zeros` every Def. 13 cost is 8 times larger
//!    and every partition compares the same.
//! 7. *DEL and SYNC* have no `in`/`out` and no shape (Def. 10: "counted as having no
//!    input or output"), so Def. 12 lets them fuse with anything. For dependencies they
//!    do touch their base: SYNC reads it and DEL writes (frees) it, so they follow the
//!    operations before them on that base. Def. 13 charges nothing for a SYNC, so a
//!    block that writes `D[1:]`, SYNCs `D` and deletes `D` pays nothing for `D[1:]`
//!    although the frontend reads it; we keep the definition (Fig. 13's 58 relies on
//!    it).
//! 8. *Dependencies* (§IV-A.3 step 1, which leaves them informal): a later operation
//!    depends on an earlier one when a view one writes overlaps a view the other reads
//!    or writes (read after write, write after read, write after write).
//! 9. *Greedy* (Fig. 7) loops "while `E_w ≠ ∅`" over a complete weight graph (Def. 15);
//!    taken literally it would also merge pairs that save nothing. Here it stops when
//!    the heaviest remaining edge weighs 0 (ties: the lowest pair of block indices, the
//!    merged block taking the lower index). An edge found illegal is removed for good,
//!    as in Fig. 7, even though a later merge could make it legal.
//! 10. *Fig. 3's numbers* (bytecode line numbers). Singleton 94 (Fig. 4) and linear 58
//!     (Fig. 13) are the paper's; greedy and optimal are not:
//!     * The optimum is 34, not Fig. 12's 38: blocks `{1,2,5,6,7,8,9,12,13}`, `{3,4}`,
//!       `{10,11,14,15,16,17}` cost 12 + 10 + 12 (the last block reads `T`, `E[1:]`,
//!       `D[1:]` and writes `D[1:]`, `E[1:]`, which die in it by `DEL E`, `DEL D`). It is
//!       legal by Defs. 5 and 12 and priced by Def. 13. Our guess at the paper's 38:
//!       keeping `SYNC D` out of that block, as a search over positive-saving weight
//!       edges would (deviation 3), keeps `DEL D` out too (its path from `MAX D[1:]` runs
//!       through `SYNC D`) and leaves the 4 bytes of `D[1:]`: the optimum is then 38.
//!     * Greedy finds 38, not Fig. 8's 58: `{1,2,5,6,7,8,9,12,13}`, `{10,11,14}` (16:
//!       `D[1:]` stays external for the same reason) and `{3}`, `{4}`, `{15}`, `{16}`,
//!       `{17}` alone (no positive saving with any block they may join). Other
//!       tie-breaking ends at 46 (`MUL T` merged with `MAX`/`MIN` before the `A` and `B`
//!       blocks reach it); we found no reading of Fig. 7 and Def. 15 that ends at 58, and
//!       Fig. 8's partition is not in the text, so the test asserts 38.
//! 11. *Max Locality (Def. 20)* is formula (6) as printed: ordered pairs `(f, f')` with
//!     `f'` outside `f`'s block, counting each access in the multiset `ext[f]` (Def. 10's
//!     disjoint union) whose view `f'` also reads or writes. The prose's "fusing four
//!     identical accesses saves 6" counts unordered pairs; (6) counts 12 there.
//! 12. *Max Contract (Def. 19)* as a block sum: `c(B) = |new[B] \ del[B]|`. Summed, this
//!     is `|new[A]| − Σ_B |new[B] ∩ del[B]|`, because every base is allocated at most once.
//! 13. *Shapes* are 1-D lengths: "same length and dimensionality" is equal output length.

use std::collections::BTreeSet;
use std::fmt;

/// A block of a partition: vertex ids.
pub type Block = Vec<usize>;

/// A partition of the vertices (Def. 3): blocks that are disjoint and cover `0..n`.
pub type Partition = Vec<Block>;

/// A WSP graph `(V, E_d, E_f)` (Def. 1) on the vertices `0..n`.
#[derive(Clone, Debug)]
pub struct WspGraph {
    vertices: usize,
    dependencies: Vec<(usize, usize)>,
    forbidden: Vec<(usize, usize)>,
    successors: Vec<Vec<usize>>,
    predecessors: Vec<Vec<usize>>,
    forbidden_with: Vec<BTreeSet<usize>>,
}

/// Why a partition is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// Not a partition of `0..n`: a vertex missing, repeated or out of range, or an
    /// empty block.
    NotAPartition(String),
    /// Def. 5(1): both ends `a`, `b` of a forbidden edge are in one block.
    Forbidden { a: usize, b: usize },
    /// Def. 5(2): the partition graph of `E_d` has this cycle (block indices, each with
    /// an edge to the next and the last to the first).
    Cycle { blocks: Vec<usize> },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::NotAPartition(why) => write!(f, "not a partition: {why}"),
            Illegal::Forbidden { a, b } => write!(f, "forbidden pair {a}, {b} in one block"),
            Illegal::Cycle { blocks } => write!(f, "cycle through blocks {blocks:?} in the partition graph"),
        }
    }
}

impl WspGraph {
    /// The graph with `vertices` vertices, dependency edges `(from, to)` (`from` must run
    /// before `to`) and forbidden pairs. Errors on a vertex out of range, a self-loop, or
    /// a cycle in `E_d`. Repeated edges are harmless.
    pub fn new(
        vertices: usize,
        dependencies: Vec<(usize, usize)>,
        forbidden: Vec<(usize, usize)>,
    ) -> Result<Self, String> {
        let mut successors = vec![Vec::new(); vertices];
        let mut predecessors = vec![Vec::new(); vertices];
        let mut forbidden_with = vec![BTreeSet::new(); vertices];
        for &(a, b) in dependencies.iter().chain(&forbidden) {
            if a >= vertices || b >= vertices {
                return Err(format!("edge ({a}, {b}) names a vertex outside 0..{vertices}"));
            }
            if a == b {
                return Err(format!("self-loop on vertex {a}"));
            }
        }
        for &(a, b) in &dependencies {
            if !successors[a].contains(&b) {
                successors[a].push(b);
                predecessors[b].push(a);
            }
        }
        for &(a, b) in &forbidden {
            forbidden_with[a].insert(b);
            forbidden_with[b].insert(a);
        }
        let graph = WspGraph { vertices, dependencies, forbidden, successors, predecessors, forbidden_with };
        if graph.kahn_order().len() != vertices {
            return Err("the dependency edges E_d have a cycle (Def. 1 requires a DAG)".to_string());
        }
        Ok(graph)
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.vertices
    }

    pub fn is_empty(&self) -> bool {
        self.vertices == 0
    }

    /// `E_d`, as given.
    pub fn dependencies(&self) -> &[(usize, usize)] {
        &self.dependencies
    }

    /// `E_f`, as given.
    pub fn forbidden(&self) -> &[(usize, usize)] {
        &self.forbidden
    }

    /// Whether `a` and `b` are joined by a forbidden edge.
    pub fn is_forbidden(&self, a: usize, b: usize) -> bool {
        self.forbidden_with[a].contains(&b)
    }

    /// A topological order of `E_d`: of the vertices whose predecessors are all placed,
    /// always the smallest, so a graph whose edges all go from lower to higher ids gets
    /// `0..n` (a Bohrium program gets its program order).
    pub fn topological_order(&self) -> Vec<usize> {
        self.kahn_order()
    }

    /// Kahn's algorithm; shorter than `n` exactly when `E_d` has a cycle.
    fn kahn_order(&self) -> Vec<usize> {
        let mut missing: Vec<usize> = self.predecessors.iter().map(Vec::len).collect();
        let mut ready: BTreeSet<usize> = (0..self.vertices).filter(|&v| missing[v] == 0).collect();
        let mut order = Vec::with_capacity(self.vertices);
        while let Some(v) = ready.pop_first() {
            order.push(v);
            for &s in &self.successors[v] {
                missing[s] -= 1;
                if missing[s] == 0 {
                    ready.insert(s);
                }
            }
        }
        order
    }

    /// For each vertex, the index of its block.
    fn block_of(&self, partition: &[Block]) -> Result<Vec<usize>, Illegal> {
        let mut block_of = vec![usize::MAX; self.vertices];
        for (i, block) in partition.iter().enumerate() {
            if block.is_empty() {
                return Err(Illegal::NotAPartition(format!("block {i} is empty")));
            }
            for &v in block {
                if v >= self.vertices {
                    return Err(Illegal::NotAPartition(format!("vertex {v} is outside 0..{}", self.vertices)));
                }
                if block_of[v] != usize::MAX {
                    return Err(Illegal::NotAPartition(format!("vertex {v} is in two blocks")));
                }
                block_of[v] = i;
            }
        }
        if let Some(v) = block_of.iter().position(|&b| b == usize::MAX) {
            return Err(Illegal::NotAPartition(format!("vertex {v} is in no block")));
        }
        Ok(block_of)
    }

    fn quotient(&self, block_of: &[usize], blocks: usize) -> Vec<BTreeSet<usize>> {
        let mut out = vec![BTreeSet::new(); blocks];
        for (u, successors) in self.successors.iter().enumerate() {
            for &v in successors {
                if block_of[u] != block_of[v] {
                    out[block_of[u]].insert(block_of[v]);
                }
            }
        }
        out
    }

    /// The partition graph of `E_d` (Def. 14): for each block (by index), the blocks it
    /// has an edge to. Panics when `partition` is not a partition of `0..n`.
    pub fn partition_graph(&self, partition: &[Block]) -> Vec<BTreeSet<usize>> {
        let block_of = self.block_of(partition).unwrap_or_else(|e| panic!("{e}"));
        self.quotient(&block_of, partition.len())
    }

    /// Whether `partition` is legal (Def. 5, see the module doc's deviation 1).
    pub fn is_legal(&self, partition: &[Block]) -> bool {
        self.check(partition).is_ok()
    }

    /// Checks Def. 5: `partition` is a partition of `0..n`, no block holds both ends of a
    /// forbidden edge, and the partition graph of `E_d` is acyclic.
    pub fn check(&self, partition: &[Block]) -> Result<(), Illegal> {
        let block_of = self.block_of(partition)?;
        for &(a, b) in &self.forbidden {
            if block_of[a] == block_of[b] {
                return Err(Illegal::Forbidden { a, b });
            }
        }
        match find_cycle(&self.quotient(&block_of, partition.len())) {
            Some(blocks) => Err(Illegal::Cycle { blocks }),
            None => Ok(()),
        }
    }

    /// Lemma 1: whether merging blocks `i` and `j` of the legal `partition` gives a legal
    /// partition, decided locally: no forbidden edge between the two blocks, and no path
    /// of length ≥ 2 (through another block) from one to the other in the partition
    /// graph. Panics when `partition` is not a partition of `0..n`; the answer is only
    /// meaningful when `partition` is legal (the lemma's hypothesis).
    pub fn can_merge(&self, partition: &[Block], i: usize, j: usize) -> bool {
        assert!(i != j && i < partition.len() && j < partition.len(), "can_merge needs two distinct blocks");
        if partition[i].iter().any(|&a| partition[j].iter().any(|&b| self.is_forbidden(a, b))) {
            return false;
        }
        let quotient = self.partition_graph(partition);
        !has_long_path(&quotient, i, j) && !has_long_path(&quotient, j, i)
    }
}

/// Whether a path of length ≥ 2 leads from `from` to `to`: a walk that leaves `from` for
/// a block other than `to` and later reaches `to`.
fn has_long_path(quotient: &[BTreeSet<usize>], from: usize, to: usize) -> bool {
    let mut seen = vec![false; quotient.len()];
    let mut stack: Vec<usize> = quotient[from].iter().copied().filter(|&b| b != to).collect();
    while let Some(b) = stack.pop() {
        if b == to {
            return true;
        }
        if !seen[b] {
            seen[b] = true;
            stack.extend(quotient[b].iter().copied());
        }
    }
    false
}

/// A directed cycle of `graph` (successor sets), as the list of its vertices, if any.
fn find_cycle(graph: &[BTreeSet<usize>]) -> Option<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    fn visit(graph: &[BTreeSet<usize>], v: usize, mark: &mut [Mark], path: &mut Vec<usize>) -> Option<Vec<usize>> {
        mark[v] = Mark::OnPath;
        path.push(v);
        for &w in &graph[v] {
            match mark[w] {
                Mark::OnPath => {
                    let start = path.iter().position(|&x| x == w).expect("w is on the path");
                    return Some(path[start..].to_vec());
                }
                Mark::New => {
                    if let Some(cycle) = visit(graph, w, mark, path) {
                        return Some(cycle);
                    }
                }
                Mark::Done => {}
            }
        }
        path.pop();
        mark[v] = Mark::Done;
        None
    }
    let mut mark = vec![Mark::New; graph.len()];
    for v in 0..graph.len() {
        if mark[v] == Mark::New
            && let Some(cycle) = visit(graph, v, &mut mark, &mut Vec::new())
        {
            return Some(cycle);
        }
    }
    None
}

/// A WSP cost (Def. 6) that is a sum over blocks: `cost(P) = Σ_{B ∈ P} c(B)`.
///
/// For it to be a WSP cost, `c` must be non-negative and subadditive,
/// `c(B1 ∪ B2) ≤ c(B1) + c(B2)` for disjoint blocks: then merging blocks never raises
/// the cost (Def. 6(2)). The algorithms rely on it: [`optimal`] prunes with it, and
/// [`greedy`] treats a negative saving as none.
pub trait BlockCost {
    /// `c(block)`; the block's vertices come in ascending order.
    fn block_cost(&self, block: &[usize]) -> u64;
}

impl<F: Fn(&[usize]) -> u64> BlockCost for F {
    fn block_cost(&self, block: &[usize]) -> u64 {
        self(block)
    }
}

/// `cost(P) = Σ_{B ∈ P} c(B)`.
pub fn partition_cost<C: BlockCost + ?Sized>(cost: &C, partition: &[Block]) -> u64 {
    partition.iter().map(|block| sorted_cost(cost, block)).sum()
}

fn sorted_cost<C: BlockCost + ?Sized>(cost: &C, block: &[usize]) -> u64 {
    if block.is_sorted() {
        cost.block_cost(block)
    } else {
        let mut sorted = block.to_vec();
        sorted.sort_unstable();
        cost.block_cost(&sorted)
    }
}

/// A legal partition and its cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Blocks sorted ascending, ordered by their first vertex.
    pub partition: Partition,
    pub cost: u64,
}

impl Solution {
    fn new<C: BlockCost + ?Sized>(cost: &C, mut partition: Partition) -> Self {
        for block in &mut partition {
            block.sort_unstable();
        }
        partition.sort();
        let cost = partition_cost(cost, &partition);
        Solution { partition, cost }
    }
}

/// Every vertex in its own block: the bottom ⊥ of the partition lattice (Fig. 4), always
/// legal because `E_d` is acyclic and no forbidden edge joins a vertex to itself.
pub fn singleton<C: BlockCost + ?Sized>(graph: &WspGraph, cost: &C) -> Solution {
    Solution::new(cost, (0..graph.len()).map(|v| vec![v]).collect())
}

/// The linear merge of §V-E: walk the vertices in [`WspGraph::topological_order`] (for a
/// [`Program`], its program order) and add each to the current block unless that puts a
/// forbidden pair in it; then it starts a new current block.
///
/// Only forbidden edges need checking: every block is an interval of a topological
/// order, and a dependency path leaving an interval can only go to later vertices, so
/// it never re-enters; the partition graph is acyclic.
pub fn linear<C: BlockCost + ?Sized>(graph: &WspGraph, cost: &C) -> Solution {
    let mut partition: Partition = Vec::new();
    let mut current: Block = Vec::new();
    for v in graph.topological_order() {
        if current.iter().any(|&u| graph.is_forbidden(u, v)) {
            partition.push(std::mem::take(&mut current));
        }
        current.push(v);
    }
    if !current.is_empty() {
        partition.push(current);
    }
    Solution::new(cost, partition)
}

/// The greedy merge of Fig. 7: start from ⊥, repeatedly take the heaviest weight edge
/// (Def. 15: the saving of merging its two blocks) and merge over it if Lemma 1 allows,
/// else remove it. See the module doc's deviation 9 for where it stops and ties.
///
/// The partition stays legal: ⊥ is, and each merge is checked by Lemma 1.
pub fn greedy<C: BlockCost + ?Sized>(graph: &WspGraph, cost: &C) -> Solution {
    let mut blocks: Partition = (0..graph.len()).map(|v| vec![v]).collect();
    let mut block_costs: Vec<u64> = blocks.iter().map(|b| cost.block_cost(b)).collect();
    // live[i][j] (i < j): the weight edge between blocks i and j is still in E_w.
    let mut live: Vec<Vec<bool>> = vec![vec![true; blocks.len()]; blocks.len()];
    loop {
        let mut heaviest: Option<(u64, usize, usize, u64)> = None;
        for i in 0..blocks.len() {
            for j in i + 1..blocks.len() {
                if !live[i][j] {
                    continue;
                }
                let merged_cost = cost.block_cost(&merge_sorted(&blocks[i], &blocks[j]));
                let saving = (block_costs[i] + block_costs[j]).saturating_sub(merged_cost);
                if saving > 0 && heaviest.is_none_or(|(best, ..)| saving > best) {
                    heaviest = Some((saving, i, j, merged_cost));
                }
            }
        }
        let Some((_, i, j, merged_cost)) = heaviest else { break };
        if graph.can_merge(&blocks, i, j) {
            // MERGE (Def. 17): block j joins block i; the edges of the merged block are
            // the union of the two blocks' live edges (a vertex contraction).
            let absorbed = blocks.remove(j);
            blocks[i] = merge_sorted(&blocks[i], &absorbed);
            block_costs.remove(j);
            block_costs[i] = merged_cost;
            for k in 0..live.len() {
                let (lo_i, hi_i) = (k.min(i), k.max(i));
                let (lo_j, hi_j) = (k.min(j), k.max(j));
                if k != i && k != j && live[lo_j][hi_j] {
                    live[lo_i][hi_i] = true;
                }
            }
            live.remove(j);
            for row in &mut live {
                row.remove(j);
            }
        } else {
            live[i][j] = false;
        }
    }
    Solution::new(cost, blocks)
}

fn merge_sorted(a: &[usize], b: &[usize]) -> Block {
    let mut merged = [a, b].concat();
    merged.sort_unstable();
    merged
}

/// The largest graph [`optimal`] accepts (its search keeps vertex sets in a `u64`).
pub const MAX_OPTIMAL_VERTICES: usize = 64;

/// A legal partition of least cost (Def. 7), by branch and bound; `None` when the graph
/// has more than [`MAX_OPTIMAL_VERTICES`] vertices. Exponential in the worst case (WSP is
/// NP-hard, Theorem 1).
///
/// The search places the vertices one at a time in [`WspGraph::topological_order`], each
/// into one of the blocks built so far or into a new block; every partition of the
/// vertices arises from exactly one sequence of choices. The incumbent starts as the best
/// of [`singleton`], [`linear`] and [`greedy`] (Fig. 11 line 8's "good guess"), and the
/// search only looks for a strictly cheaper legal partition. The rules that cut the
/// search, each with why it never loses an optimum, are in the comments of
/// `BranchAndBound::place` and `BranchAndBound::lower_bound`.
pub fn optimal<C: BlockCost + ?Sized>(graph: &WspGraph, cost: &C) -> Option<Solution> {
    let n = graph.len();
    if n > MAX_OPTIMAL_VERTICES {
        return None;
    }
    let incumbent = [singleton(graph, cost), linear(graph, cost), greedy(graph, cost)]
        .into_iter()
        .min_by_key(|s| s.cost)
        .expect("three candidates");
    Some(improve(graph, cost, incumbent))
}

/// The branch and bound of [`optimal`] started from `incumbent` (a legal partition of a
/// graph of at most [`MAX_OPTIMAL_VERTICES`] vertices): an optimum, which is `incumbent`
/// itself when nothing is strictly cheaper. Tests start it from ⊥ so that the search,
/// not the heuristics, has to find the optimum.
fn improve<C: BlockCost + ?Sized>(graph: &WspGraph, cost: &C, incumbent: Solution) -> Solution {
    let n = graph.len();
    let bit = |v: usize| 1u64 << v;
    let mask_of = |vs: &[usize]| vs.iter().fold(0u64, |m, &v| m | bit(v));
    let order = graph.topological_order();
    // reach[v]: the vertices at the end of a dependency path of length ≥ 1 from v,
    // accumulated in reverse topological order.
    let mut reach = vec![0u64; n];
    for &v in order.iter().rev() {
        reach[v] = graph.successors[v].iter().fold(0, |m, &s| m | bit(s) | reach[s]);
    }
    let mut search = BranchAndBound {
        cost,
        order,
        predecessors: graph.predecessors.iter().map(|p| mask_of(p)).collect(),
        successors: graph.successors.iter().map(|s| mask_of(s)).collect(),
        reach,
        forbidden: graph.forbidden_with.iter().map(|f| f.iter().fold(0, |m, &v| m | bit(v))).collect(),
        blocks: Vec::new(),
        best_cost: incumbent.cost,
        best: None,
    };
    search.place(0);
    match search.best {
        Some(blocks) => Solution::new(cost, blocks.iter().map(|&m| vertices_of(m)).collect()),
        None => incumbent,
    }
}

fn vertices_of(mask: u64) -> Block {
    (0..64).filter(|&v| mask & (1 << v) != 0).collect()
}

struct BranchAndBound<'a, C: BlockCost + ?Sized> {
    cost: &'a C,
    /// The order in which vertices are placed: topological, so a vertex's predecessors
    /// are placed before it.
    order: Vec<usize>,
    /// Per vertex, as bit sets: direct predecessors, direct successors, every vertex a
    /// path of length ≥ 1 reaches, and the forbidden partners.
    predecessors: Vec<u64>,
    successors: Vec<u64>,
    reach: Vec<u64>,
    forbidden: Vec<u64>,
    /// The blocks of the vertices placed so far.
    blocks: Vec<u64>,
    best_cost: u64,
    /// The best partition found by the search (strictly cheaper than the start).
    best: Option<Vec<u64>>,
}

impl<C: BlockCost + ?Sized> BranchAndBound<'_, C> {
    fn block_cost(&self, mask: u64) -> u64 {
        self.cost.block_cost(&vertices_of(mask))
    }

    /// The vertices in blocks that `start` reaches in the partition graph of the placed
    /// vertices (not counting `start` itself).
    ///
    /// This graph is the final partition graph restricted to the placed vertices: a
    /// dependency path between two placed vertices only passes placed vertices, since
    /// placement follows a topological order.
    fn reachable_from_block(&self, start: usize) -> u64 {
        let mut reached_blocks = 1u64 << start;
        let mut reached_vertices = 0u64;
        let mut stack = vec![start];
        while let Some(b) = stack.pop() {
            let out = vertices_of(self.blocks[b]).iter().fold(0, |m, &v| m | self.successors[v]);
            for (c, &members) in self.blocks.iter().enumerate() {
                if reached_blocks & (1 << c) == 0 && members & out != 0 {
                    reached_blocks |= 1 << c;
                    reached_vertices |= members;
                    stack.push(c);
                }
            }
        }
        reached_vertices
    }

    /// A lower bound on the cost of every completion of the current placement (exact when
    /// every vertex is placed).
    ///
    /// Call a block *closed* when no unplaced vertex can ever join it, because the vertex
    /// is forbidden with a member, or because it is reached by a dependency path from a
    /// vertex `w` of another block that the block reaches in the partition graph
    /// (joining would close the walk block ⇝ block(w) ⇝ block, which contains a cycle;
    /// `w` stays outside the block, being placed elsewhere). In every legal completion the
    /// closed blocks are final, and the other blocks and the unplaced vertices are
    /// partitioned into blocks whose union is `R` = (open blocks ∪ unplaced vertices).
    /// Merging those blocks into one does not raise the cost (Def. 6(2), subadditivity),
    /// so every completion costs at least `Σ_closed c(B) + c(R)`.
    fn lower_bound(&self, unplaced: u64) -> u64 {
        let mut bound = 0;
        let mut rest = unplaced;
        for (i, &members) in self.blocks.iter().enumerate() {
            let mut excluded = 0u64;
            for v in vertices_of(members) {
                excluded |= self.forbidden[v];
            }
            for w in vertices_of(self.reachable_from_block(i)) {
                excluded |= self.reach[w];
            }
            if unplaced & !excluded == 0 {
                bound += self.block_cost(members);
            } else {
                rest |= members;
            }
        }
        if rest != 0 {
            bound += self.block_cost(rest);
        }
        bound
    }

    fn place(&mut self, k: usize) {
        let unplaced = self.order[k..].iter().fold(0u64, |m, &v| m | (1 << v));
        // Bound: every completion costs at least the lower bound (see `lower_bound`), so
        // when that is no less than the incumbent's cost, no completion is strictly
        // cheaper and the subtree can go. At a leaf the bound is the exact cost.
        let bound = self.lower_bound(unplaced);
        if bound >= self.best_cost {
            return;
        }
        if k == self.order.len() {
            // Every block was checked on entry (below), so this partition is legal.
            self.best_cost = bound;
            self.best = Some(self.blocks.clone());
            return;
        }
        let v = self.order[k];
        for i in 0..self.blocks.len() {
            // Pruning: a forbidden partner of v in block i stays there in every completion,
            // which is then illegal (Def. 5(1)).
            if self.forbidden[v] & self.blocks[i] != 0 {
                continue;
            }
            // Pruning: v's dependency edges add partition-graph edges C → block i from the
            // blocks C holding v's predecessors (all placed: topological order); its
            // successors are unplaced. If block i already reaches such a C, the new edge
            // closes a cycle, and partition-graph edges are never removed by later
            // placements, so every completion is illegal (Def. 5(2)). Conversely, if none
            // is reached, no cycle appears: a cycle would have to use a new edge into
            // block i and then leave block i by old edges only, reaching C. So the placed
            // partition graph stays acyclic, which makes every leaf legal.
            let outside_predecessors = self.predecessors[v] & !self.blocks[i];
            if outside_predecessors != 0 && self.reachable_from_block(i) & outside_predecessors != 0 {
                continue;
            }
            self.blocks[i] |= 1 << v;
            self.place(k + 1);
            self.blocks[i] &= !(1 << v);
        }
        // A new block for v: only edges into it appear, which close no cycle.
        self.blocks.push(1 << v);
        self.place(k + 1);
        self.blocks.pop();
    }
}

// ---------------------------------------------------------------------------------------
// Bohrium's array operations (§IV).
// ---------------------------------------------------------------------------------------

/// Index of a base array in its [`Program`].
pub type BaseId = usize;

/// A base array: contiguous, one-dimensional (§IV-A).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseArray {
    pub name: String,
    /// Elements.
    pub len: usize,
    pub elem_bytes: u64,
}

/// A 1-D contiguous view of a base array: elements `offset..offset + len`. Two views are
/// *identical* when equal, and *overlap* when they share an element of one base (§IV-A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct View {
    pub base: BaseId,
    pub offset: usize,
    pub len: usize,
}

impl View {
    /// Whether the two views share an element.
    pub fn overlaps(&self, other: &View) -> bool {
        self.base == other.base
            && self.len > 0
            && other.len > 0
            && self.offset < other.offset + other.len
            && other.offset < self.offset + self.len
    }

    /// Def. 11/12's "`i ∩ o = ∅ ∨ i = o`": disjoint or identical.
    fn disjoint_or_identical(&self, other: &View) -> bool {
        !self.overlaps(other) || self == other
    }
}

/// One Bohrium bytecode operation with its Def. 10 sets. DEL and SYNC have no inputs and
/// outputs (Def. 10); their base is in `del` or `sync`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayOp {
    /// The bytecode, for display (e.g. `ADD A, A, D[:-1]`).
    pub text: String,
    /// `in[f]`: the views read (literal operands are no arrays and are left out).
    pub inputs: Vec<View>,
    /// `out[f]`: the views written.
    pub outputs: Vec<View>,
    /// `new[f]`: the bases this operation allocates (see [`Program::compute`]).
    pub new: Vec<BaseId>,
    /// `del[f]`: the bases this operation deletes (DEL).
    pub del: Vec<BaseId>,
    /// The bases this operation hands to the frontend (SYNC).
    pub sync: Vec<BaseId>,
}

impl ArrayOp {
    /// The length the operation iterates over (its outputs'); DEL and SYNC have none.
    pub fn shape(&self) -> Option<usize> {
        self.outputs.first().map(|v| v.len)
    }
}

/// A list of Bohrium array operations (a bytecode batch) over some base arrays.
#[derive(Clone, Debug, Default)]
pub struct Program {
    bases: Vec<BaseArray>,
    ops: Vec<ArrayOp>,
    /// Per base: whether an operation already read or wrote it (allocation is implicit on
    /// first encounter, §IV-A).
    touched: Vec<bool>,
}

/// Which cost a [`Program`] is partitioned for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostModel {
    /// Def. 13: `Σ_B ‖ext[B]‖`, the bytes each block reads or writes outside itself.
    Bohrium,
    /// Def. 19: the number of allocated arrays not contracted (allocated and deleted in
    /// one block).
    MaxContract,
    /// Def. 20: pairs of identical array accesses in different blocks.
    MaxLocality,
    /// Def. 21: `|P| + N · MaxContract + N² · MaxLocality`, `N` the number of arrays
    /// (views) accessed.
    Robinson,
}

impl CostModel {
    pub const ALL: [CostModel; 4] =
        [CostModel::Bohrium, CostModel::MaxContract, CostModel::MaxLocality, CostModel::Robinson];
}

impl Program {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a base array of `len` elements of `elem_bytes` bytes each.
    pub fn add_base(&mut self, name: &str, len: usize, elem_bytes: u64) -> BaseId {
        self.bases.push(BaseArray { name: name.to_string(), len, elem_bytes });
        self.touched.push(false);
        self.bases.len() - 1
    }

    /// The view of all of `base`.
    pub fn whole(&self, base: BaseId) -> View {
        View { base, offset: 0, len: self.bases[base].len }
    }

    /// The view of elements `offset..offset + len` of `base`.
    pub fn slice(&self, base: BaseId, offset: usize, len: usize) -> View {
        assert!(offset + len <= self.bases[base].len, "view outside its base {}", self.bases[base].name);
        View { base, offset, len }
    }

    pub fn bases(&self) -> &[BaseArray] {
        &self.bases
    }

    pub fn ops(&self) -> &[ArrayOp] {
        &self.ops
    }

    /// Appends an element-wise operation writing `outputs` and reading `inputs` (all of
    /// one length). It allocates (`new[f]`) each base it writes that no earlier operation
    /// touched and that it does not itself read: Bohrium creates arrays on first
    /// encounter, and an array first encountered as an input existed before the batch.
    /// Returns the operation's index.
    pub fn compute(&mut self, text: &str, outputs: &[View], inputs: &[View]) -> usize {
        assert!(!outputs.is_empty(), "{text}: an array operation writes something");
        let len = outputs[0].len;
        assert!(outputs.iter().chain(inputs).all(|v| v.len == len), "{text}: operands of different lengths");
        let mut new: Vec<BaseId> = outputs
            .iter()
            .map(|o| o.base)
            .filter(|&b| !self.touched[b] && inputs.iter().all(|i| i.base != b))
            .collect();
        new.sort_unstable();
        new.dedup();
        for v in outputs.iter().chain(inputs) {
            self.touched[v.base] = true;
        }
        self.push(ArrayOp {
            text: text.to_string(),
            inputs: inputs.to_vec(),
            outputs: outputs.to_vec(),
            new,
            del: Vec::new(),
            sync: Vec::new(),
        })
    }

    /// Appends `DEL base`.
    pub fn del(&mut self, base: BaseId) -> usize {
        let text = format!("DEL {}", self.bases[base].name);
        self.push(ArrayOp { text, inputs: vec![], outputs: vec![], new: vec![], del: vec![base], sync: vec![] })
    }

    /// Appends `SYNC base`.
    pub fn sync(&mut self, base: BaseId) -> usize {
        let text = format!("SYNC {}", self.bases[base].name);
        self.push(ArrayOp { text, inputs: vec![], outputs: vec![], new: vec![], del: vec![], sync: vec![base] })
    }

    fn push(&mut self, op: ArrayOp) -> usize {
        self.ops.push(op);
        self.ops.len() - 1
    }

    /// `‖v‖`: the bytes of a view.
    pub fn bytes(&self, v: &View) -> u64 {
        v.len as u64 * self.bases[v.base].elem_bytes
    }

    /// What operation `f` reads and writes, for dependencies: its inputs and outputs, plus
    /// the whole base a SYNC reads and a DEL frees (module doc, deviation 7).
    fn reads_and_writes(&self, f: usize) -> (Vec<View>, Vec<View>) {
        let op = &self.ops[f];
        let mut reads = op.inputs.clone();
        reads.extend(op.sync.iter().map(|&b| self.whole(b)));
        let mut writes = op.outputs.clone();
        writes.extend(op.del.iter().map(|&b| self.whole(b)));
        (reads, writes)
    }

    /// Whether the later operation `later` must run after `earlier` (`earlier < later` in
    /// program order): one writes a view overlapping a view the other reads or writes.
    pub fn depends(&self, earlier: usize, later: usize) -> bool {
        let (r1, w1) = self.reads_and_writes(earlier);
        let (r2, w2) = self.reads_and_writes(later);
        let overlap = |xs: &[View], ys: &[View]| xs.iter().any(|x| ys.iter().any(|y| x.overlaps(y)));
        overlap(&w1, &r2) || overlap(&w1, &w2) || overlap(&r1, &w2)
    }

    /// Whether operations `f` and `g` may share a block: Def. 12's three conditions (an
    /// output of one and an input or output of the other are disjoint or identical;
    /// together they are symmetric in `f` and `g`) and Bohrium's equal length. DEL and
    /// SYNC have neither operands nor length, so they fuse with anything.
    pub fn fusible(&self, f: usize, g: usize) -> bool {
        let (a, b) = (&self.ops[f], &self.ops[g]);
        if let (Some(x), Some(y)) = (a.shape(), b.shape())
            && x != y
        {
            return false;
        }
        let compatible =
            |outs: &[View], others: &[View]| outs.iter().all(|o| others.iter().all(|x| o.disjoint_or_identical(x)));
        compatible(&a.outputs, &b.inputs) && compatible(&a.outputs, &b.outputs) && compatible(&b.outputs, &a.inputs)
    }

    /// The WSP instance of §IV-A.3: a vertex per operation, a dependency edge per
    /// dependent pair, a forbidden edge per non-fusible pair.
    pub fn wsp_graph(&self) -> WspGraph {
        let n = self.ops.len();
        let mut dependencies = Vec::new();
        let mut forbidden = Vec::new();
        for f in 0..n {
            for g in f + 1..n {
                if self.depends(f, g) {
                    dependencies.push((f, g));
                }
                if !self.fusible(f, g) {
                    forbidden.push((f, g));
                }
            }
        }
        WspGraph::new(n, dependencies, forbidden).expect("program-order dependencies form a DAG")
    }

    /// Def. 10's `ext[B] = (in[B] \ new[B]) ⊔ (out[B] \ del[B])` as a list: the views the
    /// block reads from outside, then those it leaves for outside, a view both read and
    /// written appearing twice. A view is in `new[B]` / `del[B]` when its base is
    /// (module doc, deviation 5).
    pub fn external_accesses(&self, block: &[usize]) -> Vec<View> {
        let mut inputs = BTreeSet::new();
        let mut outputs = BTreeSet::new();
        let mut new = BTreeSet::new();
        let mut del = BTreeSet::new();
        for &f in block {
            let op = &self.ops[f];
            inputs.extend(op.inputs.iter().copied());
            outputs.extend(op.outputs.iter().copied());
            new.extend(op.new.iter().copied());
            del.extend(op.del.iter().copied());
        }
        let read_from_outside = inputs.into_iter().filter(|v| !new.contains(&v.base));
        let left_for_outside = outputs.into_iter().filter(|v| !del.contains(&v.base));
        read_from_outside.chain(left_for_outside).collect()
    }

    /// Def. 13's block cost `‖ext[B]‖`, in bytes.
    pub fn external_bytes(&self, block: &[usize]) -> u64 {
        self.external_accesses(block).iter().map(|v| self.bytes(v)).sum()
    }

    /// The block cost of `model` over this program.
    pub fn cost(&self, model: CostModel) -> ProgramCost<'_> {
        ProgramCost::new(self, model)
    }

    /// The partition with the bytecode of each operation, one block per line, e.g. for
    /// test failure messages.
    pub fn render(&self, partition: &[Block]) -> String {
        let mut out = String::new();
        for block in partition {
            let texts: Vec<String> = block.iter().map(|&f| format!("{}: {}", f + 1, self.ops[f].text)).collect();
            out.push_str(&format!("{{{}}}\n", texts.join("; ")));
        }
        out
    }
}

/// A [`CostModel`] over a [`Program`], as a [`BlockCost`].
#[derive(Clone, Debug)]
pub struct ProgramCost<'a> {
    program: &'a Program,
    model: CostModel,
    /// Def. 20's `|ext[f] ∩ io[f']|` for every ordered pair of operations.
    locality: Vec<Vec<u64>>,
    /// Def. 21's `N`: the number of distinct views accessed.
    accessed_arrays: u64,
}

impl<'a> ProgramCost<'a> {
    /// The block cost of `model` over `program` (precomputes Def. 20's pair counts).
    pub fn new(program: &'a Program, model: CostModel) -> Self {
        let n = program.ops.len();
        let io = |f: usize| -> BTreeSet<View> {
            program.ops[f].inputs.iter().chain(&program.ops[f].outputs).copied().collect()
        };
        let mut locality = vec![vec![0; n]; n];
        for (f, row) in locality.iter_mut().enumerate() {
            let ext = program.external_accesses(&[f]);
            for (g, entry) in row.iter_mut().enumerate() {
                if f != g {
                    let io_g = io(g);
                    *entry = ext.iter().filter(|v| io_g.contains(v)).count() as u64;
                }
            }
        }
        let accessed: BTreeSet<View> = (0..n).flat_map(io).collect();
        ProgramCost { program, model, locality, accessed_arrays: accessed.len() as u64 }
    }

    /// Def. 19 per block: the bases allocated in the block and not deleted in it.
    fn max_contract(&self, block: &[usize]) -> u64 {
        let mut new = BTreeSet::new();
        let mut del = BTreeSet::new();
        for &f in block {
            new.extend(self.program.ops[f].new.iter().copied());
            del.extend(self.program.ops[f].del.iter().copied());
        }
        new.difference(&del).count() as u64
    }

    /// Def. 20 per block: `Σ_{f ∈ B} Σ_{f' ∉ B} |ext[f] ∩ io[f']|`.
    fn max_locality(&self, block: &[usize]) -> u64 {
        let inside: BTreeSet<usize> = block.iter().copied().collect();
        let outside: Vec<usize> = (0..self.program.ops.len()).filter(|g| !inside.contains(g)).collect();
        block.iter().map(|&f| outside.iter().map(|&g| self.locality[f][g]).sum::<u64>()).sum()
    }
}

impl BlockCost for ProgramCost<'_> {
    fn block_cost(&self, block: &[usize]) -> u64 {
        match self.model {
            CostModel::Bohrium => self.program.external_bytes(block),
            CostModel::MaxContract => self.max_contract(block),
            CostModel::MaxLocality => self.max_locality(block),
            // Def. 21's |P| is one per block.
            CostModel::Robinson => {
                let n = self.accessed_arrays;
                1 + n * self.max_contract(block) + n * n * self.max_locality(block)
            }
        }
    }
}

/// The synthetic program of Fig. 3: the 17 bytecode lines of Fig. 3b (operation `i` is
/// line `i + 1`) over `A`, `B`, `T` (4 elements) and `D`, `E` (5 elements), with 1-byte
/// elements so that costs count elements as the paper's do (module doc, deviation 6).
pub fn fig3_program() -> Program {
    let mut p = Program::new();
    let a = p.add_base("A", 4, 1);
    let b = p.add_base("B", 4, 1);
    let d = p.add_base("D", 5, 1);
    let e = p.add_base("E", 5, 1);
    let t = p.add_base("T", 4, 1);
    let (va, vb, vd, ve, vt) = (p.whole(a), p.whole(b), p.whole(d), p.whole(e), p.whole(t));
    let d_init = p.slice(d, 0, 4); // D[:-1]
    let d_tail = p.slice(d, 1, 4); // D[1:]
    let e_init = p.slice(e, 0, 4); // E[:-1]
    let e_tail = p.slice(e, 1, 4); // E[1:]
    p.compute("COPY A, 0", &[va], &[]);
    p.compute("COPY B, 0", &[vb], &[]);
    p.compute("COPY D, 0", &[vd], &[]);
    p.compute("COPY E, 0", &[ve], &[]);
    p.compute("ADD A, A, D[:-1]", &[va], &[va, d_init]);
    p.compute("COPY A, D[:-1]", &[va], &[d_init]);
    p.compute("ADD B, B, E[:-1]", &[vb], &[vb, e_init]);
    p.compute("COPY B, E[:-1]", &[vb], &[e_init]);
    p.compute("MUL T, A, B", &[vt], &[va, vb]);
    p.compute("MAX D[1:], T, E[1:]", &[d_tail], &[vt, e_tail]);
    p.compute("MIN E[1:], T, D[1:]", &[e_tail], &[vt, d_tail]);
    p.del(a);
    p.del(b);
    p.del(e);
    p.del(t);
    p.sync(d);
    p.del(d);
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Fig. 3's operations by their bytecode line number (1-based, as in the paper).
    fn lines(numbers: &[usize]) -> Block {
        numbers.iter().map(|n| n - 1).collect()
    }

    fn assert_solution_is_sound<C: BlockCost>(graph: &WspGraph, cost: &C, solution: &Solution, what: &str) {
        graph.check(&solution.partition).unwrap_or_else(|e| panic!("{what}: illegal result: {e}"));
        assert!(independent::legal(graph, &solution.partition), "{what}: the independent check rejects the result");
        assert_eq!(
            solution.cost,
            partition_cost(cost, &solution.partition),
            "{what}: reported cost is not the partition's"
        );
    }

    #[test]
    fn fig3_costs_under_def13() {
        let program = fig3_program();
        let graph = program.wsp_graph();
        let cost = program.cost(CostModel::Bohrium);
        let solutions = [
            ("singleton", singleton(&graph, &cost)),
            ("greedy", greedy(&graph, &cost)),
            ("linear", linear(&graph, &cost)),
            ("optimal", optimal(&graph, &cost).expect("17 vertices")),
        ];
        for (name, s) in &solutions {
            assert_solution_is_sound(&graph, &cost, s, name);
        }
        let costs: Vec<u64> = solutions.iter().map(|(_, s)| s.cost).collect();
        // Singleton 94 (Fig. 4) and linear 58 (Fig. 13) are the paper's. Greedy (paper:
        // 58, Fig. 8) finds 38 and the optimum (paper: 38, Fig. 12) is 34; see
        // `fig3_greedy`, `fig3_optimum` and the module doc's deviation 10.
        assert_eq!(costs, [94, 38, 58, 34], "\n{}", program.render(&solutions[3].1.partition));
    }

    #[test]
    fn fig3_linear() {
        // Fig. 13's 58 (bytecode line numbers): {1,2} writes A, B (8); {3,4} writes D, E
        // (10); 5 cannot join 3 (length 5 against 4), and {5,...,9} reads A, D[:-1], B,
        // E[:-1] and writes A, B, T (28); 10 cannot join 5 (Def. 12), and {10,...,17}
        // reads T, E[1:], D[1:] (12) and writes D[1:], E[1:], whose bases it deletes (0).
        // With `del` compared to views by identity the last block would cost 20 (66 in
        // all): deviation 5.
        let program = fig3_program();
        let graph = program.wsp_graph();
        let cost = program.cost(CostModel::Bohrium);
        let expected =
            vec![lines(&[1, 2]), lines(&[3, 4]), lines(&[5, 6, 7, 8, 9]), lines(&[10, 11, 12, 13, 14, 15, 16, 17])];
        let found = linear(&graph, &cost);
        assert_eq!(found.partition, expected, "\n{}", program.render(&found.partition));
        let block_costs: Vec<u64> = expected.iter().map(|b| cost.block_cost(b)).collect();
        assert_eq!(block_costs, [8, 10, 28, 12]);
    }

    #[test]
    fn fig3_greedy() {
        // Greedy first merges the 8-byte savings (1 + 5, then 6; 2 + 7, then 8), then
        // joins A's and B's blocks through MUL T (9) and adds DEL A, DEL B; 10 and 11
        // (which cannot join 5 and 7) merge with each other and DEL E. DEL T, SYNC D, DEL D,
        // COPY D and COPY E save nothing with any block they may join, and DEL D may not
        // join {10,11,14} without SYNC D (path 10 → 16 → 17), so D[1:] stays external.
        let program = fig3_program();
        let graph = program.wsp_graph();
        let cost = program.cost(CostModel::Bohrium);
        let found = greedy(&graph, &cost);
        let expected = vec![
            lines(&[1, 2, 5, 6, 7, 8, 9, 12, 13]),
            lines(&[3]),
            lines(&[4]),
            lines(&[10, 11, 14]),
            lines(&[15]),
            lines(&[16]),
            lines(&[17]),
        ];
        assert_eq!(found.partition, expected, "\n{}", program.render(&found.partition));
        assert_eq!(found.cost, 12 + 5 + 5 + 16);
    }

    #[test]
    fn fig3_optimum() {
        // The optimum, worked by hand (bytecode line numbers, Def. 13 costs):
        // * {1,2,5,6,7,8,9,12,13}: allocates A, B, T, deletes A, B; reads D[:-1], E[:-1]
        //   (8) and leaves T (4) for outside: 12.
        // * {3,4}: writes D, E (5 + 5), which later blocks read: 10. Their length 5 keeps
        //   them from every other computing operation.
        // * {10,11,14,15,16,17}: reads T, E[1:], D[1:] (12); it writes D[1:], E[1:] but
        //   deletes D and E, so nothing leaves: 12.
        // Legal: 5, 6 (read D[:-1]) cannot join MAX D[1:] (10) and 7, 8 (read E[:-1])
        // cannot join MIN E[1:] (11) by Def. 12, and every dependency between blocks goes
        // from the first block or {3,4} to the last one.
        let program = fig3_program();
        let graph = program.wsp_graph();
        let cost = program.cost(CostModel::Bohrium);
        let expected = vec![lines(&[1, 2, 5, 6, 7, 8, 9, 12, 13]), lines(&[3, 4]), lines(&[10, 11, 14, 15, 16, 17])];
        assert!(graph.is_legal(&expected));
        assert_eq!(partition_cost(&cost, &expected), 34);
        let found = optimal(&graph, &cost).unwrap();
        assert_eq!(found.cost, 34, "\n{}", program.render(&found.partition));
        // The search alone, started from ⊥ (94) instead of greedy's 38, finds it too.
        let from_bottom = improve(&graph, &cost, singleton(&graph, &cost));
        assert_eq!(from_bottom.cost, 34, "\n{}", program.render(&from_bottom.partition));
    }

    #[test]
    fn fig3_optimum_is_the_papers_38_when_sync_stays_alone() {
        // Our reading of the paper's 38 (module doc, deviations 3 and 10): SYNC D saves
        // nothing with any block (Def. 10 gives it no operands), so a search over
        // positive-saving weight edges never merges it. Forbidding it to fuse at all keeps
        // DEL D (which follows it) out of the block writing D[1:] (the path through
        // SYNC D would be a cycle), and the optimum becomes 38.
        let program = fig3_program();
        let base = program.wsp_graph();
        let sync = 15;
        assert_eq!(program.ops()[sync].text, "SYNC D");
        let mut forbidden = base.forbidden().to_vec();
        forbidden.extend((0..base.len()).filter(|&v| v != sync).map(|v| (v, sync)));
        let graph = WspGraph::new(base.len(), base.dependencies().to_vec(), forbidden).unwrap();
        let cost = program.cost(CostModel::Bohrium);
        let found = optimal(&graph, &cost).unwrap();
        assert_solution_is_sound(&graph, &cost, &found, "optimal without SYNC fusion");
        assert_eq!(found.cost, 38, "\n{}", program.render(&found.partition));
    }

    #[test]
    fn fig3_fusibility_and_dependencies() {
        let program = fig3_program();
        let graph = program.wsp_graph();
        let forbidden: BTreeSet<(usize, usize)> = graph.forbidden().iter().map(|&(a, b)| (a + 1, b + 1)).collect();
        // Def. 12: reading D[:-1] against writing D[1:] (and E likewise) overlaps without
        // being identical.
        let mut expected: BTreeSet<(usize, usize)> = [(5, 10), (6, 10), (7, 11), (8, 11)].into();
        // Bohrium's equal length: COPY D, 0 and COPY E, 0 (5 elements) against every
        // 4-element operation.
        for long in [3, 4] {
            for short in [1, 2, 5, 6, 7, 8, 9, 10, 11] {
                expected.insert((long.min(short), long.max(short)));
            }
        }
        assert_eq!(forbidden, expected);
        // MAX D[1:] then MIN ... D[1:]: identical views, so fusible though dependent.
        assert!(program.depends(9, 10) && program.fusible(9, 10));
        // Reads of D[:-1] and D[1:] do not order each other; SYNC D waits for MAX D[1:].
        assert!(!program.depends(4, 10));
        assert!(program.depends(9, 15) && program.depends(15, 16) && !program.depends(10, 15));
        let ops = program.ops();
        let new: Vec<&str> = ops.iter().filter(|op| !op.new.is_empty()).map(|op| op.text.as_str()).collect();
        assert_eq!(new, ["COPY A, 0", "COPY B, 0", "COPY D, 0", "COPY E, 0", "MUL T, A, B"]);
    }

    #[test]
    fn fig3_max_contract_optimum_is_3() {
        // Singleton: all five allocated arrays stay (5). Contracting an array puts the
        // line allocating it, the line deleting it and every line on a dependency path
        // between them in one block (bytecode line numbers):
        // * A: 1, 5, 6, 9, 12; B: 2, 7, 8, 9, 13. Both hold 9, so they share a block,
        //   which is legal.
        // * T: 9, 10, 11, 15. With A's block it would hold 5 and 10, with B's 7 and 11:
        //   forbidden by Def. 12. So T alone (4) is worse than A and B (3).
        // * D: 3, 5, 17 (3 → 5 → 17) and E: 4, 7, 14 put a 5-element COPY with a
        //   4-element operation: never.
        // So the best is A and B contracted: 5 − 2 = 3.
        let program = fig3_program();
        let graph = program.wsp_graph();
        let cost = program.cost(CostModel::MaxContract);
        assert_eq!(singleton(&graph, &cost).cost, 5);
        let found = optimal(&graph, &cost).unwrap();
        assert_solution_is_sound(&graph, &cost, &found, "optimal, Max Contract");
        assert_eq!(found.cost, 3, "\n{}", program.render(&found.partition));
    }

    #[test]
    fn fig3_all_cost_models_order_the_algorithms() {
        let program = fig3_program();
        let graph = program.wsp_graph();
        for model in CostModel::ALL {
            let cost = program.cost(model);
            let best = optimal(&graph, &cost).unwrap();
            assert_solution_is_sound(&graph, &cost, &best, "optimal");
            for (name, s) in [
                ("singleton", singleton(&graph, &cost)),
                ("greedy", greedy(&graph, &cost)),
                ("linear", linear(&graph, &cost)),
            ] {
                assert_solution_is_sound(&graph, &cost, &s, name);
                assert!(s.cost >= best.cost, "{model:?}: {name} {} beats optimal {}", s.cost, best.cost);
            }
        }
    }

    #[test]
    fn max_locality_counts_ordered_pairs() {
        // Four operations reading the same array X: each has X in ext[f] once, and each of
        // the three others reads it, so the singleton partition costs 4 · 3 = 12 (the
        // prose's "saving of 6" counts unordered pairs; module doc, deviation 11). All in
        // one block costs 0.
        let mut p = Program::new();
        let x = p.add_base("X", 3, 8);
        let x_view = p.whole(x);
        let ys: Vec<BaseId> = (0..4).map(|i| p.add_base(&format!("Y{i}"), 3, 8)).collect();
        for &y in &ys {
            let y_view = p.whole(y);
            p.compute("COPY Y, X", &[y_view], &[x_view]);
        }
        let graph = p.wsp_graph();
        let cost = p.cost(CostModel::MaxLocality);
        assert_eq!(singleton(&graph, &cost).cost, 12);
        assert_eq!(cost.block_cost(&[0, 1, 2, 3]), 0);
        assert_eq!(optimal(&graph, &cost).unwrap().cost, 0);
    }

    #[test]
    fn legality_rejects_a_forbidden_pair() {
        let graph = WspGraph::new(3, vec![(0, 1)], vec![(0, 2)]).unwrap();
        assert_eq!(graph.check(&[vec![0, 2], vec![1]]), Err(Illegal::Forbidden { a: 0, b: 2 }));
        assert!(graph.is_legal(&[vec![0, 1], vec![2]]));
        assert!(!graph.can_merge(&[vec![0], vec![1], vec![2]], 0, 2));
        assert!(graph.can_merge(&[vec![0], vec![1], vec![2]], 0, 1));
    }

    #[test]
    fn legality_rejects_a_block_that_a_path_leaves_and_reenters() {
        // 0 → 1 → 2: {0, 2} is left by 0 → 1 and re-entered by 1 → 2.
        let graph = WspGraph::new(3, vec![(0, 1), (1, 2)], vec![]).unwrap();
        assert!(matches!(graph.check(&[vec![0, 2], vec![1]]), Err(Illegal::Cycle { .. })));
        assert!(graph.is_legal(&[vec![0, 1, 2]]));
        // Lemma 1: 0 and 2 are joined by a path of length 2, 0 and 1 directly.
        let bottom = [vec![0], vec![1], vec![2]];
        assert!(!graph.can_merge(&bottom, 0, 2) && !graph.can_merge(&bottom, 2, 0));
        assert!(graph.can_merge(&bottom, 0, 1));
    }

    #[test]
    fn legality_rejects_convex_blocks_that_depend_on_each_other() {
        // a → b and c → d: {a, d} and {b, c} are both convex (Def. 5(2) as formally
        // stated), but each needs the other first (module doc, deviation 1).
        let graph = WspGraph::new(4, vec![(0, 1), (2, 3)], vec![]).unwrap();
        let p = [vec![0, 3], vec![1, 2]];
        assert_eq!(graph.check(&p), Err(Illegal::Cycle { blocks: vec![0, 1] }));
        assert!(!graph.can_merge(&[vec![0, 3], vec![1], vec![2]], 1, 2));
    }

    #[test]
    fn legality_rejects_non_partitions_and_graph_rejects_cycles() {
        let graph = WspGraph::new(3, vec![], vec![]).unwrap();
        assert!(matches!(graph.check(&[vec![0, 1]]), Err(Illegal::NotAPartition(_))));
        assert!(matches!(graph.check(&[vec![0, 1], vec![1, 2]]), Err(Illegal::NotAPartition(_))));
        assert!(matches!(graph.check(&[vec![0, 1, 2], vec![]]), Err(Illegal::NotAPartition(_))));
        assert!(WspGraph::new(2, vec![(0, 1), (1, 0)], vec![]).is_err());
        assert!(WspGraph::new(2, vec![(0, 2)], vec![]).is_err());
    }

    /// The reference the tests compare with: an enumeration of every set partition and a
    /// legality check written from Def. 5 without the module's code.
    mod independent {
        use super::super::{Block, WspGraph};

        /// Every set partition of `0..n`, by restricted growth strings.
        pub fn all_partitions(n: usize) -> Vec<Vec<Block>> {
            fn extend(v: usize, n: usize, labels: &mut Vec<usize>, out: &mut Vec<Vec<Block>>) {
                if v == n {
                    let blocks = labels.iter().max().map_or(0, |m| m + 1);
                    let mut p = vec![Vec::new(); blocks];
                    for (u, &l) in labels.iter().enumerate() {
                        p[l].push(u);
                    }
                    out.push(p);
                    return;
                }
                let next_label = labels.iter().max().map_or(0, |m| m + 1);
                for l in 0..=next_label {
                    labels.push(l);
                    extend(v + 1, n, labels, out);
                    labels.pop();
                }
            }
            let mut out = Vec::new();
            extend(0, n, &mut Vec::new(), &mut out);
            out
        }

        /// Def. 5: no forbidden pair inside a block; no block reaches itself in the
        /// transitive closure (Floyd–Warshall) of the block-level dependency relation.
        pub fn legal(graph: &WspGraph, partition: &[Block]) -> bool {
            let n = graph.len();
            let mut label = vec![None; n];
            for (i, block) in partition.iter().enumerate() {
                for &v in block {
                    if v >= n || label[v].is_some() {
                        return false;
                    }
                    label[v] = Some(i);
                }
            }
            let Some(label): Option<Vec<usize>> = label.into_iter().collect() else { return false };
            if graph.forbidden().iter().any(|&(a, b)| label[a] == label[b]) {
                return false;
            }
            let k = partition.len();
            let mut reach = vec![vec![false; k]; k];
            for &(a, b) in graph.dependencies() {
                if label[a] != label[b] {
                    reach[label[a]][label[b]] = true;
                }
            }
            for m in 0..k {
                for i in 0..k {
                    for j in 0..k {
                        if reach[i][m] && reach[m][j] {
                            reach[i][j] = true;
                        }
                    }
                }
            }
            (0..k).all(|i| !reach[i][i])
        }
    }

    /// A random WSP graph on `n` vertices whose ids are shuffled (so `0..n` is usually
    /// not a topological order), with dependency and forbidden edges of the given odds.
    fn random_graph(rng: &mut SplitMix64, n: usize, dependency_percent: u64, forbidden_percent: u64) -> WspGraph {
        let mut ids: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            ids.swap(i, rng.below(i + 1));
        }
        let mut dependencies = Vec::new();
        let mut forbidden = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if rng.chance(dependency_percent) {
                    dependencies.push((ids[i], ids[j]));
                }
                if rng.chance(forbidden_percent) {
                    forbidden.push((ids[j], ids[i]));
                }
            }
        }
        WspGraph::new(n, dependencies, forbidden).unwrap()
    }

    /// A random subadditive block cost: a per-block overhead plus the weight of the union
    /// of the items the block's vertices touch (a coverage function).
    fn random_coverage_cost(rng: &mut SplitMix64, n: usize) -> impl Fn(&[usize]) -> u64 + use<> {
        let overhead = rng.below(4) as u64;
        let weights: Vec<u64> = (0..6).map(|_| 1 + rng.below(10) as u64).collect();
        let items: Vec<u64> = (0..n).map(|_| rng.next_u64() & 0b11_1111).collect();
        move |block: &[usize]| {
            let covered = block.iter().fold(0u64, |m, &v| m | items[v]);
            overhead + (0..6).filter(|&i| covered & (1 << i) != 0).map(|i| weights[i]).sum::<u64>()
        }
    }

    fn exhaustive_minimum<C: BlockCost>(graph: &WspGraph, cost: &C) -> u64 {
        independent::all_partitions(graph.len())
            .into_iter()
            .filter(|p| independent::legal(graph, p))
            .map(|p| p.iter().map(|b| cost.block_cost(b)).sum::<u64>())
            .min()
            .expect("the singleton partition is legal")
    }

    /// Checks `optimal`, and its search started from ⊥, against the exhaustive minimum,
    /// and the heuristics against it. Returns whether ⊥ is not optimal (the search from ⊥
    /// had to find a better partition) and whether every heuristic missed the optimum
    /// (`optimal`'s search, not its incumbent, found it).
    fn compare_with_exhaustive<C: BlockCost>(graph: &WspGraph, cost: &C, what: &str) -> (bool, bool) {
        let minimum = exhaustive_minimum(graph, cost);
        let best = optimal(graph, cost).unwrap();
        assert_solution_is_sound(graph, cost, &best, what);
        assert_eq!(best.cost, minimum, "{what}: {:?}", best.partition);
        let from_bottom = improve(graph, cost, singleton(graph, cost));
        assert_solution_is_sound(graph, cost, &from_bottom, &format!("{what}, search from ⊥"));
        assert_eq!(from_bottom.cost, minimum, "{what}, search from ⊥: {:?}", from_bottom.partition);
        let mut all_missed = true;
        for (name, s) in
            [("singleton", singleton(graph, cost)), ("greedy", greedy(graph, cost)), ("linear", linear(graph, cost))]
        {
            assert_solution_is_sound(graph, cost, &s, &format!("{what}, {name}"));
            assert!(s.cost >= best.cost, "{what}: {name} costs {} < optimal {}", s.cost, best.cost);
            all_missed &= s.cost > best.cost;
        }
        (singleton(graph, cost).cost > minimum, all_missed)
    }

    #[test]
    fn optimal_matches_exhaustive_search_on_random_instances() {
        let mut rng = SplitMix64::from_state(0x003_5eed);
        let (mut bottom_improved, mut heuristics_missed) = (0, 0);
        for case in 0..400 {
            let n = 2 + rng.below(6);
            let (dependency_percent, forbidden_percent) = (5 + rng.below(40) as u64, rng.below(40) as u64);
            let graph = random_graph(&mut rng, n, dependency_percent, forbidden_percent);
            let cost = random_coverage_cost(&mut rng, n);
            let (improved, missed) = compare_with_exhaustive(&graph, &cost, &format!("case {case}"));
            bottom_improved += usize::from(improved);
            heuristics_missed += usize::from(missed);
        }
        // The comparisons test the search only where its start is not optimal.
        assert!(bottom_improved >= 200 && heuristics_missed >= 20, "{bottom_improved}, {heuristics_missed}");
    }

    /// A random Bohrium program of 4 to 7 operations: element-wise operations (mostly of
    /// length 4) over whole, `[:-1]` and `[1:]` views of three bases of 4 or 5 elements,
    /// some SYNCs, and DELs of distinct bases at the end (nothing touches a base after
    /// its DEL).
    fn random_program(rng: &mut SplitMix64) -> Program {
        let mut p = Program::new();
        let bases: Vec<BaseId> =
            (0..3).map(|i| p.add_base(&format!("X{i}"), 4 + rng.below(2), [1, 2, 8][rng.below(3)])).collect();
        let ops = 4 + rng.below(4);
        let deleted: Vec<BaseId> = bases.iter().copied().filter(|_| rng.chance(40)).take(ops - 1).collect();
        for _ in 0..ops - deleted.len() {
            let len = if rng.chance(75) { 4 } else { 3 };
            // Views of length `len`: a base of length len (whole), or len + 1 ([:-1] or [1:]).
            let mut views = Vec::new();
            for &b in &bases {
                let base_len = p.bases()[b].len;
                if base_len == len {
                    views.push(p.whole(b));
                } else if base_len == len + 1 {
                    views.push(p.slice(b, 0, len));
                    views.push(p.slice(b, 1, len));
                }
            }
            if views.is_empty() || rng.chance(10) {
                p.sync(bases[rng.below(3)]);
                continue;
            }
            let output = views[rng.below(views.len())];
            let inputs: Vec<View> = (0..1 + rng.below(2)).map(|_| views[rng.below(views.len())]).collect();
            p.compute("OP", &[output], &inputs);
        }
        for b in deleted {
            p.del(b);
        }
        p
    }

    #[test]
    fn optimal_matches_exhaustive_search_on_random_programs() {
        let mut rng = SplitMix64::from_state(0xb0_4121);
        let (mut bottom_improved, mut heuristics_missed) = (0, 0);
        for case in 0..150 {
            let program = random_program(&mut rng);
            let graph = program.wsp_graph();
            for model in CostModel::ALL {
                let cost = program.cost(model);
                let (improved, missed) = compare_with_exhaustive(&graph, &cost, &format!("program {case}, {model:?}"));
                bottom_improved += usize::from(improved);
                heuristics_missed += usize::from(missed);
            }
        }
        // Small programs rarely defeat all three heuristics, but ⊥ is seldom optimal.
        assert!(bottom_improved >= 300 && heuristics_missed >= 1, "{bottom_improved}, {heuristics_missed}");
    }

    #[test]
    fn program_cost_models_are_subadditive() {
        // Def. 6(2) for block sums: merging two disjoint blocks never costs more.
        let mut rng = SplitMix64::from_state(0x5ab_add);
        for _ in 0..200 {
            let program = random_program(&mut rng);
            let n = program.ops().len();
            let labels: Vec<usize> = (0..n).map(|_| rng.below(3)).collect();
            let block = |l: usize| -> Block { (0..n).filter(|&f| labels[f] == l).collect() };
            let (b1, b2) = (block(0), block(1));
            for model in CostModel::ALL {
                let cost = program.cost(model);
                let merged = merge_sorted(&b1, &b2);
                assert!(cost.block_cost(&merged) <= cost.block_cost(&b1) + cost.block_cost(&b2), "{model:?}");
            }
        }
    }

    #[test]
    fn lemma1_agrees_with_legality_of_the_merged_partition() {
        // Lemma 1 is an "if and only if": on legal partitions, can_merge(i, j) must equal
        // the legality of the merged partition.
        let mut rng = SplitMix64::from_state(0x1e_aa_a1);
        let mut checked = 0;
        for _ in 0..200 {
            let n = 2 + rng.below(6);
            let graph = random_graph(&mut rng, n, 35, 15);
            for p in independent::all_partitions(n).into_iter().filter(|p| independent::legal(&graph, p)) {
                for i in 0..p.len() {
                    for j in i + 1..p.len() {
                        let mut merged = p.clone();
                        let absorbed = merged.remove(j);
                        merged[i].extend(absorbed);
                        assert_eq!(
                            graph.can_merge(&p, i, j),
                            independent::legal(&graph, &merged),
                            "{p:?} merging {i}, {j}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000);
    }
}
