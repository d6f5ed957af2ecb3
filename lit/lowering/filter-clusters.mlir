// `array-to-loops`: scalar queries, and clusters with filters, scans and folds fused into
// gathers, and expands with their producers, each one loop nest; a cluster it cannot fuse
// falls back to one loop nest per op with a remark.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops, one-shot-bufferize{bufferize-function-boundaries}, buffer-deallocation-pipeline, convert-scf-to-cf, expand-strided-metadata, finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts)' 2>/dev/null | FileCheck %s --check-prefix=LLVM

// LLVM-NOT:     array.
// LLVM-NOT:     scf.
// LLVM-NOT:     memref.
// LLVM-NOT:     unrealized_conversion_cast
// LLVM-LABEL:   llvm.func @sizes(

// array.size / array.dim become tensor.dim (a constant for a static extent); array.index
// of a rank-0 array inside a map body becomes tensor.extract in the loop.
// CHECK-LABEL: func.func @sizes(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x4xi64>, %[[S:.*]]: tensor<i64>)
// CHECK-NOT:     array.
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[N:.*]] = tensor.dim %[[XS]], %[[C0]] : tensor<?x4xi64>
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[D:.*]] = tensor.dim %[[XS]], %{{.*}} : tensor<?x4xi64>
// CHECK:         scf.parallel
// CHECK:           %[[E:.*]] = tensor.extract %[[S]][] : tensor<i64>
// CHECK:           arith.addi %{{.*}}, %[[E]]
// CHECK:         return %[[N]], %[[C4]], %[[D]]
func.func @sizes(%xs: tensor<?x4xi64>, %s: tensor<i64>) -> (index, index, index, tensor<?x4xi64>) {
  %n, %m = array.size %xs : tensor<?x4xi64>
  %d = array.dim %xs, 0 : tensor<?x4xi64>
  %ys = array.map %xs : tensor<?x4xi64> -> tensor<?x4xi64> {
  ^bb0(%x: i64):
    %e = array.index %s[] : tensor<i64>
    %y = arith.addi %x, %e : i64
    array.yield %y : i64
  }
  return %n, %m, %d, %ys : index, index, index, tensor<?x4xi64>
}

// seed 001 filterLeft: horizontal(map, filter) is exactly one scf.for over the input
// carrying the filter's count; the map's element is stored at the index, the kept
// element at the count under scf.if.
// CHECK-LABEL: func.func @filterLeft(
// CHECK-NOT:     scf.parallel
// CHECK:         %[[K:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CNT:.*]] = %{{.*}}) -> (index) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %{{.*}}[%[[I]]]
// CHECK:           %[[Y:.*]] = arith.addi %[[X]]
// CHECK:           %[[P:.*]] = arith.cmpi eq
// CHECK:           memref.store %[[Y]], %{{.*}}[%[[I]]]
// CHECK:           %[[NEW:.*]] = scf.if %[[P]] -> (index) {
// CHECK-NEXT:        memref.store %[[X]], %{{.*}}[%[[CNT]]]
// CHECK:             %[[INC:.*]] = arith.addi %[[CNT]]
// CHECK-NEXT:        scf.yield %[[INC]] : index
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[CNT]] : index
// CHECK:           scf.yield %[[NEW]] : index
// CHECK-NOT:     scf.for
// CHECK-NOT:     scf.parallel
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%[[K]]], strides: [1]
// CHECK:         return
func.func @filterLeft(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %r:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    %h:2 = array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
      %a = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %c1 = arith.constant 1 : i64
        %y = arith.addi %x, %c1 : i64
        array.yield %y : i64
      }
      array.yield %a : tensor<?xi64>
    } right {
      %b = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %c2 = arith.constant 2 : i64
        %c0 = arith.constant 0 : i64
        %m = arith.remsi %x, %c2 : i64
        %p = arith.cmpi eq, %m, %c0 : i64
        array.yield %p : i1
      }
      array.yield %b : tensor<?xi64>
    }
    array.yield %h#0, %h#1 : tensor<?xi64>, tensor<?xi64>
  }
  return %r#0, %r#1 : tensor<?xi64>, tensor<?xi64>
}

// filter → filter → fold and a fold of the input (seed 001 §1.4: a descendant size, one
// loop with two layers of filtering): one scf.for carrying the fold of the input, the two
// counts and the inner fold; the inner fold runs only under both predicates.
// CHECK-LABEL: func.func @filterFilterFold(
// CHECK-NOT:     scf.parallel
// CHECK:         %[[L:.*]]:4 = scf.for {{.*}} iter_args(%[[ALL:.*]] = %{{.*}}, %[[C1:.*]] = %{{.*}}, %[[C2:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (i64, index, index, i64) {
// CHECK:           %[[X:.*]] = memref.load
// CHECK:           %[[ALL2:.*]] = arith.addi %[[ALL]], %[[X]]
// CHECK:           %[[P1:.*]] = arith.cmpi sgt, %[[X]]
// CHECK:           %[[O:.*]]:3 = scf.if %[[P1]] -> (index, index, i64) {
// CHECK:             %[[P2:.*]] = arith.cmpi slt, %[[X]]
// CHECK:             %[[I:.*]]:2 = scf.if %[[P2]] -> (index, i64) {
// CHECK:               %[[ACC2:.*]] = arith.addi %[[ACC]], %[[X]]
// CHECK:               scf.yield %{{.*}}, %[[ACC2]] : index, i64
// CHECK:             } else {
// CHECK-NEXT:          scf.yield %[[C2]], %[[ACC]] : index, i64
// CHECK:             scf.yield %{{.*}}, %[[I]]#0, %[[I]]#1 : index, index, i64
// CHECK:           } else {
// CHECK-NEXT:        scf.yield %[[C1]], %[[C2]], %[[ACC]] : index, index, i64
// CHECK:           scf.yield %[[ALL2]], %[[O]]#0, %[[O]]#1, %[[O]]#2 : i64, index, index, i64
// CHECK-NOT:     scf.for
// CHECK:         memref.store %[[L]]#0
// CHECK:         memref.store %[[L]]#3
// CHECK:         return
func.func @filterFilterFold(%xs: tensor<?xi64>) -> (tensor<i64>, tensor<i64>) {
  %c0 = arith.constant 0 : i64
  %r:2 = array.cluster -> tensor<i64>, tensor<i64> {
    %h:2 = array.horizontal -> tensor<i64>, tensor<i64> left {
      %all = array.fold %xs init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {
      ^bb0(%a: i64, %x: i64):
        %s = arith.addi %a, %x : i64
        array.yield %s : i64
      }
      array.yield %all : tensor<i64>
    } right {
      %v = array.vertical -> tensor<i64> producer {
        %f1 = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
        ^bb0(%x: i64):
          %p = arith.cmpi sgt, %x, %c0 : i64
          array.yield %p : i1
        }
        array.yield %f1 : tensor<?xi64>
      } consumer {
      ^bb0(%f1: tensor<?xi64>):
        %w = array.vertical -> tensor<i64> producer {
          %f2 = array.filter %f1 : tensor<?xi64> -> tensor<?xi64> {
          ^bb0(%x: i64):
            %c10 = arith.constant 10 : i64
            %p = arith.cmpi slt, %x, %c10 : i64
            array.yield %p : i1
          }
          array.yield %f2 : tensor<?xi64>
        } consumer {
        ^bb0(%f2: tensor<?xi64>):
          %s = array.fold %f2 init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {
          ^bb0(%a: i64, %x: i64):
            %t = arith.addi %a, %x : i64
            array.yield %t : i64
          }
          array.yield %s : tensor<i64>
        }
        array.yield %w : tensor<i64>
      }
      array.yield %v : tensor<i64>
    }
    array.yield %h#0, %h#1 : tensor<i64>, tensor<i64>
  }
  return %r#0, %r#1 : tensor<i64>, tensor<i64>
}

// seed 000 simple4: a fold fused into a gather. The gather's index is pushed into the
// fold: one scf.parallel over the indices around an scf.for over the gathered row.
// CHECK-LABEL: func.func @simple4(
// CHECK-SAME:      %[[IS:.*]]: tensor<?xindex>, %[[XS:.*]]: tensor<?x?xi64>)
// CHECK:         scf.parallel (%[[K:.*]]) =
// CHECK-NEXT:      %[[I:.*]] = memref.load %{{.*}}[%[[K]]] : memref<?xindex>
// CHECK:           %[[R:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (i64) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<?x?xi64>
// CHECK-NEXT:        %[[S:.*]] = arith.addi %[[A]], %[[X]]
// CHECK-NEXT:        scf.yield %[[S]]
// CHECK:           memref.store %[[R]], %{{.*}}[%[[K]]]
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @simple4(%is: tensor<?xindex>, %xs: tensor<?x?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : i64
  %r = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %s = array.fold %xs init(%c0 : i64) {array.order = 2 : i64} : tensor<?x?xi64> -> tensor<?xi64> {
      ^bb0(%a: i64, %x: i64):
        %t = arith.addi %a, %x : i64
        array.yield %t : i64
      }
      array.yield %s : tensor<?xi64>
    } consumer {
    ^bb0(%s: tensor<?xi64>):
      %g = array.gather %s[%is] {array.label = 2 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
      array.yield %g : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// A map feeding a right exclusive scan: one scf.for running from the end, the map's
// value in a register, the old accumulator stored at n-1-k.
// CHECK-LABEL: func.func @mapRightScan(
// CHECK:         %[[LAST:.*]] = arith.subi
// CHECK:         scf.for %[[K:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (i64) {
// CHECK-NEXT:      %[[P:.*]] = arith.subi %[[LAST]], %[[K]]
// CHECK-NEXT:      %[[X:.*]] = memref.load %{{.*}}[%[[P]]]
// CHECK-NEXT:      %[[Y:.*]] = arith.muli %[[X]], %[[X]]
// CHECK-NEXT:      %[[B:.*]] = arith.addi %[[A]], %[[Y]]
// CHECK-NEXT:      memref.store %[[A]], %{{.*}}[%[[P]]]
// CHECK-NEXT:      scf.yield %[[B]]
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @mapRightScan(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : i64
  %r = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %m = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %y = arith.muli %x, %x : i64
        array.yield %y : i64
      }
      array.yield %m : tensor<?xi64>
    } consumer {
    ^bb0(%m: tensor<?xi64>):
      %s = array.scan right exclusive %m init(%c0 : i64) : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%a: i64, %x: i64):
        %t = arith.addi %a, %x : i64
        array.yield %t : i64
      }
      array.yield %s : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// An expand with its producer (seed 004 §2): a first loop sums the segment lengths (the
// producer's element function runs there too), the results get buffers of that length,
// then one loop over the input runs the producer and, per element, the segment loop
// storing at the running offset.
// CHECK-LABEL: func.func @map_expand(
// CHECK-SAME:      %[[XS:[^:]*]]: tensor<?xi64>)
// CHECK-NOT:     array.
// CHECK:         %[[TOTAL:.*]] = scf.for %{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}) -> (index) {
// CHECK:           arith.muli
// CHECK:           %[[LEN:.*]] = arith.maxsi
// CHECK:           %[[NEXT:.*]] = arith.addi %[[SUM]], %[[LEN]]
// CHECK:           scf.yield %[[NEXT]]
// CHECK:         %[[OUT:.*]] = memref.alloc(%[[TOTAL]])
// CHECK:         %[[END:.*]] = scf.for %{{.*}} iter_args(%[[OFFSET:.*]] = %{{.*}}) -> (index) {
// CHECK:           %[[Y:.*]] = arith.muli
// CHECK:           %[[N:.*]] = arith.maxsi
// CHECK:           scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %[[N]]
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[OFFSET]], %[[J]]
// CHECK-NEXT:        memref.store %[[Y]], %[[OUT]][%[[AT]]]
// CHECK:           arith.addi %[[OFFSET]], %[[N]]
// CHECK:         memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [%[[END]]]
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @map_expand(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %m = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %y = arith.muli %x, %x : i64
        array.yield %y : i64
      }
      array.yield %m : tensor<?xi64>
    } consumer {
    ^bb0(%m: tensor<?xi64>):
      %e = array.expand %m : tensor<?xi64> -> tensor<?xi64> count {
      ^bb0(%x: i64):
        %c = arith.index_cast %x : i64 to index
        array.yield %c : index
      } get {
      ^bb0(%x: i64, %j: index):
        array.yield %x : i64
      }
      array.yield %e : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// Fallback: an expand of an expand's segments is not fused (the first pass would need the
// inner counts per segment); the cluster becomes one loop nest per op (the unfused
// baseline), with a remark at the cluster.
// REMARK: filter-clusters.mlir:[[@LINE+10]]:8: remark: array-to-loops: cluster lowered op by op (unfused), not as one loop nest: an expand of an expand's segments
// REMARK-NOT: remark
// CHECK-LABEL: func.func @fallback(
// CHECK-NOT:     array.
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:         return
func.func @fallback(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %e = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
      ^bb0(%x: i64):
        %c = arith.index_cast %x : i64 to index
        array.yield %c : index
      } get {
      ^bb0(%x: i64, %j: index):
        array.yield %x : i64
      }
      array.yield %e : tensor<?xi64>
    } consumer {
    ^bb0(%e: tensor<?xi64>):
      %f = array.expand %e : tensor<?xi64> -> tensor<?xi64> count {
      ^bb0(%x: i64):
        %c = arith.index_cast %x : i64 to index
        array.yield %c : index
      } get {
      ^bb0(%x: i64, %j: index):
        array.yield %x : i64
      }
      array.yield %f : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}
