// Parses, verifies and pins examples/seed003_heat_equation.mlir (seed 003 Table I's heat
// equation, one Jacobi step and its total change): all 15 combinators fuse into one loop
// nest (the gathers of the stencil, the update, the change and both folds), nothing is
// lowered op by op, the shipped 3 × 3 grid gives the step worked out by hand (middle
// 0.2 · 9 = 1.8, border unchanged, change 7.2), and generated grids agree under the
// interpreter, compiled unfused and compiled fused (CPU, OpenMP, emulated GPU kernels).
// RUN: fuse-opt %examples/seed003_heat_equation.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_heat_equation.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS
// RUN: fuse-opt %examples/seed003_heat_equation.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_heat_equation.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %examples/seed003_heat_equation.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed003_heat_equation.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed003_heat_equation.mlir --run --check --size=300 --seed=4 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_heat_equation.mlir --run --check --size=100 --gpu-sim | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @heatStep(
// CHECK-COUNT-4: array.gather

// CLUSTERS: "name":"heatStep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"rowUp","rowDown","rowSame","colSame","colLeft","colRight","up","down","left","right","inside","next","diff","rowDelta","delta"]]

// LOOPS-NOT: op by op

// HAND: @heatStep: tensor<3x3xf64>[0.0, 0.0, 0.0, 0.0, 1.79999{{[0-9]*}}, 0.0, 0.0, 0.0, 0.0], tensor<f64>[7.2] ({{.*}}, interpreter)
// HAND: @heatStep: tensor<3x3xf64>[0.0, 0.0, 0.0, 0.0, 1.79999{{[0-9]*}}, 0.0, 0.0, 0.0, 0.0], tensor<f64>[7.2] ({{.*}}, compiled)
// RESULT: @heatStep: match (interpreter, unfused, fused)
