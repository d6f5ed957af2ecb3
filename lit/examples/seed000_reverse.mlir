// Parses, verifies and pins examples/seed000_reverse.mlir
// (seed 000 §2, `reverse` as generate + gather, and the array.reverse sugar).
// RUN: fuse-opt %examples/seed000_reverse.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed000_reverse.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_reverse.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @reverse(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK:         %[[N:[0-9]+]] = array.size %[[XS]] : tensor<?xf32>
// CHECK:         %[[INDS:[0-9]+]] = array.generate(%[[N]]) : tensor<?xindex>
// CHECK:           arith.subi %[[N]],
// CHECK:         %[[RESULT:[0-9]+]] = array.gather %[[XS]][%[[INDS]]] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
// CHECK-NOT:     array.reverse
// CHECK:         return %[[RESULT]]

// CHECK-LABEL: func.func @reverseSugar(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xf32>) -> tensor<?xf32>
// CHECK-NOT:     array.generate
// CHECK:         %[[RESULT:[0-9]+]] = array.reverse %[[XS]] : tensor<?xf32>
// CHECK-NOT:     array.gather
// CHECK:         return %[[RESULT]]

// CANON-LABEL: func.func @reverse(
// CANON:         array.size
// CANON:         array.generate
// CANON:         array.gather
// CANON-LABEL: func.func @reverseSugar(
// CANON:         array.reverse
