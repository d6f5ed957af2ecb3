//! `fuse-opt FILE --run [--check] [--seed=N] [--size=N] [--function=NAME] [--input=FILE.npy]...
//! [--output-dir=DIR] [--cost=COST]`: runs every public function of the file (or just `--function`) with
//! the reference interpreter and JIT-compiled, and prints the outputs (or a checksum for
//! large ones) and the times. With `--check`, the interpreter's results are compared with
//! the fused program under the interpreter, the compiled unfused and the compiled fused
//! program (`fusion_codegen::check`): one line per function says `match`, or gives the
//! first difference and the exit code is 1. `--cost=COST` fuses under that cost function
//! (`array-fusion-analysis{cost=…}`) instead of the default. `--openmp` runs the compiled programs' parallel
//! loops on OpenMP threads; `--gpu-sim` compiles them as GPU kernels (one per loop nest,
//! `array-gpu-kernels`) and emulates the kernels on the CPU (`array-gpu-emulate`); `--gpu`
//! runs those kernels on the NVIDIA GPU of the CUDA driver, or ends with exit code 1 and
//! the reason where there is no driver.
//!
//! Inputs (`fusion_codegen::inputs`), first that applies:
//! * `--input=FILE.npy`, once per argument in order (a scalar is a 0-d array); only with
//!   `--function`, or for a file with one public function;
//! * the files shipped for the function beside the program,
//!   `<dir>/inputs/<file stem>/<function>.<i>.npy` (functions whose inputs have a structure
//!   that random values lack: a CSR graph, indices that must be in range, a loop state),
//!   unless `--seed` or `--size` asks for generated values;
//! * values generated from `--seed` (default 0) with dynamic sizes `--size` (default 16).
//!
//! `--output-dir=DIR` writes result i of `@f` to `DIR/f.i.npy`: with `--check` the results
//! all runs agree on; else the compiled program's, or the interpreter's where it is not
//! compiled.

use fusion_codegen::check::{
    CheckOutcome, FileJit, JitFailure, check_function, load_variant_with_diagnostics, runnable_functions,
};
use fusion_codegen::inputs::{check_generated_size, generate_args, read_args, shipped_inputs, show};
use fusion_codegen::{LaunchShape, Threads, Variant, npy};
use fusion_interpreter::{FunctionInfo, InterpError, Interpreter, Value};
use std::path::{Path, PathBuf};

/// Options of the runner, taken from the command line.
#[derive(Debug)]
pub struct RunOptions {
    pub file: String,
    pub check: bool,
    pub seed: u64,
    pub size: usize,
    /// Whether `--seed` or `--size` was given: generated inputs are asked for, so shipped
    /// ones are not used.
    pub generate: bool,
    /// `--function=NAME`: run only that function.
    pub function: Option<String>,
    /// `--input=FILE`, in order: argument i comes from file i.
    pub inputs: Vec<PathBuf>,
    /// `--output-dir=DIR`
    pub output_dir: Option<PathBuf>,
    /// `--openmp`: compiled code runs its parallel loops on the OpenMP runtime.
    pub openmp: bool,
    /// `--scatters=FORM` (with `--openmp`): how scatter loops run.
    pub scatters: Option<fusion_codegen::ScatterForm>,
    /// `--gpu-sim`: the compiled programs are the GPU kernels (`array-gpu-kernels`),
    /// emulated on the CPU (`array-gpu-emulate`).
    pub gpu_sim: bool,
    /// `--gpu`: the compiled programs are the GPU kernels, run on the NVIDIA GPU of the
    /// CUDA driver (`fusion_codegen::cuda`).
    pub gpu: bool,
    /// `--gpu-expand=STRATEGY` (with `--gpu-sim` or `--gpu`): how an expand fused with a
    /// scatter divides its segments among threads.
    pub gpu_expand: Option<fusion_codegen::gpu::ExpandStrategy>,
    /// The fused program: `Variant::Fused`, or `--cost=COST`'s `Variant::FusedWithCost`.
    pub fused: Variant,
}

/// Takes the runner's flags out of `args`; `None` without `--run`.
pub fn take_run_flags(args: &mut Vec<std::ffi::OsString>) -> Result<Option<RunOptions>, String> {
    let mut run = false;
    let mut options = RunOptions {
        file: String::new(),
        check: false,
        seed: 0,
        size: 16,
        generate: false,
        function: None,
        inputs: vec![],
        output_dir: None,
        openmp: false,
        scatters: None,
        gpu_sim: false,
        gpu: false,
        gpu_expand: None,
        fused: Variant::Fused,
    };
    // `--openmp` belongs to the runner only with `--run` (else to the AOT output).
    let running = args.iter().any(|a| a == "--run" || a == "-run");
    let mut runner_only = Vec::new();
    let mut rest = Vec::new();
    for a in args.drain(..) {
        let s = a.to_string_lossy().into_owned();
        let flag = if s.starts_with('-') { s.trim_start_matches('-') } else { "" };
        let (name, value) = flag.split_once('=').unwrap_or((flag, ""));
        match (name, value) {
            ("run", "") => run = true,
            ("check", "") => options.check = true,
            ("seed", v) => {
                options.seed = v.parse().map_err(|_| format!("--seed: '{v}' is not a number"))?;
                options.generate = true;
            }
            ("size", v) => {
                options.size = v.parse().map_err(|_| format!("--size: '{v}' is not a number of elements"))?;
                options.generate = true;
            }
            ("function", v) if !v.is_empty() => options.function = Some(v.trim_start_matches('@').to_owned()),
            ("input", v) if !v.is_empty() => options.inputs.push(v.into()),
            ("output-dir", v) if !v.is_empty() => options.output_dir = Some(v.into()),
            ("openmp", "") if running => options.openmp = true,
            ("scatters", v) if running => options.scatters = Some(crate::aot::scatter_form(v)?),
            ("gpu-sim", "") => options.gpu_sim = true,
            ("gpu", "") if running => options.gpu = true,
            ("gpu-expand", v) if running => options.gpu_expand = Some(crate::gpu::expand_strategy(v)?),
            ("cost", v) if running => options.fused = Variant::fused_with_cost(v)?,
            _ => {
                rest.push(a);
                continue;
            }
        }
        if name != "run" {
            runner_only.push(format!("--{name}"));
        }
    }
    if !run {
        if let Some(flag) = runner_only.first() {
            return Err(format!("{flag} needs --run"));
        }
        *args = rest;
        return Ok(None);
    }
    if options.scatters.is_some() && !options.openmp {
        return Err("--scatters needs --openmp (sequential code runs every scatter in source order)".into());
    }
    if options.gpu_expand.is_some() && !options.gpu_sim && !options.gpu {
        return Err(
            "--gpu-expand needs --gpu-sim or --gpu (or --emit-gpu): it chooses how GPU kernels divide expand segments"
                .into(),
        );
    }
    if options.gpu && (options.gpu_sim || options.openmp) {
        return Err("--gpu excludes --gpu-sim and --openmp (the kernels run on the GPU)".into());
    }
    if options.gpu
        && let Err(why) = fusion_codegen::cuda::driver()
    {
        return Err(format!("--gpu: {why}; nothing was run (--gpu-sim runs the same kernels emulated on the CPU)"));
    }
    if options.openmp && options.gpu_sim {
        return Err("--openmp and --gpu-sim exclude each other (the emulated kernels run on one thread)".into());
    }
    let files: Vec<String> = rest.iter().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    match files.as_slice() {
        [file] if !file.starts_with('-') => options.file = file.clone(),
        _ => return Err("--run takes exactly one input file and only the runner's options".into()),
    }
    Ok(Some(options))
}

/// Where the arguments of a function come from.
enum Inputs {
    Files(Vec<PathBuf>),
    Shipped(Vec<PathBuf>),
    Generated,
}

impl Inputs {
    fn args(&self, f: &FunctionInfo, options: &RunOptions) -> Result<Vec<Value>, String> {
        match self {
            Inputs::Files(files) | Inputs::Shipped(files) => {
                read_args(files, &f.inputs).map_err(|e| format!("@{}: {e}", f.name))
            }
            Inputs::Generated => {
                check_generated_size(&f.inputs, options.size).map_err(|e| format!("@{}: {e}", f.name))?;
                Ok(generate_args(&f.inputs, options.seed, options.size))
            }
        }
    }

    /// A note for the output line.
    fn note(&self) -> String {
        match self {
            Inputs::Shipped(files) => {
                let dir = files[0].parent().map(|d| d.display().to_string()).unwrap_or_default();
                format!(" [inputs from {dir}/]")
            }
            _ => String::new(),
        }
    }
}

fn choose_inputs(options: &RunOptions, f: &FunctionInfo) -> Inputs {
    if !options.inputs.is_empty() {
        Inputs::Files(options.inputs.clone())
    } else if let Some(files) = shipped_inputs(Path::new(&options.file), &f.name).filter(|_| !options.generate) {
        Inputs::Shipped(files)
    } else {
        Inputs::Generated
    }
}

/// Writes `values` as `DIR/<function>.<i>.npy`.
fn write_outputs(dir: &Path, function: &str, values: &[Value]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot be created: {e}", dir.display()))?;
    values.iter().enumerate().try_for_each(|(i, v)| npy::write_value(&dir.join(format!("{function}.{i}.npy")), v))
}

fn shown(values: &[Value]) -> String {
    values.iter().map(show).collect::<Vec<_>>().join(", ")
}

/// Runs the file; returns the process exit code.
pub fn run(options: &RunOptions) -> i32 {
    match run_file(options) {
        Ok(failed) => i32::from(failed),
        Err(e) => {
            eprintln!("fuse-opt: error: {e}");
            1
        }
    }
}

/// Runs the file; `Ok(true)` when some function failed or mismatched.
fn run_file(options: &RunOptions) -> Result<bool, String> {
    fusion_passes::register_all_passes();
    let path = Path::new(&options.file);
    let context = array_dialect::context();
    let module = array_dialect::source::load_file(&context, path).map_err(|e| e.to_string())?;
    let interpreter = Interpreter::new(&module);
    let functions = runnable_functions(&interpreter, options.function.as_deref())?;
    if !options.inputs.is_empty() && functions.len() != 1 {
        return Err(format!(
            "--input: {} has {} public functions; pick one with --function",
            options.file,
            functions.len()
        ));
    }
    let fused = if options.check {
        match load_variant_with_diagnostics(&context, path, options.fused) {
            Ok((m, diagnostics)) => {
                // Warnings and remarks of the analysis (e.g. a size equality checked at
                // run time) are outcomes the user should see.
                for d in diagnostics {
                    eprintln!("{d}");
                }
                Some(m)
            }
            Err(e) => {
                // E.g. an ill-sized program, which the fusion analysis must reject: the
                // other runs are still compared.
                eprintln!("{e}");
                None
            }
        }
    } else {
        None
    };
    let fused_interpreter = fused.as_ref().map(Interpreter::new);
    let shape = LaunchShape { expand: options.gpu_expand.unwrap_or_default(), ..LaunchShape::default() };
    let threads = match (options.openmp, options.gpu_sim) {
        _ if options.gpu => Threads::Gpu(shape),
        (true, _) => Threads::OpenMp(options.scatters.unwrap_or_default()),
        (_, true) => Threads::GpuEmulated(shape),
        _ => Threads::Sequential,
    };
    let mut unfused_jit = FileJit::new(path, Variant::Unfused).with_threads(threads);
    let mut fused_jit = FileJit::new(path, options.fused).with_threads(threads);
    let mut failed = false;
    for f in &functions {
        let inputs = choose_inputs(options, f);
        let args = inputs.args(f, options)?;
        let mut note = inputs.note();
        if options.gpu_sim {
            note.push_str(" [compiled = GPU kernels, emulated on the CPU]");
        }
        if options.gpu
            && let Ok(driver) = fusion_codegen::cuda::driver()
        {
            note.push_str(&format!(" [compiled = GPU kernels, run on {} ({})]", driver.name, driver.chip));
        }
        let results = if options.check {
            let outcome =
                check_function(f, &args, &interpreter, fused_interpreter.as_ref(), &mut unfused_jit, &mut fused_jit);
            println!("@{}: {outcome}{note}", f.name);
            failed |= outcome.is_failure();
            match outcome {
                CheckOutcome::Match { results, .. }
                | CheckOutcome::NotCompiled { results, .. }
                | CheckOutcome::NotFused { results, .. } => Some(results),
                _ => None,
            }
        } else {
            let started = std::time::Instant::now();
            match interpreter.run(&f.name, args.clone()) {
                Ok(values) => {
                    let ms = started.elapsed().as_secs_f64() * 1000.0;
                    println!("@{}: {} ({ms:.2} ms, interpreter){note}", f.name, shown(&values));
                    // Compiled code runs only on inputs the interpreter accepts (else it
                    // could hit undefined behaviour).
                    match unfused_jit.call(f, &args) {
                        Ok((compiled, ms)) => {
                            println!("@{}: {} ({ms:.2} ms, compiled)", f.name, shown(&compiled));
                            Some(compiled)
                        }
                        Err(JitFailure::NotCompiled(reason)) => {
                            println!("@{}: not compiled: {reason}", f.name);
                            Some(values)
                        }
                        Err(JitFailure::CallFailed(error)) => {
                            println!("@{}: error (compiled): {error}", f.name);
                            failed = true;
                            None
                        }
                    }
                }
                Err(e) => {
                    println!("@{}: error: {e}{note}", f.name);
                    failed |= !matches!(e, InterpError::External(_));
                    None
                }
            }
        };
        if let (Some(dir), Some(values)) = (&options.output_dir, results) {
            write_outputs(dir, &f.name, &values)?;
        }
    }
    // Where the compiled code is not the form asked for (a loop left sequential under
    // OpenMP, a kernel run by one GPU thread, a cluster lowered op by op), the user sees it.
    let mut shown: Vec<String> = Vec::new();
    for d in fused_jit.degraded_diagnostics().into_iter().chain(unfused_jit.degraded_diagnostics()) {
        if !shown.contains(&d) {
            eprintln!("{d}");
            shown.push(d);
        }
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &[&str]) -> Result<Option<RunOptions>, String> {
        let mut args: Vec<std::ffi::OsString> = args.iter().map(|a| a.into()).collect();
        take_run_flags(&mut args)
    }

    #[test]
    fn run_flags() {
        let o = flags(&["fuse-opt", "f.mlir", "--run", "--check", "--function=@g", "--input=a.npy", "-input=b.npy"])
            .unwrap()
            .unwrap();
        assert_eq!((o.file.as_str(), o.check, o.function.as_deref()), ("f.mlir", true, Some("g")));
        assert_eq!(o.inputs, [PathBuf::from("a.npy"), PathBuf::from("b.npy")]);
        let o = flags(&["fuse-opt", "--run", "f.mlir", "--seed=3", "--size=7", "--output-dir=out"]).unwrap().unwrap();
        assert_eq!((o.seed, o.size, o.output_dir), (3, 7, Some(PathBuf::from("out"))));
        // Shipped inputs are used only when neither --seed nor --size asks for generated ones.
        assert!(o.generate);
        assert!(!flags(&["fuse-opt", "--run", "f.mlir"]).unwrap().unwrap().generate);
        assert!(flags(&["fuse-opt", "--run", "f.mlir", "--seed=0"]).unwrap().unwrap().generate);
        assert!(flags(&["fuse-opt", "f.mlir", "--canonicalize"]).unwrap().is_none());
        assert_eq!(flags(&["fuse-opt", "f.mlir", "--output-dir=x"]).err().unwrap(), "--output-dir needs --run");
        assert!(flags(&["fuse-opt", "f.mlir", "--run", "--canonicalize"]).is_err());
        assert_eq!(flags(&["fuse-opt", "--run", "--size=0", "f.mlir"]).unwrap().unwrap().size, 0);
        assert!(flags(&["fuse-opt", "--run", "--size=-1", "f.mlir"]).unwrap_err().contains("not a number of elements"));
    }
}
