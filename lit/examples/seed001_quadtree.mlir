// Parses, verifies and pins examples/seed001_quadtree.mlir
// (seed 001 §1.5.3, Listing 1.3: quadtree, initialBounds, go).
// RUN: fuse-opt %examples/seed001_quadtree.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed001_quadtree.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed001_quadtree.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @quadtree(
// CHECK-SAME:    %[[PTS:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> i64
// CHECK:         %[[B:[0-9]+]]:4 = call @initialBounds(%[[PTS]])
// CHECK:         %[[BOX:.+]] = tensor.from_elements
// CHECK:         call @go(%[[PTS]], %[[BOX]])

// CHECK-LABEL: func.func @initialBounds(
// CHECK-SAME:    %[[PTS:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>)
// CHECK:         %[[XS:[0-9]+]] = array.map %[[PTS]] : tensor<?xcomplex<f64>> -> tensor<?xf64>
// CHECK:           complex.re
// CHECK:         %[[YS:[0-9]+]] = array.map %[[PTS]] : tensor<?xcomplex<f64>> -> tensor<?xf64>
// CHECK:           complex.im
// CHECK:         %[[X1:[0-9]+]] = array.fold %[[XS]] init(%{{.+}} : f64) : tensor<?xf64> -> tensor<f64>
// CHECK:           arith.minimumf
// CHECK:         %[[X2:[0-9]+]] = array.fold %[[XS]] init(%{{.+}} : f64) : tensor<?xf64> -> tensor<f64>
// CHECK:           arith.maximumf
// CHECK:         %[[Y1:[0-9]+]] = array.fold %[[YS]] init(%{{.+}} : f64) : tensor<?xf64> -> tensor<f64>
// CHECK:           arith.minimumf
// CHECK:         %[[Y2:[0-9]+]] = array.fold %[[YS]] init(%{{.+}} : f64) : tensor<?xf64> -> tensor<f64>
// CHECK:           arith.maximumf
// CHECK:         return %[[X1]], %[[Y1]], %[[X2]], %[[Y2]] :

// CHECK-LABEL: func.func @go(
// CHECK-SAME:    %[[INS:arg[0-9]+]]: tensor<?xcomplex<f64>>, %[[BOX:arg[0-9]+]]: tensor<4xf64>) -> i64
// CHECK:         array.dim %[[INS]], 0
// CHECK:         scf.if
// CHECK:           func.call @nil()
// CHECK:         } else {
// CHECK:           func.call @smallbox(%[[BOX]])
// CHECK:           scf.if
// CHECK:             func.call @leafArray(%[[INS]])
// CHECK:           } else {
// CHECK:             %[[BS:[0-9]+]]:4 = func.call @splitbox(%[[BOX]])
// CHECK:             %[[P1:[0-9]+]] = array.filter %[[INS]] : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>>
// CHECK-COUNT-4:       array.index %[[BS]]#0[
// CHECK:             %[[P2:[0-9]+]] = array.filter %[[INS]]
// CHECK-COUNT-4:       array.index %[[BS]]#1[
// CHECK:             %[[P3:[0-9]+]] = array.filter %[[INS]]
// CHECK-COUNT-4:       array.index %[[BS]]#2[
// CHECK:             %[[P4:[0-9]+]] = array.filter %[[INS]]
// CHECK-COUNT-4:       array.index %[[BS]]#3[
// CHECK:             %[[Q1:[0-9]+]] = func.call @go(%[[P1]], %[[BS]]#0)
// CHECK:             %[[Q2:[0-9]+]] = func.call @go(%[[P2]], %[[BS]]#1)
// CHECK:             %[[Q3:[0-9]+]] = func.call @go(%[[P3]], %[[BS]]#2)
// CHECK:             %[[Q4:[0-9]+]] = func.call @go(%[[P4]], %[[BS]]#3)
// CHECK:             func.call @tree(%[[Q1]], %[[Q2]], %[[Q3]], %[[Q4]])
// CHECK-NOT:     array.
// CHECK:         return

// The stand-ins of the external functions (not from the seed).
// CHECK-LABEL: func.func private @splitbox(
// CHECK-SAME:    %[[SBOX:arg[0-9]+]]: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>)
// CHECK-COUNT-4: array.index %[[SBOX]][
// CHECK-COUNT-4: tensor.from_elements
// CHECK-LABEL: func.func private @smallbox(
// CHECK-SAME:    tensor<4xf64>) -> i1
// CHECK-COUNT-2: arith.cmpf ole
// CHECK-LABEL: func.func private @nil() -> i64
// CHECK-LABEL: func.func private @leafArray(
// CHECK-SAME:    %[[LINS:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> i64
// CHECK:         array.dim %[[LINS]], 0
// CHECK-LABEL: func.func private @tree(
// CHECK-SAME:    i64, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: i64) -> i64

// CANON-LABEL: func.func @quadtree(
// CANON:         call @initialBounds
// CANON:         call @go
// CANON-LABEL: func.func @initialBounds(
// CANON-COUNT-2: array.map
// CANON-COUNT-4: array.fold
// CANON-LABEL: func.func @go(
// CANON:         array.dim
// CANON:         func.call @splitbox
// CANON-COUNT-4: array.filter
// CANON-COUNT-4: func.call @go
