// `array-to-loops` (fourth slice): filter and expand outside clusters, sequentially.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | fuse-opt --verify-diagnostics > /dev/null
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops, one-shot-bufferize{bufferize-function-boundaries}, buffer-deallocation-pipeline, convert-scf-to-cf, expand-strided-metadata, finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts)' | FileCheck %s --check-prefix=LLVM

// LLVM-NOT:     array.
// LLVM-NOT:     scf.
// LLVM-NOT:     memref.
// LLVM-LABEL:   llvm.func @filter2(
// LLVM:         llvm.call @malloc
// LLVM-LABEL:   llvm.func @expand3(
// LLVM:         llvm.call @malloc

// Two vectors filtered together: buffers of the input length, one scf.for carrying the
// count; under scf.if both elements are stored at the count, which is incremented; the
// results are the first `count` elements.
// CHECK-LABEL: func.func @filter2(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xi64>, %[[YS:.*]]: tensor<?xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : i64
// CHECK:         %[[N:.*]] = tensor.dim %[[XS]]
// CHECK:         %[[RX:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK:         %[[RY:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK:         %[[BX:.*]] = bufferization.to_buffer %[[XS]]
// CHECK:         %[[BY:.*]] = bufferization.to_buffer %[[YS]]
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NOT:     scf.parallel
// CHECK:         %[[COUNT:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[C:.*]] = %{{.*}}) -> (index) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[BX]][%[[K]]] : memref<?xi64>
// CHECK-NEXT:      %[[Y:.*]] = memref.load %[[BY]][%[[K]]] : memref<?xf32>
// CHECK-NEXT:      %[[P:.*]] = arith.cmpi sgt, %[[X]], %[[C0]] : i64
// CHECK-NEXT:      %[[NEXT:.*]] = scf.if %[[P]] -> (index) {
// CHECK-NEXT:        memref.store %[[X]], %[[RX]][%[[C]]] : memref<?xi64>
// CHECK-NEXT:        memref.store %[[Y]], %[[RY]][%[[C]]] : memref<?xf32>
// CHECK-NEXT:        %[[C1:.*]] = arith.addi %[[C]], %[[ONE]] : index
// CHECK-NEXT:        scf.yield %[[C1]] : index
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[C]] : index
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[NEXT]] : index
// CHECK:         %[[VX:.*]] = memref.reinterpret_cast %[[RX]] to offset: [0], sizes: [%[[COUNT]]], strides: [1] : memref<?xi64> to memref<?xi64>
// CHECK:         %[[TX:.*]] = bufferization.to_tensor %[[VX]] restrict writable
// CHECK:         %[[VY:.*]] = memref.reinterpret_cast %[[RY]] to offset: [0], sizes: [%[[COUNT]]], strides: [1] : memref<?xf32> to memref<?xf32>
// CHECK:         %[[TY:.*]] = bufferization.to_tensor %[[VY]] restrict writable
// CHECK:         return %[[TX]], %[[TY]]
// CHECK-NOT:     array.
func.func @filter2(%xs: tensor<?xi64>, %ys: tensor<?xf32>) -> (tensor<?xi64>, tensor<?xf32>) {
  %c0 = arith.constant 0 : i64
  %a, %b = array.filter %xs, %ys : tensor<?xi64>, tensor<?xf32> -> tensor<?xi64>, tensor<?xf32> {
  ^bb0(%x: i64, %y: f32):
    %p = arith.cmpi sgt, %x, %c0 : i64
    array.yield %p : i1
  }
  return %a, %b : tensor<?xi64>, tensor<?xf32>
}

// Seed 004's expand: a first scf.for sums the (cloned) count region into the total
// length; the result is allocated with it; a second scf.for carries the running offset
// around an inner scf.for over the segment storing `get` at offset + j.
// CHECK-LABEL: func.func @expand3(
// CHECK-SAME:      %[[XS:.*]]: tensor<4xi64>)
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[B:.*]] = bufferization.to_buffer %[[XS]] read_only : tensor<4xi64> to memref<4xi64>
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         %[[TOTAL:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[C4]] step %{{.*}} iter_args(%[[T:.*]] = %[[Z]]) -> (index) {
// CHECK-NEXT:      memref.load %[[B]][%[[K]]]
// CHECK-NEXT:      %[[L:.*]] = arith.maxsi %[[C3]], %[[Z]] : index
// CHECK-NEXT:      %[[T1:.*]] = arith.addi %[[T]], %[[L]] : index
// CHECK-NEXT:      scf.yield %[[T1]] : index
// CHECK:         %[[R:.*]] = memref.alloc(%[[TOTAL]]) : memref<?xi64>
// CHECK:         scf.for %[[K2:.*]] = %{{.*}} to %[[C4]] step %{{.*}} iter_args(%[[OFF:.*]] = %[[Z]]) -> (index) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[B]][%[[K2]]]
// CHECK-NEXT:      %[[L2:.*]] = arith.maxsi %[[C3]], %[[Z]] : index
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %[[L2]] step %{{.*}} {
// CHECK-NEXT:        %[[JJ:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK-NEXT:        %[[V:.*]] = arith.muli %[[X]], %[[JJ]] : i64
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[OFF]], %[[J]] : index
// CHECK-NEXT:        memref.store %[[V]], %[[R]][%[[AT]]] : memref<?xi64>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[OFF1:.*]] = arith.addi %[[OFF]], %[[L2]] : index
// CHECK-NEXT:      scf.yield %[[OFF1]] : index
// CHECK:         bufferization.to_tensor %[[R]] restrict writable : memref<?xi64> to tensor<?xi64>
// CHECK-NOT:     array.
func.func @expand3(%xs: tensor<4xi64>) -> tensor<?xi64> {
  %c3 = arith.constant 3 : index
  %ys = array.expand %xs : tensor<4xi64> -> tensor<?xi64> count {
  ^bb0(%x: i64):
    array.yield %c3 : index
  } get {
  ^bb0(%x: i64, %j: index):
    %jj = arith.index_cast %j : index to i64
    %y = arith.muli %x, %jj : i64
    array.yield %y : i64
  }
  return %ys : tensor<?xi64>
}

// A data-dependent count region with ops of its own is cloned: it appears in both passes.
// CHECK-LABEL: func.func @expandVar(
// CHECK:         scf.for
// CHECK:           arith.remsi
// CHECK:           arith.index_cast %{{.*}} : i64 to index
// CHECK:           arith.maxsi
// CHECK:         memref.alloc
// CHECK:         scf.for
// CHECK:           arith.remsi
// CHECK:           arith.index_cast %{{.*}} : i64 to index
// CHECK:           arith.maxsi
// CHECK:           scf.for
// CHECK-NOT:     array.
func.func @expandVar(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%a: i64):
    %c3 = arith.constant 3 : i64
    %r = arith.remsi %a, %c3 : i64
    %k = arith.index_cast %r : i64 to index
    array.yield %k : index
  } get {
  ^bb0(%a: i64, %j: index):
    array.yield %a : i64
  }
  return %ys : tensor<?xi64>
}
