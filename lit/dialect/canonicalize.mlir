// Dead-code elimination of `array` ops by the canonicalizer. Ops that are Pure
// (force, size, dim, reverse, replicate), NoMemoryEffect (index, gather) or
// RecursiveMemoryEffects with effect-free regions (map, generate, fold, scan,
// filter, expand, scatter, backpermute, permute) are removed when
// their results are unused; being non-speculatable does not prevent that. A
// combinator whose region has a side effect (a call to an unknown function)
// is kept.
//
// RUN: fuse-opt %s --canonicalize | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

func.func private @effect(f32) -> f32

// CHECK-LABEL: func.func @dead_pure(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %{{.*}}: tensor<?x?xf32>, %{{.*}}: index) -> tensor<?xf32> {
// CHECK-NEXT:    return %[[XS]] : tensor<?xf32>
// CHECK-NEXT:  }
func.func @dead_pure(%xs: tensor<?xf32>, %t: tensor<?x?xf32>, %n: index) -> tensor<?xf32> {
  // A map with a pure body.
  %a = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    array.yield %y : f32
  }
  %s = array.size %xs : tensor<?xf32>
  %m, %k = array.size %t : tensor<?x?xf32>
  %d = array.dim %t, 1 : tensor<?x?xf32>
  %f = array.force %xs : tensor<?xf32>
  %g = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  %z = arith.constant 0.0 : f32
  %sum = array.fold %xs init(%z : f32) : tensor<?xf32> -> tensor<f32> {
  ^bb0(%acc: f32, %x: f32):
    %q = arith.addf %acc, %x : f32
    array.yield %q : f32
  }
  %ps = array.scan left exclusive %xs init(%z : f32) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    %q = arith.addf %acc, %x : f32
    array.yield %q : f32
  }
  %fl = array.filter %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %p = arith.cmpf ogt, %x, %z : f32
    array.yield %p : i1
  }
  %e = array.expand %xs : tensor<?xf32> -> tensor<?xf32> count {
  ^bb0(%x: f32):
    array.yield %n : index
  } get {
  ^bb0(%x: f32, %j: index):
    array.yield %x : f32
  }
  return %xs : tensor<?xf32>
}

// Reading at computed indices has no memory effect: an unused index, gather,
// scatter, backpermute, permute, reverse or replicate is removed too, and so
// is a map whose body reads a free variable with array.index.
// CHECK-LABEL: func.func @dead_no_memory_effect(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %{{.*}}: tensor<?xindex>, %{{.*}}: tensor<?x?xf32>, %{{.*}}: index) -> tensor<?xf32> {
// CHECK-NEXT:    return %[[XS]] : tensor<?xf32>
// CHECK-NEXT:  }
func.func @dead_no_memory_effect(%xs: tensor<?xf32>, %is: tensor<?xindex>, %t: tensor<?x?xf32>, %i: index) -> tensor<?xf32> {
  %v = array.index %xs[%i] : tensor<?xf32>
  %g = array.gather %xs[%is] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
  %sc = array.scatter %xs[%is], %xs : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
  ^bb0(%old: f32, %new: f32):
    %q = arith.addf %old, %new : f32
    array.yield %q : f32
  }
  %bp = array.backpermute %xs to (%i) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%j: index):
    array.yield %j : index
  }
  %pm = array.permute %xs into %xs : tensor<?xf32> into tensor<?xf32> index {
  ^bb0(%j: index):
    array.yield %j : index
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  %r = array.reverse %xs : tensor<?xf32>
  %rp = array.replicate %xs, %i : tensor<?xf32> -> tensor<?x?xf32>
  %a = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %tv = array.index %t[%i, %i] : tensor<?x?xf32>
    %y = arith.addf %x, %tv : f32
    array.yield %y : f32
  }
  return %xs : tensor<?xf32>
}

// A chain of unused ops disappears entirely (a fold whose result is only read
// by a dead array.index, a gather only forced by a dead force).
// CHECK-LABEL: func.func @dead_chain(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %{{.*}}: tensor<?xindex>) -> tensor<?xf32> {
// CHECK-NEXT:    return %[[XS]] : tensor<?xf32>
// CHECK-NEXT:  }
func.func @dead_chain(%xs: tensor<?xf32>, %is: tensor<?xindex>) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %sum = array.fold %xs init(%z : f32) : tensor<?xf32> -> tensor<f32> {
  ^bb0(%acc: f32, %x: f32):
    %q = arith.addf %acc, %x : f32
    array.yield %q : f32
  }
  %s = array.index %sum[] : tensor<f32>
  %g = array.gather %xs[%is] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
  %f = array.force %g : tensor<?xf32>
  return %xs : tensor<?xf32>
}

// A map or scan whose body calls an unknown function has that call's effects:
// it is kept even though its result is unused.
// CHECK-LABEL: func.func @kept_effects(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %{{.*}} = array.map %[[XS]] : tensor<?xf32> -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT:      %[[Y:.*]] = func.call @effect(%[[X]]) : (f32) -> f32
// CHECK-NEXT:      array.yield %[[Y]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = array.scan right inclusive %[[XS]] init(%[[Z]] : f32) : tensor<?xf32> -> tensor<?xf32> {
// CHECK:           func.call @effect
// CHECK:         return %[[XS]] : tensor<?xf32>
func.func @kept_effects(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %b = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = func.call @effect(%x) : (f32) -> f32
    array.yield %y : f32
  }
  %z = arith.constant 0.0 : f32
  %ps = array.scan right inclusive %xs init(%z : f32) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    %y = func.call @effect(%x) : (f32) -> f32
    array.yield %y : f32
  }
  return %xs : tensor<?xf32>
}

// Live ops stay; dead ops inside a live region are removed.
// CHECK-LABEL: func.func @live(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %[[I:.*]]: index) -> (tensor<?xf32>, index, f32) {
// CHECK-NEXT:    %[[N:.*]] = array.size %[[XS]] : tensor<?xf32>
// CHECK-NEXT:    %[[V:.*]] = array.index %[[XS]][%[[I]]] : tensor<?xf32>
// CHECK-NEXT:    %[[YS:.*]] = array.map %[[XS]] : tensor<?xf32> -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT:      %[[Y:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT:      array.yield %[[Y]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[F:.*]] = array.force %[[YS]] : tensor<?xf32>
// CHECK-NEXT:    return %[[F]], %[[N]], %[[V]] : tensor<?xf32>, index, f32
func.func @live(%xs: tensor<?xf32>, %i: index) -> (tensor<?xf32>, index, f32) {
  %n = array.size %xs : tensor<?xf32>
  %v = array.index %xs[%i] : tensor<?xf32>
  %ys = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %dead = arith.mulf %x, %x : f32
    %y = arith.negf %x : f32
    array.yield %y : f32
  }
  %f = array.force %ys : tensor<?xf32>
  return %f, %n, %v : tensor<?xf32>, index, f32
}
