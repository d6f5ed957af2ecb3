use fusion_analysis::cost::CostFunction;
use fusion_analysis::formulation::{Formulation, build};
use fusion_analysis::random::random_graph;
use fusion_solver::{CutSeparator, Hooks, Limits, VarKind, solve, solve_with};
fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|s| s.parse().unwrap()).collect();
    let (size, first, count, show) = (args[0] as usize, args[1], args[2], args[3]);
    let cost: CostFunction = "reads-writes".parse().unwrap();
    for seed in first..first + count {
        let graph = random_graph(size, seed);
        let ilp = build(&graph, Formulation::Combined, &cost).unwrap();
        let cuts = ilp.cycle_cuts.clone().unwrap();
        let lazy = ilp.lazy_model().unwrap();
        let mut model = lazy.clone();
        for v in &mut model.variables {
            v.kind = VarKind::Continuous;
        }
        let lp = loop {
            let s = solve(&model, &Limits { time_seconds: 600.0, ..Limits::default() }).unwrap();
            let violated = cuts.violated(&s.values);
            if violated.is_empty() {
                break s;
            }
            model.rows.extend(violated.into_iter().map(|(_, r)| r));
        };
        let hooks = Hooks {
            separator: Some(Box::new(cuts.clone()) as Box<dyn CutSeparator>),
            start: Vec::new(),
            lazy: true,
            heuristic: None,
        };
        let opt = solve_with(&lazy, &Limits { time_seconds: 600.0, ..Limits::default() }, hooks).unwrap();
        println!(
            "seed {seed}: LP {:.2} opt {:.1} nodes {}",
            lp.objective + ilp.objective_offset,
            opt.objective + ilp.objective_offset,
            opt.effort.nodes
        );
        if show == 1 {
            // objective terms with LP vs opt values
            for &(v, c) in &lazy.objective {
                let (a, b) = (lp.values[v.0], opt.values[v.0]);
                if (a - b).abs() > 1e-6 {
                    println!("  obj {} c={c} lp={a:.3} opt={b:.0}", lazy.variables[v.0].name);
                }
            }
            for (i, var) in lazy.variables.iter().enumerate() {
                let a = lp.values[i];
                if a > 1e-6 && a < 1.0 - 1e-6 && !lazy.objective.iter().any(|(v, _)| v.0 == i) {
                    println!("  frac {} lp={a:.3} opt={:.0}", var.name, opt.values[i]);
                }
            }
        }
    }
}
