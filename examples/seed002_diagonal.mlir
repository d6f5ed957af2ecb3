// Source: seed 002 (van Balen, "Optimal Fusion in Data-Parallel Languages",
// MSc thesis 2020), §2.1 and §2.1.2 "Limitation", the two small programs used
// to introduce vertical and (the need for) diagonal fusion:
//
//   §2.1:    zs = map f (map g xs)           -- map fusion (vertical)
//
//   §2.1.2:  -- Unfused
//            f xs = let ys = map g xs
//                   in (ys, map h ys)
//
// "We cannot horizontally fuse these loops, because the second loop
// (`map h ys`) depends on the result of the first loop (`map g xs`). We could
// vertically fuse these loops, but then we lose access to `ys`" — the case
// §4.1 names diagonal fusion.
//
// Functions: @mapFusion (§2.1; the inner map is bound to `%ys`, the name the
// thesis' imperative version uses) and @diagonalExample (§2.1.2; the thesis
// calls it `f`, renamed to avoid a clash with the worker names; the second
// result is bound to `%zs`, the array the imperative version writes).
//
// Workers are concrete, on i64: f(y) = y*2 + 1, g(x) = x*x, h(y) = y - 3.

func.func @mapFusion(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %y, %c2 : i64
    %z = arith.addi %twice, %c1 : i64
    array.yield %z : i64
  }
  return %zs : tensor<?xi64>
}

func.func @diagonalExample(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64):
    %c3 = arith.constant 3 : i64
    %z = arith.subi %y, %c3 : i64
    array.yield %z : i64
  }
  return %ys, %zs : tensor<?xi64>, tensor<?xi64>
}
