//! GPU code: an `array` program lowered to one kernel per loop nest (so one per cluster of
//! the fusion analysis) and compiled to NVIDIA PTX or AMDGPU assembly.
//!
//! The pipeline ([`kernel_pipeline`]): the array passes of the [`Variant`] and
//! `array-to-loops` (as for the CPU), one-shot bufferization and the deallocation pipeline,
//! `array-gpu-kernels` (the loop nests as `gpu.launch`es: grid-stride kernels, two-kernel
//! block reductions, reported one-thread kernels for sequential nests; see
//! `fusion_passes::to_gpu`), `gpu-kernel-outlining`, then per target
//! `nvvm-attach-target` + `convert-gpu-to-nvvm` or `rocdl-attach-target` +
//! `convert-gpu-to-rocdl`, and `gpu-module-to-binary{format=isa}`, which leaves one
//! `gpu.binary` per kernel holding its assembly. What remains of the module is the host
//! program: managed allocations and copies (`array-gpu-host-memory`), sizes and
//! `gpu.launch_func`s of those binaries; [`HOST_TO_LLVM`] and the LLVM IR translation make
//! it LLVM IR calling MLIR's GPU runtime interface (`mgpu*`).
//!
//! Device libraries. Math functions (`math.exp`, …) become calls of NVIDIA's libdevice
//! (`__nv_exp`), which is linked into the kernels from the `nvidia-cuda-nvcc-cu12` wheel
//! that `scripts/setup.sh` unpacks into `.deps/cuda` (with `ptxas`); `FUSION_CUDA_DIR`
//! names another CUDA directory with the same layout (`bin/ptxas`,
//! `nvvm/libdevice/libdevice.10.bc`). The AMDGPU serializer links AMD's device libraries
//! (`ockl`, for the block size that `gpu.all_reduce` reads; `ocml` for math): from
//! Debian's `rocm-device-libs`, which `scripts/setup.sh` unpacks into `.deps/rocm`
//! (`FUSION_ROCM_DIR` names another ROCm directory with `amdgcn/bitcode/`), given to
//! `gpu-module-to-binary` as its toolkit path. LLVM's own `llvm-mc` assembles the AMDGPU
//! assembly ([`assemble_amdgpu`]), as `ptxas` does the PTX.

use crate::pipeline::{Variant, run_pipeline_with_diagnostics};
use melior::{
    Context,
    ir::{
        Module,
        attribute::AttributeLike,
        operation::{OperationLike, WalkOrder, WalkResult},
    },
};
use std::{
    fmt,
    path::{Path, PathBuf},
    process::Command,
    str::FromStr,
};

/// The GPU a program is compiled for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GpuTarget {
    /// NVIDIA PTX for a compute capability, e.g. `sm_90`.
    Nvptx { chip: String },
    /// AMDGPU assembly for a processor, e.g. `gfx942`.
    Amdgcn { chip: String },
}

impl FromStr for GpuTarget {
    type Err = String;

    /// `nvptx:sm_90` or `amdgcn:gfx942`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "unknown GPU target '{s}': expected nvptx:sm_<NN> (e.g. nvptx:sm_90) or amdgcn:gfx<N> (e.g. amdgcn:gfx942)"
            )
        };
        let (kind, chip) = s.split_once(':').ok_or_else(bad)?;
        let digits = |rest: &str| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric());
        match kind {
            "nvptx" if chip.strip_prefix("sm_").is_some_and(digits) => Ok(GpuTarget::Nvptx { chip: chip.into() }),
            "amdgcn" if chip.strip_prefix("gfx").is_some_and(digits) => Ok(GpuTarget::Amdgcn { chip: chip.into() }),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for GpuTarget {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GpuTarget::Nvptx { chip } => write!(f, "nvptx:{chip}"),
            GpuTarget::Amdgcn { chip } => write!(f, "amdgcn:{chip}"),
        }
    }
}

impl GpuTarget {
    /// The file extension of its assembly.
    pub fn extension(&self) -> &'static str {
        match self {
            GpuTarget::Nvptx { .. } => "ptx",
            GpuTarget::Amdgcn { .. } => "s",
        }
    }
}

/// One kernel's assembly: the `gpu.binary` (= outlined `gpu.module`) it came from.
#[derive(Clone, Debug)]
pub struct KernelAssembly {
    pub module: String,
    pub assembly: String,
}

/// A program compiled for a GPU.
#[derive(Debug)]
pub struct GpuProgram {
    pub target: GpuTarget,
    /// One per kernel, in the order of the host program.
    pub kernels: Vec<KernelAssembly>,
    /// The host program: the module after `gpu-module-to-binary`, printed (its
    /// `gpu.binary` ops hold the assembly too).
    pub host: String,
    /// The host program lowered ([`HOST_TO_LLVM`]) and translated to LLVM IR: calls of
    /// MLIR's GPU runtime interface (`mgpuMemAlloc`, `mgpuMemcpy`, `mgpuModuleLoadJIT`,
    /// `mgpuLaunchKernel`, …), the kernels' assembly embedded as constants.
    pub host_llvm_ir: String,
    /// The remarks of the passes: clusters lowered op by op, one-thread kernels, the
    /// kernel counts of `array-gpu-kernels`.
    pub remarks: Vec<String>,
}

pub use fusion_passes::to_gpu::ExpandStrategy;

/// The CUDA directory: `FUSION_CUDA_DIR`, else the `.deps/cuda` that set-up unpacked.
pub fn cuda_dir() -> Option<PathBuf> {
    let dir = std::env::var("FUSION_CUDA_DIR")
        .ok()
        .filter(|d| !d.is_empty())
        .or(option_env!("FUSION_DEFAULT_CUDA_DIR").map(str::to_owned))?;
    Some(PathBuf::from(dir))
}

/// The ROCm directory with AMD's device libraries (`amdgcn/bitcode/ockl.bc`):
/// `FUSION_ROCM_DIR`, else the `.deps/rocm` that set-up unpacked, if present.
pub fn rocm_dir() -> Option<PathBuf> {
    let dir = std::env::var("FUSION_ROCM_DIR")
        .ok()
        .filter(|d| !d.is_empty())
        .or(option_env!("FUSION_DEFAULT_ROCM_DIR").map(str::to_owned))?;
    Some(PathBuf::from(dir)).filter(|d| d.join("amdgcn/bitcode/ockl.bc").is_file())
}

/// NVIDIA's libdevice bitcode, if present.
pub fn libdevice() -> Option<PathBuf> {
    cuda_dir().map(|d| d.join("nvvm/libdevice/libdevice.10.bc")).filter(|p| p.is_file())
}

/// NVIDIA's PTX assembler, if present.
pub fn ptxas() -> Option<PathBuf> {
    cuda_dir().map(|d| d.join("bin/ptxas")).filter(|p| p.is_file())
}

/// The passes after `array-to-loops`, down to one `gpu.binary` per kernel.
pub fn kernel_pipeline(target: &GpuTarget, expand: ExpandStrategy) -> String {
    let device = match target {
        GpuTarget::Nvptx { chip } => {
            let link = libdevice().map(|l| format!(" l={}", l.display())).unwrap_or_default();
            format!(
                "nvvm-attach-target{{chip={chip} O=3{link}}}, \
                 gpu.module(convert-complex-to-standard, expand-strided-metadata, convert-scf-to-cf, convert-gpu-to-nvvm, convert-complex-to-llvm, reconcile-unrealized-casts)"
            )
        }
        GpuTarget::Amdgcn { chip } => format!(
            "rocdl-attach-target{{chip={chip} O=3}}, \
             gpu.module(convert-complex-to-standard, expand-strided-metadata, convert-scf-to-cf, convert-gpu-to-rocdl, convert-complex-to-llvm, reconcile-unrealized-casts)"
        ),
    };
    // The ROCDL serializer finds the device libraries under the toolkit path (else under
    // ROCM_PATH or /opt/rocm); the NVVM one is given libdevice above.
    let toolkit = match (target, rocm_dir()) {
        (GpuTarget::Amdgcn { .. }, Some(dir)) => format!(" toolkit={}", dir.display()),
        _ => String::new(),
    };
    format!(
        "one-shot-bufferize{{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map \
         allow-return-allocs-from-loops}}, array-elide-loop-copies, buffer-deallocation-pipeline, convert-bufferization-to-memref, \
         func.func(array-gpu-kernels{{expand-strategy={}}}), array-gpu-host-memory, gpu-kernel-outlining, {device}, \
         gpu-module-to-binary{{format=isa{toolkit}}}",
        expand.name()
    )
}

/// The host program (after [`kernel_pipeline`]) to the LLVM dialect: `gpu-to-llvm` makes
/// the `gpu.alloc`/`memcpy`/`dealloc`/`wait` of `array-gpu-host-memory` calls of MLIR's
/// GPU runtime interface; `gpu.launch_func` and `gpu.binary` stay for the LLVM IR
/// translation, which embeds the assembly and loads it at run time.
pub const HOST_TO_LLVM: &str = "convert-scf-to-cf, expand-strided-metadata, gpu-to-llvm, finalize-memref-to-llvm, \
     convert-complex-to-standard, convert-math-to-llvm, convert-math-to-libm, convert-arith-to-llvm, \
     convert-complex-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts";

/// Lowers `module` (a program of the `array` dialect) to GPU kernels for `target`, the
/// segments of an expand fused with a scatter divided by `expand`.
pub fn compile_gpu(
    context: &Context,
    module: &mut Module,
    variant: Variant,
    target: &GpuTarget,
    expand: ExpandStrategy,
) -> Result<GpuProgram, String> {
    fusion_passes::register_all_passes();
    let mut remarks = run_pipeline_with_diagnostics(
        context,
        module,
        &format!("builtin.module({}, array-to-loops)", variant.prefix()),
    )?;
    if let Some(op) = first_op_named(module, |n| n.starts_with(array_dialect::view::DIALECT_PREFIX)) {
        return Err(format!("'{op}' is not lowered to loops yet"));
    }
    remarks.extend(run_pipeline_with_diagnostics(
        context,
        module,
        &format!("builtin.module({})", kernel_pipeline(target, expand)),
    )?);
    let kernels = binaries(module)?;
    if let GpuTarget::Nvptx { .. } = target
        && libdevice().is_none()
        && let Some(k) = kernels.iter().find(|k| k.assembly.contains("__nv_"))
    {
        return Err(format!(
            "kernel '{}' calls NVIDIA libdevice functions, but libdevice.10.bc was not found: run scripts/setup.sh \
             or set FUSION_CUDA_DIR to a CUDA directory",
            k.module
        ));
    }
    let host = module.as_operation().to_string();
    // `_mlir_ciface_<name>` wrappers, as in the CPU's ahead-of-time output: what a C caller of
    // `host.ll` links against (`scripts/gpu-hardware/run.py` calls them).
    crate::aot::mark_c_interface(context, module);
    run_pipeline_with_diagnostics(context, module, &format!("builtin.module({HOST_TO_LLVM})"))?;
    if let Some(op) = first_op_named(module, |n| {
        !(n.starts_with("llvm.") || matches!(n, "builtin.module" | "gpu.binary" | "gpu.launch_func"))
    }) {
        return Err(format!("'{op}' is left in the host program after its lowering to LLVM"));
    }
    let host_llvm_ir = crate::aot::translate_to_llvm_ir(module)?;
    Ok(GpuProgram { target: target.clone(), kernels, host, host_llvm_ir, remarks })
}

/// [`compile_gpu`] of a file.
pub fn compile_gpu_file(
    path: &Path,
    variant: Variant,
    target: &GpuTarget,
    expand: ExpandStrategy,
) -> Result<GpuProgram, String> {
    let context = array_dialect::context();
    let mut module = array_dialect::source::load_file(&context, path).map_err(|e| e.to_string())?;
    compile_gpu(&context, &mut module, variant, target, expand)
}

/// The assembly of every `gpu.binary` of `module`.
fn binaries(module: &Module) -> Result<Vec<KernelAssembly>, String> {
    let mut out = Vec::new();
    let mut failure = None;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() != Ok("gpu.binary") {
            return WalkResult::Advance;
        }
        let name = op
            .attribute("sym_name")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_owned())
            .unwrap_or_default();
        let objects =
            op.attribute("objects").ok().and_then(|a| melior::ir::attribute::ArrayAttribute::try_from(a).ok());
        let Some(object) = objects.and_then(|a| a.element(0).ok()) else {
            failure = Some(format!("gpu.binary '{name}' has no object"));
            return WalkResult::Interrupt;
        };
        // SAFETY: a live attribute, checked to be a #gpu.object before it is read; the
        // string is owned by the context and copied at once.
        let assembly = unsafe {
            let raw = object.to_raw();
            if !mlir_sys::mlirAttributeIsAGPUObjectAttr(raw) {
                failure = Some(format!("gpu.binary '{name}' holds no #gpu.object"));
                return WalkResult::Interrupt;
            }
            let s = mlir_sys::mlirGPUObjectAttrGetObject(raw);
            String::from_utf8_lossy(std::slice::from_raw_parts(s.data as *const u8, s.length)).into_owned()
        };
        out.push(KernelAssembly { module: name, assembly });
        WalkResult::Advance
    });
    match failure {
        Some(f) => Err(f),
        None => Ok(out),
    }
}

/// The name of the first op of `module` whose name satisfies `matches`.
fn first_op_named(module: &Module, matches: impl Fn(&str) -> bool) -> Option<String> {
    let mut found = None;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op.name().as_string_ref().as_str().unwrap_or("?").to_owned();
        if matches(&name) {
            found = Some(name);
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    found
}

/// Assembles `ptx` with NVIDIA's `ptxas` for `arch` (`sm_80`, `sm_90`); the error is
/// ptxas's own message. `Err` also when ptxas is not installed (say so, never pass).
pub fn assemble_ptx(ptx: &str, arch: &str) -> Result<(), String> {
    let ptxas = ptxas().ok_or("ptxas not found: run scripts/setup.sh or set FUSION_CUDA_DIR")?;
    assemble(&ptxas, &[format!("-arch={arch}")], ("kernel.ptx", "kernel.cubin"), ptx)
}

/// Assembles AMDGPU `assembly` with LLVM's `llvm-mc` for processor `chip` (`gfx90a`,
/// `gfx942`) into an object file; the error is llvm-mc's own message (it refuses
/// assembly for another processor, which names its target).
pub fn assemble_amdgpu(assembly: &str, chip: &str) -> Result<(), String> {
    let llvm_mc = PathBuf::from(option_env!("MLIR_SYS_220_PREFIX").unwrap_or("/usr/lib/llvm-22")).join("bin/llvm-mc");
    let options = ["-triple=amdgcn-amd-amdhsa".to_owned(), format!("-mcpu={chip}"), "-filetype=obj".to_owned()];
    assemble(&llvm_mc, &options, ("kernel.s", "kernel.o"), assembly)
}

/// Runs assembler `tool` with `options` on `source` (written to a fresh temporary
/// directory as `files.0`, the output as `files.1`); the error names the tool and the
/// target it assembled for, then gives the tool's own message.
fn assemble(tool: &Path, options: &[String], files: (&str, &str), source: &str) -> Result<(), String> {
    let name = tool.file_name().map_or_else(|| tool.display().to_string(), |n| n.to_string_lossy().into_owned());
    let dir = std::env::temp_dir().join(format!("fusion-{name}-{}-{}", std::process::id(), unique()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let input = dir.join(files.0);
    std::fs::write(&input, source).map_err(|e| format!("{}: {e}", input.display()))?;
    let output = Command::new(tool)
        .args(options)
        .arg(&input)
        .arg("-o")
        .arg(dir.join(files.1))
        .output()
        .map_err(|e| format!("{}: {e}", tool.display()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = output?;
    if output.status.success() {
        return Ok(());
    }
    // The option that names the target (-arch=…, -mcpu=…) says what it was assembled for.
    let target =
        options.iter().find(|o| o.starts_with("-arch=") || o.starts_with("-mcpu=")).cloned().unwrap_or_default();
    Err(format!("{name} {target}: {}", String::from_utf8_lossy(&output.stderr).trim()))
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::GpuTarget;

    #[test]
    fn targets_parse_and_print_back() {
        for text in ["nvptx:sm_90", "nvptx:sm_80", "amdgcn:gfx942", "amdgcn:gfx90a"] {
            let t: GpuTarget = text.parse().unwrap();
            assert_eq!(t.to_string(), text);
        }
        for bad in ["sm_90", "nvptx:90", "nvptx:sm_", "cuda:sm_90", "amdgcn:942", "nvptx:sm_9 0"] {
            assert!(bad.parse::<GpuTarget>().is_err(), "{bad} parsed");
        }
    }
}
