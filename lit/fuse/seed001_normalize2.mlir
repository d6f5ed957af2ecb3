// Pins the fusion trees that array-fuse builds for examples/seed001_normalize2.mlir:
// seed 001 §1.5.1 normalize2: clusters {sum1, gts, sum2} and {ys1, ys2}: sum1
// next to the vertical gts -> sum2, then the two maps side by side.
//
// Expected trees (leaves named after the source):
//   @normalize2: horizontal(sum1=fold, vertical(gts=filter, sum2=fold)); horizontal(ys1=map, ys2=map)
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (1 filter, 2 fold, 2 map).

// RUN: fuse-opt %examples/seed001_normalize2.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed001_normalize2.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.filter' --implicit-check-not='= array.fold' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @normalize2(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:       %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<i64>, tensor<i64> {
// CHECK-NEXT:    %[[HORIZ1:[0-9]+]]:2 = array.horizontal -> tensor<i64>, tensor<i64> left {
// CHECK-NEXT:      %[[SUM1:[0-9]+]] = array.fold %[[XS]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[SUM1]] : tensor<i64>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[VERT1:[0-9]+]] = array.vertical -> tensor<i64> producer {
// CHECK-NEXT:        %[[GTS:[0-9]+]] = array.filter %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:               array.yield {{.*}} : i1
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[GTS]] : tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_GTS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[SUM2:[0-9]+]] = array.fold %[[B_GTS]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[SUM2]] : tensor<i64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT1]] : tensor<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1 : tensor<i64>, tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[CLUSTER2:[0-9]+]]:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
// CHECK-NEXT:    %[[HORIZ2:[0-9]+]]:2 = array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
// CHECK-NEXT:      %[[YS1:[0-9]+]] = array.map %[[XS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]]#0[] : tensor<i64>
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS1]] : tensor<?xi64>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[YS2:[0-9]+]] = array.map %[[XS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]]#1[] : tensor<i64>
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS2]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ2]]#0, %[[HORIZ2]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER2]]#0, %[[CLUSTER2]]#1 : tensor<?xi64>, tensor<?xi64>

// UNFUSED-LABEL: func.func @normalize2(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.fold
// UNFUSED:         = array.filter
// UNFUSED:         = array.fold
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         return
