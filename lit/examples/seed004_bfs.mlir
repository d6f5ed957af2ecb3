// Parses, verifies and pins examples/seed004_bfs.mlir
// (seed 004 §1.4 and Appendix A.2 Listing 11: BFS step as expand + permute,
// the fusible expand + scatter variant, the distance relaxation of §1.4, and the
// whole awhile loop).
// RUN: fuse-opt %examples/seed004_bfs.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed004_bfs.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed004_bfs.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @bfsStep(
// CHECK-SAME:    %[[PARENTS:arg[0-9]+]]: tensor<?xi64>, %[[OFFSETS:arg[0-9]+]]: tensor<?xi64>, %[[EDGES:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:         %[[TOTAL:[0-9]+]] = array.dim %[[PARENTS]], 0 : tensor<?xi64>
// CHECK:         %[[FLAGS:[0-9]+]] = array.map %[[PARENTS]] : tensor<?xi64> -> tensor<?xi1>
// CHECK:         %[[IOTA:[0-9]+]] = array.generate(%[[TOTAL]]) : tensor<?xi64>
// CHECK:         %[[KNOWN:[0-9]+]]:2 = array.filter %[[FLAGS]], %[[IOTA]] : tensor<?xi1>, tensor<?xi64> -> tensor<?xi1>, tensor<?xi64>
// CHECK:         %[[E:[0-9]+]]:2 = array.expand %[[KNOWN]]#1 : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
// CHECK:           array.index %[[OFFSETS]][
// CHECK:         } get {
// CHECK:           array.index %[[EDGES]][
// CHECK:         %[[P:[0-9]+]] = array.permute %[[E]]#1 into %[[PARENTS]] : tensor<?xi64> into tensor<?xi64> index {
// CHECK-NEXT:    ^bb0(%[[I:arg[0-9]+]]: index):
// CHECK:           array.index %[[E]]#0[%[[I]]] : tensor<?xi64>
// CHECK:           array.yield %{{.+}}, %{{.+}} : index, i1
// CHECK:         } combine {
// CHECK:           arith.select
// CHECK-NOT:     array.scatter
// CHECK:         return %[[P]], %[[PARENTS]] : tensor<?xi64>, tensor<?xi64>

// CHECK-LABEL: func.func @bfsStepScatter(
// CHECK-SAME:    %[[PARENTS:arg[0-9]+]]: tensor<?xi64>, %[[OFFSETS:arg[0-9]+]]: tensor<?xi64>, %[[EDGES:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:         %[[TOTAL:[0-9]+]] = array.dim %[[PARENTS]], 0 : tensor<?xi64>
// CHECK:         %[[FLAGS:[0-9]+]] = array.map %[[PARENTS]] : tensor<?xi64> -> tensor<?xi1>
// CHECK:         %[[IOTA:[0-9]+]] = array.generate(%[[TOTAL]]) : tensor<?xi64>
// CHECK:         %[[KNOWN:[0-9]+]]:2 = array.filter %[[FLAGS]], %[[IOTA]]
// CHECK:         %[[E:[0-9]+]]:2 = array.expand %[[KNOWN]]#1 : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
// CHECK:         %[[P:[0-9]+]] = array.scatter %[[PARENTS]][%[[E]]#0], %[[E]]#1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
// CHECK-NOT:       array.index
// CHECK:         return %[[P]], %[[PARENTS]] : tensor<?xi64>, tensor<?xi64>

// CHECK-LABEL: func.func @relaxDistances(
// CHECK-SAME:    %[[DIST:arg[0-9]+]]: tensor<?xi64>, %[[FRONTIER:arg[0-9]+]]: tensor<?xi64>, %[[OFFSETS:arg[0-9]+]]: tensor<?xi64>, %[[EDGES:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[CURRENT:[0-9]+]] = array.map %[[DIST]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[E:[0-9]+]]:2 = array.expand %[[FRONTIER]] : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
// CHECK:           array.index %[[DIST]][
// CHECK:         %[[R:[0-9]+]] = array.scatter %[[CURRENT]][%[[E]]#0], %[[E]]#1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
// CHECK:           arith.minsi
// CHECK:         return %[[R]] : tensor<?xi64>

// CHECK-LABEL: func.func @bfs(
// CHECK-SAME:    %[[SRC:arg[0-9]+]]: i64, %[[TOTAL:arg[0-9]+]]: index, %[[OFFSETS:arg[0-9]+]]: tensor<?xi64>, %[[EDGES:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[PI:[0-9]+]] = array.generate(%[[TOTAL]]) : tensor<?xi64>
// CHECK:         %[[PN:[0-9]+]] = array.generate(%[[TOTAL]]) : tensor<?xi64>
// CHECK:         %[[LOOP:[0-9]+]]:2 = scf.while (%[[PAR:arg[0-9]+]] = %[[PI]], %[[OLD:arg[0-9]+]] = %[[PN]])
// CHECK:           %[[SAME:[0-9]+]] = array.map %[[PAR]], %[[OLD]] : tensor<?xi64>, tensor<?xi64> -> tensor<?xi1>
// CHECK:           %[[ALL:[0-9]+]] = array.fold %[[SAME]] init(%{{.+}} : i1) : tensor<?xi1> -> tensor<i1>
// CHECK:           %[[CHANGED:[0-9]+]] = array.map %[[ALL]] : tensor<i1> -> tensor<i1>
// CHECK:           %[[C:[0-9]+]] = array.index %[[CHANGED]][] : tensor<i1>
// CHECK:           scf.condition(%[[C]])
// CHECK:         } do {
// CHECK:           func.call @bfsStep(%{{.+}}, %[[OFFSETS]], %[[EDGES]])
// CHECK:         return %[[LOOP]]#0 : tensor<?xi64>

// CANON-LABEL: func.func @bfsStep(
// CANON:         array.dim
// CANON:         array.map
// CANON:         array.generate
// CANON:         array.filter
// CANON:         array.expand
// CANON:         array.permute
// CANON-LABEL: func.func @bfsStepScatter(
// CANON:         array.dim
// CANON:         array.map
// CANON:         array.generate
// CANON:         array.filter
// CANON:         array.expand
// CANON:         array.scatter
// CANON-LABEL: func.func @relaxDistances(
// CANON:         array.map
// CANON:         array.expand
// CANON:         array.scatter
// CANON-LABEL: func.func @bfs(
// CANON-COUNT-2: array.generate
// CANON:         scf.while
// CANON:           array.map
// CANON:           array.fold
// CANON:           array.map
// CANON:           func.call @bfsStep
