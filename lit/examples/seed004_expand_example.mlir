// Parses, verifies and pins examples/seed004_expand_example.mlir
// (seed 004 §1.3, expand (\a -> 3) (\a i -> a * i) [1, 2, 3, 4]).
// RUN: fuse-opt %examples/seed004_expand_example.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed004_expand_example.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed004_expand_example.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @expandExample() -> tensor<?xi64>
// CHECK:         %[[ARR:.+]] = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
// CHECK:         %[[E:[0-9]+]] = array.expand %[[ARR]] : tensor<4xi64> -> tensor<?xi64> count {
// CHECK-NEXT:    ^bb0(%{{.+}}: i64):
// CHECK-NEXT:      %[[C3:.+]] = arith.constant 3 : index
// CHECK-NEXT:      array.yield %[[C3]] : index
// CHECK-NEXT:    } get {
// CHECK-NEXT:    ^bb0(%[[A:arg[0-9]+]]: i64, %[[I:arg[0-9]+]]: index):
// CHECK-NEXT:      %[[II:[0-9]+]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:      %[[Y:[0-9]+]] = arith.muli %[[A]], %[[II]] : i64
// CHECK-NEXT:      array.yield %[[Y]] : i64
// CHECK:         return %[[E]] : tensor<?xi64>

// CANON-LABEL: func.func @expandExample()
// CANON:         arith.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
// CANON:         array.expand
// CANON:         } get {
// CANON:           arith.muli
