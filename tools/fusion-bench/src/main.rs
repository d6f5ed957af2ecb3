//! `fusion-bench [--sizes 10,30,100,300,1000] [--seeds 3] [--time-limit 60]
//! [--formulations combined,gather] [--cost reads-writes] [--dump-ilp DIR]`
//!
//! Solve time of the fusion ILP against program size, on seeded random programs
//! (`fusion_analysis::random`) and on the largest bundled examples, side by side for the
//! formulations asked. One row per (program, formulation): combinators, edges, model
//! size, wall time of the solve, status, objective, the solver's lower bound and the
//! relative gap between them. Not a test: timings depend on the
//! machine; compare rows of one run.

use fusion_analysis::{
    driver::{AnalysisOptions, choose_clustering},
    formulation::Formulation,
    graph::Graph,
    random::random_graph,
    report::relative_gap,
};
use fusion_solver::Limits;
use std::process::ExitCode;

const USAGE: &str = "usage: fusion-bench [--sizes 10,30,100,300,1000] [--seeds 3] [--time-limit 60] \
                     [--formulations combined,gather] [--cost reads-writes] [--dump-ilp DIR]";

/// The flags fusion-bench takes, each with a value.
const FLAGS: &[&str] = &["--sizes", "--seeds", "--time-limit", "--formulations", "--cost", "--dump-ilp"];

/// Checks the command line: every argument is a known flag followed by its value.
fn check_arguments(args: &[String]) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        if !FLAGS.contains(&args[i].as_str()) {
            return Err(format!("unknown argument '{}'", args[i]));
        }
        if i + 1 >= args.len() {
            return Err(format!("{} needs a value", args[i]));
        }
        i += 2;
    }
    Ok(())
}

fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(|s| s.as_str())
}

/// The value of `name` parsed as a `T`, `default` when absent; an error names the flag.
fn parsed<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match arg(args, name) {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| format!("{name}: cannot read '{text}'")),
    }
}

fn row(label: &str, g: &Graph, formulation: Formulation, options: &AnalysisOptions) {
    let combinators = g.nodes.iter().filter(|n| n.kind.is_fusible_kind()).count();
    // `--dump-ilp DIR`: one LP file per row, named after the row.
    let dump_ilp = options.dump_ilp.as_ref().map(|dir| {
        let name: String = label.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        dir.join(format!("{name}.{formulation}.lp"))
    });
    let options = AnalysisOptions { formulation, dump_ilp, ..options.clone() };
    match choose_clustering(g, &options) {
        Ok(o) => println!(
            "{label:<28} {:<9} {combinators:>6} {:>6} {:>8} {:>8} {:>10.1} {:<11} {:>9} {:>9} {:>7} {:>8}",
            formulation.to_string(),
            g.edges.len(),
            o.variables,
            o.rows,
            o.solve_ms,
            o.status.as_str(),
            o.objective,
            o.bound.map_or("-".to_string(), |b| format!("{b:.1}")),
            o.bound.map_or("-".to_string(), |b| format!("{:.1}%", 100.0 * relative_gap(o.objective, b))),
            o.clustering.clusters.len()
        ),
        Err(e) => println!("{label:<28} {:<9} error: {e}", formulation.to_string()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let parse_list =
        |s: &str| -> Vec<String> { s.split(',').map(|x| x.trim().to_owned()).filter(|x| !x.is_empty()).collect() };
    let numbers = || -> Result<(Vec<usize>, u64, f64), String> {
        check_arguments(&args)?;
        let sizes = parse_list(arg(&args, "--sizes").unwrap_or("10,30,100,300,1000"))
            .iter()
            .map(|s| s.parse().map_err(|_| format!("--sizes: cannot read '{s}'")))
            .collect::<Result<Vec<usize>, String>>()?;
        Ok((sizes, parsed(&args, "--seeds", 3)?, parsed(&args, "--time-limit", 60.0)?))
    };
    let (sizes, seeds, time_limit) = match numbers() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("fusion-bench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let cost = arg(&args, "--cost").unwrap_or("reads-writes");
    let formulations: Vec<Formulation> = match parse_list(arg(&args, "--formulations").unwrap_or("combined,gather"))
        .iter()
        .map(|f| f.parse())
        .collect::<Result<_, _>>()
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("fusion-bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let options = AnalysisOptions {
        strategy: Default::default(),
        formulation: Formulation::Combined,
        cost: match cost.parse() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("fusion-bench: {e}");
                return ExitCode::FAILURE;
            }
        },
        limits: Limits { time_seconds: time_limit, ..Limits::default() },
        dump_ilp: arg(&args, "--dump-ilp").map(std::path::PathBuf::from),
    };
    println!("cost={cost} time-limit={time_limit}s (SCIP 10, one thread)");
    println!(
        "{:<28} {:<9} {:>6} {:>6} {:>8} {:>8} {:>10} {:<11} {:>9} {:>9} {:>7} {:>8}",
        "program",
        "form.",
        "comb.",
        "edges",
        "vars",
        "rows",
        "solve ms",
        "status",
        "objective",
        "bound",
        "gap",
        "clusters"
    );
    for &size in &sizes {
        for seed in 0..seeds {
            let g = random_graph(size, seed);
            for &f in &formulations {
                row(&format!("random n={size} seed={seed}"), &g, f, &options);
            }
        }
    }
    // The largest examples of the seeds.
    let context = array_dialect::context();
    for (file, function) in [
        ("examples/seed001_closest_points.mlir", "closestPointsStep"),
        ("examples/seed004_sieve.mlir", "sieveStep"),
        ("examples/seed002_normalise2.mlir", "normalise2Extended"),
        ("examples/seed001_quadtree.mlir", "initialBounds"),
    ] {
        let Ok(module) = array_dialect::source::load_file(&context, std::path::Path::new(file)) else {
            eprintln!("fusion-bench: cannot load {file} (run from the repository root)");
            continue;
        };
        let source = std::fs::read_to_string(file).ok();
        for (name, g) in fusion_passes::extract::extract_module(&module, source.as_deref()) {
            if name != function {
                continue;
            }
            match g {
                Ok(g) => {
                    for &f in &formulations {
                        row(function, &g, f, &options);
                    }
                }
                Err(e) => eprintln!("{e}"),
            }
        }
    }
    ExitCode::SUCCESS
}
