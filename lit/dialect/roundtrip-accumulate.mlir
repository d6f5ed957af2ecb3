// Round trip of the accumulating combinators of the `array` dialect: fold and
// the four forms of scan (left/right x inclusive/exclusive). Both act on the
// innermost dimension: a fold drops it, a scan keeps the input shape.
//
// RUN: fuse-opt %s | fuse-opt | FileCheck %s
// RUN: fuse-opt %s --mlir-print-op-generic | fuse-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// fold
//===----------------------------------------------------------------------===//

// A vector folds to a rank-0 array, read back as a scalar with array.index.
// CHECK-LABEL: func.func @fold_sum(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>) -> f32 {
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[SUM:.*]] = array.fold %[[XS]] init(%[[ZERO]] : f32) : tensor<?xf32> -> tensor<f32> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32, %[[X:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      array.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[V:.*]] = array.index %[[SUM]][] : tensor<f32>
// CHECK-NEXT:    return %[[V]] : f32
func.func @fold_sum(%xs: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sum = array.fold %xs init(%zero : f32) : tensor<?xf32> -> tensor<f32> {
  ^bb0(%acc: f32, %x: f32):
    %s = arith.addf %acc, %x : f32
    array.yield %s : f32
  }
  %v = array.index %sum[] : tensor<f32>
  return %v : f32
}

// A matrix folds row by row to a vector (tensor<?x?xf32> -> tensor<?xf32>).
// CHECK-LABEL: func.func @fold_rows(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x?xf32>, %[[INIT:.*]]: f32) -> tensor<?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.fold %[[XS]] init(%[[INIT]] : f32) : tensor<?x?xf32> -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32, %[[X:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      array.yield %[[M]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xf32>
func.func @fold_rows(%xs: tensor<?x?xf32>, %init: f32) -> tensor<?xf32> {
  %r = array.fold %xs init(%init : f32) : tensor<?x?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    %m = arith.maximumf %acc, %x : f32
    array.yield %m : f32
  }
  return %r : tensor<?xf32>
}

// Static rank-3 input; the accumulator type differs from the input element
// type (counting the true elements).
// CHECK-LABEL: func.func @fold_static_count(
// CHECK-SAME:      %[[BS:.*]]: tensor<2x3x8xi1>) -> tensor<2x3xi32> {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[R:.*]] = array.fold %[[BS]] init(%[[C0]] : i32) : tensor<2x3x8xi1> -> tensor<2x3xi32> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: i32, %[[B:.*]]: i1):
// CHECK-NEXT:      %[[E:.*]] = arith.extui %[[B]] : i1 to i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[E]] : i32
// CHECK-NEXT:      array.yield %[[S]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<2x3xi32>
func.func @fold_static_count(%bs: tensor<2x3x8xi1>) -> tensor<2x3xi32> {
  %c0 = arith.constant 0 : i32
  %r = array.fold %bs init(%c0 : i32) : tensor<2x3x8xi1> -> tensor<2x3xi32> {
  ^bb0(%acc: i32, %b: i1):
    %e = arith.extui %b : i1 to i32
    %s = arith.addi %acc, %e : i32
    array.yield %s : i32
  }
  return %r : tensor<2x3xi32>
}

// Structure of arrays: two inputs, two initial values, two results. The body
// takes the accumulators first, then the elements.
// CHECK-LABEL: func.func @fold_soa(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x?xf32>, %[[IS:.*]]: tensor<?x?xi64>) -> (tensor<?xf32>, tensor<?xi64>) {
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[R:.*]]:2 = array.fold %[[XS]], %[[IS]] init(%[[ZERO]], %[[C0]] : f32, i64) : tensor<?x?xf32>, tensor<?x?xi64> -> tensor<?xf32>, tensor<?xi64> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: i64, %[[X:.*]]: f32, %[[I:.*]]: i64):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[A]], %[[X]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[B]], %[[I]] : i64
// CHECK-NEXT:      array.yield %[[S]], %[[T]] : f32, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1 : tensor<?xf32>, tensor<?xi64>
func.func @fold_soa(%xs: tensor<?x?xf32>, %is: tensor<?x?xi64>) -> (tensor<?xf32>, tensor<?xi64>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i64
  %a, %b = array.fold %xs, %is init(%zero, %c0 : f32, i64) : tensor<?x?xf32>, tensor<?x?xi64> -> tensor<?xf32>, tensor<?xi64> {
  ^bb0(%a0: f32, %b0: i64, %x: f32, %i: i64):
    %s = arith.addf %a0, %x : f32
    %t = arith.addi %b0, %i : i64
    array.yield %s, %t : f32, i64
  }
  return %a, %b : tensor<?xf32>, tensor<?xi64>
}

// A fold result used as a free variable (array.index inside a map region).
// CHECK-LABEL: func.func @fold_then_normalise(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// CHECK:         %[[SUM:.*]] = array.fold %[[XS]] init(%{{.*}} : f32) : tensor<?xf32> -> tensor<f32> {
// CHECK:         %[[YS:.*]] = array.map %[[XS]] : tensor<?xf32> -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = array.index %[[SUM]][] : tensor<f32>
// CHECK-NEXT:      %[[Y:.*]] = arith.divf %[[X]], %[[T]] : f32
// CHECK-NEXT:      array.yield %[[Y]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[YS]] : tensor<?xf32>
func.func @fold_then_normalise(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %sum = array.fold %xs init(%zero : f32) : tensor<?xf32> -> tensor<f32> {
  ^bb0(%acc: f32, %x: f32):
    %s = arith.addf %acc, %x : f32
    array.yield %s : f32
  }
  %ys = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %t = array.index %sum[] : tensor<f32>
    %y = arith.divf %x, %t : f32
    array.yield %y : f32
  }
  return %ys : tensor<?xf32>
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @scan_left_inclusive(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xi64>, %[[Z:.*]]: i64) -> tensor<?xi64> {
// CHECK-NEXT:    %[[R:.*]] = array.scan left inclusive %[[XS]] init(%[[Z]] : i64) : tensor<?xi64> -> tensor<?xi64> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: i64, %[[X:.*]]: i64):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[X]] : i64
// CHECK-NEXT:      array.yield %[[S]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xi64>
func.func @scan_left_inclusive(%xs: tensor<?xi64>, %z: i64) -> tensor<?xi64> {
  %ps = array.scan left inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  return %ps : tensor<?xi64>
}

// CHECK-LABEL: func.func @scan_left_exclusive(
// CHECK-SAME:      %[[XS:.*]]: tensor<16xi64>, %[[Z:.*]]: i64) -> tensor<16xi64> {
// CHECK-NEXT:    %[[R:.*]] = array.scan left exclusive %[[XS]] init(%[[Z]] : i64) : tensor<16xi64> -> tensor<16xi64> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: i64, %[[X:.*]]: i64):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[X]] : i64
// CHECK-NEXT:      array.yield %[[S]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<16xi64>
func.func @scan_left_exclusive(%xs: tensor<16xi64>, %z: i64) -> tensor<16xi64> {
  %ps = array.scan left exclusive %xs init(%z : i64) : tensor<16xi64> -> tensor<16xi64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  return %ps : tensor<16xi64>
}

// A right scan along the rows of a matrix.
// CHECK-LABEL: func.func @scan_right_inclusive(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x?xf32>, %[[Z:.*]]: f32) -> tensor<?x?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.scan right inclusive %[[XS]] init(%[[Z]] : f32) : tensor<?x?xf32> -> tensor<?x?xf32> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32, %[[X:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      array.yield %[[M]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?x?xf32>
func.func @scan_right_inclusive(%xs: tensor<?x?xf32>, %z: f32) -> tensor<?x?xf32> {
  %ps = array.scan right inclusive %xs init(%z : f32) : tensor<?x?xf32> -> tensor<?x?xf32> {
  ^bb0(%acc: f32, %x: f32):
    %m = arith.maximumf %acc, %x : f32
    array.yield %m : f32
  }
  return %ps : tensor<?x?xf32>
}

// A right exclusive scan of two arrays at once, with a static extent that
// agrees with a dynamic one.
// CHECK-LABEL: func.func @scan_right_exclusive_soa(
// CHECK-SAME:      %[[XS:.*]]: tensor<3x?xi32>, %[[YS:.*]]: tensor<?x5xf64>) -> (tensor<3x5xi32>, tensor<?x?xf64>) {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:    %[[R:.*]]:2 = array.scan right exclusive %[[XS]], %[[YS]] init(%[[C0]], %[[ONE]] : i32, f64) : tensor<3x?xi32>, tensor<?x5xf64> -> tensor<3x5xi32>, tensor<?x?xf64> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: f64, %[[X:.*]]: i32, %[[Y:.*]]: f64):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[X]] : i32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[B]], %[[Y]] : f64
// CHECK-NEXT:      array.yield %[[S]], %[[P]] : i32, f64
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1 : tensor<3x5xi32>, tensor<?x?xf64>
func.func @scan_right_exclusive_soa(%xs: tensor<3x?xi32>, %ys: tensor<?x5xf64>) -> (tensor<3x5xi32>, tensor<?x?xf64>) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %a, %b = array.scan right exclusive %xs, %ys init(%c0, %one : i32, f64) : tensor<3x?xi32>, tensor<?x5xf64> -> tensor<3x5xi32>, tensor<?x?xf64> {
  ^bb0(%a0: i32, %b0: f64, %x: i32, %y: f64):
    %s = arith.addi %a0, %x : i32
    %p = arith.mulf %b0, %y : f64
    array.yield %s, %p : i32, f64
  }
  return %a, %b : tensor<3x5xi32>, tensor<?x?xf64>
}

// An attribute dictionary goes after the region-less prefix, before the colon.
// CHECK-LABEL: func.func @scan_attr_dict(
// CHECK:         array.scan left inclusive %{{.*}} init(%{{.*}} : i64) {fusion.label = 1 : i64} : tensor<?xi64> -> tensor<?xi64> {
func.func @scan_attr_dict(%xs: tensor<?xi64>, %z: i64) -> tensor<?xi64> {
  %ps = array.scan left inclusive %xs init(%z : i64) {fusion.label = 1 : i64} : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    array.yield %x : i64
  }
  return %ps : tensor<?xi64>
}

// Two accumulators share one input (the counts of inputs and accumulators are
// independent): the sum and the sum of squares in one pass.
// CHECK-LABEL: func.func @fold_shared_input(
// CHECK:         %{{.*}}:2 = array.fold %{{.*}} init(%{{.*}}, %{{.*}} : f32, f32) : tensor<?xf32> -> tensor<f32>, tensor<f32> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
func.func @fold_shared_input(%xs: tensor<?xf32>) -> (tensor<f32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %s, %q = array.fold %xs init(%zero, %zero : f32, f32) : tensor<?xf32> -> tensor<f32>, tensor<f32> {
  ^bb0(%s0: f32, %q0: f32, %x: f32):
    %s1 = arith.addf %s0, %x : f32
    %xx = arith.mulf %x, %x : f32
    %q1 = arith.addf %q0, %xx : f32
    array.yield %s1, %q1 : f32, f32
  }
  return %s, %q : tensor<f32>, tensor<f32>
}
