// A scatter whose combine keeps the new value ("last write wins", Accelerate's
// `permute const`) gives the same result in any order when every value it writes is one
// constant (marking targets, seed 004's sieve): with `scatters=atomic` its loop becomes an
// `scf.parallel` of atomic exchanges (`memref.atomic_rmw assign`). When the values differ
// (here the source element), the last write in source order matters and the loop stays
// sequential, with a remark. Keep flags drop positions in both.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{scatters=atomic}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{scatters=atomic}))' 2>/dev/null | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --scatters=atomic --size=1000 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --scatters=atomic --size=100000 --seed=4 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --gpu-sim --size=700 --seed=5 | FileCheck %s --check-prefix=RESULT

// REMARK: remark: array-parallel-forms: 0 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 1 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// REMARK: remark: array-parallel-forms: 'scf.for' stays sequential: its read-modify-write is not an atomic update (a commutative, associative combine of 8 to 64 bits, or an overwrite with a constant)

// RESULT: @marks: match (interpreter, unfused, fused)
// RESULT: @lastWins: match (interpreter, unfused, fused)

// CHECK-LABEL: func.func @marks(
// CHECK:         scf.parallel
// CHECK:           memref.store
// CHECK-NOT:     memref.copy
// CHECK:         scf.parallel
// CHECK:           scf.if
// CHECK:             memref.atomic_rmw assign
// CHECK-NOT:     memref.store
// CHECK:         return
func.func @marks(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.dim %xs, 0 : tensor<?xi64>
  %zeros = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %w = arith.index_cast %n : index to i64
  %targets:3 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi1>, tensor<?xi64> {
  ^bb0(%x: i64):
    %t = arith.remui %x, %w : i64
    %three = arith.constant 3 : i64
    %r = arith.remui %x, %three : i64
    %zero = arith.constant 0 : i64
    %keep = arith.cmpi ne, %r, %zero : i64
    %one = arith.constant 1 : i64
    array.yield %t, %keep, %one : i64, i1, i64
  }
  %marked = array.scatter %zeros[%targets#0] keep(%targets#1 : tensor<?xi1>), %targets#2 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    array.yield %new : i64
  }
  return %marked : tensor<?xi64>
}

// CHECK-LABEL: func.func @lastWins(
// CHECK:         scf.parallel
// CHECK:           memref.store
// CHECK-NOT:     memref.copy
// CHECK:         scf.for
// CHECK-NOT:     memref.atomic_rmw
// CHECK:           scf.if
// CHECK-NEXT:        memref.store
// CHECK:         return
func.func @lastWins(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.dim %xs, 0 : tensor<?xi64>
  %zeros = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %w = arith.index_cast %n : index to i64
  %targets = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %t = arith.remui %x, %w : i64
    array.yield %t : i64
  }
  %written = array.scatter %zeros[%targets], %xs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    array.yield %new : i64
  }
  return %written : tensor<?xi64>
}
