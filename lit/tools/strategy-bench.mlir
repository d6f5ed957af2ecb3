// strategy-bench: every strategy on every function, the clustering's loops, objective and
// status, and the run time of the program compiled with that clustering beside the unfused
// one's; rows as Markdown and CSV. Timings are not checked (machine-dependent), only that
// every strategy's program ran and agreed with the unfused program (a time, not a reason).
// RUN: strategy-bench --help | FileCheck %s --check-prefix=HELP
// RUN: not strategy-bench --strategies ilp,bogus 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: strategy-bench %examples/seed000_greedy.mlir --elements 1000 --reps 1 --strategies ilp,greedy-top-down,bohrium-greedy --csv %t.csv | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// RUN: strategy-bench %examples/seed000_intro.mlir --elements 100 --reps 1 --strategies ilp,unfused --svg %t.svg > /dev/null
// RUN: FileCheck %s --check-prefix=SVG < %t.svg

// HELP: usage: strategy-bench [FILE|DIR]...
// BAD: strategy-bench: unknown strategy 'bogus'

// CHECK: | program | function | combinators | strategy | loops | objective | solve ms | status | run ms | speed-up vs unfused |
// greedyBottomUpBad generates n × n: at 1000 elements it runs.
// CHECK: | seed000_greedy | greedyBottomUpBad | 5 | ilp | 2 | 6 | {{[0-9.]+}} | optimal | {{[0-9.e-]+}} | {{[0-9.]+}} |
// CHECK: | seed000_greedy | greedyBottomUpBad | 5 | greedy-top-down | 2 | 6 | {{[0-9.]+}} | baseline | {{[0-9.e-]+}} | {{[0-9.]+}} |
// CHECK: | seed000_greedy | greedyBottomUpBad | 5 | bohrium-greedy | 2 | 6 | {{[0-9.]+}} | baseline | {{[0-9.e-]+}} | {{[0-9.]+}} |
// The top-down trap: greedy-top-down's clustering moves more (6 against 5).
// CHECK: | seed000_greedy | greedyTopDownBad | 5 | ilp | 2 | 5 | {{[0-9.]+}} | optimal | {{[0-9.e-]+}} | {{[0-9.]+}} |
// CHECK: | seed000_greedy | greedyTopDownBad | 5 | greedy-top-down | 2 | 6 | {{[0-9.]+}} | baseline | {{[0-9.e-]+}} | {{[0-9.]+}} |
// CHECK: | seed000_greedy | greedyTopDownBad | 5 | bohrium-greedy | 2 | 5 | {{[0-9.]+}} | baseline | {{[0-9.e-]+}} | {{[0-9.]+}} |

// The bar chart: one bar per timed function and strategy, the names as SVG text.
// SVG: <svg
// SVG: speed-up over the unfused program, 100 elements
// SVG-DAG: seed000_intro @verticalExample
// SVG-DAG: seed000_intro @mergeExample
// SVG-DAG: ilp
// SVG-DAG: unfused

// CSV: program,function,combinators,strategy,clusters,objective,solve_ms,status,run_ms,speedup_vs_unfused
// CSV-COUNT-6: seed000_greedy,greedy{{(BottomUp|TopDown)}}Bad,5,{{[a-z-]+}},2,{{[56]}},{{[0-9.]+}},{{[a-z]+}},{{[0-9.e-]+}},{{[0-9.]+}}
// CSV-NOT: {{.}}
