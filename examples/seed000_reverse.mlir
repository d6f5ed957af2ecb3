// Source: seed 000 (van Balen et al., "Fusing Gathers with ILP"), §2 Language,
// the definition of `reverse` in terms of `generate` and `gather`:
//
//   def reverse (xs):
//     n = size (xs)
//     inds = generate (n, \i : n-i-1)
//     result = gather (inds, xs)
//     return result
//
// Two functions:
// * @reverse        — the definition above, written in the core combinators
//                     (`array.size`, `array.generate`, `array.gather`); the
//                     index array has `index` elements.
// * @reverseSugar   — the same program with the `array.reverse` sugar op,
//                     which `array-desugar` rewrites into the body of @reverse.
// `xs` is a vector of f32 (the paper leaves the element type open).

func.func @reverse(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %n = array.size %xs : tensor<?xf32>
  %inds = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %ni = arith.subi %n, %i : index
    %ind = arith.subi %ni, %c1 : index
    array.yield %ind : index
  }
  %result = array.gather %xs[%inds] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
  return %result : tensor<?xf32>
}

func.func @reverseSugar(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %result = array.reverse %xs : tensor<?xf32>
  return %result : tensor<?xf32>
}
