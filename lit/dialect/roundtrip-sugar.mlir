// Round trip of the sugar of the `array` dialect (desugared by array-desugar):
// backpermute, permute (with and without the trailing i1 keep flag of its
// index region), reverse and replicate.
//
// RUN: fuse-opt %s | fuse-opt | FileCheck %s
// RUN: fuse-opt %s --mlir-print-op-generic | fuse-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// backpermute
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @backpermute_identity(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %[[N:.*]]: index) -> tensor<?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.backpermute %[[XS]] to(%[[N]]) : tensor<?xf32> -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      array.yield %[[I]] : index
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xf32>
func.func @backpermute_identity(%xs: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %ys = array.backpermute %xs to (%n) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  return %ys : tensor<?xf32>
}

// A transpose: the body swaps the two indices.
// CHECK-LABEL: func.func @backpermute_transpose(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x?xi32>, %[[M:.*]]: index, %[[N:.*]]: index) -> tensor<?x?xi32> {
// CHECK-NEXT:    %[[R:.*]] = array.backpermute %[[XS]] to(%[[N]], %[[M]]) : tensor<?x?xi32> -> tensor<?x?xi32> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      array.yield %[[J]], %[[I]] : index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?x?xi32>
func.func @backpermute_transpose(%xs: tensor<?x?xi32>, %m: index, %n: index) -> tensor<?x?xi32> {
  %ys = array.backpermute %xs to (%n, %m) : tensor<?x?xi32> -> tensor<?x?xi32> {
  ^bb0(%i: index, %j: index):
    array.yield %j, %i : index, index
  }
  return %ys : tensor<?x?xi32>
}

// The diagonal of a static matrix: a rank-1 result of a rank-2 source, with a
// constant shape operand matching the static result extent.
// CHECK-LABEL: func.func @backpermute_diagonal(
// CHECK-SAME:      %[[XS:.*]]: tensor<4x4xf64>) -> tensor<4xf64> {
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[R:.*]] = array.backpermute %[[XS]] to(%[[C4]]) : tensor<4x4xf64> -> tensor<4xf64> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      array.yield %[[I]], %[[I]] : index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<4xf64>
func.func @backpermute_diagonal(%xs: tensor<4x4xf64>) -> tensor<4xf64> {
  %c4 = arith.constant 4 : index
  %d = array.backpermute %xs to (%c4) : tensor<4x4xf64> -> tensor<4xf64> {
  ^bb0(%i: index):
    array.yield %i, %i : index, index
  }
  return %d : tensor<4xf64>
}

// A rank-0 result (one element picked out of a vector): no shape operands and
// an index region without arguments.
// CHECK-LABEL: func.func @backpermute_rank0_result(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>) -> tensor<f32> {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[R:.*]] = array.backpermute %[[XS]] to() : tensor<?xf32> -> tensor<f32> {
// CHECK-NEXT:      array.yield %[[C0]] : index
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<f32>
func.func @backpermute_rank0_result(%xs: tensor<?xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %r = array.backpermute %xs to () : tensor<?xf32> -> tensor<f32> {
    array.yield %c0 : index
  }
  return %r : tensor<f32>
}

//===----------------------------------------------------------------------===//
// permute
//===----------------------------------------------------------------------===//

// Without the keep flag: every source element is written.
// CHECK-LABEL: func.func @permute_no_keep(
// CHECK-SAME:      %[[SRC:.*]]: tensor<?xf32>, %[[DEST:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.permute %[[SRC]] into %[[DEST]] : tensor<?xf32> into tensor<?xf32> index {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      array.yield %[[I]] : index
// CHECK-NEXT:    } combine {
// CHECK-NEXT:    ^bb0(%[[OLD:.*]]: f32, %[[NEW:.*]]: f32):
// CHECK-NEXT:      array.yield %[[NEW]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xf32>
func.func @permute_no_keep(%src: tensor<?xf32>, %dest: tensor<?xf32>) -> tensor<?xf32> {
  %r = array.permute %src into %dest : tensor<?xf32> into tensor<?xf32> index {
  ^bb0(%i: index):
    array.yield %i : index
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return %r : tensor<?xf32>
}

// With the keep flag: a histogram of a matrix into a vector of counts where
// negative values are dropped. The source and destination element types and
// ranks differ.
// CHECK-LABEL: func.func @permute_keep(
// CHECK-SAME:      %[[SRC:.*]]: tensor<?x?xi64>, %[[DEST:.*]]: tensor<10xi32>) -> tensor<10xi32> {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[R:.*]] = array.permute %[[SRC]] into %[[DEST]] : tensor<?x?xi64> into tensor<10xi32> index {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[V:.*]] = array.index %[[SRC]][%[[I]], %[[J]]] : tensor<?x?xi64>
// CHECK-NEXT:      %[[T:.*]] = arith.index_cast %[[V]] : i64 to index
// CHECK-NEXT:      %[[K:.*]] = arith.cmpi sge, %[[V]], %[[C0]] : i64
// CHECK-NEXT:      array.yield %[[T]], %[[K]] : index, i1
// CHECK-NEXT:    } combine {
// CHECK-NEXT:    ^bb0(%[[OLD:.*]]: i32, %[[NEW:.*]]: i64):
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[OLD]], %[[C1]] : i32
// CHECK-NEXT:      array.yield %[[S]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<10xi32>
func.func @permute_keep(%src: tensor<?x?xi64>, %dest: tensor<10xi32>) -> tensor<10xi32> {
  %c0 = arith.constant 0 : i64
  %r = array.permute %src into %dest : tensor<?x?xi64> into tensor<10xi32> index {
  ^bb0(%i: index, %j: index):
    %v = array.index %src[%i, %j] : tensor<?x?xi64>
    %t = arith.index_cast %v : i64 to index
    %keep = arith.cmpi sge, %v, %c0 : i64
    array.yield %t, %keep : index, i1
  } combine {
  ^bb0(%old: i32, %new: i64):
    %c1 = arith.constant 1 : i32
    %s = arith.addi %old, %c1 : i32
    array.yield %s : i32
  }
  return %r : tensor<10xi32>
}

// Two destination dimensions, with the keep flag.
// CHECK-LABEL: func.func @permute_2d_keep(
// CHECK-SAME:      %[[SRC:.*]]: tensor<?xf32>, %[[DEST:.*]]: tensor<?x?xf32>, %[[FLAG:.*]]: i1) -> tensor<?x?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.permute %[[SRC]] into %[[DEST]] : tensor<?xf32> into tensor<?x?xf32> index {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      array.yield %[[I]], %[[I]], %[[FLAG]] : index, index, i1
// CHECK-NEXT:    } combine {
// CHECK-NEXT:    ^bb0(%[[OLD:.*]]: f32, %[[NEW:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[OLD]], %[[NEW]] : f32
// CHECK-NEXT:      array.yield %[[S]] : f32
// CHECK-NEXT:    }
func.func @permute_2d_keep(%src: tensor<?xf32>, %dest: tensor<?x?xf32>, %flag: i1) -> tensor<?x?xf32> {
  %r = array.permute %src into %dest : tensor<?xf32> into tensor<?x?xf32> index {
  ^bb0(%i: index):
    array.yield %i, %i, %flag : index, index, i1
  } combine {
  ^bb0(%old: f32, %new: f32):
    %s = arith.addf %old, %new : f32
    array.yield %s : f32
  }
  return %r : tensor<?x?xf32>
}

//===----------------------------------------------------------------------===//
// reverse
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reverse(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %[[M:.*]]: tensor<3x?xi8>) -> (tensor<?xf32>, tensor<3x?xi8>) {
// CHECK-NEXT:    %[[A:.*]] = array.reverse %[[XS]] : tensor<?xf32>
// CHECK-NEXT:    %[[B:.*]] = array.reverse %[[M]] : tensor<3x?xi8>
// CHECK-NEXT:    return %[[A]], %[[B]] : tensor<?xf32>, tensor<3x?xi8>
func.func @reverse(%xs: tensor<?xf32>, %m: tensor<3x?xi8>) -> (tensor<?xf32>, tensor<3x?xi8>) {
  %a = array.reverse %xs : tensor<?xf32>
  %b = array.reverse %m : tensor<3x?xi8>
  return %a, %b : tensor<?xf32>, tensor<3x?xi8>
}

//===----------------------------------------------------------------------===//
// replicate
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @replicate(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %[[N:.*]]: index, %[[S:.*]]: tensor<i64>) -> (tensor<?x?xf32>, tensor<?x4xf32>, tensor<7xi64>) {
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[A:.*]] = array.replicate %[[XS]], %[[N]] : tensor<?xf32> -> tensor<?x?xf32>
// CHECK-NEXT:    %[[B:.*]] = array.replicate %[[XS]], %[[C4]] : tensor<?xf32> -> tensor<?x4xf32>
// CHECK-NEXT:    %[[C:.*]] = array.replicate %[[S]], %[[N]] : tensor<i64> -> tensor<7xi64>
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]] : tensor<?x?xf32>, tensor<?x4xf32>, tensor<7xi64>
func.func @replicate(%xs: tensor<?xf32>, %n: index, %s: tensor<i64>) -> (tensor<?x?xf32>, tensor<?x4xf32>, tensor<7xi64>) {
  %c4 = arith.constant 4 : index
  %a = array.replicate %xs, %n : tensor<?xf32> -> tensor<?x?xf32>
  %b = array.replicate %xs, %c4 : tensor<?xf32> -> tensor<?x4xf32>
  %c = array.replicate %s, %n : tensor<i64> -> tensor<7xi64>
  return %a, %b, %c : tensor<?x?xf32>, tensor<?x4xf32>, tensor<7xi64>
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transpose_matrix(
// CHECK-SAME:      %[[M:.*]]: tensor<?x3xf64>) -> tensor<3x?xf64> {
// CHECK-NEXT:    %[[R:.*]] = array.transpose %[[M]] [1, 0] : tensor<?x3xf64> -> tensor<3x?xf64>
// CHECK-NEXT:    return %[[R]] : tensor<3x?xf64>
func.func @transpose_matrix(%m: tensor<?x3xf64>) -> tensor<3x?xf64> {
  %t = array.transpose %m [1, 0] : tensor<?x3xf64> -> tensor<3x?xf64>
  return %t : tensor<3x?xf64>
}

// CHECK-LABEL: func.func @transpose_rank3(
// CHECK:         array.transpose %{{.*}} [2, 0, 1] : tensor<2x3x4xi32> -> tensor<4x2x3xi32>
func.func @transpose_rank3(%a: tensor<2x3x4xi32>) -> tensor<4x2x3xi32> {
  %t = array.transpose %a [2, 0, 1] : tensor<2x3x4xi32> -> tensor<4x2x3xi32>
  return %t : tensor<4x2x3xi32>
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @slice_rows(
// CHECK-SAME:      %[[M:.*]]: tensor<?x?xf32>, %[[O:.*]]: index, %[[N:.*]]: index) -> tensor<?x?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.slice %[[M]] from %[[O]] size %[[N]] : tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK-NEXT:    return %[[R]] : tensor<?x?xf32>
func.func @slice_rows(%m: tensor<?x?xf32>, %o: index, %n: index) -> tensor<?x?xf32> {
  %s = array.slice %m from %o size %n : tensor<?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape_rows(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %[[R:.*]]: index) -> tensor<?x4xf32> {
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[M:.*]] = array.reshape %[[XS]] to(%[[R]], %[[C4]]) : tensor<?xf32> -> tensor<?x4xf32>
// CHECK-NEXT:    return %[[M]] : tensor<?x4xf32>
func.func @reshape_rows(%xs: tensor<?xf32>, %rows: index) -> tensor<?x4xf32> {
  %c4 = arith.constant 4 : index
  %m = array.reshape %xs to (%rows, %c4) : tensor<?xf32> -> tensor<?x4xf32>
  return %m : tensor<?x4xf32>
}

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @concat_rows(
// CHECK-SAME:      %[[A:.*]]: tensor<2x?xf32>, %[[B:.*]]: tensor<2x3xf32>) -> tensor<2x?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.concat %[[A]], %[[B]] : tensor<2x?xf32>, tensor<2x3xf32> -> tensor<2x?xf32>
// CHECK-NEXT:    return %[[R]] : tensor<2x?xf32>
func.func @concat_rows(%a: tensor<2x?xf32>, %b: tensor<2x3xf32>) -> tensor<2x?xf32> {
  %r = array.concat %a, %b : tensor<2x?xf32>, tensor<2x3xf32> -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}
