// Parses, verifies and pins examples/seed003_stencil27.mlir (seed 003 Table I's 27 point
// stencil, one step with the border held fixed, no fold as Benchpress computes none):
// all 41 combinators fuse into one loop nest (the nine index arrays, the 27 gathers, the
// three plane sums, the inside mask and the average), with no size warning and nothing
// lowered op by op; the shipped 3 × 3 × 4 grid (27 at [1, 1, 1], 54 at [1, 1, 2], 27 at
// the border point [0, 2, 0], a neighbour of [1, 1, 1] only, and 81 at the border point
// [2, 0, 3], a neighbour of [1, 1, 2] only) gives the step worked out by hand, checked with
// a separate few-line Python loop (for each inside point, the sum of the 27 values
// around it over 27.0; the border copied): [1, 1, 1] = (27 + 54 + 27) / 27 = 4,
// [1, 1, 2] = (27 + 54 + 81) / 27 = 6, the border unchanged (all sums exact). Generated
// grids (--size/--seed; the shipped grid is then not read) agree under the
// interpreter, compiled unfused and compiled fused (CPU, OpenMP, emulated GPU kernels),
// empty, 1 × 1 × 1 and all-border 2 × 2 × 2 grids included.
// RUN: fuse-opt %examples/seed003_stencil27.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_stencil27.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_stencil27.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_stencil27.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %examples/seed003_stencil27.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_stencil27.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_stencil27.mlir --run --check --size=2 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_stencil27.mlir --run --check --size=16 --seed=4 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_stencil27.mlir --run --check --size=9 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @stencil27Step(
// CHECK-COUNT-27: array.gather
// CHECK-COUNT-4:  array.map

// CLUSTERS: "name":"stencil27Step"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"iPrev","iSame","iNext","jPrev","jSame","jNext","kPrev","kSame","kNext","smmm","smmz","smmp","smzm","smzz","smzp","smpm","smpz","smpp","szmm","szmz","szmp","szzm","szzz","szzp","szpm","szpz","szpp","spmm","spmz","spmp","spzm","spzz","spzp","sppm","sppz","sppp","plane0","plane1","plane2","inside","next"]]

// LOOPS-NOT: op by op

// HAND: @stencil27Step: tensor<3x3x4xf64>[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 27.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 81.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] ({{.*}}, interpreter) [inputs from {{.*}}seed003_stencil27/]
// HAND: @stencil27Step: tensor<3x3x4xf64>[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 27.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 81.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] ({{.*}}, compiled)
// RESULT: @stencil27Step: match (interpreter, unfused, fused)
