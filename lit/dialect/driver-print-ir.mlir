// --mlir-print-ir-after-all prints an IR dump after each pass on stderr, in
// pipeline order; the final IR still goes to stdout.
//
// RUN: fuse-opt %s --canonicalize --cse --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// RUN: fuse-opt %s --canonicalize --cse --mlir-print-ir-after-all 2>/dev/null | FileCheck %s --check-prefix=FINAL
// RUN: fuse-opt %s --pass-pipeline='builtin.module(canonicalize)' --mlir-print-ir-before-all 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE

// DUMP:      // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// DUMP-NEXT: module {
// DUMP-NEXT:   func.func @dumped(%[[XS:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// DUMP-NEXT:     %[[A:.*]] = array.force %[[XS]] : tensor<?xf32>
// DUMP-NEXT:     %[[B:.*]] = array.force %[[XS]] : tensor<?xf32>
// DUMP-NEXT:     %[[S:.*]] = array.map %[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> {
// DUMP:      // -----// IR Dump After CSE (cse) //----- //
// DUMP-NEXT: module {
// DUMP-NEXT:   func.func @dumped(%[[XS:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// DUMP-NEXT:     %[[A:.*]] = array.force %[[XS]] : tensor<?xf32>
// DUMP-NEXT:     %[[S:.*]] = array.map %[[A]], %[[A]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> {
// DUMP-NOT:  IR Dump

// FINAL-NOT:  IR Dump
// FINAL:      func.func @dumped(%[[XS:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// FINAL-NEXT:   %[[A:.*]] = array.force %[[XS]] : tensor<?xf32>
// FINAL-NEXT:   %[[S:.*]] = array.map %[[A]], %[[A]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> {
// FINAL-NOT:  IR Dump

// BEFORE:      // -----// IR Dump Before Canonicalizer (canonicalize) //----- //
// BEFORE-NEXT: module {
// BEFORE-NEXT:   func.func @dumped(
// BEFORE-NEXT:     %{{.*}} = array.force
// BEFORE-NEXT:     %{{.*}} = array.force
// BEFORE-NEXT:     %{{.*}} = array.size
// BEFORE-NOT:  IR Dump

func.func @dumped(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %a = array.force %xs : tensor<?xf32>
  %b = array.force %xs : tensor<?xf32>
  %n = array.size %xs : tensor<?xf32>
  %s = array.map %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    array.yield %z : f32
  }
  return %s : tensor<?xf32>
}
