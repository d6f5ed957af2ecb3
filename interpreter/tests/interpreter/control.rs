//! `func`, `scf` and `cf` control flow, and externals.

use crate::{floats, ints, run_ok, scalar_of, with_example_external, with_source};
use fusion_interpreter::{InterpError, Interpreter, Value};

const CONTROL: &str = r#"
func.func @sumTo(%n: index) -> (i64, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %cnt = %c0) -> (i64, index) {
    %ii = arith.index_cast %i : index to i64
    %a = arith.addi %acc, %ii : i64
    %c = arith.addi %cnt, %c1 : index
    scf.yield %a, %c : i64, index
  }
  return %r#0, %r#1 : i64, index
}

func.func @stepped(%lb: i32, %ub: i32, %step: i32) -> i32 {
  %z = arith.constant 0 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %z) -> (i32) : i32 {
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  }
  return %r : i32
}

func.func @collatz(%x: i64) -> (i64, i64) {
  %z = arith.constant 0 : i64
  %r:2 = scf.while (%v = %x, %steps = %z) : (i64, i64) -> (i64, i64) {
    %c1 = arith.constant 1 : i64
    %go = arith.cmpi ne, %v, %c1 : i64
    scf.condition(%go) %v, %steps : i64, i64
  } do {
  ^bb0(%v: i64, %steps: i64):
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %c3 = arith.constant 3 : i64
    %r = arith.remui %v, %c2 : i64
    %even = arith.cmpi eq, %r, %z : i64
    %next = scf.if %even -> (i64) {
      %h = arith.divui %v, %c2 : i64
      scf.yield %h : i64
    } else {
      %t = arith.muli %v, %c3 : i64
      %t1 = arith.addi %t, %c1 : i64
      scf.yield %t1 : i64
    }
    %s = arith.addi %steps, %c1 : i64
    scf.yield %next, %s : i64, i64
  }
  return %r#0, %r#1 : i64, i64
}

func.func @fact(%n: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %small = arith.cmpi sle, %n, %c1 : i64
  %r = scf.if %small -> (i64) {
    scf.yield %c1 : i64
  } else {
    %m = arith.subi %n, %c1 : i64
    %f = func.call @fact(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  return %r : i64
}

func.func @absBranches(%x: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %neg = arith.cmpi slt, %x, %c0 : i64
  cf.cond_br %neg, ^negate(%x : i64), ^done(%x : i64)
^negate(%v: i64):
  %n = arith.subi %c0, %v : i64
  cf.br ^done(%n : i64)
^done(%r: i64):
  return %r : i64
}

func.func @mapWithLoop(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %n = arith.index_cast %x : i64 to index
    %s, %c = func.call @sumTo(%n) : (index) -> (i64, index)
    array.yield %s : i64
  }
  return %ys : tensor<?xi64>
}
"#;

#[test]
fn scf_for_with_iteration_arguments() {
    assert_eq!(run_ok(CONTROL, "sumTo", vec![Value::index(5)]), vec![Value::i64(10), Value::index(5)]);
    assert_eq!(run_ok(CONTROL, "sumTo", vec![Value::index(0)]), vec![Value::i64(0), Value::index(0)]);
    // 2 + 5 + 8 on i32 induction variables
    assert_eq!(run_ok(CONTROL, "stepped", vec![Value::i32(2), Value::i32(10), Value::i32(3)]), vec![Value::i32(15)]);
}

#[test]
fn scf_while_and_if() {
    // 6 3 10 5 16 8 4 2 1
    assert_eq!(run_ok(CONTROL, "collatz", vec![Value::i64(6)]), vec![Value::i64(1), Value::i64(8)]);
}

#[test]
fn recursive_calls_and_calls_inside_regions() {
    assert_eq!(run_ok(CONTROL, "fact", vec![Value::i64(10)]), vec![Value::i64(3628800)]);
    let out = run_ok(CONTROL, "mapWithLoop", vec![Value::vector_i64(&[0, 1, 4])]);
    assert_eq!(ints(&out[0]), vec![0, 0, 6]);
}

#[test]
fn cf_branches_between_blocks() {
    assert_eq!(run_ok(CONTROL, "absBranches", vec![Value::i64(-4)]), vec![Value::i64(4)]);
    assert_eq!(run_ok(CONTROL, "absBranches", vec![Value::i64(3)]), vec![Value::i64(3)]);
}

#[test]
fn the_call_depth_limit_stops_runaway_recursion() {
    with_source(CONTROL, |m| {
        let err = Interpreter::new(m).with_max_call_depth(20).run("fact", vec![Value::i64(100)]).unwrap_err();
        assert_eq!(err, InterpError::CallDepthExceeded { function: "fact".into(), limit: 20 });
        // The default limit and stack take a deep (but bounded) recursion, and stop a
        // runaway one cleanly.
        let out = Interpreter::new(m).run("fact", vec![Value::i64(200)]).unwrap();
        assert_eq!(out.len(), 1);
        let err = Interpreter::new(m).run("fact", vec![Value::i64(100_000)]).unwrap_err();
        assert!(matches!(err, InterpError::CallDepthExceeded { limit: Interpreter::DEFAULT_MAX_CALL_DEPTH, .. }));
        // A raised limit gets a stack to match.
        let out = Interpreter::new(m).with_max_call_depth(5000).run("fact", vec![Value::i64(4000)]).unwrap();
        assert_eq!(out.len(), 1);
    });
}

/// Seed 001 closestPointsStep calls the external @closestPoints; registering a Rust
/// implementation (brute force) lets it run.
#[test]
fn externals_run_when_registered() {
    let pts = Value::vector_complex(&[(0.0, 0.0), (3.0, 0.2), (0.5, 4.0), (1.0, 4.5), (3.0, 6.0)]);
    with_example_external("seed001_closest_points.mlir", &["closestPoints"], |m| {
        let err = Interpreter::new(m).run("closestPointsStep", vec![pts.clone()]).unwrap_err();
        assert_eq!(err, InterpError::External("closestPoints".into()));
        let brute = |args: &[Value]| -> Result<Vec<Value>, InterpError> {
            let t = args[0].as_tensor().ok_or_else(|| InterpError::ExternalFailed {
                function: "closestPoints".into(),
                message: "not a tensor".into(),
            })?;
            let ps: Vec<(f64, f64)> = t.elements.iter().map(|v| v.as_complex().unwrap()).collect();
            let mut best = f64::INFINITY;
            for i in 0..ps.len() {
                for j in i + 1..ps.len() {
                    best = best.min((ps[i].0 - ps[j].0).hypot(ps[i].1 - ps[j].1));
                }
            }
            Ok(vec![Value::scalar_tensor(Value::f64(best))])
        };
        let out = Interpreter::new(m).with_external("closestPoints", brute).run("closestPointsStep", vec![pts.clone()]);
        let out = out.unwrap_or_else(|e| panic!("{e}"));
        // midy = 14.7/5 = 2.94: above = (0.5,4), (1,4.5), (3,6) -> 0.7071; below = (0,0), (3,0.2)
        // -> 3.0067; border = 0.7071: no point is within the border strips.
        let d = scalar_of(&out[0]).as_f64().unwrap();
        assert!((d - 0.5f64.hypot(0.5)).abs() < 1e-12, "{d}");
    });
}

/// Seed 001 quadtree with its five externals in Rust: boxes are split into quadrants
/// until a box is smaller than 1.5 wide, trees are handles (the example's `i64`) counting leaves.
#[test]
fn quadtree_with_opaque_externals() {
    use std::{cell::RefCell, rc::Rc};
    let pts = Value::vector_complex(&[(0.1, 0.1), (0.9, 0.2), (2.5, 2.5), (3.9, 0.5), (1.0, 3.0)]);
    let leaves: Rc<RefCell<Vec<usize>>> = Rc::default();
    let externals = ["smallbox", "splitbox", "nil", "leafArray", "tree"];
    with_example_external("seed001_quadtree.mlir", &externals, |m| {
        let box_of = |v: &Value| floats(v);
        let sink = leaves.clone();
        let interpreter = Interpreter::new(m)
            .with_external("nil", |_| Ok(vec![Value::i64(0)]))
            .with_external("smallbox", move |args| {
                let b = box_of(&args[0]);
                Ok(vec![Value::i1(b[2] - b[0] < 1.5)])
            })
            .with_external("leafArray", move |args| {
                let n = args[0].as_tensor().unwrap().len();
                sink.borrow_mut().push(n);
                Ok(vec![Value::i64(n as i64)])
            })
            .with_external("splitbox", |args| {
                let b = floats(&args[0]);
                let (mx, my) = ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
                Ok([[b[0], b[1], mx, my], [mx, b[1], b[2], my], [b[0], my, mx, b[3]], [mx, my, b[2], b[3]]]
                    .iter()
                    .map(|q| Value::vector_f64(q))
                    .collect())
            })
            .with_external("tree", |args| Ok(vec![Value::i64(args.iter().map(|a| a.as_i64().unwrap_or(0)).sum())]));
        let out = interpreter.run("quadtree", vec![pts]).unwrap_or_else(|e| panic!("{e}"));
        // The bounds are [0.1, 0.1, 3.9, 3.0]; points on the upper bounds fall in no
        // quadrant (half-open boxes), so the tree holds the 3 others.
        assert_eq!(out, vec![Value::i64(3)]);
    });
    assert_eq!(leaves.borrow().iter().sum::<usize>(), 3);
}
