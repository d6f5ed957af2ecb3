// Pins the fusion trees that array-fuse builds for examples/seed000_scatter_example.mlir:
// seed 000 §3.4, Fig. 3: `as` (the 2-result map) is fused into the scatter
// (both its arrays bound by a vertical); `bs`, the scatter destination, stays a
// separate, manifest combinator before the cluster.
//
// Expected trees (leaves named after the source):
//   @scatterExample: vertical(as=map, result=scatter)
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (2 map, 1 scatter).

// RUN: fuse-opt %examples/seed000_scatter_example.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed000_scatter_example.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.map' --implicit-check-not='= array.scatter'

// CHECK-LABEL: func.func @scatterExample(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[BS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[AS:[0-9]+]]:2 = array.map %[[XS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64, i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[AS]]#0, %[[AS]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_AS0:arg[0-9]+]]: tensor<?xi64>, %[[B_AS1:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[RESULT:[0-9]+]] = array.scatter %[[BS]][%[[B_AS0]]], %[[B_AS1]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[RESULT]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// UNFUSED-LABEL: func.func @scatterExample(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         = array.scatter
// UNFUSED:         return
