// Parses, verifies and pins examples/seed003_rosenbrock.mlir (seed 003 Table I's
// Rosenbrock function, the shifted slices as gathers at generated indices): size
// inference proves every array of the sum of one size (no warning), all 9 combinators
// fuse into one loop carrying the sum, nothing is lowered op by op, and the results agree
// under the interpreter, compiled unfused and compiled fused (CPU, OpenMP, emulated GPU
// kernels), for the empty vector and one element (both an empty sum, 0) too.
//
// Worked by hand: the shipped x = [0, 1, 2, 3] gives the terms
// 100·(1 − 0)² + (1 − 0)² = 101, 100·(2 − 1)² + (1 − 1)² = 100 and
// 100·(3 − 4)² + (1 − 2)² = 101, in all 302; and x = 8 ones (the minimum, written by
// @ones below) gives 0.
//
// The generated-input runs give --size (and --seed), so `--run` generates the inputs and
// leaves the shipped ones unread.
// RUN: fuse-opt %examples/seed003_rosenbrock.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_rosenbrock.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_rosenbrock.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_rosenbrock.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: rm -rf %t && fuse-opt %s --run --function=ones --output-dir=%t > /dev/null
// RUN: fuse-opt %examples/seed003_rosenbrock.mlir --run --input=%t/ones.0.npy | FileCheck %s --check-prefix=ONES
// RUN: fuse-opt %examples/seed003_rosenbrock.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_rosenbrock.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_rosenbrock.mlir --run --check --size=100000 --seed=6 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_rosenbrock.mlir --run --check --size=1000 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @rosenbrock(
// CHECK-COUNT-2: array.gather
// CHECK:         array.fold {{.*}} : tensor<?xf64> -> tensor<f64>

// CLUSTERS: "name":"rosenbrock"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"headIndex","tailIndex","head","tail","square","valley","slope","terms","sum"]]

// LOOPS-NOT: op by op

// HAND: @rosenbrock: tensor<f64>[302.0] ({{.*}}, interpreter) [inputs from {{.*}}seed003_rosenbrock/]
// HAND: @rosenbrock: tensor<f64>[302.0] ({{.*}}, compiled)
// ONES: @rosenbrock: tensor<f64>[0.0] ({{.*}}, interpreter)
// ONES: @rosenbrock: tensor<f64>[0.0] ({{.*}}, compiled)
// RESULT: @rosenbrock: match (interpreter, unfused, fused)

// Eight ones, the function's minimum.
func.func @ones() -> tensor<?xf64> {
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f64
  %x = array.generate (%c8) : tensor<?xf64> {
  ^bb0(%i: index):
    array.yield %one : f64
  }
  return %x : tensor<?xf64>
}
