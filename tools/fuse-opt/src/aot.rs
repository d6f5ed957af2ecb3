//! `fuse-opt FILE --emit-llvm=OUT.ll` / `--emit-object=OUT.o` \[`--unfused` | `--cost=COST`\]
//! \[`--openmp` \[`--scatters=FORM`\]\]: ahead-of-time output. The program is fused (the
//! `array-fusion` pipeline; `--cost=COST` under that cost function, `--unfused` skips it), lowered to loops and to the LLVM dialect (`--openmp`:
//! parallel loops run on the OpenMP runtime, so link the object with `-lomp`; scatters on
//! private copies where that is exact, else in source order, or as asked:
//! `--scatters=exact|sequential|owners|atomic|private`), and
//! written as LLVM IR text or a host object file. Public functions get C entry points
//! `_mlir_ciface_<name>`.

use fusion_codegen::{ScatterForm, Threads, Variant, aot};
use std::path::PathBuf;

/// The AOT request taken from the command line.
pub struct AotOptions {
    input: PathBuf,
    output: PathBuf,
    format: aot::Format,
    variant: Variant,
    threads: Threads,
}

/// Takes the AOT flags out of `args`; `None` when there is no `--emit-llvm`/`--emit-object`.
pub fn take_aot_flags(args: &mut Vec<std::ffi::OsString>) -> Result<Option<AotOptions>, String> {
    let mut target = None;
    let mut variant = Variant::Fused;
    let mut openmp = false;
    let mut scatters: Option<ScatterForm> = None;
    let mut rest = Vec::new();
    for a in args.drain(..) {
        let s = a.to_string_lossy().into_owned();
        let flag = if s.starts_with('-') { s.trim_start_matches('-') } else { "" };
        if let Some(path) = flag.strip_prefix("emit-llvm=") {
            target = Some((aot::Format::LlvmIr, path.to_owned()));
        } else if let Some(path) = flag.strip_prefix("emit-object=") {
            target = Some((aot::Format::Object, path.to_owned()));
        } else if flag == "unfused" {
            variant = Variant::Unfused;
        } else if let Some(cost) = flag.strip_prefix("cost=") {
            variant = Variant::fused_with_cost(cost)?;
        } else if flag == "openmp" {
            openmp = true;
        } else if let Some(form) = flag.strip_prefix("scatters=") {
            scatters = Some(scatter_form(form)?);
        } else {
            rest.push(a);
        }
    }
    let Some((format, output)) = target else {
        let stray = match variant {
            Variant::Unfused => Some("--unfused"),
            Variant::FusedWithCost(_) => Some("--cost"),
            _ => None,
        };
        let stray = stray.or(if openmp { Some("--openmp") } else { None });
        let stray = stray.or(if scatters.is_some() { Some("--scatters") } else { None });
        if let Some(flag) = stray {
            return Err(format!("{flag} needs --emit-llvm=FILE or --emit-object=FILE"));
        }
        *args = rest;
        return Ok(None);
    };
    if output.is_empty() {
        return Err("--emit-llvm/--emit-object: the output file name is empty".into());
    }
    let inputs: Vec<String> =
        rest.iter().skip(1).map(|a| a.to_string_lossy().into_owned()).filter(|a| !a.starts_with('-')).collect();
    if inputs.len() != 1 || rest.len() != 2 {
        return Err(
            "--emit-llvm/--emit-object take exactly one input file (and only --unfused or --cost, --openmp, --scatters)"
                .into()
        );
    }
    if scatters.is_some() && !openmp {
        return Err("--scatters needs --openmp (sequential code runs every scatter in source order)".into());
    }
    let threads = if openmp { Threads::OpenMp(scatters.unwrap_or_default()) } else { Threads::Sequential };
    Ok(Some(AotOptions { input: inputs[0].clone().into(), output: output.into(), format, variant, threads }))
}

/// Writes the output; the exit code.
pub fn emit(options: &AotOptions) -> i32 {
    fusion_passes::register_all_passes();
    match aot::emit_file(&options.input, &options.output, options.variant, options.threads, options.format) {
        Ok(diagnostics) => {
            // Code that is not the form asked for (a loop left sequential under OpenMP, a
            // cluster lowered op by op) is reported, as `--run` does.
            for d in diagnostics.iter().filter(|d| fusion_codegen::pipeline::degraded(d)) {
                eprintln!("{d}");
            }
            0
        }
        Err(message) => {
            eprintln!("{}: error: {message}", options.input.display());
            1
        }
    }
}

/// The scatter form named by `--scatters=NAME`.
pub fn scatter_form(name: &str) -> Result<ScatterForm, String> {
    ScatterForm::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = ScatterForm::ALL.iter().map(|f| f.name()).collect();
        format!("--scatters: '{name}' is not one of {}", names.join(", "))
    })
}
