// Source: seed 003 (Kristensen, Lund, Blum, Avery, Vinter, "Fusion of Parallel
// Array Operations"), §6, Table I "Benchmark applications": "Leibnitz PI",
// 10^8 64-bit floats. The table names the benchmark only (its Benchpress source
// is not in the seed); this is the Leibniz series it is named after:
//
//   π = 4 · Σ_{k=0}^{n-1} (-1)^k / (2k + 1)
//
// Encoding choices: the terms are an `array.generate` of n elements (the sign from
// the parity of k, both as f64), summed by a fold with initial value 0 into a
// rank-0 tensor, then multiplied by 4 in a rank-0 `array.map`. The analysis fuses
// all three into one cluster: one loop carrying the sum, the map once after it.

func.func @leibnizPi(%n: index) -> tensor<f64> {
  %terms = array.generate (%n) : tensor<?xf64> {
  ^bb0(%k: index):
    %ki = arith.index_cast %k : index to i64
    %one = arith.constant 1 : i64
    %two = arith.constant 2 : i64
    %parity = arith.andi %ki, %one : i64
    %twice = arith.muli %parity, %two : i64
    %sign = arith.subi %one, %twice : i64
    %double = arith.muli %ki, %two : i64
    %odd = arith.addi %double, %one : i64
    %numerator = arith.sitofp %sign : i64 to f64
    %denominator = arith.sitofp %odd : i64 to f64
    %term = arith.divf %numerator, %denominator : f64
    array.yield %term : f64
  }
  %zero = arith.constant 0.0 : f64
  %sum = array.fold %terms init(%zero : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %term: f64):
    %next = arith.addf %acc, %term : f64
    array.yield %next : f64
  }
  %pi = array.map %sum : tensor<f64> -> tensor<f64> {
  ^bb0(%s: f64):
    %four = arith.constant 4.0 : f64
    %p = arith.mulf %s, %four : f64
    array.yield %p : f64
  }
  return %pi : tensor<f64>
}
