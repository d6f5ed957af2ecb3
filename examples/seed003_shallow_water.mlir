// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "Shallow Water"
// (1.024 × 10^7 64-bit floats, 20 iterations, from the Benchpress suite, which adapts
// Burkardt's shallow_water_2d). One time step of the two-dimensional shallow water
// equations by the two-step Lax–Wendroff method, on an n × m grid of height H and
// momenta U (along the rows, index i) and V (along the columns, index j); dt = 0.02,
// dx = dy = 1, g = 9.80665:
//
//   reflect    the border cells copy their inner neighbour (H, U and V), U negated on
//              the first and last row, V negated on the first and last column
//   half step  on the faces between rows i and i + 1 (x) and columns j and j + 1 (y):
//              Hx = (H⁺ + H)/2 − dt/(2dx)·(U⁺ − U)
//              Ux = (U⁺ + U)/2 − dt/(2dx)·((U⁺²/H⁺ + g/2·H⁺²) − (U²/H + g/2·H²))
//              Vx = (V⁺ + V)/2 − dt/(2dx)·(U⁺V⁺/H⁺ − UV/H)          (⁺: the row i + 1)
//              Hy, Uy, Vy likewise along j, with V in the place of U (Uy uses VU/H,
//              Vy uses V²/H + g/2·H²)
//   full step  at the inner cells, from the faces on either side of the cell:
//              H −= dt/dx·(Ux − Ux⁻) + dt/dy·(Vy − Vy⁻)
//              U −= dt/dx·(Ux²/Hx + g/2·Hx² − (…)⁻) + dt/dy·(VyUy/Hy − (…)⁻)
//              V −= dt/dx·(UxVx/Hx − (…)⁻) + dt/dy·(Vy²/Hy + g/2·Hy² − (…)⁻)
//              (⁻: the face before the cell); the border keeps its reflected values.
//
// Encoding choices: Benchpress's reflecting border is slice assignments in place; here
// the reflected grids Hb, Ub, Vb are gathers of H, U, V at clamped indices (row
// min(max(i, 1), n − 2), likewise the column) times a generated ±1 sign, which gives the
// benchmark's corners too (its row copies read the column copies). Its staggered
// (n − 1) × (m − 2) and (n − 2) × (m − 1) half-step arrays are full-size n × m grids
// here: the x-face between rows i and i + 1 at column j is stored at [i, j] (the last
// row reads itself, clamped, and is never used), the y-face likewise at [i, j]; so
// every array is n × m, generated from `array.dim` of H, and size inference proves all
// sizes equal without the arithmetic of slice extents (U and V must have H's shape, as
// for any zip of arguments). Every shifted slice (H[1:], Ux[:-1], …) is a gather at a
// generated index array, and every NumPy expression line is one map, with its
// operations in NumPy's order, so the values are NumPy's to the last bit. The
// benchmark needs n, m ≥ 3 (it asks for 16); smaller grids stay in range but are not
// its values (the clamps then overlap). 11 generates, 15 gathers and 11 maps:
// 37 combinators.

func.func @shallowWaterStep(%h: tensor<?x?xf64>, %u: tensor<?x?xf64>, %v: tensor<?x?xf64>) -> (tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f64
  %minusOne = arith.constant -1.0 : f64
  %two = arith.constant 2.0 : f64
  // dt / (2 dx) = dt / (2 dy), dt / dx = dt / dy, g / 2
  %halfStep = arith.constant 0.01 : f64
  %fullStep = arith.constant 0.02 : f64
  %g2 = arith.constant 4.903325 : f64
  %n = array.dim %h, 0 : tensor<?x?xf64>
  %m = array.dim %h, 1 : tensor<?x?xf64>
  %n1 = arith.maxui %n, %c1 : index
  %m1 = arith.maxui %m, %c1 : index
  %nLast = arith.subi %n1, %c1 : index
  %mLast = arith.subi %m1, %c1 : index
  %n2 = arith.maxui %n, %c2 : index
  %m2 = arith.maxui %m, %c2 : index
  %nInner = arith.subi %n2, %c2 : index
  %mInner = arith.subi %m2, %c2 : index
  // Index arrays: the reflection's clamps, the identity, the next and the previous
  // row and column.
  %rowIn = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %i, %c1 : index
    %k = arith.minui %a, %nInner : index
    array.yield %k : index
  }
  %colIn = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %j, %c1 : index
    %k = arith.minui %a, %mInner : index
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
  %rowNext = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.addi %i, %c1 : index
    %k = arith.minui %a, %nLast : index
    array.yield %k : index
  }
  %colNext = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.addi %j, %c1 : index
    %k = arith.minui %a, %mLast : index
    array.yield %k : index
  }
  %rowPrev = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %i, %c1 : index
    %k = arith.subi %a, %c1 : index
    array.yield %k : index
  }
  %colPrev = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %j, %c1 : index
    %k = arith.subi %a, %c1 : index
    array.yield %k : index
  }
  // The reflecting border: U changes sign on the first and last row, V on the first
  // and last column.
  %uSign = array.generate (%n, %m) : tensor<?x?xf64> {
  ^bb0(%i: index, %j: index):
    %first = arith.cmpi eq, %i, %c0 : index
    %last = arith.cmpi eq, %i, %nLast : index
    %edge = arith.ori %first, %last : i1
    %s = arith.select %edge, %minusOne, %one : f64
    array.yield %s : f64
  }
  %vSign = array.generate (%n, %m) : tensor<?x?xf64> {
  ^bb0(%i: index, %j: index):
    %first = arith.cmpi eq, %j, %c0 : index
    %last = arith.cmpi eq, %j, %mLast : index
    %edge = arith.ori %first, %last : i1
    %s = arith.select %edge, %minusOne, %one : f64
    array.yield %s : f64
  }
  %hb = array.gather %h[%rowIn, %colIn] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %uIn = array.gather %u[%rowIn, %colIn] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %vIn = array.gather %v[%rowIn, %colIn] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %ub = array.map %uIn, %uSign : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64, %s: f64):
    %y = arith.mulf %s, %x : f64
    array.yield %y : f64
  }
  %vb = array.map %vIn, %vSign : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64, %s: f64):
    %y = arith.mulf %s, %x : f64
    array.yield %y : f64
  }
  // First half step, x: the faces between rows i and i + 1 (H[1:], H[:-1], ...).
  %hS = array.gather %hb[%rowNext, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %uS = array.gather %ub[%rowNext, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %vS = array.gather %vb[%rowNext, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %hx = array.map %hS, %hb, %uS, %ub : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%h1: f64, %h0: f64, %u1: f64, %u0: f64):
    %s = arith.addf %h1, %h0 : f64
    %mean = arith.divf %s, %two : f64
    %d = arith.subf %u1, %u0 : f64
    %f = arith.mulf %halfStep, %d : f64
    %r = arith.subf %mean, %f : f64
    array.yield %r : f64
  }
  %ux = array.map %uS, %ub, %hS, %hb : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%u1: f64, %u0: f64, %h1: f64, %h0: f64):
    %s = arith.addf %u1, %u0 : f64
    %mean = arith.divf %s, %two : f64
    %uu1 = arith.mulf %u1, %u1 : f64
    %a1 = arith.divf %uu1, %h1 : f64
    %hh1 = arith.mulf %h1, %h1 : f64
    %b1 = arith.mulf %g2, %hh1 : f64
    %f1 = arith.addf %a1, %b1 : f64
    %uu0 = arith.mulf %u0, %u0 : f64
    %a0 = arith.divf %uu0, %h0 : f64
    %hh0 = arith.mulf %h0, %h0 : f64
    %b0 = arith.mulf %g2, %hh0 : f64
    %f0 = arith.addf %a0, %b0 : f64
    %d = arith.subf %f1, %f0 : f64
    %f = arith.mulf %halfStep, %d : f64
    %r = arith.subf %mean, %f : f64
    array.yield %r : f64
  }
  %vx = array.map %vS, %vb, %uS, %ub, %hS, %hb : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%v1: f64, %v0: f64, %u1: f64, %u0: f64, %h1: f64, %h0: f64):
    %s = arith.addf %v1, %v0 : f64
    %mean = arith.divf %s, %two : f64
    %uv1 = arith.mulf %u1, %v1 : f64
    %f1 = arith.divf %uv1, %h1 : f64
    %uv0 = arith.mulf %u0, %v0 : f64
    %f0 = arith.divf %uv0, %h0 : f64
    %d = arith.subf %f1, %f0 : f64
    %f = arith.mulf %halfStep, %d : f64
    %r = arith.subf %mean, %f : f64
    array.yield %r : f64
  }
  // First half step, y: the faces between columns j and j + 1 (H[:, 1:], H[:, :-1], ...).
  %hE = array.gather %hb[%rowSame, %colNext] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %uE = array.gather %ub[%rowSame, %colNext] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %vE = array.gather %vb[%rowSame, %colNext] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %hy = array.map %hE, %hb, %vE, %vb : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%h1: f64, %h0: f64, %v1: f64, %v0: f64):
    %s = arith.addf %h1, %h0 : f64
    %mean = arith.divf %s, %two : f64
    %d = arith.subf %v1, %v0 : f64
    %f = arith.mulf %halfStep, %d : f64
    %r = arith.subf %mean, %f : f64
    array.yield %r : f64
  }
  %uy = array.map %uE, %ub, %vE, %vb, %hE, %hb : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%u1: f64, %u0: f64, %v1: f64, %v0: f64, %h1: f64, %h0: f64):
    %s = arith.addf %u1, %u0 : f64
    %mean = arith.divf %s, %two : f64
    %vu1 = arith.mulf %v1, %u1 : f64
    %f1 = arith.divf %vu1, %h1 : f64
    %vu0 = arith.mulf %v0, %u0 : f64
    %f0 = arith.divf %vu0, %h0 : f64
    %d = arith.subf %f1, %f0 : f64
    %f = arith.mulf %halfStep, %d : f64
    %r = arith.subf %mean, %f : f64
    array.yield %r : f64
  }
  %vy = array.map %vE, %vb, %hE, %hb : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%v1: f64, %v0: f64, %h1: f64, %h0: f64):
    %s = arith.addf %v1, %v0 : f64
    %mean = arith.divf %s, %two : f64
    %vv1 = arith.mulf %v1, %v1 : f64
    %a1 = arith.divf %vv1, %h1 : f64
    %hh1 = arith.mulf %h1, %h1 : f64
    %b1 = arith.mulf %g2, %hh1 : f64
    %f1 = arith.addf %a1, %b1 : f64
    %vv0 = arith.mulf %v0, %v0 : f64
    %a0 = arith.divf %vv0, %h0 : f64
    %hh0 = arith.mulf %h0, %h0 : f64
    %b0 = arith.mulf %g2, %hh0 : f64
    %f0 = arith.addf %a0, %b0 : f64
    %d = arith.subf %f1, %f0 : f64
    %f = arith.mulf %halfStep, %d : f64
    %r = arith.subf %mean, %f : f64
    array.yield %r : f64
  }
  // Second half step: the faces before each cell (Ux[:-1, :], Vy[:, :-1], ...).
  %hxP = array.gather %hx[%rowPrev, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %uxP = array.gather %ux[%rowPrev, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %vxP = array.gather %vx[%rowPrev, %colSame] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %hyW = array.gather %hy[%rowSame, %colPrev] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %uyW = array.gather %uy[%rowSame, %colPrev] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %vyW = array.gather %vy[%rowSame, %colPrev] : tensor<?x?xf64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf64>
  %inside = array.generate (%n, %m) : tensor<?x?xi1> {
  ^bb0(%i: index, %j: index):
    %i0 = arith.cmpi ugt, %i, %c0 : index
    %i1 = arith.cmpi ult, %i, %nLast : index
    %j0 = arith.cmpi ugt, %j, %c0 : index
    %j1 = arith.cmpi ult, %j, %mLast : index
    %a = arith.andi %i0, %i1 : i1
    %b = arith.andi %j0, %j1 : i1
    %in = arith.andi %a, %b : i1
    array.yield %in : i1
  }
  %hNew = array.map %hb, %ux, %uxP, %vy, %vyW, %inside : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%h0: f64, %ux1: f64, %ux0: f64, %vy1: f64, %vy0: f64, %in: i1):
    %dx = arith.subf %ux1, %ux0 : f64
    %fx = arith.mulf %fullStep, %dx : f64
    %dy = arith.subf %vy1, %vy0 : f64
    %fy = arith.mulf %fullStep, %dy : f64
    %f = arith.addf %fx, %fy : f64
    %r = arith.subf %h0, %f : f64
    %y = arith.select %in, %r, %h0 : f64
    array.yield %y : f64
  }
  %uNew = array.map %ub, %ux, %hx, %uxP, %hxP, %vy, %uy, %hy, %vyW, %uyW, %hyW, %inside : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%u0: f64, %ux1: f64, %hx1: f64, %ux0: f64, %hx0: f64, %vy1: f64, %uy1: f64, %hy1: f64, %vy0: f64, %uy0: f64, %hy0: f64, %in: i1):
    %uu1 = arith.mulf %ux1, %ux1 : f64
    %a1 = arith.divf %uu1, %hx1 : f64
    %hh1 = arith.mulf %hx1, %hx1 : f64
    %b1 = arith.mulf %g2, %hh1 : f64
    %p1 = arith.addf %a1, %b1 : f64
    %uu0 = arith.mulf %ux0, %ux0 : f64
    %a0 = arith.divf %uu0, %hx0 : f64
    %hh0 = arith.mulf %hx0, %hx0 : f64
    %b0 = arith.mulf %g2, %hh0 : f64
    %p0 = arith.addf %a0, %b0 : f64
    %dx = arith.subf %p1, %p0 : f64
    %fx = arith.mulf %fullStep, %dx : f64
    %vu1 = arith.mulf %vy1, %uy1 : f64
    %q1 = arith.divf %vu1, %hy1 : f64
    %vu0 = arith.mulf %vy0, %uy0 : f64
    %q0 = arith.divf %vu0, %hy0 : f64
    %dy = arith.subf %q1, %q0 : f64
    %fy = arith.mulf %fullStep, %dy : f64
    %f = arith.addf %fx, %fy : f64
    %r = arith.subf %u0, %f : f64
    %y = arith.select %in, %r, %u0 : f64
    array.yield %y : f64
  }
  %vNew = array.map %vb, %ux, %vx, %hx, %uxP, %vxP, %hxP, %vy, %hy, %vyW, %hyW, %inside : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xi1> -> tensor<?x?xf64> {
  ^bb0(%v0: f64, %ux1: f64, %vx1: f64, %hx1: f64, %ux0: f64, %vx0: f64, %hx0: f64, %vy1: f64, %hy1: f64, %vy0: f64, %hy0: f64, %in: i1):
    %uv1 = arith.mulf %ux1, %vx1 : f64
    %p1 = arith.divf %uv1, %hx1 : f64
    %uv0 = arith.mulf %ux0, %vx0 : f64
    %p0 = arith.divf %uv0, %hx0 : f64
    %dx = arith.subf %p1, %p0 : f64
    %fx = arith.mulf %fullStep, %dx : f64
    %vv1 = arith.mulf %vy1, %vy1 : f64
    %a1 = arith.divf %vv1, %hy1 : f64
    %hh1 = arith.mulf %hy1, %hy1 : f64
    %b1 = arith.mulf %g2, %hh1 : f64
    %q1 = arith.addf %a1, %b1 : f64
    %vv0 = arith.mulf %vy0, %vy0 : f64
    %a0 = arith.divf %vv0, %hy0 : f64
    %hh0 = arith.mulf %hy0, %hy0 : f64
    %b0 = arith.mulf %g2, %hh0 : f64
    %q0 = arith.addf %a0, %b0 : f64
    %dy = arith.subf %q1, %q0 : f64
    %fy = arith.mulf %fullStep, %dy : f64
    %f = arith.addf %fx, %fy : f64
    %r = arith.subf %v0, %f : f64
    %y = arith.select %in, %r, %v0 : f64
    array.yield %y : f64
  }
  return %hNew, %uNew, %vNew : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>
}
