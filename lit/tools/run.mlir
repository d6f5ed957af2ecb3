// `fuse-opt --run` runs every public function with the reference interpreter and
// compiled (JIT) on generated inputs; `--run --check` compares the interpreter with the
// compiled unfused and the compiled fused (array-fusion) program and says `match`.
// RUN: fuse-opt %s --run | FileCheck %s --check-prefix=OUT
// RUN: fuse-opt %s --run --check | FileCheck %s --check-prefix=CHECK
// RUN: fuse-opt %examples/seed002_normalise2.mlir --run --check --size=100 | FileCheck %s --check-prefix=EXAMPLE
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed001_normalize2.mlir --run --check --openmp --size=1000 | FileCheck %s --check-prefix=OMP
// RUN: not fuse-opt %s --check 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fuse-opt %s --run --check --cost=reads-writes+2*nothing 2>&1 | FileCheck %s --check-prefix=BADCOST
// RUN: not fuse-opt %s --emit-llvm=%t.ll --cost= 2>&1 | FileCheck %s --check-prefix=NOCOST
// --size applies to every dynamic dimension: a matrix at 10^6 would have 10^12 elements,
// an error before anything is generated (it used to abort on the allocation).
// RUN: not fuse-opt %examples/seed000_simple.mlir --run --function=simple4 --size=1000000 2>&1 | FileCheck %s --check-prefix=HUGE

// OUT: @squares: tensor<5xi64>[0, 1, 4, 9, 16] ({{.*}} interpreter)
// OUT: @squares: tensor<5xi64>[0, 1, 4, 9, 16] ({{.*}} compiled)
// OUT: @sumSquares: tensor<i64>[30] ({{.*}} interpreter)
// OUT: @sumSquares: tensor<i64>[30] ({{.*}} compiled)
// CHECK: @squares: match (interpreter, unfused, fused)
// CHECK: @sumSquares: match (interpreter, unfused, fused)
// EXAMPLE: @normalise2: match
// EXAMPLE: @normalise2Extended: match
// OMP: @normalize2: match (interpreter, unfused, fused)
// BAD: fuse-opt: error: --check needs --run
// BADCOST: fuse-opt: error: --cost: unknown cost model 'nothing'
// NOCOST: fuse-opt: error: --cost: empty cost function
// HUGE: fuse-opt: error: @simple4: argument 1 (tensor<?x?xi64>) would have 1000000000000 elements at size 1000000 (every dynamic dimension gets the size), and the generated arguments are limited to 268435456 elements in all: give a smaller --size

func.func @squares() -> tensor<5xi64> {
  %n = arith.constant 5 : index
  %is = array.generate (%n) : tensor<5xi64> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i64
    array.yield %x : i64
  }
  %sq = array.map %is : tensor<5xi64> -> tensor<5xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  return %sq : tensor<5xi64>
}

func.func @sumSquares() -> tensor<i64> {
  %n = arith.constant 5 : index
  %zero = arith.constant 0 : i64
  %is = array.generate (%n) : tensor<5xi64> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i64
    array.yield %x : i64
  }
  %sq = array.map %is : tensor<5xi64> -> tensor<5xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %s = array.fold %sq init(%zero : i64) : tensor<5xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  return %s : tensor<i64>
}
