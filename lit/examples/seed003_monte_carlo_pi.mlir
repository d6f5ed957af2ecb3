// Parses, verifies and pins examples/seed003_monte_carlo_pi.mlir (seed 003 Table I's
// Monte Carlo π, one batch of n points drawn in the program by a counter-based hash):
// all 6 combinators fuse into one loop that carries the count (no array is stored), the
// estimate is one division after it, nothing is lowered op by op, and the results agree
// under the interpreter, compiled unfused and compiled fused (CPU, OpenMP, emulated GPU
// kernels), n = 0 (NaN, as in the benchmark) and n = 1 included.
//
// The hand-checked case: the shipped inputs are n = 1000 points with key 42 (Benchpress's default seed).
// The expected estimate comes from a separate Python computation with integers of
// unbounded size, masked to 64 bits, not from this tool:
//   M = 2**64 - 1
//   def u(key, c):
//       z = (key + 0x9E3779B97F4A7C15 * (c + 1)) & M
//       z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
//       z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
//       z ^= z >> 31
//       return (z >> 11) * 2.0 ** -53
//   count = sum(math.sqrt(u(42, i)**2 + u(42, 1000 + i)**2) <= 1.0 for i in range(1000))
// gives count = 794, so π ≈ 4 · 794 / 1000 = 3.176.
//
// The generated-input runs give --size (and --seed), so `--run` generates the inputs and
// leaves the shipped ones unread.
// RUN: fuse-opt %examples/seed003_monte_carlo_pi.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_monte_carlo_pi.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_monte_carlo_pi.mlir --array-fusion --array-to-loops 2>&1 | FileCheck %s --check-prefix=LOOPS --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_monte_carlo_pi.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %examples/seed003_monte_carlo_pi.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_monte_carlo_pi.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_monte_carlo_pi.mlir --run --check --size=20000 --seed=5 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_monte_carlo_pi.mlir --run --check --size=2000 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @monteCarloPi(
// CHECK-COUNT-2: array.generate
// CHECK:         array.fold {{.*}} : tensor<?xi1> -> tensor<i64>

// CLUSTERS: "name":"monteCarloPi"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"x","y","dist","inside","count","pi"]]

// LOOPS-LABEL: func.func @monteCarloPi(
// LOOPS:         %[[COUNT:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i64) {
// LOOPS:           math.sqrt
// LOOPS:           arith.cmpf ole
// LOOPS:           scf.yield
// LOOPS:         }
// LOOPS-NOT:     scf.for
// LOOPS:         arith.divf
// LOOPS-NOT:     scf.for
// LOOPS:         return

// HAND: @monteCarloPi: tensor<f64>[3.176] ({{.*}}, interpreter) [inputs from {{.*}}seed003_monte_carlo_pi/]
// HAND: @monteCarloPi: tensor<f64>[3.176] ({{.*}}, compiled)
// RESULT: @monteCarloPi: match (interpreter, unfused, fused)
