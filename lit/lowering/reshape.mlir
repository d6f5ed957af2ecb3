// `array.reshape` compiles: the interpreter (which reads the op as it is), the compiled
// unfused and the compiled fused program (where it is a generate + gather) agree, also on
// empty arrays, and no `array` op is left after the lowering. A vector seen as rows of 2
// and summed per row: the generate, the gather and the row fold are one cluster.
// RUN: fuse-opt %s --run --check --size=8 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=2 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --array-fusion --array-to-loops | FileCheck %s --check-prefix=LOOPS
// RUN: not fuse-opt %s --run --size=3 2>&1 | FileCheck %s --check-prefix=COUNT

// RESULT-DAG: @pair_sums: match (interpreter, unfused, fused)
// RESULT-DAG: @flatten_transposed: match (interpreter, unfused, fused)

// LOOPS-LABEL: func.func @pair_sums
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS-LABEL: func.func @flatten_transposed
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS: return

// An odd count does not fit rows of 2: the interpreter says so (compiled code would
// read out of range).
// COUNT: @pair_sums: error: {{.*}}cannot reshape 3 elements of shape [3] into shape [1, 2]

func.func @pair_sums(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %c2 = arith.constant 2 : index
  %n = array.dim %xs, 0 : tensor<?xi64>
  %rows = arith.divui %n, %c2 : index
  %m = array.reshape %xs to (%rows, %c2) : tensor<?xi64> -> tensor<?x2xi64>
  %z = arith.constant 0 : i64
  %s = array.fold %m init(%z : i64) : tensor<?x2xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %y = arith.addi %acc, %x : i64
    array.yield %y : i64
  }
  return %s : tensor<?xi64>
}

// Rank 2 to rank 3 through a transpose: the row-major order of the transposed matrix.
func.func @flatten_transposed(%a: tensor<?x?xf64>) -> tensor<?x?x1xf64> {
  %c1 = arith.constant 1 : index
  %t = array.transpose %a [1, 0] : tensor<?x?xf64> -> tensor<?x?xf64>
  %r = array.dim %t, 0 : tensor<?x?xf64>
  %c = array.dim %t, 1 : tensor<?x?xf64>
  %f = array.reshape %t to (%c, %r, %c1) : tensor<?x?xf64> -> tensor<?x?x1xf64>
  return %f : tensor<?x?x1xf64>
}
