// Pins the fusion trees that array-fuse builds for examples/seed001_filter_left.mlir:
// seed 001 §1.3.1 filterLeft: the map and the filter over `xs` fuse horizontally.
//
// Expected trees (leaves named after the source):
//   @filterLeft: horizontal(ys1=map, ys2=filter)
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (1 filter, 1 map).

// RUN: fuse-opt %examples/seed001_filter_left.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed001_filter_left.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.filter' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @filterLeft(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
// CHECK-NEXT:    %[[HORIZ1:[0-9]+]]:2 = array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
// CHECK-NEXT:      %[[YS1:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS1]] : tensor<?xi64>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[YS2:[0-9]+]] = array.filter %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS2]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]]#0, %[[CLUSTER1]]#1 : tensor<?xi64>, tensor<?xi64>

// UNFUSED-LABEL: func.func @filterLeft(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.filter
// UNFUSED:         return
