// Parses, verifies and pins examples/seed003_gauss_elimination.mlir (seed 003 Table I's
// Gauss elimination, one elimination step k): size inference proves every array the
// size of a (no warning), all 10 combinators fuse into one loop nest (the three index
// arrays, the gathers of the pivot row, column and element, the multiplier, its product,
// the mask and the update), nothing is lowered op by op, and the shipped 4 × 4 matrix
// with k = 1 gives the step worked out by hand:
//
//   a = [[1, 2, 3, 4],     pivot a_11 = 2; multipliers 4/2 = 2 (row 2), 6/2 = 3 (row 3);
//        [5, 2, 1, 3],     row 2, columns 1..3: [4, 5, 7] − 2·[2, 1, 3] = [0, 3, 1]
//        [6, 4, 5, 7],     row 3, columns 1..3: [6, 2, 1] − 3·[2, 1, 3] = [0, −1, −8]
//        [7, 6, 2, 1]]     rows 0, 1 and column 0 unchanged (Benchpress' slice [k+1:, k:])
//
// Generated inputs (k an i64 in −8..8) agree under the interpreter, compiled unfused and
// compiled fused (CPU, OpenMP, emulated GPU kernels): empty and 1 × 1 matrices, k < 0,
// k ≥ n and steps inside the matrix (size 200 seed 3: k = 3; size 40 seed 6: k = 6); given
// --size or --seed, `--run` generates the inputs and leaves the shipped ones unread.
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --run --check --size=1 --seed=2 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --run --check --size=2 --seed=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --run --check --size=40 --seed=3 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --run --check --size=200 --seed=3 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_gauss_elimination.mlir --run --check --size=40 --seed=6 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @gaussStep(
// CHECK-SAME:    tensor<?x?xf64>, %{{.*}}: i64) -> tensor<?x?xf64>
// CHECK-COUNT-3: array.gather
// CHECK:         array.generate{{.*}}tensor<?x?xi1>
// CHECK:         arith.select

// CLUSTERS: "name":"gaussStep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"kIndex","iIndex","jIndex","pivotRow","pivotCol","pivot","factor","scaled","below","next"]]

// LOOPS-NOT: op by op

// HAND: @gaussStep: tensor<4x4xf64>[1.0, 2.0, 3.0, 4.0, 5.0, 2.0, 1.0, 3.0, 6.0, 0.0, 3.0, 1.0, 7.0, 0.0, -1.0, -8.0] ({{.*}}, interpreter)
// HAND: @gaussStep: tensor<4x4xf64>[1.0, 2.0, 3.0, 4.0, 5.0, 2.0, 1.0, 3.0, 6.0, 0.0, 3.0, 1.0, 7.0, 0.0, -1.0, -8.0] ({{.*}}, compiled)
// RESULT: @gaussStep: match (interpreter, unfused, fused)
