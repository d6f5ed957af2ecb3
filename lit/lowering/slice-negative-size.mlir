// A slice whose size is negative at run time has no defined result: the program and its
// desugared form (a generate of that size) fail alike under the interpreter, so `--check`
// reports agreement and runs no compiled code.
// RUN: fuse-opt %s --run --check --size=5 | FileCheck %s
// CHECK: @negative: match (both fail under the interpreter: {{.*}}slice-negative-size.mlir:{{[0-9]+}}:8: error: `array.slice`: undefined behaviour: negative size -5; compiled code not run)

func.func @negative(%xs: tensor<?xf64>) -> tensor<?xf64> {
  %zero = arith.constant 0 : index
  %n = array.dim %xs, 0 : tensor<?xf64>
  %minus = arith.subi %zero, %n : index
  %s = array.slice %xs from %zero size %minus : tensor<?xf64> -> tensor<?xf64>
  return %s : tensor<?xf64>
}
