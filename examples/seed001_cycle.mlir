// Source: seed 001 (Robinson, Lippmeier, Keller, "Clustering for array-backed
// streams"), §1.4.2 "Integer linear program variables", the example of a
// clustering that must be rejected because it is cyclic:
//
//   cycle xs = let ys  = map (+1) xs    -(C1)
//                  sum = fold ys        -(C2)
//                  zs  = map (+sum) ys  -(C1)
//              in zs
//
// ys and zs cannot share cluster C1 while sum is in C2: the π constraints
// require π_ys ≤ π_sum < π_zs.
//
// Encoding choices: elements are i64; `fold ys` has no operator in the text
// and is taken to be `fold (+) 0 ys` (as in normalize2); `sum` is a rank-0
// tensor read in the second map with `array.index %sum[]`, the
// fusion-preventing edge.

func.func @cycle(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c1 = arith.constant 1 : i64
    %y = arith.addi %x, %c1 : i64
    array.yield %y : i64
  }
  %zero = arith.constant 0 : i64
  %sum = array.fold %ys init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %y: i64):
    %s = arith.addi %acc, %y : i64
    array.yield %s : i64
  }
  %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64):
    %s = array.index %sum[] : tensor<i64>
    %z = arith.addi %y, %s : i64
    array.yield %z : i64
  }
  return %zs : tensor<?xi64>
}
