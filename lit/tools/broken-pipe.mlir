// Output into a pipe whose reader has gone (`fuse-opt … | head`) ends fuse-opt and the
// benchmarks quietly, killed by SIGPIPE as mlir-opt is (status 141), with nothing on
// stderr: no "LLVM ERROR: IO failure on output stream", no Rust panic.
// RUN: bash -c 'fuse-opt %examples/seed000_lulesh.mlir --array-fusion --array-to-loops 2> %t.fuse-opt.err | true; echo "status ${PIPESTATUS[0]}"' | FileCheck %s
// RUN: count 0 < %t.fuse-opt.err
// RUN: bash -c 'fusion-bench --sizes 10 --seeds 30 --time-limit 5 2> %t.bench.err | true; echo "status ${PIPESTATUS[0]}"' | FileCheck %s
// RUN: count 0 < %t.bench.err

// CHECK: status 141
