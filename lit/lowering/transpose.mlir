// `array.transpose` compiles: the interpreter (which reads the op as it is), the compiled
// unfused and the compiled fused program (where it is a generate + gather) agree, and no
// `array` op is left after the lowering. Transposing a matrix and scaling it is one loop
// nest: the generate of the permuted index fuses into the gather, the map into both.
// RUN: fuse-opt %s --run --check --size=7 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --array-fusion --array-to-loops | FileCheck %s --check-prefix=LOOPS
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS

// RESULT-DAG: @scaled_transpose: match (interpreter, unfused, fused)
// RESULT-DAG: @rotate_axes: match (interpreter, unfused, fused)

// LOOPS-LABEL: func.func @scaled_transpose
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS-LABEL: func.func @rotate_axes
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS: return

// CLUSTERS: "name":"scaled_transpose"
// CLUSTERS-SAME: "clusters":{{\[\[[^]]*\]\]}}
// CLUSTERS: "name":"rotate_axes"

func.func @scaled_transpose(%m: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %t = array.transpose %m [1, 0] : tensor<?x?xf64> -> tensor<?x?xf64>
  %s = array.map %t : tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64):
    %c = arith.constant 2.5 : f64
    %y = arith.mulf %x, %c : f64
    array.yield %y : f64
  }
  return %s : tensor<?x?xf64>
}

func.func @rotate_axes(%a: tensor<?x3x?xi64>) -> tensor<?x?x3xi64> {
  %t = array.transpose %a [2, 0, 1] : tensor<?x3x?xi64> -> tensor<?x?x3xi64>
  return %t : tensor<?x?x3xi64>
}
