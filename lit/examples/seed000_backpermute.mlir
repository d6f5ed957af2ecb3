// Parses, verifies and pins examples/seed000_backpermute.mlir
// (seed 000 §2.1: backpermute via generate + gather, its sugar form, and
// gather via backpermute with indexing).
// RUN: fuse-opt %examples/seed000_backpermute.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed000_backpermute.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_backpermute.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @backpermute(
// CHECK-SAME:    %[[SZ:arg[0-9]+]]: index, %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK:         %[[N:[0-9]+]] = array.size %[[XS]] : tensor<?xf32>
// CHECK:         %[[IS:[0-9]+]] = array.generate(%[[SZ]]) : tensor<?xindex>
// CHECK:           arith.remui %{{.+}}, %[[N]] : index
// CHECK:         %[[YS:[0-9]+]] = array.gather %[[XS]][%[[IS]]] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
// CHECK:         return %[[YS]]

// CHECK-LABEL: func.func @backpermuteSugar(
// CHECK-SAME:    %[[SZ:arg[0-9]+]]: index, %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK:         %[[N:[0-9]+]] = array.size %[[XS]] : tensor<?xf32>
// CHECK:         %[[YS:[0-9]+]] = array.backpermute %[[XS]] to(%[[SZ]]) : tensor<?xf32> -> tensor<?xf32>
// CHECK:           arith.remui %{{.+}}, %[[N]] : index
// CHECK-NOT:     array.gather
// CHECK:         return %[[YS]]

// CHECK-LABEL: func.func @gatherViaBackpermute(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK:         %[[SZ:[0-9]+]] = array.size %[[IS]] : tensor<?xindex>
// CHECK:         %[[YS:[0-9]+]] = array.backpermute %[[XS]] to(%[[SZ]]) : tensor<?xf32> -> tensor<?xf32>
// CHECK-NEXT:    ^bb0(%[[I:arg[0-9]+]]: index):
// CHECK-NEXT:      %[[J:[0-9]+]] = array.index %[[IS]][%[[I]]] : tensor<?xindex>
// CHECK-NEXT:      array.yield %[[J]] : index
// CHECK:         return %[[YS]]

// CANON-LABEL: func.func @backpermute(
// CANON:         array.generate
// CANON:         array.gather
// CANON-LABEL: func.func @backpermuteSugar(
// CANON:         array.backpermute
// CANON-LABEL: func.func @gatherViaBackpermute(
// CANON:         array.backpermute
// CANON:           array.index
