// `array-to-loops`: `array.permute` with a keep flag (seed 004 §1.1, the `Maybe` target of
// `permute'`), as `array-to-loops` lowers it when `array-desugar` has not run. It
// becomes a copy of the destination, then a sequential scf.for nest over the source in
// row-major order (the interpreter's order: of two kept elements with one target the later
// one is combined last) with the index region inlined at the source index, and the combine
// under one scf.if on (keep flag and every target index in range).
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | fuse-opt --verify-diagnostics > /dev/null

// The bfs/sieve shape: the target is read from another array (`array.index`, lowered to
// tensor.extract), -1 meaning Nothing.
// CHECK-LABEL: func.func @permuteKeep(
// CHECK-SAME:      %[[VS:[^:]*]]: tensor<?xi64>, %[[TS:[^:]*]]: tensor<?xi64>, %[[D:[^:]*]]: tensor<?xi64>)
// CHECK:         %[[M:.*]] = tensor.dim %[[D]]
// CHECK:         %[[N:.*]] = tensor.dim %[[VS]]
// CHECK:         %[[DB:.*]] = bufferization.to_buffer %[[D]]
// CHECK:         %[[R:.*]] = memref.alloc(%[[M]]) : memref<?xi64>
// CHECK:         memref.copy %[[DB]], %[[R]]
// CHECK:         %[[VB:.*]] = bufferization.to_buffer %[[VS]]
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[N]] step
// CHECK:           %[[T:.*]] = tensor.extract %[[TS]][%[[K]]]
// CHECK:           %[[KEEP:.*]] = arith.cmpi ne, %[[T]], %{{.*}} : i64
// CHECK:           %[[TI:.*]] = arith.index_cast %[[T]] : i64 to index
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[TI]], %[[M]] : index
// CHECK:           %[[OK:.*]] = arith.andi %[[KEEP]], %[[IN]] : i1
// CHECK:           scf.if %[[OK]] {
// CHECK-NEXT:        %[[OLD:.*]] = memref.load %[[R]][%[[TI]]]
// CHECK-NEXT:        %[[NEW:.*]] = memref.load %[[VB]][%[[K]]]
// CHECK:             %[[C:.*]] = arith.addi %{{.*}}, %[[NEW]] : i64
// CHECK-NEXT:        memref.store %[[C]], %[[R]][%[[TI]]]
// CHECK:         bufferization.to_tensor %[[R]] restrict writable
// CHECK-NOT:     array.
func.func @permuteKeep(%vs: tensor<?xi64>, %ts: tensor<?xi64>, %dest: tensor<?xi64>) -> tensor<?xi64> {
  %p = array.permute %vs into %dest : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%i: index):
    %nothing = arith.constant -1 : i64
    %t = array.index %ts[%i] : tensor<?xi64>
    %keep = arith.cmpi ne, %t, %nothing : i64
    %ti = arith.index_cast %t : i64 to index
    array.yield %ti, %keep : index, i1
  } combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %m = arith.muli %old, %ten : i64
    %s = arith.addi %m, %new : i64
    array.yield %s : i64
  }
  return %p : tensor<?xi64>
}

// Rank 2, static shapes: a transpose that drops the diagonal; one scf.for per source
// dimension, one bounds check per target dimension.
// CHECK-LABEL: func.func @transposeOffDiagonal(
// CHECK:         memref.alloc() : memref<4x3xf32>
// CHECK:         memref.copy
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[KEEP:.*]] = arith.cmpi ne, %[[I]], %[[J]] : index
// CHECK:             %[[IN0:.*]] = arith.cmpi ult, %[[J]], %{{.*}} : index
// CHECK:             %[[OK0:.*]] = arith.andi %[[KEEP]], %[[IN0]] : i1
// CHECK:             %[[IN1:.*]] = arith.cmpi ult, %[[I]], %{{.*}} : index
// CHECK:             %[[OK:.*]] = arith.andi %[[OK0]], %[[IN1]] : i1
// CHECK:             scf.if %[[OK]] {
// CHECK:               %[[X:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:          memref.store %[[X]], %{{.*}}[%[[J]], %[[I]]] : memref<4x3xf32>
// CHECK-NOT:     array.
func.func @transposeOffDiagonal(%xs: tensor<3x4xf32>, %dest: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %p = array.permute %xs into %dest : tensor<3x4xf32> into tensor<4x3xf32> index {
  ^bb0(%i: index, %j: index):
    %d = arith.cmpi ne, %i, %j : index
    array.yield %j, %i, %d : index, index, i1
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return %p : tensor<4x3xf32>
}

// Without a keep flag (array-desugar normally turns it into generate + scatter): the
// bounds check alone.
// CHECK-LABEL: func.func @permuteNoFlag(
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK-NOT:     array.
func.func @permuteNoFlag(%vs: tensor<?xf64>, %dest: tensor<?xf64>) -> tensor<?xf64> {
  %p = array.permute %vs into %dest : tensor<?xf64> into tensor<?xf64> index {
  ^bb0(%i: index):
    %two = arith.constant 2 : index
    %t = arith.muli %i, %two : index
    array.yield %t : index
  } combine {
  ^bb0(%old: f64, %new: f64):
    %s = arith.addf %old, %new : f64
    array.yield %s : f64
  }
  return %p : tensor<?xf64>
}

// The same drop as a scatter's `keep` array (what `array-desugar` makes of a keep-flag
// permute): the flag is loaded at the source position and anded with the bounds check.
// CHECK-LABEL: func.func @scatterKeep(
// CHECK-SAME:      %[[D:[^:]*]]: tensor<?xi64>, %[[TS:[^:]*]]: tensor<?xi64>, %[[KS:[^:]*]]: tensor<?xi1>, %[[VS:[^:]*]]: tensor<?xi64>)
// CHECK:         %[[M:.*]] = tensor.dim %[[D]]
// CHECK:         %[[R:.*]] = memref.alloc(%[[M]]) : memref<?xi64>
// CHECK:         %[[KB:.*]] = bufferization.to_buffer %[[KS]] read_only : tensor<?xi1> to memref<?xi1>
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[TI:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:           %[[KEEP:.*]] = memref.load %[[KB]][%[[K]]] : memref<?xi1>
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[TI]], %[[M]] : index
// CHECK:           %[[OK:.*]] = arith.andi %[[KEEP]], %[[IN]] : i1
// CHECK:           scf.if %[[OK]] {
// CHECK-NEXT:        %[[OLD:.*]] = memref.load %[[R]][%[[TI]]]
// CHECK:             memref.store %{{.*}}, %[[R]][%[[TI]]]
// CHECK-NOT:     array.
func.func @scatterKeep(%dest: tensor<?xi64>, %ts: tensor<?xi64>, %ks: tensor<?xi1>, %vs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.scatter %dest[%ts] keep(%ks : tensor<?xi1>), %vs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  return %r : tensor<?xi64>
}
