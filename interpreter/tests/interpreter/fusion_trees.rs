//! Fusion trees written by hand (as `array-fuse` would build them) give the values of
//! their unfused programs.

use crate::{ints, run_ok, scalar_of, with_source};
use fusion_interpreter::{Interpreter, Value};

/// ys = xs*xs; zs = 2ys+1; ws = zs-3; s = sum zs — returns (ws, zs, s). Fused: a
/// vertical (ys is fused away) whose consumer is a diagonal (zs is kept and streamed)
/// whose consumer is a horizontal of the map and the fold over zs.
pub const TREES: &str = r#"
func.func @unfused(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>, tensor<i64>) {
  %zero = arith.constant 0 : i64
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %t = arith.muli %y, %c2 : i64
    %z = arith.addi %t, %c1 : i64
    array.yield %z : i64
  }
  %ws = array.map %zs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%z: i64):
    %c3 = arith.constant 3 : i64
    %w = arith.subi %z, %c3 : i64
    array.yield %w : i64
  }
  %s = array.fold %zs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %z: i64):
    %a = arith.addi %acc, %z : i64
    array.yield %a : i64
  }
  return %ws, %zs, %s : tensor<?xi64>, tensor<?xi64>, tensor<i64>
}

func.func @fused(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>, tensor<i64>) {
  %zero = arith.constant 0 : i64
  %r:3 = array.cluster -> tensor<?xi64>, tensor<?xi64>, tensor<i64> {
    %v:3 = array.vertical -> tensor<?xi64>, tensor<?xi64>, tensor<i64> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %y = arith.muli %x, %x : i64
        array.yield %y : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %d:3 = array.diagonal -> tensor<?xi64>, tensor<?xi64>, tensor<i64> producer {
        %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
        ^bb0(%y: i64):
          %c2 = arith.constant 2 : i64
          %c1 = arith.constant 1 : i64
          %t = arith.muli %y, %c2 : i64
          %z = arith.addi %t, %c1 : i64
          array.yield %z : i64
        }
        array.yield %zs : tensor<?xi64>
      } consumer {
      ^bb0(%zs: tensor<?xi64>):
        %h:2 = array.horizontal -> tensor<?xi64>, tensor<i64> left {
          %ws = array.map %zs : tensor<?xi64> -> tensor<?xi64> {
          ^bb0(%z: i64):
            %c3 = arith.constant 3 : i64
            %w = arith.subi %z, %c3 : i64
            array.yield %w : i64
          }
          array.yield %ws : tensor<?xi64>
        } right {
          %s = array.fold %zs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
          ^bb0(%acc: i64, %z: i64):
            %a = arith.addi %acc, %z : i64
            array.yield %a : i64
          }
          array.yield %s : tensor<i64>
        }
        array.yield %h#0, %h#1 : tensor<?xi64>, tensor<i64>
      }
      array.yield %d#0, %d#1, %d#2 : tensor<?xi64>, tensor<?xi64>, tensor<i64>
    }
    array.yield %v#0, %v#1, %v#2 : tensor<?xi64>, tensor<?xi64>, tensor<i64>
  }
  return %r#1, %r#0, %r#2 : tensor<?xi64>, tensor<?xi64>, tensor<i64>
}

func.func @normalize2Unfused(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %zero = arith.constant 0 : i64
  %sum1 = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %gts = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : i64
    %gt = arith.cmpi sgt, %x, %c0 : i64
    array.yield %gt : i1
  }
  %sum2 = array.fold %gts init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %ys:2 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%x: i64):
    %s1 = array.index %sum1[] : tensor<i64>
    %s2 = array.index %sum2[] : tensor<i64>
    %y1 = arith.floordivsi %x, %s1 : i64
    %y2 = arith.floordivsi %x, %s2 : i64
    array.yield %y1, %y2 : i64, i64
  }
  return %ys#0, %ys#1 : tensor<?xi64>, tensor<?xi64>
}

func.func @normalize2Fused(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %zero = arith.constant 0 : i64
  %sums:2 = array.cluster -> tensor<i64>, tensor<i64> {
    %h:2 = array.horizontal -> tensor<i64>, tensor<i64> left {
      %sum1 = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
      ^bb0(%acc: i64, %x: i64):
        %s = arith.addi %acc, %x : i64
        array.yield %s : i64
      }
      array.yield %sum1 : tensor<i64>
    } right {
      %v = array.vertical -> tensor<i64> producer {
        %gts = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
        ^bb0(%x: i64):
          %c0 = arith.constant 0 : i64
          %gt = arith.cmpi sgt, %x, %c0 : i64
          array.yield %gt : i1
        }
        array.yield %gts : tensor<?xi64>
      } consumer {
      ^bb0(%gts: tensor<?xi64>):
        %sum2 = array.fold %gts init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
        ^bb0(%acc: i64, %x: i64):
          %s = arith.addi %acc, %x : i64
          array.yield %s : i64
        }
        array.yield %sum2 : tensor<i64>
      }
      array.yield %v : tensor<i64>
    }
    array.yield %h#0, %h#1 : tensor<i64>, tensor<i64>
  }
  %ys:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    %m:2 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
    ^bb0(%x: i64):
      %s1 = array.index %sums#0[] : tensor<i64>
      %s2 = array.index %sums#1[] : tensor<i64>
      %y1 = arith.floordivsi %x, %s1 : i64
      %y2 = arith.floordivsi %x, %s2 : i64
      array.yield %y1, %y2 : i64, i64
    }
    array.yield %m#0, %m#1 : tensor<?xi64>, tensor<?xi64>
  }
  return %ys#0, %ys#1 : tensor<?xi64>, tensor<?xi64>
}
"#;

#[test]
fn vertical_diagonal_and_horizontal_give_the_unfused_values() {
    let xs = Value::vector_i64(&[1, -2, 3, 0]);
    let unfused = run_ok(TREES, "unfused", vec![xs.clone()]);
    let fused = run_ok(TREES, "fused", vec![xs]);
    // zs = 2x^2 + 1 = [3, 9, 19, 1]; ws = zs - 3; s = 32
    assert_eq!(ints(&unfused[0]), vec![0, 6, 16, -2]);
    assert_eq!(ints(&unfused[1]), vec![3, 9, 19, 1]);
    assert_eq!(scalar_of(&unfused[2]), Value::i64(32));
    assert_eq!(fused, unfused);
}

#[test]
fn fused_filter_into_fold_gives_the_unfused_values() {
    with_source(TREES, |m| {
        let interpreter = Interpreter::new(m);
        for xs in [vec![3, -40, 2, 1, 7], vec![5], vec![-1, 4, 4, -9, 2, 8]] {
            let unfused = interpreter.run("normalize2Unfused", vec![Value::vector_i64(&xs)]).unwrap();
            let fused = interpreter.run("normalize2Fused", vec![Value::vector_i64(&xs)]).unwrap();
            assert_eq!(fused, unfused, "{xs:?}");
        }
        let out = interpreter.run("normalize2Fused", vec![Value::vector_i64(&[3, -40, 2, 1, 7])]).unwrap();
        // sum1 = -27, sum2 = 13: floor(xs / -27), floor(xs / 13)
        assert_eq!(ints(&out[0]), vec![-1, 1, -1, -1, -1]);
        assert_eq!(ints(&out[1]), vec![0, -4, 0, 0, 0]);
    });
}
