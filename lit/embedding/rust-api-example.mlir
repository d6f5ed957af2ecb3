// examples/embedding/rust, a host compiler in miniature, embeds the passes through the
// array-fusion crate's public API only: its own context and pass manager with the fusion
// passes (typed options: cost=reads), array-to-loops and MLIR's lowering to LLVM, the typed
// reports, then compiled calls, fused and unfused.
//
// RUN: embed-example %examples/seed004_sum_of_squares.mlir sumSquares 10 | FileCheck %s
// CHECK: sumSquares: 1 loop(s), cost reads (optimal, objective 0)
// CHECK-NEXT: [upto, squares, result]
// CHECK-NEXT: ops left outside the LLVM dialect: {}
// CHECK-NEXT: @sumSquares fused:   [tensor<i64>[385]]
// CHECK-NEXT: @sumSquares unfused: [tensor<i64>[385]]
//
// Errors are messages with a non-zero exit, not panics: here the call (normalize2 takes an
// array, the example passes only index arguments), after the reports.
// RUN: not embed-example %examples/seed001_normalize2.mlir normalize2 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: normalize2: 2 loop(s), cost reads (optimal, objective 4)
// TWO-NEXT: [sum1, gts, sum2]
// TWO-NEXT: [ys1, ys2]
// TWO: embed-example: error: @normalize2 takes 1 arguments, got 0
// A size equality the analysis cannot prove (seed 001's bad1 and bad2) is no error: the map
// that requires it is not fused with the producers of its operands, the rest still fuses.
// RUN: not embed-example %examples/seed001_ill_sized.mlir f 2>&1 | FileCheck %s --check-prefix=ILL
// ILL: bad1: 2 loop(s), cost reads (optimal, objective 3)
// ILL-NEXT: [flt]
// ILL-NEXT: [ys]
// ILL: bad2: 2 loop(s), cost reads (optimal, objective 3)
// ILL-NEXT: [flt1, flt2]
// ILL-NEXT: [ys]
// ILL: embed-example: error: no public function @f in the program
// RUN: not embed-example %s.missing f 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: embed-example: error: {{.*}}cannot read the file
