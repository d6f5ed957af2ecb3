// `array-to-loops` (third slice): a producer fused into a gather (its array.order is
// the gather's array.label) runs inside the gather's loop at the gathered index. The
// cost is the default without `chained-gathers`, which would keep simple2's gathers apart.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion{cost=reads-writes+3*gathered-folds}), array-to-loops)' | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion{cost=reads-writes+3*gathered-folds}), array-to-loops)' | fuse-opt --verify-diagnostics > /dev/null

// seed 000 simple1: map fused into the gather: one loop over is, xs read at is[k].
// CHECK-LABEL: func.func @simple1(
// CHECK-SAME:      %[[IS:.*]]: tensor<?xindex>, %[[XS:.*]]: tensor<?xi64>)
// CHECK:         %[[N:.*]] = tensor.dim %[[IS]]
// CHECK:         %[[R:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK:         %[[IB:.*]] = bufferization.to_buffer %[[IS]]
// CHECK:         %[[XB:.*]] = bufferization.to_buffer %[[XS]]
// CHECK:         scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%[[N]]) step
// CHECK-NEXT:      %[[I:.*]] = memref.load %[[IB]][%[[K]]]
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[XB]][%[[I]]]
// CHECK:           %[[T:.*]] = arith.muli %[[X]], %{{.*}} : i64
// CHECK-NEXT:      %[[A:.*]] = arith.addi %[[T]], %{{.*}} : i64
// CHECK-NEXT:      memref.store %[[A]], %[[R]][%[[K]]]
// CHECK-NOT:     scf.parallel
// CHECK-NOT:     array.
// CHECK:         return
func.func @simple1(%is: tensor<?xindex>, %xs: tensor<?xi64>) -> tensor<?xi64> {
  %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %x, %c2 : i64
    %a = arith.addi %twice, %c1 : i64
    array.yield %a : i64
  }
  %bs = array.gather %as[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  return %bs : tensor<?xi64>
}

// seed 000 simple2: two gathers: xs[is1[is2[k]]] in one loop.
// CHECK-LABEL: func.func @simple2(
// CHECK-SAME:      %[[IS1:.*]]: tensor<?xindex>, %[[IS2:.*]]: tensor<?xindex>, %[[XS:.*]]: tensor<?xi64>)
// CHECK:         %[[B2:.*]] = bufferization.to_buffer %[[IS2]]
// CHECK:         %[[B1:.*]] = bufferization.to_buffer %[[IS1]]
// CHECK:         %[[XB:.*]] = bufferization.to_buffer %[[XS]]
// CHECK:         scf.parallel (%[[K:.*]]) =
// CHECK-NEXT:      %[[J:.*]] = memref.load %[[B2]][%[[K]]]
// CHECK-NEXT:      %[[I:.*]] = memref.load %[[B1]][%[[J]]]
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[XB]][%[[I]]]
// CHECK-NEXT:      memref.store %[[X]], %{{.*}}[%[[K]]]
// CHECK-NOT:     array.
// CHECK:         return
func.func @simple2(%is1: tensor<?xindex>, %is2: tensor<?xindex>, %xs: tensor<?xi64>) -> tensor<?xi64> {
  %as = array.gather %xs[%is1] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  %bs = array.gather %as[%is2] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  return %bs : tensor<?xi64>
}
