// An expand fused with a scatter (seed 004 §1.4) as GPU kernels: the cluster is one
// segment nest, which array-gpu-kernels divides among threads by the strategy of
// --gpu-expand (option expand-strategy; seed 004 §4.1): whole segments per thread, one
// element per warp or block (lane 0 shuffling its values, or thread 0 through
// workgroup memory and a barrier), N elements per block found by the unrolled binary
// search of §4.3, or one thread per expanded element after a scan of the counts. The
// scatter's add is an atomic update in every one. Each gives the interpreter's results
// under the emulator, from empty inputs up; the remark names the division.
//
// RUN: fuse-opt %s --emit-gpu=%t/auto --gpu-target=nvptx:sm_90 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: fuse-opt %s --emit-gpu=%t/warp --gpu-target=nvptx:sm_90 --gpu-expand=1-per-warp 2>&1 | FileCheck %s --check-prefix=WARP
// RUN: cat %t/warp/*.ptx | FileCheck %s --check-prefix=SHUFFLE
// RUN: fuse-opt %s --emit-gpu=%t/block --gpu-target=nvptx:sm_80 --gpu-expand=8-per-block 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: cat %t/block/*.ptx | FileCheck %s --check-prefix=SHARED
// RUN: fuse-opt %s --run --check --size=0 --gpu-sim --gpu-expand=1-per-block-shuffle | FileCheck %s --check-prefix=SIM
// RUN: fuse-opt %s --run --check --size=300 --seed=4 --gpu-sim --gpu-expand=1-per-block-shared | FileCheck %s --check-prefix=SIM
// RUN: fuse-opt %s --run --check --size=300 --seed=5 --gpu-sim --gpu-expand=8-per-block | FileCheck %s --check-prefix=SIM
// RUN: fuse-opt %s --run --check --size=300 --seed=6 --gpu-sim --gpu-expand=balanced | FileCheck %s --check-prefix=SIM
// RUN: not fuse-opt %s --run --gpu-sim --gpu-expand=3-per-block 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fuse-opt %s --run --gpu-expand=1-per-warp 2>&1 | FileCheck %s --check-prefix=NOSIM
// Without a CUDA driver (FUSION_CUDA_DRIVER names the library to load), --gpu says so,
// runs nothing and exits with 1.
// RUN: env FUSION_CUDA_DRIVER=/nonexistent/libcuda.so.1 not fuse-opt %s --run --check --gpu 2>&1 | FileCheck %s --check-prefix=NODRIVER

// Segments of at most 6 elements: blocks of 256 threads take 64 elements each.
// AUTO: remark: array-gpu-kernels: an expand fused with a scatter runs as 64-per-block kernels (chosen for segments of at most 6 elements)
// AUTO: 0 one-thread kernels, 1 expand-permute nests
// WARP: runs as 1-per-warp kernels (as requested)
// SHUFFLE: shfl.sync.idx
// SHUFFLE: atom.global.add.u64
// BLOCK: runs as 8-per-block kernels (as requested)
// SHARED: .shared
// SHARED: bar.sync
// SHARED: atom.global.add.u64
// SIM: @expand_permute: match (interpreter, unfused, fused) [compiled = GPU kernels, emulated on the CPU]
// BAD: fuse-opt: error: --gpu-expand: '3-per-block' is not one of auto, 1-per-thread, 1-per-warp, 1-per-block-shuffle, 1-per-block-shared, N-per-block (N a power of two from 2 to 1024), balanced
// NOSIM: fuse-opt: error: --gpu-expand needs --gpu-sim
// NODRIVER: fuse-opt: error: --gpu: no CUDA driver: /nonexistent/libcuda.so.1 cannot be loaded ({{.*}}); nothing was run (--gpu-sim runs the same kernels emulated on the CPU)
// NODRIVER-NOT: @expand_permute

func.func @expand_permute(%src: tensor<?xi64>, %dst: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.dim %dst, 0 : tensor<?xi64>
  %targets, %values = array.expand %src : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c7 = arith.constant 7 : i64
    %r = arith.remui %a, %c7 : i64
    %c = arith.index_cast %r : i64 to index
    array.yield %c : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %t = arith.addi %a, %ii : i64
    %m = arith.index_cast %n : index to i64
    %tt = arith.remui %t, %m : i64
    array.yield %tt, %a : i64, i64
  }
  %p = array.scatter %dst[%targets], %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  return %p : tensor<?xi64>
}
