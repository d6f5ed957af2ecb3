//! `arith`, `math`, `complex` and `tensor` semantics.

use crate::{ints, run, run_ok};
use fusion_interpreter::{InterpError, Value};

const INTS: &str = r#"
func.func @wrap(%a: i8, %b: i8) -> (i8, i8, i8) {
  %s = arith.addi %a, %b : i8
  %d = arith.subi %a, %b : i8
  %m = arith.muli %a, %b : i8
  return %s, %d, %m : i8, i8, i8
}

func.func @divs(%a: i64, %b: i64) -> (i64, i64, i64, i64, i64, i64, i64) {
  %q = arith.divsi %a, %b : i64
  %r = arith.remsi %a, %b : i64
  %f = arith.floordivsi %a, %b : i64
  %c = arith.ceildivsi %a, %b : i64
  %uq = arith.divui %a, %b : i64
  %ur = arith.remui %a, %b : i64
  %uc = arith.ceildivui %a, %b : i64
  return %q, %r, %f, %c, %uq, %ur, %uc : i64, i64, i64, i64, i64, i64, i64
}

func.func @bits(%a: i16, %b: i16) -> (i16, i16, i16, i16, i16, i16) {
  %and = arith.andi %a, %b : i16
  %or = arith.ori %a, %b : i16
  %xor = arith.xori %a, %b : i16
  %c3 = arith.constant 3 : i16
  %shl = arith.shli %a, %c3 : i16
  %shrs = arith.shrsi %a, %c3 : i16
  %shru = arith.shrui %a, %c3 : i16
  return %and, %or, %xor, %shl, %shrs, %shru : i16, i16, i16, i16, i16, i16
}

func.func @minmax(%a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %a1 = arith.minsi %a, %b : i32
  %a2 = arith.maxsi %a, %b : i32
  %a3 = arith.minui %a, %b : i32
  %a4 = arith.maxui %a, %b : i32
  return %a1, %a2, %a3, %a4 : i32, i32, i32, i32
}

func.func @cmp(%a: i32, %b: i32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %0 = arith.cmpi eq, %a, %b : i32
  %1 = arith.cmpi ne, %a, %b : i32
  %2 = arith.cmpi slt, %a, %b : i32
  %3 = arith.cmpi sle, %a, %b : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  %5 = arith.cmpi sge, %a, %b : i32
  %6 = arith.cmpi ult, %a, %b : i32
  %7 = arith.cmpi ule, %a, %b : i32
  %8 = arith.cmpi ugt, %a, %b : i32
  %9 = arith.cmpi uge, %a, %b : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

func.func @casts(%a: i8, %i: index) -> (i32, i32, index, index, i64, i8, i1) {
  %s = arith.extsi %a : i8 to i32
  %u = arith.extui %a : i8 to i32
  %ix = arith.index_cast %a : i8 to index
  %iu = arith.index_castui %a : i8 to index
  %back = arith.index_cast %i : index to i64
  %t = arith.trunci %back : i64 to i8
  %t1 = arith.trunci %back : i64 to i1
  return %s, %u, %ix, %iu, %back, %t, %t1 : i32, i32, index, index, i64, i8, i1
}

func.func @select(%c: i1, %a: tensor<2xi64>, %b: tensor<2xi64>, %cs: tensor<2xi1>) -> (tensor<2xi64>, tensor<2xi64>) {
  %w = arith.select %c, %a, %b : tensor<2xi64>
  %e = arith.select %cs, %a, %b : tensor<2xi1>, tensor<2xi64>
  return %w, %e : tensor<2xi64>, tensor<2xi64>
}

func.func @elementwise(%a: tensor<3xi64>, %b: tensor<3xi64>) -> (tensor<3xi64>, tensor<3xi1>) {
  %s = arith.addi %a, %b : tensor<3xi64>
  %c = arith.cmpi slt, %a, %b : tensor<3xi64>
  return %s, %c : tensor<3xi64>, tensor<3xi1>
}

func.func @constants() -> (tensor<2x2xi32>, tensor<3xf32>, i1, index, tensor<2xi1>) {
  %d = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %s = arith.constant dense<1.5> : tensor<3xf32>
  %t = arith.constant true
  %i = arith.constant -3 : index
  %b = arith.constant dense<[true, false]> : tensor<2xi1>
  return %d, %s, %t, %i, %b : tensor<2x2xi32>, tensor<3xf32>, i1, index, tensor<2xi1>
}
"#;

#[test]
fn integer_arithmetic_wraps_at_the_width() {
    let out = run_ok(INTS, "wrap", vec![Value::i8(100), Value::i8(-100)]);
    assert_eq!(out, vec![Value::i8(0), Value::i8(-56), Value::i8(-16)]); // 200 = -56, -10000 mod 256 = -16
    let out = run_ok(INTS, "wrap", vec![Value::i8(127), Value::i8(1)]);
    assert_eq!(out[0], Value::i8(-128));
}

#[test]
fn signed_and_unsigned_divisions_round_as_arith_says() {
    let out = run_ok(INTS, "divs", vec![Value::i64(-7), Value::i64(2)]);
    let unsigned_q = ((-7i64) as u64 / 2) as i64;
    let unsigned_c = ((-7i64) as u64).div_ceil(2) as i64;
    assert_eq!(
        out,
        vec![
            Value::i64(-3),
            Value::i64(-1),
            Value::i64(-4),
            Value::i64(-3),
            Value::i64(unsigned_q),
            Value::i64(1),
            Value::i64(unsigned_c)
        ]
    );
    let out = run_ok(INTS, "divs", vec![Value::i64(7), Value::i64(-2)]);
    assert_eq!(&out[..4], &[Value::i64(-3), Value::i64(1), Value::i64(-4), Value::i64(-3)]);
    let out = run_ok(INTS, "divs", vec![Value::i64(6), Value::i64(3)]);
    assert_eq!(&out[..4], &[Value::i64(2), Value::i64(0), Value::i64(2), Value::i64(2)]);
}

#[test]
fn bitwise_ops_and_shifts() {
    let out = run_ok(INTS, "bits", vec![Value::i16(-16), Value::i16(0x00ff)]);
    assert_eq!(
        out,
        vec![
            Value::i16(0x00f0),
            Value::i16(-1),
            Value::i16(-256 + 15),
            Value::i16(-128),
            Value::i16(-2),
            Value::i16(((-16i16 as u16) >> 3) as i16)
        ]
    );
}

#[test]
fn min_max_and_comparisons_signed_and_unsigned() {
    let out = run_ok(INTS, "minmax", vec![Value::i32(-1), Value::i32(2)]);
    assert_eq!(out, vec![Value::i32(-1), Value::i32(2), Value::i32(2), Value::i32(-1)]);
    let out = run_ok(INTS, "cmp", vec![Value::i32(-1), Value::i32(2)]);
    let expect = [false, true, true, true, false, false, false, false, true, true];
    assert_eq!(out, expect.iter().map(|&b| Value::i1(b)).collect::<Vec<_>>());
}

#[test]
fn integer_casts() {
    let out = run_ok(INTS, "casts", vec![Value::i8(-2), Value::index(257)]);
    assert_eq!(
        out,
        vec![
            Value::i32(-2),
            Value::i32(254),
            Value::index(-2),
            Value::index(254),
            Value::i64(257),
            Value::i8(1),
            Value::i1(true)
        ]
    );
}

#[test]
fn select_whole_and_elementwise_and_tensor_arith() {
    let a = Value::vector_i64(&[1, 2]);
    let b = Value::vector_i64(&[3, 4]);
    let out = run_ok(INTS, "select", vec![Value::i1(false), a.clone(), b.clone(), Value::vector_i1(&[true, false])]);
    assert_eq!(ints(&out[0]), vec![3, 4]);
    assert_eq!(ints(&out[1]), vec![1, 4]);
    let out = run_ok(INTS, "elementwise", vec![Value::vector_i64(&[1, 5, 3]), Value::vector_i64(&[2, 2, 3])]);
    assert_eq!(ints(&out[0]), vec![3, 7, 6]);
    assert_eq!(out[1].as_tensor().unwrap().to_bool_vec().unwrap(), vec![true, false, false]);
}

#[test]
fn dense_and_scalar_constants() {
    let out = run_ok(INTS, "constants", vec![]);
    assert_eq!(ints(&out[0]), vec![1, 2, 3, 4]);
    assert_eq!(out[1].as_tensor().unwrap().to_f64_vec().unwrap(), vec![1.5; 3]);
    assert_eq!(out[2], Value::i1(true));
    assert_eq!(out[3], Value::index(-3));
    assert_eq!(out[4].as_tensor().unwrap().to_bool_vec().unwrap(), vec![true, false]);
}

const FLOATS: &str = r#"
func.func @fops(%a: f64, %b: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64) {
  %0 = arith.addf %a, %b : f64
  %1 = arith.subf %a, %b : f64
  %2 = arith.mulf %a, %b : f64
  %3 = arith.divf %a, %b : f64
  %4 = arith.remf %a, %b : f64
  %5 = arith.negf %a : f64
  %6 = arith.minimumf %a, %b : f64
  %7 = arith.maximumf %a, %b : f64
  return %0, %1, %2, %3, %4, %5, %6, %7 : f64, f64, f64, f64, f64, f64, f64, f64
}

func.func @fcmp(%a: f32, %b: f32) -> (i1, i1, i1, i1, i1, i1) {
  %0 = arith.cmpf olt, %a, %b : f32
  %1 = arith.cmpf ult, %a, %b : f32
  %2 = arith.cmpf oeq, %a, %b : f32
  %3 = arith.cmpf une, %a, %b : f32
  %4 = arith.cmpf ord, %a, %b : f32
  %5 = arith.cmpf uno, %a, %b : f32
  return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, i1
}

func.func @fcasts(%i: i32, %x: f64) -> (f32, f64, i32, i64, f32, f64, f64) {
  %0 = arith.sitofp %i : i32 to f32
  %1 = arith.uitofp %i : i32 to f64
  %2 = arith.fptosi %x : f64 to i32
  %3 = arith.fptoui %x : f64 to i64
  %4 = arith.truncf %x : f64 to f32
  %5 = arith.extf %4 : f32 to f64
  %6 = math.sqrt %x : f64
  return %0, %1, %2, %3, %4, %5, %6 : f32, f64, i32, i64, f32, f64, f64
}

func.func @fmath(%x: f64) -> (f64, f64, f64, f64, f64, f64) {
  %0 = math.absf %x : f64
  %1 = math.floor %x : f64
  %2 = math.ceil %x : f64
  %3 = math.exp %x : f64
  %4 = math.powf %x, %x : f64
  %5 = math.fma %x, %x, %x : f64
  return %0, %1, %2, %3, %4, %5 : f64, f64, f64, f64, f64, f64
}

func.func @erfs(%x: f64, %y: f32) -> (f64, f64, f32, f32) {
  %0 = math.erf %x : f64
  %1 = math.erfc %x : f64
  %2 = math.erf %y : f32
  %3 = math.erfc %y : f32
  return %0, %1, %2, %3 : f64, f64, f32, f32
}

func.func @cplx(%a: complex<f64>, %b: complex<f64>) -> (complex<f64>, complex<f64>, complex<f64>, f64, f64, f64, complex<f64>) {
  %0 = complex.add %a, %b : complex<f64>
  %1 = complex.sub %a, %b : complex<f64>
  %2 = complex.mul %a, %b : complex<f64>
  %3 = complex.abs %b : complex<f64>
  %4 = complex.re %a : complex<f64>
  %5 = complex.im %a : complex<f64>
  %6 = complex.create %5, %4 : complex<f64>
  return %0, %1, %2, %3, %4, %5, %6 : complex<f64>, complex<f64>, complex<f64>, f64, f64, f64, complex<f64>
}

func.func @tensors(%a: f64, %b: f64, %n: index) -> (tensor<2xf64>, f64, tensor<2xf64>, tensor<?xi32>, index, tensor<?xf64>) {
  %t = tensor.from_elements %a, %b : tensor<2xf64>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %e = tensor.extract %t[%c1] : tensor<2xf64>
  %u = tensor.insert %e into %t[%c0] : tensor<2xf64>
  %z = tensor.empty(%n) : tensor<?xi32>
  %d = tensor.dim %z, %c0 : tensor<?xi32>
  %dyn = tensor.cast %t : tensor<2xf64> to tensor<?xf64>
  return %t, %e, %u, %z, %d, %dyn : tensor<2xf64>, f64, tensor<2xf64>, tensor<?xi32>, index, tensor<?xf64>
}
"#;

#[test]
fn float_arithmetic() {
    let out = run_ok(FLOATS, "fops", vec![Value::f64(7.5), Value::f64(-2.0)]);
    assert_eq!(
        out,
        vec![
            Value::f64(5.5),
            Value::f64(9.5),
            Value::f64(-15.0),
            Value::f64(-3.75),
            Value::f64(1.5),
            Value::f64(-7.5),
            Value::f64(-2.0),
            Value::f64(7.5)
        ]
    );
    let out = run_ok(FLOATS, "fops", vec![Value::f64(f64::NAN), Value::f64(1.0)]);
    assert!(out[6].as_f64().unwrap().is_nan() && out[7].as_f64().unwrap().is_nan(), "minimumf/maximumf propagate NaN");
    // Float division by zero is IEEE, not an error.
    let out = run_ok(FLOATS, "fops", vec![Value::f64(1.0), Value::f64(0.0)]);
    assert_eq!(out[3], Value::f64(f64::INFINITY));
}

#[test]
fn ordered_and_unordered_float_comparisons() {
    let out = run_ok(FLOATS, "fcmp", vec![Value::f32(1.0), Value::f32(2.0)]);
    assert_eq!(out, [true, true, false, true, true, false].map(Value::i1).to_vec());
    let out = run_ok(FLOATS, "fcmp", vec![Value::f32(f32::NAN), Value::f32(2.0)]);
    assert_eq!(out, [false, true, false, true, false, true].map(Value::i1).to_vec());
}

#[test]
fn error_functions() {
    // Reference values of erf and erfc at 1 and -0.5 (Abramowitz and Stegun Table 7.1,
    // to the digits printed there; f32 to its own precision).
    let out = run_ok(FLOATS, "erfs", vec![Value::f64(1.0), Value::f32(-0.5)]);
    let float = |v: &Value| match v {
        Value::F64(x) => *x,
        Value::F32(x) => *x as f64,
        other => panic!("not a float: {other:?}"),
    };
    let expected = [0.842_700_792_949_715, 0.157_299_207_050_285, -0.520_499_877_813_047, 1.520_499_877_813_047];
    let tolerance = [1e-15, 1e-15, 1e-7, 1e-7];
    for ((v, e), t) in out.iter().zip(expected).zip(tolerance) {
        assert!((float(v) - e).abs() <= t * e.abs(), "{v:?} is not {e}");
    }
    assert!(matches!(out[2], Value::F32(_)) && matches!(out[3], Value::F32(_)), "f32 in, f32 out: {out:?}");
}

#[test]
fn float_casts_and_math() {
    let out = run_ok(FLOATS, "fcasts", vec![Value::i32(-3), Value::f64(6.75)]);
    assert_eq!(
        out,
        vec![
            Value::f32(-3.0),
            Value::f64(4294967293.0),
            Value::i32(6),
            Value::i64(6),
            Value::f32(6.75),
            Value::f64(6.75),
            Value::f64(6.75f64.sqrt())
        ]
    );
    let x = 2.25f64;
    let out = run_ok(FLOATS, "fmath", vec![Value::f64(-x)]);
    assert_eq!(&out[..3], &[Value::f64(x), Value::f64(-3.0), Value::f64(-2.0)]);
    let out = run_ok(FLOATS, "fmath", vec![Value::f64(x)]);
    assert_eq!(
        out,
        vec![
            Value::f64(x),
            Value::f64(2.0),
            Value::f64(3.0),
            Value::f64(x.exp()),
            Value::f64(x.powf(x)),
            Value::f64(x.mul_add(x, x))
        ]
    );
    // fptosi of a value out of range is poison: an error, not a made-up number.
    let err = run(FLOATS, "fcasts", vec![Value::i32(0), Value::f64(1e12)]).unwrap_err();
    assert!(matches!(err, InterpError::Undefined { ref op, .. } if op == "arith.fptosi"), "{err}");
}

#[test]
fn complex_numbers() {
    let out = run_ok(FLOATS, "cplx", vec![Value::complex(1.0, 2.0), Value::complex(3.0, -4.0)]);
    assert_eq!(
        out,
        vec![
            Value::complex(4.0, -2.0),
            Value::complex(-2.0, 6.0),
            Value::complex(11.0, 2.0),
            Value::f64(5.0),
            Value::f64(1.0),
            Value::f64(2.0),
            Value::complex(2.0, 1.0)
        ]
    );
}

#[test]
fn tensor_ops() {
    let out = run_ok(FLOATS, "tensors", vec![Value::f64(1.0), Value::f64(2.0), Value::index(3)]);
    assert_eq!(out[0], Value::vector_f64(&[1.0, 2.0]));
    assert_eq!(out[1], Value::f64(2.0));
    assert_eq!(out[2], Value::vector_f64(&[2.0, 2.0]));
    assert_eq!(out[3], Value::vector_i32(&[0, 0, 0]));
    assert_eq!(out[4], Value::index(3));
    assert_eq!(out[5], Value::vector_f64(&[1.0, 2.0]));
}
