// `fuse-opt --run` reads arguments from .npy files (`--input=FILE`, argument i from
// the i-th file; a scalar is a 0-d array), runs one function (`--function=NAME`), and
// writes results as DIR/<function>.<i>.npy (`--output-dir=DIR`). Bad files are clear
// errors that name the file. Examples take the inputs shipped in examples/inputs/.
// RUN: rm -rf %t && mkdir -p %t
// RUN: fuse-opt %s --run --function=iota --size=5 --output-dir=%t | FileCheck %s --check-prefix=IOTA
// RUN: fuse-opt %s --run --check --function=double --input=%t/iota.0.npy --output-dir=%t | FileCheck %s --check-prefix=DOUBLE
// RUN: fuse-opt %s --run --function=double --input=%t/double.0.npy | FileCheck %s --check-prefix=AGAIN
// RUN: fuse-opt %s --run --function=count --input=%t/double.0.npy --output-dir=%t | FileCheck %s --check-prefix=COUNT
// RUN: fuse-opt %s --run --check --function=iota --input=%t/count.0.npy | FileCheck %s --check-prefix=SCALAR
// RUN: not fuse-opt %s --run --function=scale --input=%t/iota.0.npy --input=%t/count.0.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not fuse-opt %s --run --function=double --input=%t/count.0.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: head -c 164 %t/iota.0.npy > %t/cut.npy
// RUN: not fuse-opt %s --run --function=double --input=%t/cut.npy 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: python3 -c "import sys; h=b\"{'descr': '<i8', 'fortran_order': True, 'shape': (2, 2), }\"; h=h+b' '*(117-len(h))+b'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+bytes([len(h),0])+h+bytes(32))" %t/fortran.npy
// RUN: not fuse-opt %s --run --function=double --input=%t/fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// RUN: not fuse-opt %s --run --input=%t/iota.0.npy 2>&1 | FileCheck %s --check-prefix=WHICH
// RUN: not fuse-opt %s --run --function=double --input=%t/iota.0.npy --input=%t/iota.0.npy 2>&1 | FileCheck %s --check-prefix=COUNTS
// RUN: not fuse-opt %s --run --function=nope 2>&1 | FileCheck %s --check-prefix=NOPE
// RUN: not fuse-opt %s --input=%t/iota.0.npy 2>&1 | FileCheck %s --check-prefix=BARE
// RUN: fuse-opt %examples/seed004_sieve.mlir --run --function=primes | FileCheck %s --check-prefix=SHIPPED

// IOTA: @iota: tensor<5xi64>[0, 1, 2, 3, 4] ({{.*}} interpreter)
// IOTA: @iota: tensor<5xi64>[0, 1, 2, 3, 4] ({{.*}} compiled)
// DOUBLE: @double: match (interpreter, unfused, fused)
// AGAIN: @double: tensor<5xi64>[0, 4, 8, 12, 16] ({{.*}} interpreter)
// AGAIN: @double: tensor<5xi64>[0, 4, 8, 12, 16] ({{.*}} compiled)
// COUNT: @count: 5:index
// SCALAR: @iota: match (interpreter, unfused, fused)
// DTYPE: fuse-opt: error: @scale: {{.*}}iota.0.npy: dtype <i8 does not fit the argument type tensor<?xf32>
// SHAPE: fuse-opt: error: @double: {{.*}}count.0.npy: shape [] does not fit the argument type tensor<?xi64>
// CUT: fuse-opt: error: @double: {{.*}}cut.npy: the file is truncated: shape [5] of <i8 needs 40 bytes of data, it has 36
// FORTRAN: fuse-opt: error: @double: {{.*}}fortran.npy: the array is in Fortran order; only C order is supported
// WHICH: fuse-opt: error: --input: {{.*}}npy.mlir has 4 public functions; pick one with --function
// COUNTS: fuse-opt: error: @double: the function takes 1 arguments, but 2 input files are given
// NOPE: fuse-opt: error: there is no function @nope
// BARE: fuse-opt: error: --input needs --run
// SHIPPED: @primes: tensor<10xi64>[2, 3, 5, 7, 11, 13, 17, 19, 23, 29] ({{.*}} interpreter) [inputs from {{.*}}examples/inputs/seed004_sieve/]

func.func @iota(%n: index) -> tensor<?xi64> {
  %is = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %x = arith.index_cast %i : index to i64
    array.yield %x : i64
  }
  return %is : tensor<?xi64>
}

func.func @double(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %x : i64
    array.yield %y : i64
  }
  return %ys : tensor<?xi64>
}

func.func @count(%xs: tensor<?xi64>) -> index {
  %n = array.dim %xs, 0 : tensor<?xi64>
  return %n : index
}

func.func @scale(%xs: tensor<?xf32>, %k: f32) -> tensor<?xf32> {
  %ys = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %k : f32
    array.yield %y : f32
  }
  return %ys : tensor<?xf32>
}
