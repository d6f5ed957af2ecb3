// The Rust pass bridge: a pass written in Rust runs from a --pass-pipeline string and
// reports through MLIR diagnostics.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(test-array-summary))' --verify-diagnostics -o /dev/null
// RUN: fuse-opt --help | FileCheck %s --check-prefix=HELP
// HELP: --test-array-summary {{.*}}Report each function's number of combinators

// expected-remark@+1 {{function 'singleLoop': 4 combinator(s), 5 array value(s) [array.reverse x1, array.map x3]}}
func.func @singleLoop(%as: tensor<?xf32>) -> tensor<?xf32> {
  %bs = array.reverse %as : tensor<?xf32>
  %cs = array.map %as : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%a: f32):
    array.yield %a : f32
  }
  %ds = array.map %cs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%c: f32):
    array.yield %c : f32
  }
  %result = array.map %bs, %cs, %ds : tensor<?xf32>, tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%b: f32, %c: f32, %d: f32):
    array.yield %b : f32
  }
  return %result : tensor<?xf32>
}

// Sizes and element reads are not combinators; a scalar fold result is an array value.
// expected-remark@+1 {{function 'sizes': 1 combinator(s), 2 array value(s) [array.fold x1]}}
func.func @sizes(%xs: tensor<?x?xf32>, %z: f32) -> (index, f32) {
  %m, %n = array.size %xs : tensor<?x?xf32>
  %sums = array.fold %xs init(%z : f32) : tensor<?x?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    %s = arith.addf %acc, %x : f32
    array.yield %s : f32
  }
  %c0 = arith.constant 0 : index
  %first = array.index %sums[%c0] : tensor<?xf32>
  return %m, %first : index, f32
}

// Declarations have no summary.
func.func private @external(tensor<?xf32>) -> tensor<?xf32>
