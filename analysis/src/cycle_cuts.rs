//! Cycle inequalities of the linear formulations, separated inside SCIP's branch and
//! cut ([`fusion_solver::CutSeparator`]).
//!
//! In the `combined` model every node has a cluster position π. Two kinds of relation
//! hold between positions in every integer-feasible point:
//! * a **link** (a fusible pair with x = 0, or two readers sharing a read with z = 1)
//!   forces equal π when it is *active*; its weight `w` is `x`, or `1 − z`, so an active
//!   link weighs 0;
//! * an **arc** (every edge of the graph, and every scatter precedence of seed 000 (9))
//!   goes forward: π never decreases along it, and rises by at least 1 when the arc is
//!   *strict*: always (an infusible edge, a scatter precedence), or when its pair is not
//!   fused (x = 1). Its strictness `s` is 1 or `x`.
//!
//! **Cycle inequality.** For an arc a → c and a walk W from c back to a made of arcs
//! (forward only) and links (either way): `s(a → c) ≤ Σ_{links l of W} w_l`.
//!
//! **Proof.** Take an integer-feasible point. If some link of W is inactive the right
//! side is at least 1 ≥ s. Otherwise every link of W joins equal π and every arc of W
//! goes forward, so π_a ≥ π_c along W; with π_c ≥ π_a + s this forces s = 0. ∎
//!
//! So the rows cut off no integer point of the model and leave its optimum unchanged;
//! they only remove fractional points. They generalise the static path cuts of
//! `formulation::add_path_cuts` (a strict arc and at most three links) to any length
//! and to arcs whose strictness is a variable. The big-M precedence rows let the LP
//! relaxation spread a fusion decision thinly along such a cycle (x ≈ 1/M on every
//! link); these rows forbid that, which is where the model's dual bound was weak.
//!
//! **Pair links.** Two readers u, v of one array whose fusion decisions towards its
//! producer are x_u, x_v and whose share variable is z are in one cluster when both are
//! fused with the producer (x_u = x_v = 0) or when they share the read (z = 1). The
//! model only lets readers that read from memory share (`z ≤ x_u`, `z ≤ x_v`, with its
//! proof at `formulation::add_shares_between_memory_readers`), so at every integer
//! point the weight `x_u + x_v − 2z` is 0 exactly in those two cases and at least 1
//! otherwise: it is a link as above (active at weight 0, never negative), and the
//! proofs of the cycle and conflict rows hold for walks through it unchanged. It
//! weighs no more than the walk through the producer (x_u + x_v), and less than the
//! share link (1 − z) where x_u + x_v < 1 + z: the LP relaxation can put two readers
//! half in the producer's cluster and half sharing (x = z = ½), where each of the two
//! walks weighs 1 but the pair link 0. Separation uses pair links (in SCIP's search at
//! the root only, [`PAIR_LINKS_UP_TO_DEPTH`]); propagation and the numbering of
//! integral points need only the plain links, which imply them.
//!
//! **Conflict rows.** Two nodes that may never share a cluster (incompatible iteration
//! sizes, `formulation::separate_incompatible_sizes`) get, for a path P of links
//! between them, `Σ_{l ∈ P} w_l ≥ 1`: active links join one cluster.
//!
//! **Lazy rows.** At an integral point the two families hold exactly when the point has
//! a legal numbering of its clusters (the components of the active links): no strict
//! arc inside a cluster, no cycle between clusters, no conflict pair in one cluster
//! ([`CycleCuts::positions`] finds the numbering or the reason there is none). So the
//! solver may drop the model's rows on π and enforce these rows instead (a constraint
//! handler, `fusion_solver::Hooks::lazy`; `formulation::Ilp::lazy_model`).
//!
//! **Separation.** For every node c that is the head of an arc with s > 0 in the LP
//! point, a shortest-path search from c (arcs cost 0 forward, links cost their weight
//! both ways) finds the lightest walk back to every tail a; a walk lighter than
//! s(a → c) gives a violated row. Searches stop at length 1, beyond which no row of
//! this family can be violated (s ≤ 1).

use fusion_solver::{CutSeparator, Propagation, Row, VarId};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A relation that, when active, puts two nodes at one π.
#[derive(Clone, Copy, Debug)]
pub struct Link {
    pub u: usize,
    pub v: usize,
    pub var: VarId,
    /// Active when `var` is 0 (an x: fused), else when it is 1 (a z: shared read).
    pub active_at_zero: bool,
}

impl Link {
    /// The value of its variable at which the link is active.
    fn active_value(&self) -> f64 {
        if self.active_at_zero { 0.0 } else { 1.0 }
    }
}

/// Two readers of one array, in one cluster when both are fused with its producer or
/// when they share the read: weight `x_u + x_v − 2z` (see the module's "Pair links").
#[derive(Clone, Copy, Debug)]
pub struct PairLink {
    pub u: usize,
    pub v: usize,
    pub x_u: VarId,
    pub x_v: VarId,
    pub z: VarId,
}

/// How strict an arc is: always, or when its pair is not fused (x = 1).
#[derive(Clone, Copy, Debug)]
pub enum Strictness {
    Always,
    WhenUnfused(VarId),
}

/// π never decreases from `from` to `to`, and rises when strict.
#[derive(Clone, Copy, Debug)]
pub struct Arc {
    pub from: usize,
    pub to: usize,
    pub strictness: Strictness,
}

/// The separator: the nodes, links and arcs of one model.
#[derive(Clone, Debug)]
pub struct CycleCuts {
    nodes: usize,
    links: Vec<Link>,
    /// Links for separation only, indexed after `links` in the walks.
    pair_links: Vec<PairLink>,
    arcs: Vec<Arc>,
    /// Pairs of nodes that are never in one cluster (incompatible iteration sizes):
    /// no path of active links may join them.
    conflicts: Vec<(usize, usize)>,
    /// At most this many rows per call, the most violated first.
    max_rows: usize,
    /// Whether [`CutSeparator::propagate`] propagates ([`CycleCuts::implied`]) or
    /// implies nothing ([`CycleCuts::propagating`]).
    propagates: bool,
}

/// The deepest level of SCIP's search at which the separator walks through pair links.
/// At the root they raise the bound (random programs of 200 combinators, seeds 0–3, LP
/// with the cycle rows separated to the end: 231.5, 224.5, 219.5, 233.4 → 232.0,
/// 225.9, 220.9, 235.3). At every node their denser rows made the LP calls about 40 %
/// slower (seeds 9 and 14), which ate the smaller trees; at the root only, n = 200
/// seeds 0–19 proved 14 against 12 within 30 s (docs/ilp-measurements.md, 2026-12-03).
/// A search setting: every row is valid at every depth.
pub const PAIR_LINKS_UP_TO_DEPTH: usize = 0;

/// Below this a violation is LP noise.
const EPSILON: f64 = 1e-6;

impl CycleCuts {
    pub fn new(nodes: usize, links: Vec<Link>, arcs: Vec<Arc>) -> Self {
        CycleCuts {
            nodes,
            links,
            pair_links: Vec::new(),
            arcs,
            conflicts: Vec::new(),
            max_rows: 100 + 2 * nodes,
            propagates: false,
        }
    }

    /// The same, with pair links for the separation (module doc, "Pair links").
    pub fn with_pair_links(mut self, pair_links: Vec<PairLink>) -> Self {
        self.pair_links = pair_links;
        self
    }

    /// The same, propagating what the rows imply at each node of SCIP's search
    /// ([`CycleCuts::implied`]) when `propagates`, else implying nothing there.
    pub fn propagating(mut self, propagates: bool) -> Self {
        self.propagates = propagates;
        self
    }

    /// The same, with pairs of nodes that may never be in one cluster.
    pub fn with_conflicts(mut self, conflicts: Vec<(usize, usize)>) -> Self {
        self.conflicts = conflicts;
        self
    }

    /// The clusters of an integral point and their execution order: per node, 0 for
    /// the nodes in `at_zero` (arguments), else the 1-based position of its cluster
    /// (the components of the active links) in a topological order of the arcs between
    /// clusters (ties by smallest node). An error when the point has a strict arc inside
    /// a cluster, a conflict pair in one cluster or a cycle between clusters: the
    /// separator's rows (cycle and conflict rows) all hold exactly when none of these
    /// happens, which is what makes them a complete description ([`Self::violated`]).
    pub fn positions(&self, values: &[f64], at_zero: &[bool]) -> Result<Vec<usize>, String> {
        let n = self.nodes;
        let component = self.components(|link| self.weight(link, values) < 0.5);
        for &(a, c) in &self.conflicts {
            if component[a] == component[c] {
                return Err(format!("nodes {a} and {c}, whose iteration sizes are incompatible, are in one cluster"));
            }
        }
        let mut successors: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut entering = vec![0usize; n];
        for arc in &self.arcs {
            let (from, to) = (component[arc.from], component[arc.to]);
            if from == to {
                if self.strictness(arc, values) > 0.5 {
                    return Err(format!("the strict arc {} → {} lies inside one cluster", arc.from, arc.to));
                }
                continue;
            }
            successors[from].push(to);
            entering[to] += 1;
        }
        // Kahn's algorithm over the clusters, smallest representative first.
        let mut ready: std::collections::BTreeSet<usize> =
            (0..n).filter(|&v| component[v] == v && entering[v] == 0).collect();
        let mut position = vec![0usize; n];
        let mut next = 1;
        let mut placed = 0;
        let zero_cluster: Vec<bool> = {
            let mut z = vec![false; n];
            for v in (0..n).filter(|&v| at_zero.get(v).copied().unwrap_or(false)) {
                z[component[v]] = true;
            }
            z
        };
        while let Some(c) = ready.pop_first() {
            placed += 1;
            if zero_cluster[c] {
                if entering_from_loops(&self.arcs, &component, &zero_cluster, c) {
                    return Err(format!("node {c} must come first, but an arc enters it"));
                }
            } else {
                position[c] = next;
                next += 1;
            }
            for &s in &successors[c] {
                entering[s] -= 1;
                if entering[s] == 0 {
                    ready.insert(s);
                }
            }
        }
        let clusters = (0..n).filter(|&v| component[v] == v).count();
        if placed < clusters {
            return Err("the clusters form a cycle".to_string());
        }
        Ok((0..n).map(|v| position[component[v]]).collect())
    }

    /// The clusters the links for which `active` holds form: per node, the smallest
    /// node of its component.
    fn components(&self, active: impl Fn(&Link) -> bool) -> Vec<usize> {
        fn find(p: &mut [usize], mut i: usize) -> usize {
            while p[i] != i {
                p[i] = p[p[i]];
                i = p[i];
            }
            i
        }
        let mut parent: Vec<usize> = (0..self.nodes).collect();
        for link in self.links.iter().filter(|l| active(l)) {
            let (a, b) = (find(&mut parent, link.u), find(&mut parent, link.v));
            parent[a.max(b)] = a.min(b);
        }
        (0..self.nodes).map(|v| find(&mut parent, v)).collect()
    }

    fn weight(&self, link: &Link, values: &[f64]) -> f64 {
        let value = values[link.var.0];
        let w = if link.active_at_zero { value } else { 1.0 - value };
        w.clamp(0.0, 1.0)
    }

    fn strictness(&self, arc: &Arc, values: &[f64]) -> f64 {
        match arc.strictness {
            Strictness::Always => 1.0,
            Strictness::WhenUnfused(x) => values[x.0].clamp(0.0, 1.0),
        }
    }

    /// The weight at `values` of every link a walk may take: the plain links, then the
    /// pair links.
    fn walk_weights(&self, values: &[f64]) -> Vec<f64> {
        let plain = self.links.iter().map(|l| self.weight(l, values));
        let value = |v: VarId| values[v.0].clamp(0.0, 1.0);
        let pairs = self.pair_links.iter().map(|p| (value(p.x_u) + value(p.x_v) - 2.0 * value(p.z)).max(0.0));
        plain.chain(pairs).collect()
    }

    /// The ends of walk link `k` (a plain link, or a pair link after them).
    fn walk_link_ends(&self, k: usize) -> (usize, usize) {
        match self.links.get(k) {
            Some(link) => (link.u, link.v),
            None => {
                let pair = &self.pair_links[k - self.links.len()];
                (pair.u, pair.v)
            }
        }
    }

    /// Per node, its neighbours over the walk links (both ways) and, when `with_arcs`,
    /// over the arcs (forward, `None`).
    fn walk_adjacency(&self, with_arcs: bool) -> Vec<Vec<(usize, Option<usize>)>> {
        let mut adjacent: Vec<Vec<(usize, Option<usize>)>> = vec![Vec::new(); self.nodes];
        if with_arcs {
            for arc in &self.arcs {
                adjacent[arc.from].push((arc.to, None));
            }
        }
        for k in 0..self.links.len() + self.pair_links.len() {
            let (u, v) = self.walk_link_ends(k);
            adjacent[u].push((v, Some(k)));
            adjacent[v].push((u, Some(k)));
        }
        adjacent
    }

    /// `Σ_{links of the walk} weight` as `(terms, constant)`: x for a plain x link,
    /// 1 − z for a share link, x_u + x_v − 2z for a pair link; equal variables merged.
    fn walk_weight_terms(&self, walk_links: &[usize]) -> (Vec<(VarId, f64)>, f64) {
        let mut terms: Vec<(VarId, f64)> = Vec::new();
        let mut add = |var: VarId, coefficient: f64| match terms.iter_mut().find(|t| t.0 == var) {
            Some(term) => term.1 += coefficient,
            None => terms.push((var, coefficient)),
        };
        let mut constant = 0.0;
        for &k in walk_links {
            match self.links.get(k) {
                Some(link) if link.active_at_zero => add(link.var, 1.0),
                Some(link) => {
                    add(link.var, -1.0);
                    constant += 1.0;
                }
                None => {
                    let pair = self.pair_links[k - self.links.len()];
                    add(pair.x_u, 1.0);
                    add(pair.x_v, 1.0);
                    add(pair.z, -2.0);
                }
            }
        }
        terms.retain(|t| t.1 != 0.0);
        (terms, constant)
    }

    /// The violated cycle rows at `values`, each with its violation.
    pub fn violated(&self, values: &[f64]) -> Vec<(f64, Row)> {
        let n = self.nodes;
        // Adjacency: (neighbour, Some(walk link) or None for an arc taken forward).
        let adjacent = self.walk_adjacency(true);
        let weights = self.walk_weights(values);
        let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (k, arc) in self.arcs.iter().enumerate() {
            if self.strictness(arc, values) > EPSILON {
                into[arc.to].push(k);
            }
        }
        let mut found = Vec::new();
        let mut distance = vec![f64::INFINITY; n];
        let mut came_from: Vec<Option<(usize, Option<usize>)>> = vec![None; n];
        let mut touched = Vec::new();
        for (head, entering) in into.iter().enumerate() {
            if entering.is_empty() {
                continue;
            }
            let limit = entering.iter().map(|&k| self.strictness(&self.arcs[k], values)).fold(0.0, f64::max);
            shortest_walks(head, limit, &adjacent, &weights, &mut distance, &mut came_from, &mut touched);
            for &k in entering {
                let arc = self.arcs[k];
                let s = self.strictness(&arc, values);
                if distance[arc.from] + EPSILON >= s {
                    continue;
                }
                let mut walk_links = Vec::new();
                let mut at = arc.from;
                while at != head {
                    let Some((previous, via)) = came_from[at] else { break };
                    if let Some(l) = via {
                        walk_links.push(l);
                    }
                    at = previous;
                }
                if let Some(row) = self.row(&arc, &walk_links) {
                    found.push((s - distance[arc.from], row));
                }
            }
            for &t in &touched {
                distance[t] = f64::INFINITY;
                came_from[t] = None;
            }
            touched.clear();
        }
        found.extend(self.violated_conflicts(&weights));
        found.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(Ordering::Equal));
        found.truncate(self.max_rows);
        found
    }

    /// Conflict rows: for a pair that is never in one cluster and a path P of links
    /// between them, `Σ_{l ∈ P} w_l ≥ 1` (some link of P is inactive).
    ///
    /// **Proof.** Active links join one cluster; if every link of P were active the
    /// pair would share a cluster. ∎
    fn violated_conflicts(&self, weights: &[f64]) -> Vec<(f64, Row)> {
        if self.conflicts.is_empty() {
            return Vec::new();
        }
        let n = self.nodes;
        let adjacent = self.walk_adjacency(false);
        let mut found = Vec::new();
        let mut distance = vec![f64::INFINITY; n];
        let mut came_from: Vec<Option<(usize, Option<usize>)>> = vec![None; n];
        let mut touched = Vec::new();
        for &(a, c) in &self.conflicts {
            shortest_walks(a, 1.0, &adjacent, weights, &mut distance, &mut came_from, &mut touched);
            if distance[c] + EPSILON < 1.0 {
                let mut walk_links = Vec::new();
                let mut at = c;
                while at != a {
                    let Some((previous, Some(l))) = came_from[at] else { break };
                    walk_links.push(l);
                    at = previous;
                }
                // Σ weights ≥ 1, written −Σ (weight terms) ≤ constant − 1.
                let (terms, constant) = self.walk_weight_terms(&walk_links);
                let row = Row {
                    name: format!("conflict_{a}_{c}_{}", walk_links.len()),
                    terms: terms.into_iter().map(|(v, c)| (v, -c)).collect(),
                    lower: f64::NEG_INFINITY,
                    upper: constant - 1.0,
                };
                found.push((1.0 - distance[c], row));
            }
            for &t in &touched {
                distance[t] = f64::INFINITY;
                came_from[t] = None;
            }
            touched.clear();
        }
        found
    }

    /// `s(arc) ≤ Σ_{links of the walk} weight`, written `s − Σ (weight terms) ≤ constant`;
    /// `None` when the arc's own x is one of the walk's plain links (the row is then
    /// trivial).
    fn row(&self, arc: &Arc, walk_links: &[usize]) -> Option<Row> {
        if let Strictness::WhenUnfused(x) = arc.strictness
            && walk_links.iter().any(|&l| self.links.get(l).is_some_and(|link| link.var == x))
        {
            return None;
        }
        let (weight_terms, mut upper) = self.walk_weight_terms(walk_links);
        let mut terms: Vec<(VarId, f64)> = weight_terms.into_iter().map(|(v, c)| (v, -c)).collect();
        match arc.strictness {
            Strictness::Always => upper -= 1.0,
            Strictness::WhenUnfused(x) => match terms.iter_mut().find(|t| t.0 == x) {
                Some(term) => term.1 += 1.0,
                None => terms.push((x, 1.0)),
            },
        }
        terms.retain(|t| t.1 != 0.0);
        Some(Row {
            name: format!("cycle_{}_{}_{}", arc.from, arc.to, walk_links.len()),
            terms,
            lower: f64::NEG_INFINITY,
            upper,
        })
    }
}

/// Whether an arc from a cluster not in `zero` enters cluster `c`.
fn entering_from_loops(arcs: &[Arc], component: &[usize], zero: &[bool], c: usize) -> bool {
    arcs.iter().any(|arc| component[arc.to] == c && component[arc.from] != c && !zero[component[arc.from]])
}

impl CutSeparator for CycleCuts {
    fn separate(&mut self, values: &[f64]) -> Vec<Row> {
        self.violated(values).into_iter().map(|(_, row)| row).collect()
    }

    /// Pair links only at the root ([`PAIR_LINKS_UP_TO_DEPTH`]); below it the plain
    /// links (their rows from the root stay in SCIP's cut pool).
    fn separate_at_depth(&mut self, values: &[f64], depth: usize) -> Vec<Row> {
        #[allow(clippy::absurd_extreme_comparisons, reason = "a measured setting, 0 today")]
        if depth <= PAIR_LINKS_UP_TO_DEPTH {
            return self.separate(values);
        }
        let pairs = std::mem::take(&mut self.pair_links);
        let rows = self.separate(values);
        self.pair_links = pairs;
        rows
    }

    fn propagate(&mut self, lower: &[f64], upper: &[f64]) -> Propagation {
        if self.propagates { self.implied(lower, upper) } else { Propagation::Nothing }
    }
}

impl CycleCuts {
    /// What the cycle and conflict rows imply at a node of the search whose variables
    /// lie between `lower` and `upper`. A link is *fixed active* when its variable is
    /// fixed at its active value, an arc *fixed strict* when it is always strict or its
    /// pair is fixed unfused. Take the clusters of the fixed-active links and the arcs
    /// between them:
    /// * a fixed-strict arc inside a cluster, a fixed-strict arc on a cycle of arcs
    ///   between clusters, or a conflict pair inside a cluster: infeasible;
    /// * an undecided link between clusters U and V is fixed inactive when a path of
    ///   arcs from U to V, or from V to U, has a fixed-strict arc, or when a conflict
    ///   pair lies in U and V.
    ///
    /// **Proof.** Every link of the walks below is fixed active (weight 0 at every point
    /// of the node) and every arc is taken forward. A strict arc a → c inside a cluster:
    /// the active links lead from c back to a, so its cycle row reads 1 ≤ 0. A strict
    /// arc a → c on a cycle of clusters: the cycle leads from c back to a through arcs
    /// and links inside clusters, again 1 ≤ 0. A conflict pair in one cluster: its
    /// conflict row over the active links between them reads 0 ≥ 1. So no point of the
    /// node meets the rows. For the link l = u — v: at a point where l is active, the
    /// path from U to V (say) with its strict arc a → c, continued inside V to v, over
    /// l to u and inside U to the path's start, is a walk from c back to a whose links
    /// all weigh 0, so a cycle row is violated; likewise a conflict pair in U and V
    /// would be joined by active links. So every point of the node that meets the rows
    /// has l inactive. ∎
    pub fn implied(&self, lower: &[f64], upper: &[f64]) -> Propagation {
        let n = self.nodes;
        let Some(ClustersAtNode { cluster, out, undecided }) = self.clusters_at_node(lower, upper) else {
            return Propagation::Infeasible;
        };
        // Which clusters a path with a strict arc reaches from each cluster, over the
        // strongly connected components of the arcs between clusters: a strict arc inside
        // a component lies on a cycle (infeasible); otherwise the members of a component
        // reach one another over plain arcs, so a path from any of them with a strict arc
        // leaves the component over an arc to a later component, and either that arc is
        // strict (then every cluster that component reaches counts) or the path's strict
        // arc comes after it (then what that component reaches strictly). Components in
        // reverse topological order, so each is done before those that reach it.
        let (component, order) = strongly_connected(&out);
        let words = n.div_ceil(64);
        let mut reached = vec![0u64; order.len() * words]; // any path, the component itself included
        let mut strictly = vec![0u64; order.len() * words];
        for (k, members) in order.iter().enumerate() {
            let (done, rest) = reached.split_at_mut(k * words);
            let own = &mut rest[..words];
            let (strict_done, strict_rest) = strictly.split_at_mut(k * words);
            let own_strict = &mut strict_rest[..words];
            for &at in members {
                own[at / 64] |= 1 << (at % 64);
                for &(next, strict) in &out[at] {
                    let target = component[next];
                    if target == k {
                        if strict {
                            return Propagation::Infeasible;
                        }
                        continue;
                    }
                    let (next_reached, next_strictly) =
                        (&done[target * words..][..words], &strict_done[target * words..][..words]);
                    for w in 0..words {
                        own[w] |= next_reached[w];
                        own_strict[w] |= if strict { next_reached[w] } else { next_strictly[w] };
                    }
                }
            }
        }
        let reaches = |from: usize, to: usize| strictly[component[from] * words + to / 64] >> (to % 64) & 1 == 1;
        let conflicting: std::collections::HashSet<(usize, usize)> =
            self.conflicts.iter().map(|&(p, q)| (cluster[p].min(cluster[q]), cluster[p].max(cluster[q]))).collect();
        let conflict_between = |a: usize, b: usize| conflicting.contains(&(a.min(b), a.max(b)));
        let mut fixings = Vec::new();
        for link in undecided {
            let (a, b) = (cluster[link.u], cluster[link.v]);
            if reaches(a, b) || reaches(b, a) || conflict_between(a, b) {
                fixings.push((link.var, 1.0 - link.active_value()));
            }
        }
        if fixings.is_empty() { Propagation::Nothing } else { Propagation::Fixings(fixings) }
    }

    /// What [`CycleCuts::implied`] works on at a node with bounds `lower` and `upper`:
    /// the clusters the links fixed active form, the arcs between them with whether each
    /// is fixed strict, and the undecided links between two of them; `None` when a
    /// conflict pair shares a cluster or a fixed-strict arc lies inside one.
    fn clusters_at_node<'a>(&'a self, lower: &[f64], upper: &[f64]) -> Option<ClustersAtNode<'a>> {
        let fixed_at = |var: VarId, value: f64| if value > 0.5 { lower[var.0] > 0.5 } else { upper[var.0] < 0.5 };
        let cluster = self.components(|link| fixed_at(link.var, link.active_value()));
        if self.conflicts.iter().any(|&(a, c)| cluster[a] == cluster[c]) {
            return None;
        }
        let mut out: Vec<Vec<(usize, bool)>> = vec![Vec::new(); self.nodes];
        for arc in &self.arcs {
            let strict = match arc.strictness {
                Strictness::Always => true,
                Strictness::WhenUnfused(x) => fixed_at(x, 1.0),
            };
            let (from, to) = (cluster[arc.from], cluster[arc.to]);
            if from == to {
                if strict {
                    return None;
                }
                continue;
            }
            out[from].push((to, strict));
        }
        let undecided = self
            .links
            .iter()
            .filter(|l| !fixed_at(l.var, 0.0) && !fixed_at(l.var, 1.0) && cluster[l.u] != cluster[l.v])
            .collect();
        Some(ClustersAtNode { cluster, out, undecided })
    }
}

/// The clusters at a node ([`CycleCuts::clusters_at_node`]).
struct ClustersAtNode<'a> {
    /// Each node's cluster (a representative node).
    cluster: Vec<usize>,
    /// The arcs leaving each cluster for another, with whether each is fixed strict.
    out: Vec<Vec<(usize, bool)>>,
    /// The links neither fixed active nor inactive that join two clusters.
    undecided: Vec<&'a Link>,
}

/// The strongly connected components of the graph with arcs `out[v]` (the flag is
/// ignored): each vertex's component, and the components' members, numbered so that
/// every arc leads to the same component or one numbered lower (Tarjan's algorithm
/// completes a component only after every component it reaches).
fn strongly_connected(out: &[Vec<(usize, bool)>]) -> (Vec<usize>, Vec<Vec<usize>>) {
    const UNSEEN: usize = usize::MAX;
    let n = out.len();
    let (mut index, mut low) = (vec![UNSEEN; n], vec![0; n]);
    let mut component = vec![UNSEEN; n];
    let mut members: Vec<Vec<usize>> = Vec::new();
    let (mut stack, mut on_stack) = (Vec::new(), vec![false; n]);
    let mut next_index = 0;
    // The depth-first search's own stack: a vertex and how many of its arcs it has taken.
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        calls.push((root, 0));
        while let Some(&mut (v, ref mut taken)) = calls.last_mut() {
            if *taken == 0 && index[v] == UNSEEN {
                (index[v], low[v]) = (next_index, next_index);
                next_index += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&(w, _)) = out[v].get(*taken) {
                *taken += 1;
                if index[w] == UNSEEN {
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut list = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = members.len();
                    list.push(w);
                    if w == v {
                        break;
                    }
                }
                members.push(list);
            }
        }
    }
    (component, members)
}

#[derive(PartialEq)]
struct Queued(f64, usize);

impl Eq for Queued {}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.partial_cmp(&self.0).unwrap_or(Ordering::Equal).then(other.1.cmp(&self.1))
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Dijkstra from `start` over arcs (forward, cost 0) and links (both ways, their
/// weight), up to length `limit`; fills `distance` and `came_from` (previous node and
/// the link used, `None` for an arc) and lists the nodes it touched.
fn shortest_walks(
    start: usize,
    limit: f64,
    adjacent: &[Vec<(usize, Option<usize>)>],
    weights: &[f64],
    distance: &mut [f64],
    came_from: &mut [Option<(usize, Option<usize>)>],
    touched: &mut Vec<usize>,
) {
    let mut queue = BinaryHeap::new();
    distance[start] = 0.0;
    touched.push(start);
    queue.push(Queued(0.0, start));
    while let Some(Queued(d, at)) = queue.pop() {
        if d > distance[at] {
            continue;
        }
        for &(next, via) in &adjacent[at] {
            let step = via.map_or(0.0, |l| weights[l]);
            let candidate = d + step;
            if candidate < distance[next] && candidate < limit {
                if distance[next].is_infinite() {
                    touched.push(next);
                }
                distance[next] = candidate;
                came_from[next] = Some((at, via));
                queue.push(Queued(candidate, next));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nodes 0 → 1 fusible (x0), 1 → 2 strict, and a shared read 0 — 2 (z1): sharing
    /// would put 0 and 2 at one π across the strict arc, and would force 0 → 1 fused.
    fn shared_read_across_a_strict_arc() -> (CycleCuts, VarId, VarId) {
        let (x0, z1) = (VarId(0), VarId(1));
        let cuts = CycleCuts::new(
            3,
            vec![
                Link { u: 0, v: 1, var: x0, active_at_zero: true },
                Link { u: 0, v: 2, var: z1, active_at_zero: false },
            ],
            vec![
                Arc { from: 0, to: 1, strictness: Strictness::WhenUnfused(x0) },
                Arc { from: 1, to: 2, strictness: Strictness::Always },
            ],
        );
        (cuts, x0, z1)
    }

    #[test]
    fn finds_the_cycles_through_arcs_and_writes_valid_rows() {
        let (cuts, x0, z1) = shared_read_across_a_strict_arc();
        // x0 = 0.2, z1 = 0.9. Arc 1 → 2 (strict) and the walk 2 — 0 → 1 weighs 0.1:
        // 1 ≤ 1 − z1, written z1 ≤ 0. Arc 0 → 1 (strictness x0) and the walk
        // 1 → 2 — 0 weighs 0.1 < 0.2: x0 ≤ 1 − z1, written x0 + z1 ≤ 1.
        let found = cuts.violated(&[0.2, 0.9]);
        assert_eq!(found.len(), 2, "{found:?}");
        let sorted = |row: &Row| {
            let mut terms = row.terms.clone();
            terms.sort_by_key(|t| t.0);
            (terms, row.upper)
        };
        assert!((found[0].0 - 0.9).abs() < 1e-9 && (found[1].0 - 0.1).abs() < 1e-9);
        assert_eq!(sorted(&found[0].1), (vec![(z1, 1.0)], 0.0));
        assert_eq!(sorted(&found[1].1), (vec![(x0, 1.0), (z1, 1.0)], 1.0));
        // The integer points of this little model: z1 = 1 is impossible (π_0 = π_2 >
        // π_1 ≥ π_0); every other point satisfies both rows.
        for (x, z) in [(0.0, 0.0), (1.0, 0.0)] {
            assert!(cuts.violated(&[x, z]).is_empty(), "cuts off the legal point x0={x} z1={z}");
        }
        assert!(!cuts.violated(&[0.0, 1.0]).is_empty());
    }

    /// Nodes 0 (an argument) → 1 → 2 → 3 with links x1 (1–2) and x2 (2–3), 0 → 1
    /// strict; 1 and 3 may never share a cluster.
    fn chain() -> (CycleCuts, VarId, VarId) {
        let (x1, x2) = (VarId(0), VarId(1));
        let cuts = CycleCuts::new(
            4,
            vec![
                Link { u: 1, v: 2, var: x1, active_at_zero: true },
                Link { u: 2, v: 3, var: x2, active_at_zero: true },
            ],
            vec![
                Arc { from: 0, to: 1, strictness: Strictness::Always },
                Arc { from: 1, to: 2, strictness: Strictness::WhenUnfused(x1) },
                Arc { from: 2, to: 3, strictness: Strictness::WhenUnfused(x2) },
            ],
        )
        .with_conflicts(vec![(1, 3)]);
        (cuts, x1, x2)
    }

    /// A path of active links between a conflict pair gives `x1 + x2 ≥ 1`; a point
    /// with one link inactive meets it.
    #[test]
    fn conflict_pairs_get_path_rows() {
        let (cuts, x1, x2) = chain();
        let found = cuts.violated(&[0.2, 0.3]);
        assert_eq!(found.len(), 1, "{found:?}");
        let mut terms = found[0].1.terms.clone();
        terms.sort_by_key(|t| t.0);
        assert_eq!((terms, found[0].1.upper), (vec![(x1, -1.0), (x2, -1.0)], -1.0));
        assert!(cuts.violated(&[0.0, 1.0]).is_empty());
        assert!(cuts.violated(&[1.0, 0.0]).is_empty());
    }

    /// Positions: the argument at 0, clusters numbered in execution order; an error
    /// where a conflict pair shares a cluster.
    #[test]
    fn positions_number_clusters_in_execution_order() {
        let (cuts, _, _) = chain();
        let at_zero = [true, false, false, false];
        assert_eq!(cuts.positions(&[0.0, 1.0], &at_zero), Ok(vec![0, 1, 1, 2]));
        assert_eq!(cuts.positions(&[1.0, 0.0], &at_zero), Ok(vec![0, 1, 2, 2]));
        assert_eq!(cuts.positions(&[1.0, 1.0], &at_zero), Ok(vec![0, 1, 2, 3]));
        assert!(cuts.positions(&[0.0, 0.0], &at_zero).is_err());
        // A strict arc inside a cluster (1 → 2 unfused, yet linked through a share).
        let cyclic = CycleCuts::new(
            3,
            vec![Link { u: 1, v: 2, var: VarId(1), active_at_zero: false }],
            vec![Arc { from: 1, to: 2, strictness: Strictness::WhenUnfused(VarId(0)) }],
        );
        assert!(cyclic.positions(&[1.0, 1.0], &[false; 3]).is_err());
        assert_eq!(cyclic.positions(&[1.0, 0.0], &[false; 3]), Ok(vec![1, 2, 3]));
    }

    /// Propagation on `shared_read_across_a_strict_arc`: sharing 0 — 2 would close a
    /// cycle through the strict arc 1 → 2 (over 0 → 1, fused or not), so z1 is fixed
    /// to 0; with z1 fixed to 1 and 0 → 1 fused the node is infeasible. On `chain`,
    /// fusing 1 — 2 forbids fusing 2 — 3 (1 and 3 may not share a cluster), and with
    /// nothing fixed nothing follows.
    #[test]
    fn propagation_fixes_the_links_that_would_close_a_strict_cycle() {
        let (cuts, _, z1) = shared_read_across_a_strict_arc();
        assert_eq!(cuts.implied(&[0.0, 0.0], &[0.0, 1.0]), Propagation::Fixings(vec![(z1, 0.0)]));
        assert_eq!(cuts.implied(&[0.0, 1.0], &[0.0, 1.0]), Propagation::Infeasible);
        // 1 → 2 is strict whatever x0 is, so z1 alone already closes a cycle.
        assert_eq!(cuts.implied(&[0.0, 0.0], &[1.0, 1.0]), Propagation::Fixings(vec![(z1, 0.0)]));
        // Only when asked: the separator implies nothing unless propagating.
        let mut quiet = cuts.clone();
        assert_eq!(CutSeparator::propagate(&mut quiet, &[0.0, 0.0], &[0.0, 1.0]), Propagation::Nothing);
        let mut loud = cuts.propagating(true);
        assert_eq!(CutSeparator::propagate(&mut loud, &[0.0, 0.0], &[0.0, 1.0]), Propagation::Fixings(vec![(z1, 0.0)]));
        // A conflict pair: with x1 fused, x2 must stay unfused.
        let (chain, _, x2) = chain();
        assert_eq!(chain.implied(&[0.0, 0.0], &[0.0, 1.0]), Propagation::Fixings(vec![(x2, 1.0)]));
        assert_eq!(chain.implied(&[0.0, 0.0], &[1.0, 1.0]), Propagation::Nothing);
    }

    /// [`CycleCuts::implied`] as a search from every cluster that ends an undecided link
    /// or leaves over a strict arc, over (cluster, strict arc seen) pairs: the
    /// reference for the components-and-bitsets computation of what those clusters
    /// reach.
    fn implied_by_search(cuts: &CycleCuts, lower: &[f64], upper: &[f64]) -> Propagation {
        let n = cuts.nodes;
        let Some(ClustersAtNode { cluster, out, undecided }) = cuts.clusters_at_node(lower, upper) else {
            return Propagation::Infeasible;
        };
        let mut sources: Vec<usize> = undecided.iter().flat_map(|l| [cluster[l.u], cluster[l.v]]).collect();
        sources.extend((0..n).filter(|&c| out[c].iter().any(|&(_, s)| s)));
        let mut strictly_reached: Vec<Option<Vec<bool>>> = vec![None; n];
        for &source in &sources {
            let mut seen = vec![[false; 2]; n];
            let mut stack = vec![(source, false)];
            seen[source][0] = true;
            while let Some((at, strict_seen)) = stack.pop() {
                for &(next, strict) in &out[at] {
                    let flag = strict_seen || strict;
                    if !std::mem::replace(&mut seen[next][flag as usize], true) {
                        stack.push((next, flag));
                    }
                }
            }
            if seen[source][1] {
                return Propagation::Infeasible;
            }
            strictly_reached[source] = Some(seen.iter().map(|s| s[1]).collect());
        }
        let reaches = |from: usize, to: usize| strictly_reached[from].as_ref().is_some_and(|r| r[to]);
        let conflict = |a: usize, b: usize| {
            cuts.conflicts
                .iter()
                .any(|&(p, q)| (cluster[p], cluster[q]) == (a, b) || (cluster[p], cluster[q]) == (b, a))
        };
        let fixings: Vec<(VarId, f64)> = undecided
            .into_iter()
            .filter(|l| {
                let (a, b) = (cluster[l.u], cluster[l.v]);
                reaches(a, b) || reaches(b, a) || conflict(a, b)
            })
            .map(|l| (l.var, 1.0 - l.active_value()))
            .collect();
        if fixings.is_empty() { Propagation::Nothing } else { Propagation::Fixings(fixings) }
    }

    /// The propagation over strongly connected components concludes exactly what a
    /// search from every source concludes (the same fixings in the same order, or
    /// infeasibility), on random models of up to 40 nodes whose arcs run both ways, so
    /// that the clusters' arcs form cycles, with and without strict arcs on them.
    #[test]
    fn propagation_over_components_agrees_with_a_search_from_every_source() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let mut outcomes = [0usize; 3];
        for _ in 0..4000 {
            let n = 2 + next(39);
            let links: Vec<Link> = (0..1 + next(2 * n))
                .map(|k| {
                    let u = next(n);
                    Link { u, v: (u + 1 + next(n - 1)) % n, var: VarId(k), active_at_zero: next(2) == 0 }
                })
                .collect();
            let arcs: Vec<Arc> = (0..next(2 * n))
                .map(|_| {
                    let from = next(n);
                    let strictness = match next(4) {
                        0 => Strictness::Always,
                        _ => Strictness::WhenUnfused(links[next(links.len())].var),
                    };
                    Arc { from, to: (from + 1 + next(n - 1)) % n, strictness }
                })
                .collect();
            let conflicts: Vec<(usize, usize)> =
                (0..next(3)).map(|_| (next(n), next(n))).filter(|(a, c)| a != c).collect();
            let cuts = CycleCuts::new(n, links.clone(), arcs).with_conflicts(conflicts);
            let (mut lower, mut upper) = (vec![0.0; links.len()], vec![1.0; links.len()]);
            for k in 0..links.len() {
                match next(4) {
                    0 => upper[k] = 0.0,
                    1 => lower[k] = 1.0,
                    _ => {}
                }
            }
            let found = cuts.implied(&lower, &upper);
            assert_eq!(found, implied_by_search(&cuts, &lower, &upper), "{cuts:?} {lower:?} {upper:?}");
            outcomes[match found {
                Propagation::Nothing => 0,
                Propagation::Infeasible => 1,
                Propagation::Fixings(_) => 2,
            }] += 1;
        }
        assert!(outcomes.iter().all(|&k| k > 200), "too few of some outcome to judge: {outcomes:?}");
    }

    /// Every fixing holds at every legal completion of the node's bounds, and a node
    /// called infeasible has none: random small models, all completions enumerated and
    /// judged by [`CycleCuts::positions`] (the rows hold exactly where it succeeds).
    #[test]
    fn propagation_keeps_every_legal_completion() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let (mut fixings, mut infeasible) = (0, 0);
        for _ in 0..3000 {
            let n = 2 + next(5);
            let mut links = Vec::new();
            for k in 0..1 + next(6) {
                let u = next(n);
                let v = (u + 1 + next(n - 1)) % n;
                links.push(Link { u, v, var: VarId(k), active_at_zero: next(2) == 0 });
            }
            let mut arcs = Vec::new();
            for _ in 0..next(6) {
                let from = next(n - 1);
                let to = from + 1 + next(n - 1 - from);
                let own_x = links.iter().find(|l| l.active_at_zero && l.u.min(l.v) == from && l.u.max(l.v) == to);
                let strictness = match own_x {
                    Some(l) if next(2) == 0 => Strictness::WhenUnfused(l.var),
                    _ => Strictness::Always,
                };
                arcs.push(Arc { from, to, strictness });
            }
            let conflicts = if next(3) == 0 {
                vec![(next(n), next(n))].into_iter().filter(|(a, c)| a != c).collect()
            } else {
                vec![]
            };
            let cuts = CycleCuts::new(n, links.clone(), arcs).with_conflicts(conflicts);
            let vars = links.len();
            let (mut lower, mut upper) = (vec![0.0; vars], vec![1.0; vars]);
            for k in 0..vars {
                match next(3) {
                    0 => upper[k] = 0.0,
                    1 => lower[k] = 1.0,
                    _ => {}
                }
            }
            let free: Vec<usize> = (0..vars).filter(|&k| lower[k] != upper[k]).collect();
            let legal: Vec<Vec<f64>> = (0..1usize << free.len())
                .map(|bits| {
                    let mut values = lower.clone();
                    for (i, &k) in free.iter().enumerate() {
                        values[k] = ((bits >> i) & 1) as f64;
                    }
                    values
                })
                .filter(|values| cuts.positions(values, &vec![false; n]).is_ok())
                .collect();
            match cuts.implied(&lower, &upper) {
                Propagation::Nothing => {}
                Propagation::Infeasible => {
                    infeasible += 1;
                    assert!(
                        legal.is_empty(),
                        "called infeasible, but {:?} is legal ({cuts:?}, {lower:?}, {upper:?})",
                        legal[0]
                    );
                }
                Propagation::Fixings(fixed) => {
                    fixings += 1;
                    for values in &legal {
                        for &(var, value) in &fixed {
                            assert_eq!(values[var.0], value, "fixing {var:?} = {value} cuts off {values:?} ({cuts:?})");
                        }
                    }
                }
            }
        }
        assert!(
            fixings > 100 && infeasible > 100,
            "too few propagations to judge: {fixings} fixings, {infeasible} infeasible"
        );
    }

    /// An arc whose strictness is its own x: s = x_ac against a walk back.
    #[test]
    fn uses_the_strictness_of_an_unfused_pair() {
        let (x_ac, z) = (VarId(0), VarId(1));
        // a → c fusible; readers a and c of one array share (z): then π_a = π_c, so
        // the pair a → c cannot be unfused: x_ac ≤ 1 − z.
        let cuts = CycleCuts::new(
            2,
            vec![Link { u: 0, v: 1, var: z, active_at_zero: false }],
            vec![Arc { from: 0, to: 1, strictness: Strictness::WhenUnfused(x_ac) }],
        );
        let found = cuts.violated(&[0.8, 0.7]);
        assert_eq!(found.len(), 1);
        let row = &found[0].1;
        let mut terms = row.terms.clone();
        terms.sort_by_key(|t| t.0);
        assert_eq!(terms, vec![(x_ac, 1.0), (z, 1.0)]);
        assert_eq!(row.upper, 1.0);
        assert!(cuts.violated(&[0.3, 0.7]).is_empty());
    }

    /// Producer 0 with readers 1, 2 and 3 (fusion decisions x1, x2, x3); readers 2 and
    /// 3 may each share the read with reader 1 (z12, z13); 2 → 3 is strict.
    fn readers_around_a_strict_arc(with_pair_links: bool) -> (CycleCuts, [VarId; 5]) {
        let vars @ [x1, x2, x3, z12, z13] = [VarId(0), VarId(1), VarId(2), VarId(3), VarId(4)];
        let cuts = CycleCuts::new(
            4,
            vec![
                Link { u: 0, v: 1, var: x1, active_at_zero: true },
                Link { u: 0, v: 2, var: x2, active_at_zero: true },
                Link { u: 0, v: 3, var: x3, active_at_zero: true },
                Link { u: 1, v: 2, var: z12, active_at_zero: false },
                Link { u: 1, v: 3, var: z13, active_at_zero: false },
            ],
            vec![Arc { from: 2, to: 3, strictness: Strictness::Always }],
        );
        let pairs =
            vec![PairLink { u: 1, v: 2, x_u: x1, x_v: x2, z: z12 }, PairLink { u: 1, v: 3, x_u: x1, x_v: x3, z: z13 }];
        (if with_pair_links { cuts.with_pair_links(pairs) } else { cuts }, vars)
    }

    #[test]
    fn pair_links_cut_the_point_half_fused_and_half_shared() {
        // Every reader half fused with the producer and half sharing with reader 1:
        // every walk of plain links from 3 back to 2 weighs 1 (through the producer
        // x3 + x2, through reader 1 (1 − z13) + (1 − z12)), but the pair links weigh
        // x1 + x3 − 2 z13 = 0 and x1 + x2 − 2 z12 = 0.
        let point = [0.5, 0.5, 0.5, 0.5, 0.5];
        let (plain, _) = readers_around_a_strict_arc(false);
        assert!(plain.violated(&point).is_empty());
        let (cuts, [x1, x2, x3, z12, z13]) = readers_around_a_strict_arc(true);
        let found = cuts.violated(&point);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!((found[0].0 - 1.0).abs() < 1e-9);
        let mut terms = found[0].1.terms.clone();
        terms.sort_by_key(|t| t.0);
        // 1 ≤ (x1 + x3 − 2 z13) + (x1 + x2 − 2 z12).
        assert_eq!(terms, vec![(x1, -2.0), (x2, -1.0), (x3, -1.0), (z12, 2.0), (z13, 2.0)]);
        assert_eq!(found[0].1.upper, -1.0);
    }

    #[test]
    fn rows_through_pair_links_hold_at_every_legal_integer_point() {
        let (cuts, _) = readers_around_a_strict_arc(true);
        // Rows separated at fractional points of the model's polytope (z ≤ x).
        let mut rows = Vec::new();
        for point in [[0.5, 0.5, 0.5, 0.5, 0.5], [0.2, 0.6, 0.4, 0.2, 0.2], [0.9, 0.3, 0.3, 0.3, 0.3]] {
            rows.extend(cuts.violated(&point).into_iter().map(|(_, row)| row));
        }
        assert!(!rows.is_empty());
        let mut legal = 0;
        for bits in 0..32u32 {
            let point: Vec<f64> = (0..5).map(|k| f64::from((bits >> k) & 1)).collect();
            // z ≤ x for both readers of each share, and a legal numbering of the clusters.
            let shares_read_memory = point[3] <= point[0].min(point[1]) && point[4] <= point[0].min(point[2]);
            if !shares_read_memory || cuts.positions(&point, &[false; 4]).is_err() {
                continue;
            }
            legal += 1;
            for row in &rows {
                let activity: f64 = row.terms.iter().map(|(v, c)| c * point[v.0]).sum();
                assert!(activity <= row.upper + 1e-9, "{row:?} cuts off the legal point {point:?}");
            }
        }
        assert!(legal > 0);
    }
}
