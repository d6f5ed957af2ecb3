// `array.concat` compiles: the interpreter (which reads the op as it is), the compiled
// unfused and the compiled fused program (where it is a generate reading both operands
// in a `scf.if`) agree, also on empty arrays, and no `array` op is left after the
// lowering. The operands are free variables of the generate, so they are computed in
// loops of their own before it; the map after it fuses with it.
// RUN: fuse-opt %s --run --check --size=6 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --array-fusion --array-to-loops | FileCheck %s --check-prefix=LOOPS
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS

// RESULT-DAG: @rows_then_squares: match (interpreter, unfused, fused)
// RESULT-DAG: @append_reversed: match (interpreter, unfused, fused)

// LOOPS-LABEL: func.func @rows_then_squares
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS-LABEL: func.func @append_reversed
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS: return

// CLUSTERS: "name":"rows_then_squares"
// CLUSTERS-SAME: "clusters":{{\[\["sq"\],\["c","doubled"\]\]}}

func.func @rows_then_squares(%m: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %sq = array.map %m : tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %c = array.concat %m, %sq : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64>
  %doubled = array.map %c : tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %x : i64
    array.yield %y : i64
  }
  return %doubled : tensor<?x?xi64>
}

// Static extents: 3 + the dynamic length.
func.func @append_reversed(%xs: tensor<?xf64>, %head: tensor<3xf64>) -> tensor<?xf64> {
  %r = array.reverse %xs : tensor<?xf64>
  %c = array.concat %head, %r : tensor<3xf64>, tensor<?xf64> -> tensor<?xf64>
  return %c : tensor<?xf64>
}
