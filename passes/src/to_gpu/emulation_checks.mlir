// The run-time checks of `array-gpu-emulate` (to_gpu/emulate.rs), added to a module whose
// kernels it emulates. Every memref.load, memref.store and memref.atomic_rmw of a kernel
// calls @__array_gpu_emulation_in_bounds once per dimension and, when its buffer is shared
// by the launch's threads (defined outside the kernel), one of @__array_gpu_emulation_load,
// _store or _atomic. An access out of bounds is skipped (a load yields zero); a fault is
// recorded and the run goes on, and the host (`fusion_codegen::jit`) reads the record after
// the call and turns it into an error naming the access.
//
// The fault record: [0] faults counted, then the first fault: [1] kind (1 out of bounds,
// 2 a write after another thread's write, 3 a read of another thread's write, 4 a write
// after another thread's read or atomic update, 5 an atomic update after another thread's
// write), [2] the access (its number in the module's `array.gpu_emulation_accesses`),
// [3] block and [4] thread of the access, [5] block and [6] thread of the other access
// (-1 for out of bounds), [7] the element (linear, row-major) or for out of bounds the
// dimension, [8] the index and [9] the extent (out of bounds only).
//
// Races: each shared buffer has two shadows of its elements for the duration of one launch,
// the last plain write and the last read (or atomic update), each an entry
// (block * block_size + thread) * segments + segment, or -1. Two accesses are ordered when
// one thread made both, or when one block made them in different segments (between them
// lies a block-wide operation, a barrier in CUDA's terms); every other pair of accesses of
// one launch is unordered, and an unordered pair of which one is a plain write is a race.
// A shadow keeps only the last access, so a race with an earlier one may go unseen; every
// race reported is a real one.
module {
  memref.global @__array_gpu_emulation_fault : memref<10xi64> = dense<0>

  func.func private @__array_gpu_emulation_record(%kind: i64, %access: index, %block: index, %thread: index,
                                                  %other_block: index, %other_thread: index,
                                                  %a: index, %b: index, %c: index) {
    %fault = memref.get_global @__array_gpu_emulation_fault : memref<10xi64>
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %count = memref.load %fault[%c0] : memref<10xi64>
    %first = arith.cmpi eq, %count, %zero : i64
    scf.if %first {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      memref.store %kind, %fault[%c1] : memref<10xi64>
      %access64 = arith.index_cast %access : index to i64
      memref.store %access64, %fault[%c2] : memref<10xi64>
      %block64 = arith.index_cast %block : index to i64
      memref.store %block64, %fault[%c3] : memref<10xi64>
      %thread64 = arith.index_cast %thread : index to i64
      memref.store %thread64, %fault[%c4] : memref<10xi64>
      %other_block64 = arith.index_cast %other_block : index to i64
      memref.store %other_block64, %fault[%c5] : memref<10xi64>
      %other_thread64 = arith.index_cast %other_thread : index to i64
      memref.store %other_thread64, %fault[%c6] : memref<10xi64>
      %a64 = arith.index_cast %a : index to i64
      memref.store %a64, %fault[%c7] : memref<10xi64>
      %b64 = arith.index_cast %b : index to i64
      memref.store %b64, %fault[%c8] : memref<10xi64>
      %c64 = arith.index_cast %c : index to i64
      memref.store %c64, %fault[%c9] : memref<10xi64>
    }
    %next = arith.addi %count, %one : i64
    memref.store %next, %fault[%c0] : memref<10xi64>
    return
  }

  // Whether 0 <= index < extent (one unsigned comparison); records the fault if not.
  func.func private @__array_gpu_emulation_in_bounds(%index: index, %extent: index, %dimension: index,
                                                     %access: index, %block: index, %thread: index) -> i1 {
    %inside = arith.cmpi ult, %index, %extent : index
    scf.if %inside {
    } else {
      %kind = arith.constant 1 : i64
      %none = arith.constant -1 : index
      func.call @__array_gpu_emulation_record(%kind, %access, %block, %thread, %none, %none, %dimension, %index, %extent)
        : (i64, index, index, index, index, index, index, index, index) -> ()
    }
    return %inside : i1
  }

  // A shadow of `n` elements, none accessed yet.
  func.func private @__array_gpu_emulation_shadow(%n: index) -> memref<?xi64> {
    %shadow = memref.alloc(%n) : memref<?xi64>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %none = arith.constant -1 : i64
    scf.for %i = %c0 to %n step %c1 {
      memref.store %none, %shadow[%i] : memref<?xi64>
    }
    return %shadow : memref<?xi64>
  }

  // The shadow entry of an access of (block, thread) in `segment`.
  func.func private @__array_gpu_emulation_entry(%block: index, %thread: index, %block_size: index,
                                                 %segment: index, %segments: index) -> i64 {
    %first = arith.muli %block, %block_size : index
    %global = arith.addi %first, %thread : index
    %scaled = arith.muli %global, %segments : index
    %entry = arith.addi %scaled, %segment : index
    %entry64 = arith.index_cast %entry : index to i64
    return %entry64 : i64
  }

  // Records a race with the access of shadow entry `other` if the two are unordered (see
  // the file's header); `other` may be -1 (no access yet: no race).
  func.func private @__array_gpu_emulation_race(%kind: i64, %other: i64, %element: index, %access: index,
                                                %block: index, %thread: index, %block_size: index,
                                                %segment: index, %segments: index) {
    %none = arith.constant -1 : i64
    %recorded = arith.cmpi ne, %other, %none : i64
    scf.if %recorded {
      %entry = arith.index_cast %other : i64 to index
      %their_global = arith.divui %entry, %segments : index
      %their_segment = arith.remui %entry, %segments : index
      %their_block = arith.divui %their_global, %block_size : index
      %their_thread = arith.remui %their_global, %block_size : index
      %first = arith.muli %block, %block_size : index
      %my_global = arith.addi %first, %thread : index
      %other_thread = arith.cmpi ne, %their_global, %my_global : index
      %other_block = arith.cmpi ne, %their_block, %block : index
      %same_segment = arith.cmpi eq, %their_segment, %segment : index
      %no_barrier = arith.ori %other_block, %same_segment : i1
      %unordered = arith.andi %other_thread, %no_barrier : i1
      scf.if %unordered {
        %unused = arith.constant 0 : index
        func.call @__array_gpu_emulation_record(%kind, %access, %block, %thread, %their_block, %their_thread, %element, %unused, %unused)
          : (i64, index, index, index, index, index, index, index, index) -> ()
      }
    }
    return
  }

  func.func private @__array_gpu_emulation_load(%writes: memref<?xi64>, %reads: memref<?xi64>, %element: index,
                                                %access: index, %block: index, %thread: index, %block_size: index,
                                                %segment: index, %segments: index) {
    %read_after_write = arith.constant 3 : i64
    %last_write = memref.load %writes[%element] : memref<?xi64>
    func.call @__array_gpu_emulation_race(%read_after_write, %last_write, %element, %access, %block, %thread, %block_size, %segment, %segments)
      : (i64, i64, index, index, index, index, index, index, index) -> ()
    %me = func.call @__array_gpu_emulation_entry(%block, %thread, %block_size, %segment, %segments)
      : (index, index, index, index, index) -> i64
    memref.store %me, %reads[%element] : memref<?xi64>
    return
  }

  func.func private @__array_gpu_emulation_store(%writes: memref<?xi64>, %reads: memref<?xi64>, %element: index,
                                                 %access: index, %block: index, %thread: index, %block_size: index,
                                                 %segment: index, %segments: index) {
    %write_after_write = arith.constant 2 : i64
    %write_after_read = arith.constant 4 : i64
    %last_write = memref.load %writes[%element] : memref<?xi64>
    func.call @__array_gpu_emulation_race(%write_after_write, %last_write, %element, %access, %block, %thread, %block_size, %segment, %segments)
      : (i64, i64, index, index, index, index, index, index, index) -> ()
    %last_read = memref.load %reads[%element] : memref<?xi64>
    func.call @__array_gpu_emulation_race(%write_after_read, %last_read, %element, %access, %block, %thread, %block_size, %segment, %segments)
      : (i64, i64, index, index, index, index, index, index, index) -> ()
    %me = func.call @__array_gpu_emulation_entry(%block, %thread, %block_size, %segment, %segments)
      : (index, index, index, index, index) -> i64
    memref.store %me, %writes[%element] : memref<?xi64>
    return
  }

  // Atomic updates of one element by many threads are no race; an atomic update and a
  // plain write by another thread are (either order: the update is recorded as a read).
  func.func private @__array_gpu_emulation_atomic(%writes: memref<?xi64>, %reads: memref<?xi64>, %element: index,
                                                  %access: index, %block: index, %thread: index, %block_size: index,
                                                  %segment: index, %segments: index) {
    %atomic_after_write = arith.constant 5 : i64
    %last_write = memref.load %writes[%element] : memref<?xi64>
    func.call @__array_gpu_emulation_race(%atomic_after_write, %last_write, %element, %access, %block, %thread, %block_size, %segment, %segments)
      : (i64, i64, index, index, index, index, index, index, index) -> ()
    %me = func.call @__array_gpu_emulation_entry(%block, %thread, %block_size, %segment, %segments)
      : (index, index, index, index, index) -> i64
    memref.store %me, %reads[%element] : memref<?xi64>
    return
  }
}
