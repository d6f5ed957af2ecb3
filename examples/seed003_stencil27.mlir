// Source: seed 003 (Kristensen et al., "Fusion of Array Operations at Runtime"
// (Bohrium)), §VI Table I: "27 Point Stencil" (4.2875 × 10^7 64-bit floats, i.e. a
// 350³ grid, 20 iterations, from the Benchpress suite,
// benchmarks/point27/python_numpy/point27.py). One step: every inside point of a 3-D grid
// becomes the average of its 3 × 3 × 3 neighbourhood (itself included), and the border
// (the outermost layer, which Benchpress' `no_border(data, 1)` leaves out) is held fixed:
//
//   new[i, j, k] = (Σ_{a,b,c ∈ {−1,0,1}} g[i+a, j+b, k+c]) / 27     inside
//   new[i, j, k] = g[i, j, k]                                       on the border
//
// Benchpress computes `active[:] = sum(D3P27(data)) / 27.0`: the 27 shifted views in
// itertools.product order (offset a slowest, c fastest, each −1, 0, +1), summed left to
// right by Python's `sum`. It computes no change or residual (its loop runs a fixed number
// of iterations), so this step has no fold either.
//
// Encoding choices: each of the 27 views is a gather of the grid at clamped indices (nine
// generated index arrays, one per dimension and offset; clamping keeps the border's reads
// in bounds, and the border keeps its value anyway); the sum is three maps, one per plane
// offset a (the second and third continue the previous plane's sum, so the additions are
// in Python's order); a generated i1 mask marks the inside; the last map divides by 27
// inside and keeps the old value on the border. 41 combinators.

func.func @stencil27Step(%grid: tensor<?x?x?xf64>) -> tensor<?x?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n0 = array.dim %grid, 0 : tensor<?x?x?xf64>
  %n1 = array.dim %grid, 1 : tensor<?x?x?xf64>
  %n2 = array.dim %grid, 2 : tensor<?x?x?xf64>
  %last0 = arith.subi %n0, %c1 : index
  %last1 = arith.subi %n1, %c1 : index
  %last2 = arith.subi %n2, %c1 : index
  %iPrev = array.generate (%n0, %n1, %n2) : tensor<?x?x?xindex> {
  ^bb0(%i: index, %j: index, %k: index):
    %a = arith.maxui %i, %c1 : index
    %x = arith.subi %a, %c1 : index
    array.yield %x : index
  }
  %iSame = array.generate (%n0, %n1, %n2) : tensor<?x?x?xindex> {
  ^bb0(%i: index, %j: index, %k: index):
    array.yield %i : index
  }
  %iNext = array.generate (%n0, %n1, %n2) : tensor<?x?x?xindex> {
  ^bb0(%i: index, %j: index, %k: index):
    %a = arith.addi %i, %c1 : index
    %x = arith.minui %a, %last0 : index
    array.yield %x : index
  }
  %jPrev = array.generate (%n0, %n1, %n2) : tensor<?x?x?xindex> {
  ^bb0(%i: index, %j: index, %k: index):
    %a = arith.maxui %j, %c1 : index
    %x = arith.subi %a, %c1 : index
    array.yield %x : index
  }
  %jSame = array.generate (%n0, %n1, %n2) : tensor<?x?x?xindex> {
  ^bb0(%i: index, %j: index, %k: index):
    array.yield %j : index
  }
  %jNext = array.generate (%n0, %n1, %n2) : tensor<?x?x?xindex> {
  ^bb0(%i: index, %j: index, %k: index):
    %a = arith.addi %j, %c1 : index
    %x = arith.minui %a, %last1 : index
    array.yield %x : index
  }
  %kPrev = array.generate (%n0, %n1, %n2) : tensor<?x?x?xindex> {
  ^bb0(%i: index, %j: index, %k: index):
    %a = arith.maxui %k, %c1 : index
    %x = arith.subi %a, %c1 : index
    array.yield %x : index
  }
  %kSame = array.generate (%n0, %n1, %n2) : tensor<?x?x?xindex> {
  ^bb0(%i: index, %j: index, %k: index):
    array.yield %k : index
  }
  %kNext = array.generate (%n0, %n1, %n2) : tensor<?x?x?xindex> {
  ^bb0(%i: index, %j: index, %k: index):
    %a = arith.addi %k, %c1 : index
    %x = arith.minui %a, %last2 : index
    array.yield %x : index
  }
  %smmm = array.gather %grid[%iPrev, %jPrev, %kPrev] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %smmz = array.gather %grid[%iPrev, %jPrev, %kSame] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %smmp = array.gather %grid[%iPrev, %jPrev, %kNext] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %smzm = array.gather %grid[%iPrev, %jSame, %kPrev] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %smzz = array.gather %grid[%iPrev, %jSame, %kSame] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %smzp = array.gather %grid[%iPrev, %jSame, %kNext] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %smpm = array.gather %grid[%iPrev, %jNext, %kPrev] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %smpz = array.gather %grid[%iPrev, %jNext, %kSame] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %smpp = array.gather %grid[%iPrev, %jNext, %kNext] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %szmm = array.gather %grid[%iSame, %jPrev, %kPrev] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %szmz = array.gather %grid[%iSame, %jPrev, %kSame] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %szmp = array.gather %grid[%iSame, %jPrev, %kNext] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %szzm = array.gather %grid[%iSame, %jSame, %kPrev] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %szzz = array.gather %grid[%iSame, %jSame, %kSame] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %szzp = array.gather %grid[%iSame, %jSame, %kNext] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %szpm = array.gather %grid[%iSame, %jNext, %kPrev] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %szpz = array.gather %grid[%iSame, %jNext, %kSame] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %szpp = array.gather %grid[%iSame, %jNext, %kNext] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %spmm = array.gather %grid[%iNext, %jPrev, %kPrev] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %spmz = array.gather %grid[%iNext, %jPrev, %kSame] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %spmp = array.gather %grid[%iNext, %jPrev, %kNext] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %spzm = array.gather %grid[%iNext, %jSame, %kPrev] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %spzz = array.gather %grid[%iNext, %jSame, %kSame] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %spzp = array.gather %grid[%iNext, %jSame, %kNext] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %sppm = array.gather %grid[%iNext, %jNext, %kPrev] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %sppz = array.gather %grid[%iNext, %jNext, %kSame] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %sppp = array.gather %grid[%iNext, %jNext, %kNext] : tensor<?x?x?xf64>[tensor<?x?x?xindex>, tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf64>
  %plane0 = array.map %smmm, %smmz, %smmp, %smzm, %smzz, %smzp, %smpm, %smpz, %smpp : tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64> -> tensor<?x?x?xf64> {
  ^bb0(%x0: f64, %x1: f64, %x2: f64, %x3: f64, %x4: f64, %x5: f64, %x6: f64, %x7: f64, %x8: f64):
    %t1 = arith.addf %x0, %x1 : f64
    %t2 = arith.addf %t1, %x2 : f64
    %t3 = arith.addf %t2, %x3 : f64
    %t4 = arith.addf %t3, %x4 : f64
    %t5 = arith.addf %t4, %x5 : f64
    %t6 = arith.addf %t5, %x6 : f64
    %t7 = arith.addf %t6, %x7 : f64
    %t8 = arith.addf %t7, %x8 : f64
    array.yield %t8 : f64
  }
  %plane1 = array.map %plane0, %szmm, %szmz, %szmp, %szzm, %szzz, %szzp, %szpm, %szpz, %szpp : tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64> -> tensor<?x?x?xf64> {
  ^bb0(%x0: f64, %x1: f64, %x2: f64, %x3: f64, %x4: f64, %x5: f64, %x6: f64, %x7: f64, %x8: f64, %x9: f64):
    %t1 = arith.addf %x0, %x1 : f64
    %t2 = arith.addf %t1, %x2 : f64
    %t3 = arith.addf %t2, %x3 : f64
    %t4 = arith.addf %t3, %x4 : f64
    %t5 = arith.addf %t4, %x5 : f64
    %t6 = arith.addf %t5, %x6 : f64
    %t7 = arith.addf %t6, %x7 : f64
    %t8 = arith.addf %t7, %x8 : f64
    %t9 = arith.addf %t8, %x9 : f64
    array.yield %t9 : f64
  }
  %plane2 = array.map %plane1, %spmm, %spmz, %spmp, %spzm, %spzz, %spzp, %sppm, %sppz, %sppp : tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64> -> tensor<?x?x?xf64> {
  ^bb0(%x0: f64, %x1: f64, %x2: f64, %x3: f64, %x4: f64, %x5: f64, %x6: f64, %x7: f64, %x8: f64, %x9: f64):
    %t1 = arith.addf %x0, %x1 : f64
    %t2 = arith.addf %t1, %x2 : f64
    %t3 = arith.addf %t2, %x3 : f64
    %t4 = arith.addf %t3, %x4 : f64
    %t5 = arith.addf %t4, %x5 : f64
    %t6 = arith.addf %t5, %x6 : f64
    %t7 = arith.addf %t6, %x7 : f64
    %t8 = arith.addf %t7, %x8 : f64
    %t9 = arith.addf %t8, %x9 : f64
    array.yield %t9 : f64
  }
  %inside = array.generate (%n0, %n1, %n2) : tensor<?x?x?xi1> {
  ^bb0(%i: index, %j: index, %k: index):
    %lo0 = arith.cmpi ugt, %i, %c0 : index
    %hi0 = arith.cmpi ult, %i, %last0 : index
    %lo1 = arith.cmpi ugt, %j, %c0 : index
    %hi1 = arith.cmpi ult, %j, %last1 : index
    %lo2 = arith.cmpi ugt, %k, %c0 : index
    %hi2 = arith.cmpi ult, %k, %last2 : index
    %a0 = arith.andi %lo0, %hi0 : i1
    %a1 = arith.andi %lo1, %hi1 : i1
    %a2 = arith.andi %lo2, %hi2 : i1
    %b = arith.andi %a0, %a1 : i1
    %in = arith.andi %b, %a2 : i1
    array.yield %in : i1
  }
  %next = array.map %grid, %plane2, %inside : tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xi1> -> tensor<?x?x?xf64> {
  ^bb0(%g: f64, %s: f64, %in: i1):
    %count = arith.constant 27.0 : f64
    %avg = arith.divf %s, %count : f64
    %v = arith.select %in, %avg, %g : f64
    array.yield %v : f64
  }
  return %next : tensor<?x?x?xf64>
}
