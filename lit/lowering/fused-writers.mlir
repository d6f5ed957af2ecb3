// `array-to-loops`: a scatter or permute fused with the producers of its values (seed 000
// Table 1: values and index arrays stream into a scatter, its destination does not). The
// cluster is one loop nest that is sequential in every dimension (row-major source order,
// as the interpreter combines); the destination is copied before it and written under
// scf.if (keep flag and bounds), the producers' elements staying in registers.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops)' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops)' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK --allow-empty
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops)' 2>/dev/null | fuse-opt --verify-diagnostics > /dev/null

// REMARK-NOT:    cluster lowered op by op
// CHECK-LABEL: func.func @mapPermute(
// CHECK-SAME:      %[[XS:[^:]*]]: tensor<?xi64>, %[[D:[^:]*]]: tensor<?xi64>)
// CHECK:         %[[R:.*]] = memref.alloc
// CHECK:         memref.copy %{{.*}}, %[[R]]
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to
// CHECK:           %[[X:.*]] = memref.load %{{.*}}[%[[K]]]
// CHECK:           %[[V:.*]] = arith.muli %[[X]], %{{.*}} : i64
// CHECK:           %[[KEEP:.*]] = arith.cmpi eq
// CHECK:           %[[T:.*]] = arith.divui %[[K]]
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[T]]
// CHECK:           %[[OK:.*]] = arith.andi %[[KEEP]], %[[IN]] : i1
// CHECK:           scf.if %[[OK]] {
// CHECK-NEXT:        %[[OLD:.*]] = memref.load %[[R]][%[[T]]]
// CHECK-NEXT:        %[[S:.*]] = arith.addi %[[OLD]], %[[V]] : i64
// CHECK-NEXT:        memref.store %[[S]], %[[R]][%[[T]]]
// CHECK:         bufferization.to_tensor %[[R]]
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @mapPermute(%xs: tensor<?xi64>, %dest: tensor<?xi64>) -> tensor<?xi64> {
  %vs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %two = arith.constant 2 : i64
    %y = arith.muli %x, %two : i64
    array.yield %y : i64
  }
  %p = array.permute %vs into %dest : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%i: index):
    %two = arith.constant 2 : index
    %r = arith.remui %i, %two : index
    %zero = arith.constant 0 : index
    %even = arith.cmpi eq, %r, %zero : index
    %h = arith.divui %i, %two : index
    array.yield %h, %even : index, i1
  } combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  return %p : tensor<?xi64>
}

// Rank 2: nested scf.for (no scf.parallel over the outer dimension, whose iterations
// could hit one target in either order).
// CHECK-LABEL: func.func @mapScatter2d(
// CHECK:         memref.copy
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to
// CHECK:             memref.load %{{.*}}[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK:             scf.if
// CHECK:               memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<6xf32>
// CHECK:         return
func.func @mapScatter2d(%xs: tensor<3x4xf32>, %is: tensor<3x4xindex>, %dest: tensor<6xf32>) -> tensor<6xf32> {
  %vs = array.map %xs : tensor<3x4xf32> -> tensor<3x4xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    array.yield %y : f32
  }
  %s = array.scatter %dest[%is], %vs : tensor<6xf32>[tensor<3x4xindex>], tensor<3x4xf32> combine {
  ^bb0(%old: f32, %new: f32):
    %t = arith.subf %old, %new : f32
    array.yield %t : f32
  }
  return %s : tensor<6xf32>
}
