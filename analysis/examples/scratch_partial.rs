use fusion_analysis::cost::CostFunction;
use fusion_analysis::formulation::{Formulation, build};
use fusion_analysis::random::random_graph;
use fusion_solver::{Limits, VarKind, solve};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size: usize = args[0].parse().unwrap();
    let seed: u64 = args[1].parse().unwrap();
    let keep: Vec<String> = args[2..].to_vec();
    let cost: CostFunction = "reads-writes".parse().unwrap();
    let graph = random_graph(size, seed);
    let ilp = build(&graph, Formulation::Combined, &cost).unwrap();
    let cuts = ilp.cycle_cuts.as_ref().unwrap();
    let mut model = ilp.model.clone();
    let mut kept = 0;
    for v in &mut model.variables {
        if keep.iter().any(|k| v.name.starts_with(k.as_str())) && v.kind != VarKind::Continuous {
            kept += 1;
            continue;
        }
        v.kind = VarKind::Continuous;
    }
    let t = std::time::Instant::now();
    for round in 1.. {
        let solution = solve(&model, &Limits { time_seconds: 600.0, ..Limits::default() }).unwrap();
        let violated = cuts.violated(&solution.values);
        if violated.is_empty() || round > 60 {
            println!(
                "seed {seed} kept {kept} integer: bound {:.3} after {round} solves, {:.1} s",
                solution.objective + ilp.objective_offset,
                t.elapsed().as_secs_f64()
            );
            return;
        }
        model.rows.extend(violated.into_iter().map(|(_, row)| row));
    }
}
