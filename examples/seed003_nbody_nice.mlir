// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "NBody Nice" (40 planets,
// 2 × 10^6 asteroids, 20 iterations, from the Benchpress suite). One time step of
// Benchpress' nbody_nice: planets pull each other and the asteroids; asteroids pull
// nothing (their masses cancel out of their accelerations, so the step takes none). For a
// body i pulled by planets j (G folded into the planets' masses m_j):
//
//   a_i = Σ_j m_j · (r_j − r_i) / |r_j − r_i|³            (a pair at distance 0 adds 0)
//   v_i ← v_i + a_i · dt,   r_i ← r_i + v_i · dt           (semi-implicit Euler)
//
// first for the planets pulled by the planets, then for the asteroids pulled by the
// planets' positions before the step (Benchpress computes both forces, then moves
// both), in 3-D as Benchpress does.
//
// Encoding choices: those of seed003_nbody.mlir, twice. Each pairwise quantity is an
// array of pairs (np × np for planet–planet, na × np for asteroid–planet): two generated
// index arrays hold i and j at [i, j], gathers of a coordinate at them give x_i and x_j,
// then the differences, the weight m_j / |r_j − r_i|³, and one fold over j with three
// accumulators (a_x, a_y, a_z) that share its four inputs; then one map per velocity and
// position component. Benchpress has no softening: it sets the self pairs' force to 0
// (fill_diagonal); here every pair at distance 0 weighs 0 (the self pairs, and bodies
// that coincide, which NumPy turns into NaN and generated inputs may hold). The
// planets' shapes are spelled from the size of px, the asteroids' from the size of ax
// (`array.dim`), so size inference proves each pairwise array and its row fold the right
// size; the other arguments of each kind must have its size (a precondition, as for any
// zip of arguments). 40 combinators; the analysis makes two clusters, one per kind of pair
// with the updates of the bodies it pulls (the two pair arrays have different shapes).

func.func @nbodyNiceStep(%px: tensor<?xf64>, %py: tensor<?xf64>, %pz: tensor<?xf64>, %pvx: tensor<?xf64>, %pvy: tensor<?xf64>, %pvz: tensor<?xf64>, %pm: tensor<?xf64>, %ax: tensor<?xf64>, %ay: tensor<?xf64>, %az: tensor<?xf64>, %avx: tensor<?xf64>, %avy: tensor<?xf64>, %avz: tensor<?xf64>, %dt: f64) -> (tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>) {
  %np = array.dim %px, 0 : tensor<?xf64>
  %na = array.dim %ax, 0 : tensor<?xf64>
  %zero = arith.constant 0.0 : f64
  // Planet–planet: np × np pairs, i the planet pulled, j the planet pulling.
  %pI = array.generate (%np, %np) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %i : index
  }
  %pJ = array.generate (%np, %np) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %j : index
  }
  %pxi = array.gather %px[%pI] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %pxj = array.gather %px[%pJ] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %pdx = array.map %pxj, %pxi : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%p: f64, %q: f64):
    %d = arith.subf %p, %q : f64
    array.yield %d : f64
  }
  %pyi = array.gather %py[%pI] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %pyj = array.gather %py[%pJ] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %pdy = array.map %pyj, %pyi : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%p: f64, %q: f64):
    %d = arith.subf %p, %q : f64
    array.yield %d : f64
  }
  %pzi = array.gather %pz[%pI] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %pzj = array.gather %pz[%pJ] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %pdz = array.map %pzj, %pzi : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%p: f64, %q: f64):
    %d = arith.subf %p, %q : f64
    array.yield %d : f64
  }
  %pmj = array.gather %pm[%pJ] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %pWeight = array.map %pdx, %pdy, %pdz, %pmj : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%a: f64, %b: f64, %c: f64, %w: f64):
    %aa = arith.mulf %a, %a : f64
    %bb = arith.mulf %b, %b : f64
    %cc = arith.mulf %c, %c : f64
    %s1 = arith.addf %aa, %bb : f64
    %r2 = arith.addf %s1, %cc : f64
    %r = math.sqrt %r2 : f64
    %r3 = arith.mulf %r2, %r : f64
    %k = arith.divf %w, %r3 : f64
    %z = arith.constant 0.0 : f64
    %apart = arith.cmpf one, %r2, %z : f64
    %v = arith.select %apart, %k, %z : f64
    array.yield %v : f64
  }
  %pax, %pay, %paz = array.fold %pdx, %pdy, %pdz, %pWeight init(%zero, %zero, %zero : f64, f64, f64) : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?xf64>, tensor<?xf64>, tensor<?xf64> {
  ^bb0(%sx: f64, %sy: f64, %sz: f64, %a: f64, %b: f64, %c: f64, %k: f64):
    %fx = arith.mulf %a, %k : f64
    %fy = arith.mulf %b, %k : f64
    %fz = arith.mulf %c, %k : f64
    %tx = arith.addf %sx, %fx : f64
    %ty = arith.addf %sy, %fy : f64
    %tz = arith.addf %sz, %fz : f64
    array.yield %tx, %ty, %tz : f64, f64, f64
  }
  // Asteroid–planet: na × np pairs, i the asteroid pulled, j the planet pulling.
  %aI = array.generate (%na, %np) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %i : index
  }
  %aJ = array.generate (%na, %np) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %j : index
  }
  %axi = array.gather %ax[%aI] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %apxj = array.gather %px[%aJ] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %adx = array.map %apxj, %axi : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%p: f64, %q: f64):
    %d = arith.subf %p, %q : f64
    array.yield %d : f64
  }
  %ayi = array.gather %ay[%aI] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %apyj = array.gather %py[%aJ] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %ady = array.map %apyj, %ayi : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%p: f64, %q: f64):
    %d = arith.subf %p, %q : f64
    array.yield %d : f64
  }
  %azi = array.gather %az[%aI] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %apzj = array.gather %pz[%aJ] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %adz = array.map %apzj, %azi : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%p: f64, %q: f64):
    %d = arith.subf %p, %q : f64
    array.yield %d : f64
  }
  %amj = array.gather %pm[%aJ] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %aWeight = array.map %adx, %ady, %adz, %amj : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%a: f64, %b: f64, %c: f64, %w: f64):
    %aa = arith.mulf %a, %a : f64
    %bb = arith.mulf %b, %b : f64
    %cc = arith.mulf %c, %c : f64
    %s1 = arith.addf %aa, %bb : f64
    %r2 = arith.addf %s1, %cc : f64
    %r = math.sqrt %r2 : f64
    %r3 = arith.mulf %r2, %r : f64
    %k = arith.divf %w, %r3 : f64
    %z = arith.constant 0.0 : f64
    %apart = arith.cmpf one, %r2, %z : f64
    %v = arith.select %apart, %k, %z : f64
    array.yield %v : f64
  }
  %aax, %aay, %aaz = array.fold %adx, %ady, %adz, %aWeight init(%zero, %zero, %zero : f64, f64, f64) : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?xf64>, tensor<?xf64>, tensor<?xf64> {
  ^bb0(%sx: f64, %sy: f64, %sz: f64, %a: f64, %b: f64, %c: f64, %k: f64):
    %fx = arith.mulf %a, %k : f64
    %fy = arith.mulf %b, %k : f64
    %fz = arith.mulf %c, %k : f64
    %tx = arith.addf %sx, %fx : f64
    %ty = arith.addf %sy, %fy : f64
    %tz = arith.addf %sz, %fz : f64
    array.yield %tx, %ty, %tz : f64, f64, f64
  }
  // Velocities, then positions from the new velocities (semi-implicit Euler).
  %pvx2 = array.map %pvx, %pax : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %pvy2 = array.map %pvy, %pay : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %pvz2 = array.map %pvz, %paz : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %px2 = array.map %px, %pvx2 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %py2 = array.map %py, %pvy2 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %pz2 = array.map %pz, %pvz2 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %avx2 = array.map %avx, %aax : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %avy2 = array.map %avy, %aay : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %avz2 = array.map %avz, %aaz : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %ax2 = array.map %ax, %avx2 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %ay2 = array.map %ay, %avy2 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %az2 = array.map %az, %avz2 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  return %px2, %py2, %pz2, %pvx2, %pvy2, %pvz2, %ax2, %ay2, %az2, %avx2, %avy2, %avz2 : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>
}
