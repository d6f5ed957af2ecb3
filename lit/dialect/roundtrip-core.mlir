// Round trip of the core element-wise and index-based combinators of the
// `array` dialect: map, generate, gather, scatter, force, size, dim, index and
// yield. Both the custom and the generic form must parse back to the same
// custom form.
//
// RUN: fuse-opt %s | fuse-opt | FileCheck %s
// RUN: fuse-opt %s --mlir-print-op-generic | fuse-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// map
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @map_unary(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    %[[YS:.*]] = array.map %[[XS]] : tensor<?xf32> -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      array.yield %[[Y]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[YS]] : tensor<?xf32>
func.func @map_unary(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %ys = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    array.yield %y : f32
  }
  return %ys : tensor<?xf32>
}

// A zipWith on static vectors.
// CHECK-LABEL: func.func @map_zip_static(
// CHECK-SAME:      %[[A:.*]]: tensor<8xi32>, %[[B:.*]]: tensor<8xi32>) -> tensor<8xi32> {
// CHECK-NEXT:    %[[R:.*]] = array.map %[[A]], %[[B]] : tensor<8xi32>, tensor<8xi32> -> tensor<8xi32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[X]], %[[Y]] : i32
// CHECK-NEXT:      array.yield %[[S]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<8xi32>
func.func @map_zip_static(%a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8xi32> {
  %r = array.map %a, %b : tensor<8xi32>, tensor<8xi32> -> tensor<8xi32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    array.yield %s : i32
  }
  return %r : tensor<8xi32>
}

// Structure of arrays: two inputs, two results of different element types,
// two-dimensional, static and dynamic extents that agree.
// CHECK-LABEL: func.func @map_soa_2d(
// CHECK-SAME:      %[[XS:.*]]: tensor<4x?xf32>, %[[IS:.*]]: tensor<4x?xi64>) -> (tensor<4x?xf32>, tensor<?x?xi1>) {
// CHECK-NEXT:    %[[R:.*]]:2 = array.map %[[XS]], %[[IS]] : tensor<4x?xf32>, tensor<4x?xi64> -> tensor<4x?xf32>, tensor<?x?xi1> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[I:.*]]: i64):
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[I]] : i64 to f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[F]] : f32
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf olt, %[[X]], %[[F]] : f32
// CHECK-NEXT:      array.yield %[[S]], %[[C]] : f32, i1
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1 : tensor<4x?xf32>, tensor<?x?xi1>
func.func @map_soa_2d(%xs: tensor<4x?xf32>, %is: tensor<4x?xi64>) -> (tensor<4x?xf32>, tensor<?x?xi1>) {
  %a, %b = array.map %xs, %is : tensor<4x?xf32>, tensor<4x?xi64> -> tensor<4x?xf32>, tensor<?x?xi1> {
  ^bb0(%x: f32, %i: i64):
    %f = arith.sitofp %i : i64 to f32
    %s = arith.addf %x, %f : f32
    %c = arith.cmpf olt, %x, %f : f32
    array.yield %s, %c : f32, i1
  }
  return %a, %b : tensor<4x?xf32>, tensor<?x?xi1>
}

// A map over rank-0 arrays (fold results).
// CHECK-LABEL: func.func @map_rank0(
// CHECK-SAME:      %[[S:.*]]: tensor<f64>) -> tensor<f64> {
// CHECK-NEXT:    %[[R:.*]] = array.map %[[S]] : tensor<f64> -> tensor<f64> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f64):
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[X]] : f64
// CHECK-NEXT:      array.yield %[[N]] : f64
// CHECK-NEXT:    }
func.func @map_rank0(%s: tensor<f64>) -> tensor<f64> {
  %r = array.map %s : tensor<f64> -> tensor<f64> {
  ^bb0(%x: f64):
    %n = arith.negf %x : f64
    array.yield %n : f64
  }
  return %r : tensor<f64>
}

// An attribute dictionary is printed before the colon.
// CHECK-LABEL: func.func @map_attr_dict(
// CHECK:         array.map %{{.*}} {fusion.label = 3 : i64} : tensor<?xf32> -> tensor<?xf32> {
func.func @map_attr_dict(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %ys = array.map %xs {fusion.label = 3 : i64} : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    array.yield %x : f32
  }
  return %ys : tensor<?xf32>
}

//===----------------------------------------------------------------------===//
// generate
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @generate_1d(
// CHECK-SAME:      %[[N:.*]]: index) -> tensor<?xindex> {
// CHECK-NEXT:    %[[R:.*]] = array.generate(%[[N]]) : tensor<?xindex> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      array.yield %[[I]] : index
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xindex>
func.func @generate_1d(%n: index) -> tensor<?xindex> {
  %is = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  return %is : tensor<?xindex>
}

// Two dimensions, constant shape operands matching static result extents,
// two results.
// CHECK-LABEL: func.func @generate_2d_soa(
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[R:.*]]:2 = array.generate(%[[C3]], %[[C4]]) : tensor<3x4xf32>, tensor<3x4xi64> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[K:.*]] = arith.muli %[[I]], %[[J]] : index
// CHECK-NEXT:      %[[KI:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK-NEXT:      %[[KF:.*]] = arith.sitofp %[[KI]] : i64 to f32
// CHECK-NEXT:      array.yield %[[KF]], %[[KI]] : f32, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1 : tensor<3x4xf32>, tensor<3x4xi64>
func.func @generate_2d_soa() -> (tensor<3x4xf32>, tensor<3x4xi64>) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %a, %b = array.generate (%c3, %c4) : tensor<3x4xf32>, tensor<3x4xi64> {
  ^bb0(%i: index, %j: index):
    %k = arith.muli %i, %j : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    array.yield %kf, %ki : f32, i64
  }
  return %a, %b : tensor<3x4xf32>, tensor<3x4xi64>
}

// A rank-0 generate has no shape operands and a body without arguments.
// CHECK-LABEL: func.func @generate_rank0(
// CHECK-SAME:      %[[X:.*]]: f32) -> tensor<f32> {
// CHECK-NEXT:    %[[R:.*]] = array.generate() : tensor<f32> {
// CHECK-NEXT:      array.yield %[[X]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<f32>
func.func @generate_rank0(%x: f32) -> tensor<f32> {
  %s = array.generate () : tensor<f32> {
    array.yield %x : f32
  }
  return %s : tensor<f32>
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @gather_1d(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %[[IS:.*]]: tensor<?xindex>) -> tensor<?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.gather %[[XS]][%[[IS]]] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
// CHECK-NEXT:    return %[[R]] : tensor<?xf32>
func.func @gather_1d(%xs: tensor<?xf32>, %is: tensor<?xindex>) -> tensor<?xf32> {
  %ys = array.gather %xs[%is] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
  return %ys : tensor<?xf32>
}

// A two-dimensional source read through two i32 index arrays that are
// themselves two-dimensional (the result has their shape).
// CHECK-LABEL: func.func @gather_2d(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x?xf32>, %[[IS:.*]]: tensor<5x?xi32>, %[[JS:.*]]: tensor<5x?xi32>) -> tensor<5x?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.gather %[[XS]][%[[IS]], %[[JS]]] : tensor<?x?xf32>[tensor<5x?xi32>, tensor<5x?xi32>] -> tensor<5x?xf32>
// CHECK-NEXT:    return %[[R]] : tensor<5x?xf32>
func.func @gather_2d(%xs: tensor<?x?xf32>, %is: tensor<5x?xi32>, %js: tensor<5x?xi32>) -> tensor<5x?xf32> {
  %ys = array.gather %xs[%is, %js] : tensor<?x?xf32>[tensor<5x?xi32>, tensor<5x?xi32>] -> tensor<5x?xf32>
  return %ys : tensor<5x?xf32>
}

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @scatter_1d(
// CHECK-SAME:      %[[D:.*]]: tensor<?xf32>, %[[IS:.*]]: tensor<?xindex>, %[[VS:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.scatter %[[D]][%[[IS]]], %[[VS]] : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
// CHECK-NEXT:    ^bb0(%[[OLD:.*]]: f32, %[[NEW:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[OLD]], %[[NEW]] : f32
// CHECK-NEXT:      array.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xf32>
func.func @scatter_1d(%d: tensor<?xf32>, %is: tensor<?xindex>, %vs: tensor<?xf32>) -> tensor<?xf32> {
  %r = array.scatter %d[%is], %vs : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
  ^bb0(%old: f32, %new: f32):
    %s = arith.addf %old, %new : f32
    array.yield %s : f32
  }
  return %r : tensor<?xf32>
}

// Keep flags (seed 004's `Nothing` targets of `permute'`).
// CHECK-LABEL: func.func @scatter_keep(
// CHECK-SAME:      %[[D:.*]]: tensor<?xi64>, %[[IS:.*]]: tensor<?xi64>, %[[KS:.*]]: tensor<?xi1>, %[[VS:.*]]: tensor<?xi64>) -> tensor<?xi64> {
// CHECK-NEXT:    %[[R:.*]] = array.scatter %[[D]][%[[IS]]] keep(%[[KS]] : tensor<?xi1>), %[[VS]] : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
// CHECK-NEXT:    ^bb0(%[[OLD:.*]]: i64, %[[NEW:.*]]: i64):
// CHECK-NEXT:      array.yield %[[NEW]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<?xi64>
func.func @scatter_keep(%d: tensor<?xi64>, %is: tensor<?xi64>, %ks: tensor<?xi1>, %vs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.scatter %d[%is] keep(%ks : tensor<?xi1>), %vs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    array.yield %new : i64
  }
  return %r : tensor<?xi64>
}

// A static two-dimensional destination, two index arrays, and a value array
// whose element type differs from the destination's (a histogram of counts).
// CHECK-LABEL: func.func @scatter_2d(
// CHECK-SAME:      %[[D:.*]]: tensor<4x4xi64>, %[[IS:.*]]: tensor<?xindex>, %[[JS:.*]]: tensor<?xindex>, %[[VS:.*]]: tensor<?xi1>) -> tensor<4x4xi64> {
// CHECK-NEXT:    %[[R:.*]] = array.scatter %[[D]][%[[IS]], %[[JS]]], %[[VS]] : tensor<4x4xi64>[tensor<?xindex>, tensor<?xindex>], tensor<?xi1> combine {
// CHECK-NEXT:    ^bb0(%[[OLD:.*]]: i64, %[[NEW:.*]]: i1):
// CHECK-NEXT:      %[[E:.*]] = arith.extui %[[NEW]] : i1 to i64
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[OLD]], %[[E]] : i64
// CHECK-NEXT:      array.yield %[[S]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<4x4xi64>
func.func @scatter_2d(%d: tensor<4x4xi64>, %is: tensor<?xindex>, %js: tensor<?xindex>, %vs: tensor<?xi1>) -> tensor<4x4xi64> {
  %r = array.scatter %d[%is, %js], %vs : tensor<4x4xi64>[tensor<?xindex>, tensor<?xindex>], tensor<?xi1> combine {
  ^bb0(%old: i64, %new: i1):
    %e = arith.extui %new : i1 to i64
    %s = arith.addi %old, %e : i64
    array.yield %s : i64
  }
  return %r : tensor<4x4xi64>
}

//===----------------------------------------------------------------------===//
// force, size, dim
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @force(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x3xf32>) -> tensor<?x3xf32> {
// CHECK-NEXT:    %[[R:.*]] = array.force %[[XS]] : tensor<?x3xf32>
// CHECK-NEXT:    return %[[R]] : tensor<?x3xf32>
func.func @force(%xs: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %r = array.force %xs : tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @size_dim(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x8xf32>, %[[V:.*]]: tensor<7xi1>) -> (index, index, index, index, index) {
// CHECK-NEXT:    %[[S:.*]]:2 = array.size %[[XS]] : tensor<?x8xf32>
// CHECK-NEXT:    %[[N:.*]] = array.size %[[V]] : tensor<7xi1>
// CHECK-NEXT:    %[[D0:.*]] = array.dim %[[XS]], 0 : tensor<?x8xf32>
// CHECK-NEXT:    %[[D1:.*]] = array.dim %[[XS]], 1 : tensor<?x8xf32>
// CHECK-NEXT:    return %[[S]]#0, %[[S]]#1, %[[N]], %[[D0]], %[[D1]] : index, index, index, index, index
func.func @size_dim(%xs: tensor<?x8xf32>, %v: tensor<7xi1>) -> (index, index, index, index, index) {
  %m, %n = array.size %xs : tensor<?x8xf32>
  %k = array.size %v : tensor<7xi1>
  %d0 = array.dim %xs, 0 : tensor<?x8xf32>
  %d1 = array.dim %xs, 1 : tensor<?x8xf32>
  return %m, %n, %k, %d0, %d1 : index, index, index, index, index
}

// array.size of a rank-0 array has no results.
// CHECK-LABEL: func.func @size_rank0(
// CHECK-SAME:      %[[S:.*]]: tensor<i32>) {
// CHECK-NEXT:    array.size %[[S]] : tensor<i32>
// CHECK-NEXT:    return
func.func @size_rank0(%s: tensor<i32>) {
  array.size %s : tensor<i32>
  return
}

//===----------------------------------------------------------------------===//
// index
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @index_top_level(
// CHECK-SAME:      %[[T:.*]]: tensor<?x?xi8>, %[[S:.*]]: tensor<f32>, %[[I:.*]]: index, %[[J:.*]]: index) -> (i8, f32) {
// CHECK-NEXT:    %[[A:.*]] = array.index %[[T]][%[[I]], %[[J]]] : tensor<?x?xi8>
// CHECK-NEXT:    %[[B:.*]] = array.index %[[S]][] : tensor<f32>
// CHECK-NEXT:    return %[[A]], %[[B]] : i8, f32
func.func @index_top_level(%t: tensor<?x?xi8>, %s: tensor<f32>, %i: index, %j: index) -> (i8, f32) {
  %a = array.index %t[%i, %j] : tensor<?x?xi8>
  %b = array.index %s[] : tensor<f32>
  return %a, %b : i8, f32
}

// array.index inside a region: %t and %s are free variables of the map.
// CHECK-LABEL: func.func @index_free_variable(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xf32>, %[[T:.*]]: tensor<?x?xf32>, %[[S:.*]]: tensor<f32>) -> tensor<?xf32> {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[YS:.*]] = array.map %[[XS]] : tensor<?xf32> -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT:      %[[TV:.*]] = array.index %[[T]][%[[C0]], %[[C0]]] : tensor<?x?xf32>
// CHECK-NEXT:      %[[SV:.*]] = array.index %[[S]][] : tensor<f32>
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[X]], %[[TV]] : f32
// CHECK-NEXT:      %[[B:.*]] = arith.mulf %[[A]], %[[SV]] : f32
// CHECK-NEXT:      array.yield %[[B]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[YS]] : tensor<?xf32>
func.func @index_free_variable(%xs: tensor<?xf32>, %t: tensor<?x?xf32>, %s: tensor<f32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %ys = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %tv = array.index %t[%c0, %c0] : tensor<?x?xf32>
    %sv = array.index %s[] : tensor<f32>
    %a = arith.addf %x, %tv : f32
    %b = arith.mulf %a, %sv : f32
    array.yield %b : f32
  }
  return %ys : tensor<?xf32>
}

// array.index inside a generate body, reading at the generated index.
// CHECK-LABEL: func.func @index_in_generate(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xi64>, %[[N:.*]]: index) -> tensor<?xi64> {
// CHECK-NEXT:    %[[R:.*]] = array.generate(%[[N]]) : tensor<?xi64> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index):
// CHECK-NEXT:      %[[V:.*]] = array.index %[[XS]][%[[I]]] : tensor<?xi64>
// CHECK-NEXT:      array.yield %[[V]] : i64
// CHECK-NEXT:    }
func.func @index_in_generate(%xs: tensor<?xi64>, %n: index) -> tensor<?xi64> {
  %r = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = array.index %xs[%i] : tensor<?xi64>
    array.yield %v : i64
  }
  return %r : tensor<?xi64>
}
