// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "Monte Carlo PI"
// (10^8 64-bit floats, 20 iterations, from the Benchpress suite). One iteration estimates
// π from n random points of the unit square, the fraction inside the quarter circle:
//
//   x_i, y_i uniform in [0, 1)                      (i = 0 … n−1)
//   count = #{ i : √(x_i² + y_i²) ≤ 1 }
//   π ≈ 4 · count / n
//
// Encoding choices: the random numbers are generated in the program, not passed in.
// Benchpress draws them with Bohrium's random123 (a counter-based generator: element i is
// a hash of the seed and the counter i, and x and y take consecutive counter ranges), so
// under Bohrium the drawing is array operations fused with the rest; here element c of
// the stream is SplitMix64's output function of key + γ·(c + 1) (γ = 0x9E3779B97F4A7C15,
// wrapping i64 arithmetic), its top 53 bits scaled by 2^−53, with counters 0 … n−1 for x
// and n … 2n−1 for y. The key is an i64 argument (the benchmark's seed). The test is
// `√(x² + y²) ≤ 1` as Benchpress writes it, a boolean array counted by a fold into an
// i64, and the estimate a rank-0 map. n = 0 gives 0/0 = NaN, as in the benchmark.
// With no input arrays the analysis fuses all 6 combinators into one loop (like
// seed003_leibniz_pi). 6 combinators.

func.func @monteCarloPi(%n: index, %key: i64) -> tensor<f64> {
  %one = arith.constant 1 : i64
  %gamma = arith.constant -7046029254386353131 : i64
  %m1 = arith.constant -4658895280553007687 : i64
  %m2 = arith.constant -7723592293110705685 : i64
  %s30 = arith.constant 30 : i64
  %s27 = arith.constant 27 : i64
  %s31 = arith.constant 31 : i64
  %s11 = arith.constant 11 : i64
  %ulp = arith.constant 1.1102230246251565e-16 : f64
  %nI = arith.index_cast %n : index to i64
  // x_i: counter i.
  %x = array.generate (%n) : tensor<?xf64> {
  ^bb0(%i: index):
    %c = arith.index_cast %i : index to i64
    %c1 = arith.addi %c, %one : i64
    %g = arith.muli %c1, %gamma : i64
    %z0 = arith.addi %key, %g : i64
    %a0 = arith.shrui %z0, %s30 : i64
    %b0 = arith.xori %z0, %a0 : i64
    %z1 = arith.muli %b0, %m1 : i64
    %a1 = arith.shrui %z1, %s27 : i64
    %b1 = arith.xori %z1, %a1 : i64
    %z2 = arith.muli %b1, %m2 : i64
    %a2 = arith.shrui %z2, %s31 : i64
    %z3 = arith.xori %z2, %a2 : i64
    %top = arith.shrui %z3, %s11 : i64
    %f = arith.uitofp %top : i64 to f64
    %u = arith.mulf %f, %ulp : f64
    array.yield %u : f64
  }
  // y_i: counter n + i.
  %y = array.generate (%n) : tensor<?xf64> {
  ^bb0(%i: index):
    %ci = arith.index_cast %i : index to i64
    %c = arith.addi %nI, %ci : i64
    %c1 = arith.addi %c, %one : i64
    %g = arith.muli %c1, %gamma : i64
    %z0 = arith.addi %key, %g : i64
    %a0 = arith.shrui %z0, %s30 : i64
    %b0 = arith.xori %z0, %a0 : i64
    %z1 = arith.muli %b0, %m1 : i64
    %a1 = arith.shrui %z1, %s27 : i64
    %b1 = arith.xori %z1, %a1 : i64
    %z2 = arith.muli %b1, %m2 : i64
    %a2 = arith.shrui %z2, %s31 : i64
    %z3 = arith.xori %z2, %a2 : i64
    %top = arith.shrui %z3, %s11 : i64
    %f = arith.uitofp %top : i64 to f64
    %u = arith.mulf %f, %ulp : f64
    array.yield %u : f64
  }
  %dist = array.map %x, %y : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %pp = arith.mulf %p, %p : f64
    %qq = arith.mulf %q, %q : f64
    %s = arith.addf %pp, %qq : f64
    %r = math.sqrt %s : f64
    array.yield %r : f64
  }
  %inside = array.map %dist : tensor<?xf64> -> tensor<?xi1> {
  ^bb0(%r: f64):
    %radius = arith.constant 1.0 : f64
    %in = arith.cmpf ole, %r, %radius : f64
    array.yield %in : i1
  }
  %zero = arith.constant 0 : i64
  %count = array.fold %inside init(%zero : i64) : tensor<?xi1> -> tensor<i64> {
  ^bb0(%acc: i64, %in: i1):
    %k = arith.extui %in : i1 to i64
    %s = arith.addi %acc, %k : i64
    array.yield %s : i64
  }
  %nF = arith.sitofp %nI : i64 to f64
  %pi = array.map %count : tensor<i64> -> tensor<f64> {
  ^bb0(%k: i64):
    %kf = arith.sitofp %k : i64 to f64
    %four = arith.constant 4.0 : f64
    %t = arith.mulf %kf, %four : f64
    %p = arith.divf %t, %nF : f64
    array.yield %p : f64
  }
  return %pi : tensor<f64>
}
