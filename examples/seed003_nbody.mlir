// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "NBody" (6000 bodies,
// 20 iterations, from the Benchpress suite). One step of the direct n-body simulation:
// every body is pulled by every other,
//
//   a_i = Σ_j m_j · (r_j − r_i) / (|r_j − r_i|² + ε)^(3/2)     (ε = 0.01 softens close pairs;
//                                                              the j = i term is 0)
//   v_i ← v_i + a_i · dt,   r_i ← r_i + v_i · dt               (semi-implicit Euler)
//
// Encoding choices: the pairwise quantities are n × n arrays built with seed 000 §5.1's
// n → n + 1 pattern: two generated index arrays hold i and j at [i, j], and gathers of a
// coordinate at them give x_i and x_j; then the differences, the softened inverse cube
// distance weighted by m_j, and one fold over j with three accumulators (a_x, a_y, a_z)
// that share its four inputs. Every shape is spelled from the size of x (`array.dim`), so
// size inference proves the pairwise arrays equal and their row folds the size of x; the
// other arguments must have that size too (a precondition, as for any zip of arguments).
// The gravitational constant is folded into the masses. 20 combinators.

func.func @nbodyStep(%x: tensor<?xf64>, %y: tensor<?xf64>, %z: tensor<?xf64>, %vx: tensor<?xf64>, %vy: tensor<?xf64>, %vz: tensor<?xf64>, %m: tensor<?xf64>, %dt: f64) -> (tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>) {
  %n = array.dim %x, 0 : tensor<?xf64>
  %zero = arith.constant 0.0 : f64
  %iIndex = array.generate (%n, %n) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %i : index
  }
  %jIndex = array.generate (%n, %n) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %j : index
  }
  %xi = array.gather %x[%iIndex] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %xj = array.gather %x[%jIndex] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %dx = array.map %xj, %xi : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%p: f64, %q: f64):
    %d = arith.subf %p, %q : f64
    array.yield %d : f64
  }
  %yi = array.gather %y[%iIndex] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %yj = array.gather %y[%jIndex] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %dy = array.map %yj, %yi : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%p: f64, %q: f64):
    %d = arith.subf %p, %q : f64
    array.yield %d : f64
  }
  %zi = array.gather %z[%iIndex] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %zj = array.gather %z[%jIndex] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %dz = array.map %zj, %zi : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%p: f64, %q: f64):
    %d = arith.subf %p, %q : f64
    array.yield %d : f64
  }
  %mj = array.gather %m[%jIndex] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
  %weight = array.map %dx, %dy, %dz, %mj : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%a: f64, %b: f64, %c: f64, %w: f64):
    %aa = arith.mulf %a, %a : f64
    %bb = arith.mulf %b, %b : f64
    %cc = arith.mulf %c, %c : f64
    %s1 = arith.addf %aa, %bb : f64
    %s2 = arith.addf %s1, %cc : f64
    %eps = arith.constant 0.01 : f64
    %r2 = arith.addf %s2, %eps : f64
    %r = math.sqrt %r2 : f64
    %r3 = arith.mulf %r2, %r : f64
    %k = arith.divf %w, %r3 : f64
    array.yield %k : f64
  }
  %ax, %ay, %az = array.fold %dx, %dy, %dz, %weight init(%zero, %zero, %zero : f64, f64, f64) : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?xf64>, tensor<?xf64>, tensor<?xf64> {
  ^bb0(%sx: f64, %sy: f64, %sz: f64, %a: f64, %b: f64, %c: f64, %k: f64):
    %fx = arith.mulf %a, %k : f64
    %fy = arith.mulf %b, %k : f64
    %fz = arith.mulf %c, %k : f64
    %tx = arith.addf %sx, %fx : f64
    %ty = arith.addf %sy, %fy : f64
    %tz = arith.addf %sz, %fz : f64
    array.yield %tx, %ty, %tz : f64, f64, f64
  }
  %vx2 = array.map %vx, %ax : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %vy2 = array.map %vy, %ay : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %vz2 = array.map %vz, %az : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %x2 = array.map %x, %vx2 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %y2 = array.map %y, %vy2 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  %z2 = array.map %z, %vz2 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %s = arith.mulf %q, %dt : f64
    %u = arith.addf %p, %s : f64
    array.yield %u : f64
  }
  return %x2, %y2, %z2, %vx2, %vy2, %vz2 : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>
}
