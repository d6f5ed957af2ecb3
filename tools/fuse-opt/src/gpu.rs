//! `fuse-opt FILE --emit-gpu=DIR --gpu-target=nvptx:sm_90` \[`--unfused`\]
//! \[`--gpu-expand=STRATEGY`\]: GPU output. The
//! program is fused (`--unfused` skips it), lowered to loops, made one kernel per loop
//! nest (`array-gpu-kernels`) and compiled for the target (`amdgcn:gfx942` for AMD GPUs);
//! DIR receives one assembly file per kernel (`<kernel>.ptx` or `<kernel>.s`) and
//! `host.mlir`, the host program with its copies and `gpu.launch_func`s, and `host.ll`, the
//! same as LLVM IR calling MLIR's GPU runtime interface (`mgpu*`). The remarks of the passes
//! (one-thread kernels, clusters lowered op by op) and a line per kernel go to stderr.

use fusion_codegen::{
    Variant,
    gpu::{ExpandStrategy, GpuTarget, compile_gpu_file},
};
use std::path::PathBuf;

/// The GPU request taken from the command line.
pub struct GpuOptions {
    input: PathBuf,
    directory: PathBuf,
    target: GpuTarget,
    variant: Variant,
    expand: ExpandStrategy,
}

/// The strategy named by `--gpu-expand=NAME`.
pub fn expand_strategy(name: &str) -> Result<ExpandStrategy, String> {
    ExpandStrategy::from_name(name)
        .ok_or_else(|| format!("--gpu-expand: '{name}' is not one of {}", ExpandStrategy::NAMES))
}

/// Takes the GPU flags out of `args`; `None` when there is no `--emit-gpu`.
pub fn take_gpu_flags(args: &mut Vec<std::ffi::OsString>) -> Result<Option<GpuOptions>, String> {
    let mut directory = None;
    let mut target = None;
    let mut unfused = false;
    let mut expand = None;
    let mut rest = Vec::new();
    for a in args.drain(..) {
        let s = a.to_string_lossy().into_owned();
        let flag = if s.starts_with('-') { s.trim_start_matches('-') } else { "" };
        if let Some(dir) = flag.strip_prefix("emit-gpu=") {
            directory = Some(dir.to_owned());
        } else if let Some(t) = flag.strip_prefix("gpu-target=") {
            target = Some(t.parse::<GpuTarget>()?);
        } else if let Some(name) = flag.strip_prefix("gpu-expand=") {
            expand = Some(expand_strategy(name)?);
        } else if flag == "unfused" {
            unfused = true;
            rest.push(a);
        } else {
            rest.push(a);
        }
    }
    let Some(directory) = directory else {
        if target.is_some() {
            return Err("--gpu-target needs --emit-gpu=DIR".into());
        }
        if expand.is_some() {
            return Err("--gpu-expand needs --emit-gpu=DIR or --run --gpu-sim".into());
        }
        *args = rest;
        return Ok(None);
    };
    if directory.is_empty() {
        return Err("--emit-gpu: the output directory name is empty".into());
    }
    let target = target.ok_or("--emit-gpu needs --gpu-target=nvptx:sm_<NN> or amdgcn:gfx<N>")?;
    let inputs: Vec<String> =
        rest.iter().skip(1).map(|a| a.to_string_lossy().into_owned()).filter(|a| !a.starts_with('-')).collect();
    let flags = rest.iter().skip(1).filter(|a| a.to_string_lossy().starts_with('-')).count();
    if inputs.len() != 1 || flags != usize::from(unfused) {
        return Err("--emit-gpu takes exactly one input file (and only --gpu-target, --gpu-expand, --unfused)".into());
    }
    let variant = if unfused { Variant::Unfused } else { Variant::Fused };
    Ok(Some(GpuOptions {
        input: inputs[0].clone().into(),
        directory: directory.into(),
        target,
        variant,
        expand: expand.unwrap_or_default(),
    }))
}

/// Writes the kernels and the host program; the exit code.
pub fn emit(options: &GpuOptions) -> i32 {
    fusion_passes::register_all_passes();
    let fail = |message: String| {
        eprintln!("{}: error: {message}", options.input.display());
        1
    };
    let program = match compile_gpu_file(&options.input, options.variant, &options.target, options.expand) {
        Ok(p) => p,
        Err(message) => return fail(message),
    };
    if let Err(e) = std::fs::create_dir_all(&options.directory) {
        return fail(format!("{}: {e}", options.directory.display()));
    }
    for remark in &program.remarks {
        eprintln!("{remark}");
    }
    for kernel in &program.kernels {
        let path = options.directory.join(format!("{}.{}", kernel.module, options.target.extension()));
        if let Err(e) = std::fs::write(&path, &kernel.assembly) {
            return fail(format!("{}: {e}", path.display()));
        }
        eprintln!("fuse-opt: wrote {}", path.display());
    }
    let host = options.directory.join("host.mlir");
    if let Err(e) = std::fs::write(&host, &program.host) {
        return fail(format!("{}: {e}", host.display()));
    }
    eprintln!("fuse-opt: wrote {} ({} kernels for {})", host.display(), program.kernels.len(), program.target);
    let host_ll = options.directory.join("host.ll");
    if let Err(e) = std::fs::write(&host_ll, &program.host_llvm_ir) {
        return fail(format!("{}: {e}", host_ll.display()));
    }
    eprintln!(
        "fuse-opt: wrote {} (the host program as LLVM IR, calling MLIR's GPU runtime interface)",
        host_ll.display()
    );
    0
}
