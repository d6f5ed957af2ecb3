// Parses, verifies and pins examples/seed001_cycle.mlir
// (seed 001 §1.4.2, `cycle`).
// RUN: fuse-opt %examples/seed001_cycle.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed001_cycle.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed001_cycle.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @cycle(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[YS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[SUM:[0-9]+]] = array.fold %[[YS]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         %[[ZS:[0-9]+]] = array.map %[[YS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           array.index %[[SUM]][] : tensor<i64>
// CHECK:         return %[[ZS]]

// CANON-LABEL: func.func @cycle(
// CANON:         array.map
// CANON:         array.fold
// CANON:         array.map
