// Source: seed 001 (Robinson, Lippmeier, Keller, "Clustering for array-backed
// streams"), §1.3.4 "Rigid sizes": the two programs that seed 001's size
// inference rejects. They are well-typed and, because every size is dynamic
// (`?`), they parse and pass the `array` verifiers; only the size-inference
// analysis (seed 001 §1.3, rule SProgram of Figure 1.5) finds that the equality
// the map needs cannot be proven. This project does not reject them: it warns,
// does not fuse the map with the producers of its inputs, and checks the
// equality at run time (passes/src/extract/sizes.rs).
//
// bad1 — the listing is missing from the seed text; the prose says "The above
// program filters its input array, and then applies map2 to the filtered
// version as well as the original array", and the size constraints given for
// it,
//     xs : k_xs, flt : k_flt, ∃k1, ys : k_ys, k2
//     ⊢ k_flt = k1 ∧ k_flt = k2 ∧ k_xs = k2 ∧ k_ys = k2,
// list the map2 inputs in the order flt, xs (compare bad2 below, where the
// order of the map2 constraints is the order of its arguments). Hence:
//
//   bad1 xs
//    = let flt = filter p xs
//          ys  = map2 f flt xs
//      in ys
//
// Rejected because xs gets the rigid size k1 of the filter output.
//
// bad2 — quoted from the seed:
//
//   bad2 xs
//    = let flt1 = filter p1 xs
//          flt2 = filter p2 xs
//          ys   = map2 f flt1 flt2
//      in ys
//
// Rejected because the two rigid sizes k1 and k2 would have to be unified.
//
// Encoding choices: `map2` is a 2-input `array.map` (its verifier accepts the
// two `?`-sized inputs; equal lengths are a size-inference obligation). The
// abstract workers are concrete, on i64: p x = x > 0, p1 = p, p2 x = even x
// (x rem 2 == 0), f a b = a + b. Executing either function is only
// meaningful when the lengths happen to agree (e.g. p holds everywhere).

func.func @bad1(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %flt = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : i64
    %p = arith.cmpi sgt, %x, %c0 : i64
    array.yield %p : i1
  }
  %ys = array.map %flt, %xs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %y = arith.addi %a, %b : i64
    array.yield %y : i64
  }
  return %ys : tensor<?xi64>
}

func.func @bad2(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %flt1 = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : i64
    %p1 = arith.cmpi sgt, %x, %c0 : i64
    array.yield %p1 : i1
  }
  %flt2 = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c0 = arith.constant 0 : i64
    %r = arith.remsi %x, %c2 : i64
    %p2 = arith.cmpi eq, %r, %c0 : i64
    array.yield %p2 : i1
  }
  %ys = array.map %flt1, %flt2 : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %y = arith.addi %a, %b : i64
    array.yield %y : i64
  }
  return %ys : tensor<?xi64>
}
