// Parses, verifies and pins examples/seed000_intro.mlir
// (seed 000 §1 Figure 1 (a)/(b) and the §3.2 merge example).
// RUN: fuse-opt %examples/seed000_intro.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed000_intro.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_intro.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @verticalExample(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[YS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[R:[0-9]+]] = array.map %[[YS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         return %[[R]]

// CHECK-LABEL: func.func @horizontalExample(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:         %[[AS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[BS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         return %[[AS]], %[[BS]]

// CHECK-LABEL: func.func @mergeExample(
// CHECK-SAME:    %[[X:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[Y:[0-9]+]] = array.map %[[X]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[Z:[0-9]+]] = array.map %[[X]], %[[Y]] : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
// CHECK:         return %[[Z]]

// CANON-LABEL: func.func @verticalExample(
// CANON-COUNT-2: array.map
// CANON-LABEL: func.func @horizontalExample(
// CANON-COUNT-2: array.map
// CANON-LABEL: func.func @mergeExample(
// CANON-COUNT-2: array.map
