// `array-huge-pages` (in fusion_codegen's CPU pipelines, before
// `finalize-memref-to-llvm{use-generic-functions=true}`) defines the allocation functions
// that lowering calls: below `min-bytes` plain `malloc` / `aligned_alloc`; from `min-bytes`
// on (and up to 2^62) `aligned_alloc` at a 2 MiB boundary (or the requested alignment when
// larger), the size rounded up to that boundary, then `madvise(MADV_HUGEPAGE = 14)` on the
// whole block (passes/src/huge_pages.rs).
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-huge-pages{min-bytes=65536}, finalize-memref-to-llvm{use-generic-functions=true})' | FileCheck %s
// CHECK-LABEL: func.func @scratch(
// CHECK:         llvm.call @_mlir_memref_to_llvm_alloc(
// CHECK:         llvm.call @_mlir_memref_to_llvm_free(
// CHECK-DAG:   llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG:   llvm.func @madvise(!llvm.ptr, i64, i32) -> i32
// CHECK-LABEL: llvm.func internal @_mlir_memref_to_llvm_alloc(
// CHECK:         llvm.call @_fusion_is_large(
// CHECK:         llvm.call @malloc(
// CHECK:         llvm.mlir.constant(2097152 : i64)
// CHECK:         llvm.call @_fusion_allocate_huge(
// CHECK-LABEL: llvm.func internal @_mlir_memref_to_llvm_aligned_alloc(
// CHECK:         llvm.call @aligned_alloc(
// CHECK:         llvm.icmp "ugt"
// CHECK:         llvm.select
// CHECK:         llvm.call @_fusion_allocate_huge(
// CHECK-LABEL: llvm.func internal @_mlir_memref_to_llvm_free(
// CHECK:         llvm.call @free(
// CHECK-LABEL: llvm.func internal @_fusion_is_large(
// CHECK:         llvm.mlir.constant(65536 : i64)
// CHECK:         llvm.mlir.constant(4611686018427387904 : i64)
// CHECK:         llvm.icmp "uge"
// CHECK:         llvm.icmp "ule"
// CHECK-LABEL: llvm.func internal @_fusion_allocate_huge(
// CHECK:         llvm.mlir.constant(14 : i32)
// CHECK:         %[[ROUNDED:.*]] = llvm.and
// CHECK:         %[[BLOCK:.*]] = llvm.call @aligned_alloc(%{{.*}}, %[[ROUNDED]])
// CHECK:         llvm.cond_br
// CHECK:         llvm.call @madvise(%[[BLOCK]], %[[ROUNDED]], %{{.*}})

// The whole CPU pipeline uses them, and the compiled program agrees with the interpreter
// at sizes with buffers below and above the default 4 MiB, sequential and on threads.
// RUN: fuse-opt %s --emit-llvm=%t.ll && FileCheck %s --check-prefix=LLVM < %t.ll
// LLVM: call ptr @_mlir_memref_to_llvm_alloc(
// LLVM: define internal ptr @_mlir_memref_to_llvm_alloc(
// LLVM: call i32 @madvise(
// RUN: fuse-opt %s --run --check --function=shifted --size=1000 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --function=shifted --size=1000000 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --function=shifted --size=1000000 --openmp | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --emit-object=%t.o && %llvm_bin/llvm-nm %t.o | FileCheck %s --check-prefix=OBJECT
// RESULT: @shifted: match (interpreter, unfused, fused)
// OBJECT: U madvise
// OBJECT: U malloc

// A module with its own allocator keeps it, with a warning.
// RUN: echo 'llvm.func @_mlir_memref_to_llvm_alloc(%%size: i64) -> !llvm.ptr' | fuse-opt - --pass-pipeline='builtin.module(array-huge-pages)' 2>&1 | FileCheck %s --check-prefix=OWN
// OWN: warning: array-huge-pages: the module defines its own @_mlir_memref_to_llvm_alloc; its allocations are left as they are
// OWN-NOT: _fusion_allocate_huge

// A bad option is an error.
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(array-huge-pages{min-bytes=100})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: array-huge-pages: min-bytes must be an integer from 8192 to 2^62, not '100'

func.func @scratch(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %buffer = memref.alloc(%n) : memref<?xf64>
  %d = memref.dim %buffer, %c0 : memref<?xf64>
  memref.dealloc %buffer : memref<?xf64>
  return %d : index
}

func.func @shifted(%xs: tensor<?xf64>) -> tensor<?xf64> {
  %ys = array.map %xs : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64):
    %one = arith.constant 1.0 : f64
    %y = arith.addf %x, %one : f64
    array.yield %y : f64
  }
  %zs = array.map %ys : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%y: f64):
    %z = arith.mulf %y, %y : f64
    array.yield %z : f64
  }
  return %zs : tensor<?xf64>
}
