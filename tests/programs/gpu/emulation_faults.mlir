// Hand-written kernels, faulty and correct, for the run-time checks of array-gpu-emulate
// (tests/src/gpu.rs: emulated_kernels_report_*). Each function's comment says what the
// checks must find.

// 64 threads of one block store their id: out of bounds when the buffer is shorter.
func.func @store_ids(%a: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %id = arith.index_cast %tx : index to i64
    memref.store %id, %a[%tx] : memref<?xi64>
    gpu.terminator
  }
  %last = arith.constant 63 : index
  %r = memref.load %a[%last] : memref<?xi64>
  return %r : i64
}

// Every thread of two blocks writes element 0: a race.
func.func @all_store_first(%a: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %id = arith.index_cast %tx : index to i64
    memref.store %id, %a[%c0] : memref<?xi64>
    gpu.terminator
  }
  return
}

// Thread t of one 32-thread block writes a[t], then reads a[(t + 1) mod 32] into b[t]:
// a race without a barrier between the write and the read.
func.func @rotate(%a: memref<?xi64>, %b: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %id = arith.index_cast %tx : index to i64
    memref.store %id, %a[%tx] : memref<?xi64>
    %next = arith.addi %tx, %c1 : index
    %wrapped = arith.remui %next, %c32 : index
    %x = memref.load %a[%wrapped] : memref<?xi64>
    memref.store %x, %b[%tx] : memref<?xi64>
    gpu.terminator
  }
  %r = memref.load %b[%c0] : memref<?xi64>
  return %r : i64
}

// The same with a block-wide operation between: correct, b[0] = 1. (A gpu.all_reduce,
// which every thread of the block reaches, stands for a barrier: the deallocation pipeline
// refuses gpu.barrier, whose memory effects it does not know.)
func.func @rotate_synchronised(%a: memref<?xi64>, %b: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %id = arith.index_cast %tx : index to i64
    memref.store %id, %a[%tx] : memref<?xi64>
    %sum = gpu.all_reduce %id {
    ^bb0(%l: i64, %r: i64):
      %s = arith.addi %l, %r : i64
      gpu.yield %s : i64
    } : (i64) -> (i64)
    %next = arith.addi %tx, %c1 : index
    %wrapped = arith.remui %next, %c32 : index
    %x = memref.load %a[%wrapped] : memref<?xi64>
    memref.store %x, %b[%tx] : memref<?xi64>
    gpu.terminator
  }
  %r = memref.load %b[%c0] : memref<?xi64>
  return %r : i64
}

// Two blocks of 32 threads, each thread reading the element of its partner in the other
// block after a block-wide operation: that orders one block only, so this is a race.
func.func @swap_blocks(%a: memref<?xi64>, %b: memref<?xi64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %first = arith.muli %bx, %c32 : index
    %g = arith.addi %first, %tx : index
    %id = arith.index_cast %g : index to i64
    memref.store %id, %a[%g] : memref<?xi64>
    %sum = gpu.all_reduce %id {
    ^bb0(%l: i64, %r: i64):
      %s = arith.addi %l, %r : i64
      gpu.yield %s : i64
    } : (i64) -> (i64)
    %shifted = arith.addi %g, %c32 : index
    %partner = arith.remui %shifted, %c64 : index
    %x = memref.load %a[%partner] : memref<?xi64>
    memref.store %x, %b[%g] : memref<?xi64>
    gpu.terminator
  }
  return
}

// Every thread of two blocks adds 1 to a[0] atomically: correct, a[0] grows by 64.
func.func @count_atomically(%a: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i64
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %old = memref.atomic_rmw addi %one, %a[%c0] : (i64, memref<?xi64>) -> i64
    gpu.terminator
  }
  %r = memref.load %a[%c0] : memref<?xi64>
  return %r : i64
}

// Thread 0 writes a[0] while the others add to it atomically: a race.
func.func @reset_while_counting(%a: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %is_first = arith.cmpi eq, %tx, %c0 : index
    scf.if %is_first {
      memref.store %zero, %a[%c0] : memref<?xi64>
    } else {
      %old = memref.atomic_rmw addi %one, %a[%c0] : (i64, memref<?xi64>) -> i64
    }
    gpu.terminator
  }
  return
}
