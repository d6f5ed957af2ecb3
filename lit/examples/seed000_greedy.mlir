// Parses, verifies and pins examples/seed000_greedy.mlir
// (seed 000 §5, greedyBottomUpBad and greedyTopDownBad).
// RUN: fuse-opt %examples/seed000_greedy.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed000_greedy.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_greedy.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @greedyBottomUpBad(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xf64>, %[[M:arg[0-9]+]]: index) -> tensor<?xf64>
// CHECK:         %[[N:[0-9]+]] = array.size %[[XS]] : tensor<?xf64>
// CHECK:         %[[IS:[0-9]+]] = array.generate(%[[N]], %[[M]]) : tensor<?x?xindex>
// CHECK-NEXT:    ^bb0(%[[I:arg[0-9]+]]: index, %{{arg[0-9]+}}: index):
// CHECK-NEXT:      array.yield %[[I]] : index
// CHECK:         %[[LARGE:[0-9]+]] = array.gather %[[XS]][%[[IS]]] : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
// CHECK:         %[[YS:[0-9]+]] = array.fold %[[LARGE]] init(%{{.+}} : f64) : tensor<?x?xf64> -> tensor<?xf64>
// CHECK:           arith.addf
// CHECK:         %[[ZS:[0-9]+]] = array.fold %[[LARGE]] init(%{{.+}} : f64) : tensor<?x?xf64> -> tensor<?xf64>
// CHECK:           arith.mulf
// CHECK:         %[[RESULT:[0-9]+]] = array.map %[[YS]] : tensor<?xf64> -> tensor<?xf64>
// CHECK:           array.index %[[ZS]][%{{.+}}] : tensor<?xf64>
// CHECK:         return %[[RESULT]]

// CHECK-LABEL: func.func @greedyTopDownBad(
// CHECK-SAME:    %[[AS:arg[0-9]+]]: tensor<?xi64>) -> tensor<i64>
// CHECK:         %[[N:[0-9]+]] = array.size %[[AS]] : tensor<?xi64>
// CHECK:         %[[BS:[0-9]+]] = array.map %[[AS]]
// CHECK:         %[[CS:[0-9]+]] = array.map %[[BS]]
// CHECK:         %[[DS:[0-9]+]] = array.generate(%[[N]]) : tensor<?xi64>
// CHECK:           array.index %[[BS]][%{{.+}}] : tensor<?xi64>
// CHECK:         %[[ES:[0-9]+]] = array.map %[[CS]], %[[DS]] : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[RESULT:[0-9]+]] = array.fold %[[ES]] init(%{{.+}} : i64) : tensor<?xi64> -> tensor<i64>
// CHECK:         return %[[RESULT]] : tensor<i64>

// CANON-LABEL: func.func @greedyBottomUpBad(
// CANON:         array.size
// CANON:         array.generate
// CANON:         array.gather
// CANON-COUNT-2: array.fold
// CANON:         array.map
// CANON-LABEL: func.func @greedyTopDownBad(
// CANON:         array.size
// CANON-COUNT-2: array.map
// CANON:         array.generate
// CANON:         array.map
// CANON:         array.fold
