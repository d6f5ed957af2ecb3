// GPU kernels (array-gpu-kernels): after array-to-loops and bufferization, every loop
// nest becomes one kernel, so every cluster of the fusion analysis is one gpu.func: a
// parallel nest a grid-stride kernel over its linearised iteration space; a parallel
// reduction two kernels (block partials through gpu.all_reduce, then one block combining
// them with the fold's initial value); a scan whose combine may be regrouped three
// kernels (chunk partials, their exclusive scan in one thread, the chunks rescanned from
// their offsets); a scatter whose combine is commutative and associative a parallel
// kernel of atomic updates; a sequential nest (here a scan of a subtraction, and a
// scatter whose last write wins) one GPU thread, reported by a remark. The PTX of these kernels is assembled by ptxas in
// tests/src/gpu.rs.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-gpu-kernels), gpu-kernel-outlining)' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-gpu-kernels))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fuse-opt %s --emit-gpu=%t --gpu-target=nvptx:sm_90 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: FileCheck %s --check-prefix=PTX < %t/sum_and_max_kernel.ptx
// RUN: cat %t/histogram_kernel_*.ptx | FileCheck %s --check-prefix=ATOM
// RUN: fuse-opt %s --emit-gpu=%t/amd --gpu-target=amdgcn:gfx942 2>/dev/null
// RUN: FileCheck %s --check-prefix=AMD < %t/amd/sum_and_max_kernel.s
// RUN: cat %t/amd/histogram_kernel_*.s | FileCheck %s --check-prefix=AMDATOM
// RUN: FileCheck %s --check-prefix=HOST < %t/host.ll
// RUN: fuse-opt %s --run --check --size=0 --gpu-sim | FileCheck %s --check-prefix=SIM
// RUN: fuse-opt %s --run --check --size=1000 --seed=5 --gpu-sim | FileCheck %s --check-prefix=SIM
// RUN: not fuse-opt %s --emit-gpu=%t --gpu-target=nvptx:90 2>&1 | FileCheck %s --check-prefix=BAD

// REMARK: remark: array-gpu-kernels: 2 parallel kernels (0 with atomic updates), 0 reductions (two kernels each), 0 scans (three phases each, 0 with a fourth folding scanned values), 0 one-thread kernels
// REMARK: remark: array-gpu-kernels: 0 parallel kernels (0 with atomic updates), 1 reductions (two kernels each), 0 scans (three phases each, 0 with a fourth folding scanned values), 0 one-thread kernels
// REMARK: remark: array-gpu-kernels: 0 parallel kernels (0 with atomic updates), 0 reductions (two kernels each), 1 scans (three phases each, 0 with a fourth folding scanned values), 0 one-thread kernels
// REMARK: kernels.mlir:{{[0-9]+}}:8: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form)
// REMARK: remark: array-gpu-kernels: 0 parallel kernels (0 with atomic updates), 0 reductions (two kernels each), 0 scans (three phases each, 0 with a fourth folding scanned values), 1 one-thread kernels
// REMARK: remark: array-gpu-kernels: 2 parallel kernels (1 with atomic updates), 0 reductions (two kernels each), 0 scans (three phases each, 0 with a fourth folding scanned values), 0 one-thread kernels
// REMARK: kernels.mlir:{{[0-9]+}}:8: remark: array-gpu-kernels: 'scf.for' runs as one GPU thread (sequential form)
// REMARK: remark: array-gpu-kernels: 1 parallel kernels (0 with atomic updates), 0 reductions (two kernels each), 0 scans (three phases each, 0 with a fourth folding scanned values), 1 one-thread kernels

// The kernels emulated on the CPU (array-gpu-emulate) agree with the interpreter; the
// sum starts from 7, not from its identity, so dropping the initial value would show.
// SIM: @softmax_rows: match (interpreter, unfused, fused) [compiled = GPU kernels, emulated on the CPU]
// SIM: @sum_and_max: match (interpreter, unfused, fused) [compiled = GPU kernels, emulated on the CPU]
// SIM: @prefix_sums: match (interpreter, unfused, fused) [compiled = GPU kernels, emulated on the CPU]
// SIM: @differences: match (interpreter, unfused, fused) [compiled = GPU kernels, emulated on the CPU]
// SIM: @histogram: match (interpreter, unfused, fused) [compiled = GPU kernels, emulated on the CPU]
// SIM: @last_write: match (interpreter, unfused, fused) [compiled = GPU kernels, emulated on the CPU]

// EMIT: fuse-opt: wrote {{.*}}sum_and_max_kernel.ptx
// EMIT: fuse-opt: wrote {{.*}}host.mlir (12 kernels for nvptx:sm_90)
// PTX: .target sm_90
// PTX: .entry sum_and_max_kernel(
// PTX: shfl.sync.bfly.b32
// ATOM: .entry histogram_kernel(
// ATOM: atom.global.add.u64
// The same kernels for an AMD GPU: cross-lane permutes in the block reduction, a global
// atomic add for the histogram.
// AMD: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// AMD: ds_bpermute_b32
// AMDATOM: global_atomic_add_x2
// The host program as LLVM IR: managed buffers, copies, the kernels loaded and launched.
// HOST-DAG: call ptr @mgpuMemAlloc(
// HOST-DAG: call void @mgpuMemcpy(
// HOST-DAG: call ptr @mgpuModuleLoadJIT(
// HOST-DAG: call void @mgpuLaunchKernel(
// HOST-DAG: call void @mgpuMemFree(
// BAD: fuse-opt: error: unknown GPU target 'nvptx:90'

// Two clusters, two kernels: exp and the row sums (each thread a row, the row's sum
// sequential in it), then the division.
// CHECK-LABEL: func.func @softmax_rows(
// CHECK:         gpu.launch_func @softmax_rows_kernel::@softmax_rows_kernel blocks in (%[[G:.*]], %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[G]] : index
// CHECK:         gpu.launch_func @softmax_rows_kernel_0::@softmax_rows_kernel
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
// CHECK-LABEL: gpu.module @softmax_rows_kernel {
// CHECK:         gpu.func @softmax_rows_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK:           scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for {{.*}} iter_args({{.*}}) -> (f64) {
// CHECK:               math.exp
// CHECK:         gpu.return
// CHECK-LABEL: gpu.module @softmax_rows_kernel_0 {
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        arith.remui %[[K]]
// CHECK-NEXT:        arith.divui %[[K]]
// CHECK:             arith.divf

// Both folds in one cluster: one reduction, two kernels; the host reads the results.
// CHECK-LABEL: func.func @sum_and_max(
// CHECK:         gpu.launch_func @sum_and_max_kernel::@sum_and_max_kernel blocks in
// CHECK:         gpu.launch_func @sum_and_max_kernel_1::@sum_and_max_kernel blocks in (%c1{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c256
// CHECK:         memref.load
// CHECK:         memref.load
// CHECK-LABEL: gpu.module @sum_and_max_kernel {
// CHECK:           scf.for {{.*}} iter_args({{.*}}) -> (i32, i32) {
// CHECK:           gpu.all_reduce
// CHECK:             arith.addi
// CHECK:           gpu.all_reduce
// CHECK:             arith.maxsi
// CHECK:           arith.cmpi eq, %thread_id_x
// CHECK-LABEL: gpu.module @sum_and_max_kernel_1 {
// CHECK:           gpu.all_reduce
// CHECK:           gpu.all_reduce

// The scan of an addition: three kernels over chunks of at least 16 elements.
// CHECK-LABEL: func.func @prefix_sums(
// CHECK:         arith.maxui %{{.*}}, %c16 : index
// CHECK:         %[[PARTIALS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         gpu.launch_func @prefix_sums_kernel::@prefix_sums_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c256
// CHECK:         gpu.launch_func @prefix_sums_kernel_{{[0-9]+}}::@prefix_sums_kernel blocks in (%c1{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c1{{.*}}, %c1{{.*}}, %c1{{.*}}) args(%[[PARTIALS]] : memref<?xi64>
// CHECK:         gpu.launch_func @prefix_sums_kernel_{{[0-9]+}}::@prefix_sums_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c256
// CHECK:         memref.dealloc %[[PARTIALS]]
// Phase 1: a chunk's sum from 0, nothing stored but the partial.
// CHECK-LABEL: gpu.module @prefix_sums_kernel {
// CHECK:           scf.for
// CHECK:             %[[END:.*]] = arith.minsi
// CHECK:             %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %[[END]] step %{{.*}} iter_args(%{{.*}} = %c0_i64) -> (i64) {
// CHECK-NEXT:          memref.load
// CHECK-NEXT:          arith.addi
// CHECK-NEXT:          scf.yield
// CHECK:             memref.store %[[SUM]]
// Phase 2: the partials' exclusive scan in place, from the scan's initial value.
// CHECK-LABEL: gpu.module @prefix_sums_kernel_{{[0-9]+}} {
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i64) {
// CHECK-NEXT:        %[[P:.*]] = memref.load %{{.*}}[%[[C]]]
// CHECK-NEXT:        memref.store %[[ACC]], %{{.*}}[%[[C]]]
// CHECK-NEXT:        arith.addi %[[ACC]], %[[P]]
// Phase 3: each chunk rescanned from its offset, storing.
// CHECK-LABEL: gpu.module @prefix_sums_kernel_{{[0-9]+}} {
// CHECK:             %[[OFFSET:.*]] = memref.load
// CHECK:             scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[OFFSET]]) -> (i64) {
// CHECK:               memref.store

// A scan of a subtraction (not associative): one thread.
// CHECK-LABEL: func.func @differences(
// CHECK:         gpu.launch_func @differences_kernel::@differences_kernel blocks in (%c1{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c1{{.*}}, %c1{{.*}}, %c1{{.*}})
// CHECK-NOT:     gpu.launch_func

// The scatter-add (with the squares it adds, fused into it): a copy of the destination,
// then one parallel kernel whose read-modify-write is one atomic add.
// CHECK-LABEL: func.func @histogram(
// CHECK:         gpu.launch_func @histogram_kernel::@histogram_kernel
// CHECK:         gpu.launch_func @histogram_kernel_{{[0-9]+}}::@histogram_kernel
// CHECK-NOT:     gpu.launch_func
// CHECK:         return
// CHECK-LABEL: gpu.module @histogram_kernel_{{[0-9]+}} {
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             arith.muli
// CHECK:             scf.if
// CHECK-NEXT:          memref.atomic_rmw addi
// CHECK-NOT:           memref.store
// CHECK:         gpu.return

// A scatter whose combine keeps the new value (the last write wins, so the order
// matters): one thread, after the parallel copy.
// CHECK-LABEL: func.func @last_write(
// CHECK:         gpu.launch_func @last_write_kernel::@last_write_kernel
// CHECK:         gpu.launch_func @last_write_kernel_{{[0-9]+}}::@last_write_kernel blocks in (%c1{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c1{{.*}}, %c1{{.*}}, %c1{{.*}})
// CHECK-LABEL: gpu.module @last_write_kernel_{{[0-9]+}} {
// CHECK-NOT:       memref.atomic_rmw
// CHECK:         gpu.return

func.func @softmax_rows(%m: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %zero = arith.constant 0.0 : f64
  %e = array.map %m : tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64):
    %y = math.exp %x : f64
    array.yield %y : f64
  }
  %s = array.fold %e init(%zero : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %t = arith.addf %acc, %x fastmath<reassoc> : f64
    array.yield %t : f64
  }
  %n:2 = array.size %m : tensor<?x?xf64>
  %r = array.generate (%n#0, %n#1) : tensor<?x?xf64> {
  ^bb0(%i: index, %j: index):
    %x = array.index %e[%i, %j] : tensor<?x?xf64>
    %d = array.index %s[%i] : tensor<?xf64>
    %q = arith.divf %x, %d : f64
    array.yield %q : f64
  }
  return %r : tensor<?x?xf64>
}

func.func @sum_and_max(%xs: tensor<?xi32>) -> (tensor<i32>, tensor<i32>) {
  %seven = arith.constant 7 : i32
  %low = arith.constant -2147483648 : i32
  %sum = array.fold %xs init(%seven : i32) : tensor<?xi32> -> tensor<i32> {
  ^bb0(%acc: i32, %x: i32):
    %t = arith.addi %acc, %x : i32
    array.yield %t : i32
  }
  %max = array.fold %xs init(%low : i32) : tensor<?xi32> -> tensor<i32> {
  ^bb0(%acc: i32, %x: i32):
    %t = arith.maxsi %acc, %x : i32
    array.yield %t : i32
  }
  return %sum, %max : tensor<i32>, tensor<i32>
}

func.func @prefix_sums(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %zero = arith.constant 0 : i64
  %p = array.scan left inclusive %xs init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  return %p : tensor<?xi64>
}

func.func @differences(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %zero = arith.constant 0 : i64
  %p = array.scan left inclusive %xs init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.subi %x, %acc : i64
    array.yield %t : i64
  }
  return %p : tensor<?xi64>
}

func.func @histogram(%dest: tensor<?xi64>, %is: tensor<?xindex>, %xs: tensor<?xi64>) -> tensor<?xi64> {
  %squares = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %r = array.scatter %dest[%is], %squares : tensor<?xi64>[tensor<?xindex>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  return %r : tensor<?xi64>
}

func.func @last_write(%dest: tensor<?xf32>, %is: tensor<?xindex>, %xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = array.scatter %dest[%is], %xs : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return %r : tensor<?xf32>
}
