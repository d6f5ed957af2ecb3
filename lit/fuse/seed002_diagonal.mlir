// Pins the fusion trees that array-fuse builds for examples/seed002_diagonal.mlir:
// seed 002 §4.1: map fusion is vertical; when the intermediate `ys` is also
// returned the pair is diagonal (the node yields ys, then zs).
//
// Expected trees (leaves named after the source):
//   @mapFusion: vertical(ys=map, zs=map)
//   @diagonalExample: diagonal(ys=map, zs=map)
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (4 map).

// RUN: fuse-opt %examples/seed002_diagonal.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed002_diagonal.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @mapFusion(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[YS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_YS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[ZS:[0-9]+]] = array.map %[[B_YS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[ZS]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// CHECK-LABEL: func.func @diagonalExample(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
// CHECK-NEXT:    %[[DIAG1:[0-9]+]]:2 = array.diagonal -> tensor<?xi64>, tensor<?xi64> producer {
// CHECK-NEXT:      %[[YS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_YS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[ZS:[0-9]+]] = array.map %[[B_YS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[ZS]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[DIAG1]]#0, %[[DIAG1]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]]#0, %[[CLUSTER1]]#1 : tensor<?xi64>, tensor<?xi64>

// UNFUSED-LABEL: func.func @mapFusion(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         return

// UNFUSED-LABEL: func.func @diagonalExample(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         return
