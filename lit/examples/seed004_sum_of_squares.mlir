// Parses, verifies and pins examples/seed004_sum_of_squares.mlir
// (seed 004 §2.3.1, Listing 2, sum of squares).
// RUN: fuse-opt %examples/seed004_sum_of_squares.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed004_sum_of_squares.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed004_sum_of_squares.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @sumSquares(
// CHECK-SAME:    %[[N:arg[0-9]+]]: index) -> tensor<i64>
// CHECK:         %[[UPTO:[0-9]+]] = array.generate(%[[N]]) : tensor<?xi64>
// CHECK:         %[[SQUARES:[0-9]+]] = array.map %[[UPTO]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[RESULT:[0-9]+]] = array.fold %[[SQUARES]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         return %[[RESULT]] : tensor<i64>

// CANON-LABEL: func.func @sumSquares(
// CANON:         array.generate
// CANON:         array.map
// CANON:         array.fold
