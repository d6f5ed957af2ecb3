// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "LU Factorization" (input
// size 2800, Benchpress' N for an N × N matrix; 2799 = N − 1 iterations, from the
// Benchpress suite). One iteration k of Doolittle's LU factorisation without
// pivoting, as Benchpress' NumPy loop body with c = k + 1:
//
//   l[c:, c-1]  = u[c:, c-1] / u[c-1, c-1:c]
//   u[c:, c-1:] = u[c:, c-1:] − l[c:, c-1][:, None] * u[c-1, c-1:]
//
// stored in place, L strictly below the diagonal and U on and above it:
//
//   l_i    = a_ik / a_kk                   for i > k     (the multipliers)
//   a'_ik  = l_i                           for i > k     (column k of L, in place)
//   a'_ij  = a_ij − l_i · a_kj             for i > k and j > k (the trailing update)
//   a'_ij  = a_ij                          otherwise
//
// The loop over k = 0 .. n−2 stays outside. Results: the updated matrix and column k of
// L (0 above the diagonal, 1 on it, the multipliers below), which Benchpress keeps in a
// separate array l.
//
// Encoding choices: as in NumPy, the multipliers are a 1-D array (n elements: gathers
// of a at generated (i, k) and (k, k), one map), and the 2-D update reads them broadcast
// along the rows, a gather of l at a generated row index. A gather's source is never
// fused with it (seed 000), so the 1-D part and the 2-D part are two clusters; the 2-D
// part gathers the pivot row a_kj at generated (k, j), multiplies (one map per NumPy
// operation) and selects the new value from i, j, k in one map over the index arrays.
// a is n × m (square in the benchmark), every shape is spelled from a's dims.
//
// k is an i64, not an index: generated inputs give an index scalar the value of --size
// (so k = n, a step that does nothing), an i64 one a value in −8..8, which checks steps
// inside the matrix too. Any k is defined: the gathers read at k clamped into
// 0 .. min(n, m) − 1 (in range whenever the arrays are not empty), and a k outside
// 0 ≤ k < min(n, m) leaves a unchanged and gives l = 0. A zero pivot gives IEEE
// infinities / NaNs below it, as in NumPy. 12 combinators.

func.func @luStep(%a: tensor<?x?xf64>, %k: i64) -> (tensor<?x?xf64>, tensor<?xf64>) {
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
  %rows = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  %kRows = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    array.yield %kc : index
  }
  %colK = array.gather %a[%rows, %kRows] : tensor<?x?xf64>[tensor<?xindex>, tensor<?xindex>] -> tensor<?xf64>
  %pivot = array.gather %a[%kRows, %kRows] : tensor<?x?xf64>[tensor<?xindex>, tensor<?xindex>] -> tensor<?xf64>
  %l = array.map %colK, %pivot, %rows : tensor<?xf64>, tensor<?xf64>, tensor<?xindex> -> tensor<?xf64> {
  ^bb0(%c: f64, %p: f64, %i: index):
    %zerof = arith.constant 0.0 : f64
    %onef = arith.constant 1.0 : f64
    %q = arith.divf %c, %p : f64
    %below = arith.cmpi ugt, %i, %kc : index
    %diagonal = arith.cmpi eq, %i, %kc : index
    %unit = arith.select %diagonal, %onef, %zerof : f64
    %v = arith.select %below, %q, %unit : f64
    %w = arith.select %valid, %v, %zerof : f64
    array.yield %w : f64
  }
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
  %lRows = array.gather %l[%iIndex] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %scaled = array.map %lRows, %pivotRow : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%f: f64, %r: f64):
    %s = arith.mulf %f, %r : f64
    array.yield %s : f64
  }
  %next = array.map %a, %lRows, %scaled, %iIndex, %jIndex : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xindex>, tensor<?x?xindex> -> tensor<?x?xf64> {
  ^bb0(%x: f64, %f: f64, %s: f64, %i: index, %j: index):
    %d = arith.subf %x, %s : f64
    %iBelow = arith.cmpi ugt, %i, %kc : index
    %jRight = arith.cmpi ugt, %j, %kc : index
    %jPivot = arith.cmpi eq, %j, %kc : index
    %trailing = arith.select %jRight, %d, %x : f64
    %inRow = arith.select %jPivot, %f, %trailing : f64
    %update = arith.andi %iBelow, %valid : i1
    %v = arith.select %update, %inRow, %x : f64
    array.yield %v : f64
  }
  return %next, %l : tensor<?x?xf64>, tensor<?xf64>
}
