// fusion-bench's command line: --help prints the usage and runs nothing; an unknown flag
// or an unreadable value is an error (exit code 2) before any solve.
// RUN: fusion-bench --help | FileCheck %s --check-prefix=HELP
// RUN: not fusion-bench --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not fusion-bench --seeds many 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not fusion-bench --sizes 10,x 2>&1 | FileCheck %s --check-prefix=SIZES

// HELP: usage: fusion-bench [--sizes
// HELP-NOT: random n=
// UNKNOWN: fusion-bench: unknown argument '--bogus'
// VALUE: fusion-bench: --seeds: cannot read 'many'
// SIZES: fusion-bench: --sizes: cannot read 'x'
