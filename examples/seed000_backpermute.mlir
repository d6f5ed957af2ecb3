// Source: seed 000 (van Balen et al., "Fusing Gathers with ILP"), §2.1 "On the
// Choice of Combinators": `backpermute` defined with `generate` + `gather`, and
// conversely `gather` defined with `backpermute` (which needs indexing):
//
//   def backpermute (sz, f, xs):
//     is = generate (sz, f)
//     ys = gather (is, xs)
//     return ys
//
//   def gather (is, xs):
//     sz = size (is)
//     f = λi : is!i
//     ys = backpermute (sz, f, xs)
//     return ys
//
// Three functions:
// * @backpermute          — the first definition, core combinators only.
// * @backpermuteSugar     — the same program with the `array.backpermute`
//                           sugar op (desugared by `array-desugar` into the
//                           body of @backpermute).
// * @gatherViaBackpermute — the second definition: `is` is read with
//                           `array.index` inside the index function, so it is
//                           a free variable of the backpermute and (as the
//                           paper says) the producer of `is` cannot fuse.
//
// The index function `f` is a parameter in the paper; it is made concrete as
// f(i) = (2*i) mod n with n = size(xs), which is in bounds for every output
// size `sz` (the caller must pass a non-empty `xs`). Elements are f32.

func.func @backpermute(%sz: index, %xs: tensor<?xf32>) -> tensor<?xf32> {
  %n = array.size %xs : tensor<?xf32>
  %is = array.generate (%sz) : tensor<?xindex> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %twice = arith.muli %i, %c2 : index
    %j = arith.remui %twice, %n : index
    array.yield %j : index
  }
  %ys = array.gather %xs[%is] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
  return %ys : tensor<?xf32>
}

func.func @backpermuteSugar(%sz: index, %xs: tensor<?xf32>) -> tensor<?xf32> {
  %n = array.size %xs : tensor<?xf32>
  %ys = array.backpermute %xs to (%sz) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %twice = arith.muli %i, %c2 : index
    %j = arith.remui %twice, %n : index
    array.yield %j : index
  }
  return %ys : tensor<?xf32>
}

func.func @gatherViaBackpermute(%is: tensor<?xindex>, %xs: tensor<?xf32>) -> tensor<?xf32> {
  %sz = array.size %is : tensor<?xindex>
  %ys = array.backpermute %xs to (%sz) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    %j = array.index %is[%i] : tensor<?xindex>
    array.yield %j : index
  }
  return %ys : tensor<?xf32>
}
