// Pins the fusion trees that array-fuse builds for examples/seed001_normalize_inc.mlir:
// seed 001 §1.4 Fig. 1.9 normalizeInc: the preferred clustering, sum1 first
// (a lone fold) and incs fused vertically into ys.
//
// Expected trees (leaves named after the source):
//   @normalizeInc: vertical(incs=map, ys=map)
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (1 fold, 2 map).

// RUN: fuse-opt %examples/seed001_normalize_inc.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed001_normalize_inc.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.fold' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @normalizeInc(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:       %[[SUM1:[0-9]+]] = array.fold %[[XS]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[INCS:[0-9]+]] = array.map %[[XS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[INCS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_INCS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[YS:[0-9]+]] = array.map %[[B_INCS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             %{{[0-9]+}} = array.index %[[SUM1]][] : tensor<i64>
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// UNFUSED-LABEL: func.func @normalizeInc(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.fold
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         return
