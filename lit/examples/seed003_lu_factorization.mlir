// Parses, verifies and pins examples/seed003_lu_factorization.mlir (seed 003 Table I's LU
// factorisation, one Doolittle step k stored in place): size inference proves every
// array the size of a (no warning); the 12 combinators form two clusters, the 1-D
// multipliers (index arrays, gathers of a_ik and a_kk, the division) and the 2-D update
// (index arrays, the pivot row's gather, the multipliers broadcast by a gather of l,
// which cannot fuse with l's map, the product and the update); nothing is lowered op by
// op; and the shipped 4 × 4 matrix with k = 1 gives the step worked out by hand:
//
//   a = [[1, 2, 3, 4],     pivot a_11 = 2; l = [0, 1, 4/2, 6/2] = [0, 1, 2, 3]
//        [5, 2, 1, 3],     row 2: [6, l_2 = 2, 5 − 2·1, 7 − 2·3] = [6, 2, 3, 1]
//        [6, 4, 5, 7],     row 3: [7, l_3 = 3, 2 − 3·1, 1 − 3·3] = [7, 3, −1, −8]
//        [7, 6, 2, 1]]     rows 0, 1 and column 0 unchanged
//
// Generated inputs (k an i64 in −8..8) agree under the interpreter, compiled unfused and
// compiled fused (CPU, OpenMP, emulated GPU kernels): empty and 1 × 1 matrices, k < 0,
// k ≥ n and steps inside the matrix (size 200 seed 3: k = 3; size 40 seed 6: k = 6); given
// --size or --seed, `--run` generates the inputs and leaves the shipped ones unread.
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --run --check --size=1 --seed=2 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --run --check --size=2 --seed=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --run --check --size=40 --seed=3 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --run --check --size=200 --seed=3 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_lu_factorization.mlir --run --check --size=40 --seed=6 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @luStep(
// CHECK-SAME:    tensor<?x?xf64>, %{{.*}}: i64) -> (tensor<?x?xf64>, tensor<?xf64>)
// CHECK-COUNT-2: array.gather {{.*}} -> tensor<?xf64>
// CHECK:         %[[L:[0-9]+]] = array.map {{.*}} -> tensor<?xf64>
// CHECK:         array.gather %[[L]][%{{[0-9]+}}] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
// CHECK:         return %{{[0-9]+}}, %[[L]] : tensor<?x?xf64>, tensor<?xf64>

// CLUSTERS: "name":"luStep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"rows","kRows","colK","pivot","l"],["kIndex","iIndex","jIndex","pivotRow","lRows","scaled","next"]]

// LOOPS-NOT: op by op

// HAND: @luStep: tensor<4x4xf64>[1.0, 2.0, 3.0, 4.0, 5.0, 2.0, 1.0, 3.0, 6.0, 2.0, 3.0, 1.0, 7.0, 3.0, -1.0, -8.0], tensor<4xf64>[0.0, 1.0, 2.0, 3.0] ({{.*}}, interpreter)
// HAND: @luStep: tensor<4x4xf64>[1.0, 2.0, 3.0, 4.0, 5.0, 2.0, 1.0, 3.0, 6.0, 2.0, 3.0, 1.0, 7.0, 3.0, -1.0, -8.0], tensor<4xf64>[0.0, 1.0, 2.0, 3.0] ({{.*}}, compiled)
// RESULT: @luStep: match (interpreter, unfused, fused)
