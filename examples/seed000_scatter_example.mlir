// Source: seed 000 (van Balen et al., "Fusing Gathers with ILP"), §3.4
// "Optimal Clustering", the program `scatterExample` (Figure 3 shows its data
// dependence graph and two clusterings):
//
//   def scatterExample (xs):
//       as = map (λx : (x*2, x), xs)
//       bs = map (+1, xs)
//       result = scatter (+, bs, as)
//       return result
//
// Encoding choices:
// * `as` is an array of (index, value) pairs; after the AoS-to-SoA step of
//   seed 000 §2 it is one 2-result `array.map`, `%as:2`: `%as#0` holds the
//   destination indices x*2 and `%as#1` the values x. `array.scatter` takes
//   exactly this form (index arrays, then the value array).
// * Elements are i64 and the index array is i64 too (allowed for index
//   arrays). As in the paper, the scatter is only defined when every index is
//   in range: the caller must supply 0 <= 2*x < size(xs) for all x in xs.
// * `bs` is the destination and `as` the source: `bs` reaches the scatter
//   through an infusible edge, `as` through a fusible one (Figure 3).

func.func @scatterExample(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %as:2 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %i = arith.muli %x, %c2 : i64
    array.yield %i, %x : i64, i64
  }
  %bs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c1 = arith.constant 1 : i64
    %b = arith.addi %x, %c1 : i64
    array.yield %b : i64
  }
  %result = array.scatter %bs[%as#0], %as#1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %result : tensor<?xi64>
}
