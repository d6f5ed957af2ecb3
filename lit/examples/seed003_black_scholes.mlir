// Parses, verifies and pins examples/seed003_black_scholes.mlir (seed 003 Table I's
// Black–Scholes): its nine maps fuse into one loop, nothing is lowered op by op, and the
// results agree under the interpreter, compiled unfused and compiled fused, on the shipped
// inputs (16 prices; at S = X = 50, one year, 5 %, 20 %: call 5.2253, put 2.7868, the
// textbook values) and on generated ones (CPU, OpenMP, emulated GPU kernels).
// RUN: fuse-opt %examples/seed003_black_scholes.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_black_scholes.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS
// RUN: fuse-opt %examples/seed003_black_scholes.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_black_scholes.mlir --run --check | FileCheck %s --check-prefix=SHIPPED
// RUN: fuse-opt %examples/seed003_black_scholes.mlir --run --check --size=1000 --seed=3 --openmp | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed003_black_scholes.mlir --run --check --size=1000 --gpu-sim | FileCheck %s --check-prefix=RESULT
// RUN: rm -rf %t && fuse-opt %examples/seed003_black_scholes.mlir --run --output-dir=%t > /dev/null
// RUN: fuse-opt %s --run --function=element6 --input=%t/blackScholes.0.npy | FileCheck %s --check-prefix=CALL
// RUN: fuse-opt %s --run --function=element6 --input=%t/blackScholes.1.npy | FileCheck %s --check-prefix=PUT

// CHECK-LABEL: func.func @blackScholes(
// CHECK-COUNT-9: array.map

// CLUSTERS: "name":"blackScholes"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"logRatio","d1","d2","nd1","nd2","stockPart","strikePart","call","put"]]

// LOOPS-NOT: op by op

// SHIPPED: @blackScholes: match (interpreter, unfused, fused) [inputs from {{.*}}seed003_black_scholes/]
// RESULT: @blackScholes: match (interpreter, unfused, fused)

// Element 6 of the results (S = 50).
// CALL: @element6: 5.22529178609{{[0-9]*}}:f64 (
// PUT: @element6: 2.78676301112{{[0-9]*}}:f64 (
func.func @element6(%prices: tensor<16xf64>) -> f64 {
  %c6 = arith.constant 6 : index
  %p = array.index %prices[%c6] : tensor<16xf64>
  return %p : f64
}
