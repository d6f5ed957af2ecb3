// Source: seed 000 (van Balen, Keller, de Wolff, McDonell, "Fusing Gathers with
// Integer Linear Programming", FProPer 2024), §1 Introduction, the program
// `singleLoop`:
//
//   def singleLoop (as):
//     bs = reverse (as)
//     cs = map (f, as)
//     ds = map (g, cs)
//     result = zipWith3 (λ(b,c,d) : b+c+d, bs, cs, ds)
//     return result
//
// The paper's point: with vertical, horizontal *and diagonal* fusion plus
// gather orders, the whole function fuses into a single loop without any
// intermediate array (`cs` is fused diagonally: read by `ds` and `result`).
//
// Encoding choices:
// * `reverse (as)` is written with the `array.reverse` sugar so that the line
//   maps one-to-one onto the source; `array-desugar` turns it into the §2
//   definition `generate (n, \i: n-i-1)` + `gather` (see
//   seed000_reverse.mlir), which is what makes `bs` read `as` in the order of
//   a gather label rather than order 0.
// * `zipWith3` is a 3-input `array.map` (seed 000 §2: after the AoS-to-SoA
//   transformation every zipWith is a map).
// * The abstract workers are made concrete so the program can be executed:
//   f(x) = x*2 + 1 and g(x) = x*x, on i64 elements (the paper leaves the
//   element type open).

func.func @singleLoop(%as: tensor<?xi64>) -> tensor<?xi64> {
  %bs = array.reverse %as : tensor<?xi64>
  %cs = array.map %as : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %a, %c2 : i64
    %c = arith.addi %twice, %c1 : i64
    array.yield %c : i64
  }
  %ds = array.map %cs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%c: i64):
    %d = arith.muli %c, %c : i64
    array.yield %d : i64
  }
  %result = array.map %bs, %cs, %ds : tensor<?xi64>, tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%b: i64, %c: i64, %d: i64):
    %bc = arith.addi %b, %c : i64
    %bcd = arith.addi %bc, %d : i64
    array.yield %bcd : i64
  }
  return %result : tensor<?xi64>
}
