// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "Heat Equation"
// (1.44 × 10^8 64-bit floats, 20 iterations, from the Benchpress suite): one Jacobi
// step of the two-dimensional heat equation on a grid whose border is held fixed, and
// the step's total change, which the benchmark's loop compares with a tolerance:
//
//   new[i, j] = 0.2 · (g[i, j] + g[i−1, j] + g[i+1, j] + g[i, j−1] + g[i, j+1])   inside
//   new[i, j] = g[i, j]                                                          on the border
//   delta     = Σ |new − g|
//
// Encoding choices: each neighbour is a gather of the grid at clamped indices (six
// generated index arrays, one per row or column offset), so every stencil read is a
// fusible gather; a generated 0/1 weight marks the inside; the total change is a fold
// of the rows, then of the row sums. 15 combinators.

func.func @heatStep(%grid: tensor<?x?xf64>) -> (tensor<?x?xf64>, tensor<f64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %n = array.dim %grid, 0 : tensor<?x?xf64>
  %m = array.dim %grid, 1 : tensor<?x?xf64>
  %nLast = arith.subi %n, %c1 : index
  %mLast = arith.subi %m, %c1 : index
  %rowUp = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %i, %c1 : index
    %k = arith.subi %a, %c1 : index
    array.yield %k : index
  }
  %rowDown = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.addi %i, %c1 : index
    %k = arith.minui %a, %nLast : index
    array.yield %k : index
  }
  %rowSame = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):

    array.yield %i : index
  }
  %colSame = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):

    array.yield %j : index
  }
  %colLeft = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %j, %c1 : index
    %k = arith.subi %a, %c1 : index
    array.yield %k : index
  }
  %colRight = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.addi %j, %c1 : index
    %k = arith.minui %a, %mLast : index
    array.yield %k : index
  }
  %up = array.gather %grid[%rowUp, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %down = array.gather %grid[%rowDown, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %left = array.gather %grid[%rowSame, %colLeft] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %right = array.gather %grid[%rowSame, %colRight] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %inside = array.generate (%n, %m) : tensor<?x?xf64> {
  ^bb0(%i: index, %j: index):
    %i0 = arith.cmpi ugt, %i, %c0 : index
    %i1 = arith.cmpi ult, %i, %nLast : index
    %j0 = arith.cmpi ugt, %j, %c0 : index
    %j1 = arith.cmpi ult, %j, %mLast : index
    %a = arith.andi %i0, %i1 : i1
    %b = arith.andi %j0, %j1 : i1
    %in = arith.andi %a, %b : i1
    %w = arith.select %in, %one, %zero : f64
    array.yield %w : f64
  }
  %next = array.map %grid, %up, %down, %left, %right, %inside : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%g: f64, %u: f64, %d: f64, %l: f64, %r: f64, %w: f64):
    %s1 = arith.addf %g, %u : f64
    %s2 = arith.addf %s1, %d : f64
    %s3 = arith.addf %s2, %l : f64
    %s4 = arith.addf %s3, %r : f64
    %fifth = arith.constant 0.2 : f64
    %avg = arith.mulf %s4, %fifth : f64
    %change = arith.subf %avg, %g : f64
    %step = arith.mulf %w, %change : f64
    %v = arith.addf %g, %step : f64
    array.yield %v : f64
  }
  %diff = array.map %next, %grid : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%a: f64, %b: f64):
    %d = arith.subf %a, %b : f64
    %e = math.absf %d : f64
    array.yield %e : f64
  }
  %rowDelta = array.fold %diff init(%zero : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %s = arith.addf %acc, %x : f64
    array.yield %s : f64
  }
  %delta = array.fold %rowDelta init(%zero : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %s = arith.addf %acc, %x : f64
    array.yield %s : f64
  }
  return %next, %delta : tensor<?x?xf64>, tensor<f64>
}
