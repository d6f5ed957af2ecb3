// Source: seed 000 (the fusion ILP paper), §5 "Large case studies": Multigrid, "a three
// dimensional benchmark from the NAS Parallel Benchmarks [that] approximates the
// solution to a specific discrete Poisson problem" (99 combinators there). This is the
// same method at a size one can read: a two-grid V-cycle for the one-dimensional
// Poisson problem −u'' = f with zero boundary values, 32 combinators: stencils as
// gathers, restriction and prolongation as gathers between grids of different sizes.
//
//   pre-smooth   u1 = u + ω/2 · (f + u[i−1] + u[i+1] − 2u)        (weighted Jacobi, ω = 2/3)
//   residual     r  = f + u1[i−1] + u1[i+1] − 2u1
//   restrict     rc[i] = 4 · (r[2i] + r[2i+1]) / 2                (coarse grid: n/2 points, h² × 4)
//   coarse solve two weighted Jacobi sweeps from ec = 0
//   prolongate   e[i] = ec[min(i/2, n/2 − 1)]                     (piecewise constant)
//   correct      u2 = u1 + e
//   post-smooth  u3 = one more weighted Jacobi sweep on u2
//
// Encoding choices: the grid spacing is folded into f (h² = 1). A neighbour u[i−1] is
// a gather of u at max(i, 1) − 1 times a weight that is 0 at the boundary (a generate
// of 0.0 or 1.0), so every stencil is a fusible gather rather than a free variable.
// The index and weight arrays of a grid are generated once and shared by its sweeps.
// The coarse grid has n/2 points, a data-dependent size (seed 001 §1.3.4) shared by
// every coarse array, since all are generated from the same `%nc`; an odd last fine
// point gets the correction of the last coarse point. It needs n ≥ 2 points (with
// fewer the coarse grid is empty and the prolongation reads outside it, which the
// interpreter reports); n = 0 gives an empty result.

func.func @vcycle(%u: tensor<?xf64>, %f: tensor<?xf64>) -> tensor<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %n = array.dim %u, 0 : tensor<?xf64>
  %nc = arith.divui %n, %c2 : index
  // The stencil of the fine grid: neighbour indices and boundary weights.
  %fleft = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %j = arith.maxui %i, %c1 : index
    %k = arith.subi %j, %c1 : index
    array.yield %k : index
  }
  %flast = arith.subi %n, %c1 : index
  %fright = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %j = arith.addi %i, %c1 : index
    %k = arith.minui %j, %flast : index
    array.yield %k : index
  }
  %fwleft = array.generate (%n) : tensor<?xf64> {
  ^bb0(%i: index):
    %inside = arith.cmpi ugt, %i, %c0 : index
    %w = arith.select %inside, %one, %zero : f64
    array.yield %w : f64
  }
  %fwright = array.generate (%n) : tensor<?xf64> {
  ^bb0(%i: index):
    %inside = arith.cmpi ult, %i, %flast : index
    %w = arith.select %inside, %one, %zero : f64
    array.yield %w : f64
  }
  // Pre-smoothing and the residual on the fine grid.
  %ul = array.gather %u[%fleft] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %ur = array.gather %u[%fright] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %u1 = array.map %u, %ul, %ur, %fwleft, %fwright, %f : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64, %l: f64, %r: f64, %wl: f64, %wr: f64, %b: f64):
    %lw = arith.mulf %wl, %l : f64
    %rw = arith.mulf %wr, %r : f64
    %s = arith.addf %lw, %rw : f64
    %sb = arith.addf %s, %b : f64
    %two = arith.constant 2.0 : f64
    %x2 = arith.mulf %two, %x : f64
    %d = arith.subf %sb, %x2 : f64
    %third = arith.constant 0.3333333333333333 : f64
    %step = arith.mulf %third, %d : f64
    %y = arith.addf %x, %step : f64
    array.yield %y : f64
  }
  %u1l = array.gather %u1[%fleft] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %u1r = array.gather %u1[%fright] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %res = array.map %u1, %u1l, %u1r, %fwleft, %fwright, %f : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64, %l: f64, %r: f64, %wl: f64, %wr: f64, %b: f64):
    %lw = arith.mulf %wl, %l : f64
    %rw = arith.mulf %wr, %r : f64
    %s = arith.addf %lw, %rw : f64
    %sb = arith.addf %s, %b : f64
    %two = arith.constant 2.0 : f64
    %x2 = arith.mulf %two, %x : f64
    %d = arith.subf %sb, %x2 : f64
    array.yield %d : f64
  }
  // Restriction to the coarse grid: rc[i] = 2 · (r[2i] + r[2i+1]).
  %even = array.generate (%nc) : tensor<?xindex> {
  ^bb0(%i: index):
    %k = arith.muli %i, %c2 : index
    array.yield %k : index
  }
  %odd = array.generate (%nc) : tensor<?xindex> {
  ^bb0(%i: index):
    %k = arith.muli %i, %c2 : index
    %k1 = arith.addi %k, %c1 : index
    array.yield %k1 : index
  }
  %reven = array.gather %res[%even] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %rodd = array.gather %res[%odd] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %rc = array.map %reven, %rodd : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %b: f64):
    %s = arith.addf %a, %b : f64
    %two = arith.constant 2.0 : f64
    %t = arith.mulf %two, %s : f64
    array.yield %t : f64
  }
  // The stencil of the coarse grid: neighbour indices and boundary weights.
  %cleft = array.generate (%nc) : tensor<?xindex> {
  ^bb0(%i: index):
    %j = arith.maxui %i, %c1 : index
    %k = arith.subi %j, %c1 : index
    array.yield %k : index
  }
  %clast = arith.subi %nc, %c1 : index
  %cright = array.generate (%nc) : tensor<?xindex> {
  ^bb0(%i: index):
    %j = arith.addi %i, %c1 : index
    %k = arith.minui %j, %clast : index
    array.yield %k : index
  }
  %cwleft = array.generate (%nc) : tensor<?xf64> {
  ^bb0(%i: index):
    %inside = arith.cmpi ugt, %i, %c0 : index
    %w = arith.select %inside, %one, %zero : f64
    array.yield %w : f64
  }
  %cwright = array.generate (%nc) : tensor<?xf64> {
  ^bb0(%i: index):
    %inside = arith.cmpi ult, %i, %clast : index
    %w = arith.select %inside, %one, %zero : f64
    array.yield %w : f64
  }
  // Two Jacobi sweeps on the coarse grid, from zero.
  %e0 = array.generate (%nc) : tensor<?xf64> {
  ^bb0(%i: index):
    array.yield %zero : f64
  }
  %e0l = array.gather %e0[%cleft] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %e0r = array.gather %e0[%cright] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %e1 = array.map %e0, %e0l, %e0r, %cwleft, %cwright, %rc : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64, %l: f64, %r: f64, %wl: f64, %wr: f64, %b: f64):
    %lw = arith.mulf %wl, %l : f64
    %rw = arith.mulf %wr, %r : f64
    %s = arith.addf %lw, %rw : f64
    %sb = arith.addf %s, %b : f64
    %two = arith.constant 2.0 : f64
    %x2 = arith.mulf %two, %x : f64
    %d = arith.subf %sb, %x2 : f64
    %third = arith.constant 0.3333333333333333 : f64
    %step = arith.mulf %third, %d : f64
    %y = arith.addf %x, %step : f64
    array.yield %y : f64
  }
  %e1l = array.gather %e1[%cleft] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %e1r = array.gather %e1[%cright] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %e2 = array.map %e1, %e1l, %e1r, %cwleft, %cwright, %rc : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64, %l: f64, %r: f64, %wl: f64, %wr: f64, %b: f64):
    %lw = arith.mulf %wl, %l : f64
    %rw = arith.mulf %wr, %r : f64
    %s = arith.addf %lw, %rw : f64
    %sb = arith.addf %s, %b : f64
    %two = arith.constant 2.0 : f64
    %x2 = arith.mulf %two, %x : f64
    %d = arith.subf %sb, %x2 : f64
    %third = arith.constant 0.3333333333333333 : f64
    %step = arith.mulf %third, %d : f64
    %y = arith.addf %x, %step : f64
    array.yield %y : f64
  }
  // Prolongation (piecewise constant) and correction on the fine grid.
  %parent = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %p = arith.divui %i, %c2 : index
    %q = arith.minui %p, %clast : index
    array.yield %q : index
  }
  %corr = array.gather %e2[%parent] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %u2 = array.map %u1, %corr : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %b: f64):
    %s = arith.addf %a, %b : f64
    array.yield %s : f64
  }
  // Post-smoothing.
  %u2l = array.gather %u2[%fleft] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %u2r = array.gather %u2[%fright] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %u3 = array.map %u2, %u2l, %u2r, %fwleft, %fwright, %f : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64, %l: f64, %r: f64, %wl: f64, %wr: f64, %b: f64):
    %lw = arith.mulf %wl, %l : f64
    %rw = arith.mulf %wr, %r : f64
    %s = arith.addf %lw, %rw : f64
    %sb = arith.addf %s, %b : f64
    %two = arith.constant 2.0 : f64
    %x2 = arith.mulf %two, %x : f64
    %d = arith.subf %sb, %x2 : f64
    %third = arith.constant 0.3333333333333333 : f64
    %step = arith.mulf %third, %d : f64
    %y = arith.addf %x, %step : f64
    array.yield %y : f64
  }
  return %u3 : tensor<?xf64>
}
