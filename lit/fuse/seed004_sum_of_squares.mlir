// Pins the fusion trees that array-fuse builds for examples/seed004_sum_of_squares.mlir:
// seed 004 sum of squares: generate -> map -> fold, one vertical chain.
//
// Expected trees (leaves named after the source):
//   @sumSquares: vertical(upto=generate, vertical(squares=map, result=fold))
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (1 fold, 1 generate, 1 map).

// RUN: fuse-opt %examples/seed004_sum_of_squares.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed004_sum_of_squares.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.fold' --implicit-check-not='= array.generate' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @sumSquares(
// CHECK-SAME:    %[[N:arg[0-9]+]]: index) -> tensor<i64>
// CHECK:       %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<i64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<i64> producer {
// CHECK-NEXT:      %[[UPTO:[0-9]+]] = array.generate(%[[N]]) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[UPTO]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_UPTO:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[VERT2:[0-9]+]] = array.vertical -> tensor<i64> producer {
// CHECK-NEXT:        %[[SQUARES:[0-9]+]] = array.map %[[B_UPTO]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[SQUARES]] : tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_SQUARES:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[RESULT:[0-9]+]] = array.fold %[[B_SQUARES]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[RESULT]] : tensor<i64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT2]] : tensor<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<i64>

// UNFUSED-LABEL: func.func @sumSquares(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.generate
// UNFUSED:         = array.map
// UNFUSED:         = array.fold
// UNFUSED:         return
