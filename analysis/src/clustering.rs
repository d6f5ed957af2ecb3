//! A clustering: which nodes share a loop, in which order the loops run, and in which
//! traversal order each node produces its output.

use crate::graph::{Graph, NodeId, Order};

/// A partition of a graph's nodes into clusters (fused loops).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clustering {
    /// Clusters in execution order; each lists its nodes in program order.
    pub clusters: Vec<Vec<NodeId>>,
    /// The output traversal order (`d^o` of seed 000 §4.2) of every node, by node index.
    pub output_orders: Vec<Order>,
}

impl Clustering {
    /// Every node alone, in program order, producing in order 0 except where its
    /// combinator fixes the order (`scanr`): the baseline the papers call "unfused",
    /// and the safe fallback when the solver gives no answer.
    pub fn unfused(graph: &Graph) -> Self {
        Clustering {
            clusters: graph.node_ids().map(|n| vec![n]).collect(),
            output_orders: graph.nodes.iter().map(|n| n.kind.fixed_output_order().unwrap_or(0)).collect(),
        }
    }

    /// The cluster index of every node, by node index (`None` if a node is missing).
    pub fn cluster_of(&self, node_count: usize) -> Vec<Option<usize>> {
        let mut of = vec![None; node_count];
        for (c, nodes) in self.clusters.iter().enumerate() {
            for n in nodes {
                if n.0 < node_count {
                    of[n.0] = Some(c);
                }
            }
        }
        of
    }

    /// The clustering whose cluster of each node is `label[node]` (one label per node, any
    /// numbers), with `orders`, its clusters in an execution order: topologically sorted along the
    /// edges between them (the smallest first node first among the ready ones), each in
    /// program order. `None` when the edges between clusters form a cycle.
    pub fn in_execution_order(graph: &Graph, label: &[usize], orders: &[Order]) -> Option<Clustering> {
        let mut ids: Vec<usize> = label.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let index = |l: usize| ids.binary_search(&l).expect("a label of the clustering");
        let mut members: Vec<Vec<NodeId>> = vec![Vec::new(); ids.len()];
        for (v, &l) in label.iter().enumerate() {
            members[index(l)].push(NodeId(v));
        }
        let cluster: Vec<usize> = label.iter().map(|&l| index(l)).collect();
        let mut arcs: Vec<(usize, usize)> =
            graph.edges.iter().map(|e| (cluster[e.from.0], cluster[e.to.0])).filter(|(a, b)| a != b).collect();
        arcs.sort_unstable();
        arcs.dedup();
        let mut successors: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
        let mut indegree = vec![0usize; ids.len()];
        for (a, b) in arcs {
            successors[a].push(b);
            indegree[b] += 1;
        }
        let mut ready: std::collections::BTreeSet<(usize, usize)> =
            (0..ids.len()).filter(|&k| indegree[k] == 0).map(|k| (members[k][0].0, k)).collect();
        let mut clusters = Vec::with_capacity(ids.len());
        while let Some((_, k)) = ready.pop_first() {
            for &s in &successors[k] {
                indegree[s] -= 1;
                if indegree[s] == 0 {
                    ready.insert((members[s][0].0, s));
                }
            }
            clusters.push(std::mem::take(&mut members[k]));
        }
        (clusters.len() == ids.len()).then(|| Clustering { clusters, output_orders: orders.to_vec() })
    }

    /// Cluster contents by node name, for reports and tests.
    pub fn names(&self, graph: &Graph) -> Vec<Vec<String>> {
        self.clusters.iter().map(|c| c.iter().map(|n| graph.node(*n).name.clone()).collect()).collect()
    }
}
