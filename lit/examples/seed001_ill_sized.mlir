// Parses, verifies and pins examples/seed001_ill_sized.mlir
// (seed 001 §1.3.4, bad1 and bad2): ill-sized programs that the verifiers must
// ACCEPT (all sizes are `?`); seed 001's size inference rejects them (this project warns,
// lit/fuse/seed001_ill_sized.mlir).
// RUN: fuse-opt %examples/seed001_ill_sized.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed001_ill_sized.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed001_ill_sized.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// bad1: map2 of the filtered array and the original array.
// CHECK-LABEL: func.func @bad1(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[FLT:[0-9]+]] = array.filter %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[YS:[0-9]+]] = array.map %[[FLT]], %[[XS]] : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
// CHECK:         return %[[YS]]

// bad2: map2 of two different filters of the same array.
// CHECK-LABEL: func.func @bad2(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[FLT1:[0-9]+]] = array.filter %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[FLT2:[0-9]+]] = array.filter %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[YS:[0-9]+]] = array.map %[[FLT1]], %[[FLT2]] : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
// CHECK:         return %[[YS]]

// CANON-LABEL: func.func @bad1(
// CANON:         array.filter
// CANON:         array.map
// CANON-LABEL: func.func @bad2(
// CANON-COUNT-2: array.filter
// CANON:         array.map
