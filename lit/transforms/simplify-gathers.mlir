// array-simplify-gathers removes gathers whose (composed) index function is the
// identity, proven by equality saturation (egg): reverse of reverse, shifts that
// cancel. A single reverse, or a real permutation, stays.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-desugar, array-simplify-gathers, canonicalize))' | FileCheck %s
// The canonicalizer may hoist the constants first; the result is the same.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-desugar, canonicalize, array-simplify-gathers, canonicalize))' | FileCheck %s

// CHECK-LABEL: func.func @reverseTwice(
// CHECK-SAME: %[[XS:.+]]: tensor<?xf32>)
// CHECK-NEXT: return %[[XS]]
func.func @reverseTwice(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r1 = array.reverse %xs : tensor<?xf32>
  %r2 = array.reverse %r1 : tensor<?xf32>
  return %r2 : tensor<?xf32>
}

// CHECK-LABEL: func.func @reverseFourTimes(
// CHECK-SAME: %[[XS:.+]]: tensor<?x?xi64>)
// CHECK-NEXT: return %[[XS]]
func.func @reverseFourTimes(%xs: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %r1 = array.reverse %xs : tensor<?x?xi64>
  %r2 = array.reverse %r1 : tensor<?x?xi64>
  %r3 = array.reverse %r2 : tensor<?x?xi64>
  %r4 = array.reverse %r3 : tensor<?x?xi64>
  return %r4 : tensor<?x?xi64>
}

// CHECK-LABEL: func.func @shiftBack(
// CHECK-SAME: %[[XS:.+]]: tensor<?xf32>)
// CHECK-NEXT: return %[[XS]]
func.func @shiftBack(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %n = array.dim %xs, 0 : tensor<?xf32>
  %is = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %j = arith.addi %i, %c3 : index
    %k = arith.subi %j, %c3 : index
    array.yield %k : index
  }
  %ys = array.gather %xs[%is] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
  return %ys : tensor<?xf32>
}

// CHECK-LABEL: func.func @reverseOnce(
// CHECK: array.generate
// CHECK: array.gather
func.func @reverseOnce(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r1 = array.reverse %xs : tensor<?xf32>
  return %r1 : tensor<?xf32>
}

// Over a different extent the identity function is not the identity gather.
// CHECK-LABEL: func.func @prefix(
// CHECK: array.gather
func.func @prefix(%xs: tensor<?xf32>, %m: index) -> tensor<?xf32> {
  %is = array.generate (%m) : tensor<?xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  %ys = array.gather %xs[%is] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
  return %ys : tensor<?xf32>
}

// Reversing both dimensions twice in different orders is still the identity, but a
// transpose is not.
// CHECK-LABEL: func.func @transpose(
// CHECK: array.gather
func.func @transpose(%xs: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %n = array.dim %xs, 0 : tensor<?x?xf32>
  %is:2 = array.generate (%n, %n) : tensor<?x?xindex>, tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %j, %i : index, index
  }
  %ys = array.gather %xs[%is#0, %is#1] : tensor<?x?xf32>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf32>
  return %ys : tensor<?x?xf32>
}
