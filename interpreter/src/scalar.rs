//! `arith`, `math` and `complex`: scalar semantics, lifted elementwise when an op works
//! on tensors (e.g. `arith.addi` of two `tensor<4xi64>`).
//!
//! Integers follow `arith`'s two's complement, wrap-around semantics at the width of the
//! type (`index` is 64 bits). What `arith` calls poison or undefined behaviour is an error
//! here ([`InterpError::Undefined`] / [`InterpError::DivisionByZero`]) so that a
//! differential test never compares against an arbitrary value. Floats are computed in f64
//! and rounded to the result type (exact for +, -, *, /, remf, sqrt; within an ulp of the
//! f32 libm for transcendental `math` functions).

use crate::{
    InterpError, fail,
    ir::{self, AttrValue, Op, Ty},
    value::{ElemType, Tensor, Value, mask, sext},
};
use std::{
    collections::HashSet,
    sync::{Arc, LazyLock},
};

type R<T> = Result<T, InterpError>;

/// The ops of this module that are computed elementwise by [`scalar`].
const ELEMENTWISE: &[&str] = &[
    // arith, integers
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.divsi",
    "arith.divui",
    "arith.ceildivsi",
    "arith.ceildivui",
    "arith.floordivsi",
    "arith.remsi",
    "arith.remui",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.shli",
    "arith.shrsi",
    "arith.shrui",
    "arith.minsi",
    "arith.maxsi",
    "arith.minui",
    "arith.maxui",
    "arith.cmpi",
    // arith, floats
    "arith.addf",
    "arith.subf",
    "arith.mulf",
    "arith.divf",
    "arith.remf",
    "arith.negf",
    "arith.minimumf",
    "arith.maximumf",
    "arith.minnumf",
    "arith.maxnumf",
    "arith.cmpf",
    // arith, casts
    "arith.index_cast",
    "arith.index_castui",
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "arith.sitofp",
    "arith.uitofp",
    "arith.fptosi",
    "arith.fptoui",
    "arith.extf",
    "arith.truncf",
    "arith.bitcast",
    // math
    "math.sqrt",
    "math.rsqrt",
    "math.cbrt",
    "math.absf",
    "math.absi",
    "math.exp",
    "math.exp2",
    "math.expm1",
    "math.log",
    "math.log2",
    "math.log10",
    "math.log1p",
    "math.sin",
    "math.cos",
    "math.tan",
    "math.asin",
    "math.acos",
    "math.atan",
    "math.sinh",
    "math.cosh",
    "math.tanh",
    "math.asinh",
    "math.acosh",
    "math.atanh",
    "math.atan2",
    "math.powf",
    "math.fpowi",
    "math.ipowi",
    "math.floor",
    "math.ceil",
    "math.round",
    "math.roundeven",
    "math.trunc",
    "math.erf",
    "math.erfc",
    "math.fma",
    "math.copysign",
    "math.ctlz",
    "math.cttz",
    "math.ctpop",
    "math.isnan",
    "math.isinf",
    "math.isfinite",
    // complex
    "complex.create",
    "complex.re",
    "complex.im",
    "complex.add",
    "complex.sub",
    "complex.mul",
    "complex.div",
    "complex.neg",
    "complex.conj",
    "complex.abs",
    "complex.exp",
    "complex.log",
    "complex.sqrt",
    "complex.eq",
    "complex.neq",
];

fn elementwise(name: &str) -> bool {
    static SET: LazyLock<HashSet<&'static str>> = LazyLock::new(|| ELEMENTWISE.iter().copied().collect());
    SET.contains(name)
}

/// Runs an `arith`, `math` or `complex` op on its operand values.
pub fn exec(op: Op, name: &str, args: &[Value], result_tys: &[Ty]) -> R<Vec<Value>> {
    match name {
        "arith.constant" => Ok(vec![constant(op, result_tys.first())?]),
        "complex.constant" => Ok(vec![complex_constant(op, result_tys.first())?]),
        "arith.select" => Ok(vec![select(op, args, result_tys.first())?]),
        _ if elementwise(name) && result_tys.len() == 1 => {
            if has_rounding_mode(op) {
                return Err(fail::unsupported_form(op, "explicit rounding mode"));
            }
            Ok(vec![lift(op, args, &result_tys[0], &|xs, e| scalar(op, name, xs, e))?])
        }
        _ => Err(fail::unsupported(op)),
    }
}

fn has_rounding_mode(op: Op) -> bool {
    ir::attribute(op, "roundingmode").is_some()
}

/// Applies `f` to scalars, or elementwise to same-shaped tensors for a tensor result.
fn lift(op: Op, args: &[Value], result: &Ty, f: &dyn Fn(&[Value], ElemType) -> R<Value>) -> R<Value> {
    match result {
        Ty::Scalar(e) => {
            if args.iter().any(|a| matches!(a, Value::Tensor(_))) {
                return Err(fail::invalid(op, "tensor operand for a scalar result"));
            }
            f(args, *e)
        }
        Ty::Tensor { elem, .. } => {
            let tensors: Vec<&Tensor> = args
                .iter()
                .map(|a| a.as_tensor().ok_or_else(|| fail::invalid(op, "scalar operand for a tensor result")))
                .collect::<R<_>>()?;
            let shape = tensors.first().map(|t| t.shape.clone()).unwrap_or_default();
            if let Some(t) = tensors.iter().find(|t| t.shape != shape) {
                return Err(fail::shape_mismatch(op, format!("operand shapes {shape:?} and {:?}", t.shape)));
            }
            let n = tensors.first().map_or(0, |t| t.len());
            let mut out = Vec::with_capacity(n);
            let mut xs = Vec::with_capacity(tensors.len());
            for k in 0..n {
                xs.clear();
                xs.extend(tensors.iter().map(|t| t.elements[k].clone()));
                out.push(f(&xs, *elem)?);
            }
            Ok(Value::Tensor(Arc::new(Tensor { elem: *elem, shape, elements: out })))
        }
        Ty::Other(t) => Err(fail::unsupported_form(op, format!("type {t}"))),
    }
}

// ----- integers -----

/// Width and bit pattern of an integer or index operand.
fn ibits(op: Op, v: &Value) -> R<(u32, u64)> {
    match v {
        Value::Int { width, bits } => Ok((*width, *bits)),
        Value::Index(i) => Ok((64, *i as u64)),
        other => Err(fail::invalid(op, format!("expected an integer operand, got {other}"))),
    }
}

/// The integer or index value of type `e` with bit pattern `bits` (truncated to the width).
pub fn make_int(e: ElemType, bits: u64) -> Value {
    match e {
        ElemType::Index => Value::Index(bits as i64),
        ElemType::Int(w) => Value::Int { width: w, bits: bits & mask(w) },
        _ => unreachable!("make_int of a non-integer type"),
    }
}

fn int_result(op: Op, e: ElemType, bits: u64) -> R<Value> {
    match e {
        ElemType::Index | ElemType::Int(_) => Ok(make_int(e, bits)),
        other => Err(fail::invalid(op, format!("integer result of type {other}"))),
    }
}

fn int_binary(op: Op, name: &str, a: &Value, b: &Value, e: ElemType) -> R<Value> {
    let (w, x) = ibits(op, a)?;
    let (_, y) = ibits(op, b)?;
    let (sx, sy) = (sext(x, w), sext(y, w));
    let min = sext(1u64 << (w - 1), w); // the most negative value of the width
    let signed_overflow = sx == min && sy == -1;
    let bits: u64 = match name {
        "arith.addi" => x.wrapping_add(y),
        "arith.subi" => x.wrapping_sub(y),
        "arith.muli" => x.wrapping_mul(y),
        "arith.andi" => x & y,
        "arith.ori" => x | y,
        "arith.xori" => x ^ y,
        "arith.divui" | "arith.remui" | "arith.ceildivui" => {
            if y == 0 {
                return Err(fail::division_by_zero(op));
            }
            match name {
                "arith.divui" => x / y,
                "arith.remui" => x % y,
                _ => {
                    if x == 0 {
                        0
                    } else {
                        (x - 1) / y + 1
                    }
                }
            }
        }
        "arith.divsi" | "arith.remsi" | "arith.ceildivsi" | "arith.floordivsi" => {
            if sy == 0 {
                return Err(fail::division_by_zero(op));
            }
            if signed_overflow {
                return Err(fail::undefined(op, format!("signed division overflow ({sx} by -1 at i{w})")));
            }
            let q = sx / sy; // no overflow: sx != i64::MIN or sy != -1 here
            let r = sx % sy;
            (match name {
                "arith.divsi" => q,
                "arith.remsi" => r,
                "arith.ceildivsi" => {
                    if r != 0 && ((r > 0) == (sy > 0)) {
                        q + 1
                    } else {
                        q
                    }
                }
                _ => {
                    if r != 0 && ((r < 0) != (sy < 0)) {
                        q - 1
                    } else {
                        q
                    }
                }
            }) as u64
        }
        "arith.shli" | "arith.shrsi" | "arith.shrui" => {
            if y >= w as u64 {
                return Err(fail::undefined(op, format!("shift by {y} at width {w}")));
            }
            match name {
                "arith.shli" => x << y,
                "arith.shrui" => x >> y,
                _ => (sx >> y) as u64,
            }
        }
        "arith.minsi" => sx.min(sy) as u64,
        "arith.maxsi" => sx.max(sy) as u64,
        "arith.minui" => x.min(y),
        "arith.maxui" => x.max(y),
        _ => return Err(fail::unsupported(op)),
    };
    int_result(op, e, bits)
}

fn cmpi(op: Op, a: &Value, b: &Value) -> R<Value> {
    let (w, x) = ibits(op, a)?;
    let (_, y) = ibits(op, b)?;
    let (sx, sy) = (sext(x, w), sext(y, w));
    let p = ir::int_attribute(op, "predicate").ok_or_else(|| fail::invalid(op, "no predicate"))?;
    let r = match p {
        0 => x == y,
        1 => x != y,
        2 => sx < sy,
        3 => sx <= sy,
        4 => sx > sy,
        5 => sx >= sy,
        6 => x < y,
        7 => x <= y,
        8 => x > y,
        9 => x >= y,
        _ => return Err(fail::invalid(op, format!("unknown cmpi predicate {p}"))),
    };
    Ok(Value::i1(r))
}

// ----- floats -----

fn fval(op: Op, v: &Value) -> R<f64> {
    v.as_f64().ok_or_else(|| fail::invalid(op, format!("expected a float operand, got {v}")))
}

fn make_float(op: Op, e: ElemType, x: f64) -> R<Value> {
    match e {
        ElemType::F32 => Ok(Value::F32(x as f32)),
        ElemType::F64 => Ok(Value::F64(x)),
        other => Err(fail::invalid(op, format!("float result of type {other}"))),
    }
}

unsafe extern "C" {
    fn erf(x: f64) -> f64;
    fn erff(x: f32) -> f32;
    fn erfc(x: f64) -> f64;
    fn erfcf(x: f32) -> f32;
}

/// `math.erf` / `math.erfc` (`complement`) of `x` at precision `e`, from the C library
/// (Rust's std has neither): the same functions compiled code calls after
/// `convert-math-to-libm` (`erff` for f32, so the two agree bit for bit).
fn error_function(x: f64, e: ElemType, complement: bool) -> f64 {
    // SAFETY: pure C functions of one floating-point argument.
    unsafe {
        match (e, complement) {
            (ElemType::F32, false) => erff(x as f32) as f64,
            (ElemType::F32, true) => erfcf(x as f32) as f64,
            (_, false) => erf(x),
            (_, true) => erfc(x),
        }
    }
}

fn minimum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == 0.0 && b == 0.0 {
        if a.is_sign_negative() { a } else { b }
    } else {
        a.min(b)
    }
}

fn maximum(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == 0.0 && b == 0.0 {
        if a.is_sign_positive() { a } else { b }
    } else {
        a.max(b)
    }
}

fn cmpf(op: Op, a: f64, b: f64) -> R<Value> {
    let p = ir::int_attribute(op, "predicate").ok_or_else(|| fail::invalid(op, "no predicate"))?;
    let unordered = a.is_nan() || b.is_nan();
    let r = match p {
        0 => false,
        1 => !unordered && a == b,
        2 => !unordered && a > b,
        3 => !unordered && a >= b,
        4 => !unordered && a < b,
        5 => !unordered && a <= b,
        6 => !unordered && a != b,
        7 => !unordered,
        8 => unordered || a == b,
        9 => unordered || a > b,
        10 => unordered || a >= b,
        11 => unordered || a < b,
        12 => unordered || a <= b,
        13 => unordered || a != b,
        14 => unordered,
        15 => true,
        _ => return Err(fail::invalid(op, format!("unknown cmpf predicate {p}"))),
    };
    Ok(Value::i1(r))
}

/// fptosi/fptoui: truncation toward zero; NaN and values out of range are poison.
fn float_to_int(op: Op, x: f64, e: ElemType, signed: bool) -> R<Value> {
    let w = match e {
        ElemType::Int(w) => w,
        ElemType::Index => 64,
        other => return Err(fail::invalid(op, format!("integer result of type {other}"))),
    };
    let t = x.trunc();
    let (lo, hi) =
        if signed { (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1)) } else { (0.0, 2f64.powi(w as i32)) };
    if x.is_nan() || t < lo || t >= hi {
        return Err(fail::undefined(op, format!("{x} does not fit the result type {e}")));
    }
    let bits = if signed { (t as i64) as u64 } else { t as u64 };
    Ok(make_int(e, bits))
}

fn int_to_float(op: Op, a: &Value, e: ElemType, signed: bool) -> R<Value> {
    let (w, x) = ibits(op, a)?;
    let s = sext(x, w);
    match e {
        ElemType::F32 => Ok(Value::F32(if signed { s as f32 } else { x as f32 })),
        ElemType::F64 => Ok(Value::F64(if signed { s as f64 } else { x as f64 })),
        other => Err(fail::invalid(op, format!("float result of type {other}"))),
    }
}

// ----- complex -----

fn cval(op: Op, v: &Value) -> R<(f64, f64)> {
    v.as_complex().ok_or_else(|| fail::invalid(op, format!("expected a complex operand, got {v}")))
}

fn make_complex(op: Op, e: ElemType, re: f64, im: f64) -> R<Value> {
    match e {
        ElemType::Complex64 => Ok(Value::Complex { re, im }),
        ElemType::Complex32 => Ok(Value::Complex { re: re as f32 as f64, im: im as f32 as f64 }),
        other => Err(fail::invalid(op, format!("complex result of type {other}"))),
    }
}

fn complex_div((a, b): (f64, f64), (c, d): (f64, f64)) -> (f64, f64) {
    // Smith's algorithm, as MLIR's complex-to-standard lowering.
    if c.abs() >= d.abs() {
        let r = d / c;
        let den = c + d * r;
        ((a + b * r) / den, (b - a * r) / den)
    } else {
        let r = c / d;
        let den = c * r + d;
        ((a * r + b) / den, (b * r - a) / den)
    }
}

fn complex_sqrt((a, b): (f64, f64)) -> (f64, f64) {
    if a == 0.0 && b == 0.0 {
        return (0.0, b);
    }
    let m = a.hypot(b);
    let re = ((m + a) / 2.0).sqrt();
    let im = ((m - a) / 2.0).sqrt().copysign(b);
    (re, im)
}

/// One elementwise op on scalar operands, with result type `e`.
fn scalar(op: Op, name: &str, xs: &[Value], e: ElemType) -> R<Value> {
    let arg = |i: usize| xs.get(i).ok_or_else(|| fail::invalid(op, format!("missing operand {i}")));
    let f1 = |f: fn(f64) -> f64| -> R<Value> { make_float(op, e, f(fval(op, arg(0)?)?)) };
    let f2 = |f: fn(f64, f64) -> f64| -> R<Value> { make_float(op, e, f(fval(op, arg(0)?)?, fval(op, arg(1)?)?)) };
    match name {
        "arith.cmpi" => cmpi(op, arg(0)?, arg(1)?),
        "arith.addi" | "arith.subi" | "arith.muli" | "arith.divsi" | "arith.divui" | "arith.ceildivsi"
        | "arith.ceildivui" | "arith.floordivsi" | "arith.remsi" | "arith.remui" | "arith.andi" | "arith.ori"
        | "arith.xori" | "arith.shli" | "arith.shrsi" | "arith.shrui" | "arith.minsi" | "arith.maxsi"
        | "arith.minui" | "arith.maxui" => int_binary(op, name, arg(0)?, arg(1)?, e),
        "arith.addf" => f2(|a, b| a + b),
        "arith.subf" => f2(|a, b| a - b),
        "arith.mulf" => f2(|a, b| a * b),
        "arith.divf" => f2(|a, b| a / b),
        "arith.remf" => f2(|a, b| a % b),
        "arith.negf" => f1(|a| -a),
        "arith.minimumf" => f2(minimum),
        "arith.maximumf" => f2(maximum),
        "arith.minnumf" => f2(f64::min),
        "arith.maxnumf" => f2(f64::max),
        "arith.cmpf" => cmpf(op, fval(op, arg(0)?)?, fval(op, arg(1)?)?),
        "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" | "arith.trunci" => {
            let (w, x) = ibits(op, arg(0)?)?;
            let zext = name == "arith.index_castui" || name == "arith.extui";
            let bits = if zext { x } else { sext(x, w) as u64 };
            int_result(op, e, bits)
        }
        "arith.sitofp" => int_to_float(op, arg(0)?, e, true),
        "arith.uitofp" => int_to_float(op, arg(0)?, e, false),
        "arith.fptosi" => float_to_int(op, fval(op, arg(0)?)?, e, true),
        "arith.fptoui" => float_to_int(op, fval(op, arg(0)?)?, e, false),
        "arith.extf" | "arith.truncf" => f1(|a| a),
        "arith.bitcast" => match (arg(0)?, e) {
            (Value::Int { width: 32, bits }, ElemType::F32) => Ok(Value::F32(f32::from_bits(*bits as u32))),
            (Value::Int { width: 64, bits }, ElemType::F64) => Ok(Value::F64(f64::from_bits(*bits))),
            (Value::F32(v), ElemType::Int(32)) => Ok(make_int(e, v.to_bits() as u64)),
            (Value::F64(v), ElemType::Int(64)) => Ok(make_int(e, v.to_bits())),
            (v, e) if v.has_type(e) => Ok(v.clone()),
            (v, e) => Err(fail::unsupported_form(op, format!("bitcast of {v} to {e}"))),
        },
        // math
        "math.sqrt" => f1(f64::sqrt),
        "math.rsqrt" => f1(|a| 1.0 / a.sqrt()),
        "math.cbrt" => f1(f64::cbrt),
        "math.absf" => f1(f64::abs),
        "math.exp" => f1(f64::exp),
        "math.exp2" => f1(f64::exp2),
        "math.expm1" => f1(f64::exp_m1),
        "math.log" => f1(f64::ln),
        "math.log2" => f1(f64::log2),
        "math.log10" => f1(f64::log10),
        "math.log1p" => f1(f64::ln_1p),
        "math.sin" => f1(f64::sin),
        "math.cos" => f1(f64::cos),
        "math.tan" => f1(f64::tan),
        "math.asin" => f1(f64::asin),
        "math.acos" => f1(f64::acos),
        "math.atan" => f1(f64::atan),
        "math.sinh" => f1(f64::sinh),
        "math.cosh" => f1(f64::cosh),
        "math.tanh" => f1(f64::tanh),
        "math.asinh" => f1(f64::asinh),
        "math.acosh" => f1(f64::acosh),
        "math.atanh" => f1(f64::atanh),
        "math.atan2" => f2(f64::atan2),
        "math.powf" => f2(f64::powf),
        "math.copysign" => f2(f64::copysign),
        "math.floor" => f1(f64::floor),
        "math.ceil" => f1(f64::ceil),
        "math.round" => f1(f64::round),
        "math.roundeven" => f1(f64::round_ties_even),
        "math.trunc" => f1(f64::trunc),
        "math.erf" => make_float(op, e, error_function(fval(op, arg(0)?)?, e, false)),
        "math.erfc" => make_float(op, e, error_function(fval(op, arg(0)?)?, e, true)),
        "math.fma" => make_float(op, e, fval(op, arg(0)?)?.mul_add(fval(op, arg(1)?)?, fval(op, arg(2)?)?)),
        "math.fpowi" => {
            let (w, y) = ibits(op, arg(1)?)?;
            let base = fval(op, arg(0)?)?;
            let exp = sext(y, w);
            make_float(op, e, if let Ok(n) = i32::try_from(exp) { base.powi(n) } else { base.powf(exp as f64) })
        }
        "math.isnan" => Ok(Value::i1(fval(op, arg(0)?)?.is_nan())),
        "math.isinf" => Ok(Value::i1(fval(op, arg(0)?)?.is_infinite())),
        "math.isfinite" => Ok(Value::i1(fval(op, arg(0)?)?.is_finite())),
        "math.absi" => {
            let (w, x) = ibits(op, arg(0)?)?;
            int_result(op, e, sext(x, w).wrapping_abs() as u64)
        }
        "math.ctlz" | "math.cttz" | "math.ctpop" => {
            let (w, x) = ibits(op, arg(0)?)?;
            let n = match name {
                "math.ctlz" => x.leading_zeros() - (64 - w),
                "math.cttz" => x.trailing_zeros().min(w),
                _ => x.count_ones(),
            };
            int_result(op, e, n as u64)
        }
        "math.ipowi" => {
            let (w, x) = ibits(op, arg(0)?)?;
            let (_, y) = ibits(op, arg(1)?)?;
            let exp = sext(y, w);
            let base = sext(x, w);
            // MLIR's expansion: negative exponents give 0, except for bases 1 and -1;
            // 0 to a negative power is a division by zero.
            let r: i64 = if exp >= 0 {
                let mut r: i64 = 1;
                let (mut b, mut k) = (base, exp as u64);
                while k > 0 {
                    if k & 1 == 1 {
                        r = r.wrapping_mul(b);
                    }
                    b = b.wrapping_mul(b);
                    k >>= 1;
                }
                r
            } else if base == 0 {
                return Err(fail::division_by_zero(op));
            } else if base == 1 {
                1
            } else if base == -1 {
                if exp % 2 == 0 { 1 } else { -1 }
            } else {
                0
            };
            int_result(op, e, r as u64)
        }
        // complex
        "complex.create" => make_complex(op, e, fval(op, arg(0)?)?, fval(op, arg(1)?)?),
        "complex.re" => make_float(op, e, cval(op, arg(0)?)?.0),
        "complex.im" => make_float(op, e, cval(op, arg(0)?)?.1),
        "complex.abs" => {
            let (a, b) = cval(op, arg(0)?)?;
            make_float(op, e, a.hypot(b))
        }
        "complex.eq" | "complex.neq" => {
            let (a, b) = cval(op, arg(0)?)?;
            let (c, d) = cval(op, arg(1)?)?;
            let eq = a == c && b == d;
            Ok(Value::i1(if name == "complex.eq" { eq } else { !eq }))
        }
        "complex.neg" | "complex.conj" | "complex.exp" | "complex.log" | "complex.sqrt" => {
            let (a, b) = cval(op, arg(0)?)?;
            let (re, im) = match name {
                "complex.neg" => (-a, -b),
                "complex.conj" => (a, -b),
                "complex.exp" => {
                    let m = a.exp();
                    (m * b.cos(), m * b.sin())
                }
                "complex.log" => (a.hypot(b).ln(), b.atan2(a)),
                _ => complex_sqrt((a, b)),
            };
            make_complex(op, e, re, im)
        }
        "complex.add" | "complex.sub" | "complex.mul" | "complex.div" => {
            let (a, b) = cval(op, arg(0)?)?;
            let (c, d) = cval(op, arg(1)?)?;
            let (re, im) = match name {
                "complex.add" => (a + c, b + d),
                "complex.sub" => (a - c, b - d),
                "complex.mul" => (a * c - b * d, a * d + b * c),
                _ => complex_div((a, b), (c, d)),
            };
            make_complex(op, e, re, im)
        }
        _ => Err(fail::unsupported(op)),
    }
}

// ----- constants and select -----

fn scalar_from_attr(op: Op, a: mlir_sys::MlirAttribute, e: ElemType) -> R<Value> {
    match (ir::attr_value(a), e) {
        (AttrValue::Bool(b), ElemType::Int(1)) => Ok(Value::i1(b)),
        (AttrValue::Int(v), ElemType::Int(_) | ElemType::Index) => Ok(make_int(e, v as u64)),
        (AttrValue::Float(v), ElemType::F32 | ElemType::F64) => make_float(op, e, v),
        (AttrValue::Array(parts), ElemType::Complex32 | ElemType::Complex64) if parts.len() == 2 => {
            let part = |a| match ir::attr_value(a) {
                AttrValue::Float(v) => Ok(v),
                _ => Err(fail::unsupported_form(op, "complex constant parts")),
            };
            make_complex(op, e, part(parts[0])?, part(parts[1])?)
        }
        _ => Err(fail::unsupported_form(op, format!("constant of type {e}"))),
    }
}

fn constant(op: Op, result: Option<&Ty>) -> R<Value> {
    let a = ir::attribute(op, "value").ok_or_else(|| fail::invalid(op, "no value attribute"))?;
    match result {
        Some(Ty::Scalar(e)) => scalar_from_attr(op, a, *e),
        Some(Ty::Tensor { elem, shape }) => {
            let shape: Vec<usize> =
                shape.iter().map(|d| d.ok_or_else(|| fail::invalid(op, "dynamic constant"))).collect::<R<_>>()?;
            let AttrValue::Dense(dense) = ir::attr_value(a) else {
                return Err(fail::unsupported_form(op, "non-dense tensor constant"));
            };
            let n: usize = shape.iter().product();
            let splat = ir::dense_is_splat(dense);
            let mut elements = Vec::with_capacity(n);
            for k in 0..n {
                let v = ir::dense_element(dense, *elem, if splat { 0 } else { k })
                    .ok_or_else(|| fail::unsupported_form(op, format!("dense constant of {elem}")))?;
                elements.push(v);
            }
            Ok(Value::Tensor(Arc::new(Tensor { elem: *elem, shape, elements })))
        }
        _ => Err(fail::unsupported_form(op, "constant of this type")),
    }
}

fn complex_constant(op: Op, result: Option<&Ty>) -> R<Value> {
    let a = ir::attribute(op, "value").ok_or_else(|| fail::invalid(op, "no value attribute"))?;
    match result {
        Some(Ty::Scalar(e @ (ElemType::Complex32 | ElemType::Complex64))) => scalar_from_attr(op, a, *e),
        _ => Err(fail::unsupported_form(op, "constant of this type")),
    }
}

/// `arith.select`: a scalar `i1` condition picks a whole operand (scalars or tensors); a
/// tensor condition picks elementwise.
fn select(op: Op, args: &[Value], result: Option<&Ty>) -> R<Value> {
    let [c, t, f] = args else { return Err(fail::invalid(op, "select takes three operands")) };
    match c {
        Value::Tensor(_) => {
            let result = result.ok_or_else(|| fail::invalid(op, "no result"))?;
            lift(op, args, result, &|xs, _| {
                let b = xs[0].as_bool().ok_or_else(|| fail::invalid(op, "non-i1 condition"))?;
                Ok(if b { xs[1].clone() } else { xs[2].clone() })
            })
        }
        _ => {
            let b = c.as_bool().ok_or_else(|| fail::invalid(op, format!("non-i1 condition {c}")))?;
            Ok(if b { t.clone() } else { f.clone() })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_extension_and_masks() {
        assert_eq!(sext(0xff, 8), -1);
        assert_eq!(sext(0x7f, 8), 127);
        assert_eq!(sext(1, 1), -1);
        assert_eq!(mask(64), u64::MAX);
        assert_eq!(mask(1), 1);
        assert_eq!(make_int(ElemType::Int(8), 300), Value::int(8, 44));
    }

    #[test]
    fn float_min_max_follow_ieee_minimum_maximum() {
        assert!(minimum(f64::NAN, 1.0).is_nan());
        assert!(maximum(1.0, f64::NAN).is_nan());
        assert!(minimum(0.0, -0.0).is_sign_negative());
        assert!(maximum(-0.0, 0.0).is_sign_positive());
        assert_eq!(minimum(1.0, 2.0), 1.0);
    }

    #[test]
    fn complex_division_and_sqrt() {
        let (re, im) = complex_div((1.0, 2.0), (3.0, 4.0));
        assert!((re - 0.44).abs() < 1e-12 && (im - 0.08).abs() < 1e-12);
        let (re, im) = complex_sqrt((-4.0, 0.0));
        assert!(re.abs() < 1e-12 && (im - 2.0).abs() < 1e-12);
    }
}
