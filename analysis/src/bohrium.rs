//! Seed 003's partition algorithms (Bohrium: "Fusion of Array Operations at Runtime")
//! run on this project's dependence graphs, as baseline strategies: `bohrium-greedy`
//! (§V-C, Fig. 7) and `bohrium-linear` (§V-E, Fig. 13).
//!
//! [`crate::wsp`] implements the algorithms on seed 003's own model (WSP graphs and
//! Bohrium bytecode). Here they work on a [`Graph`] with this project's rules, so their
//! answers go through the same validator, fusion trees and code generation as the ILP's:
//!
//! * A block is a cluster, and a partition is *legal* when the validator accepts the
//!   clustering (seed 000's rules: fusible edges, traversal orders, gather labels,
//!   sizes, no cycle between clusters). That is stronger than WSP legality (Def. 5: no
//!   forbidden pair, no cycle), which seed 003 only has because Bohrium's operations
//!   all share one iteration space.
//! * The orders of a merged cluster follow from its internal edges
//!   (`local_search::cluster_orders`, seed 000 (12)); where they are free, the merge is
//!   tried with them kept, all forward and all backward, and the cheapest legal one is
//!   taken.
//! * The weight of merging two blocks is Def. 15's saving `cost(P) − cost(P/(B1, B2))`
//!   under the analysis's cost function (seed 000 §4.1's models instead of Def. 13's
//!   external bytes, so the baselines and the ILP are priced alike).
//!
//! `greedy` starts from every node alone and repeatedly merges the pair of clusters
//! with the heaviest positive saving; a pair that turns out illegal is dropped for
//! good, as in Fig. 7; it stops when no pair saves anything. The pairs considered are
//! the *adjacent* ones (an edge between them or an array both read), because merging
//! two clusters that share nothing saves nothing under every cost model but those that
//! count clusters (`clusters`, `robinson`); for those, every pair is considered.
//! `linear` walks the combinators in program order (a topological order) and adds
//! each to the current cluster when the result is legal, else starts a new one.
//! Inputs stay alone (they are no loops), and so do barriers (the validator never lets
//! them share a cluster).
//!
//! Seed 003's exact branch and bound is [`crate::branch_and_bound`] (`bohrium-optimal`),
//! a second exact method beside the ILP; `wsp::optimal` is the paper's algorithm on its
//! own model.
//!
//! Seed 003's cost models and their counterparts among this project's (`cost.rs`), which
//! price a clustering of our graphs; `wsp.rs` has all four on seed 003's own model:
//!
//! * Def. 13 (Bohrium: the bytes of the arrays each block accesses outside itself) is
//!   `bytes` (reads and writes of manifest arrays, by size), with one difference: an
//!   array read by several loops of one cluster counts once in both, but here only when
//!   they read it in the same traversal order (seed 000 §3.3), an order Bohrium's
//!   element-wise operations never lack.
//! * Def. 19 (Max Contract: the arrays not contracted) is `intermediate-arrays` plus a
//!   constant (the program's results, which are never contracted).
//! * Def. 20 (Max Locality: every *pair* of accesses to one array from different blocks)
//!   has no counterpart: `reads` counts each cluster's read once, not pairs of readers.
//!   It would need a same-cluster variable for every pair of readers in the ILP.
//! * Def. 21 (Robinson: `|P| + N·MaxContract + N²·MaxLocality`) is seed 003's blend in
//!   the spirit of seed 001; `robinson` here is seed 001 Fig. 1.14's own objective
//!   (weighted unfused pairs plus `N` per manifest array).

use super::clustering::Clustering;
use super::cost::{CostFunction, evaluate_function};
use super::graph::{Graph, NodeId, ORDER_BACKWARD, ORDER_FORWARD, Order};
use super::local_search::{cluster_orders, neighbours};
use super::validate::validate;

/// A legal clustering as the algorithms hold it: cluster labels and orders by node.
struct Partition {
    label: Vec<usize>,
    orders: Vec<Order>,
}

impl Partition {
    fn unfused(graph: &Graph) -> Self {
        let unfused = Clustering::unfused(graph);
        Partition { label: (0..graph.nodes.len()).collect(), orders: unfused.output_orders }
    }

    fn clustering(&self, graph: &Graph) -> Clustering {
        Clustering::in_execution_order(graph, &self.label, &self.orders).expect("a legal partition has no cycle")
    }

    /// The cheapest legal way to merge cluster `b` into cluster `a` (its orders tried
    /// kept, forward and backward), with its cost; `None` when none is legal.
    fn merged(&self, graph: &Graph, cost: &CostFunction, a: usize, b: usize) -> Option<(Partition, f64)> {
        let label: Vec<usize> = self.label.iter().map(|&l| if l == b { a } else { l }).collect();
        let mut best: Option<(Partition, f64)> = None;
        for direction in [None, Some(ORDER_FORWARD), Some(ORDER_BACKWARD)] {
            let Some(orders) = cluster_orders(graph, &label, &self.orders, a, direction) else { continue };
            let Some(clustering) = Clustering::in_execution_order(graph, &label, &orders) else { continue };
            let value = evaluate_function(graph, &clustering, cost);
            if best.as_ref().is_some_and(|(_, v)| *v <= value) || validate(graph, &clustering).is_err() {
                continue;
            }
            best = Some((Partition { label: label.clone(), orders }, value));
        }
        best
    }
}

/// Whether node `v` may share a cluster at all (a combinator, not an input or barrier).
fn is_loop(graph: &Graph, v: usize) -> bool {
    graph.node(NodeId(v)).kind.is_fusible_kind()
}

/// Seed 003's greedy merge (Fig. 7) under `cost`, with this project's legality.
pub fn greedy(graph: &Graph, cost: &CostFunction) -> Clustering {
    let mut partition = Partition::unfused(graph);
    let mut value = evaluate_function(graph, &partition.clustering(graph), cost);
    let every_pair = cost.terms().iter().any(|(model, weight)| {
        *weight > 0.0 && matches!(model, super::cost::CostModel::Clusters | super::cost::CostModel::Robinson)
    });
    let near = neighbours(graph);
    let loops: Vec<usize> = (0..graph.nodes.len()).filter(|&v| is_loop(graph, v)).collect();
    // Pairs of cluster labels found illegal: dropped for good (Fig. 7).
    let mut dropped: Vec<(usize, usize)> = Vec::new();
    loop {
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let add = |x: usize, y: usize, pairs: &mut Vec<(usize, usize)>| {
            let (a, b) = (x.min(y), x.max(y));
            if a != b && !pairs.contains(&(a, b)) && !dropped.contains(&(a, b)) {
                pairs.push((a, b));
            }
        };
        for &v in &loops {
            if every_pair {
                for &w in &loops {
                    add(partition.label[v], partition.label[w], &mut pairs);
                }
            } else {
                for w in near[v].iter().filter(|w| is_loop(graph, w.0)) {
                    add(partition.label[v], partition.label[w.0], &mut pairs);
                }
            }
        }
        // Def. 15's weights, heaviest first; the first legal positive one is merged.
        let mut weighted: Vec<(f64, (usize, usize))> = pairs
            .into_iter()
            .filter_map(|(a, b)| {
                let label: Vec<usize> = partition.label.iter().map(|&l| if l == b { a } else { l }).collect();
                let clustering = Clustering::in_execution_order(graph, &label, &partition.orders)?;
                Some((value - evaluate_function(graph, &clustering, cost), (a, b)))
            })
            .collect();
        weighted.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let mut merged = false;
        for (saving, (a, b)) in weighted {
            if saving <= 1e-9 {
                break;
            }
            match partition.merged(graph, cost, a, b) {
                // The orders chosen may price the merge differently from the estimate;
                // it is taken only if it still saves.
                Some((next, next_value)) if next_value < value - 1e-9 => {
                    partition = next;
                    value = next_value;
                    merged = true;
                    break;
                }
                _ => dropped.push((a, b)),
            }
        }
        if !merged {
            return partition.clustering(graph);
        }
    }
}

/// Seed 003's linear merge (§V-E): the combinators in program order, each added to the
/// current cluster when the result is legal, else the first of a new one.
pub fn linear(graph: &Graph, cost: &CostFunction) -> Clustering {
    let mut partition = Partition::unfused(graph);
    let mut current: Option<usize> = None;
    for v in (0..graph.nodes.len()).filter(|&v| is_loop(graph, v)) {
        current = match current {
            Some(c) => match partition.merged(graph, cost, c, partition.label[v]) {
                Some((next, _)) => {
                    partition = next;
                    Some(c)
                }
                None => Some(partition.label[v]),
            },
            None => Some(partition.label[v]),
        };
    }
    partition.clustering(graph)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::CostModel;
    use crate::exhaustive;
    use crate::random::small_program;

    /// On small random programs under every cost model: both algorithms give legal
    /// clusterings that never cost more than the unfused one and never less than the
    /// exhaustive optimum; greedy fuses something somewhere.
    #[test]
    fn greedy_and_linear_are_legal_and_between_unfused_and_the_optimum() {
        let mut greedy_fused = 0;
        let costs: Vec<CostFunction> = CostModel::ALL.iter().map(|&m| CostFunction::single(m)).collect();
        for seed in 0..40 {
            let g = small_program(6, seed);
            let Some(reference) = exhaustive::search(&g, &costs) else { continue };
            for (cost, optimum) in costs.iter().zip(&reference.optima) {
                let unfused = evaluate_function(&g, &Clustering::unfused(&g), cost);
                for (name, c) in [("greedy", greedy(&g, cost)), ("linear", linear(&g, cost))] {
                    assert_eq!(validate(&g, &c), Ok(()), "{name} seed {seed} {cost:?}:\n{g}");
                    let value = evaluate_function(&g, &c, cost);
                    assert!(value >= optimum.cost - 1e-9, "{name} beats the optimum: seed {seed} {cost:?}");
                    if name == "greedy" {
                        assert!(value <= unfused + 1e-9, "greedy costs more than unfused: seed {seed} {cost:?}");
                        greedy_fused += usize::from(value < unfused - 1e-9);
                    }
                }
            }
        }
        assert!(greedy_fused > 40, "greedy fused in only {greedy_fused} cases");
    }
}
