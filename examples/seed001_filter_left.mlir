// Source: seed 001 (Robinson, Lippmeier, Keller, "Clustering for array-backed
// streams"), §1.3.1 "Size types, constraints and schemes" (repeated in §1.3.4
// "Rigid sizes"), the program `filterLeft`:
//
//   filterLeft :s ∀ k1. ∃ k2. (xs:k1) → (ys1:k1, ys2:k2)
//   filterLeft xs
//    = let ys1 = map (+ 1) xs
//          ys2 = filter even xs
//      in (ys1, ys2)
//
// Its size scheme is valid: the existential (rigid) size k2 of the filter
// result only appears in an output, never in an input.
//
// Encoding choices: elements are i64 (`even` needs integers; the Coq/Agda
// signature in the text says Float, but `even` on Float is not defined);
// `even x` is `x rem 2 == 0`. The filter result has a dynamic length, which
// the `array.filter` verifier requires.

func.func @filterLeft(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %ys1 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c1 = arith.constant 1 : i64
    %y = arith.addi %x, %c1 : i64
    array.yield %y : i64
  }
  %ys2 = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c0 = arith.constant 0 : i64
    %r = arith.remsi %x, %c2 : i64
    %even = arith.cmpi eq, %r, %c0 : i64
    array.yield %even : i1
  }
  return %ys1, %ys2 : tensor<?xi64>, tensor<?xi64>
}
