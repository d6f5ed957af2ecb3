// RUN: fuse-opt %s | fuse-opt | FileCheck %s
// CHECK-LABEL: func.func @smoke
// CHECK: array.map
func.func @smoke(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %ys = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    array.yield %x : f32
  }
  return %ys : tensor<?xf32>
}
