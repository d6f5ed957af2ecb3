// Ahead-of-time output: `--emit-llvm` writes LLVM IR with C entry points, and
// `--emit-object` a host object file that a C program links and calls (sequential, and
// with `--openmp` against LLVM's OpenMP runtime).
// RUN: fuse-opt %s --emit-llvm=%t.ll && FileCheck %s --check-prefix=IR < %t.ll
// RUN: fuse-opt %s --emit-object=%t.o && cc %S/Inputs/aot_main.c %t.o -o %t.exe && %t.exe | FileCheck %s --check-prefix=EXE
// RUN: fuse-opt %s --emit-object=%t.unfused.o --unfused && cc %S/Inputs/aot_main.c %t.unfused.o -o %t.unfused.exe && %t.unfused.exe | FileCheck %s --check-prefix=EXE
// RUN: fuse-opt %s --emit-object=%t.omp.o --openmp && cc %S/Inputs/aot_main.c %t.omp.o -L%llvm_lib -Wl,-rpath,%llvm_lib -lomp -o %t.omp.exe && env OMP_NUM_THREADS=2 %t.omp.exe | FileCheck %s --check-prefix=EXE
// RUN: fuse-opt %s --emit-llvm=%t.omp.ll --openmp && FileCheck %s --check-prefix=OMP < %t.omp.ll
// RUN: not fuse-opt %s --openmp 2>&1 | FileCheck %s --check-prefix=BAD

// IR: define void @_mlir_ciface_dot(
// IR: define void @_mlir_ciface_triad(
// EXE: dot = 999000.0
// EXE: triad: size 1000, a[0] = 6.0, a[999] = 1005.0
// OMP: call void {{.*}}@__kmpc_fork_call(
// BAD: fuse-opt: error: --openmp needs --emit-llvm=FILE or --emit-object=FILE

func.func @dot(%xs: tensor<?xf64>, %ys: tensor<?xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %ps = array.map %xs, %ys : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64, %y: f64):
    %p = arith.mulf %x, %y : f64
    array.yield %p : f64
  }
  %sum = array.fold %ps init(%zero : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %p: f64):
    %s = arith.addf %acc, %p : f64
    array.yield %s : f64
  }
  return %sum : tensor<f64>
}

// STREAM's triad a = b + s*c with s = 3.
func.func @triad(%bs: tensor<?xf64>, %cs: tensor<?xf64>) -> tensor<?xf64> {
  %s = arith.constant 3.0 : f64
  %as = array.map %bs, %cs : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%b: f64, %c: f64):
    %m = arith.mulf %s, %c : f64
    %a = arith.addf %b, %m : f64
    array.yield %a : f64
  }
  return %as : tensor<?xf64>
}
