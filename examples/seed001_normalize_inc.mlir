// Source: seed 001 (Robinson, Lippmeier, Keller, "Clustering for array-backed
// streams"), §1.4 "Integer linear programming", the program `normalizeInc`
// whose two clusterings are shown in Figure 1.9.
//
// The listing itself is missing from the seed text (only "consider the
// following simple function:" and the figure caption survive), so the program
// is reconstructed from the surrounding prose:
//
//   "One option is to compute sum1 first and fuse the computation of incs and
//    ys. Another option is to fuse the computation of incs and sum1 into a
//    single loop, then compute ys separately. [...] The first clustering [...]
//    requires two reads from array xs and one write to array ys. The second
//    clustering requires a single fused read from xs, one write to incs, a
//    read back from incs and a final write to ys. From the size constraints of
//    the program, we know that all intermediate arrays have the same size."
//
// Both clusterings only work if `sum1` reads `xs` (not `incs`: otherwise sum1
// could not be computed first on its own while incs is fused with ys), `incs`
// is a map over `xs`, and `ys` maps over `incs` dividing by `sum1`:
//
//   normalizeInc :: Array Int -> Array Int
//   normalizeInc xs
//    = let incs = map (+ 1) xs
//          sum1 = fold (+) 0 xs
//          ys   = map (/ sum1) incs
//      in ys
//
// (the name and the "incs"/"sum1"/"ys" bindings are the ones the prose uses;
// the worker functions (+1) and (/ sum1) follow normalize2 of §1.1.)
//
// Encoding choices: Int is i64, `/` is truncating `arith.divsi` as in
// normalize2 (Listing 1.1); `sum1` is a rank-0 tensor read with
// `array.index %sum1[]` inside the map, i.e. a fusion-preventing edge.

func.func @normalizeInc(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %incs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c1 = arith.constant 1 : i64
    %inc = arith.addi %x, %c1 : i64
    array.yield %inc : i64
  }
  %zero = arith.constant 0 : i64
  %sum1 = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %ys = array.map %incs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%inc: i64):
    %s1 = array.index %sum1[] : tensor<i64>
    %y = arith.divsi %inc, %s1 : i64
    array.yield %y : i64
  }
  return %ys : tensor<?xi64>
}
