// Parses, verifies and pins examples/seed003_leibniz_pi.mlir (seed 003 Table I,
// Leibniz π): its clustering (one cluster of all three combinators), the one loop nest
// it becomes (the sum carried by the loop, the rank-0 map once after it) and its
// results under the interpreter, compiled unfused and compiled fused.
// RUN: fuse-opt %examples/seed003_leibniz_pi.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed003_leibniz_pi.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_leibniz_pi.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS
// RUN: fuse-opt %examples/seed003_leibniz_pi.mlir --array-fusion --array-to-loops 2>&1 | FileCheck %s --check-prefix=LOOPS --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_leibniz_pi.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed003_leibniz_pi.mlir --run --check --size=1000 | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @leibnizPi(
// CHECK-SAME:    %[[N:arg[0-9]+]]: index) -> tensor<f64>
// CHECK:         %[[TERMS:[0-9]+]] = array.generate(%[[N]]) : tensor<?xf64>
// CHECK:         %[[SUM:[0-9]+]] = array.fold %[[TERMS]] init(%{{.+}} : f64) : tensor<?xf64> -> tensor<f64>
// CHECK:         %[[PI:[0-9]+]] = array.map %[[SUM]] : tensor<f64> -> tensor<f64>
// CHECK:         return %[[PI]] : tensor<f64>

// CLUSTERS: "name":"leibnizPi"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"terms","sum","pi"]]

// LOOPS-LABEL: func.func @leibnizPi(
// LOOPS:         %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// LOOPS:           arith.divf
// LOOPS:           arith.addf %[[ACC]]
// LOOPS:         }
// LOOPS:         arith.mulf %[[SUM]]
// LOOPS-NOT:     scf.for
// LOOPS:         return

// RESULT: @leibnizPi: match (interpreter, unfused, fused)
