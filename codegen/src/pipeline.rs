//! The lowering pipeline: the array passes of a [`Variant`] (`array-desugar`, or the whole
//! `array-fusion` pipeline), `array-to-loops`, then MLIR 22's upstream passes down to the
//! LLVM dialect. Each stage is checked: no `array` op may survive `array-to-loops`, and only
//! the LLVM dialect may survive the end, so a gap in the lowering is a clear message and
//! not a JIT failure.

use melior::{
    Context,
    ir::{
        Module,
        operation::{OperationLike, WalkOrder, WalkResult},
    },
    pass::PassManager,
    utility::parse_pass_pipeline,
};
use std::{cell::RefCell, path::Path, rc::Rc};

/// How the loop nests run on the CPU.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Threads {
    /// Every loop sequential (`scf.parallel` becomes plain loops).
    #[default]
    Sequential,
    /// The sequential loops that have a parallel form get it first (`array-parallel-forms`:
    /// scans, filter compaction and expand placement as three phases; scatters as the
    /// [`ScatterForm`] says); then `scf.parallel` loops become OpenMP work-sharing loops
    /// (`omp.parallel` + `omp.wsloop`); the compiled code calls the OpenMP runtime
    /// (`libomp`, `OMP_NUM_THREADS` threads).
    OpenMp(ScatterForm),
    /// The loop nests made GPU kernels (`array-gpu-kernels`, as for a GPU target, with
    /// the launch shape given) and the kernels emulated on the CPU (`array-gpu-emulate`:
    /// blocks and threads as loops, every thread finishing each segment between
    /// block-wide operations before the next starts), so the kernels' index arithmetic,
    /// reductions and scans are checked without a GPU.
    GpuEmulated(LaunchShape),
    /// The loop nests made GPU kernels for the NVIDIA GPU the CUDA driver finds
    /// ([`crate::cuda`]), and run there: the host program calls the driver through the
    /// runtime functions of `cuda.rs`. Of the launch shape only the expand division is
    /// used (the kernels take the pass's default block size and grid bound).
    Gpu(LaunchShape),
}

/// How scatter loops run under OpenMP: the option `scatters` of `array-parallel-forms`.
pub use fusion_passes::parallel_forms::ScatterForm;
pub use fusion_passes::to_gpu::ExpandStrategy;

/// The launch shape of `array-gpu-kernels`' parallel kernels: threads per block and the
/// most blocks of a grid (beyond which the threads of a grid-stride loop wrap around).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LaunchShape {
    pub block_size: u32,
    pub max_blocks: u32,
    /// How an expand fused with a scatter divides its segments (seed 004 §4.1).
    pub expand: ExpandStrategy,
}

impl Default for LaunchShape {
    /// The pass's defaults: 256 threads, 4096 blocks, the division chosen per expand.
    fn default() -> LaunchShape {
        LaunchShape { block_size: 256, max_blocks: 4096, expand: ExpandStrategy::Auto }
    }
}

/// MLIR's `buffer-deallocation-pipeline` (its passes, as `buildBufferDeallocationPipeline`
/// adds them), with `array-own-loop-inits` between the placement of the deallocations and
/// their lowering: a loop takes ownership of an initial buffer the function allocated for
/// it alone, so that a returned loop result is not copied when the loop does not run (its
/// module doc proves it).
const DEALLOCATION: &str = "func.func(expand-realloc{emit-deallocs=false}, canonicalize, \
     ownership-based-buffer-deallocation, canonicalize, buffer-deallocation-simplification, \
     array-own-loop-inits, canonicalize, buffer-deallocation-simplification), \
     bufferization-lower-deallocations, func.func(cse, canonicalize)";

/// After `array-to-loops`, down to the LLVM dialect (as verified in tests/src/lowering.rs).
/// Function boundaries use identity layouts: with MLIR's default (fully dynamic strided
/// layouts), every `bufferization.to_buffer` of an argument becomes a copy, which costs
/// a whole extra read and write of each input.
pub fn to_llvm(threads: Threads) -> String {
    // With OpenMP, the parallel bodies sit in `memref.alloca_scope` regions, which must be
    // lowered (by finalize-memref-to-llvm) before convert-scf-to-cf makes them multi-block.
    // `canonicalize` first inlines every scope that allocates nothing (MLIR's
    // `AllocaScopeInliner`): lowered, a scope is an `llvm.stacksave`/`stackrestore` pair
    // around the body, and LLVM's loop vectorizer gives up on a loop that holds one together
    // with a call (a math function), so every thread ran scalar code (Black–Scholes,
    // `kernel-bench --elements 10000000 --threads 2`: 1.29× over one thread with the
    // scopes, 2.03× without; `lit/lowering/vector-math.mlir`).
    let gpu_emulated = match threads {
        Threads::GpuEmulated(LaunchShape { block_size, max_blocks, expand }) => format!(
            "func.func(array-gpu-kernels{{block-size={block_size} max-blocks={max_blocks} expand-strategy={}}}), \
             array-gpu-host-memory, array-gpu-emulate, ",
            expand.name()
        ),
        _ => String::new(),
    };
    let openmp = match threads {
        Threads::OpenMp(scatters) => format!(
            "func.func(array-parallel-forms{{scatters={} owners={} copies-at-run-time=true}}), convert-scf-to-openmp, \
             func.func(canonicalize), ",
            scatters.name(),
            openmp_threads()
        ),
        _ => String::new(),
    };
    let (scf_to_openmp, memref_first, openmp_to_llvm) = match threads {
        Threads::Sequential | Threads::Gpu(_) => ("", false, ""),
        Threads::OpenMp(_) => (openmp.as_str(), true, "convert-openmp-to-llvm, "),
        Threads::GpuEmulated(_) => (gpu_emulated.as_str(), false, ""),
    };
    // On the CPU, buffers are allocated by the functions `array-huge-pages` defines, which
    // advise large ones for transparent huge pages (its module doc says why and what it
    // costs).
    let cpu = matches!(threads, Threads::Sequential | Threads::OpenMp(_));
    let memref = if cpu {
        "array-huge-pages, expand-strided-metadata, finalize-memref-to-llvm{use-generic-functions=true}, "
    } else {
        "expand-strided-metadata, finalize-memref-to-llvm, "
    };
    let (memref_before, memref_after) = if memref_first { (memref, "") } else { ("", memref) };
    // On the CPU, remainders of affine functions of a loop's induction variable become
    // affine on the segments between their wrap-arounds (`array-remainder-segments`), and
    // the divisions left by loop-invariant divisors become multiplications
    // (`array-invariant-division`); the GPU pipelines keep them.
    let division = if cpu { "array-remainder-segments, array-invariant-division, " } else { "" };
    // On the CPU, an output whose loop nest reads a dead array of its shape element by
    // element is written into that array's buffer (`array-reuse-buffers`, module doc).
    // With OpenMP it leaves the scans' loops to `array-parallel-forms` (option doc).
    // Then a loop that reads at indices it loads (a gather) prefetches what a later
    // iteration reads (`array-prefetch-gathers`, module doc). Before both, two row loops
    // that pass an array on row by row run as one row loop (`array-merge-row-loops`).
    let reuse = match threads {
        Threads::Sequential => "func.func(array-merge-row-loops, array-reuse-buffers, array-prefetch-gathers), ",
        Threads::OpenMp(_) => {
            "func.func(array-merge-row-loops, array-reuse-buffers{parallel-forms=true}, array-prefetch-gathers), "
        }
        _ => "",
    };
    format!(
        "{division}one-shot-bufferize{{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map \
         allow-return-allocs-from-loops}}, array-elide-loop-copies, {reuse}{DEALLOCATION}, \
         convert-bufferization-to-memref, {scf_to_openmp}{memref_before}{}",
        scalar_to_llvm(memref_after, openmp_to_llvm)
    )
}

/// The number of threads OpenMP will run this process's parallel regions on:
/// `OMP_NUM_THREADS` (its first value) if set, else the number of cores. A scatter run by
/// owner (`array-parallel-forms`) gets that many owners, compiled in: a program compiled
/// ahead of time and run on another number of threads gives the same results.
pub fn openmp_threads() -> usize {
    std::env::var("OMP_NUM_THREADS")
        .ok()
        .and_then(|v| v.split(',').next().and_then(|n| n.trim().parse::<usize>().ok()))
        .filter(|n| *n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}

/// Hand-written `gpu.launch` kernels on buffers (a module already bufferized, with its
/// deallocations), emulated on the CPU with checked accesses, down to the LLVM dialect.
/// The deallocation pipeline refuses ops whose memory effects it does not know, such as
/// `gpu.all_reduce` and `gpu.barrier`, so such kernels cannot come through [`to_llvm`].
pub fn emulated_kernels_to_llvm() -> String {
    format!("array-gpu-emulate, {}", scalar_to_llvm("expand-strided-metadata, finalize-memref-to-llvm, ", ""))
}

/// From structured control flow on buffers to the LLVM dialect: `memref` (placed after
/// `convert-scf-to-cf` unless already done), the scalar dialects, functions.
fn scalar_to_llvm(memref: &str, openmp_to_llvm: &str) -> String {
    format!(
        "convert-scf-to-cf, {memref}\
         convert-complex-to-standard, convert-math-to-llvm, convert-math-to-libm, convert-arith-to-llvm, \
         convert-complex-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, {openmp_to_llvm}convert-func-to-llvm, \
         reconcile-unrealized-casts"
    )
}

/// The array passes that come first: the plain program, the fused one (the ILP's
/// optimum), the one fused as a given strategy chooses (a baseline, to compare), or the
/// ILP's optimum under another cost function than the default (`fuse-opt --cost=`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    Unfused,
    Fused,
    FusedBy(fusion_analysis::baseline::Strategy),
    /// A cost function in the syntax of `array-fusion-analysis{cost=…}`, parsed already
    /// ([`Variant::fused_with_cost`]).
    FusedWithCost(&'static str),
}

impl Variant {
    pub fn prefix(self) -> String {
        match self {
            Variant::Unfused => "func.func(array-desugar)".into(),
            Variant::Fused => "func.func(array-fusion)".into(),
            Variant::FusedBy(strategy) => format!("func.func(array-fusion{{strategy={strategy}}})"),
            Variant::FusedWithCost(cost) => format!("func.func(array-fusion{{cost={cost}}})"),
        }
    }

    /// [`Variant::FusedWithCost`] for the cost function `text`, or why it is none. The
    /// text is kept for the life of the program (a command line's few bytes).
    pub fn fused_with_cost(text: &str) -> Result<Variant, String> {
        let cost: fusion_analysis::cost::CostFunction = text.parse().map_err(|e| format!("--cost: {e}"))?;
        Ok(Variant::FusedWithCost(Box::leak(cost.to_string().into_boxed_str())))
    }
}

/// Runs `pipeline` on `module`, collecting error diagnostics as the reason of a failure.
pub fn run_pipeline(context: &Context, module: &mut Module, pipeline: &str) -> Result<(), String> {
    run_pipeline_with_diagnostics(context, module, pipeline).map(|_| ())
}

/// [`run_pipeline`], returning the diagnostics the passes emitted (remarks and warnings,
/// such as `array-to-loops`' "cluster lowered op by op") when it succeeds.
pub fn run_pipeline_with_diagnostics(
    context: &Context,
    module: &mut Module,
    pipeline: &str,
) -> Result<Vec<String>, String> {
    let messages: Rc<RefCell<Vec<String>>> = Rc::default();
    let errors: Rc<RefCell<Vec<String>>> = Rc::default();
    let (sink, error_sink) = (messages.clone(), errors.clone());
    let handler = context.attach_diagnostic_handler(move |d| {
        use melior::diagnostic::DiagnosticSeverity;
        let severity = match d.severity() {
            DiagnosticSeverity::Error => {
                error_sink.borrow_mut().push(d.to_string());
                sink.borrow_mut().push(d.to_string());
                return true;
            }
            DiagnosticSeverity::Warning => "warning",
            DiagnosticSeverity::Remark => "remark",
            DiagnosticSeverity::Note => "note",
        };
        // Warnings and remarks are shown to users as compilers show them.
        let at = array_dialect::source::file_line_col(d.location())
            .map(|(file, line, column)| format!("{file}:{line}:{column}: "))
            .unwrap_or_default();
        sink.borrow_mut().push(format!("{at}{severity}: {d}"));
        true
    });
    // The reason of a failure: its first error (remarks may come before it).
    let reason = |fallback: &str| {
        errors.borrow().first().or(messages.borrow().first()).cloned().unwrap_or_else(|| fallback.into())
    };
    let pm = PassManager::new(context);
    let result = match parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline) {
        Err(e) => Err(format!("the pipeline does not parse: {e}")),
        Ok(()) => match pm.run(module) {
            Err(_) => Err(reason("a pass failed")),
            Ok(()) if !module.as_operation().verify() => Err(reason("the lowered module does not verify")),
            Ok(()) => Ok(messages.borrow().clone()),
        },
    };
    context.detach_diagnostic_handler(handler);
    result
}

/// The name of the first op in `module` that is not in the LLVM dialect (or `builtin.module`).
fn first_op_outside(module: &Module, allowed: impl Fn(&str) -> bool) -> Option<String> {
    let mut found = None;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op.name().as_string_ref().as_str().unwrap_or("?").to_owned();
        if allowed(&name) {
            WalkResult::Advance
        } else {
            found = Some(name);
            WalkResult::Interrupt
        }
    });
    found
}

/// The LLVM install we build against.
fn llvm_prefix() -> String {
    std::env::var("LLVM_PREFIX")
        .ok()
        .or(option_env!("MLIR_SYS_220_PREFIX").map(str::to_owned))
        .unwrap_or_else(|| "/usr/lib/llvm-22".into())
}

/// The shared libraries compiled code may call: MLIR's `libmlir_c_runner_utils.so`
/// (`memref.copy` of non-contiguous memrefs calls its `memrefCopy`) and, for
/// [`Threads::OpenMp`], LLVM's OpenMP runtime `libomp.so` (Debian package
/// `libomp-22-dev`, installed by scripts/setup.sh). Missing libraries are left out; the
/// JIT then reports the unresolved symbol.
pub fn runtime_libraries_for(threads: Threads) -> Vec<String> {
    let lib = format!("{}/lib", llvm_prefix());
    let mut names = vec!["libmlir_c_runner_utils.so"];
    if matches!(threads, Threads::OpenMp(_)) {
        names.push("libomp.so");
    }
    names.into_iter().map(|n| format!("{lib}/{n}")).filter(|p| Path::new(p).exists()).collect()
}

/// Lowers `module` (a program of the `array` dialect) to the LLVM dialect, sequential.
pub fn lower_to_llvm(context: &Context, module: &mut Module, variant: Variant) -> Result<(), String> {
    lower_to_llvm_with(context, module, variant, Threads::Sequential).map(|_| ())
}

/// Lowers `module` (a program of the `array` dialect) to the LLVM dialect; returns the
/// warnings and remarks of its passes (as `file:line:col: remark: …`), among them those
/// saying where the code that runs is not what was asked for ([`degraded`]).
pub fn lower_to_llvm_with(
    context: &Context,
    module: &mut Module,
    variant: Variant,
    threads: Threads,
) -> Result<Vec<String>, String> {
    let mut diagnostics = run_pipeline_with_diagnostics(
        context,
        module,
        &format!("builtin.module({}, array-to-loops)", variant.prefix()),
    )?;
    if let Some(op) = first_op_outside(module, |n| !n.starts_with(array_dialect::view::DIALECT_PREFIX)) {
        return Err(format!("'{op}' is not lowered to loops yet"));
    }
    if let Threads::Gpu(shape) = threads {
        let chip = crate::cuda::driver()?.chip.clone();
        diagnostics.extend(kernels_and_host_to_llvm(context, module, &chip, shape.expand)?);
        return Ok(diagnostics);
    }
    if matches!(threads, Threads::OpenMp(_)) {
        declare_max_threads(context, module)?;
    }
    diagnostics.extend(run_pipeline_with_diagnostics(
        context,
        module,
        &format!("builtin.module({})", to_llvm(threads)),
    )?);
    // OpenMP ops stay: LLVM IR translation turns them into OpenMP runtime calls.
    let openmp = matches!(threads, Threads::OpenMp(_));
    if let Some(op) = first_op_outside(module, |n| {
        n.starts_with("llvm.") || n == "builtin.module" || (openmp && n.starts_with("omp."))
    }) {
        return Err(format!("'{op}' is left after the lowering to LLVM"));
    }
    crate::vector_math::prepare(context, module)?;
    Ok(diagnostics)
}

/// Declares OpenMP's `omp_get_max_threads` in `module` (unless it is declared): the OpenMP
/// pipeline's `array-parallel-forms` makes as many private copies of a scatter's
/// destination as it returns when the program runs (`copies-at-run-time`). An unused
/// declaration costs nothing; the OpenMP runtime the program links defines it.
fn declare_max_threads(context: &Context, module: &mut Module) -> Result<(), String> {
    let name = fusion_passes::parallel_forms::MAX_THREADS_FUNCTION;
    let raw = module.as_operation().to_raw();
    if fusion_passes::ir::module_symbols(raw).iter().any(|s| s == name) {
        return Ok(());
    }
    fusion_passes::ir::append_parsed(context, raw, &format!("func.func private @{name}() -> i32"))
        .ok_or_else(|| format!("could not declare @{name}"))
}

/// A program lowered to loops (`array-to-loops`), as kernels for NVIDIA `chip` in
/// `gpu.binary` ops and the host program in the LLVM dialect calling MLIR's GPU runtime
/// interface (`gpu.launch_func` stays for the LLVM IR translation, which embeds the PTX).
pub fn kernels_and_host_to_llvm(
    context: &Context,
    module: &mut Module,
    chip: &str,
    expand: ExpandStrategy,
) -> Result<Vec<String>, String> {
    let target = crate::gpu::GpuTarget::Nvptx { chip: chip.into() };
    let kernels = format!("builtin.module({})", crate::gpu::kernel_pipeline(&target, expand));
    let mut diagnostics = run_pipeline_with_diagnostics(context, module, &kernels)?;
    let host = format!("builtin.module({})", crate::gpu::HOST_TO_LLVM);
    diagnostics.extend(run_pipeline_with_diagnostics(context, module, &host)?);
    if let Some(op) = first_op_outside(module, |n| {
        n.starts_with("llvm.") || matches!(n, "builtin.module" | "gpu.binary" | "gpu.launch_func")
    }) {
        return Err(format!("'{op}' is left in the host program after its lowering to LLVM"));
    }
    Ok(diagnostics)
}

/// Whether a diagnostic of the lowering reports code that is not the form asked for: a
/// cluster lowered op by op, a loop left sequential under OpenMP, a kernel run by one GPU
/// thread. Such outcomes are shown to users (`fuse-opt --run`, `--emit-object`), not
/// hidden.
pub fn degraded(diagnostic: &str) -> bool {
    ["op by op", "stays sequential", "runs as one GPU thread"].iter().any(|m| diagnostic.contains(m))
}
