// Pins the fusion trees that array-fuse builds for examples/seed004_expand_example.mlir:
// seed 004 §2 expand example: a single combinator, no array.cluster.
//
// Expected trees (leaves named after the source):
//   @expandExample: no array.cluster
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (1 expand).

// RUN: fuse-opt %examples/seed004_expand_example.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed004_expand_example.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.expand'

// CHECK-LABEL: func.func @expandExample(
// CHECK-SAME:    ) -> tensor<?xi64>
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:       %[[EXPANDED:[0-9]+]] = array.expand %cst {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<4xi64> -> tensor<?xi64> count {
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:         array.yield {{.*}} : index
// CHECK-NEXT:  } get {
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[EXPANDED]] : tensor<?xi64>

// UNFUSED-LABEL: func.func @expandExample(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.expand
// UNFUSED:         return
