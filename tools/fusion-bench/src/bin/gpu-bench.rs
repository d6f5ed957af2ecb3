//! `gpu-bench [FILE] [--sizes N,N,...] [--reps R] [--seed S] [--strategies A,B,...]`: seed
//! 004's micro-benchmark grid on an NVIDIA GPU. For every function of FILE (default
//! `examples/gpu/seed004_expand_permute.mlir`: one segment-length distribution each, an
//! expand permuted straight away) and every input size, the program runs unfused and fused
//! under each expand division (`array-gpu-kernels` option `expand-strategy`) through the
//! CUDA driver (`fuse-opt --run --gpu`'s path), and the table gives each time relative to
//! the unfused one, as seed 004's Figs. 5–11 do, with the unfused time itself. Every
//! fused result is compared with the unfused one (exact: the programs are integer ones);
//! a difference fails the run.
//!
//! Times are the median of R calls after one warm-up call (which loads the kernels), each
//! call with its copies of the arguments in and the results out (seed 004 times the
//! kernels alone).
//!
//! Without a CUDA driver it says so and exits with 1. `--emulated` runs the same grid with
//! the kernels emulated on the CPU (`array-gpu-emulate`), to check the harness and the
//! results anywhere; its times are the emulator's, not a GPU's, and the table says so.

use fusion_codegen::gpu::ExpandStrategy;
use fusion_codegen::inputs::generate_args;
use fusion_codegen::jit::{Compiled, compile_file_with};
use fusion_codegen::{LaunchShape, Threads, Variant};
use fusion_interpreter::{FunctionInfo, Interpreter};
use std::path::PathBuf;

struct Options {
    file: PathBuf,
    sizes: Vec<usize>,
    reps: usize,
    seed: u64,
    strategies: Vec<ExpandStrategy>,
    emulated: bool,
}

const USAGE: &str =
    "usage: gpu-bench [FILE] [--sizes N,N,...] [--reps R] [--seed S] [--strategies A,B,...] [--emulated]
  FILE          default examples/gpu/seed004_expand_permute.mlir (seed 004's micro-benchmarks)
  --sizes       source elements per run, default 1,10,100,1000,10000,100000,200000 (seed 004 §5.1)
  --reps        timed calls per cell after one warm-up call, default 10 (the median is shown)
  --seed        input seed, default 1
  --strategies  expand divisions, default every one: 1-per-thread, 1-per-warp, 1-per-block-shuffle,
                1-per-block-shared, 2-per-block, 16-per-block, 128-per-block, balanced, and auto
  --emulated    the kernels emulated on the CPU instead (checks the harness; the times are not GPU times)
Runs on the NVIDIA GPU of the CUDA driver (libcuda.so.1, or FUSION_CUDA_DRIVER); without one it exits with 1.";

fn options() -> Result<Options, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap_or(root);
    let mut o = Options {
        file: root.join("examples/gpu/seed004_expand_permute.mlir"),
        sizes: vec![1, 10, 100, 1000, 10_000, 100_000, 200_000],
        reps: 10,
        seed: 1,
        strategies: ExpandStrategy::ALL.iter().copied().chain([ExpandStrategy::Auto]).collect(),
        emulated: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = |i: usize| args.get(i + 1).cloned().ok_or(format!("{} needs a value", args[i]));
        match args[i].as_str() {
            "--emulated" => {
                o.emulated = true;
                i += 1;
                continue;
            }
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            "--sizes" => {
                o.sizes = value(i)?
                    .split(',')
                    .map(|n| n.trim().parse().map_err(|_| format!("--sizes: '{n}' is not a number")))
                    .collect::<Result<_, _>>()?
            }
            "--reps" => o.reps = value(i)?.parse().map_err(|_| "--reps: not a number")?,
            "--seed" => o.seed = value(i)?.parse().map_err(|_| "--seed: not a number")?,
            "--strategies" => {
                o.strategies = value(i)?
                    .split(',')
                    .map(|n| {
                        ExpandStrategy::from_name(n.trim())
                            .ok_or(format!("--strategies: '{n}' is not one of {}", ExpandStrategy::NAMES))
                    })
                    .collect::<Result<_, _>>()?
            }
            flag if flag.starts_with('-') => return Err(format!("unknown flag {flag}\n{USAGE}")),
            file => {
                o.file = file.into();
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    if o.reps == 0 {
        return Err("--reps must be positive".into());
    }
    Ok(o)
}

/// The median time of `reps` calls after a warm-up, and the results of the last one.
fn time(
    compiled: &Compiled,
    f: &FunctionInfo,
    args: &[fusion_interpreter::Value],
    reps: usize,
) -> Result<(f64, Vec<fusion_interpreter::Value>), String> {
    compiled.call(&f.name, &f.inputs, &f.results, args)?;
    let mut times = Vec::new();
    let mut last = Vec::new();
    for _ in 0..reps {
        let (results, ms) = compiled.call(&f.name, &f.inputs, &f.results, args)?;
        times.push(ms);
        last = results;
    }
    times.sort_by(f64::total_cmp);
    Ok((times[times.len() / 2], last))
}

fn run(o: &Options) -> Result<(), String> {
    let device = if o.emulated {
        "the CPU, EMULATED (array-gpu-emulate: these are not GPU times)".to_string()
    } else {
        let driver = fusion_codegen::cuda::driver().map_err(|why| {
            format!(
                "{why}; this benchmark runs on an NVIDIA GPU (--emulated runs the same kernels emulated on the CPU)"
            )
        })?;
        format!("{} ({})", driver.name, driver.chip)
    };
    let context = array_dialect::context();
    let module = array_dialect::source::load_file(&context, &o.file).map_err(|e| e.to_string())?;
    let interpreter = Interpreter::new(&module);
    let functions = fusion_codegen::check::runnable_functions(&interpreter, None)?;
    let gpu = |expand| {
        let shape = LaunchShape { expand, ..LaunchShape::default() };
        if o.emulated { Threads::GpuEmulated(shape) } else { Threads::Gpu(shape) }
    };
    let unfused = compile_file_with(&o.file, Variant::Unfused, None, gpu(ExpandStrategy::Auto))?;
    let fused: Vec<Compiled> = o
        .strategies
        .iter()
        .map(|s| compile_file_with(&o.file, Variant::Fused, None, gpu(*s)).map_err(|e| format!("{}: {e}", s.name())))
        .collect::<Result<_, _>>()?;
    println!("# {} on {device}, {} calls per cell (median), input seed {}\n", o.file.display(), o.reps, o.seed);
    for f in &functions {
        println!("## @{}: time relative to no fusion\n", f.name);
        let header: Vec<String> = o.sizes.iter().map(|n| n.to_string()).collect();
        println!("| kernel | {} |", header.join(" | "));
        println!("|---|{}", "---:|".repeat(o.sizes.len()));
        let mut rows: Vec<Vec<String>> = vec![vec![]; o.strategies.len()];
        let mut unfused_row = Vec::new();
        for &n in &o.sizes {
            let args = generate_args(&f.inputs, o.seed, n);
            let (base, expected) = time(&unfused, f, &args, o.reps).map_err(|e| format!("@{} unfused: {e}", f.name))?;
            unfused_row.push(format!("1.00 ({base:.3} ms)"));
            for (k, compiled) in fused.iter().enumerate() {
                let name = o.strategies[k].name();
                let (ms, results) = time(compiled, f, &args, o.reps).map_err(|e| format!("@{} {name}: {e}", f.name))?;
                if fusion_codegen::check::first_difference(&expected, &results).is_some() {
                    return Err(format!("@{} with {n} elements: {name} differs from the unfused program", f.name));
                }
                rows[k].push(format!("{:.2}", ms / base));
            }
        }
        println!("| No fusion | {} |", unfused_row.join(" | "));
        for (k, row) in rows.iter().enumerate() {
            println!("| {} | {} |", o.strategies[k].name(), row.join(" | "));
        }
        println!();
    }
    Ok(())
}

fn main() {
    fusion_bench::broken_pipe::end_quietly();
    let outcome = options().and_then(|o| run(&o));
    if let Err(message) = outcome {
        eprintln!("gpu-bench: error: {message}");
        std::process::exit(1);
    }
}
