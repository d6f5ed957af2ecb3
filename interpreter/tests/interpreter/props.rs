//! Properties on random inputs: the combinators against plain Rust, and fused trees
//! against their unfused programs.

use crate::{fusion_trees::TREES, ints, scalar_of, with_source};
use fusion_interpreter::{Interpreter, Value};
use proptest::{
    collection::vec,
    test_runner::{Config, TestRunner},
};

const PROGRAMS: &str = r#"
func.func @pipeline(%xs: tensor<?xi64>) -> (tensor<i64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %zero = arith.constant 0 : i64
  %sum = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %pre = array.scan right exclusive %xs init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %odd = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c0 = arith.constant 0 : i64
    %r = arith.remsi %x, %c2 : i64
    %p = arith.cmpi ne, %r, %c0 : i64
    array.yield %p : i1
  }
  %rev = array.reverse %xs : tensor<?xi64>
  return %sum, %pre, %odd, %rev : tensor<i64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}
"#;

#[test]
fn combinators_agree_with_plain_rust() {
    with_source(PROGRAMS, |m| {
        let interpreter = Interpreter::new(m);
        let mut runner = TestRunner::new(Config { cases: 64, ..Config::default() });
        runner
            .run(&vec(-1000i64..1000, 0..12), |xs| {
                let out = interpreter.run("pipeline", vec![Value::vector_i64(&xs)]).unwrap();
                assert_eq!(scalar_of(&out[0]), Value::i64(xs.iter().sum()));
                let suffix: Vec<i64> = (0..xs.len()).map(|i| xs[i + 1..].iter().sum()).collect();
                assert_eq!(ints(&out[1]), suffix);
                assert_eq!(ints(&out[2]), xs.iter().copied().filter(|x| x % 2 != 0).collect::<Vec<_>>());
                assert_eq!(ints(&out[3]), xs.iter().rev().copied().collect::<Vec<_>>());
                Ok(())
            })
            .unwrap();
    });
}

#[test]
fn fused_trees_agree_with_unfused_programs() {
    with_source(TREES, |m| {
        let interpreter = Interpreter::new(m);
        let mut runner = TestRunner::new(Config { cases: 64, ..Config::default() });
        runner
            .run(&vec(-1_000_000i64..1_000_000, 0..10), |xs| {
                let args = vec![Value::vector_i64(&xs)];
                assert_eq!(interpreter.run("fused", args.clone()), interpreter.run("unfused", args.clone()));
                // Errors (a zero sum divides) must agree too, up to the location.
                let fused = interpreter.run("normalize2Fused", args.clone()).map_err(|e| e.op().map(str::to_owned));
                let unfused = interpreter.run("normalize2Unfused", args).map_err(|e| e.op().map(str::to_owned));
                assert_eq!(fused, unfused);
                Ok(())
            })
            .unwrap();
    });
}
