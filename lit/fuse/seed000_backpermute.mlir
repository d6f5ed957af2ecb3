// Pins the fusion trees that array-fuse builds for examples/seed000_backpermute.mlir:
// seed 000 §2.1: backpermute as generate + gather fuses vertically (the index
// array is streamed into the gather, whose source `xs` is read in the gather's
// label order 2); the sugar forms stay single combinators (no array.cluster).
//
// Expected trees (leaves named after the source):
//   @backpermute: vertical(is=generate, ys=gather)
//   @backpermuteSugar: no array.cluster
//   @gatherViaBackpermute: no array.cluster
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (2 backpermute, 1 gather, 1 generate).

// RUN: fuse-opt %examples/seed000_backpermute.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed000_backpermute.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.backpermute' --implicit-check-not='= array.gather' --implicit-check-not='= array.generate'

// CHECK-LABEL: func.func @backpermute(
// CHECK-SAME:    %[[SZ:arg[0-9]+]]: index, %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK:       %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xf32> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xf32> producer {
// CHECK-NEXT:      %[[IS:[0-9]+]] = array.generate(%[[SZ]]) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xindex> {
// CHECK:             array.yield {{.*}} : index
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[IS]] : tensor<?xindex>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_IS:arg[0-9]+]]: tensor<?xindex>):
// CHECK-NEXT:      %[[YS:[0-9]+]] = array.gather %[[XS]][%[[B_IS]]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
// CHECK-NEXT:      array.yield %[[YS]] : tensor<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xf32>

// CHECK-LABEL: func.func @backpermuteSugar(
// CHECK-SAME:    %[[SZ:arg[0-9]+]]: index, %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:       %[[YS:[0-9]+]] = array.backpermute %[[XS]] to(%[[SZ]]) {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xf32> -> tensor<?xf32> {
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:         array.yield {{.*}} : index
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[YS]] : tensor<?xf32>

// CHECK-LABEL: func.func @gatherViaBackpermute(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:       %[[YS:[0-9]+]] = array.backpermute %[[XS]] to(%{{[0-9]+}}) {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xf32> -> tensor<?xf32> {
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:         %{{[0-9]+}} = array.index %[[IS]][%arg2] : tensor<?xindex>
// CHECK-NEXT:    array.yield {{.*}} : index
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[YS]] : tensor<?xf32>

// UNFUSED-LABEL: func.func @backpermute(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.generate
// UNFUSED:         = array.gather
// UNFUSED:         return

// UNFUSED-LABEL: func.func @backpermuteSugar(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.backpermute
// UNFUSED:         return

// UNFUSED-LABEL: func.func @gatherViaBackpermute(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.backpermute
// UNFUSED:         return
