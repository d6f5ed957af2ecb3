// `array-merge-row-loops` (passes/src/merge_row_loops.rs): two scf.parallel loops over
// the same rows, the first storing an array row by row that only the second loads at
// the same row, run as one loop with a row buffer per iteration.
//
// The row softmax example through the CPU pipeline's passes up to the merge: its two
// clusters (row maxima and shifted exponentials; row sums and quotients) are one row
// loop, and the exponentials live in a row buffer, where a row holds 4096 bytes or more
// (its rows have a dynamic size: tested at run time, the two loops kept for short rows).
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, func.func(array-merge-row-loops))' 2>&1 | FileCheck %s --check-prefix=SOFTMAX
// The deallocation pipeline, which runs next, frees each row buffer in its iteration.
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, func.func(array-merge-row-loops), buffer-deallocation-pipeline)' 2>/dev/null | FileCheck %s --check-prefix=FREED
// FREED:      scf.if
// FREED-NEXT:   scf.parallel
// FREED-NEXT:     %[[ROW:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// FREED:        memref.dealloc %[[ROW]] : memref<?xf64>
// FREED-NEXT:   scf.reduce
// The whole compiled program, sequential and on OpenMP threads, against the interpreter.
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --run --check | FileCheck %s --check-prefix=EXEC
// RUN: env OMP_NUM_THREADS=3 fuse-opt %examples/seed000_row_softmax.mlir --run --check --openmp | FileCheck %s --check-prefix=EXEC
// Rows of 520 f64, 4160 bytes (--size: every dynamic dimension 520): the merged loop runs.
// RUN: fuse-opt %examples/seed000_row_softmax.mlir --run --check --size=520 | FileCheck %s --check-prefix=EXEC
// RUN: env OMP_NUM_THREADS=3 fuse-opt %examples/seed000_row_softmax.mlir --run --check --openmp --size=520 | FileCheck %s --check-prefix=EXEC
// Hand-written loops on buffers: what merges and what does not.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-merge-row-loops))' 2>&1 | FileCheck %s

// SOFTMAX: remark: array-merge-row-loops: two loop nests over the same rows run as one where a row holds 4096 bytes or more; an array of memref<?x?xf64> between them is kept one row (memref<?xf64>) at a time; the two loops run as they were where rows are shorter (tested at run time)
// SOFTMAX-LABEL: func.func @rowSoftmax(
// SOFTMAX:         %[[OUT:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf64>
// SOFTMAX:         %[[BYTES:.*]] = arith.muli %c8, %{{.*}} : index
// SOFTMAX:         %[[LONG:.*]] = arith.cmpi uge, %[[BYTES]], %c4096 : index
// SOFTMAX-NEXT:    scf.if %[[LONG]] {
// SOFTMAX:           scf.parallel (%[[R:.*]]) =
// SOFTMAX-NEXT:      %[[ROW:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// SOFTMAX:             math.exp
// SOFTMAX-NEXT:        memref.store %{{.*}}, %[[ROW]][%{{.*}}] : memref<?xf64>
// SOFTMAX:             memref.load %[[ROW]][%{{.*}}] : memref<?xf64>
// SOFTMAX-NEXT:        arith.addf
// SOFTMAX:             memref.load %[[ROW]][%{{.*}}] : memref<?xf64>
// SOFTMAX-NEXT:        arith.divf
// SOFTMAX-NEXT:        memref.store %{{.*}}, %[[OUT]][%[[R]], %{{.*}}] : memref<?x?xf64>
// SOFTMAX:             scf.reduce
// SOFTMAX-NEXT:      }
// SOFTMAX-NEXT:    } else {
// SOFTMAX-NEXT:      %[[WHOLE:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf64>
// SOFTMAX-NEXT:      scf.parallel
// SOFTMAX:               memref.store %{{.*}}, %[[WHOLE]][
// SOFTMAX:           scf.parallel
// SOFTMAX:               memref.load %[[WHOLE]][
// SOFTMAX:         return %[[OUT]]

// EXEC: @rowSoftmax: match (interpreter, unfused, fused)

// A row of the array per iteration (its static extent kept).
// CHECK-LABEL: func.func @merged(
// CHECK-SAME:    %[[X:.*]]: memref<?x512xf64>
// CHECK:         %[[OUT:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-NEXT:    scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT:      %[[ROW:.*]] = memref.alloc() : memref<512xf64>
// CHECK:             memref.store %{{.*}}, %[[ROW]][%{{.*}}] : memref<512xf64>
// CHECK:           %[[T:.*]] = memref.load %[[ROW]][%{{.*}}] : memref<512xf64>
// CHECK:           memref.store %[[T]], %[[OUT]][%[[I]]] : memref<?xf64>
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NOT:     scf.parallel
// CHECK:         return %[[OUT]]
func.func @merged(%x: memref<?x512xf64>) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %n = memref.dim %x, %c0 : memref<?x512xf64>
  %m = memref.alloc(%n) : memref<?x512xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %c512 step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x512xf64>
      %w = arith.mulf %v, %v : f64
      memref.store %w, %m[%i, %j] : memref<?x512xf64>
    }
    scf.reduce
  }
  %n2 = memref.dim %m, %c0 : memref<?x512xf64>
  %out = memref.alloc(%n2) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %c3 = arith.constant 3 : index
    %t = memref.load %m[%i, %c3] : memref<?x512xf64>
    memref.store %t, %out[%i] : memref<?xf64>
    scf.reduce
  }
  return %out : memref<?xf64>
}

// The second loop reads another row than its own: not merged.
// CHECK-LABEL: func.func @other_row(
// CHECK-COUNT-2: scf.parallel
func.func @other_row(%x: memref<?xf64>) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %m = memref.alloc(%n) : memref<?x512xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %m[%i, %c0] : memref<?x512xf64>
    scf.reduce
  }
  %out = memref.alloc(%n) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %last = arith.subi %n, %c1 : index
    %k = arith.subi %last, %i : index
    %t = memref.load %m[%k, %c0] : memref<?x512xf64>
    memref.store %t, %out[%i] : memref<?xf64>
    scf.reduce
  }
  return %out : memref<?xf64>
}

// The array is returned too: not merged.
// CHECK-LABEL: func.func @escapes(
// CHECK-COUNT-2: scf.parallel
func.func @escapes(%x: memref<?xf64>) -> (memref<?x512xf64>, memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %m = memref.alloc(%n) : memref<?x512xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %m[%i, %c0] : memref<?x512xf64>
    scf.reduce
  }
  %out = memref.alloc(%n) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.load %m[%i, %c0] : memref<?x512xf64>
    memref.store %t, %out[%i] : memref<?xf64>
    scf.reduce
  }
  return %m, %out : memref<?x512xf64>, memref<?xf64>
}

// The second loop stores into a buffer the first one reads (at any index): not merged.
// CHECK-LABEL: func.func @second_writes_what_first_reads(
// CHECK-COUNT-2: scf.parallel
func.func @second_writes_what_first_reads(%x: memref<?xf64>) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %shared = memref.alloc(%n) : memref<?xf64>
  %m = memref.alloc(%n) : memref<?x512xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %shared[%c0] : memref<?xf64>
    memref.store %v, %m[%i, %c0] : memref<?x512xf64>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.load %m[%i, %c0] : memref<?x512xf64>
    memref.store %t, %shared[%i] : memref<?xf64>
    scf.reduce
  }
  return %shared : memref<?xf64>
}

// Different iteration spaces: not merged.
// CHECK-LABEL: func.func @other_bounds(
// CHECK-COUNT-2: scf.parallel
func.func @other_bounds(%x: memref<?xf64>, %k: index) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %m = memref.alloc(%n) : memref<?x512xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %m[%i, %c0] : memref<?x512xf64>
    scf.reduce
  }
  %out = memref.alloc(%n) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%k) step (%c1) {
    %t = memref.load %m[%i, %c0] : memref<?x512xf64>
    memref.store %t, %out[%i] : memref<?xf64>
    scf.reduce
  }
  return %out : memref<?xf64>
}

// One element per iteration, no row: loops over the elements themselves are the
// clustering's to fuse, not this pass's.
// CHECK-LABEL: func.func @elementwise(
// CHECK-COUNT-2: scf.parallel
func.func @elementwise(%x: memref<?xf64>) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %m = memref.alloc(%n) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %m[%i] : memref<?xf64>
    scf.reduce
  }
  %out = memref.alloc(%n) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.load %m[%i] : memref<?xf64>
    memref.store %t, %out[%i] : memref<?xf64>
    scf.reduce
  }
  return %out : memref<?xf64>
}

// Rows of 4 f64 (32 bytes): allocating a row buffer per row would cost more than the
// row's write and read save, so the loops stay (`MIN_ROW_BYTES`).
// CHECK-LABEL: func.func @short_rows(
// CHECK-COUNT-2: scf.parallel
func.func @short_rows(%x: memref<?xf64>) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %m = memref.alloc(%n) : memref<?x4xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %m[%i, %c0] : memref<?x4xf64>
    scf.reduce
  }
  %out = memref.alloc(%n) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.load %m[%i, %c0] : memref<?x4xf64>
    memref.store %t, %out[%i] : memref<?xf64>
    scf.reduce
  }
  return %out : memref<?xf64>
}
