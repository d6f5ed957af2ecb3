//! `kernel-bench [FILE|DIR]... [--elements N] [--reps R] [--seed S] [--threads T] [--scatters FORM] [--fresh-pages]
//! [--dump DIR]`
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
//! bytes over its time) and that as a fraction of the STREAM triad's. When the fused
//! function compiles to exactly the unfused LLVM IR (`fusion_bench::same_code`: the
//! clustering fused nothing there), the note says so: its two times differ by noise only.
//! Functions with static shapes, not compiled yet, or whose generated inputs fail (under
//! the interpreter, at a small size, first) are listed with the reason. `--threads T` (T ≥ 2) adds the fused
//! program compiled for OpenMP and run on `T` threads (`OMP_NUM_THREADS`), timed in the
//! same interleaved calls, and its speed-up over the fused program on one thread; its
//! scatters run as `--scatters` says (`exact`, the default, `sequential`, `owners`, `atomic` or
//! `private`: `fusion_codegen::ScatterForm`).
//!
//! Memory: glibc would serve every result of 10^7 elements with a fresh `mmap` (page faults
//! at each call); unless `--fresh-pages`, the benchmark turns that off (`mallopt`) so that
//! freed results are reused, as in a long-running program.
//!
//! Huge pages: the compiled programs advise their own large buffers for transparent huge
//! pages (`array-huge-pages`) and the benchmark advises its input copies. Heap memory that
//! glibc hands out again keeps whatever backing it got first, though, so without more a
//! reused block may be on 4 KiB pages in one call and on 2 MiB pages in the next; random
//! gathers then varied by up to 2× between runs of the same binary (seed 000's `simple1`
//! measured 0.77× to 1.48× fused over unfused in four runs). So on Linux the benchmark
//! re-executes itself with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` (glibc 2.35 or later),
//! which makes glibc advise every block it maps or grows its heap by: all large arrays,
//! reused or not, are then backed alike, as `scripts/xla-bench/run.py` does for XLA and
//! NumPy. A `glibc.malloc.hugetlb` already set in `GLIBC_TUNABLES` (`=0` turns it off) is
//! kept as it is.
//!
//! `--dump DIR` also writes, for every function that is timed (not the skipped ones), its
//! generated inputs as `DIR/<file stem>/<function>.in<i>.npy` (argument i, from 0; a scalar
//! is a 0-d array), the results of one more call of the fused program on them as
//! `DIR/<file stem>/<function>.out<i>.npy`, and a row `example,function,extent,unfused_ms,
//! fused_ms` of `DIR/times.csv` (the header is written when the file is new or empty), so
//! that other implementations can be timed and checked on exactly the same inputs
//! (`scripts/xla-bench/run.py`). The files are written after the function is timed.
//! Not a test: timings depend on the machine; compare rows of one run.

use fusion_bench::{
    measure::{self, Comparison, FileRaw, extent},
    same_code::same_function,
    stream::{self, gb_per_s},
    traffic::{Traffic, function_traffic},
};
use fusion_codegen::raw::{Buffer, Output, RawCompiled};
use fusion_codegen::{ScatterForm, Threads, Variant, aot::llvm_ir_of_file, npy};
use fusion_interpreter::{ElemType, FunctionInfo, Interpreter, Type};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

unsafe extern "C" {
    fn mallopt(param: i32, value: i32) -> i32;
}

/// Bytes moved unfused (by the model) above which a function is not run: its arrays would
/// not fit in memory (a generate of `n × m` with both sizes at 10^7, say).
const MEMORY_LIMIT: f64 = 3e9;

/// The first line of `s`, at most `max` characters.
fn brief(s: &str, max: usize) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() <= max { line.to_owned() } else { line.chars().take(max - 1).collect::<String>() + "…" }
}

struct Options {
    elements: usize,
    reps: usize,
    seed: u64,
    /// Threads of the threaded column (1: no such column).
    threads: usize,
    fresh_pages: bool,
    /// How the OpenMP column runs scatters (`--scatters`).
    scatters: ScatterForm,
    /// Where `--dump` writes inputs, fused results and times.
    dump: Option<PathBuf>,
    roots: Vec<PathBuf>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        elements: 10_000_000,
        reps: 5,
        seed: 0,
        threads: 1,
        fresh_pages: false,
        scatters: ScatterForm::default(),
        dump: None,
        roots: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let value = |i: usize| args.get(i + 1).ok_or(format!("{a} needs a value"));
        match a {
            "--elements" => o.elements = value(i)?.parse().map_err(|_| "--elements: not a number")?,
            "--reps" => o.reps = value(i)?.parse().map_err(|_| "--reps: not a number")?,
            "--seed" => o.seed = value(i)?.parse().map_err(|_| "--seed: not a number")?,
            "--threads" => o.threads = value(i)?.parse().map_err(|_| "--threads: not a number")?,
            "--dump" => o.dump = Some(PathBuf::from(value(i)?)),
            "--scatters" => {
                let name = value(i)?;
                o.scatters = ScatterForm::from_name(name)
                    .ok_or(format!("--scatters: '{name}' is not exact, sequential, owners, atomic or private"))?
            }
            "--fresh-pages" => {
                o.fresh_pages = true;
                i += 1;
                continue;
            }
            "-h" | "--help" => {
                return Err("usage: kernel-bench [FILE|DIR]... [--elements N] [--reps R] [--seed S] [--threads T] \
                     [--scatters exact|sequential|owners|atomic|private] [--fresh-pages] [--dump DIR]"
                    .into());
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
    if o.threads == 0 {
        return Err("--threads must be positive".into());
    }
    if o.roots.is_empty() {
        o.roots.push(PathBuf::from("examples"));
    }
    Ok(o)
}

/// One row of the table: 12 cells, or 14 with the threaded columns.
fn row(cells: &[String]) -> String {
    const WIDTHS: [usize; 12] = [40, 11, 7, 10, 10, 8, 9, 9, 7, 8, 8, 0];
    const THREADED: [usize; 14] = [40, 11, 7, 10, 10, 8, 11, 8, 9, 9, 7, 8, 8, 0];
    let widths: &[usize] = if cells.len() == THREADED.len() { &THREADED } else { &WIDTHS };
    let last = cells.len() - 1;
    cells
        .iter()
        .zip(widths)
        .enumerate()
        .map(|(i, (c, w))| if i == 0 || i == last { format!("{c:<w$}") } else { format!("{c:>w$}") })
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end()
        .to_owned()
}

fn skipped(label: &str, reason: &str, options: &Options) -> String {
    let mut cells = vec![label.to_owned()];
    cells.extend(std::iter::repeat_n("-".to_owned(), if options.threads > 1 { 12 } else { 10 }));
    cells.push(brief(reason, 110));
    row(&cells)
}

/// Where `--dump` writes, and how many functions it could not write.
struct Dump {
    dir: PathBuf,
    failures: usize,
}

/// Writes `buffer` to `path` as a `.npy` file (the dtypes of [`npy::dtype_of`]; `i1`
/// elements as booleans), straight from its bytes.
fn write_buffer(path: &Path, buffer: &Buffer) -> Result<(), String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let dtype = npy::dtype_of(buffer.elem).map_err(at)?;
    // `encode` writes the header, then the data it is given: with none, the header alone.
    let header = npy::encode(&npy::Array { dtype, shape: buffer.shape.clone(), data: Vec::new() });
    let booleans: Vec<u8>;
    let data = if buffer.elem == ElemType::Int(1) {
        booleans = buffer.bytes().iter().map(|b| b & 1).collect();
        &booleans[..]
    } else {
        buffer.bytes()
    };
    let write = || -> std::io::Result<()> {
        let mut w = std::io::BufWriter::new(std::fs::File::create(path)?);
        w.write_all(&header)?;
        w.write_all(data)?;
        w.flush()
    };
    write().map_err(|e| at(format!("cannot be written: {e}")))
}

/// `--dump`: the inputs of `f` as `<dir>/<stem>/<f>.in<i>.npy`, the results of one more call
/// of the fused program on them as `<f>.out<i>.npy`, and the row of `<dir>/times.csv`.
#[allow(clippy::too_many_arguments)]
fn dump_function(
    dir: &Path,
    stem: &str,
    f: &FunctionInfo,
    inputs: &[measure::Input],
    fused: &RawCompiled,
    extent: usize,
    unfused_ms: f64,
    fused_ms: f64,
) -> Result<(), String> {
    let folder = dir.join(stem);
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: cannot be created: {e}", folder.display()))?;
    for (i, input) in inputs.iter().enumerate() {
        let path = folder.join(format!("{}.in{i}.npy", f.name));
        match input {
            measure::Input::Scalar(v) => npy::write_value(&path, v)?,
            measure::Input::Tensor(b) => write_buffer(&path, b)?,
        }
    }
    let (outputs, _) = measure::call(fused, f, inputs).map_err(|e| format!("the fused call failed: {e}"))?;
    for (i, output) in outputs.iter().enumerate() {
        let path = folder.join(format!("{}.out{i}.npy", f.name));
        match output {
            Output::Scalar(v) => npy::write_value(&path, v)?,
            Output::Tensor(t) => write_buffer(&path, &t.to_buffer())?,
        }
    }
    drop(outputs);
    let csv = dir.join("times.csv");
    let append = || -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&csv)?;
        if file.metadata()?.len() == 0 {
            writeln!(file, "example,function,extent,unfused_ms,fused_ms")?;
        }
        writeln!(file, "{stem},{},{extent},{unfused_ms:.6},{fused_ms:.6}", f.name)
    };
    append().map_err(|e| format!("{}: cannot be written: {e}", csv.display()))
}

/// Benchmarks one function: its row.
#[allow(clippy::too_many_arguments)]
fn bench_function(
    path: &Path,
    label: &str,
    f: &FunctionInfo,
    interpreter: &Interpreter,
    jits: &mut [FileRaw; 3],
    options: &Options,
    stream_gb_s: f64,
    same_code: bool,
    dump: Option<&mut Dump>,
) -> String {
    let Some(extent) = extent(f, options.elements) else {
        return skipped(label, "static shapes (no dynamic extent to scale)", options);
    };
    if let Err(e) = measure::precheck(interpreter, f, options.seed, extent, MEMORY_LIMIT) {
        return skipped(label, &e, options);
    }
    let [unfused, fused, threaded] = jits;
    let (unfused, fused) = match (unfused.get(&f.name), fused.get(&f.name)) {
        (Ok(u), Ok(v)) => (u, v),
        (Err(e), _) => return skipped(label, &format!("not compiled: unfused: {e}"), options),
        (_, Err(e)) => return skipped(label, &format!("not compiled: fused: {e}"), options),
    };
    let threaded = if options.threads > 1 {
        match threaded.get(&f.name) {
            Ok(t) => Some(t),
            Err(e) => return skipped(label, &format!("not compiled: fused for OpenMP: {e}"), options),
        }
    } else {
        None
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
            options,
        );
    }
    let inputs = match measure::generate_inputs(&f.inputs, options.seed, extent) {
        Ok(i) => i,
        Err(e) => return skipped(label, &format!("inputs: {e}"), options),
    };
    let Comparison { unfused_ms, fused_ms, threaded_ms, agree } =
        match measure::compare(unfused, fused, threaded, f, &inputs, options.reps) {
            Ok(c) => c,
            Err(e) => return skipped(label, &format!("the call failed: {e}"), options),
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
    if same_code {
        note.push_str("same code fused and unfused (LLVM IR): the times differ by noise only; ");
    }
    note.push_str(match &agree {
        Ok(()) => "results agree",
        Err(e) => e,
    });
    if let Some(dump) = dump {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if let Err(e) = dump_function(&dump.dir, &stem, f, &inputs, fused, extent, unfused_ms, fused_ms) {
            eprintln!("kernel-bench: --dump: {label}: {e}");
            note.push_str(&format!("; DUMP FAILED: {}", brief(&e, 80)));
            dump.failures += 1;
        }
    }
    let mut cells = vec![
        label.to_owned(),
        shape,
        loops,
        format!("{unfused_ms:.2}"),
        format!("{fused_ms:.2}"),
        format!("{:.2}", unfused_ms / fused_ms),
    ];
    if let Some(t) = threaded_ms {
        cells.push(format!("{t:.2}"));
        cells.push(format!("{:.2}", fused_ms / t));
    }
    cells.extend([unfused_mb, fused_mb, ratio, gb_s, of_stream, note]);
    row(&cells)
}

/// glibc's tunable that advises every block its allocator maps (see the module doc).
const HUGE_PAGES_TUNABLE: &str = "glibc.malloc.hugetlb";

/// Re-executes this program with [`HUGE_PAGES_TUNABLE`]`=1` added to `GLIBC_TUNABLES`
/// unless it is set there already; returns only when it is, or when the re-execution fails
/// (then with the reason, and the benchmark goes on without it).
#[cfg(target_os = "linux")]
fn with_huge_page_heap() -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let tunables = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
    if tunables.split(':').any(|t| t.starts_with(&format!("{HUGE_PAGES_TUNABLE}="))) {
        return Ok(());
    }
    let value = if tunables.is_empty() {
        format!("{HUGE_PAGES_TUNABLE}=1")
    } else {
        format!("{tunables}:{HUGE_PAGES_TUNABLE}=1")
    };
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program ({e})"))?;
    let error = std::process::Command::new(exe).args(std::env::args_os().skip(1)).env("GLIBC_TUNABLES", value).exec();
    Err(format!("cannot re-execute with {HUGE_PAGES_TUNABLE}=1 ({error})"))
}

#[cfg(not(target_os = "linux"))]
fn with_huge_page_heap() -> Result<(), String> {
    Ok(())
}

fn main() -> ExitCode {
    fusion_bench::broken_pipe::end_quietly();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("kernel-bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = with_huge_page_heap() {
        eprintln!(
            "kernel-bench: warning: {e}; large arrays may be backed unevenly and random gathers vary between runs"
        );
    }
    if !options.fresh_pages {
        // SAFETY: glibc's mallopt, before any large allocation: no mmap'ed chunks (so freed
        // results are reused) and no trimming of the heap top.
        unsafe {
            mallopt(-4, 0); // M_MMAP_MAX
            mallopt(-1, i32::MAX); // M_TRIM_THRESHOLD
        }
    }
    if options.threads > 1 {
        // Read by the OpenMP runtime when the first threaded program starts.
        // SAFETY: no other thread exists yet.
        unsafe { std::env::set_var("OMP_NUM_THREADS", options.threads.to_string()) };
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

    let files = match measure::mlir_files_under(&options.roots) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("kernel-bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut header: Vec<String> =
        ["function", "shape", "loops", "unfused ms", "fused ms", "speed-up"].map(String::from).to_vec();
    if options.threads > 1 {
        header.push(format!("fused {}thr", options.threads));
        header.push("thr gain".into());
    }
    header.extend(["MB unfus", "MB fused", "B ratio", "GB/s", "xSTREAM", "note"].map(String::from));
    println!("{}", row(&header));
    let mut dump = options.dump.clone().map(|dir| Dump { dir, failures: 0 });
    if let Some(dump) = &dump
        && let Err(e) = std::fs::create_dir_all(&dump.dir)
    {
        eprintln!("kernel-bench: --dump: {}: cannot be created: {e}", dump.dir.display());
        return ExitCode::FAILURE;
    }
    let context = array_dialect::context();
    for path in &files {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let module = match array_dialect::source::load_file(&context, path) {
            Ok(m) => m,
            Err(e) => {
                println!("{}", skipped(&stem, &format!("does not load: {e}"), &options));
                continue;
            }
        };
        let interpreter = Interpreter::new(&module);
        let mut jits = [
            FileRaw::new(path, Variant::Unfused, Threads::Sequential),
            FileRaw::new(path, Variant::Fused, Threads::Sequential),
            FileRaw::new(path, Variant::Fused, Threads::OpenMp(options.scatters)),
        ];
        // Both variants' LLVM IR, to tell the functions the clustering leaves as they were.
        let [unfused_ir, fused_ir] =
            [Variant::Unfused, Variant::Fused].map(|v| llvm_ir_of_file(path, v, Threads::Sequential).map(|(ir, _)| ir));
        for f in interpreter.functions().into_iter().filter(|f| f.public && f.defined) {
            let label = format!("{stem} @{}", f.name);
            let same_code = match (&unfused_ir, &fused_ir) {
                (Ok(u), Ok(v)) => same_function(u, v, &f.name),
                _ => false,
            };
            let line = bench_function(
                path,
                &label,
                &f,
                &interpreter,
                &mut jits,
                &options,
                stream_gb_s,
                same_code,
                dump.as_mut(),
            );
            println!("{line}");
        }
    }
    println!(
        "\nloops: outermost loops of the code that runs (callees not counted), unfused/ILP; speed-up: unfused ms / fused ms; MB: bytes moved (fusion_bench::traffic: each array read \
         once per loop nest that reads it, written once if materialized; ~ = data-dependent sizes at full extent); \
         B ratio: unfused/fused bytes; GB/s: fused bytes / fused time; xSTREAM: that / the reference bandwidth; \
         fused Nthr: the fused program on N OpenMP threads (--threads N); thr gain: fused ms / that."
    );
    if let Some(dump) = &dump {
        if dump.failures > 0 {
            eprintln!("kernel-bench: --dump: {} function(s) could not be written", dump.failures);
            return ExitCode::FAILURE;
        }
        println!("--dump: inputs, fused results and times.csv in {}", dump.dir.display());
    }
    ExitCode::SUCCESS
}
