// `array-elide-loop-copies` (between one-shot-bufferize and the deallocation pipeline in
// every fusion_codegen pipeline) removes the whole-array copies one-shot bufferization
// puts before an `scf.condition` when no buffer the loop carries is written once it is
// carried: inside the loop (callees included), after it, or through an init the function
// did not allocate. Each loop whose copies stay gets a remark naming the condition it
// breaks (passes/src/loop_copies.rs).
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-elide-loop-copies)' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-elide-loop-copies)' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
//
// Seed 004's BFS keeps its previous iterate, `(x, old) → (step(x), x)`; through the whole
// pipeline (where `array-rotate-while` makes it carry `x` and the test's outcome) its loop
// copies nothing (the copy inside @bfsStep, of the permute's
// destination, is value semantics and stays).
// RUN: fuse-opt %examples/seed004_bfs.mlir --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, array-elide-loop-copies)' 2>&1 | FileCheck %s --check-prefix=BFS
// BFS-NOT:     remark: array-elide-loop-copies
// BFS-LABEL: func.func @bfs(
// BFS-NOT:     memref.copy
// BFS:         scf.condition(%arg{{[0-9]+}}) %arg{{[0-9]+}} :
// BFS-NOT:     memref.copy
// BFS:         return
//
// And it computes what it did with the copies: the bundled inputs (a graph the search
// crosses in several iterations) through the interpreter, the compiled unfused and the
// compiled fused programs (sequential, on OpenMP threads, and as GPU kernels emulated on
// the CPU); likewise the sieve, whose loop keeps its previous primes.
// RUN: fuse-opt %examples/seed004_bfs.mlir --run --check --function=bfs | FileCheck %s --check-prefix=RUN-BFS
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed004_bfs.mlir --run --check --openmp --function=bfs 2>/dev/null | FileCheck %s --check-prefix=RUN-BFS
// RUN: fuse-opt %examples/seed004_bfs.mlir --run --check --gpu-sim --function=bfs 2>/dev/null | FileCheck %s --check-prefix=RUN-BFS
// RUN-BFS: @bfs: match (interpreter, unfused, fused)
// RUN: fuse-opt %examples/seed004_sieve.mlir --run --check --function=primes | FileCheck %s --check-prefix=RUN-SIEVE
// RUN-SIEVE: @primes: match (interpreter, unfused, fused)

// A step that writes only a buffer it allocates.
func.func private @step(%x: memref<?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xi64>
  %y = memref.alloc(%n) : memref<?xi64>
  memref.copy %x, %y : memref<?xi64> to memref<?xi64>
  %one = arith.constant 1 : i64
  memref.store %one, %y[%c0] : memref<?xi64>
  return %y : memref<?xi64>
}

// A step that writes its argument in place.
func.func private @stepInPlace(%x: memref<?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  memref.store %one, %x[%c0] : memref<?xi64>
  return %x : memref<?xi64>
}

// CHECK-LABEL: func.func @keepsPrevious(
// CHECK-NOT:     memref.copy
// CHECK:         scf.condition(%{{[0-9]+}}) %arg1, %arg2 :
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @keepsPrevious(%n: index) -> memref<?xi64> {
  %a = memref.alloc(%n) : memref<?xi64>
  %b = memref.alloc(%n) : memref<?xi64>
  %r:2 = scf.while (%x = %a, %old = %b) : (memref<?xi64>, memref<?xi64>) -> (memref<?xi64>, memref<?xi64>) {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xi64>
    %w = memref.load %old[%c0] : memref<?xi64>
    %go = arith.cmpi ne, %v, %w : i64
    %m = memref.dim %x, %c0 : memref<?xi64>
    %cx = memref.alloc(%m) : memref<?xi64>
    memref.copy %x, %cx : memref<?xi64> to memref<?xi64>
    %k = memref.dim %old, %c0 : memref<?xi64>
    %cold = memref.alloc(%k) : memref<?xi64>
    memref.copy %old, %cold : memref<?xi64> to memref<?xi64>
    scf.condition(%go) %cx, %cold : memref<?xi64>, memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>, %old: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    scf.yield %next, %x : memref<?xi64>, memref<?xi64>
  }
  return %r#0 : memref<?xi64>
}

// REMARK: remark: array-elide-loop-copies: 2 copies of carried arrays before 'scf.condition' stay: 'memref.store' inside the loop may write a buffer allocated outside it
// CHECK-LABEL: func.func @writesCarried(
// CHECK-COUNT-2: memref.copy
// CHECK:         scf.condition
func.func @writesCarried(%n: index) -> memref<?xi64> {
  %a = memref.alloc(%n) : memref<?xi64>
  %b = memref.alloc(%n) : memref<?xi64>
  %r:2 = scf.while (%x = %a, %old = %b) : (memref<?xi64>, memref<?xi64>) -> (memref<?xi64>, memref<?xi64>) {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xi64>
    %w = memref.load %old[%c0] : memref<?xi64>
    %go = arith.cmpi ne, %v, %w : i64
    %m = memref.dim %x, %c0 : memref<?xi64>
    %cx = memref.alloc(%m) : memref<?xi64>
    memref.copy %x, %cx : memref<?xi64> to memref<?xi64>
    %k = memref.dim %old, %c0 : memref<?xi64>
    %cold = memref.alloc(%k) : memref<?xi64>
    memref.copy %old, %cold : memref<?xi64> to memref<?xi64>
    scf.condition(%go) %cx, %cold : memref<?xi64>, memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>, %old: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    // The previous iterate is overwritten: with the copies gone, the loop's first
    // result (this buffer, in the next test of the condition) would change too.
    %c0 = arith.constant 0 : index
    %seven = arith.constant 7 : i64
    memref.store %seven, %old[%c0] : memref<?xi64>
    scf.yield %next, %x : memref<?xi64>, memref<?xi64>
  }
  return %r#0 : memref<?xi64>
}

// REMARK: remark: array-elide-loop-copies: 1 copy of carried arrays before 'scf.condition' stay: 'func.call' inside the loop may write a buffer allocated outside it
// CHECK-LABEL: func.func @calleeWritesCarried(
// CHECK:         memref.copy
// CHECK:         scf.condition
func.func @calleeWritesCarried(%n: index) -> memref<?xi64> {
  %a = memref.alloc(%n) : memref<?xi64>
  %r = scf.while (%x = %a) : (memref<?xi64>) -> memref<?xi64> {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xi64>
    %zero = arith.constant 0 : i64
    %go = arith.cmpi eq, %v, %zero : i64
    %m = memref.dim %x, %c0 : memref<?xi64>
    %cx = memref.alloc(%m) : memref<?xi64>
    memref.copy %x, %cx : memref<?xi64> to memref<?xi64>
    scf.condition(%go) %cx : memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>):
    %next = func.call @stepInPlace(%x) : (memref<?xi64>) -> memref<?xi64>
    scf.yield %next : memref<?xi64>
  }
  return %r : memref<?xi64>
}

// REMARK: remark: array-elide-loop-copies: 1 copy of carried arrays before 'scf.condition' stay: an init of the loop is not a buffer the function allocates
// CHECK-LABEL: func.func @argumentInit(
// CHECK:         memref.copy
// CHECK:         scf.condition
func.func @argumentInit(%a: memref<?xi64>) -> memref<?xi64> {
  %r = scf.while (%x = %a) : (memref<?xi64>) -> memref<?xi64> {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xi64>
    %zero = arith.constant 0 : i64
    %go = arith.cmpi eq, %v, %zero : i64
    %m = memref.dim %x, %c0 : memref<?xi64>
    %cx = memref.alloc(%m) : memref<?xi64>
    memref.copy %x, %cx : memref<?xi64> to memref<?xi64>
    scf.condition(%go) %cx : memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    scf.yield %next : memref<?xi64>
  }
  return %r : memref<?xi64>
}

// REMARK: remark: array-elide-loop-copies: 1 copy of carried arrays before 'scf.condition' stay: 'memref.store' after the loop may write an array the loop carried
// CHECK-LABEL: func.func @writesResult(
// CHECK:         memref.copy
// CHECK:         scf.condition
func.func @writesResult(%n: index) -> i64 {
  %a = memref.alloc(%n) : memref<?xi64>
  %r = scf.while (%x = %a) : (memref<?xi64>) -> memref<?xi64> {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xi64>
    %zero = arith.constant 0 : i64
    %go = arith.cmpi eq, %v, %zero : i64
    %m = memref.dim %x, %c0 : memref<?xi64>
    %cx = memref.alloc(%m) : memref<?xi64>
    memref.copy %x, %cx : memref<?xi64> to memref<?xi64>
    scf.condition(%go) %cx : memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    scf.yield %next : memref<?xi64>
  }
  // Without the copy, %r may be %a itself: this store would change %a.
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7 : i64
  memref.store %seven, %r[%c0] : memref<?xi64>
  %first = memref.load %a[%c0] : memref<?xi64>
  return %first : i64
}

// REMARK: remark: array-elide-loop-copies: 2 copies of carried arrays before 'scf.condition' stay: 2 results of the loop are used by more than reads
// CHECK-LABEL: func.func @returnsBoth(
// CHECK-COUNT-2: memref.copy
// CHECK:         scf.condition
func.func @returnsBoth(%n: index) -> (memref<?xi64>, memref<?xi64>) {
  %a = memref.alloc(%n) : memref<?xi64>
  %b = memref.alloc(%n) : memref<?xi64>
  %r:2 = scf.while (%x = %a, %old = %b) : (memref<?xi64>, memref<?xi64>) -> (memref<?xi64>, memref<?xi64>) {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xi64>
    %w = memref.load %old[%c0] : memref<?xi64>
    %go = arith.cmpi ne, %v, %w : i64
    %m = memref.dim %x, %c0 : memref<?xi64>
    %cx = memref.alloc(%m) : memref<?xi64>
    memref.copy %x, %cx : memref<?xi64> to memref<?xi64>
    %k = memref.dim %old, %c0 : memref<?xi64>
    %cold = memref.alloc(%k) : memref<?xi64>
    memref.copy %old, %cold : memref<?xi64> to memref<?xi64>
    scf.condition(%go) %cx, %cold : memref<?xi64>, memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>, %old: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    scf.yield %next, %x : memref<?xi64>, memref<?xi64>
  }
  return %r#0, %r#1 : memref<?xi64>, memref<?xi64>
}

// REMARK: remark: array-elide-loop-copies: 1 copy of carried arrays before 'scf.condition' stay: 'scf.yield' passes on a buffer that may come from outside the loop
// CHECK-LABEL: func.func @carriesOuterBuffer(
// CHECK:         memref.copy
// CHECK:         scf.condition
func.func @carriesOuterBuffer(%n: index) -> i64 {
  %a = memref.alloc(%n) : memref<?xi64>
  %outer = memref.alloc(%n) : memref<?xi64>
  %r = scf.while (%x = %a) : (memref<?xi64>) -> memref<?xi64> {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xi64>
    %zero = arith.constant 0 : i64
    %go = arith.cmpi eq, %v, %zero : i64
    %m = memref.dim %x, %c0 : memref<?xi64>
    %cx = memref.alloc(%m) : memref<?xi64>
    memref.copy %x, %cx : memref<?xi64> to memref<?xi64>
    scf.condition(%go) %cx : memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>):
    scf.yield %outer : memref<?xi64>
  }
  // Without the copy, %r may be %outer itself: this store would change the result.
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7 : i64
  memref.store %seven, %outer[%c0] : memref<?xi64>
  %first = memref.load %r[%c0] : memref<?xi64>
  return %first : i64
}

// REMARK: remark: array-elide-loop-copies: 1 copy of carried arrays before 'scf.condition' stay: an init of the loop is used after it by more than reads
// CHECK-LABEL: func.func @returnsInitToo(
// CHECK:         memref.copy
// CHECK:         scf.condition
func.func @returnsInitToo(%n: index) -> (memref<?xi64>, memref<?xi64>) {
  %a = memref.alloc(%n) : memref<?xi64>
  %r = scf.while (%x = %a) : (memref<?xi64>) -> memref<?xi64> {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xi64>
    %zero = arith.constant 0 : i64
    %go = arith.cmpi eq, %v, %zero : i64
    %m = memref.dim %x, %c0 : memref<?xi64>
    %cx = memref.alloc(%m) : memref<?xi64>
    memref.copy %x, %cx : memref<?xi64> to memref<?xi64>
    scf.condition(%go) %cx : memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    scf.yield %next : memref<?xi64>
  }
  // Without the copy, a loop that does not run returns %a twice.
  return %r, %a : memref<?xi64>, memref<?xi64>
}

// A loop inside a branch of an `scf.if` whose other branch passes the init on (a
// do-while loop guarded by its first test). A branch runs at most once, so the loop's
// copies go as in the top-level block.
// CHECK-LABEL: func.func @rotated(
// CHECK:         scf.if
// CHECK-NOT:     memref.copy
// CHECK:         scf.condition(%{{[0-9]+}}) %{{[0-9]+}} :
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @rotated(%n: index, %go: i1) -> memref<?xi64> {
  %a = memref.alloc(%n) : memref<?xi64>
  %out = scf.if %go -> (memref<?xi64>) {
    %r = scf.while (%x = %a) : (memref<?xi64>) -> memref<?xi64> {
      %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
      %c0 = arith.constant 0 : index
      %v = memref.load %next[%c0] : memref<?xi64>
      %zero = arith.constant 0 : i64
      %more = arith.cmpi eq, %v, %zero : i64
      %m = memref.dim %next, %c0 : memref<?xi64>
      %cn = memref.alloc(%m) : memref<?xi64>
      memref.copy %next, %cn : memref<?xi64> to memref<?xi64>
      scf.condition(%more) %cn : memref<?xi64>
    } do {
    ^bb0(%x: memref<?xi64>):
      scf.yield %x : memref<?xi64>
    }
    scf.yield %r : memref<?xi64>
  } else {
    scf.yield %a : memref<?xi64>
  }
  return %out : memref<?xi64>
}

// REMARK: remark: array-elide-loop-copies: 1 copy of carried arrays before 'scf.condition' stay: 'memref.store' after the loop may write an array the loop carried
// CHECK-LABEL: func.func @rotatedWritesResult(
// CHECK:         memref.copy
// CHECK:         scf.condition
func.func @rotatedWritesResult(%n: index, %go: i1) -> i64 {
  %a = memref.alloc(%n) : memref<?xi64>
  %out = scf.if %go -> (memref<?xi64>) {
    %r = scf.while (%x = %a) : (memref<?xi64>) -> memref<?xi64> {
      %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
      %c0 = arith.constant 0 : index
      %v = memref.load %next[%c0] : memref<?xi64>
      %zero = arith.constant 0 : i64
      %more = arith.cmpi eq, %v, %zero : i64
      %m = memref.dim %next, %c0 : memref<?xi64>
      %cn = memref.alloc(%m) : memref<?xi64>
      memref.copy %next, %cn : memref<?xi64> to memref<?xi64>
      scf.condition(%more) %cn : memref<?xi64>
    } do {
    ^bb0(%x: memref<?xi64>):
      scf.yield %x : memref<?xi64>
    }
    scf.yield %r : memref<?xi64>
  } else {
    scf.yield %a : memref<?xi64>
  }
  // After the `scf.if`, so after the loop: without the copy, a write to the result.
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7 : i64
  memref.store %seven, %out[%c0] : memref<?xi64>
  %first = memref.load %a[%c0] : memref<?xi64>
  return %first : i64
}

// REMARK: remark: array-elide-loop-copies: 1 copy of carried arrays before 'scf.condition' stay: the loop is neither in its function's top-level block nor in a branch of an 'scf.if' there
// CHECK-LABEL: func.func @insideFor(
// CHECK:         memref.copy
// CHECK:         scf.condition
func.func @insideFor(%n: index, %k: index) -> memref<?xi64> {
  %a = memref.alloc(%n) : memref<?xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // The outer loop's next iteration runs the ops before the inner loop again.
  %out = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %a) -> (memref<?xi64>) {
    %r = scf.while (%x = %a) : (memref<?xi64>) -> memref<?xi64> {
      %v = memref.load %x[%c0] : memref<?xi64>
      %zero = arith.constant 0 : i64
      %more = arith.cmpi eq, %v, %zero : i64
      %m = memref.dim %x, %c0 : memref<?xi64>
      %cx = memref.alloc(%m) : memref<?xi64>
      memref.copy %x, %cx : memref<?xi64> to memref<?xi64>
      scf.condition(%more) %cx : memref<?xi64>
    } do {
    ^bb0(%x: memref<?xi64>):
      %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
      scf.yield %next : memref<?xi64>
    }
    scf.yield %r : memref<?xi64>
  }
  return %out : memref<?xi64>
}
