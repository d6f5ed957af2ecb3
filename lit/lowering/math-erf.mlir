// `math.erf` and `math.erfc` compile (lowered to libm calls by convert-math-to-libm) and
// the interpreter computes them: the three runs agree, in f64 and in f32, and the values
// are the error function's (erf(0) = 0, erf(1) = 0.8427007929497149, erfc(1) =
// 0.15729920705028513).
// RUN: fuse-opt %s --run --check --size=50 | FileCheck %s --check-prefix=CHECKED
// RUN: fuse-opt %s --run --function=known | FileCheck %s --check-prefix=KNOWN
// RUN: fuse-opt %s --emit-llvm=%t.ll && FileCheck %s --check-prefix=LLVM < %t.ll

// CHECKED: @erfs: match (interpreter, unfused, fused)
// CHECKED: @erfcs32: match (interpreter, unfused, fused)
// KNOWN: @known: 0.0:f64, 0.8427007929497149:f64, 0.15729920705028513:f64 ({{.*}}interpreter)
// KNOWN: @known: 0.0:f64, 0.8427007929497149:f64, 0.15729920705028513:f64 ({{.*}}compiled)
// LLVM-DAG: call double @erf(double
// LLVM-DAG: call float @erfcf(float

func.func @erfs(%xs: tensor<?xf64>) -> tensor<?xf64> {
  %ys = array.map %xs : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64):
    %y = math.erf %x : f64
    array.yield %y : f64
  }
  return %ys : tensor<?xf64>
}

func.func @erfcs32(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %ys = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %h = arith.constant 0.5 : f32
    %s = arith.mulf %x, %h : f32
    %y = math.erfc %s : f32
    array.yield %y : f32
  }
  return %ys : tensor<?xf32>
}

func.func @known() -> (f64, f64, f64) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %a = math.erf %zero : f64
  %b = math.erf %one : f64
  %c = math.erfc %one : f64
  return %a, %b, %c : f64, f64, f64
}
