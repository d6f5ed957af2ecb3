// The generic form of the `array` ops: how the properties (scan direction and
// kind as i32 enum values, dim's dimension, the operand segment sizes of fold
// and scan) are encoded, and that generic input parses into the custom form.
//
// RUN: fuse-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuse-opt %s --mlir-print-op-generic | fuse-opt | FileCheck %s --check-prefix=CUSTOM

// GENERIC-LABEL: sym_name = "properties"
// GENERIC:         "array.scan"(%{{.*}}, %{{.*}}) <{direction = 0 : i32, kind = 0 : i32, operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC:         }) : (tensor<?xi64>, i64) -> tensor<?xi64>
// GENERIC:         "array.scan"(%{{.*}}, %{{.*}}) <{direction = 0 : i32, kind = 1 : i32, operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC:         "array.scan"(%{{.*}}, %{{.*}}) <{direction = 1 : i32, kind = 0 : i32, operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC:         "array.scan"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{direction = 1 : i32, kind = 1 : i32, operandSegmentSizes = array<i32: 2, 2>}> ({
// GENERIC:         }) : (tensor<?xi64>, tensor<?xi64>, i64, i64) -> (tensor<?xi64>, tensor<?xi64>)
// GENERIC:         "array.fold"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC:         }) : (tensor<?xi64>, i64) -> tensor<i64>
// GENERIC:         "array.index"(%{{.*}}) : (tensor<i64>) -> i64
// GENERIC:         "array.dim"(%{{.*}}) <{dimension = 1 : i64}> : (tensor<?x?xf32>) -> index
// GENERIC:         "array.size"(%{{.*}}) : (tensor<?x?xf32>) -> (index, index)

// CUSTOM-LABEL: func.func @properties(
// CUSTOM:         array.scan left inclusive
// CUSTOM:         array.scan left exclusive
// CUSTOM:         array.scan right inclusive
// CUSTOM:         array.scan right exclusive
// CUSTOM:         array.fold
// CUSTOM:         array.index %{{.*}}[] : tensor<i64>
// CUSTOM:         array.dim %{{.*}}, 1 : tensor<?x?xf32>
// CUSTOM:         array.size %{{.*}} : tensor<?x?xf32>
func.func @properties(%xs: tensor<?xi64>, %z: i64, %t: tensor<?x?xf32>) -> (i64, index, index, index) {
  %a = array.scan left inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    array.yield %x : i64
  }
  %b = array.scan left exclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    array.yield %x : i64
  }
  %c = array.scan right inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    array.yield %x : i64
  }
  %d:2 = array.scan right exclusive %xs, %xs init(%z, %z : i64, i64) : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%acc0: i64, %acc1: i64, %x: i64, %y: i64):
    array.yield %x, %y : i64, i64
  }
  %s = array.fold %xs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    array.yield %x : i64
  }
  %v = array.index %s[] : tensor<i64>
  %k = array.dim %t, 1 : tensor<?x?xf32>
  %m, %n = array.size %t : tensor<?x?xf32>
  return %v, %k, %m, %n : i64, index, index, index
}

// Generic input is accepted and printed in the custom form.
// CUSTOM-LABEL: func.func @generic_input(
// CUSTOM-SAME:      %[[XS:.*]]: tensor<?xf32>, %[[IS:.*]]: tensor<?xindex>) -> tensor<?xf32> {
// CUSTOM-NEXT:    %[[G:.*]] = array.gather %[[XS]][%[[IS]]] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
// CUSTOM-NEXT:    %[[R:.*]] = array.scatter %[[XS]][%[[IS]]], %[[G]] : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
// CUSTOM-NEXT:    ^bb0(%[[OLD:.*]]: f32, %[[NEW:.*]]: f32):
// CUSTOM-NEXT:      array.yield %[[NEW]] : f32
// CUSTOM-NEXT:    }
// CUSTOM-NEXT:    return %[[R]] : tensor<?xf32>
func.func @generic_input(%xs: tensor<?xf32>, %is: tensor<?xindex>) -> tensor<?xf32> {
  %g = "array.gather"(%xs, %is) : (tensor<?xf32>, tensor<?xindex>) -> tensor<?xf32>
  %r = "array.scatter"(%xs, %is, %g) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> ({
  ^bb0(%old: f32, %new: f32):
    "array.yield"(%new) : (f32) -> ()
  }) : (tensor<?xf32>, tensor<?xindex>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
