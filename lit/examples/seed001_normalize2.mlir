// Parses, verifies and pins examples/seed001_normalize2.mlir
// (seed 001 §1.1 / §1.5.1, `normalize2`).
// RUN: fuse-opt %examples/seed001_normalize2.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed001_normalize2.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed001_normalize2.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @normalize2(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:         %[[SUM1:[0-9]+]] = array.fold %[[XS]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         %[[GTS:[0-9]+]] = array.filter %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           arith.cmpi sgt
// CHECK:         %[[SUM2:[0-9]+]] = array.fold %[[GTS]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         %[[YS1:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           array.index %[[SUM1]][] : tensor<i64>
// CHECK:           arith.divsi
// CHECK:         %[[YS2:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:           array.index %[[SUM2]][] : tensor<i64>
// CHECK:           arith.divsi
// CHECK:         return %[[YS1]], %[[YS2]] : tensor<?xi64>, tensor<?xi64>

// CANON-LABEL: func.func @normalize2(
// CANON:         array.fold
// CANON:         array.filter
// CANON:         array.fold
// CANON-COUNT-2: array.map
