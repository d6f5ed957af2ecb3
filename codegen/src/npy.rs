//! NumPy's `.npy` files (format versions 1.0, 2.0 and 3.0), read into and written from the
//! interpreter's [`Value`]s.
//!
//! A file is the magic `\x93NUMPY`, the version (2 bytes), the header length (2 bytes
//! little-endian in 1.0, 4 bytes in 2.0/3.0), a Python dict literal
//! `{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }` padded with spaces to a
//! multiple of 64 bytes and ended by `\n`, then the elements. Supported: little-endian
//! `<i1 <i2 <i4 <i8 <u1 <u2 <u4 <u8 |b1 <f4 <f8` (`|` for one-byte types too), C order.
//! A scalar is a 0-d array (shape `()`).
//!
//! Types: `iN` takes `<iK`/`<uK` with K = N/8 bytes (the bits are the same, signless),
//! `i1` takes `|b1`, `index` takes 8-byte integers, `f32`/`f64` take `<f4`/`<f8`. A tensor
//! argument needs the same rank, and its static dimensions must match. Written files use
//! `|b1` for i1, `|i1 <i2 <i4 <i8` for the other integers and index, `<f4 <f8` for floats.
//!
//! Every problem (not an npy file, an unsupported version or dtype, Fortran order, a shape
//! or dtype that does not fit the type, a truncated or overlong file) is an error that names
//! the file; nothing panics.

use fusion_interpreter::{ElemType, Type, Value};
use std::path::Path;

const MAGIC: &[u8] = b"\x93NUMPY";

/// An element type of a `.npy` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `|b1`
    Bool,
    /// `<iK`: K bytes
    Int(usize),
    /// `<uK`
    UInt(usize),
    /// `<f4`
    F32,
    /// `<f8`
    F64,
    /// `<c8`: two `<f4` (real, imaginary)
    Complex64,
    /// `<c16`: two `<f8`
    Complex128,
}

impl Dtype {
    pub fn size(self) -> usize {
        match self {
            Dtype::Bool => 1,
            Dtype::Int(k) | Dtype::UInt(k) => k,
            Dtype::F32 => 4,
            Dtype::F64 | Dtype::Complex64 => 8,
            Dtype::Complex128 => 16,
        }
    }

    /// The `descr` text (little-endian).
    pub fn descr(self) -> String {
        let order = if self.size() == 1 { '|' } else { '<' };
        match self {
            Dtype::Bool => "|b1".into(),
            Dtype::Int(k) => format!("{order}i{k}"),
            Dtype::UInt(k) => format!("{order}u{k}"),
            Dtype::F32 => "<f4".into(),
            Dtype::F64 => "<f8".into(),
            Dtype::Complex64 => "<c8".into(),
            Dtype::Complex128 => "<c16".into(),
        }
    }

    fn parse(descr: &str) -> Result<Dtype, String> {
        let bad = || {
            format!(
                "dtype '{descr}' is not supported (supported: <i1 <i2 <i4 <i8 <u1 <u2 <u4 <u8 |b1 <f4 <f8 <c8 <c16)"
            )
        };
        let (order, rest) = descr.split_at(descr.char_indices().nth(1).map(|(i, _)| i).unwrap_or(descr.len()));
        let (kind, size) = rest.split_at(rest.char_indices().nth(1).map(|(i, _)| i).unwrap_or(rest.len()));
        let size: usize = size.parse().map_err(|_| bad())?;
        let t = match (kind, size) {
            ("b", 1) => Dtype::Bool,
            ("i", 1 | 2 | 4 | 8) => Dtype::Int(size),
            ("u", 1 | 2 | 4 | 8) => Dtype::UInt(size),
            ("f", 4) => Dtype::F32,
            ("f", 8) => Dtype::F64,
            ("c", 8) => Dtype::Complex64,
            ("c", 16) => Dtype::Complex128,
            _ => return Err(bad()),
        };
        match order {
            "<" | "=" => Ok(t),
            "|" if size == 1 => Ok(t),
            ">" if size == 1 => Ok(t),
            ">" => Err(format!("dtype '{descr}' is big-endian; only little-endian files are supported")),
            _ => Err(bad()),
        }
    }
}

/// The contents of a `.npy` file: dtype, shape (row-major) and the raw little-endian data.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    pub dtype: Dtype,
    pub shape: Vec<usize>,
    pub data: Vec<u8>,
}

/// A tiny reader of the header's Python literal: a dict of strings, booleans and tuples of
/// integers.
struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
}

#[derive(Debug, PartialEq)]
enum Literal {
    Str(String),
    Bool(bool),
    Tuple(Vec<usize>),
}

impl Lexer<'_> {
    fn skip(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.skip();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) { Ok(()) } else { Err(format!("the header is not a dict literal (expected '{}')", c as char)) }
    }
    fn string(&mut self) -> Result<String, String> {
        self.skip();
        let quote = match self.s.get(self.i) {
            Some(&q @ (b'\'' | b'"')) => q,
            _ => return Err("the header is not a dict literal (expected a string)".into()),
        };
        let start = self.i + 1;
        let end = self.s[start..]
            .iter()
            .position(|&c| c == quote)
            .map(|p| start + p)
            .ok_or("the header has an unterminated string")?;
        self.i = end + 1;
        String::from_utf8(self.s[start..end].to_vec()).map_err(|_| "the header is not UTF-8".into())
    }
    fn literal(&mut self) -> Result<Literal, String> {
        self.skip();
        match self.s.get(self.i) {
            Some(b'\'' | b'"') => self.string().map(Literal::Str),
            Some(b'(') => {
                self.i += 1;
                let mut dims = Vec::new();
                loop {
                    if self.eat(b')') {
                        return Ok(Literal::Tuple(dims));
                    }
                    self.skip();
                    let start = self.i;
                    while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                        self.i += 1;
                    }
                    // Python 2's numpy wrote `3L`.
                    let digits = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
                    self.eat(b'L');
                    dims.push(digits.parse().map_err(|_| "the shape in the header is not a tuple of sizes")?);
                    if !self.eat(b',') {
                        self.expect(b')')?;
                        return Ok(Literal::Tuple(dims));
                    }
                }
            }
            _ => {
                for (word, value) in [("True", true), ("False", false)] {
                    if self.s[self.i..].starts_with(word.as_bytes()) {
                        self.i += word.len();
                        return Ok(Literal::Bool(value));
                    }
                }
                Err("the header has a value that is not a string, boolean or tuple".into())
            }
        }
    }
}

/// Parses the header dict into (descr, fortran_order, shape).
fn parse_header(text: &[u8]) -> Result<(String, bool, Vec<usize>), String> {
    let mut lex = Lexer { s: text, i: 0 };
    lex.expect(b'{')?;
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    loop {
        if lex.eat(b'}') {
            break;
        }
        let key = lex.string()?;
        lex.expect(b':')?;
        let value = lex.literal()?;
        match (key.as_str(), value) {
            ("descr", Literal::Str(s)) => descr = Some(s),
            ("fortran_order", Literal::Bool(b)) => fortran = Some(b),
            ("shape", Literal::Tuple(t)) => shape = Some(t),
            (k @ ("descr" | "fortran_order" | "shape"), _) => {
                return Err(format!("the header's '{k}' has the wrong form"));
            }
            (k, _) => return Err(format!("the header has an unknown key '{k}'")),
        }
        if !lex.eat(b',') {
            lex.expect(b'}')?;
            break;
        }
    }
    lex.skip();
    if lex.i != text.len() {
        return Err("the header has text after the dict".into());
    }
    match (descr, fortran, shape) {
        (Some(d), Some(f), Some(s)) => Ok((d, f, s)),
        _ => Err("the header lacks one of 'descr', 'fortran_order', 'shape'".into()),
    }
}

/// Decodes the bytes of a `.npy` file (errors without the file name).
pub fn decode(bytes: &[u8]) -> Result<Array, String> {
    if bytes.len() < MAGIC.len() + 2 || !bytes.starts_with(MAGIC) {
        return Err("not an .npy file (no \\x93NUMPY magic)".into());
    }
    let (major, minor) = (bytes[6], bytes[7]);
    let (len_bytes, start) = match (major, minor) {
        (1, 0) => (2, 10),
        (2, 0) | (3, 0) => (4, 12),
        _ => return Err(format!("npy format version {major}.{minor} is not supported (1.0, 2.0, 3.0 are)")),
    };
    if bytes.len() < start {
        return Err("the file is truncated (in the header length)".into());
    }
    let mut n = [0u8; 4];
    n[..len_bytes].copy_from_slice(&bytes[8..8 + len_bytes]);
    let header_len = u32::from_le_bytes(n) as usize;
    let end =
        start.checked_add(header_len).filter(|&e| e <= bytes.len()).ok_or("the file is truncated (in the header)")?;
    let (descr, fortran, shape) = parse_header(&bytes[start..end])?;
    let dtype = Dtype::parse(&descr)?;
    let count = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).ok_or("the shape is too large")?;
    if fortran && shape.iter().filter(|&&d| d > 1).count() > 1 {
        return Err("the array is in Fortran order; only C order is supported (use numpy.ascontiguousarray)".into());
    }
    let size = count.checked_mul(dtype.size()).ok_or("the shape is too large")?;
    let data = &bytes[end..];
    if data.len() < size {
        return Err(format!(
            "the file is truncated: shape {:?} of {descr} needs {size} bytes of data, it has {}",
            shape,
            data.len()
        ));
    }
    if data.len() > size {
        return Err(format!("the file has {} bytes after the data of shape {:?}", data.len() - size, shape));
    }
    Ok(Array { dtype, shape, data: data.to_vec() })
}

/// Encodes an array as a version 1.0 file (2.0 if the header needs more than 65535 bytes).
pub fn encode(array: &Array) -> Vec<u8> {
    let shape = match array.shape.len() {
        1 => format!("({},)", array.shape[0]),
        _ => format!("({})", array.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    };
    let mut header = format!("{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}", array.dtype.descr());
    let v1 = header.len() + 1 + 10 <= 65535 + 10;
    let start = if v1 { 10 } else { 12 };
    let padded = (start + header.len() + 1).div_ceil(64) * 64;
    header.extend(std::iter::repeat_n(' ', padded - start - header.len() - 1));
    header.push('\n');
    let mut out = Vec::with_capacity(padded + array.data.len());
    out.extend_from_slice(MAGIC);
    if v1 {
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&[2, 0]);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    }
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&array.data);
    out
}

/// Whether a file of `dtype` can hold elements of type `e`.
fn fits(dtype: Dtype, e: ElemType) -> bool {
    match (e, dtype) {
        (ElemType::Int(1), Dtype::Bool) => true,
        (ElemType::Int(w), Dtype::Int(k) | Dtype::UInt(k)) => w as usize == 8 * k,
        (ElemType::Index, Dtype::Int(8) | Dtype::UInt(8)) => true,
        (ElemType::F32, Dtype::F32) | (ElemType::F64, Dtype::F64) => true,
        (ElemType::Complex32, Dtype::Complex64) | (ElemType::Complex64, Dtype::Complex128) => true,
        _ => false,
    }
}

/// The dtype a value of element type `e` is written with.
pub fn dtype_of(e: ElemType) -> Result<Dtype, String> {
    Ok(match e {
        ElemType::Int(1) => Dtype::Bool,
        ElemType::Int(w @ (8 | 16 | 32 | 64)) => Dtype::Int(w as usize / 8),
        ElemType::Index => Dtype::Int(8),
        ElemType::F32 => Dtype::F32,
        ElemType::F64 => Dtype::F64,
        ElemType::Complex32 => Dtype::Complex64,
        ElemType::Complex64 => Dtype::Complex128,
        other => return Err(format!("element type {other} has no .npy dtype here")),
    })
}

/// The array as a value of type `t` (errors without the file name).
pub fn to_value(array: &Array, t: &Type) -> Result<Value, String> {
    let (elem, want) = match t {
        Type::Scalar(e) => (*e, Some(vec![])),
        Type::Tensor { elem, shape } => (*elem, shape_matches(shape, &array.shape)),
        Type::Other(s) => return Err(format!("the argument type {s} cannot be read from .npy")),
    };
    if !fits(array.dtype, elem) {
        return Err(format!("dtype {} does not fit the argument type {}", array.dtype.descr(), type_text(t)));
    }
    if want.as_ref() != Some(&array.shape) {
        return Err(format!("shape {:?} does not fit the argument type {}", array.shape, type_text(t)));
    }
    let n = array.dtype.size();
    let elements: Vec<Value> = array
        .data
        .chunks_exact(n)
        .map(|c| {
            if let Some(value) = complex_element(array.dtype, c) {
                return value;
            }
            let mut b = [0u8; 8];
            b[..n].copy_from_slice(c);
            let bits = u64::from_le_bytes(b);
            match (elem, array.dtype) {
                (ElemType::Int(1), _) => Value::i1(bits != 0),
                (ElemType::Int(w), _) => Value::Int { width: w, bits: bits & mask(w) },
                (ElemType::Index, _) => Value::Index(bits as i64),
                (ElemType::F32, _) => Value::F32(f32::from_bits(bits as u32)),
                _ => Value::F64(f64::from_bits(bits)),
            }
        })
        .collect();
    Ok(match t {
        Type::Scalar(_) => elements.into_iter().next().unwrap_or(Value::Opaque(0)),
        _ => Value::tensor(elem, array.shape.clone(), elements),
    })
}

/// A complex element (`<c8`: two f32, `<c16`: two f64, real part first); `None` for
/// other dtypes.
fn complex_element(dtype: Dtype, bytes: &[u8]) -> Option<Value> {
    let (re, im) = bytes.split_at(bytes.len() / 2);
    match dtype {
        Dtype::Complex64 => {
            let part = |b: &[u8]| f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64;
            Some(Value::complex(part(re), part(im)))
        }
        Dtype::Complex128 => {
            let part = |b: &[u8]| f64::from_le_bytes(b.try_into().expect("8 bytes"));
            Some(Value::complex(part(re), part(im)))
        }
        _ => None,
    }
}

fn mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// `Some(actual)` when the actual shape fits the declared one (same rank, static sizes equal).
fn shape_matches(declared: &[Option<usize>], actual: &[usize]) -> Option<Vec<usize>> {
    (declared.len() == actual.len() && declared.iter().zip(actual).all(|(d, a)| d.is_none_or(|d| d == *a)))
        .then(|| actual.to_vec())
}

fn type_text(t: &Type) -> String {
    match t {
        Type::Scalar(e) => format!("{e} (a 0-d array)"),
        Type::Tensor { elem, shape } => {
            let dims: String = shape.iter().map(|d| d.map_or("?".to_owned(), |d| d.to_string()) + "x").collect();
            format!("tensor<{dims}{elem}>")
        }
        Type::Other(s) => s.clone(),
    }
}

/// The value as an array (a scalar is a 0-d array).
pub fn from_value(v: &Value) -> Result<Array, String> {
    let (elem, shape, elements): (ElemType, Vec<usize>, Vec<&Value>) = match v {
        Value::Tensor(t) => (t.elem, t.shape.clone(), t.elements.iter().collect()),
        scalar => (scalar.elem_type().ok_or("the value has no element type")?, vec![], vec![scalar]),
    };
    let dtype = dtype_of(elem)?;
    let n = dtype.size();
    let mut data = Vec::with_capacity(n * elements.len());
    for x in elements {
        if let Value::Complex { re, im } = x {
            match dtype {
                Dtype::Complex64 => [*re as f32, *im as f32].iter().for_each(|p| data.extend(p.to_le_bytes())),
                _ => [*re, *im].iter().for_each(|p| data.extend(p.to_le_bytes())),
            }
            continue;
        }
        let bits: u64 = match x {
            Value::Int { bits, .. } => *bits,
            Value::Index(i) => *i as u64,
            Value::F32(f) => f.to_bits() as u64,
            Value::F64(f) => f.to_bits(),
            other => return Err(format!("element {other} cannot be written to .npy")),
        };
        data.extend_from_slice(&bits.to_le_bytes()[..n]);
    }
    Ok(Array { dtype, shape, data })
}

/// Reads `path` as an argument of type `t`; errors name the file.
pub fn read_value(path: &Path, t: &Type) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot be read: {e}", path.display()))?;
    decode(&bytes).and_then(|a| to_value(&a, t)).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `v` to `path`; errors name the file.
pub fn write_value(path: &Path, v: &Value) -> Result<(), String> {
    let array = from_value(v).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, encode(&array)).map_err(|e| format!("{}: cannot be written: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vec_t(e: ElemType) -> Type {
        Type::Tensor { elem: e, shape: vec![None] }
    }

    fn round_trip(v: &Value, t: &Type) {
        let bytes = encode(&from_value(v).unwrap());
        assert_eq!(bytes.iter().position(|&b| b == b'\n').unwrap() % 64, 63, "header padded to 64 bytes");
        let back = to_value(&decode(&bytes).unwrap(), t).unwrap();
        assert!(v.bitwise_eq(&back), "{v} came back as {back}");
    }

    #[test]
    fn round_trips() {
        round_trip(&Value::vector_i64(&[1, -2, 3]), &vec_t(ElemType::Int(64)));
        round_trip(&Value::vector_i32(&[i32::MIN, 0, i32::MAX]), &vec_t(ElemType::Int(32)));
        round_trip(&Value::vector(ElemType::Int(8), vec![Value::i8(-128), Value::i8(5)]), &vec_t(ElemType::Int(8)));
        round_trip(&Value::vector(ElemType::Int(16), vec![Value::i16(-300)]), &vec_t(ElemType::Int(16)));
        round_trip(&Value::vector_i1(&[true, false, true]), &vec_t(ElemType::Int(1)));
        round_trip(&Value::vector_index(&[0, 7]), &vec_t(ElemType::Index));
        round_trip(&Value::vector_f32(&[1.5, -0.25]), &vec_t(ElemType::F32));
        round_trip(&Value::vector_f64(&[1e300, -0.0, f64::NAN]), &vec_t(ElemType::F64));
        let complex =
            |parts: &[(f64, f64)], e| Value::vector(e, parts.iter().map(|&(r, i)| Value::complex(r, i)).collect());
        round_trip(&complex(&[(1.5, -2.0), (0.0, 3.25)], ElemType::Complex32), &vec_t(ElemType::Complex32));
        round_trip(&complex(&[(1e300, -0.5)], ElemType::Complex64), &vec_t(ElemType::Complex64));
        round_trip(
            &Value::matrix_i64(2, 3, &[1, 2, 3, 4, 5, 6]),
            &Type::Tensor { elem: ElemType::Int(64), shape: vec![Some(2), None] },
        );
        round_trip(&Value::vector_i64(&[]), &vec_t(ElemType::Int(64)));
        round_trip(&Value::i64(-42), &Type::Scalar(ElemType::Int(64)));
        round_trip(&Value::f32(2.5), &Type::Scalar(ElemType::F32));
        round_trip(&Value::index(9), &Type::Scalar(ElemType::Index));
        round_trip(&Value::scalar_tensor(Value::i64(3)), &Type::Tensor { elem: ElemType::Int(64), shape: vec![] });
    }

    /// A file as numpy 1.26 writes `np.save(f, np.array([1, 2], dtype=np.int32))`.
    fn numpy_file(version: u8, header: &str, data: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[version, 0]);
        if version == 1 {
            out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        } else {
            out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        }
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn reads_versions_and_unsigned() {
        let header = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }          \n";
        let data = [1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff];
        for version in [1, 2, 3] {
            let a = decode(&numpy_file(version, header, &data)).unwrap();
            assert_eq!((a.dtype, a.shape.clone()), (Dtype::Int(4), vec![2]));
            let v = to_value(&a, &vec_t(ElemType::Int(32))).unwrap();
            assert!(v.bitwise_eq(&Value::vector_i32(&[1, -2])));
        }
        let u8s = numpy_file(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (1,)}\n", &[200]);
        let v = to_value(&decode(&u8s).unwrap(), &vec_t(ElemType::Int(8))).unwrap();
        assert!(v.bitwise_eq(&Value::vector(ElemType::Int(8), vec![Value::i8(-56)])));
        // Keys in another order, double quotes, a 0-d array.
        let scalar =
            numpy_file(1, "{\"shape\": (), \"fortran_order\": False, \"descr\": \"<f8\"}\n", &2.0f64.to_le_bytes());
        let v = to_value(&decode(&scalar).unwrap(), &Type::Scalar(ElemType::F64)).unwrap();
        assert!(v.bitwise_eq(&Value::f64(2.0)));
        // Fortran order is harmless for vectors.
        let f = numpy_file(1, "{'descr': '<i8', 'fortran_order': True, 'shape': (1,), }\n", &5i64.to_le_bytes());
        assert!(decode(&f).is_ok());
        // np.array([1+2j, -0.5j], dtype=np.complex64): real and imaginary f32 pairs.
        let data: Vec<u8> = [1.0f32, 2.0, 0.0, -0.5].iter().flat_map(|x| x.to_le_bytes()).collect();
        let c = numpy_file(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }\n", &data);
        let v = to_value(&decode(&c).unwrap(), &vec_t(ElemType::Complex32)).unwrap();
        let expected = Value::vector(ElemType::Complex32, vec![Value::complex(1.0, 2.0), Value::complex(0.0, -0.5)]);
        assert!(v.bitwise_eq(&expected), "{v}");
        assert!(to_value(&decode(&c).unwrap(), &vec_t(ElemType::Complex64)).unwrap_err().contains("does not fit"));
    }

    #[test]
    fn errors() {
        let err = |bytes: &[u8]| decode(bytes).unwrap_err();
        assert!(err(b"PK\x03\x04").contains("not an .npy file"));
        assert!(err(&numpy_file(4, "{}", &[])).contains("version 4.0"));
        let fortran = numpy_file(1, "{'descr': '<i8', 'fortran_order': True, 'shape': (2, 2), }\n", &[0; 32]);
        assert!(err(&fortran).contains("Fortran order"));
        let truncated = numpy_file(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }\n", &[0; 20]);
        assert!(err(&truncated).contains("truncated"), "{}", err(&truncated));
        let mut cut = encode(&from_value(&Value::vector_i64(&[1])).unwrap());
        cut.truncate(30);
        assert!(err(&cut).contains("truncated"));
        assert!(err(&cut[..9]).contains("truncated"));
        let big = numpy_file(1, "{'descr': '>i8', 'fortran_order': False, 'shape': (1,), }\n", &[0; 8]);
        assert!(err(&big).contains("big-endian"));
        let half = numpy_file(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }\n", &[0; 2]);
        assert!(err(&half).contains("not supported"));
        let junk = numpy_file(1, "{'descr': '<i8', 'shape': (1,), }\n", &[0; 8]);
        assert!(err(&junk).contains("lacks"));
        let huge =
            numpy_file(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (99999999999, 99999999999), }\n", &[]);
        assert!(err(&huge).contains("too large"));
        // Types that do not fit.
        let a = from_value(&Value::vector_i64(&[1, 2])).unwrap();
        assert!(to_value(&a, &vec_t(ElemType::Int(32))).unwrap_err().contains("dtype <i8 does not fit"));
        assert!(to_value(&a, &vec_t(ElemType::F64)).is_err());
        assert!(to_value(&a, &Type::Scalar(ElemType::Int(64))).unwrap_err().contains("shape [2]"));
        let fixed = Type::Tensor { elem: ElemType::Int(64), shape: vec![Some(3)] };
        assert!(to_value(&a, &fixed).unwrap_err().contains("tensor<3xi64>"));
        let matrix = Type::Tensor { elem: ElemType::Int(64), shape: vec![None, None] };
        assert!(to_value(&a, &matrix).is_err());
    }

    #[test]
    fn file_errors_name_the_file() {
        let dir = std::env::temp_dir().join(format!("npy-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.npy");
        write_value(&path, &Value::vector_f32(&[1.0, 2.0])).unwrap();
        let t = vec_t(ElemType::F32);
        assert!(read_value(&path, &t).unwrap().bitwise_eq(&Value::vector_f32(&[1.0, 2.0])));
        let e = read_value(&path, &vec_t(ElemType::F64)).unwrap_err();
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        let e = read_value(&dir.join("missing.npy"), &t).unwrap_err();
        assert!(e.contains("missing.npy") && e.contains("cannot be read"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
