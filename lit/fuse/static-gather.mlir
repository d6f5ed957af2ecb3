// A producer fused into a gather runs over the gather's index space: with static
// shapes, horizontal(cs over 8, vertical(as over 4 in the gather's order, gather over 8))
// is one iteration space and verifies.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion))' | FileCheck %s
// CHECK: array.cluster
// CHECK: array.horizontal
// CHECK: array.vertical
// CHECK: array.gather
func.func @static_gather(%is: tensor<8xindex>, %xs: tensor<4xi64>) -> (tensor<8xi64>, tensor<8xindex>) {
  %cs = array.map %is : tensor<8xindex> -> tensor<8xindex> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %j = arith.addi %i, %c1 : index
    array.yield %j : index
  }
  %as = array.map %xs : tensor<4xi64> -> tensor<4xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %bs = array.gather %as[%is] : tensor<4xi64>[tensor<8xindex>] -> tensor<8xi64>
  return %bs, %cs : tensor<8xi64>, tensor<8xindex>
}
