// Math functions in vectorised loops call glibc's vector variants (codegen/src/vector_math.rs):
// `math.erf` (a C call) and `math.exp`, `math.log`, `math.sin`, … (LLVM intrinsics, made
// calls) of `f64` get the `vector-function-abi-variant` attribute naming their AVX2 variant,
// are declared free of memory effects, and the optimised object calls `_ZGVdN4v_erf` and
// friends. The results agree with the interpreter's (to the check's relative 1e-9; glibc
// documents its vector functions within 4 ulp) at sizes that leave a scalar remainder and
// sizes that do not. `f32` functions keep scalar calls. Under `--openmp` the loop bodies
// that `convert-scf-to-openmp` wraps in `memref.alloca_scope` must lose that scope when it
// allocates nothing (codegen/src/pipeline.rs): its `llvm.stacksave`/`stackrestore` pair
// around a body that calls a function stops LLVM's loop vectorizer, and each thread then
// calls the scalar functions (Black–Scholes on 2 threads ran no faster than on one).
//
// REQUIRES: libmvec-avx2
// RUN: fuse-opt %s --emit-llvm=%t.ll && FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: fuse-opt %s --emit-object=%t.o && %llvm_bin/llvm-nm %t.o | FileCheck %s --check-prefix=OBJECT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --openmp --emit-llvm=%t.omp.ll && FileCheck %s --check-prefix=OMP-LLVM < %t.omp.ll
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --openmp --emit-object=%t.omp.o && %llvm_bin/llvm-nm %t.omp.o | FileCheck %s --check-prefix=OBJECT
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=7 --seed=2 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1000 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --size=4099 --seed=4 --openmp | FileCheck %s --check-prefix=RESULT

// LLVM-DAG: @llvm.compiler.used = appending global [{{[0-9]+}} x ptr] [ptr @_ZGVdN4v_
// LLVM-DAG: declare double @erf(double) #[[ERF:[0-9]+]]
// LLVM-DAG: declare double @exp(double)
// LLVM-DAG: declare double @log(double)
// LLVM-DAG: declare double @sin(double)
// LLVM-DAG: declare <4 x double> @_ZGVdN4v_erf(<4 x double>)
// LLVM-DAG: declare <4 x double> @_ZGVdN4v_log(<4 x double>)
// LLVM-DAG: attributes #[[ERF]] = { nounwind willreturn memory(none) "vector-function-abi-variant"="_ZGV_LLVM_N4v_erf(_ZGVdN4v_erf)" }
// LLVM-DAG: call float @erff(float
// LLVM-NOT: _ZGVdN8v_

// OMP-LLVM-LABEL: define internal void @gaussian_cdf..omp_par(
// OMP-LLVM-NOT: @llvm.stacksave
// OMP-LLVM: ret void

// OBJECT-DAG: U _ZGVdN4v_erf
// OBJECT-DAG: U _ZGVdN4v_exp
// OBJECT-DAG: U _ZGVdN4v_log
// OBJECT-DAG: U _ZGVdN4v_sin

// RESULT-DAG: @gaussian_cdf: match (interpreter, unfused, fused
// RESULT-DAG: @wave: match (interpreter, unfused, fused
// RESULT-DAG: @cdf32: match (interpreter, unfused, fused

// The standard normal CDF of exp(x/4) - 1 + log(|x| + 1): erf, exp and log in one loop.
func.func @gaussian_cdf(%xs: tensor<?xf64>) -> tensor<?xf64> {
  %ys = array.map %xs : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64):
    %quarter = arith.constant 0.25 : f64
    %one = arith.constant 1.0 : f64
    %half = arith.constant 0.5 : f64
    %rsqrt2 = arith.constant 0.70710678118654752 : f64
    %q = arith.mulf %x, %quarter : f64
    %e = math.exp %q : f64
    %a = math.absf %x : f64
    %a1 = arith.addf %a, %one : f64
    %l = math.log %a1 : f64
    %s = arith.subf %e, %one : f64
    %t = arith.addf %s, %l : f64
    %u = arith.mulf %t, %rsqrt2 : f64
    %erf = math.erf %u : f64
    %p = arith.addf %erf, %one : f64
    %c = arith.mulf %p, %half : f64
    array.yield %c : f64
  }
  return %ys : tensor<?xf64>
}

// sin and cos of every element, and their sum of squares (1 up to rounding).
func.func @wave(%xs: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  %s, %c = array.map %xs : tensor<?xf64> -> tensor<?xf64>, tensor<?xf64> {
  ^bb0(%x: f64):
    %sx = math.sin %x : f64
    %cx = math.cos %x : f64
    %s2 = arith.mulf %sx, %sx : f64
    %c2 = arith.mulf %cx, %cx : f64
    %one = arith.addf %s2, %c2 : f64
    array.yield %sx, %one : f64, f64
  }
  return %s, %c : tensor<?xf64>, tensor<?xf64>
}

// An f32 erf: a scalar call.
func.func @cdf32(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %ys = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %e = math.erf %x : f32
    array.yield %e : f32
  }
  return %ys : tensor<?xf32>
}
