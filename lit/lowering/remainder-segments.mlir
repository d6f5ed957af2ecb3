// `array-remainder-segments` (fusion_codegen's CPU pipelines, before
// array-invariant-division): a remainder (D·i + B) mod n of a parallel loop's induction
// variable, n fixed for the loop, becomes affine in i between its wrap-arounds. The loop
// runs in chunks of 1024 iterations, each split at its one wrap-around into two loops
// without the remainder, under a run-time guard (0 ≤ lb < ub, no step of D·(ub − 1) + B
// wraps, n ≥ D·1024); otherwise the loop runs unchanged (passes/src/remainder_segments.rs).
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, array-remainder-segments)' 2>/dev/null | FileCheck %s
// The chunked form (n >= D * 1024), the unchanged loop (n < 2048), both with threads:
// RUN: fuse-opt %s --run --check --size=5000 --seed=5 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1000 --seed=5 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --size=9000 --seed=6 --openmp | FileCheck %s --check-prefix=RESULT
// A chunk of 4 iterations: many wrap-arounds in one small run.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, array-remainder-segments{chunk=4})' 2>/dev/null | FileCheck %s --check-prefix=CHUNK
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, array-remainder-segments{chunk=0})' 2>&1 | FileCheck %s --check-prefix=BAD

// Seed 000's backpermute: xs[(2i) mod n].
// CHECK-LABEL: func.func @twice(
// CHECK:         %[[N:.*]] = tensor.dim
// CHECK:         %[[LEAST:.*]] = arith.constant 2048 : index
// CHECK:         %[[LARGE:.*]] = arith.cmpi uge, %[[N]], %[[LEAST]] : index
// CHECK:         scf.if
// CHECK:           scf.parallel (%[[K:.*]]) =
// CHECK:             %[[R0:.*]] = arith.remui %{{.*}}, %[[N]] : index
// CHECK:             scf.for %[[I:.*]] = %{{.*}} to %[[MID:.*]] step
// CHECK-NOT:           arith.remui
// CHECK:               memref.load
// CHECK:             scf.for %{{.*}} = %[[MID]] to
// CHECK-NOT:           arith.remui
// CHECK:               memref.load
// CHECK:         } else {
// CHECK:           scf.parallel
// CHECK:             arith.remui
// CHECK:       return
// RESULT: @twice: match (interpreter, unfused, fused)
func.func @twice(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %n = array.size %xs : tensor<?xf32>
  %ys = array.backpermute %xs to (%n) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %twice = arith.muli %i, %c2 : index
    %j = arith.remui %twice, %n : index
    array.yield %j : index
  }
  return %ys : tensor<?xf32>
}

// A chain of additions and multiplications: ((i + s) · 3 + 7) mod n, D = 3. The shift s
// is a small random i64 (-8 to 7) taken as an index: a negative one is close to 2^64, so
// the chain wraps and the guard runs the loop unchanged.
// CHECK-LABEL: func.func @shiftedScaled(
// CHECK:         arith.constant 3072 : index
// CHECK:         scf.if
// CHECK:           scf.parallel
// CHECK:             arith.remui
// CHECK:             scf.for
// CHECK-NOT:           arith.remui
// CHECK:             scf.for
// CHECK-NOT:           arith.remui
// CHECK:         } else {
// CHECK:       return
// RESULT: @shiftedScaled: match (interpreter, unfused, fused)
func.func @shiftedScaled(%xs: tensor<?xi64>, %shift: i64) -> tensor<?xi64> {
  %n = array.size %xs : tensor<?xi64>
  %s = arith.index_castui %shift : i64 to index
  %ys = array.backpermute %xs to (%n) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %a = arith.addi %i, %s : index
    %b = arith.muli %c3, %a : index
    %c = arith.addi %c7, %b : index
    %j = arith.remui %c, %n : index
    array.yield %j : index
  }
  return %ys : tensor<?xi64>
}

// A constant divisor at least D · 1024 is split like any other (LLVM would divide by
// it with a multiplication, still one per element).
// CHECK-LABEL: func.func @constantDivisor(
// CHECK:         arith.constant 2048 : index
// CHECK:         scf.if
// CHECK:           scf.for
// CHECK:           scf.for
// CHECK:         } else {
// CHECK:       return
// RESULT: @constantDivisor: match (interpreter, unfused, fused)
func.func @constantDivisor(%n: index) -> tensor<?xindex> {
  %ys = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %c4099 = arith.constant 4099 : index
    %x = arith.muli %i, %c2 : index
    %j = arith.remui %x, %c4099 : index
    array.yield %j : index
  }
  return %ys : tensor<?xindex>
}

// Left alone: a multiplier that is not a constant, a divisor computed in the loop, a
// product of the induction variable with itself, and a constant divisor below D · 1024
// (the guard would fail on every run).
// CHECK-LABEL: func.func @notAffine(
// CHECK-NOT:     scf.if
// CHECK:       return
// RESULT: @notAffine: match (interpreter, unfused, fused)
func.func @notAffine(%xs: tensor<?xi64>, %m: index) -> (tensor<?xindex>, tensor<?xindex>, tensor<?xindex>, tensor<?xindex>) {
  %n = array.size %xs : tensor<?xi64>
  %byM = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %x = arith.muli %i, %m : index
    %j = arith.remui %x, %n : index
    array.yield %j : index
  }
  %perElement = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %d = arith.addi %i, %c1 : index
    %j = arith.remui %m, %d : index
    array.yield %j : index
  }
  %square = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %x = arith.muli %i, %i : index
    %j = arith.remui %x, %n : index
    array.yield %j : index
  }
  %small = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %x = arith.muli %i, %c2 : index
    %j = arith.remui %x, %c7 : index
    array.yield %j : index
  }
  return %byM, %perElement, %square, %small : tensor<?xindex>, tensor<?xindex>, tensor<?xindex>, tensor<?xindex>
}

// CHUNK-LABEL: func.func @twice(
// CHUNK:         arith.constant 8 : index
// CHUNK:         arith.constant 4 : index
// BAD: array-remainder-segments: chunk must be an integer from 1 to 2^30, not '0'
