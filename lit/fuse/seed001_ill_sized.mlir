// examples/seed001_ill_sized.mlir (seed 001 §1.3.4, bad1 and bad2) is rejected by
// size inference inside array-fusion-analysis, so the fuse pipeline fails with a
// located "ill-sized program" error for each function, and array-fuse never
// builds a tree (no module is printed).
//
// RUN: not fuse-opt %examples/seed001_ill_sized.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' 2>&1 | FileCheck %s

// bad1: map2 of the filtered array and the original array.
// CHECK:       seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}}: error: ill-sized program: 'array.map' requires its inputs to have the same size, but %flt has a data-dependent size (from 'array.filter' at {{.*}}seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}}) and %xs is a function argument
// CHECK-NEXT:  %ys = array.map %flt, %xs

// bad2: map2 of two different filters of the same array.
// CHECK:       seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}}: error: ill-sized program: 'array.map' requires its inputs to have the same size, but %flt1 has a data-dependent size (from 'array.filter' at {{.*}}seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}}) and %flt2 has a different data-dependent size (from 'array.filter' at {{.*}}seed001_ill_sized.mlir:{{[0-9]+}}:{{[0-9]+}})
// CHECK-NEXT:  %ys = array.map %flt1, %flt2

// Nothing is printed after the errors: no module, no fusion node.
// CHECK-NOT:   module
// CHECK-NOT:   array.{{(cluster|vertical|horizontal|diagonal)}}
