// Source: seed 003 (Kristensen et al., "Fusion of Array Operations at Runtime"
// (Bohrium)), §VI Table I: "Successive over-relaxation" (1.44 × 10^8 64-bit floats, 20
// iterations, from the Benchpress suite, benchmarks/sor/python_numpy/sor.py, its `solve`).
// Benchpress' SOR is a red-black sweep: the grid G (2h × 2w points, its outermost ring held
// fixed) is kept as four h × w sub-grids by the parity of row and column,
//
//   r0[i, j] = G[2i, 2j]      b0[i, j] = G[2i, 2j+1]
//   b1[i, j] = G[2i+1, 2j]    r1[i, j] = G[2i+1, 2j+1]
//
// and one sweep updates r1, then r0 (from the old black points), then b1, then b0 (from
// the new red points), each on the sub-grid's part that lies inside G, every point as
// the average of itself and its four neighbours, in Benchpress' order of additions:
//
//   r1[i, j] ← (r1[i, j] + b0[i, j] + b0[i+1, j] + b1[i, j] + b1[i, j+1]) · 0.2   i < h−1, j < w−1
//   r0[i, j] ← (r0[i, j] + b1[i−1, j] + b1[i, j] + b0[i, j−1] + b0[i, j]) · 0.2   i ≥ 1,   j ≥ 1
//   b1[i, j] ← (b1[i, j] + r0[i, j] + r0[i+1, j] + r1[i, j−1] + r1[i, j]) · 0.2   i < h−1, j ≥ 1
//   b0[i, j] ← (b0[i, j] + r1[i−1, j] + r1[i, j] + r0[i, j] + r0[i, j+1]) · 0.2   i ≥ 1,   j < w−1
//
// (that is g + ω · (¼ · (up + down + left + right) − g) with ω = 0.8; Benchpress has no
// other relaxation factor), the other points keep their value; then the sweep's delta,
// which `solve` compares with its epsilon, from the new sub-grids:
//
//   delta = Σ_{i≥1, j≥1} |r0[i, j] − b0[i, j−1]| + Σ_{i<h−1, j<w−1} |r1[i, j] − b1[i, j+1]|
//         + Σ_{i≥1, j≥1} |r0[i, j] − b1[i−1, j]| + Σ_{i≥1, j<w−1} |b0[i, j] − r1[i−1, j]|
//
// Encoding choices: the arguments and results are the sub-grids in Benchpress' order
// (r0, r1, b0, b1), all of the size of r0 (a precondition, as for any zip of arguments);
// each shifted read is a gather at clamped indices (six generated index arrays, one per
// row or column offset), four generated i1 masks mark where each sub-grid is updated (those
// of r1, r0 and b0 are also the delta's slices), each update is a map that keeps the old
// value outside its mask. Each term of the delta is a map of masked absolute differences (0
// outside NumPy's slice), the four terms are summed by a fold of the rows with four
// accumulators, then a fold of the row sums with four accumulators, then added in
// Benchpress' order in a rank-0 map (NumPy's np.sum adds pairwise, these folds in order;
// the sums of the shipped input are exact either way). 32 combinators.

func.func @sorSweep(%r0: tensor<?x?xf64>, %r1: tensor<?x?xf64>, %b0: tensor<?x?xf64>, %b1: tensor<?x?xf64>) -> (tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<f64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %h = array.dim %r0, 0 : tensor<?x?xf64>
  %w = array.dim %r0, 1 : tensor<?x?xf64>
  %hLast = arith.subi %h, %c1 : index
  %wLast = arith.subi %w, %c1 : index
  %rowUp = array.generate (%h, %w) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %i, %c1 : index
    %k = arith.subi %a, %c1 : index
    array.yield %k : index
  }
  %rowSame = array.generate (%h, %w) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %i : index
  }
  %rowDown = array.generate (%h, %w) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.addi %i, %c1 : index
    %k = arith.minui %a, %hLast : index
    array.yield %k : index
  }
  %colLeft = array.generate (%h, %w) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %j, %c1 : index
    %k = arith.subi %a, %c1 : index
    array.yield %k : index
  }
  %colSame = array.generate (%h, %w) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %j : index
  }
  %colRight = array.generate (%h, %w) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.addi %j, %c1 : index
    %k = arith.minui %a, %wLast : index
    array.yield %k : index
  }
  // Where each sub-grid is updated: i < h−1 or i ≥ 1, and j < w−1 or j ≥ 1.
  %maskR1 = array.generate (%h, %w) : tensor<?x?xi1> {
  ^bb0(%i: index, %j: index):
    %a = arith.cmpi ult, %i, %hLast : index
    %b = arith.cmpi ult, %j, %wLast : index
    %in = arith.andi %a, %b : i1
    array.yield %in : i1
  }
  %maskR0 = array.generate (%h, %w) : tensor<?x?xi1> {
  ^bb0(%i: index, %j: index):
    %a = arith.cmpi ugt, %i, %c0 : index
    %b = arith.cmpi ugt, %j, %c0 : index
    %in = arith.andi %a, %b : i1
    array.yield %in : i1
  }
  %maskB1 = array.generate (%h, %w) : tensor<?x?xi1> {
  ^bb0(%i: index, %j: index):
    %a = arith.cmpi ult, %i, %hLast : index
    %b = arith.cmpi ugt, %j, %c0 : index
    %in = arith.andi %a, %b : i1
    array.yield %in : i1
  }
  %maskB0 = array.generate (%h, %w) : tensor<?x?xi1> {
  ^bb0(%i: index, %j: index):
    %a = arith.cmpi ugt, %i, %c0 : index
    %b = arith.cmpi ult, %j, %wLast : index
    %in = arith.andi %a, %b : i1
    array.yield %in : i1
  }
  // r1 from the old black points.
  %b0Down = array.gather %b0[%rowDown, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %b1Right = array.gather %b1[%rowSame, %colRight] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %r1New = array.map %r1, %b0, %b0Down, %b1, %b1Right, %maskR1 : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%g: f64, %u: f64, %d: f64, %l: f64, %r: f64, %in: i1):
    %s1 = arith.addf %g, %u : f64
    %s2 = arith.addf %s1, %d : f64
    %s3 = arith.addf %s2, %l : f64
    %s4 = arith.addf %s3, %r : f64
    %fifth = arith.constant 0.2 : f64
    %avg = arith.mulf %s4, %fifth : f64
    %v = arith.select %in, %avg, %g : f64
    array.yield %v : f64
  }
  // r0 from the old black points.
  %b1Up = array.gather %b1[%rowUp, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %b0Left = array.gather %b0[%rowSame, %colLeft] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %r0New = array.map %r0, %b1Up, %b1, %b0Left, %b0, %maskR0 : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%g: f64, %u: f64, %d: f64, %l: f64, %r: f64, %in: i1):
    %s1 = arith.addf %g, %u : f64
    %s2 = arith.addf %s1, %d : f64
    %s3 = arith.addf %s2, %l : f64
    %s4 = arith.addf %s3, %r : f64
    %fifth = arith.constant 0.2 : f64
    %avg = arith.mulf %s4, %fifth : f64
    %v = arith.select %in, %avg, %g : f64
    array.yield %v : f64
  }
  // b1 from the new red points.
  %r0NewDown = array.gather %r0New[%rowDown, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %r1NewLeft = array.gather %r1New[%rowSame, %colLeft] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %b1New = array.map %b1, %r0New, %r0NewDown, %r1NewLeft, %r1New, %maskB1 : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%g: f64, %u: f64, %d: f64, %l: f64, %r: f64, %in: i1):
    %s1 = arith.addf %g, %u : f64
    %s2 = arith.addf %s1, %d : f64
    %s3 = arith.addf %s2, %l : f64
    %s4 = arith.addf %s3, %r : f64
    %fifth = arith.constant 0.2 : f64
    %avg = arith.mulf %s4, %fifth : f64
    %v = arith.select %in, %avg, %g : f64
    array.yield %v : f64
  }
  // b0 from the new red points.
  %r1NewUp = array.gather %r1New[%rowUp, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %r0NewRight = array.gather %r0New[%rowSame, %colRight] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %b0New = array.map %b0, %r1NewUp, %r1New, %r0New, %r0NewRight, %maskB0 : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%g: f64, %u: f64, %d: f64, %l: f64, %r: f64, %in: i1):
    %s1 = arith.addf %g, %u : f64
    %s2 = arith.addf %s1, %d : f64
    %s3 = arith.addf %s2, %l : f64
    %s4 = arith.addf %s3, %r : f64
    %fifth = arith.constant 0.2 : f64
    %avg = arith.mulf %s4, %fifth : f64
    %v = arith.select %in, %avg, %g : f64
    array.yield %v : f64
  }
  // The four terms of the delta, 0 outside their slices.
  %b0NewLeft = array.gather %b0New[%rowSame, %colLeft] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %term1 = array.map %r0New, %b0NewLeft, %maskR0 : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%a: f64, %b: f64, %in: i1):
    %d = arith.subf %a, %b : f64
    %e = math.absf %d : f64
    %v = arith.select %in, %e, %zero : f64
    array.yield %v : f64
  }
  %b1NewRight = array.gather %b1New[%rowSame, %colRight] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %term2 = array.map %r1New, %b1NewRight, %maskR1 : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%a: f64, %b: f64, %in: i1):
    %d = arith.subf %a, %b : f64
    %e = math.absf %d : f64
    %v = arith.select %in, %e, %zero : f64
    array.yield %v : f64
  }
  %b1NewUp = array.gather %b1New[%rowUp, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %term3 = array.map %r0New, %b1NewUp, %maskR0 : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%a: f64, %b: f64, %in: i1):
    %d = arith.subf %a, %b : f64
    %e = math.absf %d : f64
    %v = arith.select %in, %e, %zero : f64
    array.yield %v : f64
  }
  %term4 = array.map %b0New, %r1NewUp, %maskB0 : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%a: f64, %b: f64, %in: i1):
    %d = arith.subf %a, %b : f64
    %e = math.absf %d : f64
    %v = arith.select %in, %e, %zero : f64
    array.yield %v : f64
  }
  %rows:4 = array.fold %term1, %term2, %term3, %term4 init(%zero, %zero, %zero, %zero : f64, f64, f64, f64) : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64> {
  ^bb0(%s1: f64, %s2: f64, %s3: f64, %s4: f64, %x1: f64, %x2: f64, %x3: f64, %x4: f64):
    %t1 = arith.addf %s1, %x1 : f64
    %t2 = arith.addf %s2, %x2 : f64
    %t3 = arith.addf %s3, %x3 : f64
    %t4 = arith.addf %s4, %x4 : f64
    array.yield %t1, %t2, %t3, %t4 : f64, f64, f64, f64
  }
  %sums:4 = array.fold %rows#0, %rows#1, %rows#2, %rows#3 init(%zero, %zero, %zero, %zero : f64, f64, f64, f64) : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64> -> tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64> {
  ^bb0(%s1: f64, %s2: f64, %s3: f64, %s4: f64, %x1: f64, %x2: f64, %x3: f64, %x4: f64):
    %t1 = arith.addf %s1, %x1 : f64
    %t2 = arith.addf %s2, %x2 : f64
    %t3 = arith.addf %s3, %x3 : f64
    %t4 = arith.addf %s4, %x4 : f64
    array.yield %t1, %t2, %t3, %t4 : f64, f64, f64, f64
  }
  %delta = array.map %sums#0, %sums#1, %sums#2, %sums#3 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64> -> tensor<f64> {
  ^bb0(%a: f64, %b: f64, %c: f64, %d: f64):
    %ab = arith.addf %a, %b : f64
    %abc = arith.addf %ab, %c : f64
    %all = arith.addf %abc, %d : f64
    array.yield %all : f64
  }
  return %r0New, %r1New, %b0New, %b1New, %delta : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<f64>
}
