//! `kernel-bench [FILE|DIR]... [--elements N] [--reps R] [--seed S] [--fresh-pages]`
//!
//! Compiled unfused against compiled fused, side by side in one process, beside a STREAM
//! triad measured in the same run. For every public function of every example (default:
//! `examples/`) whose arguments have dynamic extents: generated inputs with `N` elements
//! (default 10^7) per dynamic dimension (rank-2 arguments: `√N` per dimension, so about `N`
//! elements), the program compiled both ways (`Variant::Unfused`, `Variant::Fused`) and
//! called on raw buffers, one warm-up call each (their results compared), then `R` calls
//! each (default 5), interleaved; the median times. One row per function: loops unfused /
//! after the ILP, both times, the speed-up, the bytes moved by both (the model of
//! `fusion_bench::traffic`) and their ratio, the bandwidth the fused run achieves (its
//! bytes over its time) and that as a fraction of the STREAM triad's. Functions with
//! static shapes, not compiled yet, or whose generated inputs fail (under the interpreter,
//! at a small size, first) are listed with the reason.
//!
//! Memory: glibc would serve every result of 10^7 elements with a fresh `mmap` (page faults
//! at each call); unless `--fresh-pages`, the benchmark turns that off (`mallopt`) so that
//! freed results are reused, as in a long-running program.
//! Not a test: timings depend on the machine; compare rows of one run.

use fusion_bench::{
    measure::{self, Comparison, extent},
    stream::{self, gb_per_s},
    traffic::{Traffic, function_traffic},
};
use fusion_codegen::{Variant, inputs::generate_args, raw};
use fusion_interpreter::{FunctionInfo, Interpreter, Type};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

unsafe extern "C" {
    fn mallopt(param: i32, value: i32) -> i32;
}

/// Bytes moved unfused (by the model) above which a function is not run: its arrays would
/// not fit in memory (a generate of `n × m` with both sizes at 10^7, say).
const MEMORY_LIMIT: f64 = 3e9;

/// Elements per dynamic dimension of the interpreter's pre-check of the inputs.
const PRECHECK_EXTENT: usize = 64;

/// The first line of `s`, at most `max` characters.
fn brief(s: &str, max: usize) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() <= max { line.to_owned() } else { line.chars().take(max - 1).collect::<String>() + "…" }
}

/// A compiled variant of a file: the whole module, or each function alone.
struct FileRaw {
    path: PathBuf,
    variant: Variant,
    whole: Option<Result<raw::RawCompiled, String>>,
    alone: HashMap<String, Result<raw::RawCompiled, String>>,
}

impl FileRaw {
    fn new(path: &Path, variant: Variant) -> Self {
        FileRaw { path: path.to_owned(), variant, whole: None, alone: HashMap::new() }
    }

    fn get(&mut self, name: &str) -> Result<&raw::RawCompiled, String> {
        let (path, variant) = (&self.path, self.variant);
        match self.whole.get_or_insert_with(|| raw::compile_file(path, variant, None)) {
            Ok(c) => Ok(c),
            Err(_) => self
                .alone
                .entry(name.to_owned())
                .or_insert_with(|| raw::compile_file(path, variant, Some(name)))
                .as_ref()
                .map_err(|e| e.clone()),
        }
    }
}

struct Options {
    elements: usize,
    reps: usize,
    seed: u64,
    fresh_pages: bool,
    roots: Vec<PathBuf>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options { elements: 10_000_000, reps: 5, seed: 0, fresh_pages: false, roots: Vec::new() };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let value = |i: usize| args.get(i + 1).ok_or(format!("{a} needs a value"));
        match a {
            "--elements" => o.elements = value(i)?.parse().map_err(|_| "--elements: not a number")?,
            "--reps" => o.reps = value(i)?.parse().map_err(|_| "--reps: not a number")?,
            "--seed" => o.seed = value(i)?.parse().map_err(|_| "--seed: not a number")?,
            "--fresh-pages" => {
                o.fresh_pages = true;
                i += 1;
                continue;
            }
            "-h" | "--help" => {
                return Err(
                    "usage: kernel-bench [FILE|DIR]... [--elements N] [--reps R] [--seed S] [--fresh-pages]".into()
                );
            }
            _ if a.starts_with('-') => return Err(format!("unknown option {a}")),
            _ => {
                o.roots.push(PathBuf::from(a));
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    if o.elements == 0 {
        return Err("--elements must be positive".into());
    }
    if o.roots.is_empty() {
        o.roots.push(PathBuf::from("examples"));
    }
    Ok(o)
}

/// One row of the table.
fn row(cells: &[String]) -> String {
    const WIDTHS: [usize; 12] = [40, 11, 7, 10, 10, 8, 9, 9, 7, 8, 8, 0];
    cells
        .iter()
        .zip(WIDTHS)
        .enumerate()
        .map(|(i, (c, w))| if i == 0 || i == 11 { format!("{c:<w$}") } else { format!("{c:>w$}") })
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end()
        .to_owned()
}

fn skipped(label: &str, reason: &str) -> String {
    let mut cells = vec![label.to_owned()];
    cells.extend(std::iter::repeat_n("-".to_owned(), 10));
    cells.push(brief(reason, 110));
    row(&cells)
}

/// Benchmarks one function: its row.
fn bench_function(
    path: &Path,
    label: &str,
    f: &FunctionInfo,
    interpreter: &Interpreter,
    jits: &mut [FileRaw; 2],
    options: &Options,
    stream_gb_s: f64,
) -> String {
    let Some(extent) = extent(f, options.elements) else {
        return skipped(label, "static shapes (no dynamic extent to scale)");
    };
    if let Err(e) = interpreter.run(&f.name, generate_args(&f.inputs, options.seed, PRECHECK_EXTENT)) {
        return skipped(label, &format!("inputs fail under the interpreter: {e}"));
    }
    let [unfused, fused] = jits;
    let (unfused, fused) = match (unfused.get(&f.name), fused.get(&f.name)) {
        (Ok(u), Ok(v)) => (u, v),
        (Err(e), _) => return skipped(label, &format!("not compiled: unfused: {e}")),
        (_, Err(e)) => return skipped(label, &format!("not compiled: fused: {e}")),
    };
    let traffic = function_traffic(path, &f.name, extent as u64);
    if let Ok(t) = &traffic
        && t.unfused_bytes > MEMORY_LIMIT
    {
        return skipped(
            label,
            &format!(
                "arrays too large at this extent ({:.0} GB moved unfused); try a smaller --elements",
                t.unfused_bytes / 1e9
            ),
        );
    }
    let inputs = match measure::generate_inputs(&f.inputs, options.seed, extent) {
        Ok(i) => i,
        Err(e) => return skipped(label, &format!("inputs: {e}")),
    };
    let Comparison { unfused_ms, fused_ms, agree } = match measure::compare(unfused, fused, f, &inputs, options.reps) {
        Ok(c) => c,
        Err(e) => return skipped(label, &format!("the call failed: {e}")),
    };
    let max_rank = f.inputs.iter().map(|t| if let Type::Tensor { shape, .. } = t { shape.len() } else { 1 }).max();
    let shape = vec![extent.to_string(); max_rank.unwrap_or(1).max(1)].join("x");
    let mb = |b: f64| format!("{:.0}", b / 1e6);
    let (loops, unfused_mb, fused_mb, ratio, gb_s, of_stream, mut note) = match &traffic {
        Ok(Traffic { unfused_bytes, fused_bytes, unfused_loops, fused_loops, fallbacks, estimated }) => {
            let gb_s = gb_per_s(*fused_bytes, fused_ms);
            let approx = if *estimated { "~" } else { "" };
            (
                format!("{unfused_loops}/{fused_loops}"),
                format!("{approx}{}", mb(*unfused_bytes)),
                format!("{approx}{}", mb(*fused_bytes)),
                if *fused_bytes > 0.0 { format!("{:.2}", unfused_bytes / fused_bytes) } else { "inf".into() },
                if *fused_bytes > 0.0 { format!("{gb_s:.1}") } else { "-".into() },
                if *fused_bytes > 0.0 { format!("{:.2}", gb_s / stream_gb_s) } else { "-".into() },
                [
                    if *fallbacks > 0 {
                        format!("FALLBACK: {fallbacks} cluster(s) lowered op by op (unfused); ")
                    } else {
                        String::new()
                    },
                    if *estimated { "data-dependent sizes counted at full extent; ".to_owned() } else { String::new() },
                ]
                .concat(),
            )
        }
        Err(e) => {
            let d = || "-".to_owned();
            (d(), d(), d(), d(), d(), d(), format!("no bytes model: {}; ", brief(e, 60)))
        }
    };
    note.push_str(match &agree {
        Ok(()) => "results agree",
        Err(e) => e,
    });
    row(&[
        label.to_owned(),
        shape,
        loops,
        format!("{unfused_ms:.2}"),
        format!("{fused_ms:.2}"),
        format!("{:.2}", unfused_ms / fused_ms),
        unfused_mb,
        fused_mb,
        ratio,
        gb_s,
        of_stream,
        note,
    ])
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("kernel-bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !options.fresh_pages {
        // SAFETY: glibc's mallopt, before any large allocation: no mmap'ed chunks (so freed
        // results are reused) and no trimming of the heap top.
        unsafe {
            mallopt(-4, 0); // M_MMAP_MAX
            mallopt(-1, i32::MAX); // M_TRIM_THRESHOLD
        }
    }
    fusion_passes::register_all_passes();
    let n = options.elements;
    let rust = stream::rust_triad(n, options.reps);
    let jit = stream::jit_triad(n, options.reps);
    println!("STREAM triad a[i] = b[i] + s*c[i], {n} f64, 24 bytes/iteration, median of {}:", options.reps);
    println!("  Rust loop (preallocated)           {:8.2} ms  {:6.1} GB/s", rust.ms, rust.gb_s);
    match &jit {
        Ok(t) => println!("  array.map compiled (allocates a)   {:8.2} ms  {:6.1} GB/s", t.ms, t.gb_s),
        Err(e) => println!("  array.map compiled: failed: {e}"),
    }
    let stream_gb_s = rust.gb_s.max(jit.as_ref().map(|t| t.gb_s).unwrap_or(0.0));
    println!("  reference bandwidth (the better): {stream_gb_s:.1} GB/s\n");

    let mut files = Vec::new();
    for root in &options.roots {
        match array_dialect::source::mlir_files(root) {
            Ok(found) => files.extend(found),
            Err(e) => {
                eprintln!("kernel-bench: {}: {e}", root.display());
                return ExitCode::FAILURE;
            }
        }
    }
    println!(
        "{}",
        row(&[
            "function".into(),
            "shape".into(),
            "loops".into(),
            "unfused ms".into(),
            "fused ms".into(),
            "speed-up".into(),
            "MB unfus".into(),
            "MB fused".into(),
            "B ratio".into(),
            "GB/s".into(),
            "xSTREAM".into(),
            "note".into(),
        ])
    );
    let context = array_dialect::context();
    for path in &files {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let module = match array_dialect::source::load_file(&context, path) {
            Ok(m) => m,
            Err(e) => {
                println!("{}", skipped(&stem, &format!("does not load: {e}")));
                continue;
            }
        };
        let interpreter = Interpreter::new(&module);
        let mut jits = [FileRaw::new(path, Variant::Unfused), FileRaw::new(path, Variant::Fused)];
        for f in interpreter.functions().into_iter().filter(|f| f.public && f.defined) {
            let label = format!("{stem} @{}", f.name);
            let line = bench_function(path, &label, &f, &interpreter, &mut jits, &options, stream_gb_s);
            println!("{line}");
        }
    }
    println!(
        "\nloops: outermost loops of the code that runs (callees not counted), unfused/ILP; speed-up: unfused ms / fused ms; MB: bytes moved (fusion_bench::traffic: each array read \
         once per loop nest that reads it, written once if materialized; ~ = data-dependent sizes at full extent); \
         B ratio: unfused/fused bytes; GB/s: fused bytes / fused time; xSTREAM: that / the reference bandwidth."
    );
    ExitCode::SUCCESS
}
