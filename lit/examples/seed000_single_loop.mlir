// Parses, verifies and pins examples/seed000_single_loop.mlir
// (seed 000 §1, `singleLoop`). The second RUN checks the printed form
// round-trips; the third that canonicalization keeps every combinator.
// RUN: fuse-opt %examples/seed000_single_loop.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed000_single_loop.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_single_loop.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @singleLoop(
// CHECK-SAME:    %[[AS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[BS:[0-9]+]] = array.reverse %[[AS]] : tensor<?xi64>
// CHECK:         %[[CS:[0-9]+]] = array.map %[[AS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[DS:[0-9]+]] = array.map %[[CS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[RESULT:[0-9]+]] = array.map %[[BS]], %[[CS]], %[[DS]] : tensor<?xi64>, tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
// CHECK-NOT:     array.index
// CHECK:         return %[[RESULT]] : tensor<?xi64>

// CANON-LABEL: func.func @singleLoop(
// CANON:         array.reverse
// CANON-COUNT-3: array.map
// CANON:         return
