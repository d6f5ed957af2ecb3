// Parses, verifies and pins examples/seed003_sor.mlir (seed 003 Table I's successive
// over-relaxation, one red-black sweep of Benchpress' `solve` on its four sub-grids and
// the sweep's delta): the analysis proves its clustering optimal with no size warning,
// three clusters (the red updates with the index arrays and their masks; the black
// updates, which gather the new red points, with the delta's fourth term; the other
// three terms, which gather the new black points, with both four-accumulator folds and
// the sum), nothing is lowered op by op; the shipped sub-grids of a 4 × 6 grid (top edge
// 25, one hot inside point G[2][3] = b0[1][1] = 25, the rest 0) give the sweep worked out
// by hand, checked with a separate few-line Python loop over the full grid (the inside
// points with odd row and odd column, then even/even, odd/even, even/odd, each set to
// (g + up + down + left + right) · 0.2 with the current values; the delta transliterated
// from sor.py): r1 = 5, 10 (e.g. (0 + 25 + 25 + 0 + 0) · 0.2 = 10), r0 = 5, 5,
// b1 = 9, 8, b0 = 2, 9 on the updated points, all sums exact, delta = 7 + 6 + 7 + 4 = 24.
// Generated sub-grids (--size/--seed; the shipped ones are then not read) agree
// under the interpreter, compiled unfused and compiled fused (CPU, OpenMP, emulated GPU
// kernels), empty, 1 × 1 and 2 × 2 (one updated point per sub-grid) included.
// RUN: fuse-opt %examples/seed003_sor.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_sor.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_sor.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_sor.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %examples/seed003_sor.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_sor.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_sor.mlir --run --check --size=2 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_sor.mlir --run --check --size=80 --seed=4 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_sor.mlir --run --check --size=30 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @sorSweep(
// CHECK-COUNT-11: array.gather
// CHECK:          array.fold {{.*}} -> tensor<?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>
// CHECK:          array.fold {{.*}} -> tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>

// CLUSTERS: "name":"sorSweep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"rowUp","rowSame","rowDown","colLeft","colSame","colRight","maskR1","maskR0","b0Down","b1Right","r1New","b1Up","b0Left","r0New"],["maskB1","maskB0","r0NewDown","r1NewLeft","b1New","r1NewUp","r0NewRight","b0New","term4"],["b0NewLeft","term1","b1NewRight","term2","b1NewUp","term3","rows","sums","delta"]]

// LOOPS-NOT: op by op

// HAND: @sorSweep: tensor<2x3xf64>[25.0, 25.0, 25.0, 0.0, 5.0, 5.0], tensor<2x3xf64>[5.0, 10.0, 0.0, 0.0, 0.0, 0.0], tensor<2x3xf64>[25.0, 25.0, 25.0, 2.0, 9.0, 0.0], tensor<2x3xf64>[0.0, 9.0, 8.0, 0.0, 0.0, 0.0], tensor<f64>[24.0] ({{.*}}, interpreter) [inputs from {{.*}}seed003_sor/]
// HAND: @sorSweep: tensor<2x3xf64>[25.0, 25.0, 25.0, 0.0, 5.0, 5.0], tensor<2x3xf64>[5.0, 10.0, 0.0, 0.0, 0.0, 0.0], tensor<2x3xf64>[25.0, 25.0, 25.0, 2.0, 9.0, 0.0], tensor<2x3xf64>[0.0, 9.0, 8.0, 0.0, 0.0, 0.0], tensor<f64>[24.0] ({{.*}}, compiled)
// RESULT: @sorSweep: match (interpreter, unfused, fused)
