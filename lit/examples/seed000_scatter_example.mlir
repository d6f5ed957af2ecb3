// Parses, verifies and pins examples/seed000_scatter_example.mlir
// (seed 000 §3.4, `scatterExample`).
// RUN: fuse-opt %examples/seed000_scatter_example.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed000_scatter_example.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_scatter_example.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @scatterExample(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[AS:[0-9]+]]:2 = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64>
// CHECK:         %[[BS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[RESULT:[0-9]+]] = array.scatter %[[BS]][%[[AS]]#0], %[[AS]]#1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine
// CHECK:           arith.addi
// CHECK:         return %[[RESULT]] : tensor<?xi64>

// CANON-LABEL: func.func @scatterExample(
// CANON-COUNT-2: array.map
// CANON:         array.scatter
