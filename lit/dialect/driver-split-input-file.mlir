// --split-input-file: each chunk between marker lines (`//` followed by five
// dashes) is parsed, verified and printed on its own, the outputs are
// separated by the marker, and diagnostics keep the line numbers of the whole
// file. (The marker is recognised anywhere in a line, so the CHECK lines below
// spell it as {{//}} followed by the dashes.)
//
// RUN: fuse-opt %s --split-input-file | FileCheck %s
//
// An error in one chunk does not stop the others, but the exit code is
// non-zero:
// RUN: not fuse-opt %S/Inputs/split-with-error.mlir --split-input-file 2>/dev/null | FileCheck %s --check-prefix=OUT
// RUN: not fuse-opt %S/Inputs/split-with-error.mlir --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR
//
// Without --split-input-file the markers are ordinary comments, so this file
// is a single module with all three functions:
// RUN: fuse-opt %s | FileCheck %s --check-prefix=WHOLE

// CHECK:      module {
// CHECK-NEXT:   func.func @chunk_one(%{{.*}}: tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:     %{{.*}} = array.reverse %{{.*}} : tensor<?xf32>
// CHECK-NOT:    func.func
// CHECK:      {{//}} -----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @chunk_two(%{{.*}}: tensor<?x?xi32>) -> index {
// CHECK-NEXT:     %{{.*}} = array.dim %{{.*}}, 1 : tensor<?x?xi32>
// CHECK-NOT:    func.func
// CHECK:      {{//}} -----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @chunk_three(%{{.*}}: tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:     %{{.*}} = array.force %{{.*}} : tensor<?xf32>
// CHECK-NOT:  {{//}} -----

// WHOLE:      module {
// WHOLE-NEXT:   func.func @chunk_one(
// WHOLE:        func.func @chunk_two(
// WHOLE:        func.func @chunk_three(
// WHOLE-NOT:  {{//}} -----

// OUT:      module {
// OUT-NEXT:   func.func @first(
// OUT:      {{//}} -----
// OUT-NEXT: {{//}} -----
// OUT-NEXT: module {
// OUT-NEXT:   func.func @third(
// OUT-NOT:    func.func @second

// ERR:      {{^}}{{.*}}split-with-error.mlir:12:8: error: 'array.reverse' op cannot reverse a rank-0 array
// ERR-NOT:  error:

func.func @chunk_one(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = array.reverse %xs : tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @chunk_two(%t: tensor<?x?xi32>) -> index {
  %d = array.dim %t, 1 : tensor<?x?xi32>
  return %d : index
}

// -----

func.func @chunk_three(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = array.force %xs : tensor<?xf32>
  return %r : tensor<?xf32>
}
