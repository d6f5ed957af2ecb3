// Every buffer array-to-loops takes of a tensor is only read (it writes into buffers it
// allocates), and says so (`bufferization.to_buffer … read_only`), so One-Shot Bufferize adds
// no copy of an array that a loop nest reads both element by element and with
// `array.index`. Seed 000's greedyTopDownBad under the ILP's clustering reads `bs` both
// ways in its second loop nest; without the mark the whole of `bs` was copied first (an
// extra read and write of the array, which made the ILP's program slower than greedy's).
// RUN: fuse-opt %examples/seed000_greedy.mlir --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops})' | FileCheck %s

// CHECK-LABEL: func.func @greedyTopDownBad(
// CHECK-NOT:     memref.copy
// CHECK:         return
