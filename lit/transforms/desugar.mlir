// array-desugar rewrites the sugar into generate + gather/scatter (seed 000 §2.1).
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-desugar))' --verify-diagnostics | FileCheck %s
// The desugared program is what the analysis sees: the whole pipeline runs on it.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion))' --verify-diagnostics -o /dev/null

// CHECK-LABEL: func.func @reverse2d(
// CHECK-SAME: %[[XS:.+]]: tensor<?x?xf32>
// CHECK: %[[N0:.+]] = array.dim %[[XS]], 0 : tensor<?x?xf32>
// CHECK: %[[N1:.+]] = array.dim %[[XS]], 1 : tensor<?x?xf32>
// CHECK: %[[IS:.+]]:2 = array.generate(%[[N0]], %[[N1]]) : tensor<?x?xindex>, tensor<?x?xindex> {
// CHECK-NEXT: ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[M:.+]] = arith.subi %[[N1]], %[[J]] : index
// CHECK-NEXT: %[[K:.+]] = arith.subi %[[M]], %[[ONE]] : index
// CHECK-NEXT: array.yield %[[I]], %[[K]] : index, index
// CHECK: %[[R:.+]] = array.gather %[[XS]][%[[IS]]#0, %[[IS]]#1] : tensor<?x?xf32>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf32>
// CHECK-NOT: array.reverse
// CHECK: return %[[R]]
func.func @reverse2d(%xs: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = array.reverse %xs : tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// The generate runs over the permuted dims and yields the source index: for
// permutation [2, 0, 1], result index (i, j, k) reads source index (j, k, i).
// CHECK-LABEL: func.func @transpose3d(
// CHECK-SAME: %[[XS:.+]]: tensor<?x?x5xf32>
// CHECK: %[[N0:.+]] = array.dim %[[XS]], 0 : tensor<?x?x5xf32>
// CHECK: %[[N1:.+]] = array.dim %[[XS]], 1 : tensor<?x?x5xf32>
// CHECK: %[[N2:.+]] = array.dim %[[XS]], 2 : tensor<?x?x5xf32>
// CHECK: %[[IS:.+]]:3 = array.generate(%[[N2]], %[[N0]], %[[N1]]) : tensor<5x?x?xindex>, tensor<5x?x?xindex>, tensor<5x?x?xindex> {
// CHECK-NEXT: ^bb0(%[[I:.+]]: index, %[[J:.+]]: index, %[[K:.+]]: index):
// CHECK-NEXT: array.yield %[[J]], %[[K]], %[[I]] : index, index, index
// CHECK: %[[R:.+]] = array.gather %[[XS]][%[[IS]]#0, %[[IS]]#1, %[[IS]]#2] : tensor<?x?x5xf32>[tensor<5x?x?xindex>, tensor<5x?x?xindex>, tensor<5x?x?xindex>] -> tensor<5x?x?xf32>
// CHECK-NOT: array.transpose
// CHECK: return %[[R]]
func.func @transpose3d(%xs: tensor<?x?x5xf32>) -> tensor<5x?x?xf32> {
  %t = array.transpose %xs [2, 0, 1] : tensor<?x?x5xf32> -> tensor<5x?x?xf32>
  return %t : tensor<5x?x?xf32>
}

// CHECK-LABEL: func.func @slice2d(
// CHECK-SAME: %[[XS:.+]]: tensor<?x?xf32>, %[[O:.+]]: index, %[[N:.+]]: index
// CHECK: %[[N0:.+]] = array.dim %[[XS]], 0 : tensor<?x?xf32>
// CHECK: %[[IS:.+]]:2 = array.generate(%[[N0]], %[[N]]) : tensor<?x?xindex>, tensor<?x?xindex> {
// CHECK-NEXT: ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT: %[[K:.+]] = arith.addi %[[O]], %[[J]] : index
// CHECK-NEXT: array.yield %[[I]], %[[K]] : index, index
// CHECK: %[[R:.+]] = array.gather %[[XS]][%[[IS]]#0, %[[IS]]#1] : tensor<?x?xf32>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xf32>
// CHECK-NOT: array.slice
// CHECK: return %[[R]]
func.func @slice2d(%xs: tensor<?x?xf32>, %o: index, %n: index) -> tensor<?x?xf32> {
  %s = array.slice %xs from %o size %n : tensor<?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// The output index (i, j) of shape (r, 4) is position k = i·4 + j, split along the
// source's extents (n0, n1): (k / n1, k mod n1).
// CHECK-LABEL: func.func @reshape2d(
// CHECK-SAME: %[[XS:.+]]: tensor<?x?xf32>, %[[R:.+]]: index
// CHECK: %[[N1:.+]] = array.dim %[[XS]], 1 : tensor<?x?xf32>
// CHECK: %[[IS:.+]]:2 = array.generate(%[[R]], %[[C4:.+]]) : tensor<?x4xindex>, tensor<?x4xindex> {
// CHECK-NEXT: ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT: %[[S:.+]] = arith.muli %[[I]], %[[C4]] : index
// CHECK-NEXT: %[[K:.+]] = arith.addi %[[S]], %[[J]] : index
// CHECK-NEXT: %[[LO:.+]] = arith.remui %[[K]], %[[N1]] : index
// CHECK-NEXT: %[[HI:.+]] = arith.divui %[[K]], %[[N1]] : index
// CHECK-NEXT: array.yield %[[HI]], %[[LO]] : index, index
// CHECK: %[[M:.+]] = array.gather %[[XS]][%[[IS]]#0, %[[IS]]#1] : tensor<?x?xf32>[tensor<?x4xindex>, tensor<?x4xindex>] -> tensor<?x4xf32>
// CHECK-NOT: array.reshape
// CHECK: return %[[M]]
func.func @reshape2d(%xs: tensor<?x?xf32>, %rows: index) -> tensor<?x4xf32> {
  %c4 = arith.constant 4 : index
  %m = array.reshape %xs to (%rows, %c4) : tensor<?x?xf32> -> tensor<?x4xf32>
  return %m : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @concat1d(
// CHECK-SAME: %[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>
// CHECK: %[[NA:.+]] = array.dim %[[A]], 0 : tensor<?xf32>
// CHECK: %[[NB:.+]] = array.dim %[[B]], 0 : tensor<?xf32>
// CHECK: %[[N:.+]] = arith.addi %[[NA]], %[[NB]] : index
// CHECK: %[[R:.+]] = array.generate(%[[N]]) : tensor<?xf32> {
// CHECK-NEXT: ^bb0(%[[I:.+]]: index):
// CHECK-NEXT: %[[IN:.+]] = arith.cmpi ult, %[[I]], %[[NA]] : index
// CHECK-NEXT: %[[J:.+]] = arith.subi %[[I]], %[[NA]] : index
// CHECK-NEXT: %[[X:.+]] = scf.if %[[IN]] -> (f32) {
// CHECK-NEXT: %[[XA:.+]] = array.index %[[A]][%[[I]]] : tensor<?xf32>
// CHECK-NEXT: scf.yield %[[XA]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[XB:.+]] = array.index %[[B]][%[[J]]] : tensor<?xf32>
// CHECK-NEXT: scf.yield %[[XB]] : f32
// CHECK: array.yield %[[X]] : f32
// CHECK-NOT: array.concat
// CHECK: return %[[R]]
func.func @concat1d(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = array.concat %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %c : tensor<?xf32>
}

// CHECK-LABEL: func.func @backpermute(
// CHECK-SAME: %[[XS:.+]]: tensor<?xf32>, %[[N:.+]]: index
// CHECK: %[[IS:.+]] = array.generate(%[[N]]) : tensor<?xindex> {
// CHECK: arith.muli
// CHECK: %[[YS:.+]] = array.gather %[[XS]][%[[IS]]] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
// CHECK-NOT: array.backpermute
func.func @backpermute(%xs: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %ys = array.backpermute %xs to (%n) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    %c2 = arith.constant 2 : index
    %j = arith.muli %i, %c2 : index
    array.yield %j : index
  }
  return %ys : tensor<?xf32>
}

// CHECK-LABEL: func.func @replicate(
// CHECK: %[[IS:.+]]:2 = array.generate(%{{.+}}, %{{.+}}, %{{.+}}) : tensor<?x?x?xindex>, tensor<?x?x?xindex> {
// CHECK-NEXT: ^bb0(%[[I:.+]]: index, %[[J:.+]]: index, %{{.+}}: index):
// CHECK-NEXT: array.yield %[[I]], %[[J]] : index, index
// CHECK: array.gather %{{.+}}[%[[IS]]#0, %[[IS]]#1] : tensor<?x?xf32>[tensor<?x?x?xindex>, tensor<?x?x?xindex>] -> tensor<?x?x?xf32>
func.func @replicate(%xs: tensor<?x?xf32>, %m: index) -> tensor<?x?x?xf32> {
  %r = array.replicate %xs, %m : tensor<?x?xf32> -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// CHECK-LABEL: func.func @permute(
// CHECK-SAME: %[[DEST:.+]]: tensor<?xf32>, %[[SRC:.+]]: tensor<?xf32>
// CHECK: %[[TARGETS:.+]] = array.generate(%{{.+}}) : tensor<?xindex> {
// CHECK: %[[P:.+]] = array.scatter %[[DEST]][%[[TARGETS]]], %[[SRC]] : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
// CHECK-NEXT: ^bb0(%[[OLD:.+]]: f32, %[[NEW:.+]]: f32):
// CHECK-NEXT: arith.addf %[[OLD]], %[[NEW]]
// CHECK-NOT: array.permute
func.func @permute(%dest: tensor<?xf32>, %src: tensor<?xf32>) -> tensor<?xf32> {
  %p = array.permute %src into %dest : tensor<?xf32> into tensor<?xf32> index {
  ^bb0(%i: index):
    array.yield %i : index
  } combine {
  ^bb0(%old: f32, %new: f32):
    %a = arith.addf %old, %new : f32
    array.yield %a : f32
  }
  return %p : tensor<?xf32>
}

// A keep-flag permute (seed 004's `Nothing` target) is a generate of the targets and the
// flags, then a scatter that drops the positions whose flag is false; a rank-0 replicate
// becomes a generate reading the scalar.
// CHECK-LABEL: func.func @kept(
// CHECK-SAME: %[[DEST:[^:]+]]: tensor<?xf32>, %[[SRC:[^:]+]]: tensor<?xf32>
// CHECK: %[[N:.+]] = array.dim %[[SRC]], 0 : tensor<?xf32>
// CHECK: %[[TK:.+]]:2 = array.generate(%[[N]]) : tensor<?xindex>, tensor<?xi1> {
// CHECK: array.yield %{{.*}}, %{{.*}} : index, i1
// CHECK: array.scatter %[[DEST]][%[[TK]]#0] keep(%[[TK]]#1 : tensor<?xi1>), %[[SRC]] : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
// CHECK-NOT: array.permute
// CHECK: array.generate(%arg3) : tensor<?xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: %[[S:.*]] = array.index %arg2[] : tensor<f32>
// CHECK-NEXT: array.yield %[[S]] : f32
// CHECK-NOT: array.replicate
// CHECK: return
func.func @kept(%dest: tensor<?xf32>, %src: tensor<?xf32>, %s: tensor<f32>, %m: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %q = array.permute %src into %dest : tensor<?xf32> into tensor<?xf32> index {
  ^bb0(%i: index):
    %t = arith.constant true
    array.yield %i, %t : index, i1
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  %z = array.replicate %s, %m : tensor<f32> -> tensor<?xf32>
  return %q, %z : tensor<?xf32>, tensor<?xf32>
}
