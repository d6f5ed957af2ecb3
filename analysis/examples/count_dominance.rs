use fusion_analysis::graph::{Access, NodeKind};
use fusion_analysis::random::random_graph;
fn main() {
    for seed in 0..5 {
        let g = random_graph(200, seed);
        let (mut gen1, mut map1, mut single) = (0, 0, 0);
        for (i, nd) in g.nodes.iter().enumerate() {
            if !matches!(nd.kind, NodeKind::Map | NodeKind::Generate) || nd.outputs != 1 || nd.output_escapes(0) {
                continue;
            }
            let outs: Vec<_> = g.edges.iter().filter(|e| e.from.0 == i).collect();
            if outs.len() != 1 {
                continue;
            }
            single += 1;
            if !outs[0].is_fusible() || outs[0].access != Access::InOutputOrder {
                continue;
            }
            let ins: Vec<_> = g.edges.iter().filter(|e| e.to.0 == i).collect();
            if ins.iter().any(|e| e.is_fusible() && !matches!(g.nodes[e.from.0].kind, NodeKind::Input)) {
                continue;
            }
            let ordered = ins.iter().filter(|e| e.access.is_ordered()).count();
            if ordered == 0 {
                gen1 += 1
            } else if ordered == 1 {
                map1 += 1
            }
        }
        println!("seed {seed}: single-consumer map/gen {single}, candidates no-read {gen1}, one-read {map1}");
    }
}
