// Pins the fusion trees that array-fuse builds for examples/seed000_intro.mlir:
// seed 000 §1 Fig. 1 and §3.2: a vertical, a horizontal, and the merge of
// y = map f x into z = zipWith g x y (y bound by a vertical, x read from outside).
//
// Expected trees (leaves named after the source):
//   @verticalExample: vertical(ys=map, result=map)
//   @horizontalExample: horizontal(as=map, bs=map)
//   @mergeExample: vertical(y=map, z=map)
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (6 map).

// RUN: fuse-opt %examples/seed000_intro.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed000_intro.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @verticalExample(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[YS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_YS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[RESULT:[0-9]+]] = array.map %[[B_YS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[RESULT]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// CHECK-LABEL: func.func @horizontalExample(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
// CHECK-NEXT:    %[[HORIZ1:[0-9]+]]:2 = array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
// CHECK-NEXT:      %[[AS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[AS]] : tensor<?xi64>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[BS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[BS]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]]#0, %[[CLUSTER1]]#1 : tensor<?xi64>, tensor<?xi64>

// CHECK-LABEL: func.func @mergeExample(
// CHECK-SAME:    %[[X:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[Y:[0-9]+]] = array.map %[[X]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[Y]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_Y:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[Z:[0-9]+]] = array.map %[[X]], %[[B_Y]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[Z]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// UNFUSED-LABEL: func.func @verticalExample(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         return

// UNFUSED-LABEL: func.func @horizontalExample(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         return

// UNFUSED-LABEL: func.func @mergeExample(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         return
