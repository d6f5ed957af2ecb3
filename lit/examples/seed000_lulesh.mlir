// Parses, verifies and pins examples/seed000_lulesh.mlir (a one-dimensional LULESH-style
// Lagrangian hydrodynamics step, 40 combinators, seed 000 §5's LULESH benchmark at a
// readable size): size inference proves every array the size of x (no size warning); the
// clustering under the default cost (four clusters: the old geometry and velocity
// gradient; the limiter, EOS, viscosity and stress, which gather the gradient at
// neighbouring elements; the nodal update with the kinetic energies, which gathers the
// stress at the left element; the new geometry, work, EOS, time-step constraints and
// energies, which gather the new positions at the right node); nothing is lowered op by
// op; and the results agree under the interpreter, compiled unfused and compiled fused
// (CPU, OpenMP, emulated GPU kernels), a single node and none included.
//
// Hand cases:
// * HAND lines, the shipped input: a gas at rest, 5 nodes 3 apart, 4 elements of mass 3
//   and energy 6 (the ghost entries 0), γ = 3, dt = 0.2. By hand: ρ = 1 and p = (γ − 1)
//   ρ e = 12 everywhere, so no force, q = 0 (no velocity jump) and nothing moves; the
//   sound speed is √(γ p / ρ) = 6, so dt_courant = 3 / 6 = 0.5; no volume changes, so
//   dt_hydro stays 10²⁰; the next step min(0.5 / 2, ⅔ · 10²⁰) = 0.25 is 1.25 times dt,
//   more than 1.2, so it is 1.2 · 0.2 = 0.24; the energy is 4 · 3 · 6 = 72.
// * PYTHON lines, @compressionState below: 5 nodes 1 apart moving at
//   u = (0, −0.5, −1, −0.5, 0) (elements 0 and 1 compressed, 2 and 3 expanded),
//   e = (1, 2, 1.5, 1), m = (1, 1, 2, 1), dt = 0.1, γ = 1.4. The expected values come
//   from a separate 40-line Python script that runs the step on plain lists of the N − 1
//   elements (no ghost, no masks) from the formulas of the example's header: the limiter
//   gives φ = 1 for element 0 (its gradient equals its neighbour's: no viscosity) and
//   φ = 0 for element 1 (q = ρ (½ · ½ + ⅔ · ¼) = 5/12); nodes are pushed by the stress
//   differences; e' = e − (p + q) Δv / m; the Courant limit 0.10087 beats the
//   volume-change limit 0.16192, so dt' is half of it. Checked to 11 decimals (the two
//   computations round differently in the last place). The energy moves from 8.0625 to
//   8.05703 (the explicit update is not exactly conservative).
// RUN: fuse-opt %examples/seed000_lulesh.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_lulesh.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed000_lulesh.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed000_lulesh.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: rm -rf %t && fuse-opt %s --run --function=compressionState --output-dir=%t > /dev/null
// RUN: fuse-opt %examples/seed000_lulesh.mlir --run --function=hydroStep --input=%t/compressionState.0.npy --input=%t/compressionState.1.npy --input=%t/compressionState.2.npy --input=%t/compressionState.3.npy --input=%t/compressionState.4.npy --input=%t/compressionState.5.npy | FileCheck %s --check-prefix=PYTHON
// RUN: fuse-opt %examples/seed000_lulesh.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed000_lulesh.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed000_lulesh.mlir --run --check --size=1000 --seed=3 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed000_lulesh.mlir --run --check --size=200 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @hydroStep(
// CHECK-COUNT-7: array.gather
// CHECK:         array.fold {{.*}} -> tensor<f64>, tensor<f64>
// CHECK:         array.fold {{.*}} -> tensor<f64>, tensor<f64>
// CHECK:         return

// CLUSTERS: "name":"hydroStep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"right","isElem","xR","vol","uR","du","grad"],["left","elemRight","gradL","gradR","phi","rho","p","q","sig"],["hasLeft","sigL","force","mL","mNode","acc","u1","x1","ke"],["x1R","vol1","dv","vdov","rho1","e1","p1","cs1","dtc","dth","dtCourant","newDt","ie","eInt","energy"]]

// LOOPS-NOT: op by op

// HAND: @hydroStep: tensor<5xf64>[0.0, 3.0, 6.0, 9.0, 12.0], tensor<5xf64>[0.0, 0.0, 0.0, 0.0, 0.0], tensor<5xf64>[6.0, 6.0, 6.0, 6.0, 0.0], tensor<5xf64>[12.0, 12.0, 12.0, 12.0, 0.0], tensor<5xf64>[0.0, 0.0, 0.0, 0.0, 0.0], tensor<f64>[0.5], tensor<f64>[1e20], tensor<f64>[0.24], tensor<f64>[72.0] ({{.*}}, interpreter)
// HAND: @hydroStep: tensor<5xf64>[0.0, 3.0, 6.0, 9.0, 12.0], tensor<5xf64>[0.0, 0.0, 0.0, 0.0, 0.0], tensor<5xf64>[6.0, 6.0, 6.0, 6.0, 0.0], tensor<5xf64>[12.0, 12.0, 12.0, 12.0, 0.0], tensor<5xf64>[0.0, 0.0, 0.0, 0.0, 0.0], tensor<f64>[0.5], tensor<f64>[1e20], tensor<f64>[0.24], tensor<f64>[72.0] ({{.*}}, compiled)

// PYTHON: @hydroStep: tensor<5xf64>[0.0, 0.94183333333{{[0-9]*}}, 1.90011111111{{[0-9]*}}, 2.95533333333{{[0-9]*}}, 4.0], tensor<5xf64>[0.0, -0.58166666666{{[0-9]*}}, -0.99888888888{{[0-9]*}}, -0.44666666666{{[0-9]*}}, 0.0], tensor<5xf64>[1.02326666666{{[0-9]*}}, 2.05076203703{{[0-9]*}}, 1.46686666666{{[0-9]*}}, 0.98213333333{{[0-9]*}}, 0.0], tensor<5xf64>[0.43458502919{{[0-9]*}}, 0.85601986588{{[0-9]*}}, 1.11208171001{{[0-9]*}}, 0.37605615826{{[0-9]*}}, 0.0], tensor<5xf64>[0.0, 0.41666666666{{[0-9]*}}, 0.0, 0.0, 0.0], tensor<f64>[0.10086674493{{[0-9]*}}], tensor<f64>[0.16191977077{{[0-9]*}}], tensor<f64>[0.05043337246{{[0-9]*}}], tensor<f64>[8.05703101851{{[0-9]*}}] ({{.*}}, interpreter)
// PYTHON: @hydroStep: tensor<5xf64>[0.0, 0.94183333333{{[0-9]*}}, 1.90011111111{{[0-9]*}}, 2.95533333333{{[0-9]*}}, 4.0], tensor<5xf64>[0.0, -0.58166666666{{[0-9]*}}, -0.99888888888{{[0-9]*}}, -0.44666666666{{[0-9]*}}, 0.0], tensor<5xf64>[1.02326666666{{[0-9]*}}, 2.05076203703{{[0-9]*}}, 1.46686666666{{[0-9]*}}, 0.98213333333{{[0-9]*}}, 0.0], tensor<5xf64>[0.43458502919{{[0-9]*}}, 0.85601986588{{[0-9]*}}, 1.11208171001{{[0-9]*}}, 0.37605615826{{[0-9]*}}, 0.0], tensor<5xf64>[0.0, 0.41666666666{{[0-9]*}}, 0.0, 0.0, 0.0], tensor<f64>[0.10086674493{{[0-9]*}}], tensor<f64>[0.16191977077{{[0-9]*}}], tensor<f64>[0.05043337246{{[0-9]*}}], tensor<f64>[8.05703101851{{[0-9]*}}] ({{.*}}, compiled)

// RESULT: @hydroStep: match (interpreter, unfused, fused)

// The inputs of the PYTHON case: nodes x, u; elements e, m with the ghost last; dt; γ.
func.func @compressionState() -> (tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, f64, f64) {
  %x = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0]> : tensor<5xf64>
  %u = arith.constant dense<[0.0, -0.5, -1.0, -0.5, 0.0]> : tensor<5xf64>
  %e = arith.constant dense<[1.0, 2.0, 1.5, 1.0, 0.0]> : tensor<5xf64>
  %m = arith.constant dense<[1.0, 1.0, 2.0, 1.0, 0.0]> : tensor<5xf64>
  %dt = arith.constant 0.1 : f64
  %gamma = arith.constant 1.4 : f64
  return %x, %u, %e, %m, %dt, %gamma : tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, f64, f64
}
