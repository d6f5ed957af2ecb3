// `array.slice` compiles: the interpreter (which reads the op as it is), the compiled
// unfused and the compiled fused program (where it is a generate + gather) agree, also
// on empty arrays, and no `array` op is left after the lowering. The two halves of each
// row, scaled and added, are one loop nest.
// RUN: fuse-opt %s --run --check --size=7 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --array-fusion --array-to-loops | FileCheck %s --check-prefix=LOOPS
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS
// RUN: fuse-opt %s --run --check --size=4 | FileCheck %s --check-prefix=RANGE

// RESULT-DAG: @halves: match (interpreter, unfused, fused)
// RESULT-DAG: @take_and_drop: match (interpreter, unfused, fused)

// LOOPS-LABEL: func.func @halves
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS-LABEL: func.func @take_and_drop
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS: return

// Both slices' generates and gathers and the map are one cluster.
// CLUSTERS: "name":"halves"
// CLUSTERS-SAME: "clusters":{{\[\[[^]]*\]\]}}

// Reading past the end is an error of the interpreter (compiled code would read out of
// range, so it is not run); an empty run (size 0) may start anywhere.
// RANGE: @out_of_range: match (both fail under the interpreter: {{.*}}error: `array.slice`: index out of bounds: the run from 2 of size 4 is outside the innermost dimension of extent 4; compiled code not run)
// RESULT-DAG: @out_of_range: match

// Row-wise: the first half of each row plus twice the second half (odd rows lose the
// middle element).
func.func @halves(%m: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %n = array.dim %m, 1 : tensor<?x?xi64>
  %h = arith.divui %n, %c2 : index
  %first = array.slice %m from %c0 size %h : tensor<?x?xi64> -> tensor<?x?xi64>
  %second = array.slice %m from %h size %h : tensor<?x?xi64> -> tensor<?x?xi64>
  %s = array.map %first, %second : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%a: i64, %b: i64):
    %b2 = arith.addi %b, %b : i64
    %y = arith.addi %a, %b2 : i64
    array.yield %y : i64
  }
  return %s : tensor<?x?xi64>
}

// The last min(n, 3) elements: drop n - k, take k.
func.func @take_and_drop(%xs: tensor<?xf64>) -> tensor<?xf64> {
  %c3 = arith.constant 3 : index
  %n = array.dim %xs, 0 : tensor<?xf64>
  %k = arith.minui %n, %c3 : index
  %skip = arith.subi %n, %k : index
  %tail = array.slice %xs from %skip size %k : tensor<?xf64> -> tensor<?xf64>
  return %tail : tensor<?xf64>
}

func.func @out_of_range(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %c2 = arith.constant 2 : index
  %n = array.dim %xs, 0 : tensor<?xi64>
  %s = array.slice %xs from %c2 size %n : tensor<?xi64> -> tensor<?xi64>
  return %s : tensor<?xi64>
}
