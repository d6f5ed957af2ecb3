// fusion-bench's command line: --help prints the usage and runs nothing; an unknown flag
// or an unreadable value is an error (exit code 2) before any solve.
// RUN: fusion-bench --help | FileCheck %s --check-prefix=HELP
// RUN: not fusion-bench --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not fusion-bench --seeds many 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not fusion-bench --sizes 10,x 2>&1 | FileCheck %s --check-prefix=SIZES
// --svg draws the solve times: one line per strategy, with its name.
// RUN: fusion-bench --sizes 10 --seeds 1 --time-limit 5 --strategies ilp,greedy-top-down --formulations combined --svg %t.svg > /dev/null
// RUN: FileCheck %s --check-prefix=SVG < %t.svg
// --csv writes the rows; the ILP's carry its warm start (objective, ms) and the solver's
// nodes and simplex iterations, a baseline's none. After the rows of the random programs,
// one summary line per size and series.
// RUN: fusion-bench --sizes 30 --seeds 1 --time-limit 5 --strategies ilp,greedy-top-down --formulations combined --csv %t.csv > %t.out
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.out

// HELP: usage: fusion-bench [--sizes
// HELP-NOT: random n=
// UNKNOWN: fusion-bench: unknown argument '--bogus'
// VALUE: fusion-bench: --seeds: cannot read 'many'
// SIZES: fusion-bench: --sizes: cannot read 'x'
// SVG: <svg
// SVG: mean solve time, cost reads-writes, time limit 5 s
// SVG-DAG: ilp (combined)
// SVG-DAG: greedy-top-down
// SVG-DAG: <polyline
// CSV: program,strategy,formulation,combinators,edges,variables,rows,solve_ms,status,objective,bound,gap,clusters,start,start_ms,nodes,lp_iterations
// CSV: "random n=30 seed=0",ilp,combined,{{.*}},optimal,{{[0-9]+}},{{[^,]+}},{{[^,]+}},{{[0-9]+}},{{[0-9]+}},{{[0-9.]+}},{{[1-9][0-9]*}},{{[0-9]+}}{{$}}
// CSV: "random n=30 seed=0",greedy-top-down,-,{{.*}},baseline,{{.*}},-,-,-,-{{$}}
// SUMMARY: random n=30 seed=0 ilp
// SUMMARY: n=30 ilp combined: 1 of 1 proven optimal; solve ms median {{[0-9.]+}}, largest {{[0-9.]+}}; proven ones: median {{[1-9][0-9]*}} nodes, {{[0-9.]+}} simplex iterations
// SUMMARY-NEXT: n=30 greedy-top-down: 1 programs; solve ms median
