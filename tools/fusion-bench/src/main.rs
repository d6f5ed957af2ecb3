//! `fusion-bench [--sizes 10,30,100,300,1000] [--seeds 3] [--first-seed 0]
//! [--time-limit 60] [--threads 1] [--formulations combined,gather] [--strategies ilp]
//! [--cost reads-writes] [--dump-ilp DIR] [--csv FILE] [--svg FILE]`
//!
//! Solve time of the fusion ILP against program size, on seeded random programs
//! (`fusion_analysis::random`; seeds `--first-seed` to `--first-seed + --seeds − 1`)
//! and on the bundled examples' functions of 15 or more combinators (run from the
//! repository root), solved with `--threads` racing solves (one by default; see
//! `fusion_solver::solve_racing`), side by side for the
//! formulations and strategies asked (`--strategies ilp,greedy-top-down,stream,…`: the
//! baselines of `fusion_analysis::baseline`; the ILP-based ones, `ilp` and `megiddo`,
//! once per formulation). One row per (program, strategy, formulation): combinators,
//! edges, model size, wall time of the solve, status, objective, the solver's lower
//! bound and the relative gap between them, clusters, and for the ILP its warm start: the
//! start's objective (the solver can only improve on it) and the time spent finding it
//! (part of the solve time), and the solver's search effort, nodes and simplex
//! iterations (`fusion_solver::SearchEffort`). After the random programs' rows, one
//! summary line per size and series: how many were proven optimal, the median and largest
//! solve time, and the median effort of the proven ones. `--csv FILE` writes the same rows
//! as CSV; `--svg FILE` plots the solve time against the number of combinators, one line
//! per strategy and formulation. Not a test: timings depend on the machine; compare rows of
//! one run. The effort of a solve in one thread that ends in a proof is the same on every
//! run and machine.

use fusion_analysis::{
    baseline::Strategy,
    driver::{AnalysisOptions, choose_clustering},
    formulation::Formulation,
    graph::Graph,
    random::random_graph,
    report::{Status, relative_gap},
};
use fusion_solver::{Limits, SearchEffort};
use std::process::ExitCode;

/// The fewest combinators of an example function that the benchmark times beside the
/// random programs.
const LARGE_EXAMPLE: usize = 15;

const USAGE: &str = "usage: fusion-bench [--sizes 10,30,100,300,1000] [--seeds 3] [--first-seed 0] [--time-limit 60] [--threads 1] \
                     [--formulations combined,gather] [--strategies ilp] [--cost reads-writes] [--dump-ilp DIR] \
                     [--csv FILE] [--svg FILE]";

/// The flags fusion-bench takes, each with a value.
const FLAGS: &[&str] = &[
    "--sizes",
    "--seeds",
    "--first-seed",
    "--time-limit",
    "--threads",
    "--formulations",
    "--strategies",
    "--cost",
    "--dump-ilp",
    "--csv",
    "--svg",
];

/// The CSV file's columns, one line per table row.
const CSV_HEADER: &str = "program,strategy,formulation,combinators,edges,variables,rows,solve_ms,status,objective,bound,gap,clusters,start,start_ms,nodes,lp_iterations";

/// What the summary lines need of one row of a random program.
struct Measured {
    size: usize,
    series: String,
    solve_ms: f64,
    /// An ILP-based strategy (the baselines prove nothing).
    solved: bool,
    proven: bool,
    effort: Option<SearchEffort>,
}

/// The rows so far: as CSV lines, and what the summary needs of the random programs'.
struct Table {
    csv: Vec<String>,
    random: Vec<Measured>,
}

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

/// The non-empty items of a comma-separated list.
fn parse_list(s: &str) -> Vec<String> {
    s.split(',').map(|x| x.trim().to_owned()).filter(|x| !x.is_empty()).collect()
}

/// The comma-separated names of flag `name` (or `default`), each parsed as a `T`.
fn names<T: std::str::FromStr<Err = String>>(args: &[String], name: &str, default: &str) -> Result<Vec<T>, String> {
    parse_list(arg(args, name).unwrap_or(default)).iter().map(|s| s.parse()).collect()
}

/// One table row (and CSV line) per strategy, and per formulation for the ILP-based ones.
fn rows(
    label: &str,
    g: &Graph,
    strategies: &[Strategy],
    formulations: &[Formulation],
    options: &AnalysisOptions,
    random_size: Option<usize>,
    table: &mut Table,
) {
    for &strategy in strategies {
        if matches!(strategy, Strategy::Ilp | Strategy::Megiddo) {
            for &f in formulations {
                row(label, g, strategy, Some(f), options, random_size, table);
            }
        } else {
            row(label, g, strategy, None, options, random_size, table);
        }
    }
}

/// The middle of a sorted list (the mean of the two middle values for an even count).
fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 }
}

/// One line per size and strategy/formulation of the random programs: how many were
/// proven optimal, the median and largest solve time, and the median nodes and simplex
/// iterations of the solves proven optimal (the measure that does not depend on the
/// machine's speed; a time limit would make it depend on speed again).
fn summary_lines(random: &[Measured]) -> Vec<String> {
    let mut keys: Vec<(usize, &str)> = Vec::new();
    for key in random.iter().map(|m| (m.size, m.series.as_str())) {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.into_iter()
        .map(|(size, series)| {
            let rows: Vec<&Measured> = random.iter().filter(|m| m.size == size && m.series == series).collect();
            let mut ms: Vec<f64> = rows.iter().map(|m| m.solve_ms).collect();
            ms.sort_by(f64::total_cmp);
            let proven: Vec<SearchEffort> = rows.iter().filter(|m| m.proven).filter_map(|m| m.effort).collect();
            let mut nodes: Vec<f64> = proven.iter().map(|e| e.nodes as f64).collect();
            let mut iterations: Vec<f64> = proven.iter().map(|e| e.lp_iterations as f64).collect();
            nodes.sort_by(f64::total_cmp);
            iterations.sort_by(f64::total_cmp);
            let effort = if nodes.is_empty() {
                String::new()
            } else {
                format!("; proven ones: median {} nodes, {} simplex iterations", median(&nodes), median(&iterations))
            };
            let proven = if rows.iter().any(|m| m.solved) {
                format!("{} of {} proven optimal; ", rows.iter().filter(|m| m.proven).count(), rows.len())
            } else {
                format!("{} programs; ", rows.len())
            };
            format!(
                "n={size} {series}: {proven}solve ms median {:.1}, largest {:.1}{effort}",
                median(&ms),
                ms.last().copied().unwrap_or(f64::NAN),
            )
        })
        .collect()
}

/// The solve-time plot from the CSV rows (`"label",strategy,formulation,combinators,…,
/// solve_ms,…`): one series per strategy and formulation, the mean solve time per size.
fn draw_solve_times(path: &std::path::Path, rows: &[String], cost: &str, time_limit: f64) -> Result<(), String> {
    let mut series: Vec<(String, std::collections::BTreeMap<usize, Vec<f64>>)> = Vec::new();
    for line in rows {
        // The label is quoted; the fields after it have no commas.
        let Some(rest) = line.rsplit_once('"').map(|(_, rest)| rest.trim_start_matches(',')) else { continue };
        let fields: Vec<&str> = rest.split(',').collect();
        let (Some(strategy), Some(form), Some(Ok(n)), Some(Ok(ms))) = (
            fields.first(),
            fields.get(1),
            fields.get(2).map(|f| f.parse::<usize>()),
            fields.get(6).map(|f| f.parse::<f64>()),
        ) else {
            continue;
        };
        let name = if *form == "-" { strategy.to_string() } else { format!("{strategy} ({form})") };
        let index = match series.iter().position(|(s, _)| *s == name) {
            Some(i) => i,
            None => {
                series.push((name, Default::default()));
                series.len() - 1
            }
        };
        series[index].1.entry(n).or_default().push(ms.max(1e-3));
    }
    let series: Vec<fusion_bench::plot::Series> = series
        .into_iter()
        .map(|(name, by_size)| fusion_bench::plot::Series {
            name,
            points: by_size.into_iter().map(|(n, ms)| (n as f64, ms.iter().sum::<f64>() / ms.len() as f64)).collect(),
        })
        .collect();
    let title = format!("mean solve time, cost {cost}, time limit {time_limit} s");
    fusion_bench::plot::solve_times(path, &title, &series)
}

fn row(
    label: &str,
    g: &Graph,
    strategy: Strategy,
    formulation: Option<Formulation>,
    options: &AnalysisOptions,
    random_size: Option<usize>,
    table: &mut Table,
) {
    let combinators = g.nodes.iter().filter(|n| n.kind.is_fusible_kind()).count();
    let form = formulation.map_or("-".to_string(), |f| f.to_string());
    // `--dump-ilp DIR`: one LP file per row, named after the row.
    let dump_ilp = options.dump_ilp.as_ref().filter(|_| formulation.is_some()).map(|dir| {
        let name: String = label.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        dir.join(format!("{name}.{strategy}.{form}.lp"))
    });
    let options = AnalysisOptions {
        strategy,
        formulation: formulation.unwrap_or(options.formulation),
        dump_ilp,
        ..options.clone()
    };
    match choose_clustering(g, &options) {
        Ok(o) => {
            let bound = o.bound.map_or("-".to_string(), |b| format!("{b:.1}"));
            let gap = o.bound.map_or("-".to_string(), |b| format!("{:.1}%", 100.0 * relative_gap(o.objective, b)));
            // The row's fields, in the order of the table's columns and of CSV_HEADER.
            let fields = [
                label.to_string(),
                strategy.name().to_string(),
                form.clone(),
                combinators.to_string(),
                g.edges.len().to_string(),
                o.variables.to_string(),
                o.rows.to_string(),
                format!("{:.1}", o.solve_ms),
                o.status.as_str().to_string(),
                o.objective.to_string(),
                bound,
                gap,
                o.clustering.clusters.len().to_string(),
                o.warm_start.map_or("-".to_string(), |w| w.objective.to_string()),
                o.warm_start.map_or("-".to_string(), |w| format!("{:.1}", w.ms)),
                o.effort.map_or("-".to_string(), |e| e.nodes.to_string()),
                o.effort.map_or("-".to_string(), |e| e.lp_iterations.to_string()),
            ];
            // Column widths; negative: left-aligned.
            const WIDTHS: [i32; 17] = [-28, -16, -9, 6, 6, 8, 8, 10, -11, 9, 9, 7, 8, 7, 9, 7, 9];
            let cells: Vec<String> = fields
                .iter()
                .zip(WIDTHS)
                .map(|(f, w)| if w < 0 { format!("{f:<0$}", (-w) as usize) } else { format!("{f:>0$}", w as usize) })
                .collect();
            println!("{}", cells.join(" "));
            let mut quoted = fields.clone();
            quoted[0] = format!("\"{label}\"");
            table.csv.push(quoted.join(","));
            if let Some(size) = random_size {
                let series = if formulation.is_some() {
                    format!("{} {form}", strategy.name())
                } else {
                    strategy.name().to_string()
                };
                table.random.push(Measured {
                    size,
                    series,
                    solve_ms: o.solve_ms,
                    solved: formulation.is_some(),
                    proven: o.status == Status::Optimal,
                    effort: o.effort,
                });
            }
        }
        Err(e) => println!("{label:<28} {:<16} {form:<9} error: {e}", strategy.name()),
    }
}

fn main() -> ExitCode {
    fusion_bench::broken_pipe::end_quietly();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let numbers = || -> Result<(Vec<usize>, std::ops::Range<u64>, f64), String> {
        check_arguments(&args)?;
        let sizes = parse_list(arg(&args, "--sizes").unwrap_or("10,30,100,300,1000"))
            .iter()
            .map(|s| s.parse().map_err(|_| format!("--sizes: cannot read '{s}'")))
            .collect::<Result<Vec<usize>, String>>()?;
        let first_seed: u64 = parsed(&args, "--first-seed", 0)?;
        let seeds = first_seed..first_seed.saturating_add(parsed(&args, "--seeds", 3)?);
        Ok((sizes, seeds, parsed(&args, "--time-limit", 60.0)?))
    };
    let (sizes, seeds, time_limit) = match numbers() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("fusion-bench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let cost = arg(&args, "--cost").unwrap_or("reads-writes");
    let threads: i32 = match parsed(&args, "--threads", 1) {
        Ok(n) if n >= 1 => n,
        _ => {
            eprintln!("fusion-bench: --threads needs a whole number of at least 1\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (formulations, strategies): (Vec<Formulation>, Vec<Strategy>) =
        match (names(&args, "--formulations", "combined,gather"), names(&args, "--strategies", "ilp")) {
            (Ok(f), Ok(s)) => (f, s),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("fusion-bench: {e}");
                return ExitCode::FAILURE;
            }
        };
    let mut table = Table { csv: vec![CSV_HEADER.to_string()], random: Vec::new() };
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
        limits: Limits { time_seconds: time_limit, threads, ..Limits::default() },
        dump_ilp: arg(&args, "--dump-ilp").map(std::path::PathBuf::from),
    };
    let racers = if threads > 1 { format!("{threads} racing threads") } else { "one thread".to_string() };
    println!("cost={cost} time-limit={time_limit}s (SCIP 10, {racers})");
    println!(
        "{:<28} {:<16} {:<9} {:>6} {:>6} {:>8} {:>8} {:>10} {:<11} {:>9} {:>9} {:>7} {:>8} {:>7} {:>9} {:>7} {:>9}",
        "program",
        "strategy",
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
        "clusters",
        "start",
        "start ms",
        "nodes",
        "LP iter"
    );
    for &size in &sizes {
        for seed in seeds.clone() {
            let g = random_graph(size, seed);
            let label = format!("random n={size} seed={seed}");
            rows(&label, &g, &strategies, &formulations, &options, Some(size), &mut table);
        }
    }
    for line in summary_lines(&table.random) {
        println!("{line}");
    }
    // The bundled examples' functions of at least LARGE_EXAMPLE combinators.
    let mut files: Vec<std::path::PathBuf> = match std::fs::read_dir("examples") {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
            .collect(),
        Err(e) => {
            eprintln!("fusion-bench: cannot read examples/ (run from the repository root): {e}");
            Vec::new()
        }
    };
    files.sort();
    for file in files {
        let graphs = match fusion_bench::graphs::analysed_graphs(&file) {
            Ok(graphs) => graphs,
            Err(e) => {
                eprintln!("fusion-bench: {}: {e}", file.display());
                continue;
            }
        };
        for (name, g) in graphs {
            match g {
                Ok(g) if fusion_bench::graphs::combinators(&g) >= LARGE_EXAMPLE => {
                    rows(&name, &g, &strategies, &formulations, &options, None, &mut table)
                }
                Ok(_) => {}
                Err(e) => eprintln!("{e}"),
            }
        }
    }
    if let Some(path) = arg(&args, "--svg")
        && let Err(e) = draw_solve_times(std::path::Path::new(path), &table.csv[1..], cost, time_limit)
    {
        eprintln!("fusion-bench: {e}");
        return ExitCode::FAILURE;
    }
    if let Some(path) = arg(&args, "--csv")
        && let Err(e) = std::fs::write(path, table.csv.join("\n") + "\n")
    {
        eprintln!("fusion-bench: cannot write {path}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
