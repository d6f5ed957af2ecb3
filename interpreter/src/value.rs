//! Runtime values: scalars of the builtin types the examples use, and row-major tensors.

use std::{fmt, sync::Arc};

/// The element type of a tensor (and the type of a scalar value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// A signless integer `iN`, 1 <= N <= 64.
    Int(u32),
    /// `index` (64 bits, as MLIR's arith folders and the LLVM lowering on 64-bit hosts).
    Index,
    F32,
    F64,
    /// `complex<f32>`: stored as [`Value::Complex`] with both parts rounded to f32.
    Complex32,
    /// `complex<f64>`.
    Complex64,
    /// A type the interpreter does not model (e.g. `!llvm.ptr`); only externals make such
    /// values ([`Value::Opaque`]), and the interpreter passes them around untouched.
    Opaque,
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElemType::Int(w) => write!(f, "i{w}"),
            ElemType::Index => write!(f, "index"),
            ElemType::F32 => write!(f, "f32"),
            ElemType::F64 => write!(f, "f64"),
            ElemType::Complex32 => write!(f, "complex<f32>"),
            ElemType::Complex64 => write!(f, "complex<f64>"),
            ElemType::Opaque => write!(f, "opaque"),
        }
    }
}

/// A value of the interpreted program.
///
/// Integers keep their width and are stored as the zero-extended bit pattern (`bits` has no
/// bit set at or above `width`); arithmetic is two's complement and wraps around as MLIR's
/// `arith` dialect defines. Tensors are shared (`Arc`), so copying a value is cheap.
#[derive(Clone)]
pub enum Value {
    /// A signless integer `iN` (1 <= N <= 64); `i1` is a boolean (`bits` 0 or 1).
    Int {
        width: u32,
        bits: u64,
    },
    /// An `index` value.
    Index(i64),
    F32(f32),
    F64(f64),
    /// A `complex<f64>` (or `complex<f32>` with parts of f32 precision).
    Complex {
        re: f64,
        im: f64,
    },
    /// A ranked tensor (an array of the `array` dialect).
    Tensor(Arc<Tensor>),
    /// A value of a type the interpreter does not model, made by an external.
    Opaque(u64),
}

/// A ranked tensor: its element type, shape and elements in row-major order.
#[derive(Clone, PartialEq)]
pub struct Tensor {
    pub elem: ElemType,
    pub shape: Vec<usize>,
    pub elements: Vec<Value>,
}

pub(crate) fn mask(width: u32) -> u64 {
    if width >= 64 { u64::MAX } else { (1u64 << width) - 1 }
}

/// The signed value of the low `width` bits of `bits`.
pub(crate) fn sext(bits: u64, width: u32) -> i64 {
    if width >= 64 { bits as i64 } else { ((bits << (64 - width)) as i64) >> (64 - width) }
}

impl Value {
    /// An `iN` value from its signed (or unsigned) value; the low `width` bits are kept.
    pub fn int(width: u32, value: i64) -> Value {
        assert!((1..=64).contains(&width), "integer widths 1..=64 are supported, not {width}");
        Value::Int { width, bits: (value as u64) & mask(width) }
    }
    pub fn i1(value: bool) -> Value {
        Value::Int { width: 1, bits: value as u64 }
    }
    pub fn bool(value: bool) -> Value {
        Value::i1(value)
    }
    pub fn i8(value: i8) -> Value {
        Value::int(8, value as i64)
    }
    pub fn i16(value: i16) -> Value {
        Value::int(16, value as i64)
    }
    pub fn i32(value: i32) -> Value {
        Value::int(32, value as i64)
    }
    pub fn i64(value: i64) -> Value {
        Value::int(64, value)
    }
    pub fn index(value: i64) -> Value {
        Value::Index(value)
    }
    pub fn f32(value: f32) -> Value {
        Value::F32(value)
    }
    pub fn f64(value: f64) -> Value {
        Value::F64(value)
    }
    pub fn complex(re: f64, im: f64) -> Value {
        Value::Complex { re, im }
    }

    /// A tensor value. Panics when the number of elements is not the product of `shape` or
    /// an element does not have type `elem` (a caller's mistake in building inputs).
    pub fn tensor(elem: ElemType, shape: Vec<usize>, elements: Vec<Value>) -> Value {
        let tensor = Tensor::new(elem, shape, elements).unwrap_or_else(|e| panic!("Value::tensor: {e}"));
        Value::Tensor(Arc::new(tensor))
    }
    /// A rank-0 tensor holding `value` (what a fold of a vector returns).
    pub fn scalar_tensor(value: Value) -> Value {
        let elem = value.elem_type().expect("a scalar");
        Value::tensor(elem, vec![], vec![value])
    }
    pub fn vector(elem: ElemType, elements: Vec<Value>) -> Value {
        let n = elements.len();
        Value::tensor(elem, vec![n], elements)
    }
    pub fn vector_i64(values: &[i64]) -> Value {
        Value::vector(ElemType::Int(64), values.iter().map(|&v| Value::i64(v)).collect())
    }
    pub fn vector_i32(values: &[i32]) -> Value {
        Value::vector(ElemType::Int(32), values.iter().map(|&v| Value::i32(v)).collect())
    }
    pub fn vector_i1(values: &[bool]) -> Value {
        Value::vector(ElemType::Int(1), values.iter().map(|&v| Value::i1(v)).collect())
    }
    pub fn vector_index(values: &[i64]) -> Value {
        Value::vector(ElemType::Index, values.iter().map(|&v| Value::Index(v)).collect())
    }
    pub fn vector_f32(values: &[f32]) -> Value {
        Value::vector(ElemType::F32, values.iter().map(|&v| Value::F32(v)).collect())
    }
    pub fn vector_f64(values: &[f64]) -> Value {
        Value::vector(ElemType::F64, values.iter().map(|&v| Value::F64(v)).collect())
    }
    pub fn vector_complex(values: &[(f64, f64)]) -> Value {
        Value::vector(ElemType::Complex64, values.iter().map(|&(re, im)| Value::complex(re, im)).collect())
    }
    /// A row-major `rows x cols` matrix of i64.
    pub fn matrix_i64(rows: usize, cols: usize, values: &[i64]) -> Value {
        Value::tensor(ElemType::Int(64), vec![rows, cols], values.iter().map(|&v| Value::i64(v)).collect())
    }

    /// The type of a scalar (`None` for tensors).
    pub fn elem_type(&self) -> Option<ElemType> {
        match self {
            Value::Int { width, .. } => Some(ElemType::Int(*width)),
            Value::Index(_) => Some(ElemType::Index),
            Value::F32(_) => Some(ElemType::F32),
            Value::F64(_) => Some(ElemType::F64),
            Value::Complex { .. } => Some(ElemType::Complex64),
            Value::Opaque(_) => Some(ElemType::Opaque),
            Value::Tensor(_) => None,
        }
    }

    /// Whether this scalar may be an element of type `elem`.
    pub fn has_type(&self, elem: ElemType) -> bool {
        match (self, elem) {
            (Value::Complex { .. }, ElemType::Complex32 | ElemType::Complex64) => true,
            (v, e) => v.elem_type() == Some(e),
        }
    }

    /// The signed value of an integer or index.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int { width, bits } => Some(sext(*bits, *width)),
            Value::Index(v) => Some(*v),
            _ => None,
        }
    }
    /// The unsigned value of an integer or index (its bit pattern).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Int { bits, .. } => Some(*bits),
            Value::Index(v) => Some(*v as u64),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Int { width: 1, bits } => Some(*bits != 0),
            _ => None,
        }
    }
    /// A float as f64 (f32 is widened exactly).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::F32(v) => Some(*v as f64),
            Value::F64(v) => Some(*v),
            _ => None,
        }
    }
    pub fn as_complex(&self) -> Option<(f64, f64)> {
        match self {
            Value::Complex { re, im } => Some((*re, *im)),
            _ => None,
        }
    }
    pub fn as_tensor(&self) -> Option<&Tensor> {
        match self {
            Value::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// Equality that treats floats bit-for-bit (so NaN equals the same NaN, and -0 != +0).
    pub fn bitwise_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::F32(a), Value::F32(b)) => a.to_bits() == b.to_bits(),
            (Value::F64(a), Value::F64(b)) => a.to_bits() == b.to_bits(),
            (Value::Complex { re: a, im: b }, Value::Complex { re: c, im: d }) => {
                a.to_bits() == c.to_bits() && b.to_bits() == d.to_bits()
            }
            (Value::Tensor(a), Value::Tensor(b)) => {
                a.elem == b.elem
                    && a.shape == b.shape
                    && a.elements.iter().zip(&b.elements).all(|(x, y)| x.bitwise_eq(y))
            }
            _ => self == other,
        }
    }

    /// Equality up to a relative/absolute float tolerance `eps` (NaN equals NaN); integers
    /// and shapes must match exactly. For comparing with compiled code.
    pub fn approx_eq(&self, other: &Value, eps: f64) -> bool {
        fn close(a: f64, b: f64, eps: f64) -> bool {
            (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= eps * (1.0f64).max(a.abs().max(b.abs()))
        }
        match (self, other) {
            (Value::F32(a), Value::F32(b)) => close(*a as f64, *b as f64, eps),
            (Value::F64(a), Value::F64(b)) => close(*a, *b, eps),
            (Value::Complex { re: a, im: b }, Value::Complex { re: c, im: d }) => {
                close(*a, *c, eps) && close(*b, *d, eps)
            }
            (Value::Tensor(a), Value::Tensor(b)) => {
                a.elem == b.elem
                    && a.shape == b.shape
                    && a.elements.iter().zip(&b.elements).all(|(x, y)| x.approx_eq(y, eps))
            }
            _ => self == other,
        }
    }
}

impl PartialEq for Value {
    /// Numeric equality (IEEE for floats: NaN != NaN, -0 == +0); integers compare width
    /// and bits, tensors element type, shape and elements.
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int { width: a, bits: b }, Value::Int { width: c, bits: d }) => a == c && b == d,
            (Value::Index(a), Value::Index(b)) => a == b,
            (Value::F32(a), Value::F32(b)) => a == b,
            (Value::F64(a), Value::F64(b)) => a == b,
            (Value::Complex { re: a, im: b }, Value::Complex { re: c, im: d }) => a == c && b == d,
            (Value::Tensor(a), Value::Tensor(b)) => a == b,
            (Value::Opaque(a), Value::Opaque(b)) => a == b,
            _ => false,
        }
    }
}

impl Tensor {
    /// Checks that the elements fit the shape and the element type.
    pub fn new(elem: ElemType, shape: Vec<usize>, elements: Vec<Value>) -> Result<Tensor, String> {
        let n = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).ok_or("the shape overflows")?;
        if n != elements.len() {
            return Err(format!("shape {shape:?} needs {n} elements, got {}", elements.len()));
        }
        if let Some((i, v)) = elements.iter().enumerate().find(|(_, v)| !v.has_type(elem)) {
            return Err(format!("element {i} ({v:?}) is not of type {elem}"));
        }
        Ok(Tensor { elem, shape, elements })
    }
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    pub fn len(&self) -> usize {
        self.elements.len()
    }
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }
    /// The row-major position of a multi-index (no bounds check).
    pub fn offset(&self, index: &[usize]) -> usize {
        index.iter().zip(&self.shape).fold(0, |acc, (&i, &d)| acc * d + i)
    }
    /// The element at a multi-index, if in bounds.
    pub fn get(&self, index: &[usize]) -> Option<&Value> {
        if index.len() != self.shape.len() || index.iter().zip(&self.shape).any(|(&i, &d)| i >= d) {
            return None;
        }
        self.elements.get(self.offset(index))
    }
    /// The elements as signed integers (`None` if any is not an integer/index).
    pub fn to_i64_vec(&self) -> Option<Vec<i64>> {
        self.elements.iter().map(Value::as_i64).collect()
    }
    pub fn to_f64_vec(&self) -> Option<Vec<f64>> {
        self.elements.iter().map(Value::as_f64).collect()
    }
    pub fn to_bool_vec(&self) -> Option<Vec<bool>> {
        self.elements.iter().map(Value::as_bool).collect()
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int { width: 1, bits } => write!(f, "{}", *bits != 0),
            Value::Int { width, bits } => write!(f, "{}:i{width}", sext(*bits, *width)),
            Value::Index(v) => write!(f, "{v}:index"),
            Value::F32(v) => write!(f, "{v:?}:f32"),
            Value::F64(v) => write!(f, "{v:?}:f64"),
            Value::Complex { re, im } => write!(f, "({re:?}, {im:?})"),
            Value::Opaque(h) => write!(f, "opaque({h})"),
            Value::Tensor(t) => write!(f, "{t:?}"),
        }
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tensor<")?;
        for d in &self.shape {
            write!(f, "{d}x")?;
        }
        write!(f, "{}>[", self.elem)?;
        for (i, e) in self.elements.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            match e {
                Value::Int { width: 1, bits } => write!(f, "{}", *bits != 0)?,
                Value::Int { width, bits } => write!(f, "{}", sext(*bits, *width))?,
                Value::Index(v) => write!(f, "{v}")?,
                Value::F32(v) => write!(f, "{v:?}")?,
                Value::F64(v) => write!(f, "{v:?}")?,
                other => write!(f, "{other}")?,
            }
        }
        write!(f, "]")
    }
}
