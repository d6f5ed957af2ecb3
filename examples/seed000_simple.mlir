// Source: seed 000 (van Balen et al., "Fusing Gathers with ILP"), §3.3
// "Traversal-Order Sensitive Fusion", the five small programs simple1..simple5
// (the paper prints each next to its fused imperative loop; only the
// combinator programs are quoted here):
//
//   def simple1 (is,xs):         def simple2 (is1, is2, xs):
//     as = map (f, xs)             as = gatherl1 (is1, xs)
//     bs = gatherl (is, as)        bs = gatherl2 (is2, as)
//     return bs                    return bs
//
//   def simple3 (is, xs):        def simple4 (is, xs):
//     as = map (f, xs)             m,n = size xs
//     bs = gatherl (is, as)        as = fold (f, xs)
//     return (as, bs)              bs = gatherl (is, as)
//                                  return bs
//
//   def simple5 (is, xs):
//     as = map (g, xs)
//     bs = gatherl (is, xs)
//     cs = zipWith (h, as, bs)
//     in cs
//
// Encoding choices:
// * Gather labels l, l1, l2 are not written: the fusion analysis assigns one
//   label per `array.gather` (seed 000 §2).
// * Workers are concrete so the programs can be executed, on i64 elements:
//   f(x) = x*2 + 1 for the maps, g(x) = x*x, h(a,b) = a - b. In simple4 `f` is
//   the binary operator of a fold; it is addition with initial value 0
//   (`array.fold` takes an explicit initial value, the paper's fold does not).
// * simple4: `xs` is two-dimensional (m x n) and `fold` reduces the innermost
//   dimension, so `as` has m elements and `is` indexes rows. `m,n = size xs` is
//   kept as `array.size` although only the fused loop in the paper uses n.
// * simple5: `zipWith` is a 2-input `array.map`, which requires equal lengths
//   (the paper's loop runs to min(is.size, xs.size)); with dynamic sizes this
//   verifies, and the caller must pass `is` as long as `xs`.
// * simple3 returns `as` as well: it cannot be fused away, and the paper uses
//   it to show why outputs of a cluster must have order 0 or 1.

func.func @simple1(%is: tensor<?xindex>, %xs: tensor<?xi64>) -> tensor<?xi64> {
  %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %x, %c2 : i64
    %a = arith.addi %twice, %c1 : i64
    array.yield %a : i64
  }
  %bs = array.gather %as[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  return %bs : tensor<?xi64>
}

func.func @simple2(%is1: tensor<?xindex>, %is2: tensor<?xindex>, %xs: tensor<?xi64>) -> tensor<?xi64> {
  %as = array.gather %xs[%is1] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  %bs = array.gather %as[%is2] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  return %bs : tensor<?xi64>
}

func.func @simple3(%is: tensor<?xindex>, %xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %x, %c2 : i64
    %a = arith.addi %twice, %c1 : i64
    array.yield %a : i64
  }
  %bs = array.gather %as[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  return %as, %bs : tensor<?xi64>, tensor<?xi64>
}

func.func @simple4(%is: tensor<?xindex>, %xs: tensor<?x?xi64>) -> tensor<?xi64> {
  %m, %n = array.size %xs : tensor<?x?xi64>
  %zero = arith.constant 0 : i64
  %as = array.fold %xs init(%zero : i64) : tensor<?x?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %bs = array.gather %as[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  return %bs : tensor<?xi64>
}

func.func @simple5(%is: tensor<?xindex>, %xs: tensor<?xi64>) -> tensor<?xi64> {
  %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %a = arith.muli %x, %x : i64
    array.yield %a : i64
  }
  %bs = array.gather %xs[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  %cs = array.map %as, %bs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %c = arith.subi %a, %b : i64
    array.yield %c : i64
  }
  return %cs : tensor<?xi64>
}
