//! The three-way check of a function on one set of inputs: the reference interpreter on the
//! unfused program is the oracle; the interpreter on the fused program, the compiled
//! unfused and the compiled fused program must give the same results.
//!
//! Integers (and `index`, `i1`) are compared exactly; floats to a relative (and, near zero,
//! absolute) tolerance of [`FLOAT_TOLERANCE`], because fusion may reassociate float
//! reductions. Compiled code runs only on inputs the interpreter accepts: on others it
//! could hit undefined behaviour.
//!
//! ```no_run
//! use fusion_codegen::check::{check_file, CheckOutcome};
//! use fusion_codegen::inputs::generate_args;
//! let path = std::path::Path::new("examples/seed000_intro.mlir");
//! check_file(path, None, |f| Ok(generate_args(&f.inputs, 0, 16)), |f, _args, outcome| {
//!     println!("@{}: {outcome}", f.name);
//! })
//! .unwrap();
//! ```

use crate::inputs::show;
use crate::jit::{Compiled, compile_file_with};
use crate::pipeline::{Threads, Variant, run_pipeline_with_diagnostics};
use fusion_interpreter::{ElemType, FunctionInfo, InterpError, Interpreter, Value};
use melior::{Context, ir::Module};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Relative (and absolute, near zero) tolerance for float results: fusion may reassociate
/// float reductions. Integers are compared exactly.
pub const FLOAT_TOLERANCE: f64 = 1e-9;

/// One compiled variant of a file, compiled on first use: the whole module at once, or, if
/// that fails, each function alone with its callees (so that one function that cannot be
/// lowered yet spoils only itself and its callers).
pub struct FileJit {
    path: PathBuf,
    variant: Variant,
    threads: Threads,
    whole: Option<Result<Compiled, String>>,
    alone: HashMap<String, Result<Compiled, String>>,
}

impl FileJit {
    pub fn new(path: &Path, variant: Variant) -> FileJit {
        FileJit { path: path.to_owned(), variant, threads: Threads::Sequential, whole: None, alone: HashMap::new() }
    }

    /// The same, with parallel loops run as `threads` says (OpenMP or sequential).
    pub fn with_threads(mut self, threads: Threads) -> FileJit {
        self.threads = threads;
        self
    }

    /// The compiled module that holds `name`, or why there is none.
    pub fn compiled(&mut self, name: &str) -> Result<&Compiled, String> {
        let (path, variant, threads) = (&self.path, self.variant, self.threads);
        let whole = self.whole.get_or_insert_with(|| compile_file_with(path, variant, None, threads));
        match whole {
            Ok(c) => Ok(c),
            Err(_) => self
                .alone
                .entry(name.to_owned())
                .or_insert_with(|| compile_file_with(path, variant, Some(name), threads))
                .as_ref()
                .map_err(|reason| reason.clone()),
        }
    }

    /// The diagnostics of the lowerings done so far that report code not in the form asked
    /// for ([`crate::pipeline::degraded`]), each once.
    pub fn degraded_diagnostics(&self) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        let compiled = self.whole.iter().chain(self.alone.values()).filter_map(|c| c.as_ref().ok());
        for d in compiled.flat_map(|c| c.diagnostics()) {
            if crate::pipeline::degraded(d) && !found.contains(d) {
                found.push(d.clone());
            }
        }
        found
    }

    /// Calls `f` compiled: its results and the time of the call in ms, or why it is not
    /// compiled, or why the call failed.
    pub fn call(&mut self, f: &FunctionInfo, args: &[Value]) -> Result<(Vec<Value>, f64), JitFailure> {
        let compiled = self.compiled(&f.name).map_err(JitFailure::NotCompiled)?;
        compiled.call(&f.name, &f.inputs, &f.results, args).map_err(JitFailure::CallFailed)
    }
}

/// Why a compiled run gave no results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JitFailure {
    /// The function is not compiled (a lowering gap, a pipeline error): no run.
    NotCompiled(String),
    /// The compiled code ran and failed (such as a fault found by the emulated GPU
    /// kernels' checks): a failure of the check.
    CallFailed(String),
}

impl fmt::Display for JitFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JitFailure::NotCompiled(reason) => f.write_str(reason),
            JitFailure::CallFailed(error) => write!(f, "the call failed: {error}"),
        }
    }
}

/// A run compared with the reference (the interpreter on the unfused program).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// The interpreter on the fused (`array-fusion`) program.
    FusedInterpreter,
    UnfusedCompiled,
    FusedCompiled,
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Run::FusedInterpreter => "fused under the interpreter",
            Run::UnfusedCompiled => "unfused compiled",
            Run::FusedCompiled => "fused compiled",
        })
    }
}

/// Times of the runs of one check, in ms (compiled: the call alone, after JIT compilation).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    pub interpreter_ms: f64,
    pub unfused_ms: Option<f64>,
    pub fused_ms: Option<f64>,
}

/// The verdict of [`check_function`].
#[derive(Clone, Debug)]
pub enum CheckOutcome {
    /// All four runs agree. `floats`: some result has float elements (compared to
    /// [`FLOAT_TOLERANCE`]). `results` are the reference's.
    Match { floats: bool, results: Vec<Value>, timings: Timings },
    /// The interpreter agrees on the unfused and the fused program, but a compiled variant
    /// is missing: `reason` says which and why.
    NotCompiled { reason: String, results: Vec<Value>, timings: Timings },
    /// A run disagrees with the reference on result `index` (the first that differs);
    /// `None` where a run has fewer results.
    Mismatch { run: Run, index: usize, expected: Option<Value>, actual: Option<Value> },
    /// A compiled run failed where the interpreter gave results (`error`: why, such as a
    /// data race the emulated GPU kernels' checks found).
    CallFailed { run: Run, error: String },
    /// The fusion pipeline rejects the file (`reason`; e.g. an ill-sized program), so only
    /// the interpreter and the compiled unfused program are compared; `unfused` is `Err`
    /// with the reason when that is not compiled either.
    NotFused { reason: String, unfused: Result<(), String>, results: Vec<Value>, timings: Timings },
    /// The interpreter fails on both programs in the same way: the inputs have no defined
    /// result (compiled code is not run).
    BothFail { error: String },
    /// The fusion pipeline rejects the file and the interpreter fails on the unfused
    /// program: the inputs have no defined result.
    Undefined { error: String },
    /// The interpreter fails on one of the programs only, or differently on both.
    FailureMismatch { unfused: Result<(), String>, fused: Result<(), String> },
}

impl CheckOutcome {
    /// A match (with or without the compiled runs).
    pub fn is_match(&self) -> bool {
        matches!(
            self,
            CheckOutcome::Match { .. }
                | CheckOutcome::NotCompiled { .. }
                | CheckOutcome::NotFused { .. }
                | CheckOutcome::BothFail { .. }
                | CheckOutcome::Undefined { .. }
        )
    }

    /// A disagreement: the exit code of a check should be 1.
    pub fn is_failure(&self) -> bool {
        !self.is_match()
    }
}

/// The text after `@f: ` in the runner's output: it starts with `match` or `MISMATCH`.
impl fmt::Display for CheckOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckOutcome::Match { floats, .. } => {
                let note = if *floats { "; floats to relative 1e-9" } else { "" };
                write!(f, "match (interpreter, unfused, fused{note})")
            }
            CheckOutcome::NotCompiled { reason, .. } => {
                write!(f, "match (interpreter, fused under the interpreter); not compiled: {reason}")
            }
            CheckOutcome::Mismatch { run, index, expected, actual } => write!(
                f,
                "MISMATCH in result #{index}: interpreter {} vs {run} {}",
                expected.as_ref().map(show).unwrap_or_else(|| "(none)".into()),
                actual.as_ref().map(show).unwrap_or_else(|| "(none)".into())
            ),
            CheckOutcome::CallFailed { run, error } => write!(f, "MISMATCH: the {run} run fails: {error}"),
            CheckOutcome::NotFused { reason, unfused: Ok(()), .. } => {
                write!(f, "match (interpreter, unfused compiled); not fused: {reason}")
            }
            CheckOutcome::NotFused { reason, unfused: Err(why), .. } => {
                write!(f, "match (interpreter alone); not fused: {reason}; not compiled: {why}")
            }
            CheckOutcome::BothFail { error } => {
                write!(f, "match (both fail under the interpreter: {error}; compiled code not run)")
            }
            CheckOutcome::Undefined { error } => {
                write!(f, "match (the interpreter fails: {error}; not fused; compiled code not run)")
            }
            CheckOutcome::FailureMismatch { unfused, fused } => {
                let show = |r: &Result<(), String>| match r {
                    Ok(()) => "results".to_owned(),
                    Err(e) => format!("error: {e}"),
                };
                write!(
                    f,
                    "MISMATCH under the interpreter: unfused gives {} but fused gives {}",
                    show(unfused),
                    show(fused)
                )
            }
        }
    }
}

/// The first result where `actual` differs from `expected`.
pub fn first_difference(expected: &[Value], actual: &[Value]) -> Option<usize> {
    (0..expected.len().max(actual.len())).find(|&i| match (expected.get(i), actual.get(i)) {
        (Some(x), Some(y)) => !x.approx_eq(y, FLOAT_TOLERANCE),
        _ => true,
    })
}

/// Checks `f` on `args`: the interpreter on the unfused (`reference`) and the fused program,
/// then (if both give results) the compiled unfused and fused programs. `fused` is `None`
/// when the fusion pipeline rejects the file: then the interpreter is compared with the
/// compiled unfused program alone ([`CheckOutcome::NotFused`], the reason from `fused_jit`).
pub fn check_function(
    f: &FunctionInfo,
    args: &[Value],
    reference: &Interpreter,
    fused: Option<&Interpreter>,
    unfused_jit: &mut FileJit,
    fused_jit: &mut FileJit,
) -> CheckOutcome {
    let started = Instant::now();
    let expected = reference.run(&f.name, args.to_vec());
    let interpreter_ms = started.elapsed().as_secs_f64() * 1000.0;
    let Some(fused) = fused else {
        return match expected {
            Err(e) => CheckOutcome::Undefined { error: e.to_string() },
            Ok(expected) => {
                let reason =
                    fused_jit.call(f, args).err().map_or_else(|| "the fusion pipeline fails".into(), |e| e.to_string());
                let mut timings = Timings { interpreter_ms, ..Timings::default() };
                let unfused = match unfused_jit.call(f, args) {
                    Err(JitFailure::NotCompiled(why)) => Err(why),
                    Err(JitFailure::CallFailed(error)) => {
                        return CheckOutcome::CallFailed { run: Run::UnfusedCompiled, error };
                    }
                    Ok((values, ms)) => {
                        timings.unfused_ms = Some(ms);
                        if let Some(index) = first_difference(&expected, &values) {
                            return CheckOutcome::Mismatch {
                                run: Run::UnfusedCompiled,
                                index,
                                expected: expected.get(index).cloned(),
                                actual: values.get(index).cloned(),
                            };
                        }
                        Ok(())
                    }
                };
                CheckOutcome::NotFused { reason, unfused, results: expected, timings }
            }
        };
    };
    let after = fused.run(&f.name, args.to_vec());
    let (expected, after) = match (expected, after) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), Err(g)) if std::mem::discriminant(&e) == std::mem::discriminant(&g) => {
            return CheckOutcome::BothFail { error: e.to_string() };
        }
        (a, b) => {
            let brief = |r: Result<Vec<Value>, InterpError>| r.map(|_| ()).map_err(|e| e.to_string());
            return CheckOutcome::FailureMismatch { unfused: brief(a), fused: brief(b) };
        }
    };
    let mismatch = |run: Run, actual: &[Value]| {
        first_difference(&expected, actual).map(|index| CheckOutcome::Mismatch {
            run,
            index,
            expected: expected.get(index).cloned(),
            actual: actual.get(index).cloned(),
        })
    };
    if let Some(m) = mismatch(Run::FusedInterpreter, &after) {
        return m;
    }
    let mut timings = Timings { interpreter_ms, ..Timings::default() };
    let unfused = unfused_jit.call(f, args);
    let fused = fused_jit.call(f, args);
    let mut reason = None;
    match &unfused {
        Ok((values, ms)) => {
            timings.unfused_ms = Some(*ms);
            if let Some(m) = mismatch(Run::UnfusedCompiled, values) {
                return m;
            }
        }
        Err(JitFailure::NotCompiled(r)) => reason = Some(format!("unfused: {r}")),
        Err(JitFailure::CallFailed(error)) => {
            return CheckOutcome::CallFailed { run: Run::UnfusedCompiled, error: error.clone() };
        }
    }
    match &fused {
        Ok((values, ms)) => {
            timings.fused_ms = Some(*ms);
            if let Some(m) = mismatch(Run::FusedCompiled, values) {
                return m;
            }
        }
        Err(JitFailure::NotCompiled(r)) => reason = reason.or_else(|| Some(format!("fused: {r}"))),
        Err(JitFailure::CallFailed(error)) => {
            return CheckOutcome::CallFailed { run: Run::FusedCompiled, error: error.clone() };
        }
    }
    match reason {
        Some(reason) => CheckOutcome::NotCompiled { reason, results: expected, timings },
        None => {
            let floats = expected.iter().any(|v| matches!(v.elem_type(), Some(ElemType::F32 | ElemType::F64)));
            CheckOutcome::Match { floats, results: expected, timings }
        }
    }
}

/// Loads `path` and puts it through the whole fusion pipeline (`array-fusion`), verified.
pub fn load_fused<'c>(context: &'c Context, path: &Path) -> Result<Module<'c>, String> {
    load_fused_with_diagnostics(context, path).map(|(module, _)| module)
}

/// [`load_fused`], with the diagnostics the passes emitted (warnings such as a size
/// equality checked at run time, remarks).
pub fn load_fused_with_diagnostics<'c>(context: &'c Context, path: &Path) -> Result<(Module<'c>, Vec<String>), String> {
    load_variant_with_diagnostics(context, path, Variant::Fused)
}

/// [`load_fused_with_diagnostics`] with the array passes of `variant`.
pub fn load_variant_with_diagnostics<'c>(
    context: &'c Context,
    path: &Path,
    variant: Variant,
) -> Result<(Module<'c>, Vec<String>), String> {
    let mut module = array_dialect::source::load_file(context, path)
        .map_err(|e| format!("{}: does not load: {e}", path.display()))?;
    let pipeline = format!("builtin.module({})", variant.prefix());
    let diagnostics = run_pipeline_with_diagnostics(context, &mut module, &pipeline)
        .map_err(|e| format!("{}: the fusion pipeline failed: {e}", path.display()))?;
    Ok((module, diagnostics))
}

/// Checks every public function with a body of the file (or just `only`) on the inputs
/// `args` gives, calling `report` with each function's inputs and outcome in file order.
/// Errs when the file does not load, `only` is not such a function, or `args` errs. A file
/// that the fusion pipeline rejects is checked without the fused runs
/// ([`CheckOutcome::NotFused`]).
pub fn check_file(
    path: &Path,
    only: Option<&str>,
    args: impl FnMut(&FunctionInfo) -> Result<Vec<Value>, String>,
    report: impl FnMut(&FunctionInfo, &[Value], &CheckOutcome),
) -> Result<(), String> {
    check_file_with_threads(path, only, Threads::Sequential, args, report)
}

/// [`check_file`] with the compiled programs' parallel loops run as `threads` says.
pub fn check_file_with_threads(
    path: &Path,
    only: Option<&str>,
    threads: Threads,
    mut args: impl FnMut(&FunctionInfo) -> Result<Vec<Value>, String>,
    mut report: impl FnMut(&FunctionInfo, &[Value], &CheckOutcome),
) -> Result<(), String> {
    fusion_passes::register_all_passes();
    let context = array_dialect::context();
    let module = array_dialect::source::load_file(&context, path)
        .map_err(|e| format!("{}: does not load: {e}", path.display()))?;
    let fused = load_fused(&context, path).ok();
    let reference = Interpreter::new(&module);
    let fused = fused.as_ref().map(Interpreter::new);
    let functions = runnable_functions(&reference, only).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut unfused_jit = FileJit::new(path, Variant::Unfused).with_threads(threads);
    let mut fused_jit = FileJit::new(path, Variant::Fused).with_threads(threads);
    for f in functions {
        let inputs = args(&f)?;
        let outcome = check_function(&f, &inputs, &reference, fused.as_ref(), &mut unfused_jit, &mut fused_jit);
        report(&f, &inputs, &outcome);
    }
    Ok(())
}

/// The functions a run covers: the public ones with a body, or just `only` (which must be
/// one of them).
pub fn runnable_functions(interpreter: &Interpreter, only: Option<&str>) -> Result<Vec<FunctionInfo>, String> {
    let all: Vec<FunctionInfo> = interpreter.functions().into_iter().filter(|f| f.public && f.defined).collect();
    match only {
        None => Ok(all),
        Some(name) => match all.into_iter().find(|f| f.name == name) {
            Some(f) => Ok(vec![f]),
            None => Err(match interpreter.function(name) {
                None => format!("there is no function @{name}"),
                Some(f) if !f.defined => format!("@{name} is a declaration without a body"),
                Some(_) => format!("@{name} is private"),
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::{generate_args, read_args, shipped_inputs};

    /// The issue's "done when": every function of every example runs on its inputs (the
    /// shipped ones, else generated) with a defined result, and nothing disagrees.
    #[test]
    fn every_example_function_matches() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
            .collect();
        files.sort();
        let mut checked = 0;
        for path in &files {
            let args = |f: &FunctionInfo| match shipped_inputs(path, &f.name) {
                Some(files) => read_args(&files, &f.inputs),
                None => Ok(generate_args(&f.inputs, 0, 16)),
            };
            check_file(path, None, args, |f, _, outcome| {
                // Issue 5's bar: every function runs compiled, unfused and fused, and all
                // agree; only the ill-sized programs (rejected by the fusion pipeline) are
                // compared unfused alone.
                assert!(
                    matches!(outcome, CheckOutcome::Match { .. } | CheckOutcome::NotFused { unfused: Ok(()), .. }),
                    "{} @{}: {outcome}",
                    path.display(),
                    f.name
                );
                checked += 1;
            })
            .unwrap();
        }
        assert!(checked >= 39, "only {checked} functions checked");
    }

    #[test]
    fn a_difference_is_a_mismatch_that_shows_both_values() {
        assert_eq!(first_difference(&[Value::i64(1)], &[Value::i64(1)]), None);
        assert_eq!(first_difference(&[Value::i64(1), Value::i64(2)], &[Value::i64(1), Value::i64(3)]), Some(1));
        assert_eq!(first_difference(&[Value::i64(1)], &[]), Some(0));
        // Floats to a relative 1e-9.
        assert_eq!(first_difference(&[Value::f64(1.0)], &[Value::f64(1.0 + 1e-12)]), None);
        assert_eq!(first_difference(&[Value::f64(1.0)], &[Value::f64(1.0 + 1e-6)]), Some(0));
        let m = CheckOutcome::Mismatch {
            run: Run::FusedCompiled,
            index: 0,
            expected: Some(Value::i64(1)),
            actual: Some(Value::i64(2)),
        };
        assert!(m.is_failure());
        let text = m.to_string();
        assert!(text.starts_with("MISMATCH in result #0: interpreter") && text.contains("vs fused compiled"), "{text}");
    }

    /// `compile_file(.., Some(f))` keeps the callees of `f` (transitively), made private.
    #[test]
    fn a_function_compiled_alone_keeps_its_callees() {
        let dir = std::env::temp_dir().join(format!("check-alone-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("calls.mlir");
        std::fs::write(
            &path,
            r#"
func.func @twice(%x: i64) -> i64 {
  %y = func.call @inc(%x) : (i64) -> i64
  %z = func.call @inc(%y) : (i64) -> i64
  return %z : i64
}
func.func @inc(%x: i64) -> i64 {
  %one = func.call @one() : () -> i64
  %y = arith.addi %x, %one : i64
  return %y : i64
}
func.func private @one() -> i64 {
  %c = arith.constant 1 : i64
  return %c : i64
}
func.func @other(%x: i64) -> i64 {
  return %x : i64
}
"#,
        )
        .unwrap();
        let compiled = crate::jit::compile_file(&path, Variant::Unfused, Some("twice")).unwrap();
        let i64t = fusion_interpreter::Type::Scalar(ElemType::Int(64));
        let (out, _) =
            compiled.call("twice", std::slice::from_ref(&i64t), std::slice::from_ref(&i64t), &[Value::i64(5)]).unwrap();
        assert!(out[0].bitwise_eq(&Value::i64(7)));
        // @inc is kept but private (no C interface); @other is gone.
        for name in ["inc", "other"] {
            let e = compiled.call(name, std::slice::from_ref(&i64t), std::slice::from_ref(&i64t), &[Value::i64(5)]);
            assert!(e.unwrap_err().contains("no compiled function"));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
