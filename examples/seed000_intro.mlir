// Source: seed 000 (van Balen et al., "Fusing Gathers with ILP"), the small
// unnamed examples of §1 (Figure 1 (a) and (b)) and §3.2:
//
//   §1, Figure 1(a), vertical fusion:      map (f, map (g, xs))
//
//   §1, Figure 1(b), horizontal fusion:    as = map (f, xs)
//                                          bs = map (g, xs)
//
//   §3.2, merging [x:d | y:d] and [x:d, y:d | z:d], "corresponding to
//   y = map f x and z = zipWith g x y": x shared horizontally, y fused
//   vertically, z introduced by INTRO2.
//
// The paper gives these programs no names; the functions are named after the
// kind of fusion they illustrate: @verticalExample, @horizontalExample and
// @mergeExample. The inner map of @verticalExample is bound to `%ys` (the
// source has no name for it).
//
// Workers are concrete so the programs can be executed, on i64 elements:
// f(x) = x*2 + 1, g(x) = x*x, and the zipWith worker g(x, y) = x + y.

func.func @verticalExample(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %g = arith.muli %x, %x : i64
    array.yield %g : i64
  }
  %result = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %y, %c2 : i64
    %f = arith.addi %twice, %c1 : i64
    array.yield %f : i64
  }
  return %result : tensor<?xi64>
}

func.func @horizontalExample(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %x, %c2 : i64
    %f = arith.addi %twice, %c1 : i64
    array.yield %f : i64
  }
  %bs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %g = arith.muli %x, %x : i64
    array.yield %g : i64
  }
  return %as, %bs : tensor<?xi64>, tensor<?xi64>
}

func.func @mergeExample(%x: tensor<?xi64>) -> tensor<?xi64> {
  %y = array.map %x : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %a, %c2 : i64
    %f = arith.addi %twice, %c1 : i64
    array.yield %f : i64
  }
  %z = array.map %x, %y : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %g = arith.addi %a, %b : i64
    array.yield %g : i64
  }
  return %z : tensor<?xi64>
}
