//! Inputs of a function run: generated from a seed ([`Rng`], [`generate`], [`generate_args`]),
//! or read from `.npy` files ([`read_args`]), including the files shipped beside a program
//! ([`shipped_inputs`]).
//!
//! Generated values: dynamic extents are `size` (0 included: empty arrays); integers in
//! -8..8, `index` elements in bounds (0..size), an `index` scalar is `size` itself, floats
//! in [-4, 4) (multiples of 1/8, so sums are exact), `i1` fair coins. The same seed gives the same inputs everywhere
//! (SplitMix64). Functions whose inputs have a structure that random values do not have (a
//! graph in CSR form, indices that must be in range, the state of a loop) take inputs from
//! files instead: see [`shipped_inputs`].

use crate::npy;
use fusion_analysis::rng::SplitMix64;
use fusion_interpreter::{ElemType, Type, Value};
use std::path::{Path, PathBuf};

/// The input generator ([`SplitMix64`]), so that a seed gives the same inputs everywhere.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// The generator of the runs of `seed` (the same for every function of a file).
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::from_state(seed ^ 0x5EED))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// A generated value of type `t` (see the module header for the ranges).
pub fn generate(t: &Type, size: usize, rng: &mut Rng) -> Value {
    // With size 0 no index is in bounds (arrays of dynamic extent are empty); 0 is the
    // value an index element of a static-shaped array then gets.
    let index_bound = size.max(1) as u64;
    let mut element = |e: ElemType| -> Value {
        let r = rng.next_u64();
        match e {
            ElemType::Int(1) => Value::i1(r.is_multiple_of(2)),
            ElemType::Int(w) => Value::int(w, (r % 16) as i64 - 8),
            ElemType::Index => Value::Index((r % index_bound) as i64),
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

/// The most elements [`check_generated_size`] lets the generated arguments of one call have
/// (each is an interpreter value of a few dozen bytes).
pub const MAX_GENERATED_ELEMENTS: usize = 1 << 28;

/// Whether arguments of types `inputs` generated with dynamic extents `size` stay within
/// [`MAX_GENERATED_ELEMENTS`] in all; the error names the argument that crosses it. `size`
/// applies to every dynamic dimension, so a matrix argument has `size²` elements.
pub fn check_generated_size(inputs: &[Type], size: usize) -> Result<(), String> {
    let mut total: usize = 0;
    for (i, t) in inputs.iter().enumerate() {
        let Type::Tensor { shape, elem } = t else { continue };
        let elements = shape.iter().try_fold(1usize, |n, d| n.checked_mul(d.unwrap_or(size)));
        total = match elements.and_then(|e| total.checked_add(e)) {
            Some(t) if t <= MAX_GENERATED_ELEMENTS => t,
            _ => {
                let count = elements.map(|e| e.to_string()).unwrap_or_else(|| "more than 2^64".into());
                return Err(format!(
                    "argument {i} (tensor<{}{elem}>) would have {count} elements at size {size} (every dynamic dimension gets the size), and the generated arguments are limited to {MAX_GENERATED_ELEMENTS} elements in all: give a smaller --size",
                    shape.iter().map(|d| d.map_or("?x".to_string(), |d| format!("{d}x"))).collect::<String>()
                ));
            }
        };
    }
    Ok(())
}

/// The generated arguments of a function with argument types `inputs`: each function of a
/// file starts from the same [`Rng::new`]`(seed)`.
pub fn generate_args(inputs: &[Type], seed: u64, size: usize) -> Vec<Value> {
    let mut rng = Rng::new(seed);
    inputs.iter().map(|t| generate(t, size, &mut rng)).collect()
}

/// Reads one argument per file (the i-th file is argument i) and checks each against the
/// function's argument type; errors name the file.
pub fn read_args(files: &[PathBuf], inputs: &[Type]) -> Result<Vec<Value>, String> {
    if files.len() != inputs.len() {
        return Err(format!(
            "the function takes {} arguments, but {} input files are given",
            inputs.len(),
            files.len()
        ));
    }
    files.iter().zip(inputs).map(|(file, t)| npy::read_value(file, t)).collect()
}

/// The input files shipped for `function` of the program `file`, if there are any:
/// `<dir of file>/inputs/<file stem>/<function>.<i>.npy` for i = 0, 1, ... (argument i; a
/// function without arguments has none, so it never has shipped inputs). `None` when
/// there is no `.0.npy` file.
pub fn shipped_inputs(file: &Path, function: &str) -> Option<Vec<PathBuf>> {
    let stem = file.file_stem()?.to_str()?;
    let dir = file.parent().unwrap_or(Path::new("")).join("inputs").join(stem);
    let files: Vec<PathBuf> =
        (0..).map(|i| dir.join(format!("{function}.{i}.npy"))).take_while(|p| p.is_file()).collect();
    if files.is_empty() { None } else { Some(files) }
}

/// A value as text: in full when short, else its type, shape and an order-sensitive
/// checksum (FNV-1a of its text).
pub fn show(v: &Value) -> String {
    let text = v.to_string();
    if text.len() <= 200 {
        return text;
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    let shape = v.as_tensor().map(|t| format!("{:?}", t.shape)).unwrap_or_default();
    let elem = v.as_tensor().map(|t| t.elem).or_else(|| v.elem_type()).map(|e| e.to_string()).unwrap_or_default();
    format!("<{elem} shape {shape} checksum {h:016x}>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_inputs() {
        let t = [Type::Tensor { elem: ElemType::Int(64), shape: vec![None] }, Type::Scalar(ElemType::F32)];
        let a = generate_args(&t, 7, 5);
        let b = generate_args(&t, 7, 5);
        assert_eq!(a.len(), 2);
        assert!(a.iter().zip(&b).all(|(x, y)| x.bitwise_eq(y)));
        assert_eq!(a[0].as_tensor().unwrap().shape, vec![5]);
        let c = generate_args(&t, 8, 5);
        assert!(!a[0].bitwise_eq(&c[0]));
    }

    /// A long value is shown as its element type, shape and checksum.
    #[test]
    fn long_values_show_type_shape_and_checksum() {
        let t = Type::Tensor { elem: ElemType::F64, shape: vec![None] };
        let shown = show(&generate(&t, 100, &mut Rng::new(3)));
        assert!(shown.starts_with("<f64 shape [100] checksum "), "{shown}");
    }

    #[test]
    fn index_elements_in_bounds() {
        let t = Type::Tensor { elem: ElemType::Index, shape: vec![None, Some(3)] };
        let v = generate(&t, 4, &mut Rng::new(1));
        let t = v.as_tensor().unwrap();
        assert_eq!(t.shape, vec![4, 3]);
        assert!(t.to_i64_vec().unwrap().iter().all(|&i| (0..4).contains(&i)));
    }
}
