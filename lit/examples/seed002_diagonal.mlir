// Parses, verifies and pins examples/seed002_diagonal.mlir
// (seed 002 §2.1 map fusion and §2.1.2 the diagonal-fusion example).
// RUN: fuse-opt %examples/seed002_diagonal.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed002_diagonal.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed002_diagonal.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @mapFusion(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[YS:[0-9]+]] = array.map %[[XS]]
// CHECK:         %[[ZS:[0-9]+]] = array.map %[[YS]]
// CHECK:         return %[[ZS]] : tensor<?xi64>

// CHECK-LABEL: func.func @diagonalExample(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:         %[[YS:[0-9]+]] = array.map %[[XS]]
// CHECK:         %[[ZS:[0-9]+]] = array.map %[[YS]]
// CHECK:         return %[[YS]], %[[ZS]] : tensor<?xi64>, tensor<?xi64>

// CANON-LABEL: func.func @mapFusion(
// CANON-COUNT-2: array.map
// CANON-LABEL: func.func @diagonalExample(
// CANON-COUNT-2: array.map
