// Round trip of the size-changing combinators of the `array` dialect: filter
// and expand. Their results are vectors of data-dependent (dynamic) length.
//
// RUN: fuse-opt %s | fuse-opt | FileCheck %s
// RUN: fuse-opt %s --mlir-print-op-generic | fuse-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// filter
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @filter_positive(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xi64>) -> tensor<?xi64> {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[R:.*]] = array.filter %[[XS]] : tensor<?xi64> -> tensor<?xi64> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i64):
// CHECK-NEXT:      %[[P:.*]] = arith.cmpi sgt, %[[X]], %[[C0]] : i64
// CHECK-NEXT:      array.yield %[[P]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xi64>
func.func @filter_positive(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : i64
  %gts = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %p = arith.cmpi sgt, %x, %c0 : i64
    array.yield %p : i1
  }
  return %gts : tensor<?xi64>
}

// A static input still gives a dynamic result.
// CHECK-LABEL: func.func @filter_static_input(
// CHECK-SAME:      %[[XS:.*]]: tensor<8xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.filter %[[XS]] : tensor<8xf32> -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.cmpf one, %[[X]], %[[X]] : f32
// CHECK-NEXT:      array.yield %[[P]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xf32>
func.func @filter_static_input(%xs: tensor<8xf32>) -> tensor<?xf32> {
  %r = array.filter %xs : tensor<8xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %p = arith.cmpf one, %x, %x : f32
    array.yield %p : i1
  }
  return %r : tensor<?xf32>
}

// Structure of arrays: the pairs (x, i) with x < i are kept together.
// CHECK-LABEL: func.func @filter_soa(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %[[IS:.*]]: tensor<?xindex>) -> (tensor<?xf32>, tensor<?xindex>) {
// CHECK-NEXT:    %[[R:.*]]:2 = array.filter %[[XS]], %[[IS]] : tensor<?xf32>, tensor<?xindex> -> tensor<?xf32>, tensor<?xindex> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[I:.*]]: index):
// CHECK-NEXT:      %[[II:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[II]] : i64 to f32
// CHECK-NEXT:      %[[P:.*]] = arith.cmpf olt, %[[X]], %[[F]] : f32
// CHECK-NEXT:      array.yield %[[P]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1 : tensor<?xf32>, tensor<?xindex>
func.func @filter_soa(%xs: tensor<?xf32>, %is: tensor<?xindex>) -> (tensor<?xf32>, tensor<?xindex>) {
  %a, %b = array.filter %xs, %is : tensor<?xf32>, tensor<?xindex> -> tensor<?xf32>, tensor<?xindex> {
  ^bb0(%x: f32, %i: index):
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %p = arith.cmpf olt, %x, %f : f32
    array.yield %p : i1
  }
  return %a, %b : tensor<?xf32>, tensor<?xindex>
}

//===----------------------------------------------------------------------===//
// expand
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @expand_times(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xi64>) -> tensor<?xi64> {
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[R:.*]] = array.expand %[[XS]] : tensor<?xi64> -> tensor<?xi64> count {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i64):
// CHECK-NEXT:      array.yield %[[C3]] : index
// CHECK-NEXT:    } get {
// CHECK-NEXT:    ^bb0(%[[X2:.*]]: i64, %[[J:.*]]: index):
// CHECK-NEXT:      %[[JJ:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK-NEXT:      %[[Y:.*]] = arith.muli %[[X2]], %[[JJ]] : i64
// CHECK-NEXT:      array.yield %[[Y]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xi64>
func.func @expand_times(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %c3 = arith.constant 3 : index
  %ys = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%x: i64):
    array.yield %c3 : index
  } get {
  ^bb0(%x: i64, %j: index):
    %jj = arith.index_cast %j : index to i64
    %y = arith.muli %x, %jj : i64
    array.yield %y : i64
  }
  return %ys : tensor<?xi64>
}

// Structure of arrays: segments of (start, length) pairs expanded into two
// results of different element types (flattening a ragged array whose rows
// are read from a free variable).
// CHECK-LABEL: func.func @expand_soa(
// CHECK-SAME:      %[[STARTS:.*]]: tensor<?xindex>, %[[LENS:.*]]: tensor<?xindex>, %[[DATA:.*]]: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xindex>) {
// CHECK-NEXT:    %[[R:.*]]:2 = array.expand %[[STARTS]], %[[LENS]] : tensor<?xindex>, tensor<?xindex> -> tensor<?xf32>, tensor<?xindex> count {
// CHECK-NEXT:    ^bb0(%[[S:.*]]: index, %[[L:.*]]: index):
// CHECK-NEXT:      array.yield %[[L]] : index
// CHECK-NEXT:    } get {
// CHECK-NEXT:    ^bb0(%[[S2:.*]]: index, %[[L2:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[K:.*]] = arith.addi %[[S2]], %[[J]] : index
// CHECK-NEXT:      %[[V:.*]] = array.index %[[DATA]][%[[K]]] : tensor<?xf32>
// CHECK-NEXT:      array.yield %[[V]], %[[S2]] : f32, index
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1 : tensor<?xf32>, tensor<?xindex>
func.func @expand_soa(%starts: tensor<?xindex>, %lens: tensor<?xindex>, %data: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xindex>) {
  %vals, %segs = array.expand %starts, %lens : tensor<?xindex>, tensor<?xindex> -> tensor<?xf32>, tensor<?xindex> count {
  ^bb0(%s: index, %l: index):
    array.yield %l : index
  } get {
  ^bb0(%s: index, %l: index, %j: index):
    %k = arith.addi %s, %j : index
    %v = array.index %data[%k] : tensor<?xf32>
    array.yield %v, %s : f32, index
  }
  return %vals, %segs : tensor<?xf32>, tensor<?xindex>
}
