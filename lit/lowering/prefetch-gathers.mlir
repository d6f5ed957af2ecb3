// `array-prefetch-gathers` (passes/src/prefetch_gathers.rs; after `array-reuse-buffers`
// in fusion_codegen's CPU pipelines): a loop that reads a buffer at indices it loads
// from memory prefetches what a later iteration reads: a gathered element 32 iterations
// ahead (a chain of two loads in two stages, 32 and 16 ahead), a gathered row (a fold
// fused into a gather) one iteration ahead, 512 bytes per 4 KiB of the current row.
// Sources under 1 MiB are read without prefetches: a loop reading a buffer of dynamic
// size is versioned on its size.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-prefetch-gathers))' | FileCheck %s
//
// Seed 000's simple programs: in the CPU pipeline's LLVM IR the fused gathers prefetch
// (`simple2` in two stages, `simple4` eight lines per block), and each computes what it
// did: rows shorter and longer than a block, no rows, sequentially and on OpenMP threads.
// The default cost keeps simple4's fold out of its gather (`gathered-folds`); seed 000's
// cost `reads-writes` fuses it, and the runs with `--cost=reads-writes` check that loop.
// RUN: fuse-opt %examples/seed000_simple.mlir --emit-llvm=%t.ll --cost=reads-writes 2>/dev/null && FileCheck %s --check-prefix=LLVM < %t.ll
// LLVM-LABEL: define {{.*}} @simple1(
// LLVM-COUNT-1: call void @llvm.prefetch
// LLVM-NOT:     call void @llvm.prefetch
// LLVM:       }
// LLVM-LABEL: define {{.*}} @simple2(
// LLVM-COUNT-2: call void @llvm.prefetch
// LLVM-NOT:     call void @llvm.prefetch
// LLVM:       }
// LLVM-LABEL: define {{.*}} @simple4(
// LLVM-COUNT-8: call void @llvm.prefetch
// LLVM-NOT:     call void @llvm.prefetch
// LLVM:       }
// RUN: fuse-opt %examples/seed000_simple.mlir --run --check --size=0 2>/dev/null | FileCheck %s --check-prefix=RAN
// RUN: fuse-opt %examples/seed000_simple.mlir --run --check --size=7 2>/dev/null | FileCheck %s --check-prefix=RAN
// RUN: fuse-opt %examples/seed000_simple.mlir --run --check --size=1000 --seed=3 2>/dev/null | FileCheck %s --check-prefix=RAN
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed000_simple.mlir --run --check --openmp --size=700 2>/dev/null | FileCheck %s --check-prefix=RAN
// RUN: fuse-opt %examples/seed000_simple.mlir --run --check --size=7 --cost=reads-writes 2>/dev/null | FileCheck %s --check-prefix=RAN
// RUN: fuse-opt %examples/seed000_simple.mlir --run --check --size=1000 --seed=3 --cost=reads-writes 2>/dev/null | FileCheck %s --check-prefix=RAN
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed000_simple.mlir --run --check --openmp --size=700 --cost=reads-writes 2>/dev/null | FileCheck %s --check-prefix=RAN
// The same with sources of 1 MiB or more, where the versioned loops take their
// prefetching branch.
// RUN: fuse-opt %examples/seed000_simple.mlir --run --check --function=simple1 --size=140000 2>/dev/null | FileCheck %s --check-prefix=RAN1
// RUN: fuse-opt %examples/seed000_simple.mlir --run --check --function=simple2 --size=140000 2>/dev/null | FileCheck %s --check-prefix=RAN2
// RUN: fuse-opt %examples/seed000_simple.mlir --run --check --function=simple4 --size=400 --cost=reads-writes 2>/dev/null | FileCheck %s --check-prefix=RAN4
// RAN1: @simple1: match (interpreter, unfused, fused)
// RAN2: @simple2: match (interpreter, unfused, fused)
// RAN4: @simple4: match (interpreter, unfused, fused)
// RAN: @simple1: match (interpreter, unfused, fused)
// RAN: @simple2: match (interpreter, unfused, fused)
// RAN: @simple3: match (interpreter, unfused, fused)
// RAN: @simple4: match (interpreter, unfused, fused)
// RAN: @simple5: match (interpreter, unfused, fused)

// A gathered element: the index 32 iterations ahead (this one's at the end), clamped.
// The source's size is dynamic: the loop prefetches when it has 2^17 f64 (1 MiB) or
// more, and runs as it was otherwise.
// CHECK-LABEL: func.func @gathered_element(
// CHECK-SAME:      %[[IS:[a-z0-9]+]]: memref<?xindex>, %[[X:[a-z0-9]+]]: memref<?xf64>
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf64>
// CHECK:         %[[COUNT:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK:         %[[LEAST:.*]] = arith.constant 131072 : index
// CHECK:         %[[LARGE:.*]] = arith.cmpi uge, %[[COUNT]], %[[LEAST]] : index
// CHECK:         scf.if %[[LARGE]] {
// CHECK:         %[[LAST:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[M:.*]]) step (%[[S:.*]]) {
// CHECK:           %[[K:.*]] = memref.load %[[IS]][%[[I]]]
// CHECK:           %[[D:.*]] = arith.constant 32 : index
// CHECK:           %[[STRIDE:.*]] = arith.muli %[[S]], %[[D]] : index
// CHECK:           %[[LATER:.*]] = arith.addi %[[I]], %[[STRIDE]] : index
// CHECK:           %[[NOWRAP:.*]] = arith.cmpi sgt, %[[LATER]], %[[I]] : index
// CHECK:           %[[INSIDE:.*]] = arith.cmpi slt, %[[LATER]], %[[M]] : index
// CHECK:           %[[VALID:.*]] = arith.andi %[[NOWRAP]], %[[INSIDE]] : i1
// CHECK:           %[[AT:.*]] = arith.select %[[VALID]], %[[LATER]], %[[I]] : index
// CHECK:           %[[KAHEAD:.*]] = memref.load %[[IS]][%[[AT]]]
// CHECK:           %[[CLAMPED:.*]] = arith.minui %[[KAHEAD]], %[[LAST]] : index
// CHECK:           memref.prefetch %[[X]][%[[CLAMPED]]], read, locality<3>, data : memref<?xf64>
// CHECK:           memref.load %[[X]][%[[K]]]
// CHECK:         } else {
// CHECK-NOT:       memref.prefetch
// CHECK:           scf.parallel
// CHECK:             %[[K2:.*]] = memref.load %[[IS]]
// CHECK:             memref.load %[[X]][%[[K2]]]
// CHECK-NOT:       memref.prefetch
// CHECK:         return
func.func @gathered_element(%is: memref<?xindex>, %x: memref<?xf64>) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %is, %c0 : memref<?xindex>
  %out = memref.alloc(%m) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %k = memref.load %is[%i] : memref<?xindex>
    %e = memref.load %x[%k] : memref<?xf64>
    memref.store %e, %out[%i] : memref<?xf64>
    scf.reduce
  }
  return %out : memref<?xf64>
}

// Sources of static size: a table of 2^12 f64 (32 KiB) and a matrix of 64 x 64 i64
// (32 KiB) are read without prefetches, a table of 2^17 f64 (1 MiB) is prefetched with
// no test of its size.
// CHECK-LABEL: func.func @small_sources(
// CHECK-NOT:     memref.prefetch
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @small_sources(%is: memref<?xindex>, %x: memref<4096xf64>, %y: memref<64x64xi64>, %out: memref<?xf64>, %sums: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i64
  %m = memref.dim %is, %c0 : memref<?xindex>
  scf.for %i = %c0 to %m step %c1 {
    %k = memref.load %is[%i] : memref<?xindex>
    %e = memref.load %x[%k] : memref<4096xf64>
    memref.store %e, %out[%i] : memref<?xf64>
  }
  scf.for %i = %c0 to %m step %c1 {
    %r = memref.load %is[%i] : memref<?xindex>
    %s = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (i64) {
      %e = memref.load %y[%r, %j] : memref<64x64xi64>
      %t = arith.addi %acc, %e : i64
      scf.yield %t : i64
    }
    memref.store %s, %sums[%i] : memref<?xi64>
  }
  return
}

// CHECK-LABEL: func.func @large_source(
// CHECK-NOT:     scf.if
// CHECK:         scf.for
// CHECK:           memref.prefetch %{{.*}} : memref<131072xf64>
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @large_source(%is: memref<?xindex>, %x: memref<131072xf64>, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %is, %c0 : memref<?xindex>
  scf.for %i = %c0 to %m step %c1 {
    %k = memref.load %is[%i] : memref<?xindex>
    %e = memref.load %x[%k] : memref<131072xf64>
    memref.store %e, %out[%i] : memref<?xf64>
  }
  return
}

// A versioned loop with a result: both branches yield it.
// CHECK-LABEL: func.func @gathered_sum(
// CHECK:         %[[SUM:.*]] = scf.if %{{.*}} -> (i64) {
// CHECK:           %[[FAST:.*]] = scf.for
// CHECK:             memref.prefetch
// CHECK:           scf.yield %[[FAST]] : i64
// CHECK:         } else {
// CHECK:           %[[PLAIN:.*]] = scf.for
// CHECK-NOT:         memref.prefetch
// CHECK:           scf.yield %[[PLAIN]] : i64
// CHECK:         return %[[SUM]] : i64
func.func @gathered_sum(%is: memref<?xindex>, %x: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %m = memref.dim %is, %c0 : memref<?xindex>
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> (i64) {
    %k = memref.load %is[%i] : memref<?xindex>
    %e = memref.load %x[%k] : memref<?xi64>
    %t = arith.addi %acc, %e : i64
    scf.yield %t : i64
  }
  return %s : i64
}

// Two gathers fused (seed 000's simple2): the first index 32 ahead, the element 16
// ahead, through the first index loaded again. The loop stores only into its fresh
// output, so the index buffers it reads early hold what it reads later.
// CHECK-LABEL: func.func @two_levels(
// CHECK-SAME:      %[[IS1:[a-z0-9]+]]: memref<?xindex>, %[[IS2:[a-z0-9]+]]: memref<?xindex>, %[[X:[a-z0-9]+]]: memref<?xi64>
// CHECK:         scf.parallel
// CHECK:           arith.constant 32 : index
// CHECK:           %[[K2:.*]] = memref.load %[[IS2]]
// CHECK:           memref.prefetch %[[IS1]][%{{.*}}]
// CHECK:           arith.constant 16 : index
// CHECK:           %[[L2:.*]] = memref.load %[[IS2]]
// CHECK:           %[[L1:.*]] = memref.load %[[IS1]][%[[L2]]]
// CHECK:           %[[C:.*]] = arith.minui %[[L1]], %{{.*}} : index
// CHECK:           memref.prefetch %[[X]][%[[C]]]
func.func @two_levels(%is1: memref<?xindex>, %is2: memref<?xindex>, %x: memref<?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %is2, %c0 : memref<?xindex>
  %out = memref.alloc(%m) : memref<?xi64>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %k = memref.load %is2[%i] : memref<?xindex>
    %l = memref.load %is1[%k] : memref<?xindex>
    %e = memref.load %x[%l] : memref<?xi64>
    memref.store %e, %out[%i] : memref<?xi64>
    scf.reduce
  }
  return %out : memref<?xi64>
}

// The same loop storing into an argument, which may be the index buffer: only the first
// stage.
// CHECK-LABEL: func.func @two_levels_writing(
// CHECK-SAME:      %[[IS1:[a-z0-9]+]]: memref<?xindex>, %[[IS2:[a-z0-9]+]]: memref<?xindex>, %[[X:[a-z0-9]+]]: memref<?xindex>
// CHECK:           memref.prefetch %[[IS1]]
// CHECK-NOT:       memref.prefetch
// CHECK:         return
func.func @two_levels_writing(%is1: memref<?xindex>, %is2: memref<?xindex>, %x: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %is2, %c0 : memref<?xindex>
  scf.for %i = %c0 to %m step %c1 {
    %k = memref.load %is2[%i] : memref<?xindex>
    %l = memref.load %is1[%k] : memref<?xindex>
    %e = memref.load %x[%l] : memref<?xindex>
    memref.store %e, %is2[%i] : memref<?xindex>
  }
  return
}

// The gathered row sums as `array-to-loops` and bufferization leave them.
// CHECK-LABEL: func.func @gathered_rows(
// CHECK-SAME:      %[[IS:[a-z0-9]+]]: memref<?xindex>, %[[X:[a-z0-9]+]]: memref<?x?xi64>
// CHECK:         %[[LASTROW:.*]] = arith.subi %{{.*}}, %[[ONE:.*]] : index
// CHECK:         %[[LASTCOL:.*]] = arith.subi %{{.*}}, %[[ONE]] : index
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[M:.*]]) step (%[[S:.*]]) {
// CHECK:           %[[ROW:.*]] = memref.load %[[IS]][%[[I]]]
// CHECK:           %[[FOLLOWING:.*]] = arith.addi %[[I]], %[[S]] : index
// CHECK:           %[[NOWRAP:.*]] = arith.cmpi sgt, %[[FOLLOWING]], %[[I]] : index
// CHECK:           %[[INSIDE:.*]] = arith.cmpi slt, %[[FOLLOWING]], %[[M]] : index
// CHECK:           %[[VALID:.*]] = arith.andi %[[NOWRAP]], %[[INSIDE]] : i1
// CHECK:           %[[NEXT:.*]] = arith.select %[[VALID]], %[[FOLLOWING]], %[[I]] : index
// CHECK:           %[[NEXTROW:.*]] = memref.load %[[IS]][%[[NEXT]]]
// CHECK:           %[[CLAMPED:.*]] = arith.minui %[[NEXTROW]], %[[LASTROW]] : index
// CHECK:           %[[B:.*]] = arith.constant 512 : index
// CHECK:           %[[SUM:.*]] = scf.for %[[JB:.*]] = %[[LO:.*]] to %[[N:.*]] step %[[B]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (i64) {
// CHECK:             %[[END:.*]] = arith.select %{{.*}}, %{{.*}}, %[[N]] : index
// CHECK:             %[[DONE:.*]] = arith.subi %[[JB]], %[[LO]] : index
// CHECK:             %[[PART:.*]] = arith.divui %[[DONE]], %{{.*}} : index
// CHECK:             %[[AHEAD:.*]] = arith.addi %[[LO]], %[[PART]] : index
// CHECK-COUNT-8:     memref.prefetch %[[X]][%[[CLAMPED]], %{{.*}}], read, locality<3>, data : memref<?x?xi64>
// CHECK:             %[[PARTIAL:.*]] = scf.for %[[J:.*]] = %[[JB]] to %[[END]] step %{{.*}} iter_args(%[[A:.*]] = %[[ACC]]) -> (i64) {
// CHECK:               memref.load %[[X]][%[[ROW]], %[[J]]]
// CHECK:             scf.yield %[[PARTIAL]] : i64
// CHECK:           memref.store %[[SUM]], %{{.*}}[%[[I]]]
func.func @gathered_rows(%is: memref<?xindex>, %x: memref<?x?xi64>) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %m = memref.dim %is, %c0 : memref<?xindex>
  %n = memref.dim %x, %c1 : memref<?x?xi64>
  %out = memref.alloc(%m) : memref<?xi64>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %r = memref.load %is[%i] : memref<?xindex>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %e = memref.load %x[%r, %j] : memref<?x?xi64>
      %t = arith.addi %acc, %e : i64
      scf.yield %t : i64
    }
    memref.store %s, %out[%i] : memref<?xi64>
    scf.reduce
  }
  return %out : memref<?xi64>
}

// Four-byte elements: blocks of 1024, lines of 16. The row index is computed from the
// loaded one (a cast and an add with an overflow flag, cloned without it); the outer
// loop is sequential and its step is 2.
// CHECK-LABEL: func.func @computed_row(
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[S:.*]] {
// CHECK:           %[[FOLLOWING:.*]] = arith.addi %[[I]], %[[S]] : index
// CHECK:           %[[NEXT:.*]] = arith.select %{{.*}}, %[[FOLLOWING]], %[[I]] : index
// CHECK:           %[[LOADED:.*]] = memref.load %{{.*}}[%[[NEXT]]] : memref<?xi32>
// CHECK:           %[[CAST:.*]] = arith.index_cast %[[LOADED]] : i32 to index
// CHECK:           %[[PLUS:.*]] = arith.addi %[[CAST]], %{{.*}} : index
// CHECK-NOT:       overflow
// CHECK:           arith.minui %[[PLUS]], %{{.*}} : index
// CHECK:           arith.constant 1024 : index
// CHECK:           arith.constant 112 : index
// CHECK:           memref.prefetch
func.func @computed_row(%is: memref<?xi32>, %x: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %is, %c0 : memref<?xi32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c2 {
    %raw = memref.load %is[%i] : memref<?xi32>
    %cast = arith.index_cast %raw : i32 to index
    %r = arith.addi %cast, %c1 overflow<nsw> : index
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %e = memref.load %x[%r, %j] : memref<?x?xf32>
      %t = arith.addf %acc, %e : f32
      scf.yield %t : f32
    }
    memref.store %s, %out[%i] : memref<?xf32>
  }
  return
}

// Left alone: rows in the loop's own order (the hardware prefetcher streams them).
// CHECK-LABEL: func.func @rows_in_order(
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @rows_in_order(%x: memref<?x?xi64>, %out: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %m = memref.dim %x, %c0 : memref<?x?xi64>
  %n = memref.dim %x, %c1 : memref<?x?xi64>
  scf.for %i = %c0 to %m step %c1 {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %e = memref.load %x[%i, %j] : memref<?x?xi64>
      %t = arith.addi %acc, %e : i64
      scf.yield %t : i64
    }
    memref.store %s, %out[%i] : memref<?xi64>
  }
  return
}

// A row loaded at a loaded index while the loop stores into an argument: the row is
// left alone (its index buffer might change before it is read); the first load, a
// gathered element, is prefetched.
// CHECK-LABEL: func.func @row_at_loaded_index(
// CHECK-SAME:      %[[IS:[a-z0-9]+]]: memref<?xindex>, %[[X:[a-z0-9]+]]: memref<?x?xi64>
// CHECK:           memref.prefetch %[[IS]]
// CHECK-NOT:       memref.prefetch
// CHECK:         return
func.func @row_at_loaded_index(%is: memref<?xindex>, %x: memref<?x?xi64>, %out: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %m = memref.dim %is, %c0 : memref<?xindex>
  %n = memref.dim %x, %c1 : memref<?x?xi64>
  scf.for %i = %c0 to %m step %c1 {
    %k = memref.load %is[%i] : memref<?xindex>
    %r = memref.load %is[%k] : memref<?xindex>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %e = memref.load %x[%r, %j] : memref<?x?xi64>
      %t = arith.addi %acc, %e : i64
      scf.yield %t : i64
    }
    memref.store %s, %out[%i] : memref<?xi64>
  }
  return
}

// Left alone: a row index carried by the outer loop, the row index as the last index
// (a column), a row loop with another step, a row index computed with a division.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @left_alone(%is: memref<?xindex>, %x: memref<?x?xi64>, %out: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %m = memref.dim %is, %c0 : memref<?xindex>
  %n = memref.dim %x, %c1 : memref<?x?xi64>
  %last = scf.for %i = %c0 to %m step %c1 iter_args(%r = %c0) -> (index) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %e = memref.load %x[%r, %j] : memref<?x?xi64>
      %t = arith.addi %acc, %e : i64
      scf.yield %t : i64
    }
    memref.store %s, %out[%i] : memref<?xi64>
    %next = memref.load %is[%i] : memref<?xindex>
    scf.yield %next : index
  }
  scf.for %i = %c0 to %m step %c1 {
    %r = memref.load %is[%i] : memref<?xindex>
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %e = memref.load %x[%j, %r] : memref<?x?xi64>
      %t = arith.addi %acc, %e : i64
      scf.yield %t : i64
    }
    memref.store %s, %out[%i] : memref<?xi64>
  }
  scf.for %i = %c0 to %m step %c1 {
    %r = memref.load %is[%i] : memref<?xindex>
    %s = scf.for %j = %c0 to %n step %c2 iter_args(%acc = %zero) -> (i64) {
      %e = memref.load %x[%r, %j] : memref<?x?xi64>
      %t = arith.addi %acc, %e : i64
      scf.yield %t : i64
    }
    memref.store %s, %out[%i] : memref<?xi64>
  }
  scf.for %i = %c0 to %m step %c1 {
    %k = memref.load %is[%i] : memref<?xindex>
    %r = arith.divui %k, %c2 : index
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
      %e = memref.load %x[%r, %j] : memref<?x?xi64>
      %t = arith.addi %acc, %e : i64
      scf.yield %t : i64
    }
    memref.store %s, %out[%i] : memref<?xi64>
  }
  return
}
