//! `fusion-demo [FILE|DIR]...`: runs the whole pipeline on every example program and prints
//! one table: per function, its number of combinators and of array values, the number of
//! clusters (loops) before and after the optimal fusion analysis with its defaults and the
//! solve time; the three-way check (`fusion_codegen::check`: the interpreter on the unfused
//! and the fused program, the compiled unfused and the compiled fused program, on inputs
//! generated with [`CHECK_SIZE`] elements per dynamic dimension, or the inputs shipped beside
//! the program); and, where all four agree, the compiled unfused and fused times at about
//! [`TIMING_ELEMENTS`] elements per argument (median of [`TIMING_REPS`] calls after one
//! warm-up) and their ratio. With no argument it reads `examples/`. Exits with 1 when any
//! file fails to load (its located diagnostics are printed) or any check finds a
//! mismatch, after reporting all the others.

use fusion_analysis::baseline::Strategy;
use fusion_analysis::driver::{AnalysisOptions, choose_clustering};
use fusion_codegen::{
    Variant,
    check::{CheckOutcome, FileJit, check_function, load_fused},
    inputs::{generate_args, read_args, shipped_inputs},
};
use fusion_interpreter::{FunctionInfo, Interpreter};
use fusion_passes::extract::{ExtractError, Extracted};
use fusion_passes::summary::FunctionSummary;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Elements per dynamic dimension of the check's generated inputs.
const CHECK_SIZE: usize = 64;
/// About this many elements per argument for the timings (rank-2 arguments: its square
/// root per dimension), small enough to keep the demo quick in a debug build.
const TIMING_ELEMENTS: usize = 100_000;
const TIMING_REPS: usize = 3;
/// Bytes moved unfused (`fusion_bench::traffic`) above which a function is not timed.
const TIMING_MEMORY_LIMIT: f64 = 1e9;

/// The first line of `s`, at most `max` characters.
fn brief(s: &str, max: usize) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() <= max { line.to_owned() } else { line.chars().take(max - 1).collect::<String>() + "…" }
}

/// The check column: a short verdict.
fn verdict(outcome: &CheckOutcome) -> String {
    match outcome {
        CheckOutcome::Match { .. } => "match (interp, unfused, fused)".into(),
        CheckOutcome::NotCompiled { reason, .. } => format!("match interp; not compiled: {}", brief(reason, 48)),
        CheckOutcome::NotFused { reason, .. } => format!("not fused: {}", brief(reason, 48)),
        CheckOutcome::BothFail { .. } | CheckOutcome::Undefined { .. } => "inputs undefined (interp fails)".into(),
        other => format!("MISMATCH: {}", brief(&other.to_string(), 80)),
    }
}

/// Median call times (ms) of `f` compiled unfused and fused on generated inputs of about
/// [`TIMING_ELEMENTS`] elements, or why there are none.
fn timings(file: &Path, f: &FunctionInfo, jits: &mut [FileJit; 2]) -> Result<(f64, f64), String> {
    let extent = fusion_bench::measure::extent(f, TIMING_ELEMENTS).ok_or("static shapes")?;
    if let Ok(t) = fusion_bench::traffic::function_traffic(file, &f.name, extent as u64)
        && t.unfused_bytes > TIMING_MEMORY_LIMIT
    {
        return Err("too large to time".into());
    }
    let args = generate_args(&f.inputs, 0, extent);
    let mut medians = [0.0; 2];
    for (jit, median) in jits.iter_mut().zip(&mut medians) {
        let mut times = Vec::new();
        for _ in 0..=TIMING_REPS {
            times.push(jit.call(f, &args).map_err(|e| e.to_string())?.1);
        }
        *median = fusion_bench::measure::median(&mut times[1..]);
    }
    Ok((medians[0], medians[1]))
}

/// The analysis columns of a function's row: clusters, solve time, status.
fn analysis_cells(
    graphs: &[(String, Result<Extracted, ExtractError>)],
    f: &FunctionSummary,
    options: &AnalysisOptions,
) -> (String, String, String, String) {
    let none = |status: String| ("-".to_owned(), "-".to_owned(), "-".to_owned(), status);
    match graphs.iter().find(|(n, _)| *n == f.name) {
        Some((_, Ok(Extracted { graph: g, unprovable, .. }))) if g.nodes.iter().any(|n| n.kind.is_fusible_kind()) => {
            // Ops whose size equality could not be proven are kept out of their producers'
            // clusters and checked at run time: a visible outcome, not a silent one.
            let checks = match unprovable.len() {
                0 => String::new(),
                n => format!("; {n} size equalit{} checked at run time", if n == 1 { "y" } else { "ies" }),
            };
            match choose_clustering(g, options) {
                Ok(o) => {
                    // The cost of seed 000 §5's greedy clusterings beside the optimum's.
                    let cost_of = |strategy: Strategy| {
                        choose_clustering(g, &AnalysisOptions { strategy, ..options.clone() })
                            .map(|b| format!("{}", b.objective))
                            .unwrap_or_else(|_| "-".into())
                    };
                    (
                        fusion_analysis::report::cluster_names(g, &o.clustering).len().to_string(),
                        format!(
                            "{} / {} / {}",
                            o.objective,
                            cost_of(Strategy::GreedyTopDown),
                            cost_of(Strategy::GreedyBottomUp)
                        ),
                        format!("{:.1}", o.solve_ms),
                        format!("verified, {}{checks}", o.status.as_str()),
                    )
                }
                Err(e) => none(format!("verified, analysis error: {e}")),
            }
        }
        Some((_, Ok(_))) if f.combinator_count() > 0 => {
            none("verified, combinators only in nested scf blocks (fuse-opt --emit-clustering=json)".into())
        }
        Some((_, Ok(_))) => ("0".into(), "-".into(), "-".into(), "verified, nothing to fuse".into()),
        Some((_, Err(e))) if e.message.starts_with("ill-sized") => {
            none("verified, ill-sized (rejected by size inference)".into())
        }
        Some((_, Err(e))) => none(format!("verified, not analysed: {}", e.message)),
        None => none("verified".into()),
    }
}

/// The unfused and fused times of a function, in ms.
type Times = (f64, f64);

/// The check column of a public function's row, its unfused and fused times when the
/// check matched on generated inputs, and whether the check failed.
fn check_cells(
    file: &Path,
    info: &FunctionInfo,
    reference: &Interpreter,
    fused: Option<&Interpreter>,
    jits: &mut [FileJit; 2],
) -> (String, Option<Result<Times, String>>, bool) {
    let shipped = shipped_inputs(file, &info.name);
    let args = match &shipped {
        Some(files) => read_args(files, &info.inputs),
        None => Ok(generate_args(&info.inputs, 0, CHECK_SIZE)),
    };
    let args = match args {
        Err(e) => return (format!("inputs: {}", brief(&e, 60)), None, false),
        Ok(args) => args,
    };
    let [unfused_jit, fused_jit] = jits;
    let outcome = check_function(info, &args, reference, fused, unfused_jit, fused_jit);
    let times = match (&outcome, &shipped) {
        (CheckOutcome::Match { .. }, None) => Some(timings(file, info, jits)),
        (CheckOutcome::Match { .. }, Some(_)) => Some(Err("shipped inputs".to_owned())),
        _ => None,
    };
    (verdict(&outcome), times, outcome.is_failure())
}

/// Prints the rows under their header, each column as wide as its widest cell.
fn print_table(rows: &[[String; 13]]) {
    let header = [
        "program file",
        "function",
        "combinators",
        "array values",
        "clusters unfused",
        "clusters ILP",
        "cost: ILP / greedy top-down / bottom-up",
        "solve ms",
        "check",
        "unfused ms",
        "fused ms",
        "speed-up",
        "status",
    ];
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].len()).chain([header[c].len()]).max().unwrap_or(0))
        .collect();
    let line = |cells: &[String]| {
        cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect::<Vec<_>>().join("  ").trim_end().to_owned()
    };
    println!("{}", line(&header.map(String::from)));
    println!("{}", widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  "));
    for row in rows {
        println!("{}", line(row));
    }
}

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if args.iter().any(|a| a == Path::new("--help") || a == Path::new("-h")) {
        println!("usage: fusion-demo [FILE|DIR]...   (default: examples/)");
        return ExitCode::SUCCESS;
    }
    let roots = if args.is_empty() { vec![PathBuf::from("examples")] } else { args };
    let mut files = Vec::new();
    for root in &roots {
        match array_dialect::source::mlir_files(root) {
            Ok(found) => files.extend(found),
            Err(e) => {
                eprintln!("{}: error: {e}", root.display());
                return ExitCode::FAILURE;
            }
        }
    }
    if files.is_empty() {
        eprintln!("error: no .mlir files under {roots:?}");
        return ExitCode::FAILURE;
    }

    let context = array_dialect::context();
    // The analysis with its defaults (formulation=combined, cost=reads-writes+3*gathered-folds+3*chained-gathers).
    let options = AnalysisOptions {
        strategy: Default::default(),
        formulation: Default::default(),
        cost: Default::default(),
        limits: fusion_solver::Limits::default(),
        dump_ilp: None,
    };
    fusion_passes::register_all_passes();
    let mut failures = 0;
    let mut mismatches = 0;
    let mut rows = Vec::new();
    for file in &files {
        match array_dialect::source::load_file(&context, file) {
            Ok(module) => {
                let source = std::fs::read_to_string(file).ok();
                let graphs = fusion_passes::extract::extract_module_blocks(&module, source.as_deref());
                let fused_module = load_fused(&context, file).ok();
                let reference = Interpreter::new(&module);
                let fused = fused_module.as_ref().map(Interpreter::new);
                let mut jits = [FileJit::new(file, Variant::Unfused), FileJit::new(file, Variant::Fused)];
                for f in fusion_passes::summary::summarize(&module) {
                    let (ilp, costs, ms, status) = analysis_cells(&graphs, &f, &options);
                    let (check, times) = match reference.function(&f.name).filter(|i| i.public && i.defined) {
                        None => ("- (private or declaration)".to_owned(), None),
                        Some(info) => {
                            let outcome = check_cells(file, &info, &reference, fused.as_ref(), &mut jits);
                            mismatches += usize::from(outcome.2);
                            (outcome.0, outcome.1)
                        }
                    };
                    let (unfused_ms, fused_ms, speed_up) = match times {
                        Some(Ok((u, v))) => (format!("{u:.3}"), format!("{v:.3}"), format!("{:.2}", u / v)),
                        Some(Err(e)) => ("-".into(), "-".into(), brief(&e, 30)),
                        None => ("-".into(), "-".into(), "-".into()),
                    };
                    rows.push([
                        file.display().to_string(),
                        f.name.clone(),
                        f.combinator_count().to_string(),
                        f.array_values.to_string(),
                        f.combinator_count().to_string(),
                        ilp,
                        costs,
                        ms,
                        check,
                        unfused_ms,
                        fused_ms,
                        speed_up,
                        status,
                    ]);
                }
            }
            Err(error) => {
                failures += 1;
                eprintln!("{error}");
                let mut row: [String; 13] = std::array::from_fn(|_| "-".to_owned());
                row[0] = file.display().to_string();
                row[12] = "FAILED".into();
                rows.push(row);
            }
        }
    }

    print_table(&rows);
    println!(
        "\n{} file(s), {} function(s), {} failed to load, {} check mismatch(es); times: compiled, about {} elements \
         per argument, median of {} calls",
        files.len(),
        rows.iter().filter(|r| r[12].starts_with("verified")).count(),
        failures,
        mismatches,
        TIMING_ELEMENTS,
        TIMING_REPS
    );
    if failures > 0 || mismatches > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
