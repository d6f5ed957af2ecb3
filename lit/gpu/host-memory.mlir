// The host side of a GPU program (array-gpu-host-memory, on hand-written bufferized
// functions): buffers in managed memory (gpu.alloc host_shared), arguments and constant
// arrays copied in, written arguments copied back, results copied out into memory the
// caller frees, each copy synchronous (a stream, the async op, a wait), which gpu-to-llvm
// lowers to MLIR's GPU runtime calls. The emulation (--gpu-sim) runs this host program
// with distinct buffers, and every example's host program is translated to LLVM IR in
// tests/src/gpu.rs.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-gpu-kernels), array-gpu-host-memory)' 2>/dev/null | FileCheck %s

// An argument only read: copied in, not back; the result copied out.
// CHECK-LABEL: func.func @increment(
// CHECK-SAME: %[[XS:.*]]: memref<?xi64>) -> memref<?xi64>
// CHECK: %[[N:.*]] = memref.dim %[[XS]]
// CHECK: %[[DXS:.*]] = gpu.alloc host_shared (%[[N]]) : memref<?xi64>
// CHECK: %[[S:.*]] = gpu.wait async
// CHECK: %[[T:.*]] = gpu.memcpy async [%[[S]]] %[[DXS]], %[[XS]]
// CHECK: gpu.wait [%[[T]]]
// CHECK: %[[YS:.*]] = gpu.alloc host_shared
// CHECK: gpu.launch
// CHECK: memref.load %[[DXS]]
// CHECK: memref.store {{.*}}, %[[YS]]
// CHECK-NOT: %[[XS]]
// CHECK: %[[OUT:.*]] = memref.alloc
// CHECK: gpu.memcpy async [{{.*}}] %[[OUT]], %[[YS]]
// CHECK: gpu.dealloc async [{{.*}}] %[[YS]]
// CHECK: gpu.dealloc async [{{.*}}] %[[DXS]]
// CHECK: return %[[OUT]]
func.func @increment(%xs: memref<?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %n = memref.dim %xs, %c0 : memref<?xi64>
  %ys = memref.alloc(%n) : memref<?xi64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %xs[%i] : memref<?xi64>
    %y = arith.addi %x, %one : i64
    memref.store %y, %ys[%i] : memref<?xi64>
    scf.reduce
  }
  return %ys : memref<?xi64>
}

// An argument written in place: copied back before the return.
// CHECK-LABEL: func.func @double_in_place(
// CHECK-SAME: %[[XS:.*]]: memref<?xi64>)
// CHECK: %[[DXS:.*]] = gpu.alloc host_shared
// CHECK: gpu.memcpy async [{{.*}}] %[[DXS]], %[[XS]]
// CHECK: gpu.launch
// CHECK: memref.store {{.*}}, %[[DXS]]
// CHECK: gpu.memcpy async [{{.*}}] %[[XS]], %[[DXS]]
// CHECK: gpu.dealloc async [{{.*}}] %[[DXS]]
// CHECK-NEXT: gpu.wait
// CHECK-NEXT: return
func.func @double_in_place(%xs: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %xs, %c0 : memref<?xi64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %xs[%i] : memref<?xi64>
    %y = arith.addi %x, %x : i64
    memref.store %y, %xs[%i] : memref<?xi64>
    scf.reduce
  }
  return
}

// A constant array: copied into managed memory at the entry, freed at the exit.
// CHECK-LABEL: func.func @table(
// CHECK: %[[G:.*]] = memref.get_global @squares : memref<4xi64>
// CHECK: %[[DG:.*]] = gpu.alloc host_shared () : memref<4xi64>
// CHECK: gpu.memcpy async [{{.*}}] %[[DG]], %[[G]]
// CHECK: gpu.launch
// CHECK: memref.load %[[DG]]
// CHECK: gpu.dealloc async [{{.*}}] %[[DG]]
memref.global "private" constant @squares : memref<4xi64> = dense<[0, 1, 4, 9]>
func.func @table() -> memref<4xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ys = memref.alloc() : memref<4xi64>
  %g = memref.get_global @squares : memref<4xi64>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %x = memref.load %g[%i] : memref<4xi64>
    memref.store %x, %ys[%i] : memref<4xi64>
    scf.reduce
  }
  return %ys : memref<4xi64>
}

// A call of a public function returns the caller's kind of memory: copied into managed
// memory, the callee's buffer freed; the caller's own deallocation frees the copy.
// CHECK-LABEL: func.func @twice(
// CHECK: %[[A:.*]] = call @increment(
// CHECK: %[[DA:.*]] = gpu.alloc host_shared
// CHECK: gpu.memcpy async [{{.*}}] %[[DA]], %[[A]]
// CHECK: memref.dealloc %[[A]]
// CHECK: %[[B:.*]] = call @increment(%[[DA]])
// CHECK: gpu.dealloc async [{{.*}}] %[[DA]]
func.func @twice(%xs: memref<?xi64>) -> memref<?xi64> {
  %a = call @increment(%xs) : (memref<?xi64>) -> memref<?xi64>
  %b = call @increment(%a) : (memref<?xi64>) -> memref<?xi64>
  memref.dealloc %a : memref<?xi64>
  return %b : memref<?xi64>
}
