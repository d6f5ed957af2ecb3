//! One function compiled unfused and fused, called side by side on the same raw inputs:
//! generated deterministically ([`fusion_codegen::inputs::generate`], converted to raw
//! buffers one argument at a time), passed as fresh copies to every call (compiled code may
//! write into its arguments), timed call by call (the call alone, after JIT compilation),
//! the two variants interleaved so that both see the same machine state.

use fusion_codegen::check::FLOAT_TOLERANCE;
use fusion_codegen::inputs::{Rng, generate};
use fusion_codegen::raw::{self, Arg, Buffer, Output, RawCompiled};
use fusion_codegen::{Threads, Variant};
use fusion_interpreter::{ElemType, FunctionInfo, Type, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The median of `xs` (the mean of the middle two for an even count); NaN when empty.
pub fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(f64::total_cmp);
    let m = xs.len() / 2;
    if xs.len() % 2 == 1 { xs[m] } else { (xs[m - 1] + xs[m]) / 2.0 }
}

/// The extent of every dynamic dimension for about `n` elements per argument: `n^(1/r)`
/// for the highest rank `r` of an argument with a dynamic dimension (an `index` scalar, a
/// size, counts as rank 1); `None` when no argument has one (static shapes).
pub fn extent(f: &FunctionInfo, n: usize) -> Option<usize> {
    let dynamic_rank = f
        .inputs
        .iter()
        .filter_map(|t| match t {
            Type::Tensor { shape, .. } if shape.iter().any(Option::is_none) => Some(shape.len()),
            Type::Scalar(ElemType::Index) => Some(1),
            _ => None,
        })
        .max()?;
    Some((n as f64).powf(1.0 / dynamic_rank as f64).round().max(1.0) as usize)
}

/// The interpreter's pre-check of a function before it is timed. It runs on generated
/// inputs at two small extents, which must succeed, and the largest array it makes
/// (intermediates included) is extrapolated to `extent` along the growth seen between
/// the two: an expand's output grows with its counts, which no size estimate of the
/// analysis knows. The extents give about [`PRECHECK_ELEMENTS`] elements and half as many
/// per dimension (at least 64 and 32), so that constant-size arrays do not hide the
/// growth and the interpreter stays quick. `Err` says why the function is not timed: its
/// inputs fail under the interpreter, or an array would exceed `limit_bytes` at `extent`
/// (8 bytes an element).
pub fn precheck(
    interpreter: &fusion_interpreter::Interpreter,
    f: &FunctionInfo,
    seed: u64,
    extent: usize,
    limit_bytes: f64,
) -> Result<(), String> {
    let large_probe = self::extent(f, PRECHECK_ELEMENTS).unwrap_or(64).max(64);
    let small_probe = large_probe / 2;
    let largest = |at: usize| {
        interpreter
            .run_measuring(&f.name, fusion_codegen::inputs::generate_args(&f.inputs, seed, at))
            .map(|(_, largest)| largest.max(1) as f64)
            .map_err(|e| format!("inputs fail under the interpreter: {e}"))
    };
    let (small, large) = (largest(small_probe)?, largest(large_probe)?);
    // Elements ∝ extent^k: k from the doubling, at least 1 when the array grew at all (an
    // array that grows, grows at least linearly), at most 3.
    let k = if large > small { (large / small).log2().clamp(1.0, 3.0) } else { 0.0 };
    let predicted = large * (extent as f64 / large_probe as f64).max(1.0).powf(k);
    if predicted * 8.0 > limit_bytes {
        return Err(format!(
            "arrays too large at this extent (one of about {predicted:.1e} elements, {:.0} GB, extrapolated from the interpreter's runs at extents {small_probe} and {large_probe})",
            predicted * 8.0 / 1e9
        ));
    }
    Ok(())
}

/// About how many elements the larger run of [`precheck`] gives a function's inputs.
pub const PRECHECK_ELEMENTS: usize = 512;

/// An argument of a run.
pub enum Input {
    Scalar(Value),
    Tensor(Buffer),
}

/// The arguments `inputs::generate_args(inputs, seed, extent)` would give, as raw buffers.
pub fn generate_inputs(inputs: &[Type], seed: u64, extent: usize) -> Result<Vec<Input>, String> {
    let mut rng = Rng::new(seed);
    inputs
        .iter()
        .map(|t| {
            let v = generate(t, extent, &mut rng);
            match t {
                Type::Tensor { .. } => Buffer::from_value(&v).map(Input::Tensor),
                _ => Ok(Input::Scalar(v)),
            }
        })
        .collect()
}

/// Input copies from this size on are advised for huge pages, as the compiled program's
/// own buffers are (`fusion_passes::huge_pages::DEFAULT_MIN_BYTES`) and as NumPy's arrays,
/// which `scripts/xla-bench` gives XLA, are: a random gather then finds its source backed
/// the same way whether the source is an input (fused) or a computed array (unfused).
const HUGE_PAGE_MIN_BYTES: usize = 4 << 20;

/// Calls `f` compiled on fresh copies of `inputs`: its results and the time of the call.
pub fn call(compiled: &RawCompiled, f: &FunctionInfo, inputs: &[Input]) -> Result<(Vec<Output>, f64), String> {
    let mut copies: Vec<Buffer> = inputs
        .iter()
        .filter_map(|i| match i {
            Input::Tensor(b) => Some(b.copy_on_huge_pages(HUGE_PAGE_MIN_BYTES)),
            Input::Scalar(_) => None,
        })
        .collect();
    let mut copies = copies.iter_mut();
    let mut args: Vec<Arg> = inputs
        .iter()
        .map(|i| match i {
            Input::Scalar(v) => Arg::Scalar(v.clone()),
            Input::Tensor(_) => Arg::Tensor(copies.next().expect("one copy per tensor")),
        })
        .collect();
    compiled.call(&f.name, &f.inputs, &f.results, &mut args)
}

/// The time of a call of `compiled` made right after an untimed call of the same program:
/// the timed call finds the heap and the caches as this program leaves them, not as the
/// program called before it did. Without it, interleaved variants are timed unequally: on
/// the V-cycle the variant called right after the unfused program (which allocates many
/// more arrays) measured about 20 % slower, whichever variant it was.
pub fn settled_call(compiled: &RawCompiled, f: &FunctionInfo, inputs: &[Input]) -> Result<f64, String> {
    call(compiled, f, inputs)?;
    Ok(call(compiled, f, inputs)?.1)
}

/// Whether two elements agree: equal, within [`FLOAT_TOLERANCE`] when both are finite
/// (relative, absolute below 1), or both NaN, as in `fuse-opt --check` (Black–Scholes on random prices takes the
/// logarithm of negative ones).
fn floats_agree(x: f64, y: f64) -> bool {
    // Infinities agree only with themselves (the relative tolerance of an infinity is
    // infinite).
    x == y
        || (x.is_nan() && y.is_nan())
        || (x.is_finite() && y.is_finite() && (x - y).abs() <= FLOAT_TOLERANCE * x.abs().max(y.abs()).max(1.0))
}

/// Whether two runs' results agree (integers exactly, floats to [`FLOAT_TOLERANCE`]).
pub fn agree(a: &[Output], b: &[Output]) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} vs {} results", a.len(), b.len()));
    }
    let close = floats_agree;
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        match (x, y) {
            (Output::Scalar(x), Output::Scalar(y)) if x.approx_eq(y, FLOAT_TOLERANCE) => {}
            (Output::Tensor(x), Output::Tensor(y)) if x.shape == y.shape => {
                let (x, y) = (x.to_buffer().to_f64s(), y.to_buffer().to_f64s());
                if let Some(k) = (0..x.len()).find(|&k| !close(x[k], y[k])) {
                    return Err(format!("result #{i} differs at element {k}: {} vs {}", x[k], y[k]));
                }
            }
            _ => return Err(format!("result #{i} differs")),
        }
    }
    Ok(())
}

/// Unfused against fused on the same inputs.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Median times of the calls, in ms.
    pub unfused_ms: f64,
    pub fused_ms: f64,
    /// The fused program on several threads (OpenMP), when one was given.
    pub threaded_ms: Option<f64>,
    /// Whether the variants' results agree.
    pub agree: Result<(), String>,
}

/// One warm-up call of each variant (its results compared with the unfused one's), then
/// `reps` rounds of a [`settled_call`] of each, interleaved; results are dropped (freed) as
/// soon as they are timed. `threaded`: the fused program compiled for several threads, timed too.
pub fn compare(
    unfused: &RawCompiled,
    fused: &RawCompiled,
    threaded: Option<&RawCompiled>,
    f: &FunctionInfo,
    inputs: &[Input],
    reps: usize,
) -> Result<Comparison, String> {
    let agreement = {
        let (u, _) = call(unfused, f, inputs).map_err(|e| format!("unfused: {e}"))?;
        let (v, _) = call(fused, f, inputs).map_err(|e| format!("fused: {e}"))?;
        let threads = match threaded {
            Some(t) => {
                let (w, _) = call(t, f, inputs).map_err(|e| format!("fused on threads: {e}"))?;
                agree(&u, &w).map_err(|e| format!("fused on threads: {e}"))
            }
            None => Ok(()),
        };
        agree(&u, &v).and(threads)
    };
    let (mut us, mut fs, mut ts) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..reps.max(1) {
        us.push(settled_call(unfused, f, inputs)?);
        fs.push(settled_call(fused, f, inputs)?);
        if let Some(t) = threaded {
            ts.push(settled_call(t, f, inputs)?);
        }
    }
    let threaded_ms = threaded.map(|_| median(&mut ts));
    Ok(Comparison { unfused_ms: median(&mut us), fused_ms: median(&mut fs), threaded_ms, agree: agreement })
}

/// The `.mlir` files under each of `roots` (a file, or a folder searched recursively), in
/// order; the error names the root that cannot be read.
pub fn mlir_files_under(roots: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for root in roots {
        files.extend(array_dialect::source::mlir_files(root).map_err(|e| format!("{}: {e}", root.display()))?);
    }
    Ok(files)
}

/// A compiled variant of a file: the whole module, or each function alone.
pub struct FileRaw {
    path: PathBuf,
    variant: Variant,
    threads: Threads,
    whole: Option<Result<raw::RawCompiled, String>>,
    alone: HashMap<String, Result<raw::RawCompiled, String>>,
}

impl FileRaw {
    pub fn new(path: &Path, variant: Variant, threads: Threads) -> Self {
        FileRaw { path: path.to_owned(), variant, threads, whole: None, alone: HashMap::new() }
    }

    /// `name` compiled: from the whole file, or from the function alone when the whole
    /// file does not compile (one failing function does not take the others with it).
    pub fn get(&mut self, name: &str) -> Result<&raw::RawCompiled, String> {
        let (path, variant, threads) = (&self.path, self.variant, self.threads);
        match self.whole.get_or_insert_with(|| raw::compile_file_with(path, variant, None, threads)) {
            Ok(c) => Ok(c),
            Err(_) => self
                .alone
                .entry(name.to_owned())
                .or_insert_with(|| raw::compile_file_with(path, variant, Some(name), threads))
                .as_ref()
                .map_err(|e| e.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fusion_codegen::Variant;
    use fusion_interpreter::Interpreter;
    use std::path::Path;

    #[test]
    fn floats_agree_within_the_tolerance_and_nan_with_nan() {
        assert!(floats_agree(1.0, 1.0 + FLOAT_TOLERANCE / 2.0));
        assert!(!floats_agree(1.0, 1.0 + 10.0 * FLOAT_TOLERANCE));
        assert!(floats_agree(f64::NAN, f64::NAN));
        assert!(!floats_agree(f64::NAN, 0.0) && !floats_agree(0.0, f64::NAN));
        assert!(floats_agree(f64::INFINITY, f64::INFINITY) && !floats_agree(f64::INFINITY, f64::NEG_INFINITY));
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    /// The raw path gives what `Compiled::call` (and the interpreter) give, for every
    /// function of the file, unfused and fused.
    #[test]
    fn raw_calls_match_value_calls() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/seed000_intro.mlir");
        fusion_passes::register_all_passes();
        let context = array_dialect::context();
        let module = array_dialect::source::load_file(&context, &path).unwrap();
        let interpreter = Interpreter::new(&module);
        for variant in [Variant::Unfused, Variant::Fused] {
            let compiled = fusion_codegen::compile_file(&path, variant, None).unwrap();
            let raw = fusion_codegen::raw::compile_file(&path, variant, None).unwrap();
            for f in interpreter.functions().into_iter().filter(|f| f.public && f.defined) {
                let args = fusion_codegen::inputs::generate_args(&f.inputs, 3, 37);
                let (expected, _) = compiled.call(&f.name, &f.inputs, &f.results, &args).unwrap();
                let inputs = generate_inputs(&f.inputs, 3, 37).unwrap();
                let (outputs, _) = call(&raw, &f, &inputs).unwrap();
                let actual: Vec<Value> = outputs.iter().map(Output::to_value).collect();
                assert_eq!(expected.len(), actual.len(), "@{}", f.name);
                for (e, a) in expected.iter().zip(&actual) {
                    assert!(e.bitwise_eq(a), "@{} ({variant:?}): {e} vs {a}", f.name);
                }
                for o in &outputs {
                    if let Output::Tensor(t) = o {
                        assert!(t.is_owned(), "a result aliases an argument");
                        assert_eq!(t.elem, ElemType::Int(64));
                    }
                }
            }
        }
    }

    /// A function returning one array twice: the deallocation pipeline hands over one
    /// allocation for both results (the ABI does not keep results apart), so both are owned
    /// through one shared allocation and it is freed once (a double free would abort).
    #[test]
    fn one_allocation_returned_twice_is_freed_once() {
        let source = "func.func @f(%a: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {\n\
                      %m = array.map %a : tensor<?xf64> -> tensor<?xf64> {\n\
                      ^bb0(%x: f64):\n\
                      %y = arith.addf %x, %x : f64\n\
                      array.yield %y : f64\n\
                      }\n\
                      return %m, %m : tensor<?xf64>, tensor<?xf64>\n}\n";
        let path = std::env::temp_dir().join(format!("fusion-bench-twice-{}.mlir", std::process::id()));
        std::fs::write(&path, source).unwrap();
        let raw = fusion_codegen::raw::compile_file(&path, Variant::Unfused, None);
        let _ = std::fs::remove_file(&path);
        let raw = raw.unwrap();
        let vector = Type::Tensor { elem: ElemType::F64, shape: vec![None] };
        let mut buffer = Buffer::from_value(&Value::vector_f64(&[0.5, 1.5, 2.5])).unwrap();
        for _ in 0..3 {
            let results = [vector.clone(), vector.clone()];
            let (out, _) =
                raw.call("f", std::slice::from_ref(&vector), &results, &mut [Arg::Tensor(&mut buffer)]).unwrap();
            let expected = Value::vector_f64(&[1.0, 3.0, 5.0]);
            assert!(out.iter().all(|o| o.to_value().bitwise_eq(&expected)));
            assert!(out.iter().all(|o| matches!(o, Output::Tensor(t) if t.is_owned())));
            drop(out);
        }
        assert!(buffer.to_value().bitwise_eq(&Value::vector_f64(&[0.5, 1.5, 2.5])), "the argument is untouched");
    }
}
