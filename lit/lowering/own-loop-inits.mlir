// `array-own-loop-inits` (passes/src/own_loop_inits.rs; between MLIR's ownership-based
// deallocation and the lowering of its deallocs in fusion_codegen's CPU pipelines) lets
// an `scf.while` own an initial buffer that the function allocated for it alone, so that
// a returned loop result is not cloned for the case where the loop does not run.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(ownership-based-buffer-deallocation, canonicalize, buffer-deallocation-simplification, array-own-loop-inits, canonicalize, buffer-deallocation-simplification))' | FileCheck %s
//
// Seed 004's BFS (rotated by `array-rotate-while`) returns its loop's result: in the
// CPU pipeline's LLVM IR it no longer copies it.
// RUN: fuse-opt %examples/seed004_bfs.mlir --emit-llvm=%t.ll 2>/dev/null && FileCheck %s --check-prefix=BFS < %t.ll
// BFS-LABEL: define {{.*}} @bfs(
// BFS-NOT:     llvm.memcpy
// BFS:       }
//
// And it computes what it did: the bundled inputs (the loop runs several times) and
// random ones (it does not run), sequential and on OpenMP threads; likewise the loops of
// the rotation's own tests.
// RUN: fuse-opt %examples/seed004_bfs.mlir --run --check --function=bfs 2>/dev/null | FileCheck %s --check-prefix=RAN-BFS
// RUN: fuse-opt %examples/seed004_bfs.mlir --run --check --function=bfs --size=1000 --seed=5 2>/dev/null | FileCheck %s --check-prefix=RAN-BFS
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed004_bfs.mlir --run --check --openmp --function=bfs 2>/dev/null | FileCheck %s --check-prefix=RAN-BFS
// RAN-BFS: @bfs: match (interpreter, unfused, fused)
// RUN: fuse-opt %S/../transforms/rotate-while.mlir --run --check --size=100 2>/dev/null | FileCheck %s --check-prefix=RAN-HALVE
// RAN-HALVE: @halve: match (interpreter, unfused, fused)

func.func private @step(%x: memref<?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xi64>
  %y = memref.alloc(%n) : memref<?xi64>
  memref.copy %x, %y : memref<?xi64> to memref<?xi64>
  return %y : memref<?xi64>
}

// The init is written before the loop and used by nothing after it: the loop owns it,
// frees it in its first iteration, or returns it when it does not run.
// CHECK-LABEL: func.func @owned(
// CHECK-NOT:     bufferization.clone
// CHECK:         %[[A:.*]] = memref.alloc(
// CHECK:         scf.while (%[[X:.*]] = %[[A]], %{{.*}} = %{{.*}}) : (memref<?xi64>, i1) -> memref<?xi64>
// CHECK:           bufferization.dealloc (%{{.*}} : memref<i64>) if (%true)
// CHECK-NOT:     bufferization.clone
// CHECK-NOT:     bufferization.dealloc
// CHECK:         return
func.func @owned(%n: index, %go: i1) -> memref<?xi64> {
  %a = memref.alloc(%n) : memref<?xi64>
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7 : i64
  memref.store %seven, %a[%c0] : memref<?xi64>
  %r = scf.while (%x = %a, %more = %go) : (memref<?xi64>, i1) -> memref<?xi64> {
    scf.condition(%more) %x : memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    %v = memref.load %next[%c0] : memref<?xi64>
    %zero = arith.constant 0 : i64
    %again = arith.cmpi eq, %v, %zero : i64
    scf.yield %next, %again : memref<?xi64>, i1
  }
  return %r : memref<?xi64>
}

// Read after the loop: the function keeps it, and the returned result is cloned when the
// loop did not run.
// CHECK-LABEL: func.func @readAfter(
// CHECK:         scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %false)
// CHECK:         bufferization.clone
// CHECK:         bufferization.dealloc (%alloc, %{{.*}} : memref<?xi64>, memref<i64>) if (%true, %{{.*}})
func.func @readAfter(%n: index, %go: i1) -> (memref<?xi64>, i64) {
  %a = memref.alloc(%n) : memref<?xi64>
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7 : i64
  memref.store %seven, %a[%c0] : memref<?xi64>
  %r = scf.while (%x = %a, %more = %go) : (memref<?xi64>, i1) -> memref<?xi64> {
    scf.condition(%more) %x : memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    %v = memref.load %next[%c0] : memref<?xi64>
    %zero = arith.constant 0 : i64
    %again = arith.cmpi eq, %v, %zero : i64
    scf.yield %next, %again : memref<?xi64>, i1
  }
  %first = memref.load %a[%c0] : memref<?xi64>
  return %r, %first : memref<?xi64>, i64
}

// Read inside the loop under its own name: an iteration that freed it would leave the
// next one reading freed memory, so the function keeps it.
// CHECK-LABEL: func.func @readInside(
// CHECK:         scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %false)
// CHECK:         bufferization.clone
func.func @readInside(%n: index, %go: i1) -> memref<?xi64> {
  %a = memref.alloc(%n) : memref<?xi64>
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7 : i64
  memref.store %seven, %a[%c0] : memref<?xi64>
  %r = scf.while (%x = %a, %more = %go) : (memref<?xi64>, i1) -> memref<?xi64> {
    scf.condition(%more) %x : memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    %v = memref.load %a[%c0] : memref<?xi64>
    %zero = arith.constant 0 : i64
    %again = arith.cmpi eq, %v, %zero : i64
    scf.yield %next, %again : memref<?xi64>, i1
  }
  return %r : memref<?xi64>
}

// A view of it made before the loop is another name for it: the function keeps it.
// CHECK-LABEL: func.func @viewBefore(
// CHECK:         scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %false)
// CHECK:         bufferization.clone
func.func @viewBefore(%n: index, %go: i1) -> (memref<?xi64>, i64) {
  %a = memref.alloc(%n) : memref<?xi64>
  %c0 = arith.constant 0 : index
  %view = memref.cast %a : memref<?xi64> to memref<?xi64, strided<[1], offset: ?>>
  %r = scf.while (%x = %a, %more = %go) : (memref<?xi64>, i1) -> memref<?xi64> {
    scf.condition(%more) %x : memref<?xi64>
  } do {
  ^bb0(%x: memref<?xi64>):
    %next = func.call @step(%x) : (memref<?xi64>) -> memref<?xi64>
    %v = memref.load %next[%c0] : memref<?xi64>
    %zero = arith.constant 0 : i64
    %again = arith.cmpi eq, %v, %zero : i64
    scf.yield %next, %again : memref<?xi64>, i1
  }
  %first = memref.load %view[%c0] : memref<?xi64, strided<[1], offset: ?>>
  return %r, %first : memref<?xi64>, i64
}
