// Parses, verifies and pins examples/seed003_shallow_water.mlir (seed 003 Table I's
// shallow water, one Lax–Wendroff step with reflecting borders): size inference proves
// all 37 combinators' grids of one size (no warning); the analysis chooses three clusters,
// one per phase of the step, cut where a gather reads a grid computed just before (the
// reflected grids, then the six half-step grids, are stored; every index array, sign,
// shifted read and map fuses into its phase); nothing is lowered op by op; and the
// results agree under the interpreter, compiled unfused and compiled fused (CPU, OpenMP,
// emulated GPU kernels), on degenerate grids (0 × 0, 1 × 1) too.
//
// Worked independently: a pure-Python transcription of Benchpress's loop_body (its
// slice assignments and slices written as loops in the benchmark's own staggered
// coordinates, the operations in NumPy's order; no NumPy and not this tool) gives,
// bit for bit, every value checked below.
// * The shipped 5 × 6 pool (height 1, a bump of 1.5 at row 2, column 3, at rest): the
//   bump falls to 1.495096675 and lifts its four neighbours to 1.00122583125; U becomes
//   ∓0.055222512740139056 above and below it, V likewise left and right of it; U is
//   −0.0 on the first and last row and V on the first and last column (the reflection
//   negates a zero, as NumPy does). The three results are too long for --run to print,
//   so HAND pins its checksums, which that script recomputes: FNV-1a (64 bits) of the
//   text "tensor<5x6xf64>[" + ", ".join(repr(x) for x in the row-major values) + "]";
//   PROBE prints the rows and columns through the bump.
// * A flat 4 × 5 surface (H = 2, U = V = 0, written by @flat below) stays flat: H
//   unchanged, U and V zero (−0.0 where the border reflection negates them).
//
// The generated-input runs give --size (and --seed), so `--run` generates the inputs and
// leaves the shipped ones unread.
// RUN: fuse-opt %examples/seed003_shallow_water.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_shallow_water.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_shallow_water.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: rm -rf %t && fuse-opt %examples/seed003_shallow_water.mlir --run --output-dir=%t/bump | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %s --run --function=row2 --input=%t/bump/shallowWaterStep.0.npy | FileCheck %s --check-prefix=PROBE-H-ROW
// RUN: fuse-opt %s --run --function=col3 --input=%t/bump/shallowWaterStep.0.npy | FileCheck %s --check-prefix=PROBE-H-COL
// RUN: fuse-opt %s --run --function=col3 --input=%t/bump/shallowWaterStep.1.npy | FileCheck %s --check-prefix=PROBE-U-COL
// RUN: fuse-opt %s --run --function=row2 --input=%t/bump/shallowWaterStep.2.npy | FileCheck %s --check-prefix=PROBE-V-ROW
// RUN: fuse-opt %s --run --function=flat --output-dir=%t > /dev/null
// RUN: fuse-opt %examples/seed003_shallow_water.mlir --run --input=%t/flat.0.npy --input=%t/flat.1.npy --input=%t/flat.2.npy | FileCheck %s --check-prefix=FLAT
// RUN: fuse-opt %examples/seed003_shallow_water.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_shallow_water.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_shallow_water.mlir --run --check --size=40 --seed=7 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_shallow_water.mlir --run --check --size=16 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @shallowWaterStep(
// CHECK-COUNT-15: array.gather
// CHECK:         return

// CLUSTERS: "name":"shallowWaterStep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"rowIn","colIn","uSign","vSign","hb","uIn","vIn","ub","vb"],["rowSame","colSame","rowNext","colNext","hS","uS","vS","hx","ux","vx","hE","uE","vE","hy","uy","vy"],["rowPrev","colPrev","hxP","uxP","vxP","hyW","uyW","vyW","inside","hNew","uNew","vNew"]]

// LOOPS-NOT: op by op

// HAND: @shallowWaterStep: <f64 shape [5, 6] checksum 9a8aff5b3971701c>, <f64 shape [5, 6] checksum f45dedbf45fd8518>, <f64 shape [5, 6] checksum 350d576d38c965be> ({{.*}}, interpreter) [inputs from {{.*}}seed003_shallow_water/]
// HAND: @shallowWaterStep: <f64 shape [5, 6] checksum 9a8aff5b3971701c>, <f64 shape [5, 6] checksum f45dedbf45fd8518>, <f64 shape [5, 6] checksum 350d576d38c965be> ({{.*}}, compiled)

// PROBE-H-ROW: @row2: tensor<6xf64>[1.0, 1.0, 1.00122583125, 1.495096675, 1.00122583125, 1.0] ({{.*}}, interpreter)
// PROBE-H-COL: @col3: tensor<5xf64>[1.0, 1.00122583125, 1.495096675, 1.00122583125, 1.0] ({{.*}}, interpreter)
// PROBE-U-COL: @col3: tensor<5xf64>[-0.0, -0.055222512740139056, 0.0, 0.055222512740139056, -0.0] ({{.*}}, interpreter)
// PROBE-V-ROW: @row2: tensor<6xf64>[-0.0, 0.0, -0.055222512740139056, 0.0, 0.055222512740139056, -0.0] ({{.*}}, interpreter)

// FLAT: @shallowWaterStep: tensor<4x5xf64>[2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], tensor<4x5xf64>[-0.0, -0.0, -0.0, -0.0, -0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0, -0.0, -0.0, -0.0, -0.0], tensor<4x5xf64>[-0.0, 0.0, 0.0, 0.0, -0.0, -0.0, 0.0, 0.0, 0.0, -0.0, -0.0, 0.0, 0.0, 0.0, -0.0, -0.0, 0.0, 0.0, 0.0, -0.0] ({{.*}}, interpreter)
// FLAT: @shallowWaterStep: tensor<4x5xf64>[2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], tensor<4x5xf64>[-0.0, -0.0, -0.0, -0.0, -0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0, -0.0, -0.0, -0.0, -0.0], tensor<4x5xf64>[-0.0, 0.0, 0.0, 0.0, -0.0, -0.0, 0.0, 0.0, 0.0, -0.0, -0.0, 0.0, 0.0, 0.0, -0.0, -0.0, 0.0, 0.0, 0.0, -0.0] ({{.*}}, compiled)

// RESULT: @shallowWaterStep: match (interpreter, unfused, fused)

// Row 2 and column 3 of a 5 × 6 result (through the bump).
func.func @row2(%a: tensor<5x6xf64>) -> tensor<6xf64> {
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %rows = array.generate (%c6) : tensor<6xindex> {
  ^bb0(%j: index):
    array.yield %c2 : index
  }
  %cols = array.generate (%c6) : tensor<6xindex> {
  ^bb0(%j: index):
    array.yield %j : index
  }
  %r = array.gather %a[%rows, %cols] : tensor<5x6xf64>[tensor<6xindex>, tensor<6xindex>] -> tensor<6xf64>
  return %r : tensor<6xf64>
}

func.func @col3(%a: tensor<5x6xf64>) -> tensor<5xf64> {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %rows = array.generate (%c5) : tensor<5xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  %cols = array.generate (%c5) : tensor<5xindex> {
  ^bb0(%i: index):
    array.yield %c3 : index
  }
  %c = array.gather %a[%rows, %cols] : tensor<5x6xf64>[tensor<5xindex>, tensor<5xindex>] -> tensor<5xf64>
  return %c : tensor<5xf64>
}

// A flat 4 × 5 surface at rest: H = 2, U = V = 0.
func.func @flat() -> (tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %h = arith.constant 2.0 : f64
  %zero = arith.constant 0.0 : f64
  %hs, %us, %vs = array.generate (%c4, %c5) : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> {
  ^bb0(%i: index, %j: index):
    array.yield %h, %zero, %zero : f64, f64, f64
  }
  return %hs, %us, %vs : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>
}
