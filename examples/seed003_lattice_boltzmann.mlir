// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "Lattice Boltzmann D3Q19"
// (3.375 × 10^6 64-bit floats, 20 iterations, from the Benchpress suite). One step of the
// lattice Boltzmann method with the BGK collision (relaxation frequency ω = 1/τ) on a
// periodic grid, collide then stream, here in two dimensions with the D2Q9 velocity set
// (9 populations per cell: rest, 4 axis and 4 diagonal velocities c_q with weights
// w_q = 4/9, 1/9, 1/36):
//
//   ρ = Σ_q f_q,   ρ·u = Σ_q f_q · c_q                                (moments of each cell)
//   feq_q = w_q · ρ · (1 + 3 c_q·u + 9/2 (c_q·u)² − 3/2 u·u)          (equilibrium)
//   f*_q = f_q − ω · (f_q − feq_q)                                    (collision)
//   f'_q[x] = f*_q[(x − c_q) mod n]                                   (streaming, periodic)
//
// Encoding choice: D2Q9 in 2-D with the structure of D3Q19 (one more axis and 10 more
// populations change nothing else). Benchpress has a D2Q9 program too
// (lattice_boltzmann_D2Q9: channel flow past a cylinder, after Jonas Latt), with inlet and
// outlet conditions and bounce-back at the obstacle; this step has periodic borders and no
// obstacle, the collide-and-stream core both programs share. D3Q19 is expressible (a 4-D
// f[x, y, z, q]), but generated inputs of extent n give n³ · 19 populations, and the
// interpreter needs minutes for the n = 37 of the examples' Rust check. The 9 populations
// are one 3-D array f[x, y, q] with q innermost: `array.fold` reduces the innermost
// dimension, so the moments are one fold over q with three accumulators (ρ, ρu_x, ρu_y).
// The velocity and weight tables are one generate over the 9 values of q: q = 0 is the
// rest velocity, q = 2p − 1 and q = 2p are the pair ±b_p of base vectors b_1..b_4, each
// component a select chain over p; gathers at a generated q index spread them over the
// grid. The moments are spread back over q by gathers at generated x, y indices (seed 000
// §5.1's n → n + 1 pattern), so the equilibrium is a map of gathered arrays rather than a
// generate reading the moments as free variables. Streaming is a gather of f* at the
// periodic source cell (x + (n − 1) + (1 − c_x)) mod n (arith.remui on index; the shift
// 1 − c is in 0..2, so no index goes negative), one map per axis. The population count is
// static (tensor<?x?x9xf64>); the grid extents are the dimensions of f, from which every
// shape is spelled, so size inference proves all sizes equal. Returns the streamed
// populations and the cell's density and velocity (the moments the step collided with).
// 17 combinators.

func.func @lbmStep(%f: tensor<?x?x9xf64>, %omega: f64) -> (tensor<?x?x9xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %nx = array.dim %f, 0 : tensor<?x?x9xf64>
  %ny = array.dim %f, 1 : tensor<?x?x9xf64>
  %nq = array.dim %f, 2 : tensor<?x?x9xf64>
  // The D2Q9 tables: velocity components (i64) and weights of population q.
  %cxT, %cyT, %wT = array.generate (%nq) : tensor<?xi64>, tensor<?xi64>, tensor<?xf64> {
  ^bb0(%q: index):
    %i0 = arith.constant 0 : i64
    %i1 = arith.constant 1 : i64
    %im1 = arith.constant -1 : i64
    // Pair p = (q + 1) / 2 (p = 0: rest); odd q is +b_p, even q is −b_p.
    %q1 = arith.addi %q, %c1 : index
    %p = arith.divui %q1, %c2 : index
    %qodd = arith.remui %q, %c2 : index
    %isOdd = arith.cmpi eq, %qodd, %c1 : index
    %sign = arith.select %isOdd, %i1, %im1 : i64
    %p1 = arith.cmpi eq, %p, %c1 : index
    %p2 = arith.cmpi eq, %p, %c2 : index
    %c3 = arith.constant 3 : index
    %p3 = arith.cmpi eq, %p, %c3 : index
    %c4 = arith.constant 4 : index
    %p4 = arith.cmpi eq, %p, %c4 : index
    // b_1..b_4 = (1,0) (0,1) (1,1) (1,−1).
    %bx4 = arith.select %p4, %i1, %i0 : i64
    %bx3 = arith.select %p3, %i1, %bx4 : i64
    %bx = arith.select %p1, %i1, %bx3 : i64
    %by4 = arith.select %p4, %im1, %i0 : i64
    %by3 = arith.select %p3, %i1, %by4 : i64
    %by = arith.select %p2, %i1, %by3 : i64
    %cx = arith.muli %sign, %bx : i64
    %cy = arith.muli %sign, %by : i64
    %rest = arith.cmpi eq, %p, %c0 : index
    %axis = arith.cmpi ule, %p, %c2 : index
    %wRest = arith.constant 0.4444444444444444 : f64
    %wAxis = arith.constant 0.1111111111111111 : f64
    %wDiagonal = arith.constant 0.027777777777777776 : f64
    %wMoving = arith.select %axis, %wAxis, %wDiagonal : f64
    %w = arith.select %rest, %wRest, %wMoving : f64
    array.yield %cx, %cy, %w : i64, i64, f64
  }
  // The coordinates of every element of a population array.
  %xIdx = array.generate (%nx, %ny, %nq) : tensor<?x?x9xindex> {
  ^bb0(%x: index, %y: index, %q: index):
    array.yield %x : index
  }
  %yIdx = array.generate (%nx, %ny, %nq) : tensor<?x?x9xindex> {
  ^bb0(%x: index, %y: index, %q: index):
    array.yield %y : index
  }
  %qIdx = array.generate (%nx, %ny, %nq) : tensor<?x?x9xindex> {
  ^bb0(%x: index, %y: index, %q: index):
    array.yield %q : index
  }
  // The tables spread over the grid.
  %cx = array.gather %cxT[%qIdx] : tensor<?xi64>[tensor<?x?x9xindex>] -> tensor<?x?x9xi64>
  %cy = array.gather %cyT[%qIdx] : tensor<?xi64>[tensor<?x?x9xindex>] -> tensor<?x?x9xi64>
  %w = array.gather %wT[%qIdx] : tensor<?xf64>[tensor<?x?x9xindex>] -> tensor<?x?x9xf64>
  // Moments: density and momentum of every cell, then its velocity.
  %rho, %jx, %jy = array.fold %f, %cx, %cy init(%zero, %zero, %zero : f64, f64, f64) : tensor<?x?x9xf64>, tensor<?x?x9xi64>, tensor<?x?x9xi64> -> tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> {
  ^bb0(%r: f64, %mx: f64, %my: f64, %fq: f64, %ex: i64, %ey: i64):
    %exf = arith.sitofp %ex : i64 to f64
    %eyf = arith.sitofp %ey : i64 to f64
    %r1 = arith.addf %r, %fq : f64
    %px = arith.mulf %fq, %exf : f64
    %py = arith.mulf %fq, %eyf : f64
    %mx1 = arith.addf %mx, %px : f64
    %my1 = arith.addf %my, %py : f64
    array.yield %r1, %mx1, %my1 : f64, f64, f64
  }
  %ux, %uy = array.map %rho, %jx, %jy : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64>, tensor<?x?xf64> {
  ^bb0(%r: f64, %mx: f64, %my: f64):
    %vx = arith.divf %mx, %r : f64
    %vy = arith.divf %my, %r : f64
    array.yield %vx, %vy : f64, f64
  }
  // The moments spread back over the 9 populations of each cell.
  %rhoQ = array.gather %rho[%xIdx, %yIdx] : tensor<?x?xf64>[tensor<?x?x9xindex>, tensor<?x?x9xindex>] -> tensor<?x?x9xf64>
  %uxQ = array.gather %ux[%xIdx, %yIdx] : tensor<?x?xf64>[tensor<?x?x9xindex>, tensor<?x?x9xindex>] -> tensor<?x?x9xf64>
  %uyQ = array.gather %uy[%xIdx, %yIdx] : tensor<?x?xf64>[tensor<?x?x9xindex>, tensor<?x?x9xindex>] -> tensor<?x?x9xf64>
  // Equilibrium and BGK collision.
  %feq = array.map %rhoQ, %uxQ, %uyQ, %cx, %cy, %w : tensor<?x?x9xf64>, tensor<?x?x9xf64>, tensor<?x?x9xf64>, tensor<?x?x9xi64>, tensor<?x?x9xi64>, tensor<?x?x9xf64> -> tensor<?x?x9xf64> {
  ^bb0(%r: f64, %vx: f64, %vy: f64, %ex: i64, %ey: i64, %wq: f64):
    %exf = arith.sitofp %ex : i64 to f64
    %eyf = arith.sitofp %ey : i64 to f64
    %cux = arith.mulf %exf, %vx : f64
    %cuy = arith.mulf %eyf, %vy : f64
    %cu = arith.addf %cux, %cuy : f64
    %uxx = arith.mulf %vx, %vx : f64
    %uyy = arith.mulf %vy, %vy : f64
    %uu = arith.addf %uxx, %uyy : f64
    %one = arith.constant 1.0 : f64
    %three = arith.constant 3.0 : f64
    %fourHalf = arith.constant 4.5 : f64
    %oneHalf = arith.constant 1.5 : f64
    %t1 = arith.mulf %three, %cu : f64
    %cu2 = arith.mulf %cu, %cu : f64
    %t2 = arith.mulf %fourHalf, %cu2 : f64
    %t3 = arith.mulf %oneHalf, %uu : f64
    %s1 = arith.addf %one, %t1 : f64
    %s2 = arith.addf %s1, %t2 : f64
    %s3 = arith.subf %s2, %t3 : f64
    %wr = arith.mulf %wq, %r : f64
    %e = arith.mulf %wr, %s3 : f64
    array.yield %e : f64
  }
  %post = array.map %f, %feq : tensor<?x?x9xf64>, tensor<?x?x9xf64> -> tensor<?x?x9xf64> {
  ^bb0(%fq: f64, %e: f64):
    %d = arith.subf %fq, %e : f64
    %relax = arith.mulf %omega, %d : f64
    %g = arith.subf %fq, %relax : f64
    array.yield %g : f64
  }
  // Streaming: population q of cell x comes from cell x − c_q, periodically.
  %nxLast = arith.subi %nx, %c1 : index
  %nyLast = arith.subi %ny, %c1 : index
  %srcX = array.map %xIdx, %cx : tensor<?x?x9xindex>, tensor<?x?x9xi64> -> tensor<?x?x9xindex> {
  ^bb0(%x: index, %e: i64):
    %i1 = arith.constant 1 : i64
    %shift = arith.subi %i1, %e : i64
    %s = arith.index_cast %shift : i64 to index
    %a = arith.addi %x, %nxLast : index
    %b = arith.addi %a, %s : index
    %k = arith.remui %b, %nx : index
    array.yield %k : index
  }
  %srcY = array.map %yIdx, %cy : tensor<?x?x9xindex>, tensor<?x?x9xi64> -> tensor<?x?x9xindex> {
  ^bb0(%y: index, %e: i64):
    %i1 = arith.constant 1 : i64
    %shift = arith.subi %i1, %e : i64
    %s = arith.index_cast %shift : i64 to index
    %a = arith.addi %y, %nyLast : index
    %b = arith.addi %a, %s : index
    %k = arith.remui %b, %ny : index
    array.yield %k : index
  }
  %next = array.gather %post[%srcX, %srcY, %qIdx] : tensor<?x?x9xf64>[tensor<?x?x9xindex>, tensor<?x?x9xindex>, tensor<?x?x9xindex>] -> tensor<?x?x9xf64>
  return %next, %rho, %ux, %uy : tensor<?x?x9xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>
}
