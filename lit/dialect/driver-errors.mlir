// Diagnostics and exit codes of fuse-opt on bad input: errors are reported as
// `file:line:col: error:` with the source line and a caret, nothing is printed
// on stdout, and the exit code is non-zero (`not` also fails on a crash).
//
// A parse error:
// RUN: not fuse-opt %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE:      {{^}}{{.*}}Inputs{{[/\\]}}malformed.mlir:7:20: error: expected ':'
// PARSE-NEXT: {{^}}     array.yield %x f32
// PARSE-NEXT: {{^}}                   ^
// RUN: not fuse-opt %S/Inputs/malformed.mlir 2>/dev/null | count 0
//
// A verifier error in well-formed input:
// RUN: not fuse-opt %S/Inputs/invalid-op.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY:      {{^}}{{.*}}Inputs{{[/\\]}}invalid-op.mlir:5:8: error: 'array.fold' op result #0 of type 'tensor<?xf32>' does not have the shape of input #0 without its innermost dimension
// VERIFY-NEXT: {{^}}  %r = array.fold %xs init(%z : f32) : tensor<?xf32> -> tensor<?xf32> {
// VERIFY-NEXT: {{^}}       ^
// VERIFY-NEXT: {{^}}{{.*}}invalid-op.mlir:5:8: note: see current operation:
// RUN: not fuse-opt %S/Inputs/invalid-op.mlir 2>/dev/null | count 0
//
// Input on stdin is named <stdin>:
// RUN: not fuse-opt < %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: {{^}}<stdin>:7:20: error: expected ':'
//
// A missing input file:
// RUN: not fuse-opt %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
//
// An unknown option:
// RUN: not fuse-opt --no-such-option %s 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: fuse-opt: Unknown command line argument '--no-such-option'.  Try: 'fuse-opt --help'
//
// An unknown pass in a pipeline:
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: error: {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
//
// Input MLIR 22's parser would crash on (a dense array of `index`), from a file
// and from stdin:
// RUN: not fuse-opt %S/Inputs/dense-index-array.mlir 2>&1 | FileCheck %s --check-prefix=CRASH
// CRASH: {{^}}{{.*}}Inputs{{[/\\]}}dense-index-array.mlir:3:36: error: a dense array of `index` elements (`array<index ...>`) is not supported: MLIR 22's parser crashes on it
// RUN: not fuse-opt < %S/Inputs/dense-index-array.mlir 2>&1 | FileCheck %s --check-prefix=CRASH-STDIN
// CRASH-STDIN: {{^}}<stdin>:3:36: error: a dense array of `index` elements
// RUN: not fuse-opt %S/Inputs/dense-index-array.mlir 2>/dev/null | count 0
//
// This file itself is valid (only comments), so it succeeds and prints an
// empty module:
// RUN: fuse-opt %s | FileCheck %s --check-prefix=VALID
// VALID:      {{^}}module {
// VALID-NEXT: {{^}}}
