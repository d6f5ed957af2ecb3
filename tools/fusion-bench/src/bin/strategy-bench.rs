//! `strategy-bench [FILE|DIR]... [--elements N] [--reps R] [--seed S] [--strategies LIST]
//! [--cost COST] [--csv FILE] [--svg FILE]`
//!
//! The fusion strategies side by side on real programs: for every public function of
//! every example (default: `examples/`) and every strategy (default: the ILP and every
//! baseline), the clustering the strategy chooses (loops, objective under `--cost`, solve
//! time, status) and the run time of the program compiled with that clustering, beside the
//! unfused program's.
//!
//! * The clustering: the program desugared (`array-desugar`, `array-simplify-gathers`, as
//!   in `array-fusion`), each function's body extracted, and `choose_clustering` with the
//!   strategy and cost — what `array-fusion-analysis{strategy=… cost=…}` does.
//! * The run: the file compiled with `array-fusion{strategy=…}` (`Variant::FusedBy`; the
//!   ILP row is the default pipeline, `Variant::Fused`) and the unfused program
//!   (`Variant::Unfused`), on inputs generated from `--seed` with `N` elements (default
//!   10^6) per dynamic dimension (√N for rank 2, as `kernel-bench`). One warm-up call per
//!   variant, whose results are compared with the unfused program's; then `R` rounds
//!   (default 5) timing every variant once, interleaved, each timed call right after an
//!   untimed call of the same program (`measure::settled_call`); the median. Functions with static
//!   shapes or whose inputs fail under the interpreter are listed with the reason.
//! * The time is compiled with the default cost of the pipeline (`reads-writes`) whatever
//!   `--cost` says: `--cost` prices the clusterings in the table.
//!
//! Output: a Markdown table (program, function, combinators, strategy, loops, objective,
//! solve ms, status, run ms, speed-up over unfused) after a STREAM triad measured in the
//! same run, and with `--csv FILE` the rows as CSV
//! (`program,function,combinators,strategy,clusters,objective,solve_ms,status,run_ms,speedup_vs_unfused`);
//! with `--svg FILE` a bar chart of every timed function's speed-up per strategy.
//! Memory as in `kernel-bench`: freed results are reused (no fresh `mmap` per call).
//! Not a test: timings depend on the machine; compare rows of one run.
//!
//! `--objectives [--min-combinators K]` runs nothing: for every function with at least
//! `K` combinators (default 1) and every cost model (the two charges only inside the
//! pipeline's default cost, which has its own rows), each strategy chooses its clustering
//! under *that* model, and the table shows every strategy's objective (with its status
//! where it is not a plain baseline: `bohrium-optimal` proves or stops at its limit), the
//! best baseline and how much the ILP's optimum saves against it (seed 000 §5 and issue
//! 12's question: what optimality buys over the heuristics, model by model). No
//! formulation models max-locality, so its rows have no ILP column.
//! A baseline below a *proven* optimum would be a soundness bug of the ILP: the row says
//! `BELOW OPTIMUM` and the exit status is 1.

use fusion_analysis::baseline::Strategy;
use fusion_analysis::cost::{CostFunction, CostModel};
use fusion_analysis::driver::{AnalysisOptions, choose_clustering};
use fusion_analysis::formulation::Formulation;
use fusion_analysis::report::cluster_names;
use fusion_bench::graphs::{analysed_graphs, combinators};
use fusion_bench::measure::{self, FileRaw, extent};
use fusion_bench::stream;
use fusion_bench::traffic::function_traffic;
use fusion_codegen::{Threads, Variant};
use fusion_interpreter::{FunctionInfo, Interpreter};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

unsafe extern "C" {
    fn mallopt(param: i32, value: i32) -> i32;
}

/// Bytes moved unfused (by `fusion_bench::traffic`'s model) above which a function is not
/// run, as in `kernel-bench`: its arrays would not fit in memory (a generate of `n × n`).
const MEMORY_LIMIT: f64 = 3e9;

const USAGE: &str = "usage: strategy-bench [FILE|DIR]... [--elements N] [--reps R] [--seed S] \
                     [--strategies ilp,unfused,…] [--cost COST] [--csv FILE] [--svg FILE]\n       \
                     strategy-bench --objectives [FILE|DIR]... [--min-combinators K] [--strategies …]";

struct Options {
    elements: usize,
    reps: usize,
    seed: u64,
    strategies: Vec<Strategy>,
    cost: CostFunction,
    cost_text: String,
    csv: Option<PathBuf>,
    svg: Option<PathBuf>,
    roots: Vec<PathBuf>,
    /// `--objectives`: the objective table under every cost model instead of the run.
    objectives: bool,
    min_combinators: usize,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        elements: 1_000_000,
        reps: 5,
        seed: 0,
        strategies: Strategy::ALL.to_vec(),
        cost: CostFunction::default(),
        cost_text: "reads-writes".into(),
        csv: None,
        svg: None,
        roots: Vec::new(),
        objectives: false,
        min_combinators: 1,
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "-h" || a == "--help" {
            return Err(USAGE.into());
        }
        if !a.starts_with('-') {
            o.roots.push(PathBuf::from(a));
            i += 1;
            continue;
        }
        if a == "--objectives" {
            o.objectives = true;
            i += 1;
            continue;
        }
        let value = args.get(i + 1).ok_or(format!("{a} needs a value"))?;
        match a {
            "--elements" => o.elements = value.parse().map_err(|_| "--elements: not a number")?,
            "--reps" => o.reps = value.parse().map_err(|_| "--reps: not a number")?,
            "--seed" => o.seed = value.parse().map_err(|_| "--seed: not a number")?,
            "--strategies" => {
                o.strategies = value.split(',').map(|s| s.parse()).collect::<Result<_, _>>()?;
            }
            "--cost" => {
                o.cost = value.parse()?;
                o.cost_text = value.clone();
            }
            "--csv" => o.csv = Some(PathBuf::from(value)),
            "--svg" => o.svg = Some(PathBuf::from(value)),
            "--min-combinators" => {
                o.min_combinators = value.parse().map_err(|_| "--min-combinators: not a number")?;
            }
            _ => return Err(format!("unknown option {a}\n{USAGE}")),
        }
        i += 2;
    }
    if o.elements == 0 || o.reps == 0 {
        return Err("--elements and --reps must be positive".into());
    }
    if o.roots.is_empty() {
        o.roots.push(PathBuf::from("examples"));
    }
    Ok(o)
}

/// One row of the table.
struct Row {
    program: String,
    function: String,
    combinators: usize,
    strategy: String,
    clusters: String,
    objective: String,
    solve_ms: String,
    status: String,
    run_ms: String,
    speedup: String,
    /// The speed-up as a number, when the function was timed.
    speedup_value: Option<f64>,
}

impl Row {
    fn markdown(&self) -> String {
        format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            self.program,
            self.function,
            self.combinators,
            self.strategy,
            self.clusters,
            self.objective,
            self.solve_ms,
            self.status,
            self.run_ms,
            self.speedup
        )
    }

    fn csv(&self) -> String {
        let quote = |s: &str| if s.contains([',', '"']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.into() };
        [
            quote(&self.program),
            quote(&self.function),
            self.combinators.to_string(),
            quote(&self.strategy),
            quote(&self.clusters),
            quote(&self.objective),
            quote(&self.solve_ms),
            quote(&self.status),
            quote(&self.run_ms),
            quote(&self.speedup),
        ]
        .join(",")
    }
}

/// The analysis columns of every strategy for each function of `path`, by function:
/// (combinators, per strategy (loops, objective, solve ms, status)).
type Analysis = (usize, Vec<(String, String, String, String)>);

/// Each function's name with its analysis, or why it has none.
type FileAnalysis = Vec<(String, Result<Analysis, String>)>;

fn analyse(path: &Path, options: &Options) -> Result<FileAnalysis, String> {
    let mut out = Vec::new();
    for (name, graph) in analysed_graphs(path)? {
        let analysis = graph.map(|g| {
            let combinators = combinators(&g);
            let per_strategy = options
                .strategies
                .iter()
                .map(|&strategy| {
                    let analysis = AnalysisOptions {
                        strategy,
                        formulation: Default::default(),
                        cost: options.cost.clone(),
                        limits: fusion_solver::Limits::default(),
                        dump_ilp: None,
                    };
                    match choose_clustering(&g, &analysis) {
                        Ok(o) => (
                            cluster_names(&g, &o.clustering).len().to_string(),
                            format!("{}", o.objective),
                            format!("{:.1}", o.solve_ms),
                            o.status.as_str().to_owned(),
                        ),
                        Err(e) => ("-".into(), "-".into(), "-".into(), format!("error: {e}")),
                    }
                })
                .collect();
            (combinators, per_strategy)
        });
        out.push((name, analysis));
    }
    Ok(out)
}

/// The cost functions of the objective table, each with the formulation that optimises
/// it (seed 001's weighted objective exists only in its own formulation; max-locality in
/// none, so its rows have no ILP column). The two charges (`gathered-folds`,
/// `chained-gathers`) get no rows of their own: alone, every clustering that runs no fold
/// or gather in the order of a gather that loads its indices costs 0, the unfused one
/// among them. Instead the pipeline's default,
/// which adds them to `reads-writes`, has its row.
fn objective_models() -> Vec<(CostFunction, Formulation)> {
    let charges = [CostModel::GatheredFolds, CostModel::ChainedGathers];
    CostModel::ALL
        .iter()
        .filter(|m| !charges.contains(m))
        .map(|&m| {
            let formulation = if m == CostModel::Robinson { Formulation::Robinson } else { Formulation::Combined };
            (CostFunction::single(m), formulation)
        })
        .chain(std::iter::once((CostFunction::default(), Formulation::Combined)))
        .collect()
}

/// `--objectives`: prints the objective table (see the module doc); false when a baseline
/// beat a proven optimum.
fn objective_table(files: &[PathBuf], options: &Options) -> Result<bool, String> {
    let baselines: Vec<Strategy> = options.strategies.iter().copied().filter(|&s| s != Strategy::Ilp).collect();
    let names: Vec<String> = baselines.iter().map(|s| s.to_string()).collect();
    println!("# Every strategy's objective under every cost model\n");
    println!(
        "Written by `strategy-bench --objectives` (functions of at least {} combinators): each strategy \
         chooses its clustering under the row's model; \"ILP saves\" is the best baseline's objective \
         minus the ILP's (relative to the best baseline).\n",
        options.min_combinators.max(1)
    );
    println!(
        "| program | function | combinators | cost | ilp (status) | {} | best baseline | ILP saves |",
        names.join(" | ")
    );
    println!("|---|---|---|---|---|{}---|---|", "---|".repeat(names.len()));
    let mut sound = true;
    // Per baseline: rows with a proven optimum, rows where it reached it, its worst excess.
    let mut at_optimum = vec![(0usize, 0usize, 0.0f64); baselines.len()];
    for path in files {
        let program = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        for (function, graph) in analysed_graphs(path)? {
            let Ok(g) = graph else { continue };
            let combinators = combinators(&g);
            if combinators < options.min_combinators.max(1) {
                continue;
            }
            for (cost, formulation) in objective_models() {
                let run = |strategy| {
                    let analysis = AnalysisOptions {
                        strategy,
                        formulation,
                        cost: cost.clone(),
                        limits: fusion_solver::Limits::default(),
                        dump_ilp: None,
                    };
                    choose_clustering(&g, &analysis)
                };
                let outcomes: Vec<Option<fusion_analysis::driver::Outcome>> =
                    baselines.iter().map(|&s| run(s).ok()).collect();
                let values: Vec<Option<f64>> = outcomes.iter().map(|o| o.as_ref().map(|o| o.objective)).collect();
                // A strategy that proves or bounds (bohrium-optimal) says how it ended.
                let cells: Vec<String> = outcomes
                    .iter()
                    .map(|o| match o {
                        Some(o) if o.status == fusion_analysis::report::Status::Baseline => o.objective.to_string(),
                        Some(o) => format!("{} ({})", o.objective, o.status.as_str()),
                        None => "-".into(),
                    })
                    .collect();
                let ilp = match run(Strategy::Ilp) {
                    Ok(o) => o,
                    Err(_) => {
                        // A model no formulation expresses (max-locality): the strategies
                        // side by side, with no ILP column to compare.
                        let best = values
                            .iter()
                            .zip(&baselines)
                            .filter_map(|(v, s)| v.map(|v| (v, *s)))
                            .min_by(|a, b| a.0.total_cmp(&b.0));
                        println!(
                            "| {program} | {function} | {combinators} | {cost} | no formulation | {} | {} | - |",
                            cells.join(" | "),
                            best.map_or("-".into(), |(_, s)| s.to_string()),
                        );
                        continue;
                    }
                };
                let best = values
                    .iter()
                    .zip(&baselines)
                    .filter_map(|(v, s)| v.map(|v| (v, *s)))
                    .min_by(|a, b| a.0.total_cmp(&b.0));
                let proven = ilp.status == fusion_analysis::report::Status::Optimal;
                if proven {
                    for (k, v) in values.iter().enumerate() {
                        if let Some(v) = v {
                            let excess = if ilp.objective.abs() > 1e-9 { v / ilp.objective - 1.0 } else { 0.0 };
                            at_optimum[k].0 += 1;
                            at_optimum[k].1 += usize::from(*v <= ilp.objective + 1e-9);
                            at_optimum[k].2 = at_optimum[k].2.max(excess);
                        }
                    }
                }
                let saves = match best {
                    Some((v, _)) if proven && v < ilp.objective - 1e-9 => {
                        sound = false;
                        "BELOW OPTIMUM".to_owned()
                    }
                    Some((v, _)) if v < ilp.objective - 1e-9 => {
                        format!("{} (the ILP's answer is {}, not an optimum)", v - ilp.objective, ilp.status.as_str())
                    }
                    Some((v, _)) if v > 1e-9 => {
                        format!("{} ({:.0} %)", v - ilp.objective, 100.0 * (v - ilp.objective) / v)
                    }
                    Some((v, _)) => format!("{}", v - ilp.objective),
                    None => "-".into(),
                };
                println!(
                    "| {program} | {function} | {combinators} | {cost} | {} ({}) | {} | {} | {saves} |",
                    ilp.objective,
                    ilp.status.as_str(),
                    cells.join(" | "),
                    best.map_or("-".into(), |(_, s)| s.to_string()),
                );
            }
        }
    }
    println!(
        "\nRows with a proven optimum where each baseline reaches it, and its worst excess over it (relative, over the rows whose optimum is not 0):\n"
    );
    println!("| baseline | at the optimum | worst excess |");
    println!("|---|---|---|");
    for (name, (rows, reached, worst)) in names.iter().zip(&at_optimum) {
        println!("| {name} | {reached} of {rows} | {:.0} % |", 100.0 * worst);
    }
    Ok(sound)
}

/// A time in ms, with two decimals, or two significant digits below 0.1 ms (a loop LLVM
/// reduced to a formula runs in microseconds).
fn milliseconds(ms: f64) -> String {
    if ms >= 0.1 { format!("{ms:.2}") } else { format!("{ms:.1e}") }
}

fn variant(strategy: Strategy) -> Variant {
    match strategy {
        Strategy::Ilp => Variant::Fused,
        other => Variant::FusedBy(other),
    }
}

/// The median run time of each strategy's program and of the unfused one (last), or why
/// the function is not timed.
fn time(
    path: &Path,
    f: &FunctionInfo,
    interpreter: &Interpreter,
    compiled: &mut [FileRaw],
    options: &Options,
) -> Result<Vec<Result<f64, String>>, String> {
    let extent = extent(f, options.elements).ok_or("static shapes (no dynamic extent to scale)")?;
    if let Ok(t) = function_traffic(path, &f.name, extent as u64)
        && t.unfused_bytes > MEMORY_LIMIT
    {
        return Err(format!("arrays too large at this extent ({:.0} GB moved unfused)", t.unfused_bytes / 1e9));
    }
    measure::precheck(interpreter, f, options.seed, extent, MEMORY_LIMIT)?;
    let inputs = measure::generate_inputs(&f.inputs, options.seed, extent)?;
    let unfused_index = compiled.len() - 1;
    let (reference, _) = {
        let unfused = compiled[unfused_index].get(&f.name).map_err(|e| format!("unfused not compiled: {e}"))?;
        measure::call(unfused, f, &inputs).map_err(|e| format!("unfused: {e}"))?
    };
    // Warm-up: every variant once, its results compared with the unfused program's.
    let mut usable: Vec<Result<(), String>> = Vec::new();
    for c in compiled.iter_mut() {
        usable.push(c.get(&f.name).map_err(|e| format!("not compiled: {e}")).and_then(|program| {
            let (results, _) = measure::call(program, f, &inputs)?;
            measure::agree(&reference, &results).map_err(|e| format!("results differ from unfused: {e}"))
        }));
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); compiled.len()];
    for _ in 0..options.reps {
        for (k, c) in compiled.iter_mut().enumerate() {
            if usable[k].is_ok() {
                let program = c.get(&f.name).expect("compiled in the warm-up");
                match measure::settled_call(program, f, &inputs) {
                    Ok(ms) => times[k].push(ms),
                    Err(e) => usable[k] = Err(e),
                }
            }
        }
    }
    Ok(usable.into_iter().zip(times).map(|(ok, mut t)| ok.map(|()| measure::median(&mut t))).collect())
}

fn main() -> ExitCode {
    fusion_bench::broken_pipe::end_quietly();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(o) => o,
        Err(e) if e == USAGE => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("strategy-bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    // SAFETY: glibc's mallopt, before any large allocation (as in kernel-bench).
    unsafe {
        mallopt(-4, 0); // M_MMAP_MAX
        mallopt(-1, i32::MAX); // M_TRIM_THRESHOLD
    }
    fusion_passes::register_all_passes();
    if options.objectives {
        let files = match measure::mlir_files_under(&options.roots) {
            Ok(files) => files,
            Err(e) => {
                eprintln!("strategy-bench: {e}");
                return ExitCode::FAILURE;
            }
        };
        return match objective_table(&files, &options) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => {
                eprintln!("strategy-bench: a baseline is below a proven optimum (rows marked BELOW OPTIMUM)");
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("strategy-bench: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let triad = stream::rust_triad(options.elements, options.reps);
    println!(
        "STREAM triad (Rust loop, {} f64, median of {}): {:.2} ms, {:.1} GB/s; objective: cost {}; run ms: median of {} calls at {} elements per dynamic dimension (√ for rank 2)\n",
        options.elements, options.reps, triad.ms, triad.gb_s, options.cost_text, options.reps, options.elements
    );
    println!(
        "| program | function | combinators | strategy | loops | objective | solve ms | status | run ms | speed-up vs unfused |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let files = match measure::mlir_files_under(&options.roots) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("strategy-bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut rows: Vec<Row> = Vec::new();
    let context = array_dialect::context();
    for path in &files {
        let program = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let (module, analysis) = match (array_dialect::source::load_file(&context, path), analyse(path, &options)) {
            (Ok(m), Ok(a)) => (m, a),
            (Err(e), _) => {
                println!("| {program} | - | - | - | - | - | - | does not load: {e} | - | - |");
                continue;
            }
            (_, Err(e)) => {
                println!("| {program} | - | - | - | - | - | - | not analysed: {e} | - | - |");
                continue;
            }
        };
        let interpreter = Interpreter::new(&module);
        let mut compiled: Vec<FileRaw> =
            options.strategies.iter().map(|&s| FileRaw::new(path, variant(s), Threads::Sequential)).collect();
        compiled.push(FileRaw::new(path, Variant::Unfused, Threads::Sequential));
        for f in interpreter.functions().into_iter().filter(|f| f.public && f.defined) {
            let Some((_, Ok((combinators, per_strategy)))) = analysis.iter().find(|(n, _)| *n == f.name) else {
                continue;
            };
            let times = time(path, &f, &interpreter, &mut compiled, &options);
            let unfused_ms = times.as_ref().ok().and_then(|t| t.last().cloned()?.ok());
            for (k, strategy) in options.strategies.iter().enumerate() {
                let (clusters, objective, solve_ms, status) = per_strategy[k].clone();
                let (run_ms, speedup, speedup_value) = match &times {
                    Ok(t) => match (&t[k], unfused_ms) {
                        (Ok(ms), Some(u)) => (milliseconds(*ms), format!("{:.2}", u / ms), Some(u / ms)),
                        (Ok(ms), None) => (milliseconds(*ms), "-".into(), None),
                        (Err(e), _) => ("-".into(), e.lines().next().unwrap_or("").to_owned(), None),
                    },
                    Err(e) => ("-".into(), e.lines().next().unwrap_or("").to_owned(), None),
                };
                let row = Row {
                    program: program.clone(),
                    function: f.name.clone(),
                    combinators: *combinators,
                    strategy: strategy.to_string(),
                    clusters,
                    objective,
                    solve_ms,
                    status,
                    run_ms,
                    speedup,
                    speedup_value,
                };
                println!("{}", row.markdown());
                rows.push(row);
            }
        }
    }
    if let Some(path) = &options.csv {
        let mut text =
            "program,function,combinators,strategy,clusters,objective,solve_ms,status,run_ms,speedup_vs_unfused\n"
                .to_owned();
        for r in &rows {
            text.push_str(&r.csv());
            text.push('\n');
        }
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("strategy-bench: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        eprintln!("strategy-bench: wrote {} rows to {}", rows.len(), path.display());
    }
    if let Some(path) = &options.svg {
        // One group per timed function, one bar per strategy.
        let mut groups: Vec<String> = Vec::new();
        let mut values: Vec<Vec<Option<f64>>> = Vec::new();
        for chunk in rows.chunks(options.strategies.len()) {
            if chunk.iter().any(|r| r.speedup_value.is_some()) {
                groups.push(format!("{} @{}", chunk[0].program, chunk[0].function));
                values.push(chunk.iter().map(|r| r.speedup_value).collect());
            }
        }
        let names: Vec<String> = options.strategies.iter().map(|s| s.to_string()).collect();
        let title = format!("speed-up over the unfused program, {} elements", options.elements);
        if let Err(e) = fusion_bench::plot::speedups(path, &title, &groups, &names, &values) {
            eprintln!("strategy-bench: cannot draw: {e}");
            return ExitCode::FAILURE;
        }
        eprintln!("strategy-bench: drew {} functions to {}", groups.len(), path.display());
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table prices every cost model somewhere, the two charges inside the pipeline's
    /// default (alone the unfused program would be optimal, at 0) and every other model
    /// alone, each under the formulation that can optimise it.
    #[test]
    fn the_objective_table_covers_every_model_and_the_default_cost() {
        let rows = objective_models();
        for model in CostModel::ALL {
            assert!(rows.iter().any(|(cost, _)| cost.terms().iter().any(|&(m, _)| m == model)), "{model} has no row");
        }
        for charge in [CostModel::GatheredFolds, CostModel::ChainedGathers] {
            assert!(!rows.iter().any(|(cost, _)| cost.terms() == [(charge, 1.0)]), "{charge} alone has a row");
        }
        assert!(rows.contains(&(CostFunction::default(), Formulation::Combined)), "no row for the default cost");
        for (cost, formulation) in &rows {
            let robinson = cost.terms().iter().any(|&(m, _)| m == CostModel::Robinson);
            assert_eq!(*formulation == Formulation::Robinson, robinson, "{cost} under {formulation}");
        }
    }
}
