// Parses, verifies and pins examples/seed002_normalise2.mlir
// (seed 002 §4: normalise2 with a scan, and the extended version of
// §4.1/§4.4 whose input is first mapped).
// RUN: fuse-opt %examples/seed002_normalise2.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed002_normalise2.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed002_normalise2.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @normalise2(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK-NOT:     array.filter
// CHECK:         %[[SUM1:[0-9]+]] = array.fold %[[XS]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         %[[SCN:[0-9]+]] = array.scan left inclusive %[[XS]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[SUM2:[0-9]+]] = array.fold %[[SCN]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         %[[YS1:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           array.index %[[SUM1]][] : tensor<i64>
// CHECK:           arith.floordivsi
// CHECK:         %[[YS2:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           array.index %[[SUM2]][] : tensor<i64>
// CHECK:           arith.floordivsi
// CHECK:         return %[[YS1]], %[[YS2]] : tensor<?xi64>, tensor<?xi64>

// CHECK-LABEL: func.func @normalise2Extended(
// CHECK-SAME:    %[[YS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:         %[[XS:[0-9]+]] = array.map %[[YS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[SUM1:[0-9]+]] = array.fold %[[XS]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         %[[SCN:[0-9]+]] = array.scan left inclusive %[[XS]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[SUM2:[0-9]+]] = array.fold %[[SCN]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         %[[YS1:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           array.index %[[SUM1]][] : tensor<i64>
// CHECK:         %[[YS2:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           array.index %[[SUM2]][] : tensor<i64>
// CHECK:         return %[[YS1]], %[[YS2]] : tensor<?xi64>, tensor<?xi64>

// CANON-LABEL: func.func @normalise2(
// CANON:         array.fold
// CANON:         array.scan left inclusive
// CANON:         array.fold
// CANON-COUNT-2: array.map
// CANON-LABEL: func.func @normalise2Extended(
// CANON:         array.map
// CANON:         array.fold
// CANON:         array.scan left inclusive
// CANON:         array.fold
// CANON-COUNT-2: array.map
