// examples/embedding/c/embed.c, a C host, compiled against include/array-fusion.h and MLIR's
// C API headers with the C compiler, linked with libarray_fusion.so and libMLIR-C.so: its own
// context and pass manager with the fusion passes (cost=reads), array-to-loops and MLIR's
// lowering to LLVM, the reports through the C accessors, then a JIT-compiled call.
//
// RUN: cc -std=c11 -Wall -Wextra -Werror -I%embed_include -I%llvm_include %examples/embedding/c/embed.c \
// RUN:   -L%tools_dir -larray_fusion -L%mlir_c_dir -lMLIR-C -Wl,-rpath,%tools_dir -Wl,-rpath,%mlir_c_dir -o %t.embed
// RUN: %t.embed %examples/seed004_sum_of_squares.mlir sumSquares 10 | FileCheck %s
// CHECK: sumSquares: 1 loop(s), objective 0, optimal
// CHECK-NEXT: [upto, squares, result]
// CHECK-NEXT: @sumSquares(10) = 385
//
// RUN: %t.embed %examples/seed004_sum_of_squares.mlir sumSquares 1000 | FileCheck %s --check-prefix=LARGE
// LARGE: @sumSquares(1000) = 333833500
//
// Bad input: clear messages and a non-zero exit.
// RUN: not %t.embed %examples/seed001_normalize2.mlir normalize2 1 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: embed: error: @normalize2 does not have the type (index) -> tensor<i64>
// RUN: not %t.embed %examples/seed001_ill_sized.mlir f 1 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: embed: error: no function @f in
// A size equality the analysis cannot prove (a map over generates of lengths n and n + 1)
// is checked at run time: the compiled code stops with the message (printed with `puts`,
// hence `stdbuf -o0`) before its loops could read out of bounds.
// RUN: not --crash stdbuf -o0 %t.embed %s sum_of_squares 3 2>&1 | FileCheck %s --check-prefix=ILL
// ILL: sum_of_squares: 3 loop(s), objective 2, optimal
// ILL: c-api-example.mlir:{{[0-9]+}}:{{[0-9]+}}: run-time size check failed: 'array.map' requires its inputs to have the same size, but %a has a data-dependent size
// ILL-NOT: @sum_of_squares(

// A map over two arrays whose sizes differ in every run (n and n + 1): size inference
// cannot prove them equal, and they are not.
func.func @sum_of_squares(%n: index) -> tensor<i64> {
  %c1 = arith.constant 1 : index
  %m = arith.addi %n, %c1 : index
  %a = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %b = array.generate (%m) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %products = array.map %a, %b : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %p = arith.muli %x, %y : i64
    array.yield %p : i64
  }
  %zero = arith.constant 0 : i64
  %sum = array.fold %products init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    array.yield %s : i64
  }
  return %sum : tensor<i64>
}
