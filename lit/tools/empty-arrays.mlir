// `--size=0` runs with empty arrays (every dynamic extent 0, an index scalar 0): the classic
// edge case. Folds of nothing give their initial values, filters keep nothing, and the
// interpreter, the compiled unfused and the compiled fused program agree.
// RUN: fuse-opt %examples/seed000_simple.mlir --run --check --size=0 | FileCheck %s --check-prefix=SIMPLE
// RUN: fuse-opt %examples/seed001_normalize2.mlir --run --check --size=0 | FileCheck %s --check-prefix=NORMALIZE
// RUN: fuse-opt %examples/seed004_expand_example.mlir --run --check --size=0 | FileCheck %s --check-prefix=EXPAND
// RUN: fuse-opt %examples/seed001_quadtree.mlir --run --check --size=0 | FileCheck %s --check-prefix=QUADTREE
// RUN: fuse-opt %s --run --size=0 | FileCheck %s --check-prefix=VALUES

// SIMPLE-COUNT-5: match (interpreter, unfused, fused)
// NORMALIZE: @normalize2: match (interpreter, unfused, fused)
// EXPAND: @expandExample: match (interpreter, unfused, fused)
// QUADTREE-COUNT-3: match (interpreter, unfused, fused)
// VALUES: @sumPlusOne: 1:i64 ({{.*}}interpreter)
// VALUES: @sumPlusOne: 1:i64 ({{.*}}compiled)

func.func @sumPlusOne(%xs: tensor<?xi64>) -> i64 {
  %one = arith.constant 1 : i64
  %s = array.fold %xs init(%one : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
