// `array-to-loops`: a scatter or permute updates its destination's buffer in place when
// nothing else can see that array: the destination is the result of a loop nest of this
// lowering (`bufferization.to_tensor %alloc restrict`), its only other uses read its
// extents, and the scatter reads it through one operand. Otherwise the destination is
// copied first (`memref.alloc` + `memref.copy`): a function argument (the caller's
// array), a destination also returned or read by the scatter itself, a scatter in a loop
// body (each iteration starts from the same destination). The histogram
// shape (generate zeros, scatter into them) so writes its bins once instead of three
// times (write, copy's read and write).
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops)' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops)' 2>/dev/null | fuse-opt --verify-diagnostics > /dev/null
// RUN: fuse-opt %s --run --check --size=1000 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --scatters=atomic --size=1000 --seed=4 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --scatters=owners --size=1000 --seed=5 | FileCheck %s --check-prefix=RESULT

// RESULT: @histogram: match (interpreter, unfused, fused)
// RESULT: @destinationReturned: match (interpreter, unfused, fused)
// RESULT: @intoArgument: match (interpreter, unfused, fused)
// RESULT: @valuesAreDestination: match (interpreter, unfused, fused)
// RESULT: @permuteIntoGenerated: match (interpreter, unfused, fused)
// RESULT: @scatterInLoop: match (interpreter, unfused, fused)

// In place: zeros made by a generate, read by the scatter only.
// CHECK-LABEL: func.func @histogram(
// CHECK:         %[[BINS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         scf.parallel
// CHECK:           memref.store %{{.*}}, %[[BINS]][
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.alloc
// CHECK:         %[[M:.*]] = memref.dim %[[BINS]], %{{.*}} : memref<?xi64>
// CHECK:         scf.for
// CHECK:           arith.cmpi ult, %{{.*}}, %[[M]] : index
// CHECK:             memref.load %[[BINS]][
// CHECK:             memref.store %{{.*}}, %[[BINS]][
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[BINS]] restrict writable
// CHECK-NEXT:    return %[[R]]
func.func @histogram(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.size %xs : tensor<?xi64>
  %zeros = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i64
    array.yield %zero : i64
  }
  %bins = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %mi = arith.index_cast %n : index to i64
    %bin = arith.remui %x, %mi : i64
    array.yield %bin : i64
  }
  %counts = array.scatter %zeros[%bins], %xs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %counts : tensor<?xi64>
}

// Copied: the destination is also returned.
// CHECK-LABEL: func.func @destinationReturned(
// CHECK:         %[[ONES:.*]] = memref.alloc
// CHECK:         %[[T:.*]] = bufferization.to_tensor %[[ONES]] restrict writable
// CHECK:         %[[B:.*]] = bufferization.to_buffer %[[T]] read_only
// CHECK:         %[[C:.*]] = memref.alloc
// CHECK:         memref.copy %[[B]], %[[C]]
// CHECK:         scf.for
// CHECK:             memref.store %{{.*}}, %[[C]][
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[C]] restrict writable
// CHECK:         return %[[R]], %[[T]]
func.func @destinationReturned(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %n = array.size %xs : tensor<?xi64>
  %ones = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %one = arith.constant 1 : i64
    array.yield %one : i64
  }
  %bins = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %mi = arith.index_cast %n : index to i64
    %bin = arith.remui %x, %mi : i64
    array.yield %bin : i64
  }
  %counts = array.scatter %ones[%bins], %xs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %counts, %ones : tensor<?xi64>, tensor<?xi64>
}

// Copied: the destination is the caller's argument.
// CHECK-LABEL: func.func @intoArgument(
// CHECK-SAME:      %[[DEST:[^:]*]]: tensor<?xi64>
// CHECK:         %[[B:.*]] = bufferization.to_buffer %[[DEST]] read_only
// CHECK:         %[[C:.*]] = memref.alloc
// CHECK:         memref.copy %[[B]], %[[C]]
// CHECK:         scf.for
// CHECK:             memref.store %{{.*}}, %[[C]][
func.func @intoArgument(%dest: tensor<?xi64>, %xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.size %dest : tensor<?xi64>
  %bins = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %mi = arith.index_cast %n : index to i64
    %bin = arith.remui %x, %mi : i64
    array.yield %bin : i64
  }
  %r = array.scatter %dest[%bins], %xs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %r : tensor<?xi64>
}

// Copied: the scatter's values are its destination (read while it is updated).
// CHECK-LABEL: func.func @valuesAreDestination(
// CHECK:         %[[SQ:.*]] = memref.alloc
// CHECK:         %[[T:.*]] = bufferization.to_tensor %[[SQ]] restrict writable
// CHECK:         %[[B:.*]] = bufferization.to_buffer %[[T]] read_only
// CHECK:         %[[C:.*]] = memref.alloc
// CHECK:         memref.copy %[[B]], %[[C]]
// CHECK:         scf.for
// CHECK:             memref.store %{{.*}}, %[[C]][
func.func @valuesAreDestination(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.size %xs : tensor<?xi64>
  %squares = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %sq = arith.muli %ii, %ii : i64
    array.yield %sq : i64
  }
  %bins = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %mi = arith.index_cast %n : index to i64
    %bin = arith.remui %x, %mi : i64
    array.yield %bin : i64
  }
  %r = array.scatter %squares[%bins], %squares : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %r : tensor<?xi64>
}

// In place: a permute with a keep flag into a generated array.
// CHECK-LABEL: func.func @permuteIntoGenerated(
// CHECK:         %[[D:.*]] = memref.alloc
// CHECK:         scf.parallel
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for
// CHECK:             memref.store %{{.*}}, %[[D]][
// CHECK:         bufferization.to_tensor %[[D]] restrict writable
func.func @permuteIntoGenerated(%vs: tensor<?xi64>, %ts: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.size %vs : tensor<?xi64>
  %minus = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %m = arith.constant -1 : i64
    array.yield %m : i64
  }
  %p = array.permute %vs into %minus : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%i: index):
    %t = array.index %ts[%i] : tensor<?xi64>
    %one = arith.constant 1 : i64
    %zero = arith.constant 0 : i64
    %odd = arith.andi %t, %one : i64
    %keep = arith.cmpi eq, %odd, %zero : i64
    %ni = arith.index_cast %n : index to i64
    %target = arith.remui %t, %ni : i64
    %ti = arith.index_cast %target : i64 to index
    array.yield %ti, %keep : index, i1
  } combine {
  ^bb0(%old: i64, %new: i64):
    array.yield %new : i64
  }
  return %p : tensor<?xi64>
}

// Copied: the scatter runs once per iteration, each time into the zeros made before the
// loop.
// CHECK-LABEL: func.func @scatterInLoop(
// CHECK:         %[[Z:.*]] = memref.alloc
// CHECK:         %[[T:.*]] = bufferization.to_tensor %[[Z]] restrict writable
// CHECK:         scf.for
// CHECK:           %[[B:.*]] = bufferization.to_buffer %[[T]] read_only
// CHECK:           %[[C:.*]] = memref.alloc
// CHECK:           memref.copy %[[B]], %[[C]]
func.func @scatterInLoop(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.size %xs : tensor<?xi64>
  %zeros = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i64
    array.yield %zero : i64
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %xs) -> tensor<?xi64> {
    %bins = array.map %acc : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      %mi = arith.index_cast %n : index to i64
      %bin = arith.remui %x, %mi : i64
      array.yield %bin : i64
    }
    %h = array.scatter %zeros[%bins], %acc : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
    ^bb0(%old: i64, %new: i64):
      %sum = arith.addi %old, %new : i64
      array.yield %sum : i64
    }
    scf.yield %h : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}
