// `array-reuse-buffers` (between one-shot-bufferize and the deallocation pipeline in the
// CPU pipelines of fusion_codegen) gives a loop nest's new buffer the memory of a dead
// array of the same shape that the nest reads element by element, and only when every
// load of an element comes before the store to it (passes/src/reuse_buffers.rs).
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-reuse-buffers))' | FileCheck %s
// With `parallel-forms=true` (the OpenMP pipeline) a scan's loop keeps its own buffer, so
// that `array-parallel-forms` can run it in three phases.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-reuse-buffers{parallel-forms=true}))' | FileCheck %s --check-prefix=PARALLEL
//
// The row softmax's second cluster (row sums, then quotients) writes its quotients into
// the buffer of the exponentials it reads: one buffer for the whole function.
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, func.func(array-reuse-buffers))' | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX-LABEL: func.func @rowSoftmax(
// SOFTMAX:         %[[BUF:.*]] = memref.alloc(
// SOFTMAX-NOT:     memref.alloc(
// SOFTMAX:         memref.store %{{.*}}, %[[BUF]][
// SOFTMAX:         memref.load %[[BUF]][
// SOFTMAX:         memref.store %{{.*}}, %[[BUF]][
// SOFTMAX:         return %[[BUF]]
//
// The CPU pipeline runs the pass (there, `array-merge-row-loops` first keeps the row
// softmax's exponentials one row at a time, so it has no dead array left to reuse):
// the attention example's function allocates two buffers where it has three arrays.
// RUN: fuse-opt %examples/seed000_attention.mlir --emit-llvm=%t.ll && FileCheck %s --check-prefix=LLVM < %t.ll
// LLVM-LABEL: define {{.*}} @attention(
// LLVM-COUNT-2: call ptr @_mlir_memref_to_llvm_alloc(
// LLVM-NOT:     call ptr @_mlir_memref_to_llvm_alloc(
// LLVM:       define void @_mlir_ciface_attention(
//
// And every example whose buffers are reused computes what it did: through the
// interpreter, the compiled unfused and the compiled fused programs (sequential and on
// OpenMP threads).
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --run --check | FileCheck %s --check-prefix=RUN-SOFTMAX
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed000_row_softmax.mlir --run --check --openmp 2>/dev/null | FileCheck %s --check-prefix=RUN-SOFTMAX
// RUN-SOFTMAX: @rowSoftmax: match (interpreter, unfused, fused)
// RUN: fuse-opt %examples/seed003_shallow_water.mlir --run --check | FileCheck %s --check-prefix=RUN-WATER
// RUN-WATER: match (interpreter, unfused, fused)
// RUN-WATER-NOT: mismatch

// An element-wise map of a dead array: reused.
// CHECK-LABEL: func.func @map(
// CHECK:         %[[A:.*]] = memref.alloc(
// CHECK-NOT:     memref.alloc(
// CHECK:         memref.load %[[A]][%[[I:.*]]]
// CHECK:         memref.store %{{.*}}, %[[A]][%[[I]]]
// CHECK:         return %[[A]]
func.func @map(%x: memref<?xf64>) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %a = memref.alloc(%n) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = arith.mulf %v, %v : f64
    memref.store %w, %a[%i] : memref<?xf64>
    scf.reduce
  }
  %m = memref.dim %x, %c0 : memref<?xf64>
  %b = memref.alloc(%m) : memref<?xf64>
  scf.for %i = %c0 to %m step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %w = arith.addf %v, %v : f64
    memref.store %w, %b[%i] : memref<?xf64>
  }
  return %b : memref<?xf64>
}

// A shifted read (`b[i] = a[i + 1]`): element i + 1 would be overwritten before it is
// read in the next iteration, so nothing is reused.
// CHECK-LABEL: func.func @shifted(
// CHECK:         memref.alloc(
// CHECK:         memref.alloc(
// CHECK:         return
func.func @shifted(%n: index) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %a = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %a[%i] : memref<?xf64>
  }
  %b = memref.alloc(%n) : memref<?xf64>
  %last = arith.subi %n, %c1 : index
  scf.for %i = %c0 to %last step %c1 {
    %j = arith.addi %i, %c1 : index
    %v = memref.load %a[%j] : memref<?xf64>
    memref.store %v, %b[%i] : memref<?xf64>
  }
  return %b : memref<?xf64>
}

// A load of the row after the store in the same row iteration: kept.
// CHECK-LABEL: func.func @loadAfterStore(
// CHECK:         memref.alloc(
// CHECK:         memref.alloc(
// CHECK:         return
func.func @loadAfterStore(%a: memref<?x?xf64>, %n: index, %m: index) -> memref<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %x = memref.alloc(%n, %m) : memref<?x?xf64>
  %y = memref.alloc(%n, %m) : memref<?x?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf64>
      memref.store %v, %y[%i, %j] : memref<?x?xf64>
    }
    %s = scf.for %j = %c0 to %m step %c1 iter_args(%acc = %zero) -> (f64) {
      %v = memref.load %x[%i, %j] : memref<?x?xf64>
      %t = arith.addf %acc, %v : f64
      scf.yield %t : f64
    }
    memref.store %s, %a[%i, %c0] : memref<?x?xf64>
    scf.reduce
  }
  return %y : memref<?x?xf64>
}

// The input array is read again after the nest, or escapes (returned): kept.
// CHECK-LABEL: func.func @readAfter(
// CHECK:         memref.alloc(
// CHECK:         memref.alloc(
// CHECK:         return
func.func @readAfter(%n: index) -> (memref<?xf64>, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xf64>
  %b = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    memref.store %v, %b[%i] : memref<?xf64>
  }
  %first = memref.load %a[%c0] : memref<?xf64>
  return %b, %first : memref<?xf64>, f64
}

// CHECK-LABEL: func.func @escapes(
// CHECK:         memref.alloc(
// CHECK:         memref.alloc(
// CHECK:         return
func.func @escapes(%n: index) -> (memref<?xf64>, memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xf64>
  %b = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    memref.store %v, %b[%i] : memref<?xf64>
  }
  return %a, %b : memref<?xf64>, memref<?xf64>
}

// Sizes that may differ (two unrelated index arguments): kept.
// CHECK-LABEL: func.func @otherSize(
// CHECK:         memref.alloc(
// CHECK:         memref.alloc(
// CHECK:         return
func.func @otherSize(%n: index, %k: index) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xf64>
  %b = memref.alloc(%k) : memref<?xf64>
  scf.for %i = %c0 to %k step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    memref.store %v, %b[%i] : memref<?xf64>
  }
  return %b : memref<?xf64>
}

// A transposed read (`b[i, j] = a[j, i]`): kept.
// CHECK-LABEL: func.func @transposed(
// CHECK:         memref.alloc(
// CHECK:         memref.alloc(
// CHECK:         return
func.func @transposed(%n: index) -> memref<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n, %n) : memref<?x?xf64>
  %b = memref.alloc(%n, %n) : memref<?x?xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %v = memref.load %a[%j, %i] : memref<?x?xf64>
    memref.store %v, %b[%i, %j] : memref<?x?xf64>
    scf.reduce
  }
  return %b : memref<?x?xf64>
}

// A running sum (a scan's loop, carrying its accumulator): reused, except for
// array-parallel-forms.
// CHECK-LABEL: func.func @scan(
// CHECK:         %[[A:.*]] = memref.alloc(
// CHECK-NOT:     memref.alloc(
// CHECK:         return %[[A]]
// PARALLEL-LABEL: func.func @scan(
// PARALLEL:         memref.alloc(
// PARALLEL:         memref.alloc(
// PARALLEL:         return
func.func @scan(%x: memref<?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  %a = memref.alloc(%n) : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xi64>
    memref.store %v, %a[%i] : memref<?xi64>
  }
  %b = memref.alloc(%n) : memref<?xi64>
  %total = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = memref.load %a[%i] : memref<?xi64>
    %s = arith.addi %acc, %v : i64
    memref.store %s, %b[%i] : memref<?xi64>
    scf.yield %s : i64
  }
  return %b : memref<?xi64>
}

// The option takes true or false.
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(array-reuse-buffers{parallel-forms=maybe}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: array-reuse-buffers: option 'parallel-forms' must be true or false, got 'maybe'
