//! Errors: located, typed, never a panic.

use crate::{run, with_example, with_example_external, with_source};
use fusion_interpreter::{InterpError, Interpreter, Value};

const BAD: &str = r#"
func.func @gatherOob(%xs: tensor<?xi64>, %is: tensor<?xindex>) -> tensor<?xi64> {
  %ys = array.gather %xs[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  return %ys : tensor<?xi64>
}

func.func @indexOob(%xs: tensor<?xi64>, %i: index) -> i64 {
  %x = array.index %xs[%i] : tensor<?xi64>
  return %x : i64
}

func.func @scatterOob(%dest: tensor<?xi64>, %is: tensor<?xi64>, %vs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.scatter %dest[%is], %vs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    array.yield %new : i64
  }
  return %r : tensor<?xi64>
}

func.func @divide(%xs: tensor<?xi64>, %d: i64) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.divsi %x, %d : i64
    array.yield %y : i64
  }
  return %ys : tensor<?xi64>
}

func.func @remainder(%a: index, %b: index) -> index {
  %r = arith.remui %a, %b : index
  return %r : index
}

func.func @isnormal(%x: f64) -> i1 {
  %y = math.isnormal %x : f64
  return %y : i1
}

func.func @zip(%xs: tensor<?xi64>, %ys: tensor<?xi64>) -> tensor<?xi64> {
  %zs = array.map %xs, %ys : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %z = arith.addi %x, %y : i64
    array.yield %z : i64
  }
  return %zs : tensor<?xi64>
}

func.func @forever(%x: i64) -> i64 {
  %r = scf.while (%v = %x) : (i64) -> i64 {
    %t = arith.constant true
    scf.condition(%t) %v : i64
  } do {
  ^bb0(%v: i64):
    scf.yield %v : i64
  }
  return %r : i64
}

func.func @shift(%x: i32, %s: i32) -> i32 {
  %r = arith.shli %x, %s : i32
  return %r : i32
}

func.func @negativeSize(%n: index) -> tensor<?xi64> {
  %ys = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  return %ys : tensor<?xi64>
}

func.func @staticMismatch(%xs: tensor<?xi64>) -> tensor<3xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<3xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  return %ys : tensor<3xi64>
}
"#;

/// Checks that the error is located on the (first) line of `BAD` that contains `needle`
/// (`parse_source` names the buffer `-` in op locations).
fn located(err: &InterpError, needle: &str) {
    let line = BAD.lines().position(|l| l.contains(needle)).expect("the needle") + 1;
    let location = err.location().unwrap_or_else(|| panic!("no location in {err}"));
    assert_eq!(location.split(':').nth(1), Some(line.to_string().as_str()), "{err}");
    assert!(err.to_string().starts_with(&format!("{location}: error: ")), "{err}");
}

#[test]
fn gather_index_out_of_bounds() {
    let err = run(BAD, "gatherOob", vec![Value::vector_i64(&[1, 2, 3]), Value::vector_index(&[0, 3])]).unwrap_err();
    assert!(matches!(err, InterpError::OutOfBounds { ref op, .. } if op == "array.gather"), "{err}");
    located(&err, "array.gather");
    let message = err.to_string();
    assert!(message.contains("[3]") && message.contains("output position [1]"), "{message}");
    let err = run(BAD, "gatherOob", vec![Value::vector_i64(&[1]), Value::vector_index(&[-1])]).unwrap_err();
    assert!(matches!(err, InterpError::OutOfBounds { .. }), "{err}");
}

#[test]
fn index_and_scatter_out_of_bounds() {
    let err = run(BAD, "indexOob", vec![Value::vector_i64(&[1, 2]), Value::index(2)]).unwrap_err();
    assert!(matches!(err, InterpError::OutOfBounds { ref op, .. } if op == "array.index"), "{err}");
    located(&err, "array.index %xs[%i]");
    let err = run(
        BAD,
        "scatterOob",
        vec![Value::vector_i64(&[0, 0]), Value::vector_i64(&[1, -1]), Value::vector_i64(&[5, 6])],
    )
    .unwrap_err();
    assert!(matches!(err, InterpError::OutOfBounds { ref op, .. } if op == "array.scatter"), "{err}");
    located(&err, "array.scatter");
}

/// The seed 000 scatter example is only defined for 2*x < size(xs).
#[test]
fn scatter_example_out_of_range_is_an_error() {
    let err = with_example("seed000_scatter_example.mlir", |m| {
        Interpreter::new(m).run("scatterExample", vec![Value::vector_i64(&[1, 2, 3, 4, 5])])
    })
    .unwrap_err();
    assert!(
        matches!(err, InterpError::OutOfBounds { ref op, ref location, .. }
        if op == "array.scatter" && location.contains("seed000_scatter_example.mlir:")),
        "{err}"
    );
}

#[test]
fn division_by_zero_inside_a_region_and_outside() {
    let err = run(BAD, "divide", vec![Value::vector_i64(&[4, 5]), Value::i64(0)]).unwrap_err();
    assert!(matches!(err, InterpError::DivisionByZero { ref op, .. } if op == "arith.divsi"), "{err}");
    located(&err, "arith.divsi");
    let err = run(BAD, "divide", vec![Value::vector_i64(&[i64::MIN]), Value::i64(-1)]).unwrap_err();
    assert!(matches!(err, InterpError::Undefined { .. }), "signed overflow: {err}");
    // An empty map never divides.
    assert!(run(BAD, "divide", vec![Value::vector_i64(&[]), Value::i64(0)]).is_ok());
    let err = run(BAD, "remainder", vec![Value::index(3), Value::index(0)]).unwrap_err();
    assert!(matches!(err, InterpError::DivisionByZero { ref op, .. } if op == "arith.remui"), "{err}");
}

#[test]
fn unsupported_ops_are_reported_with_their_location() {
    let err = run(BAD, "isnormal", vec![Value::f64(0.5)]).unwrap_err();
    assert!(matches!(err, InterpError::Unsupported { ref op, .. } if op == "math.isnormal"), "{err}");
    located(&err, "math.isnormal");
}

#[test]
fn shape_mismatches_of_dynamic_sizes() {
    let err = run(BAD, "zip", vec![Value::vector_i64(&[1, 2, 3]), Value::vector_i64(&[1, 2])]).unwrap_err();
    assert!(matches!(err, InterpError::ShapeMismatch { ref op, .. } if op == "array.map"), "{err}");
    let err = run(BAD, "staticMismatch", vec![Value::vector_i64(&[1, 2])]).unwrap_err();
    assert!(matches!(err, InterpError::ShapeMismatch { .. }), "{err}");
}

#[test]
fn poison_is_an_error() {
    let err = run(BAD, "shift", vec![Value::i32(1), Value::i32(32)]).unwrap_err();
    assert!(matches!(err, InterpError::Undefined { ref op, .. } if op == "arith.shli"), "{err}");
    assert_eq!(run(BAD, "shift", vec![Value::i32(1), Value::i32(31)]).unwrap(), vec![Value::i32(i32::MIN)]);
    let err = run(BAD, "negativeSize", vec![Value::index(-1)]).unwrap_err();
    assert!(matches!(err, InterpError::Undefined { ref op, .. } if op == "array.generate"), "{err}");
}

/// Sizes beyond the element limit (or overflowing) are refused instead of exhausting memory.
#[test]
fn huge_arrays_are_refused() {
    let err = run(BAD, "negativeSize", vec![Value::index(1 << 40)]).unwrap_err();
    assert!(matches!(err, InterpError::TooLarge { ref op, .. } if op == "array.generate"), "{err}");
    with_source(BAD, |m| {
        let small = Interpreter::new(m).with_max_elements(3);
        assert!(small.run("negativeSize", vec![Value::index(3)]).is_ok());
        let err = small.run("negativeSize", vec![Value::index(4)]).unwrap_err();
        assert!(matches!(err, InterpError::TooLarge { .. }), "{err}");
    });
}

#[test]
fn loop_limit_stops_infinite_loops() {
    with_source(BAD, |m| {
        let err = Interpreter::new(m).with_max_loop_iterations(1000).run("forever", vec![Value::i64(1)]).unwrap_err();
        assert!(
            matches!(err, InterpError::LoopLimitExceeded { ref op, limit: 1000, .. } if op == "scf.while"),
            "{err}"
        );
    });
}

#[test]
fn bad_arguments_and_unknown_functions() {
    let err = run(BAD, "zip", vec![Value::vector_i64(&[1])]).unwrap_err();
    assert!(matches!(err, InterpError::BadArguments { .. }), "{err}");
    let err = run(BAD, "zip", vec![Value::vector_f64(&[1.0]), Value::vector_i64(&[1])]).unwrap_err();
    assert!(matches!(err, InterpError::BadArguments { .. }), "{err}");
    let err = run(BAD, "staticMismatch", vec![Value::matrix_i64(1, 1, &[1])]).unwrap_err();
    assert!(matches!(err, InterpError::BadArguments { .. }), "{err}");
    let err = run(BAD, "nope", vec![]).unwrap_err();
    assert_eq!(err, InterpError::UnknownFunction("nope".into()));
}

/// An external that returns the wrong kind of value is caught at the call.
#[test]
fn externals_returning_wrong_values_are_invalid() {
    with_example_external("seed001_closest_points.mlir", &["closestPoints"], |m| {
        let interpreter = Interpreter::new(m).with_external("closestPoints", |_| Ok(vec![Value::f64(1.0)]));
        let err =
            interpreter.run("closestPointsStep", vec![Value::vector_complex(&[(0.0, 0.0), (1.0, 1.0)])]).unwrap_err();
        assert!(matches!(err, InterpError::Invalid { ref op, .. } if op == "func.call"), "{err}");
        let interpreter = Interpreter::new(m).with_external("closestPoints", |_| {
            Err(InterpError::ExternalFailed { function: "closestPoints".into(), message: "no".into() })
        });
        let err =
            interpreter.run("closestPointsStep", vec![Value::vector_complex(&[(0.0, 0.0), (1.0, 1.0)])]).unwrap_err();
        assert!(matches!(err, InterpError::ExternalFailed { .. }), "{err}");
    });
}
