// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "Gauss Elimination"
// (input size 2800, Benchpress' N for an N × N matrix; 2799 = N − 1 iterations, from
// the Benchpress suite). One iteration k of the benchmark's loop: the
// elimination below the pivot a_kk, without pivoting, as Benchpress' NumPy statement
// `S[c:, c-1:] -= (S[c:, c-1:c] / S[c-1:c, c-1:c]) * S[c-1:c, c-1:]` with c = k + 1:
//
//   a'_ij = a_ij − (a_ik / a_kk) · a_kj     for i > k and j ≥ k
//   a'_ij = a_ij                            otherwise (rows 0..k, and the columns
//                                           j < k, which earlier steps made 0)
//
// The loop over k = 0 .. n−2 and the final division of each row by its diagonal element
// stay outside (as the time loop does in heat_equation and nbody).
//
// Encoding choices: a is n × m (square in the benchmark; an augmented n × (n+1) system
// works too) and every shape is spelled from a's dims, so size inference proves all
// arrays equal. Three generated index arrays hold k, i and j at [i, j]; gathers of a at
// them give the pivot row a_kj, the pivot column a_ik and the pivot a_kk; the multiplier
// a_ik / a_kk, its product with the pivot row and the update are one map per NumPy
// operation; a generated i1 mask is the slice [k+1:, k:], and the update selects
// (multiplying by a 0/1 weight would turn an infinite multiplier into NaN outside the
// slice).
//
// k is an i64, not an index: generated inputs give an index scalar the value of --size
// (so k = n, a step that does nothing), an i64 one a value in −8..8, which checks steps
// inside the matrix too. Any k is defined: the gathers read at k clamped into
// 0 .. min(n, m) − 1 (in range whenever the arrays are not empty), and a k outside
// 0 ≤ k < min(n, m) leaves a unchanged (an empty mask). A zero pivot gives IEEE
// infinities / NaNs in rows below k, as in NumPy. 10 combinators.

func.func @gaussStep(%a: tensor<?x?xf64>, %k: i64) -> tensor<?x?xf64> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %n = array.dim %a, 0 : tensor<?x?xf64>
  %m = array.dim %a, 1 : tensor<?x?xf64>
  %nm = arith.minui %n, %m : index
  %nm64 = arith.index_cast %nm : index to i64
  %last = arith.subi %nm64, %one : i64
  %kLow = arith.minsi %k, %last : i64
  %kClamped = arith.maxsi %kLow, %zero : i64
  %kc = arith.index_cast %kClamped : i64 to index
  %notNegative = arith.cmpi sge, %k, %zero : i64
  %inside = arith.cmpi slt, %k, %nm64 : i64
  %valid = arith.andi %notNegative, %inside : i1
  %kIndex = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %kc : index
  }
  %iIndex = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %i : index
  }
  %jIndex = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %j : index
  }
  %pivotRow = array.gather %a[%kIndex, %jIndex] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %pivotCol = array.gather %a[%iIndex, %kIndex] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %pivot = array.gather %a[%kIndex, %kIndex] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %factor = array.map %pivotCol, %pivot : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%c: f64, %p: f64):
    %f = arith.divf %c, %p : f64
    array.yield %f : f64
  }
  %scaled = array.map %factor, %pivotRow : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%f: f64, %r: f64):
    %s = arith.mulf %f, %r : f64
    array.yield %s : f64
  }
  %below = array.generate (%n, %m) : tensor<?x?xi1> {
  ^bb0(%i: index, %j: index):
    %iBelow = arith.cmpi ugt, %i, %kc : index
    %jRight = arith.cmpi uge, %j, %kc : index
    %both = arith.andi %iBelow, %jRight : i1
    %in = arith.andi %both, %valid : i1
    array.yield %in : i1
  }
  %next = array.map %a, %scaled, %below : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%x: f64, %s: f64, %in: i1):
    %d = arith.subf %x, %s : f64
    %v = arith.select %in, %d, %x : f64
    array.yield %v : f64
  }
  return %next : tensor<?x?xf64>
}
