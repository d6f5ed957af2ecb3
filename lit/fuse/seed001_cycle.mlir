// Pins the fusion trees that array-fuse builds for examples/seed001_cycle.mlir:
// seed 001 §1.4.2: `sum` is read by `zs` as a whole, so `zs` cannot join the
// cluster of `ys`; `ys` is fused diagonally into `sum` (it is also an output of
// the cluster, read by `zs`).
//
// Expected trees (leaves named after the source):
//   @cycle: diagonal(ys=map, sum=fold)
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (1 fold, 2 map).

// These are the trees of the seed's model: recompute=false. With recomputation (the
// default), lit/fuse/recompute.mlir pins what changes.
//
// RUN: fuse-opt %examples/seed001_cycle.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis{recompute=false}, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed001_cycle.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis{recompute=false}, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.fold' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @cycle(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:       %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<?xi64>, tensor<i64> {
// CHECK-NEXT:    %[[DIAG1:[0-9]+]]:2 = array.diagonal -> tensor<?xi64>, tensor<i64> producer {
// CHECK-NEXT:      %[[YS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_YS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[SUM:[0-9]+]] = array.fold %[[B_YS]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[SUM]] : tensor<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[DIAG1]]#0, %[[DIAG1]]#1 : tensor<?xi64>, tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[ZS:[0-9]+]] = array.map %[[CLUSTER1]]#0 {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:         %{{[0-9]+}} = array.index %[[CLUSTER1]]#1[] : tensor<i64>
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[ZS]] : tensor<?xi64>

// UNFUSED-LABEL: func.func @cycle(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.fold
// UNFUSED:         = array.map
// UNFUSED:         return
