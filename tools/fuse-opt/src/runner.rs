//! `fuse-opt FILE --run [--check] [--seed=N] [--size=N]`: runs every public function of
//! the file on generated inputs with the reference interpreter and prints its outputs
//! (or a checksum for large ones). With `--check`, the program is also put through the
//! whole fusion pipeline (`array-fusion`) and run again on the same inputs; one line per
//! function says `match`, or gives the first difference and the exit code is 1.
//! Compiled execution (`fusion-codegen`) joins in: `--run` also prints the JIT-compiled
//! program's outputs and time, and `--check` compares the interpreter with the compiled
//! unfused and the compiled fused program (`@f: match (interpreter, unfused, fused)`), or
//! says `not compiled: <reason>` beside the interpreter-only comparison.

use fusion_codegen::{Compiled, Variant, compile_file};
use fusion_interpreter::{ElemType, FunctionInfo, InterpError, Interpreter, Type, Value};
use melior::{ir::operation::OperationLike, pass::PassManager, utility::parse_pass_pipeline};
use std::collections::HashMap;
use std::path::Path;

/// Relative (and absolute, near zero) tolerance for float results: fusion may
/// reassociate float reductions. Integers are compared exactly.
const FLOAT_TOLERANCE: f64 = 1e-9;

/// One compiled variant of the file: the whole module at once, or, if that fails, each
/// function alone (so one function that cannot be lowered yet spoils only itself).
struct Jit<'p> {
    path: &'p Path,
    variant: Variant,
    whole: Option<Result<Compiled, String>>,
    alone: HashMap<String, Result<Compiled, String>>,
}

impl<'p> Jit<'p> {
    fn new(path: &'p Path, variant: Variant) -> Self {
        Jit { path, variant, whole: None, alone: HashMap::new() }
    }

    /// Calls `f` compiled; the results and the time in ms, or why it is not compiled.
    fn call(&mut self, f: &FunctionInfo, args: &[Value]) -> Result<(Vec<Value>, f64), String> {
        let (path, variant) = (self.path, self.variant);
        let whole = self.whole.get_or_insert_with(|| compile_file(path, variant, None));
        let compiled = match whole {
            Ok(c) => c,
            Err(_) => {
                match self.alone.entry(f.name.clone()).or_insert_with(|| compile_file(path, variant, Some(&f.name))) {
                    Ok(c) => c,
                    Err(reason) => return Err(reason.clone()),
                }
            }
        };
        compiled.call(&f.name, &f.inputs, &f.results, args)
    }
}

/// Options of the runner, taken from the command line.
pub struct RunOptions {
    pub file: String,
    pub check: bool,
    pub seed: u64,
    pub size: usize,
}

/// Takes `--run`, `--check`, `--seed=N`, `--size=N` out of `args`; `None` without `--run`.
pub fn take_run_flags(args: &mut Vec<std::ffi::OsString>) -> Result<Option<RunOptions>, String> {
    let mut run = false;
    let mut check = false;
    let mut seed = 0u64;
    let mut size = 16usize;
    let mut rest = Vec::new();
    for a in args.drain(..) {
        let s = a.to_string_lossy().into_owned();
        let flag = s.trim_start_matches('-');
        if s.starts_with('-') && flag == "run" {
            run = true;
        } else if s.starts_with('-') && flag == "check" {
            check = true;
        } else if let Some(v) = flag.strip_prefix("seed=").filter(|_| s.starts_with('-')) {
            seed = v.parse().map_err(|_| format!("--seed: '{v}' is not a number"))?;
        } else if let Some(v) = flag.strip_prefix("size=").filter(|_| s.starts_with('-')) {
            size = v.parse().ok().filter(|n| *n > 0).ok_or(format!("--size: '{v}' is not a positive number"))?;
        } else {
            rest.push(a);
        }
    }
    if !run {
        if check {
            return Err("--check needs --run".into());
        }
        *args = rest;
        return Ok(None);
    }
    let files: Vec<String> =
        rest.iter().skip(1).map(|a| a.to_string_lossy().into_owned()).filter(|a| !a.starts_with('-')).collect();
    if files.len() != 1 {
        return Err("--run takes exactly one input file (and no other options)".into());
    }
    Ok(Some(RunOptions { file: files[0].clone(), check, seed, size }))
}

/// SplitMix64, so that `--seed` gives the same inputs everywhere.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A generated value of type `t`: dynamic extents are `size`; integers in -8..8, `index`
/// elements in bounds (0..size), floats in [-4, 4).
fn generate(t: &Type, size: usize, rng: &mut Rng) -> Value {
    let mut element = |e: ElemType| -> Value {
        let r = rng.next();
        match e {
            ElemType::Int(1) => Value::i1(r.is_multiple_of(2)),
            ElemType::Int(w) => Value::int(w, (r % 16) as i64 - 8),
            ElemType::Index => Value::Index((r % size as u64) as i64),
            ElemType::F32 => Value::F32(((r % 64) as f32 - 32.0) / 8.0),
            ElemType::F64 => Value::F64(((r % 64) as f64 - 32.0) / 8.0),
            ElemType::Complex32 | ElemType::Complex64 => Value::complex((r % 8) as f64, ((r >> 8) % 8) as f64),
            ElemType::Opaque => Value::Opaque(0),
        }
    };
    match t {
        Type::Scalar(ElemType::Index) => Value::Index(size as i64),
        Type::Scalar(e) => element(*e),
        Type::Tensor { elem, shape } => {
            let shape: Vec<usize> = shape.iter().map(|d| d.unwrap_or(size)).collect();
            let n: usize = shape.iter().product();
            let elements = (0..n).map(|_| element(*elem)).collect();
            Value::tensor(*elem, shape, elements)
        }
        Type::Other(_) => Value::Opaque(0),
    }
}

/// A value as text: in full when small, else its shape and an order-sensitive checksum.
fn show(v: &Value) -> String {
    let text = v.to_string();
    if text.len() <= 200 {
        return text;
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    let shape = v.as_tensor().map(|t| format!("{:?}", t.shape)).unwrap_or_default();
    format!("<{} shape {shape} checksum {h:016x}>", v.elem_type().map(|e| e.to_string()).unwrap_or_default())
}

/// Runs the file; returns the process exit code.
pub fn run(options: &RunOptions) -> i32 {
    fusion_passes::register_all_passes();
    let context = array_dialect::context();
    let module = match array_dialect::source::load_file(&context, Path::new(&options.file)) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let fused = if options.check {
        let mut fused = match array_dialect::source::load_file(&context, Path::new(&options.file)) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        };
        let pm = PassManager::new(&context);
        if parse_pass_pipeline(pm.as_operation_pass_manager(), "builtin.module(func.func(array-fusion))").is_err()
            || pm.run(&mut fused).is_err()
            || !fused.as_operation().verify()
        {
            eprintln!("{}: error: the fusion pipeline failed (see the diagnostics above)", options.file);
            return 1;
        }
        Some(fused)
    } else {
        None
    };
    let interpreter = Interpreter::new(&module);
    let fused_interpreter = fused.as_ref().map(Interpreter::new);
    let path = Path::new(&options.file);
    let mut unfused_jit = Jit::new(path, Variant::Unfused);
    let mut fused_jit = Jit::new(path, Variant::Fused);
    let mut failed = false;
    for f in interpreter.functions().into_iter().filter(|f| f.public && f.defined) {
        let mut rng = Rng(options.seed ^ 0x5EED);
        let args: Vec<Value> = f.inputs.iter().map(|t| generate(t, options.size, &mut rng)).collect();
        let started = std::time::Instant::now();
        let reference = interpreter.run(&f.name, args.clone());
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        match &fused_interpreter {
            None => match reference {
                Ok(values) => {
                    let shown: Vec<String> = values.iter().map(show).collect();
                    println!("@{}: {} ({ms:.2} ms, interpreter)", f.name, shown.join(", "));
                    match unfused_jit.call(&f, &args) {
                        Ok((values, ms)) => {
                            let shown: Vec<String> = values.iter().map(show).collect();
                            println!("@{}: {} ({ms:.2} ms, compiled)", f.name, shown.join(", "));
                        }
                        Err(reason) => println!("@{}: not compiled: {reason}", f.name),
                    }
                }
                Err(e) => {
                    println!("@{}: error: {e}", f.name);
                    failed |= !matches!(e, InterpError::External(_));
                }
            },
            Some(other) => {
                let after = other.run(&f.name, args.clone());
                match (&reference, &after) {
                    (Ok(a), Ok(b)) => {
                        // Compiled code runs only on inputs the interpreter accepts (else
                        // it could hit undefined behaviour).
                        let unfused = unfused_jit.call(&f, &args);
                        let fused = fused_jit.call(&f, &args);
                        let mut runs: Vec<(&str, &Vec<Value>)> = vec![("fused under the interpreter", b)];
                        let reason = match (&unfused, &fused) {
                            (Ok((u, _)), Ok((v, _))) => {
                                runs.push(("unfused compiled", u));
                                runs.push(("fused compiled", v));
                                None
                            }
                            (Err(r), _) => Some(format!("unfused: {r}")),
                            (_, Err(r)) => Some(format!("fused: {r}")),
                        };
                        let mismatch = runs.iter().find_map(|(label, values)| {
                            let i = (0..a.len().max(values.len())).find(|&i| match (a.get(i), values.get(i)) {
                                (Some(x), Some(y)) => !x.approx_eq(y, FLOAT_TOLERANCE),
                                _ => true,
                            })?;
                            Some((*label, *values, i))
                        });
                        match (mismatch, reason) {
                            (Some((label, values, i)), _) => {
                                println!(
                                    "@{}: MISMATCH in result #{i}: interpreter {} vs {label} {}",
                                    f.name,
                                    a.get(i).map(show).unwrap_or_default(),
                                    values.get(i).map(show).unwrap_or_default()
                                );
                                failed = true;
                            }
                            (None, Some(reason)) => println!(
                                "@{}: match (interpreter, fused under the interpreter); not compiled: {reason}",
                                f.name
                            ),
                            (None, None) => {
                                let floats =
                                    a.iter().any(|v| matches!(v.elem_type(), Some(ElemType::F32 | ElemType::F64)));
                                let note = if floats { "; floats to relative 1e-9" } else { "" };
                                println!("@{}: match (interpreter, unfused, fused{note})", f.name)
                            }
                        }
                    }
                    (Err(e), Err(g)) if std::mem::discriminant(e) == std::mem::discriminant(g) => {
                        println!("@{}: match (both fail under the interpreter: {e}; compiled code not run)", f.name)
                    }
                    _ => {
                        println!(
                            "@{}: MISMATCH: unfused {:?} vs fused {:?}",
                            f.name,
                            reference.as_ref().err(),
                            after.as_ref().err()
                        );
                        failed = true;
                    }
                }
            }
        }
    }
    i32::from(failed)
}
