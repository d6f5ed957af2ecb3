// Parses, verifies and pins examples/seed001_normalize_inc.mlir
// (seed 001 §1.4 / Figure 1.9, `normalizeInc`, reconstructed from the prose).
// RUN: fuse-opt %examples/seed001_normalize_inc.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed001_normalize_inc.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed001_normalize_inc.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @normalizeInc(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[INCS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[SUM1:[0-9]+]] = array.fold %[[XS]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         %[[YS:[0-9]+]] = array.map %[[INCS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           array.index %[[SUM1]][] : tensor<i64>
// CHECK:         return %[[YS]] : tensor<?xi64>

// CANON-LABEL: func.func @normalizeInc(
// CANON:         array.map
// CANON:         array.fold
// CANON:         array.map
