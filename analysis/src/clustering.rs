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

    /// Cluster contents by node name, for reports and tests.
    pub fn names(&self, graph: &Graph) -> Vec<Vec<String>> {
        self.clusters.iter().map(|c| c.iter().map(|n| graph.node(*n).name.clone()).collect()).collect()
    }
}
