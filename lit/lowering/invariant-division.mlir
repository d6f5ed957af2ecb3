// `array-invariant-division` (fusion_codegen's CPU pipelines, first after array-to-loops):
// a division or remainder inside a loop by a divisor that is not a constant but is
// defined outside the loop becomes a multiplication by a reciprocal computed once before
// the outermost such loop (passes/src/invariant_division.rs). A divisor the loop body
// computes from a size (`index_cast(tensor.dim %xs, 0)`) is moved out of the loop first.
// Divisions by constants (which LLVM already turns into multiplications) and by values
// computed from the elements stay.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, array-invariant-division)' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --run --check --size=1000 --seed=5 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --size=1000 --seed=6 --openmp | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @wrapAround(
// CHECK:         %[[N:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK:         %[[MAGIC:.*]]:3 = call @_fusion_division_magic(%[[N]]) : (i64) -> (i64, i64, i64)
// CHECK:         scf.parallel
// CHECK-NOT:       arith.remui
// The high word of the product with the reciprocal, from 32-bit halves (vectorisable):
// CHECK:           arith.andi %[[MAGIC]]#0, %[[LOW:.*]] : i64
// CHECK:           arith.shrui %[[MAGIC]]#0, %[[THIRTY_TWO:.*]] : i64
// CHECK-COUNT-4:   arith.muli %{{.*}}, %{{.*}} : i64
// CHECK-NOT:       arith.mului_extended
// CHECK:           arith.shrui %{{.*}}, %[[MAGIC]]#1
// CHECK:           arith.shrui %{{.*}}, %[[MAGIC]]#2
// CHECK:         scf.reduce
// RESULT: @wrapAround: match (interpreter, unfused, fused)
func.func @wrapAround(%sz: index, %xs: tensor<?xf32>) -> tensor<?xf32> {
  %n = array.size %xs : tensor<?xf32>
  %ys = array.backpermute %xs to (%sz) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %k = arith.muli %i, %c3 : index
    %j = arith.remui %k, %n : index
    array.yield %j : index
  }
  return %ys : tensor<?xf32>
}

// Signed forms use the magnitudes' quotient.
// CHECK-LABEL: func.func @signed(
// CHECK:         call @_fusion_division_magic
// CHECK-NOT:     arith.floordivsi
// CHECK-NOT:     arith.divsi
// CHECK:         return
// RESULT: @signed: match (interpreter, unfused, fused)
func.func @signed(%xs: tensor<?xi64>, %d: i64) -> (tensor<?xi64>, tensor<?xi64>) {
  %one = arith.constant 1 : i64
  %dd = arith.ori %d, %one : i64
  %fs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %f = arith.floordivsi %x, %dd : i64
    array.yield %f : i64
  }
  %qs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %q = arith.divsi %x, %dd : i64
    %r = arith.remsi %x, %dd : i64
    %s = arith.addi %q, %r : i64
    array.yield %s : i64
  }
  return %fs, %qs : tensor<?xi64>, tensor<?xi64>
}

// The histogram's bins: `array.size` in the map's body is a `tensor.dim` and an
// `index_cast` in the loop; both move out of it, and the remainder is a multiplication.
// CHECK-LABEL: func.func @binsBySize(
// CHECK:         %[[D:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:    call @_fusion_division_magic(%[[D]])
// CHECK-NEXT:    scf.for
// CHECK-NOT:       arith.remui
// CHECK-NOT:       tensor.dim
// CHECK:           memref.store
// CHECK:         return
// RESULT: @binsBySize: match (interpreter, unfused, fused)
func.func @binsBySize(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.size %xs : tensor<?xi64>
  %zeros = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i64
    array.yield %zero : i64
  }
  %src:2 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%x: i64):
    %m = array.size %xs : tensor<?xi64>
    %mi = arith.index_cast %m : index to i64
    %bin = arith.remui %x, %mi : i64
    %one = arith.constant 1 : i64
    array.yield %bin, %one : i64, i64
  }
  %counts = array.scatter %zeros[%src#0], %src#1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %counts : tensor<?xi64>
}

// A constant divisor and one computed per element stay divisions.
// CHECK-LABEL: func.func @notInvariant(
// CHECK-NOT:     call @_fusion_division_magic
// CHECK:         arith.remui %{{.*}}, %c7
// CHECK:         arith.divui
// CHECK:         return
// RESULT: @notInvariant: match (interpreter, unfused, fused)
func.func @notInvariant(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %rs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c7 = arith.constant 7 : i64
    %r = arith.remui %x, %c7 : i64
    array.yield %r : i64
  }
  %qs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %one = arith.constant 1 : i64
    %d = arith.ori %x, %one : i64
    %q = arith.divui %x, %d : i64
    array.yield %q : i64
  }
  return %rs, %qs : tensor<?xi64>, tensor<?xi64>
}

// CHECK-LABEL: func.func private @_fusion_division_magic(
// CHECK:         math.ctlz
// CHECK:         arith.divui %{{.*}}, %{{.*}} : i128
