// fusion-bench's command line: --help prints the usage and runs nothing; an unknown flag
// or an unreadable value is an error (exit code 2) before any solve.
// RUN: fusion-bench --help | FileCheck %s --check-prefix=HELP
// RUN: not fusion-bench --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not fusion-bench --seeds many 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not fusion-bench --sizes 10,x 2>&1 | FileCheck %s --check-prefix=SIZES
// --svg draws the solve times: one line per strategy, with its name.
// RUN: fusion-bench --sizes 10 --seeds 1 --time-limit 5 --strategies ilp,greedy-top-down --formulations combined --svg %t.svg > /dev/null
// RUN: FileCheck %s --check-prefix=SVG < %t.svg
// --csv writes the rows; the ILP's carry its warm start (objective, ms), a baseline's none.
// RUN: fusion-bench --sizes 30 --seeds 1 --time-limit 5 --strategies ilp,greedy-top-down --formulations combined --csv %t.csv > /dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

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
// CSV: program,strategy,formulation,combinators,edges,variables,rows,solve_ms,status,objective,bound,gap,clusters,start,start_ms
// CSV: "random n=30 seed=0",ilp,combined,{{.*}},optimal,{{[0-9]+}},{{[^,]+}},{{[^,]+}},{{[0-9]+}},{{[0-9]+}},{{[0-9.]+}}{{$}}
// CSV: "random n=30 seed=0",greedy-top-down,-,{{.*}},baseline,{{.*}},-,-{{$}}
