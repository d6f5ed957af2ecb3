// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "Rosenbrock"
// (2 × 10^8 64-bit floats, 20 iterations, from the Benchpress suite). One iteration
// evaluates the n-dimensional Rosenbrock function of a vector x of n elements:
//
//   f(x) = Σ_{i=0}^{n−2} 100 · (x_{i+1} − x_i²)² + (1 − x_i)²
//
// which Benchpress writes with the shifted slices x[1:] and x[:-1]:
// np.sum(100.0 * (x[1:] - x[:-1] ** 2.0) ** 2.0 + (1 - x[:-1]) ** 2.0).
//
// Encoding choices: each slice is a gather of x at a generated index array of n − 1
// elements (i for x[:-1], i + 1 for x[1:]); both index arrays are generated from the one
// extent max(n, 1) − 1 taken from `array.dim` of x, so size inference proves every
// array of the sum one size (and n = 0 gives an empty sum, 0, rather than an extent
// that wraps around). The arithmetic is one map per part of the NumPy expression (the
// square of the head, the valley term 100 · (x[1:] − x[:-1]²)², the slope term
// (1 − x[:-1])², their sum), as Bohrium receives it, and the sum a fold into a rank-0
// tensor. 9 combinators.

func.func @rosenbrock(%x: tensor<?xf64>) -> tensor<f64> {
  %c1 = arith.constant 1 : index
  %n = array.dim %x, 0 : tensor<?xf64>
  %atLeastOne = arith.maxui %n, %c1 : index
  %m = arith.subi %atLeastOne, %c1 : index
  // x[:-1] and x[1:].
  %headIndex = array.generate (%m) : tensor<?xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  %tailIndex = array.generate (%m) : tensor<?xindex> {
  ^bb0(%i: index):
    %k = arith.addi %i, %c1 : index
    array.yield %k : index
  }
  %head = array.gather %x[%headIndex] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %tail = array.gather %x[%tailIndex] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  // x[:-1] ** 2
  %square = array.map %head : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%h: f64):
    %s = arith.mulf %h, %h : f64
    array.yield %s : f64
  }
  // 100 * (x[1:] - x[:-1] ** 2) ** 2
  %valley = array.map %tail, %square : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%t: f64, %s: f64):
    %d = arith.subf %t, %s : f64
    %dd = arith.mulf %d, %d : f64
    %hundred = arith.constant 100.0 : f64
    %v = arith.mulf %hundred, %dd : f64
    array.yield %v : f64
  }
  // (1 - x[:-1]) ** 2
  %slope = array.map %head : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%h: f64):
    %one = arith.constant 1.0 : f64
    %d = arith.subf %one, %h : f64
    %dd = arith.mulf %d, %d : f64
    array.yield %dd : f64
  }
  %terms = array.map %valley, %slope : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%v: f64, %s: f64):
    %t = arith.addf %v, %s : f64
    array.yield %t : f64
  }
  %zero = arith.constant 0.0 : f64
  %sum = array.fold %terms init(%zero : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %t: f64):
    %s = arith.addf %acc, %t : f64
    array.yield %s : f64
  }
  return %sum : tensor<f64>
}
