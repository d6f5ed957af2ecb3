// Source: seed 000 (van Balen et al., "Fusing Gathers with ILP"), §5
// Evaluation, "Greedy counterexamples": the two programs on which the greedy
// bottom-up and top-down baselines miss the optimal clustering.
//
//   def greedyBottomUpBad(xs, m):
//       n = shape xs
//       is = generate ((n,m), lambda m: n)
//       large = gather (is, xs)
//       ys = fold (+, large)
//       zs = fold (*, large)
//       result = map (lambda y: y + zs!0, ys)
//       return result
//
//   def greedyTopDownBad(as):
//       n = shape as
//       bs = map (lambda a: a*2, as)
//       cs = map (lambda b: b+1, bs)
//       ds = generate (n, lambda i: i+bs!0)
//       es = zipWith (+, cs, ds)
//       result = fold (+, es)
//       return result
//
// Encoding choices:
// * greedyBottomUpBad: the generator `lambda m: n` of the listing is garbled;
//   the text says `xs` is gathered into a large (n x m) intermediate array,
//   i.e. large[i][j] = xs[i] (a replicate along a new innermost dimension; the
//   `array.replicate` sugar documents exactly this generate+gather). So `is`
//   is `generate ((n,m), \(i,j) -> i)`, a rank-2 index array for the rank-1
//   source. `m` is an `index` argument. The folds reduce the innermost
//   dimension m, so `ys` and `zs` have n elements; `zs!0` is `array.index
//   %zs[%c0]` inside the final map, which makes `zs` a free variable of it.
// * `fold` gets explicit initial values: 0 for (+) and 1 for (*).
// * greedyTopDownBad: `bs!0` inside the generator is `array.index %bs[%c0]`
//   (a free variable, so `bs` must be manifest before `ds`); the index `i` is
//   converted to the element type. `zipWith (+)` is a 2-input `array.map`.
//   The scalar `result` of the fold is a rank-0 tensor.
// * Element types: f64 for greedyBottomUpBad, i64 for greedyTopDownBad (the
//   paper does not give them; i + bs!0 suggests integers).

func.func @greedyBottomUpBad(%xs: tensor<?xf64>, %m: index) -> tensor<?xf64> {
  %n = array.size %xs : tensor<?xf64>
  %is = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %i : index
  }
  %large = array.gather %xs[%is] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %zero = arith.constant 0.0 : f64
  %ys = array.fold %large init(%zero : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %s = arith.addf %acc, %x : f64
    array.yield %s : f64
  }
  %one = arith.constant 1.0 : f64
  %zs = array.fold %large init(%one : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %p = arith.mulf %acc, %x : f64
    array.yield %p : f64
  }
  %result = array.map %ys : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%y: f64):
    %c0 = arith.constant 0 : index
    %z0 = array.index %zs[%c0] : tensor<?xf64>
    %r = arith.addf %y, %z0 : f64
    array.yield %r : f64
  }
  return %result : tensor<?xf64>
}

func.func @greedyTopDownBad(%as: tensor<?xi64>) -> tensor<i64> {
  %n = array.size %as : tensor<?xi64>
  %bs = array.map %as : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64):
    %c2 = arith.constant 2 : i64
    %b = arith.muli %a, %c2 : i64
    array.yield %b : i64
  }
  %cs = array.map %bs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%b: i64):
    %c1 = arith.constant 1 : i64
    %c = arith.addi %b, %c1 : i64
    array.yield %c : i64
  }
  %ds = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %b0 = array.index %bs[%c0] : tensor<?xi64>
    %ii = arith.index_cast %i : index to i64
    %d = arith.addi %ii, %b0 : i64
    array.yield %d : i64
  }
  %es = array.map %cs, %ds : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%c: i64, %d: i64):
    %e = arith.addi %c, %d : i64
    array.yield %e : i64
  }
  %zero = arith.constant 0 : i64
  %result = array.fold %es init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %e: i64):
    %s = arith.addi %acc, %e : i64
    array.yield %s : i64
  }
  return %result : tensor<i64>
}
