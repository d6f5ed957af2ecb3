// Parses, verifies and pins examples/seed000_row_softmax.mlir (the softmax of
// attention, seed 000 §5.1): its clustering (two clusters, each a row fold fused into
// the gather that broadcasts it back over the row, and the map reading it), the loop
// nests they become (per row: the fold once, then the loop over the row) and its
// results under the interpreter, compiled unfused and compiled fused.
// RUN: fuse-opt %examples/seed000_row_softmax.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed000_row_softmax.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --array-fusion --array-to-loops 2>&1 | FileCheck %s --check-prefix=LOOPS --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --run --check --size=30 --seed=4 | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @rowSoftmax(
// CHECK-SAME:    %[[S:arg[0-9]+]]: tensor<?x?xf64>) -> tensor<?x?xf64>
// CHECK:         %[[MAX:[0-9]+]] = array.fold %[[S]]
// CHECK:         %[[MAXES:[0-9]+]] = array.replicate %[[MAX]]
// CHECK:         %[[SHIFTED:[0-9]+]] = array.map %[[S]], %[[MAXES]]
// CHECK:         %[[SUM:[0-9]+]] = array.fold %[[SHIFTED]]
// CHECK:         %[[SUMS:[0-9]+]] = array.replicate %[[SUM]]
// CHECK:         %[[SOFTMAX:[0-9]+]] = array.map %[[SHIFTED]], %[[SUMS]]
// CHECK:         return %[[SOFTMAX]]

// CLUSTERS: "name":"rowSoftmax"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"rowMax","rowMaxes","rowMaxes","shifted"],["rowSum","rowSums","rowSums","softmax"]]

// LOOPS-LABEL: func.func @rowSoftmax(
// LOOPS:         scf.parallel
// LOOPS:           scf.if
// LOOPS:             %[[MAX:.*]] = scf.for {{.*}} -> (f64) {
// LOOPS:               arith.maximumf
// LOOPS:             }
// LOOPS:             scf.for
// LOOPS:               arith.subf %{{.*}}, %[[MAX]]
// LOOPS:               math.exp
// LOOPS:         scf.parallel
// LOOPS:           scf.if
// LOOPS:             %[[SUM:.*]] = scf.for {{.*}} -> (f64) {
// LOOPS:               arith.addf
// LOOPS:             }
// LOOPS:             scf.for
// LOOPS:               arith.divf %{{.*}}, %[[SUM]]
// LOOPS:         return

// RESULT: @rowSoftmax: match (interpreter, unfused, fused)
