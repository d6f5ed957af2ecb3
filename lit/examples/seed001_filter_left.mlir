// Parses, verifies and pins examples/seed001_filter_left.mlir
// (seed 001 §1.3.1 / §1.3.4, `filterLeft`).
// RUN: fuse-opt %examples/seed001_filter_left.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed001_filter_left.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed001_filter_left.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @filterLeft(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:         %[[YS1:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[YS2:[0-9]+]] = array.filter %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           arith.remsi
// CHECK:         return %[[YS1]], %[[YS2]] : tensor<?xi64>, tensor<?xi64>

// CANON-LABEL: func.func @filterLeft(
// CANON:         array.map
// CANON:         array.filter
