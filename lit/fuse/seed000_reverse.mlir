// Pins the fusion trees that array-fuse builds for examples/seed000_reverse.mlir:
// seed 000 §2: reverse = generate + gather fuses vertically; the sugar op is a
// single combinator (no array.cluster).
//
// Expected trees (leaves named after the source):
//   @reverse: vertical(inds=generate, result=gather)
//   @reverseSugar: no array.cluster
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (1 gather, 1 generate, 1 reverse).

// RUN: fuse-opt %examples/seed000_reverse.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed000_reverse.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.gather' --implicit-check-not='= array.generate' --implicit-check-not='= array.reverse'

// CHECK-LABEL: func.func @reverse(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK:       %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xf32> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xf32> producer {
// CHECK-NEXT:      %[[INDS:[0-9]+]] = array.generate(%{{[0-9]+}}) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xindex> {
// CHECK:             array.yield {{.*}} : index
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[INDS]] : tensor<?xindex>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_INDS:arg[0-9]+]]: tensor<?xindex>):
// CHECK-NEXT:      %[[RESULT:[0-9]+]] = array.gather %[[XS]][%[[B_INDS]]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
// CHECK-NEXT:      array.yield %[[RESULT]] : tensor<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xf32>

// CHECK-LABEL: func.func @reverseSugar(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:  %[[RESULT:[0-9]+]] = array.reverse %[[XS]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xf32>
// CHECK-NEXT:  return %[[RESULT]] : tensor<?xf32>

// UNFUSED-LABEL: func.func @reverse(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.generate
// UNFUSED:         = array.gather
// UNFUSED:         return

// UNFUSED-LABEL: func.func @reverseSugar(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.reverse
// UNFUSED:         return
