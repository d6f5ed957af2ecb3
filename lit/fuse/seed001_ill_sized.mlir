// examples/seed001_ill_sized.mlir (seed 001 §1.3.4, bad1 and bad2): seed 001 rejects both
// programs, because its size inference cannot prove that the two arrays the map zips have
// one size. Here the equality is the map's precondition at run time instead: a located
// warning for each function, the map is not fused with the producers of its inputs, and
// everything else still fuses (bad2's two filters, horizontally).
//
// RUN: fuse-opt %examples/seed001_ill_sized.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' 2>&1 | FileCheck %s

// bad1: map2 of the filtered array and the original array.
// CHECK:       seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}}: warning: size equality not provable: 'array.map' requires its inputs to have the same size, but %flt has a data-dependent size (from 'array.filter' at {{.*}}seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}}) and %xs is a function argument; the equality is checked at run time, and 'array.map' is not fused with the producers of its operands
// CHECK-NEXT:  %ys = array.map %flt, %xs

// bad2: map2 of two different filters of the same array.
// CHECK:       seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}}: warning: size equality not provable: 'array.map' requires its inputs to have the same size, but %flt1 has a data-dependent size (from 'array.filter' at {{.*}}seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}}) and %flt2 has a different data-dependent size (from 'array.filter' at {{.*}}seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}})
// CHECK-NEXT:  %ys = array.map %flt1, %flt2

// CHECK-LABEL: func.func @bad1
// CHECK-NOT:     = array.cluster
// CHECK:         %[[FLT:.*]] = array.filter
// CHECK-NOT:     = array.cluster
// CHECK:         array.map %[[FLT]], %arg0 {array.check_sizes = "{{.*}}run-time size check failed: 'array.map' requires its inputs to have the same size

// CHECK-LABEL: func.func @bad2
// CHECK:         %[[FLTS:.*]]:2 = array.cluster
// CHECK-NEXT:      array.horizontal
// CHECK:         array.map %[[FLTS]]#0, %[[FLTS]]#1 {array.check_sizes =
