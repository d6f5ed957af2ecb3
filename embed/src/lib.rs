//! Optimal fusion of `array` programs, for compilers that embed it.
//!
//! This crate is the public surface of the project for a host compiler built on
//! [melior](https://docs.rs/melior) (MLIR 22): register the `array` dialect, add the fusion
//! passes with typed options to your own [`PassManager`], read the clustering each function
//! got as typed [`FunctionReport`]s, and compile and run the result on the CPU. The same
//! library, built as `libarray_fusion.so`, is a plugin for stock `mlir-opt` ([`plugin`]) and
//! the library behind the C API of `include/array-fusion.h` ([`capi`]).
//!
//! The passes, in pipeline order (seed 002 §4.4 for the trees; `docs/design.md` for the rest):
//!
//! | pass | anchor | what it does |
//! |---|---|---|
//! | [`passes::rotate_while`] | `func.func` | moves the first test of an `scf.while` on arrays made before it out of the loop, where it can fuse with their producers |
//! | [`passes::desugar`] | `func.func` | `backpermute`, `reverse`, `replicate`, `permute` → `generate` + `gather`/`scatter` |
//! | [`passes::simplify_gathers`] | `func.func` | removes gathers whose index function is the identity |
//! | [`passes::fusion_analysis`] | `func.func` | chooses the optimal clustering by ILP (SCIP), checked by the independent validator |
//! | [`passes::fuse`] | `func.func` | materialises the clustering as `array.cluster` fusion trees |
//! | [`passes::to_loops`] | module | one `scf` loop nest per cluster on `memref`s |
//!
//! # Example: fuse a module in your own pass manager
//!
//! ```
//! use array_fusion::{FusionOptions, Reports, Status};
//! use melior::{Context, dialect::DialectRegistry, pass::PassManager, utility::register_all_dialects};
//!
//! let registry = DialectRegistry::new();
//! register_all_dialects(&registry);
//! array_fusion::register_dialect(&registry);
//! let context = Context::new();
//! context.append_dialect_registry(&registry);
//! context.load_all_available_dialects();
//!
//! // array_fusion::parse_source, not melior's Module::parse: MLIR's lexer reads past the
//! // end of a string that is not NUL-terminated, which parse_source guards against.
//! let mut module = array_fusion::parse_source(&context, r#"
//!   func.func @scaled_sum(%xs: tensor<?xf32>) -> tensor<f32> {
//!     %doubled = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
//!     ^bb0(%x: f32):
//!       %y = arith.addf %x, %x : f32
//!       array.yield %y : f32
//!     }
//!     %zero = arith.constant 0.0 : f32
//!     %sum = array.fold %doubled init(%zero : f32) : tensor<?xf32> -> tensor<f32> {
//!     ^bb0(%a: f32, %b: f32):
//!       %s = arith.addf %a, %b : f32
//!       array.yield %s : f32
//!     }
//!     return %sum : tensor<f32>
//!   }"#, "scaled_sum.mlir").expect("the program parses");
//!
//! let reports = Reports::new();
//! let pm = PassManager::new(&context);
//! array_fusion::add_fusion_passes(&pm, &FusionOptions::default(), &reports)?;
//! pm.add_pass(array_fusion::passes::to_loops());
//! pm.run(&mut module).expect("the pipeline runs");
//!
//! let report = &reports.functions()[0];
//! assert_eq!(report.name, "scaled_sum");
//! assert_eq!(report.status, Status::Optimal);
//! assert_eq!(report.clusters.len(), 1, "the map and the fold are one loop");
//! let loops = module.as_operation().to_string();
//! assert!(loops.contains("scf.for") && !loops.contains("array.map") && !loops.contains("array.fold"));
//! # Ok::<(), array_fusion::Error>(())
//! ```
//!
//! # Example: compile a file and call a function
//!
//! ```
//! use array_fusion::{CompileOptions, Program, Value};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/seed004_sum_of_squares.mlir");
//! let program = Program::compile_file(path.as_ref(), &CompileOptions::default())?;
//! let results = program.call("sumSquares", &[Value::index(4)])?;
//! assert_eq!(results, vec![Value::scalar_tensor(Value::i64(1 + 4 + 9 + 16))]);
//! # Ok::<(), array_fusion::Error>(())
//! ```

pub mod capi;
pub mod plugin;

use fusion_passes::fusion_analysis::ReportSink;
use melior::{
    dialect::DialectRegistry,
    pass::{OperationPassManager, Pass, PassManager},
};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use fusion_analysis::cost::CostFunction;
pub use fusion_analysis::formulation::Formulation;
pub use fusion_analysis::report::{FunctionReport, Status};
pub use fusion_codegen::Threads;
pub use fusion_interpreter::{ElemType, Tensor, Value};
pub use fusion_solver::Limits;

/// What went wrong, in words: an option the passes reject, a pass that cannot be built, a
/// program that does not load or compile, a call with the wrong arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<String> for Error {
    fn from(message: String) -> Self {
        Error(message)
    }
}

/// Adds the `array` dialect to `registry` (load it into a context with
/// `Context::append_dialect_registry`).
pub fn register_dialect(registry: &DialectRegistry) {
    array_dialect::register(registry);
}

/// A new context with every upstream dialect and the `array` dialect registered and loaded,
/// the upstream passes registered and the LLVM IR translations available: what `fuse-opt`
/// works in, for hosts that have no context of their own to add the dialect to.
pub fn context() -> melior::Context {
    array_dialect::context()
}

/// Parses and verifies the `.mlir` file at `path` into `context` (which must have the
/// `array` dialect registered). Errors carry every diagnostic as `file:line:col: error: …`.
/// Parsing with locations of the file lets the reports name values by their SSA names.
pub fn load_file<'c>(context: &'c melior::Context, path: &Path) -> Result<melior::ir::Module<'c>, Error> {
    array_dialect::source::load_file(context, path).map_err(|e| Error(e.to_string()))
}

/// [`load_file`] for program text, with `file_name` in its locations.
pub fn parse_source<'c>(
    context: &'c melior::Context,
    source: &str,
    file_name: &str,
) -> Result<melior::ir::Module<'c>, Error> {
    array_dialect::source::parse_source(context, source, file_name).map_err(|e| Error(e.to_string()))
}

/// Adds the passes and the `array-fusion` pipeline alias to MLIR's global pass registry, so
/// that pipeline strings can name them (`func.func(array-fusion{cost=reads})`). Idempotent;
/// every function of this crate that creates a pass calls it.
pub fn register_passes() {
    fusion_passes::register_all_passes();
}

/// The options of the fusion analysis: the same as the pass options of
/// `array-fusion-analysis` (and `array-fusion`) in a pipeline string.
#[derive(Debug, Clone, Default)]
pub struct FusionOptions {
    /// The ILP formulation (seed 000 Fig. 4, seed 001 Fig. 1.14, or the combined one).
    pub formulation: Formulation,
    /// The cost model the ILP minimises (seed 000 §4.1).
    pub cost: CostFunction,
    /// The solver's time limit, gap and threads, per analysed block. When the time limit
    /// strikes, the report's status says so ([`Status`]); nothing is called optimal unproven.
    pub limits: Limits,
    /// Write each block's ILP in CPLEX LP format next to this path (`model.lp` →
    /// `model.<function>.lp`).
    pub dump_ilp: Option<PathBuf>,
    /// Turns off `array-recompute` (`recompute=false`): every producer is materialised
    /// once, as in the seeds' model. By default a map of one input array that several
    /// consumers read in order is copied into each consumer's loop where that cannot
    /// raise the optimum (`fusion_passes::recompute`).
    pub no_recomputation: bool,
}

impl FusionOptions {
    /// The options as a pipeline string writes them: `formulation=combined cost=… …`.
    pub fn to_pipeline_options(&self) -> Result<String, Error> {
        let mut options = vec![
            ("formulation", self.formulation.to_string()),
            ("cost", self.cost.to_string()),
            ("time-limit", self.limits.time_seconds.to_string()),
            ("gap", self.limits.relative_gap.to_string()),
            ("threads", self.limits.threads.to_string()),
        ];
        if let Some(path) = &self.dump_ilp {
            options.push(("dump-ilp", path.display().to_string()));
        }
        if self.no_recomputation {
            options.push(("recompute", "false".into()));
        }
        options
            .into_iter()
            .map(|(name, value)| Ok(format!("{name}={}", quote(name, &value)?)))
            .collect::<Result<Vec<_>, Error>>()
            .map(|o| o.join(" "))
    }
}

/// `value` as a pass option value: bare when it is one plain word, else quoted.
fn quote(name: &str, value: &str) -> Result<String, Error> {
    if !value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || "-_.+*/".contains(c)) {
        Ok(value.to_owned())
    } else if !value.contains('\'') {
        Ok(format!("'{value}'"))
    } else if !value.contains('"') {
        Ok(format!("\"{value}\""))
    } else {
        Err(Error(format!(
            "the value of option '{name}' holds both kinds of quote and cannot be written as a pass option: {value}"
        )))
    }
}

/// Where the fusion analysis puts the report of every block it analyses: give the same
/// `Reports` to [`passes::fusion_analysis`] (or [`add_fusion_passes`]) and read it after the
/// pass manager has run. Cloning shares the reports.
#[derive(Clone, Default)]
pub struct Reports(ReportSink);

impl Reports {
    pub fn new() -> Self {
        Self::default()
    }

    /// The reports so far, in source order (one per analysed block; a function without
    /// combinators has none).
    pub fn functions(&self) -> Vec<FunctionReport> {
        self.lock().iter().map(|(report, _)| report.clone()).collect()
    }

    /// The reports as `fuse-opt --emit-clustering=json` prints them.
    pub fn to_json(&self) -> String {
        fusion_analysis::report::to_json(&self.functions())
    }

    /// The clusterings as Graphviz graphs, as `fuse-opt --emit-clustering=dot` prints them.
    pub fn to_dot(&self) -> String {
        self.lock().iter().map(|(_, dot)| dot.as_str()).collect()
    }

    /// Forgets the reports so far (to reuse the sink for another run).
    pub fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(FunctionReport, String)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn sink(&self) -> ReportSink {
        Arc::clone(&self.0)
    }
}

/// The passes, one constructor each, to add to a pass manager nested as their anchor says
/// (see the table in the crate documentation). A pass that is created and never added to a
/// pass manager is leaked.
pub mod passes {
    use super::*;
    use fusion_passes::bridge::{PassDefinition, create_pass};

    fn plain(definition: &'static PassDefinition) -> Pass {
        register_passes();
        create_pass(definition, "", None).unwrap_or_else(|e| unreachable!("a registered pass without options: {e}"))
    }

    /// `array-rotate-while` (on `func.func`).
    pub fn rotate_while() -> Pass {
        plain(&fusion_passes::rotate_while::DEFINITION)
    }

    /// `array-desugar` (on `func.func`).
    pub fn desugar() -> Pass {
        plain(&fusion_passes::desugar::DEFINITION)
    }

    /// `array-simplify-gathers` (on `func.func`).
    pub fn simplify_gathers() -> Pass {
        plain(&fusion_passes::simplify_gathers::DEFINITION)
    }

    /// `array-fusion-analysis` (on `func.func`) with `options`, reporting into `reports`.
    /// Errors: an option the pass rejects.
    pub fn fusion_analysis(options: &FusionOptions, reports: &Reports) -> Result<Pass, Error> {
        register_passes();
        Ok(create_pass(
            &fusion_passes::fusion_analysis::DEFINITION,
            &options.to_pipeline_options()?,
            Some(Box::new(reports.sink())),
        )?)
    }

    /// `array-fuse` (on `func.func`).
    pub fn fuse() -> Pass {
        plain(&fusion_passes::fuse::DEFINITION)
    }

    /// `array-to-loops` (on the module).
    pub fn to_loops() -> Pass {
        plain(&fusion_passes::to_loops::DEFINITION)
    }
}

/// Adds the `array-fusion` pipeline — rotate while loops, desugar, simplify gathers,
/// analysis, fuse — on every
/// `func.func` of the module `pm` runs on, with `options`, reporting into `reports`.
pub fn add_fusion_passes(pm: &PassManager, options: &FusionOptions, reports: &Reports) -> Result<(), Error> {
    add_fusion_passes_to(pm.as_operation_pass_manager(), options, reports)
}

/// [`add_fusion_passes`] on the pass manager of a module op nested in another pipeline.
pub fn add_fusion_passes_to(pm: OperationPassManager, options: &FusionOptions, reports: &Reports) -> Result<(), Error> {
    let functions = pm.nested_under("func.func");
    functions.add_pass(passes::rotate_while());
    functions.add_pass(passes::desugar());
    functions.add_pass(passes::simplify_gathers());
    functions.add_pass(passes::fusion_analysis(options, reports)?);
    functions.add_pass(passes::fuse());
    Ok(())
}

/// Adds MLIR's upstream lowering of the loop nests [`passes::to_loops`] writes down to the
/// LLVM dialect (bufferization included), with `scf.parallel` loops run as `threads` says.
pub fn add_lowering_to_llvm(pm: &PassManager, threads: Threads) -> Result<(), Error> {
    add_lowering_to_llvm_to(pm.as_operation_pass_manager(), threads)
}

/// [`add_lowering_to_llvm`] on the pass manager of a module op nested in another pipeline.
pub fn add_lowering_to_llvm_to(pm: OperationPassManager, threads: Threads) -> Result<(), Error> {
    // The pipeline text names upstream passes, which must be in the registry to parse.
    static UPSTREAM: std::sync::Once = std::sync::Once::new();
    UPSTREAM.call_once(melior::utility::register_all_passes);
    add_pipeline(pm, &fusion_codegen::pipeline::to_llvm(threads))
        .map_err(|e| Error(format!("the lowering pipeline does not parse: {e}")))
}

/// Appends the pipeline elements `elements` (`a, b{option=1}`) to `pm`. (melior's
/// `parse_pass_pipeline` *replaces* what a pass manager holds.)
fn add_pipeline(pm: OperationPassManager, elements: &str) -> Result<(), String> {
    unsafe extern "C" fn collect(text: mlir_sys::MlirStringRef, user_data: *mut std::ffi::c_void) {
        // SAFETY: user_data is the `String` below; text is valid during the call.
        let out = unsafe { &mut *(user_data as *mut String) };
        let bytes = unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) };
        out.push_str(&String::from_utf8_lossy(bytes));
    }
    let mut errors = String::new();
    // SAFETY: a live pass manager; the string and the callback's data live during the call.
    let result = unsafe {
        mlir_sys::mlirOpPassManagerAddPipeline(
            pm.to_raw(),
            mlir_sys::MlirStringRef { data: elements.as_ptr() as *const std::ffi::c_char, length: elements.len() },
            Some(collect),
            &mut errors as *mut String as *mut std::ffi::c_void,
        )
    };
    if result.value != 0 { Ok(()) } else { Err(errors) }
}

/// Runs the whole pipeline on `module`: the fusion passes with `options`, `array-to-loops`,
/// and, when `lowering` is given, MLIR's lowering to the LLVM dialect with that threading.
/// Returns the report of every analysed block. Errors: every error diagnostic the passes
/// emitted (with its location), one per line; other diagnostics go to the context's
/// handlers as usual.
///
/// ```
/// use array_fusion::{FusionOptions, Status};
/// let context = array_fusion::context();
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/seed001_normalize2.mlir");
/// let mut module = array_fusion::load_file(&context, path.as_ref())?;
/// let reports = array_fusion::run_pipeline(&context, &mut module, &FusionOptions::default(), None)?;
/// assert_eq!(reports[0].status, Status::Optimal);
/// assert_eq!(reports[0].clusters, [vec!["sum1", "gts", "sum2"], vec!["ys1", "ys2"]]);
/// # Ok::<(), array_fusion::Error>(())
/// ```
pub fn run_pipeline(
    context: &melior::Context,
    module: &mut melior::ir::Module,
    options: &FusionOptions,
    lowering: Option<Threads>,
) -> Result<Vec<FunctionReport>, Error> {
    let reports = Reports::new();
    let pm = PassManager::new(context);
    add_fusion_passes(&pm, options, &reports)?;
    pm.add_pass(passes::to_loops());
    if let Some(threads) = lowering {
        add_lowering_to_llvm(&pm, threads)?;
    }
    let errors: std::rc::Rc<std::cell::RefCell<Vec<String>>> = Default::default();
    let sink = errors.clone();
    let handler = context.attach_diagnostic_handler(move |diagnostic| {
        if !matches!(diagnostic.severity(), melior::diagnostic::DiagnosticSeverity::Error) {
            return false; // not handled here: the next handler gets it
        }
        sink.borrow_mut().push(format!("{}: error: {diagnostic}", diagnostic.location()));
        true
    });
    let result = pm.run(module);
    context.detach_diagnostic_handler(handler);
    match result {
        Ok(()) => Ok(reports.functions()),
        Err(_) => {
            let errors = errors.borrow();
            Err(Error(if errors.is_empty() { "a pass failed".into() } else { errors.join("\n") }))
        }
    }
}

/// How [`Program::compile_file`] compiles.
#[derive(Debug, Clone, Copy)]
pub struct CompileOptions {
    /// Fuse (the `array-fusion` pipeline with default options) before lowering; `false`
    /// lowers every combinator to its own loop nest.
    pub fused: bool,
    pub threads: Threads,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions { fused: true, threads: Threads::Sequential }
    }
}

/// A JIT-compiled program: every public function of a file, callable on [`Value`]s.
pub struct Program {
    compiled: fusion_codegen::Compiled,
    functions: Vec<fusion_interpreter::FunctionInfo>,
}

impl Program {
    /// Loads, lowers (fused or not) and compiles every public function of the file at `path`.
    pub fn compile_file(path: &Path, options: &CompileOptions) -> Result<Program, Error> {
        register_passes();
        let functions = {
            let context = array_dialect::context();
            let module = array_dialect::source::load_file(&context, path)
                .map_err(|e| Error(format!("{} does not load: {e}", path.display())))?;
            fusion_interpreter::Interpreter::new(&module).functions()
        };
        let variant = if options.fused { fusion_codegen::Variant::Fused } else { fusion_codegen::Variant::Unfused };
        let compiled = fusion_codegen::compile_file_with(path, variant, None, options.threads)
            .map_err(|e| Error(format!("{}: {e}", path.display())))?;
        Ok(Program { compiled, functions })
    }

    /// Calls public function `@name` on `args` (one [`Value`] per argument: scalars and
    /// tensors of the declared types) and returns its results.
    pub fn call(&self, name: &str, args: &[Value]) -> Result<Vec<Value>, Error> {
        let function = self
            .functions
            .iter()
            .find(|f| f.name == name && f.public && f.defined)
            .ok_or_else(|| Error(format!("no public function @{name} in the program")))?;
        let (results, _) = self.compiled.call(name, &function.inputs, &function.results, args)?;
        Ok(results)
    }
}
