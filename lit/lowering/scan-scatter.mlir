// `array-to-loops` (third slice): scan and scatter outside clusters.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | fuse-opt --verify-diagnostics > /dev/null

// Left inclusive scan of a vector: one scf.for carrying the accumulator; combine, then store at k.
// CHECK-LABEL: func.func @scanLI(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xi64>)
// CHECK:         %[[Z:.*]] = arith.constant 0 : i64
// CHECK:         %[[N:.*]] = tensor.dim %[[XS]]
// CHECK:         %[[R:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK:         %[[B:.*]] = bufferization.to_buffer %[[XS]]
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[A:.*]] = %[[Z]]) -> (i64) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[B]][%[[K]]]
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[X]] : i64
// CHECK-NEXT:      memref.store %[[S]], %[[R]][%[[K]]]
// CHECK-NEXT:      scf.yield %[[S]] : i64
// CHECK:         bufferization.to_tensor %[[R]] restrict writable
// CHECK-NOT:     array.
func.func @scanLI(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %z = arith.constant 0 : i64
  %r = array.scan left inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  return %r : tensor<?xi64>
}

// Left exclusive: store the accumulator at k, then combine.
// CHECK-LABEL: func.func @scanLE(
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (i64) {
// CHECK-NEXT:      memref.store %[[A]], %[[R:.*]][%[[K]]]
// CHECK-NEXT:      %[[X:.*]] = memref.load %{{.*}}[%[[K]]]
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[X]] : i64
// CHECK-NEXT:      scf.yield %[[S]] : i64
// CHECK-NOT:     array.
func.func @scanLE(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %z = arith.constant 0 : i64
  %r = array.scan left exclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  return %r : tensor<?xi64>
}

// Right inclusive of a matrix: scf.parallel over the rows around the scf.for; the row
// is visited at n-1-k.
// CHECK-LABEL: func.func @scanRI(
// CHECK:         %[[N:.*]] = tensor.dim
// CHECK:         %[[R:.*]] = memref.alloc(%[[N]]) : memref<3x?xf32>
// CHECK:         %[[B:.*]] = bufferization.to_buffer
// CHECK:         %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[J:.*]] = arith.subi %[[LAST]], %[[K]] : index
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[B]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[A]], %[[X]] : f32
// CHECK-NEXT:        memref.store %[[S]], %[[R]][%[[I]], %[[J]]]
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NOT:     array.
func.func @scanRI(%xs: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %z = arith.constant 0.0 : f32
  %r = array.scan right inclusive %xs init(%z : f32) : tensor<3x?xf32> -> tensor<3x?xf32> {
  ^bb0(%a: f32, %x: f32):
    %s = arith.addf %a, %x : f32
    array.yield %s : f32
  }
  return %r : tensor<3x?xf32>
}

// Right exclusive (static size): store the accumulator at 7-k, then combine.
// CHECK-LABEL: func.func @scanRE(
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[LAST:.*]] = arith.subi %[[C8]], %{{.*}} : index
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (i64) {
// CHECK-NEXT:      %[[J:.*]] = arith.subi %[[LAST]], %[[K]] : index
// CHECK-NEXT:      memref.store %[[A]], %{{.*}}[%[[J]]]
// CHECK-NEXT:      %[[X:.*]] = memref.load %{{.*}}[%[[J]]]
// CHECK-NEXT:      %[[S:.*]] = arith.subi %[[X]], %[[A]] : i64
// CHECK-NEXT:      scf.yield %[[S]] : i64
// CHECK-NOT:     array.
func.func @scanRE(%xs: tensor<8xi64>) -> tensor<8xi64> {
  %z = arith.constant 0 : i64
  %r = array.scan right exclusive %xs init(%z : i64) : tensor<8xi64> -> tensor<8xi64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.subi %x, %a : i64
    array.yield %s : i64
  }
  return %r : tensor<8xi64>
}

// Scatter with integer indices: copy of the destination, then a sequential scf.for
// with a bounds check around load-old / combine / store.
// CHECK-LABEL: func.func @histogram(
// CHECK-SAME:      %[[D:.*]]: tensor<?xi64>, %[[IS:.*]]: tensor<?xi32>, %[[VS:.*]]: tensor<?xi64>)
// CHECK:         %[[N:.*]] = tensor.dim %[[D]]
// CHECK:         %[[M:.*]] = tensor.dim %[[VS]]
// CHECK:         %[[DB:.*]] = bufferization.to_buffer %[[D]]
// CHECK:         %[[R:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK:         memref.copy %[[DB]], %[[R]]
// CHECK:         %[[VB:.*]] = bufferization.to_buffer %[[VS]]
// CHECK:         %[[IB:.*]] = bufferization.to_buffer %[[IS]]
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[M]] step
// CHECK-NEXT:      %[[I32:.*]] = memref.load %[[IB]][%[[K]]] : memref<?xi32>
// CHECK-NEXT:      %[[I:.*]] = arith.index_cast %[[I32]] : i32 to index
// CHECK-NEXT:      %[[OK:.*]] = arith.cmpi ult, %[[I]], %[[N]] : index
// CHECK-NEXT:      scf.if %[[OK]] {
// CHECK-NEXT:        %[[OLD:.*]] = memref.load %[[R]][%[[I]]]
// CHECK-NEXT:        %[[NEW:.*]] = memref.load %[[VB]][%[[K]]]
// CHECK-NEXT:        %[[S:.*]] = arith.addi %[[OLD]], %[[NEW]] : i64
// CHECK-NEXT:        memref.store %[[S]], %[[R]][%[[I]]]
// CHECK:         bufferization.to_tensor %[[R]] restrict writable
// CHECK-NOT:     array.
func.func @histogram(%dest: tensor<?xi64>, %is: tensor<?xi32>, %vs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.scatter %dest[%is], %vs : tensor<?xi64>[tensor<?xi32>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  return %r : tensor<?xi64>
}

// A 2-D scatter: a nest of sequential scf.for loops; both indices bounds-checked.
// CHECK-LABEL: func.func @scatter2d(
// CHECK:         memref.copy
// CHECK:         scf.for %[[K:.*]] =
// CHECK:           scf.for %[[L:.*]] =
// CHECK:             %[[I:.*]] = memref.load %{{.*}}[%[[K]], %[[L]]] : memref<2x3xindex>
// CHECK:             %[[J:.*]] = memref.load %{{.*}}[%[[K]], %[[L]]] : memref<2x3xindex>
// CHECK:             %[[OK1:.*]] = arith.cmpi ult, %[[I]], %{{.*}} : index
// CHECK:             %[[OK2:.*]] = arith.cmpi ult, %[[J]], %{{.*}} : index
// CHECK:             %[[OK:.*]] = arith.andi %[[OK1]], %[[OK2]] : i1
// CHECK:             scf.if %[[OK]] {
// CHECK:               memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<4x5xf32>
// CHECK-NOT:     array.
func.func @scatter2d(%dest: tensor<4x5xf32>, %is: tensor<2x3xindex>, %js: tensor<2x3xindex>, %vs: tensor<2x3xf32>) -> tensor<4x5xf32> {
  %r = array.scatter %dest[%is, %js], %vs : tensor<4x5xf32>[tensor<2x3xindex>, tensor<2x3xindex>], tensor<2x3xf32> combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return %r : tensor<4x5xf32>
}
