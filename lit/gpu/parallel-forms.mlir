// The conditions under which array-gpu-kernels runs a sequential loop in parallel, on
// hand-written bufferized loops (the form array-to-loops and bufferization give): a loop
// carrying a regroupable combine becomes three phases (parallel_forms/scans.rs), a scatter nest
// with a commutative combine atomic updates (parallel_forms/atomics.rs). Every loop that breaks a
// condition stays one GPU thread, and the remark says which condition.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-gpu-kernels))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-gpu-kernels))' 2>/dev/null | FileCheck %s

// A filter's compaction: position acc, inside the branch that adds 1.
// REMARK: remark: array-gpu-kernels: 0 parallel kernels (0 with atomic updates), 0 reductions (two kernels each), 1 scans (three phases each, 0 with a fourth folding scanned values), 0 one-thread kernels
// CHECK-LABEL: func.func @compaction(
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @compaction(%xs: memref<?xi64>) -> (memref<?xi64>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = memref.dim %xs, %c0 : memref<?xi64>
  %out = memref.alloc(%n) : memref<?xi64>
  %count = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %x = memref.load %xs[%k] : memref<?xi64>
    %keep = arith.cmpi sgt, %x, %zero : i64
    %next = scf.if %keep -> (index) {
      memref.store %x, %out[%acc] : memref<?xi64>
      %a = arith.addi %acc, %c1 : index
      scf.yield %a : index
    } else {
      scf.yield %acc : index
    }
    scf.yield %next : index
  }
  return %out, %count : memref<?xi64>, index
}

// A right scan stores at n-1-k: one position per iteration.
// REMARK: remark: array-gpu-kernels: 0 parallel kernels (0 with atomic updates), 0 reductions (two kernels each), 1 scans (three phases each, 0 with a fourth folding scanned values), 0 one-thread kernels
// CHECK-LABEL: func.func @right_scan(
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @right_scan(%xs: memref<?xi32>) -> memref<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant -2147483648 : i32
  %n = memref.dim %xs, %c0 : memref<?xi32>
  %last = arith.subi %n, %c1 : index
  %out = memref.alloc(%n) : memref<?xi32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (i32) {
    %j = arith.subi %last, %k : index
    %x = memref.load %xs[%j] : memref<?xi32>
    %m = arith.maxsi %acc, %x : i32
    memref.store %m, %out[%j] : memref<?xi32>
    scf.yield %m : i32
  }
  return %out : memref<?xi32>
}

// An expand's segment acc .. acc+x whose length x may be negative: segments could overlap.
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): a store's position is not provably distinct between iterations
// CHECK-LABEL: func.func @segment_of_any_length(
// CHECK-COUNT-1: gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @segment_of_any_length(%sizes: memref<?xindex>, %total: index) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %seven = arith.constant 7 : i64
  %n = memref.dim %sizes, %c0 : memref<?xindex>
  %out = memref.alloc(%total) : memref<?xi64>
  %end = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %x = memref.load %sizes[%k] : memref<?xindex>
    scf.for %t = %c0 to %x step %c1 {
      %p = arith.addi %acc, %t : index
      memref.store %seven, %out[%p] : memref<?xi64>
    }
    %a = arith.addi %acc, %x : index
    scf.yield %a : index
  }
  return %out : memref<?xi64>
}

// The same with the length clamped at 0 (as array-to-loops writes an expand): three phases.
// REMARK: remark: array-gpu-kernels: 0 parallel kernels (0 with atomic updates), 0 reductions (two kernels each), 1 scans (three phases each, 0 with a fourth folding scanned values), 0 one-thread kernels
// CHECK-LABEL: func.func @segment_of_clamped_length(
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @segment_of_clamped_length(%sizes: memref<?xindex>, %total: index) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %seven = arith.constant 7 : i64
  %n = memref.dim %sizes, %c0 : memref<?xindex>
  %out = memref.alloc(%total) : memref<?xi64>
  %end = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %s = memref.load %sizes[%k] : memref<?xindex>
    %x = arith.maxsi %s, %c0 : index
    scf.for %t = %c0 to %x step %c1 {
      %p = arith.addi %acc, %t : index
      memref.store %seven, %out[%p] : memref<?xi64>
    }
    %a = arith.addi %acc, %x : index
    scf.yield %a : index
  }
  return %out : memref<?xi64>
}

// A compaction that adds 2 but writes one element: positions acc+1 are never written,
// which is fine, but the rule asks for exactly 1 (the form a filter has).
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): a store's position is not provably distinct between iterations
func.func @adds_two(%xs: memref<?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = memref.dim %xs, %c0 : memref<?xi64>
  %out = memref.alloc(%n) : memref<?xi64>
  %count = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %x = memref.load %xs[%k] : memref<?xi64>
    %keep = arith.cmpi sgt, %x, %zero : i64
    %next = scf.if %keep -> (index) {
      memref.store %x, %out[%acc] : memref<?xi64>
      %a = arith.addi %acc, %c2 : index
      scf.yield %a : index
    } else {
      scf.yield %acc : index
    }
    scf.yield %next : index
  }
  return %out : memref<?xi64>
}

// A scan that reads back what it wrote (phase 1 drops the stores, so it would read other data).
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): it reads a buffer it writes
func.func @reads_its_output(%xs: memref<?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = memref.dim %xs, %c0 : memref<?xi64>
  %out = memref.alloc(%n) : memref<?xi64>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %x = memref.load %xs[%k] : memref<?xi64>
    memref.store %x, %out[%k] : memref<?xi64>
    %y = memref.load %out[%k] : memref<?xi64>
    %s = arith.addi %acc, %y : i64
    scf.yield %s : i64
  }
  return %out : memref<?xi64>
}

// A scan into an argument, which may alias the input.
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): it writes a buffer that is not a fresh allocation accessed directly
func.func @into_argument(%xs: memref<?xi64>, %out: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = memref.dim %xs, %c0 : memref<?xi64>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %x = memref.load %xs[%k] : memref<?xi64>
    %s = arith.addi %acc, %x : i64
    memref.store %s, %out[%k] : memref<?xi64>
    scf.yield %s : i64
  }
  return
}

// An increment computed from the accumulator itself (acc + acc·x is no scan of an addition).
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): a carried value is not updated by a regroupable combine with a value independent of the carried ones
func.func @dependent_increment(%xs: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %n = memref.dim %xs, %c0 : memref<?xi64>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %one) -> (i64) {
    %x = memref.load %xs[%k] : memref<?xi64>
    %p = arith.muli %acc, %x : i64
    %s = arith.addi %acc, %p : i64
    scf.yield %s : i64
  }
  return %r : i64
}

// A float sum without fastmath<reassoc> keeps its order.
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): a carried value is not updated
func.func @strict_float_sum(%xs: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %xs, %c0 : memref<?xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %xs[%k] : memref<?xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// A scatter of maxima (f32, a compare-and-swap loop on NVIDIA GPUs): atomic updates.
// REMARK: remark: array-gpu-kernels: 1 parallel kernels (1 with atomic updates), 0 reductions (two kernels each), 0 scans (three phases each, 0 with a fourth folding scanned values), 0 one-thread kernels
// CHECK-LABEL: func.func @scatter_max(
// CHECK:         gpu.launch
// CHECK:           memref.atomic_rmw maximumf
// CHECK-NOT:       memref.store
// CHECK:         gpu.terminator
func.func @scatter_max(%is: memref<?xindex>, %vs: memref<?xf32>, %m: index) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %is, %c0 : memref<?xindex>
  %out = memref.alloc(%m) : memref<?xf32>
  scf.for %k = %c0 to %n step %c1 {
    %i = memref.load %is[%k] : memref<?xindex>
    %ok = arith.cmpi ult, %i, %m : index
    scf.if %ok {
      %old = memref.load %out[%i] : memref<?xf32>
      %new = memref.load %vs[%k] : memref<?xf32>
      %mx = arith.maximumf %old, %new : f32
      memref.store %mx, %out[%i] : memref<?xf32>
    }
  }
  return %out : memref<?xf32>
}

// A scatter of differences (subtraction does not commute).
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): its read-modify-write is not an atomic update
func.func @scatter_sub(%is: memref<?xindex>, %vs: memref<?xi64>, %m: index) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %is, %c0 : memref<?xindex>
  %out = memref.alloc(%m) : memref<?xi64>
  scf.for %k = %c0 to %n step %c1 {
    %i = memref.load %is[%k] : memref<?xindex>
    %old = memref.load %out[%i] : memref<?xi64>
    %new = memref.load %vs[%k] : memref<?xi64>
    %d = arith.subi %old, %new : i64
    memref.store %d, %out[%i] : memref<?xi64>
  }
  return %out : memref<?xi64>
}

// A scatter-add that also reads the destination elsewhere (another iteration's update).
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): it writes a buffer at positions shared by iterations
func.func @scatter_reading_elsewhere(%is: memref<?xindex>, %m: index) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %is, %c0 : memref<?xindex>
  %out = memref.alloc(%m) : memref<?xi64>
  scf.for %k = %c0 to %n step %c1 {
    %i = memref.load %is[%k] : memref<?xindex>
    %first = memref.load %out[%c0] : memref<?xi64>
    %old = memref.load %out[%i] : memref<?xi64>
    %s = arith.addi %old, %first : i64
    memref.store %s, %out[%i] : memref<?xi64>
  }
  return %out : memref<?xi64>
}

// A scatter-add reading its values through a view of the destination.
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): it writes a buffer that is not a fresh allocation accessed directly
func.func @scatter_through_view(%is: memref<?xindex>, %m: index) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %is, %c0 : memref<?xindex>
  %out = memref.alloc(%m) : memref<?xi64>
  %view = memref.cast %out : memref<?xi64> to memref<?xi64, strided<[1], offset: ?>>
  scf.for %k = %c0 to %n step %c1 {
    %i = memref.load %is[%k] : memref<?xindex>
    %v = memref.load %view[%k] : memref<?xi64, strided<[1], offset: ?>>
    %old = memref.load %out[%i] : memref<?xi64>
    %s = arith.addi %old, %v : i64
    memref.store %s, %out[%i] : memref<?xi64>
  }
  return %out : memref<?xi64>
}

// A scan that writes its running value at k and at n-1-k: iterations k and n-1-k meet.
// REMARK: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form): it writes a buffer at two kinds of position
func.func @both_ends(%xs: memref<?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = memref.dim %xs, %c0 : memref<?xi64>
  %last = arith.subi %n, %c1 : index
  %out = memref.alloc(%n) : memref<?xi64>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %x = memref.load %xs[%k] : memref<?xi64>
    %s = arith.addi %acc, %x : i64
    memref.store %s, %out[%k] : memref<?xi64>
    %j = arith.subi %last, %k : index
    memref.store %s, %out[%j] : memref<?xi64>
    scf.yield %s : i64
  }
  return %out : memref<?xi64>
}

// A fold of a scan (the sum of the prefix sums): the fold reads the scanned value and
// nothing reads the fold, so it is folded per chunk in phase 3, from the identity, and a
// fourth kernel (one thread) combines the chunks' folds in order.
// REMARK: remark: array-gpu-kernels: 0 parallel kernels (0 with atomic updates), 0 reductions (two kernels each), 1 scans (three phases each, 1 with a fourth folding scanned values), 0 one-thread kernels
// CHECK-LABEL: func.func @sum_of_prefix_sums(
// CHECK-COUNT-4: gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @sum_of_prefix_sums(%xs: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = memref.dim %xs, %c0 : memref<?xi64>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%p = %zero, %t = %zero) -> (i64, i64) {
    %x = memref.load %xs[%k] : memref<?xi64>
    %p2 = arith.addi %p, %x : i64
    %t2 = arith.addi %t, %p2 : i64
    scf.yield %p2, %t2 : i64, i64
  }
  return %r#1 : i64
}
