// Source: LULESH, the Livermore Unstructured Lagrangian Explicit Shock Hydrodynamics proxy
// application (Karlin et al., LLNL, "LULESH 2.0 Updates and Changes", LLNL-TR-641973,
// 2013; it solves the Sedov blast-wave problem), which seed 000 (the fusion ILP paper) §5
// "Large case studies" uses as a benchmark ("a hydrodynamics simulation program", citing
// Karlin's 2012 LLNL report "LULESH programming model and performance ports overview";
// 51 combinators there, the ILP solved by Gurobi in 0.42 s). This is the structure of one
// LULESH time step (LagrangeNodal, LagrangeElements, CalcTimeConstraintsForElems,
// TimeIncrement), simplified to one dimension so that it stays readable: N nodes with
// position x and velocity u, and the N − 1 elements between consecutive nodes with
// specific internal energy e and mass m (volume = length, unit cross-section, so no
// volume state):
//
//   v = x[i+1] − x[i],  ρ = m / v,  p = (γ − 1) ρ e                    (geometry, EOS)
//   q = ρ (−½ Δu (1 − φ) + ⅔ Δu² (1 − φ²))  for Δu = min(u[i+1] − u[i], 0)
//       φ: LULESH's monotonic limiter of the velocity gradient Δu/v against both
//       neighbouring elements (½ (r⁻ + r⁺), at most 2r⁻, 2r⁺ and 1, at least 0;
//       an element at a wall is its own neighbour, as at a LULESH symmetry plane)
//   F[i] = (p + q)[i−1] − (p + q)[i],  M[i] = ½ (m[i−1] + m[i])        (node force, mass;
//                                       a wall node has half its one element's mass)
//   u' = u + F/M · dt (0 below |u'| < 10⁻⁷, and 0 at both boundary nodes: fixed walls)
//   x' = x + u' dt,  v' = x'[i+1] − x'[i],  Δv = v' − v
//   e' = e − (p + q) Δv / m,  p' = (γ − 1) ρ' e',  c' = √(γ p' / ρ')     (work, new EOS)
//   dt_courant = min v' / √(c'² + [v̇ < 0] 256 v'² v̇²)   (v̇ = Δv / (v' dt))
//   dt_hydro   = min over v̇ ≠ 0 of 0.1 / (|v̇| + 10⁻²⁰)     (both 10²⁰ when empty)
//   dt' = LULESH's TimeIncrement: min(dt_courant / 2, ⅔ dt_hydro), held at dt if it grows
//         by less than 1.1, grown by at most 1.2
//   E = Σ m e' + Σ ½ M u'²                                  (total energy, a diagnostic)
//
// Simplifications: one dimension, hence no hourglass control and no stress tensor; the
// EOS is the ideal gas with γ an argument (LULESH's is γ = 5/3); q is computed from the
// velocities at the start of the step and the energy update is explicit (LULESH computes
// q after the nodal update and predicts and corrects the energy); every element counts in
// the Courant limit (LULESH skips those with v̇ = 0, so a fluid at rest gets the sound-speed
// limit here); no dt_max.
//
// Encoding choices: nodes and elements have different counts, and size inference cannot
// relate two arguments, so every array has N entries, N = array.dim of x: the element
// arrays e, m (and the results e', p', q) carry a ghost element N − 1 that no node reads
// (its results are e' = e, p' = q = 0). Neighbours are gathers at generated clamped
// indices (min(i + 1, N − 1) for the right node of an element, max(i, 1) − 1 for the left
// element of a node and of an element, min(i + 1, max(N, 2) − 2) for the right element),
// and two generated i1 masks say which entries are real elements and which nodes have a
// left element. u, e and m must have the length of x (a precondition, as for any zip of
// arguments). The time constraints are one fold with two minimum accumulators, the
// energies one fold with two sums (`fastmath<reassoc>`: a diagnostic, which may be summed
// in any order; the minima, `arith.minimumf`, are exact in any order and need no such
// permission, so both folds get parallel forms under `--openmp`); the new time step
// and the total energy are rank-0 maps of them. Arguments: x, u (nodes), e, m (elements,
// ghost last), dt, γ. 40 combinators.

func.func @hydroStep(%x: tensor<?xf64>, %u: tensor<?xf64>, %e: tensor<?xf64>, %m: tensor<?xf64>, %dt: f64, %gamma: f64) -> (tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %half = arith.constant 0.5 : f64
  %huge = arith.constant 1.0e+20 : f64
  %n = array.dim %x, 0 : tensor<?xf64>
  %nLast = arith.subi %n, %c1 : index
  %nAtLeast2 = arith.maxui %n, %c2 : index
  %elemLast = arith.subi %nAtLeast2, %c2 : index
  %gammaM1 = arith.subf %gamma, %one : f64
  // Connectivity and masks.
  %right = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %a = arith.addi %i, %c1 : index
    %k = arith.minui %a, %nLast : index
    array.yield %k : index
  }
  %left = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %a = arith.maxui %i, %c1 : index
    %k = arith.subi %a, %c1 : index
    array.yield %k : index
  }
  %elemRight = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %a = arith.addi %i, %c1 : index
    %k = arith.minui %a, %elemLast : index
    array.yield %k : index
  }
  %isElem = array.generate (%n) : tensor<?xi1> {
  ^bb0(%i: index):
    %b = arith.cmpi ult, %i, %nLast : index
    array.yield %b : i1
  }
  %hasLeft = array.generate (%n) : tensor<?xi1> {
  ^bb0(%i: index):
    %b = arith.cmpi ugt, %i, %c0 : index
    array.yield %b : i1
  }
  // Element geometry and velocity jump at the start of the step.
  %xR = array.gather %x[%right] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %vol = array.map %x, %xR, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%a: f64, %b: f64, %el: i1):
    %l = arith.subf %b, %a : f64
    %v = arith.select %el, %l, %one : f64
    array.yield %v : f64
  }
  %uR = array.gather %u[%right] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %du = array.map %u, %uR : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %b: f64):
    %d = arith.subf %b, %a : f64
    array.yield %d : f64
  }
  %grad = array.map %du, %vol : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%d: f64, %v: f64):
    %g = arith.divf %d, %v : f64
    array.yield %g : f64
  }
  // The monotonic limiter: the gradient against both neighbouring elements.
  %gradL = array.gather %grad[%left] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %gradR = array.gather %grad[%elemRight] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %phi = array.map %grad, %gradL, %gradR : tensor<?xf64>, tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%g: f64, %gl: f64, %gr: f64):
    %ptiny = arith.constant 1.0e-36 : f64
    %two = arith.constant 2.0 : f64
    %gt = arith.addf %g, %ptiny : f64
    %norm = arith.divf %one, %gt : f64
    %rm = arith.mulf %gl, %norm : f64
    %rp = arith.mulf %gr, %norm : f64
    %s = arith.addf %rm, %rp : f64
    %avg = arith.mulf %half, %s : f64
    %rm2 = arith.mulf %two, %rm : f64
    %rp2 = arith.mulf %two, %rp : f64
    %p1 = arith.minimumf %avg, %rm2 : f64
    %p2 = arith.minimumf %p1, %rp2 : f64
    %p3 = arith.maximumf %p2, %zero : f64
    %p4 = arith.minimumf %p3, %one : f64
    array.yield %p4 : f64
  }
  // Equation of state and artificial viscosity.
  %rho = array.map %m, %vol : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %v: f64):
    %r = arith.divf %a, %v : f64
    array.yield %r : f64
  }
  %p = array.map %rho, %e : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%r: f64, %en: f64):
    %re = arith.mulf %r, %en : f64
    %pr = arith.mulf %gammaM1, %re : f64
    array.yield %pr : f64
  }
  %q = array.map %rho, %du, %phi, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%r: f64, %d: f64, %ph: f64, %el: i1):
    %qlc = arith.constant 0.5 : f64
    %qqc = arith.constant 0.6666666666666666 : f64
    %dn = arith.minimumf %d, %zero : f64
    %lin1 = arith.subf %one, %ph : f64
    %ph2 = arith.mulf %ph, %ph : f64
    %quad1 = arith.subf %one, %ph2 : f64
    %a1 = arith.mulf %dn, %lin1 : f64
    %a2 = arith.mulf %qlc, %a1 : f64
    %lin = arith.negf %a2 : f64
    %dn2 = arith.mulf %dn, %dn : f64
    %b1 = arith.mulf %dn2, %quad1 : f64
    %quad = arith.mulf %qqc, %b1 : f64
    %s = arith.addf %lin, %quad : f64
    %qv = arith.mulf %r, %s : f64
    %qe = arith.select %el, %qv, %zero : f64
    array.yield %qe : f64
  }
  %sig = array.map %p, %q, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%pr: f64, %qv: f64, %el: i1):
    %s = arith.addf %pr, %qv : f64
    %se = arith.select %el, %s, %zero : f64
    array.yield %se : f64
  }
  // Nodes: force, mass, acceleration, velocity and position.
  %sigL = array.gather %sig[%left] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %force = array.map %sigL, %sig, %hasLeft, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xi1>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%sl: f64, %sr: f64, %hl: i1, %hr: i1):
    %f = arith.subf %sl, %sr : f64
    %inside = arith.andi %hl, %hr : i1
    %fi = arith.select %inside, %f, %zero : f64
    array.yield %fi : f64
  }
  %mL = array.gather %m[%left] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %mNode = array.map %mL, %m, %hasLeft, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xi1>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%ml: f64, %mr: f64, %hl: i1, %hr: i1):
    %a = arith.select %hl, %ml, %zero : f64
    %b = arith.select %hr, %mr, %zero : f64
    %s = arith.addf %a, %b : f64
    %mn = arith.mulf %half, %s : f64
    array.yield %mn : f64
  }
  %acc = array.map %force, %mNode : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%f: f64, %mn: f64):
    %a = arith.divf %f, %mn : f64
    array.yield %a : f64
  }
  %u1 = array.map %u, %acc, %hasLeft, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xi1>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%v: f64, %a: f64, %hl: i1, %hr: i1):
    %ucut = arith.constant 1.0e-7 : f64
    %adt = arith.mulf %a, %dt : f64
    %w = arith.addf %v, %adt : f64
    %aw = math.absf %w : f64
    %tiny = arith.cmpf olt, %aw, %ucut : f64
    %wc = arith.select %tiny, %zero, %w : f64
    %inside = arith.andi %hl, %hr : i1
    %wi = arith.select %inside, %wc, %zero : f64
    array.yield %wi : f64
  }
  %x1 = array.map %x, %u1 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %v: f64):
    %d = arith.mulf %v, %dt : f64
    %y = arith.addf %a, %d : f64
    array.yield %y : f64
  }
  // Elements: new volume, work and equation of state.
  %x1R = array.gather %x1[%right] : tensor<?xf64>[tensor<?xindex>] -> tensor<?xf64>
  %vol1 = array.map %x1, %x1R, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%a: f64, %b: f64, %el: i1):
    %l = arith.subf %b, %a : f64
    %v = arith.select %el, %l, %one : f64
    array.yield %v : f64
  }
  %dv = array.map %vol1, %vol : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %b: f64):
    %d = arith.subf %a, %b : f64
    array.yield %d : f64
  }
  %vdov = array.map %dv, %vol1 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%d: f64, %v: f64):
    %vt = arith.mulf %v, %dt : f64
    %r = arith.divf %d, %vt : f64
    array.yield %r : f64
  }
  %rho1 = array.map %m, %vol1 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %v: f64):
    %r = arith.divf %a, %v : f64
    array.yield %r : f64
  }
  %e1 = array.map %e, %sig, %dv, %m, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%en: f64, %s: f64, %d: f64, %ms: f64, %el: i1):
    %w = arith.mulf %s, %d : f64
    %wm = arith.divf %w, %ms : f64
    %en1 = arith.subf %en, %wm : f64
    %r = arith.select %el, %en1, %en : f64
    array.yield %r : f64
  }
  %p1 = array.map %rho1, %e1, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%r: f64, %en: f64, %el: i1):
    %re = arith.mulf %r, %en : f64
    %pr = arith.mulf %gammaM1, %re : f64
    %pe = arith.select %el, %pr, %zero : f64
    array.yield %pe : f64
  }
  %cs1 = array.map %p1, %rho1 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%pr: f64, %r: f64):
    %gp = arith.mulf %gamma, %pr : f64
    %c2s = arith.divf %gp, %r : f64
    %c = math.sqrt %c2s : f64
    array.yield %c : f64
  }
  // Time-step constraints (Courant and volume change) and the next time step.
  %dtc = array.map %vol1, %cs1, %vdov, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%v: f64, %c: f64, %vd: f64, %el: i1):
    %qqc2 = arith.constant 256.0 : f64
    %cc = arith.mulf %c, %c : f64
    %vv = arith.mulf %v, %v : f64
    %dd = arith.mulf %vd, %vd : f64
    %t1 = arith.mulf %qqc2, %vv : f64
    %t2 = arith.mulf %t1, %dd : f64
    %comp = arith.cmpf olt, %vd, %zero : f64
    %extra = arith.select %comp, %t2, %zero : f64
    %s = arith.addf %cc, %extra : f64
    %root = math.sqrt %s : f64
    %dtf = arith.divf %v, %root : f64
    %r = arith.select %el, %dtf, %huge : f64
    array.yield %r : f64
  }
  %dth = array.map %vdov, %isElem : tensor<?xf64>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%vd: f64, %el: i1):
    %dvovmax = arith.constant 0.1 : f64
    %eps = arith.constant 1.0e-20 : f64
    %a = math.absf %vd : f64
    %ae = arith.addf %a, %eps : f64
    %t = arith.divf %dvovmax, %ae : f64
    %moving = arith.cmpf one, %vd, %zero : f64
    %both = arith.andi %el, %moving : i1
    %r = arith.select %both, %t, %huge : f64
    array.yield %r : f64
  }
  %dtCourant, %dtHydro = array.fold %dtc, %dth init(%huge, %huge : f64, f64) : tensor<?xf64>, tensor<?xf64> -> tensor<f64>, tensor<f64> {
  ^bb0(%ac: f64, %ah: f64, %c: f64, %h: f64):
    %mc = arith.minimumf %ac, %c : f64
    %mh = arith.minimumf %ah, %h : f64
    array.yield %mc, %mh : f64, f64
  }
  %newDt = array.map %dtCourant, %dtHydro : tensor<f64>, tensor<f64> -> tensor<f64> {
  ^bb0(%c: f64, %h: f64):
    %two = arith.constant 2.0 : f64
    %twoThirds = arith.constant 0.6666666666666666 : f64
    %lb = arith.constant 1.1 : f64
    %ub = arith.constant 1.2 : f64
    %cLess = arith.cmpf olt, %c, %huge : f64
    %cHalf = arith.divf %c, %two : f64
    %g1 = arith.select %cLess, %cHalf, %huge : f64
    %hLess = arith.cmpf olt, %h, %g1 : f64
    %hPart = arith.mulf %h, %twoThirds : f64
    %g2 = arith.select %hLess, %hPart, %g1 : f64
    %ratio = arith.divf %g2, %dt : f64
    %grows = arith.cmpf oge, %ratio, %one : f64
    %small = arith.cmpf olt, %ratio, %lb : f64
    %large = arith.cmpf ogt, %ratio, %ub : f64
    %dtUb = arith.mulf %dt, %ub : f64
    %capped = arith.select %large, %dtUb, %g2 : f64
    %held = arith.select %small, %dt, %capped : f64
    %r = arith.select %grows, %held, %g2 : f64
    array.yield %r : f64
  }
  // Total energy: internal plus kinetic.
  %ie = array.map %m, %e1, %isElem : tensor<?xf64>, tensor<?xf64>, tensor<?xi1> -> tensor<?xf64> {
  ^bb0(%ms: f64, %en: f64, %el: i1):
    %w = arith.mulf %ms, %en : f64
    %r = arith.select %el, %w, %zero : f64
    array.yield %r : f64
  }
  %ke = array.map %mNode, %u1 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%mn: f64, %v: f64):
    %vv = arith.mulf %v, %v : f64
    %mv = arith.mulf %mn, %vv : f64
    %k = arith.mulf %half, %mv : f64
    array.yield %k : f64
  }
  %eInt, %eKin = array.fold %ie, %ke init(%zero, %zero : f64, f64) : tensor<?xf64>, tensor<?xf64> -> tensor<f64>, tensor<f64> {
  ^bb0(%ai: f64, %ak: f64, %i: f64, %k: f64):
    %si = arith.addf %ai, %i fastmath<reassoc> : f64
    %sk = arith.addf %ak, %k fastmath<reassoc> : f64
    array.yield %si, %sk : f64, f64
  }
  %energy = array.map %eInt, %eKin : tensor<f64>, tensor<f64> -> tensor<f64> {
  ^bb0(%a: f64, %b: f64):
    %s = arith.addf %a, %b : f64
    array.yield %s : f64
  }
  return %x1, %u1, %e1, %p1, %q, %dtCourant, %dtHydro, %newDt, %energy : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}
