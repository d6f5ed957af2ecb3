// `array-to-loops` (second slice): a cluster whose leaves are maps, generates and folds
// over one iteration space becomes exactly one loop nest; only the cluster's outputs
// get buffers.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | fuse-opt --verify-diagnostics > /dev/null

// (a) vertical(map, map): the producer's value stays in registers.
// CHECK-LABEL: func.func @vertical(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xi64>)
// CHECK:         %[[N:.*]] = tensor.dim %[[XS]]
// CHECK:         %[[OUT:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK-NOT:     memref.alloc
// CHECK:         %[[BX:.*]] = bufferization.to_buffer %[[XS]]
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N]]) step
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[BX]][%[[I]]] : memref<?xi64>
// CHECK-NEXT:      %[[Y:.*]] = arith.muli %[[X]], %[[X]] : i64
// CHECK-NEXT:      %[[Z:.*]] = arith.addi %[[Y]], %[[X]] : i64
// CHECK-NEXT:      memref.store %[[Z]], %[[OUT]][%[[I]]] : memref<?xi64>
// CHECK-NEXT:      scf.reduce
// CHECK:         %[[T:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NOT:     scf.parallel
// CHECK:         return %[[T]]
func.func @vertical(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %y = arith.muli %x, %x : i64
        array.yield %y : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %zs = array.map %ys, %xs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%y: i64, %x: i64):
        %z = arith.addi %y, %x : i64
        array.yield %z : i64
      }
      array.yield %zs : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// (b) horizontal(map, map): both sides in one body, the shared input loaded once.
// CHECK-LABEL: func.func @horizontal(
// CHECK-SAME:      %[[XS:.*]]: tensor<8xf32>)
// CHECK-COUNT-2: memref.alloc() : memref<8xf32>
// CHECK:         %[[BX:.*]] = bufferization.to_buffer %[[XS]]
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-COUNT-1:   memref.load %[[BX]]
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      scf.reduce
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @horizontal(%xs: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r:2 = array.cluster -> tensor<8xf32>, tensor<8xf32> {
    %h:2 = array.horizontal -> tensor<8xf32>, tensor<8xf32> left {
      %a = array.map %xs : tensor<8xf32> -> tensor<8xf32> {
      ^bb0(%x: f32):
        %y = arith.addf %x, %x : f32
        array.yield %y : f32
      }
      array.yield %a : tensor<8xf32>
    } right {
      %b = array.map %xs : tensor<8xf32> -> tensor<8xf32> {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %x : f32
        array.yield %y : f32
      }
      array.yield %b : tensor<8xf32>
    }
    array.yield %h#0, %h#1 : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// (c) diagonal(generate, map): the producer's value is used directly and stored.
// CHECK-LABEL: func.func @diagonal(
// CHECK-SAME:      %[[N:.*]]: index)
// CHECK:         %[[P:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK:         %[[C:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N]]) step
// CHECK-NOT:       memref.load
// CHECK:           %[[V:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:           %[[W:.*]] = arith.subi %[[V]], %{{.*}} : i64
// CHECK:           memref.store %[[V]], %[[P]][%[[I]]]
// CHECK:           memref.store %[[W]], %[[C]][%[[I]]]
// CHECK-NEXT:      scf.reduce
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @diagonal(%n: index) -> (tensor<?xi64>, tensor<?xi64>) {
  %r:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    %d:2 = array.diagonal -> tensor<?xi64>, tensor<?xi64> producer {
      %ys = array.generate (%n) : tensor<?xi64> {
      ^bb0(%i: index):
        %v = arith.index_cast %i : index to i64
        array.yield %v : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%y: i64):
        %c3 = arith.constant 3 : i64
        %z = arith.subi %y, %c3 : i64
        array.yield %z : i64
      }
      array.yield %zs : tensor<?xi64>
    }
    array.yield %d#0, %d#1 : tensor<?xi64>, tensor<?xi64>
  }
  return %r#0, %r#1 : tensor<?xi64>, tensor<?xi64>
}

// (d) The first cluster of seed 002's extended normalise2, with the scan (outside this
// slice) replaced by a map: diagonal(map, horizontal(fold, vertical(map, fold))). One
// loop reduces both integer sums in parallel (scf.parallel + scf.reduce: `addi` is
// associative and commutative); the diagonal's map is stored.
// CHECK-LABEL: func.func @normalise2ExtendedMap(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xi64>)
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : i64
// CHECK:         %[[N:.*]] = tensor.dim %[[XS]]
// CHECK:         %[[YS:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK:         %[[S1:.*]] = memref.alloc() : memref<i64>
// CHECK:         %[[S2:.*]] = memref.alloc() : memref<i64>
// CHECK:         %[[BX:.*]] = bufferization.to_buffer %[[XS]]
// CHECK:         %[[F:.*]]:2 = scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N]]) step (%{{.*}}) init (%[[Z]], %[[Z]]) -> (i64, i64) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[BX]][%[[I]]]
// CHECK:           %[[Y:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:      %[[Q:.*]] = arith.muli %[[Y]], %[[Y]] : i64
// CHECK-NEXT:      memref.store %[[Y]], %[[YS]][%[[I]]]
// CHECK-NEXT:      scf.reduce(%[[Y]], %[[Q]] : i64, i64) {
// CHECK-NEXT:      ^bb0(%[[L1:.*]]: i64, %[[R1:.*]]: i64):
// CHECK-NEXT:        %[[S:.*]] = arith.addi %[[L1]], %[[R1]] : i64
// CHECK-NEXT:        scf.reduce.return %[[S]] : i64
// CHECK-NEXT:      }, {
// CHECK:         memref.store %[[F]]#0, %[[S1]][]
// CHECK:         memref.store %[[F]]#1, %[[S2]][]
// CHECK-NOT:     scf.for
// CHECK-NOT:     array.
// CHECK:         return
func.func @normalise2ExtendedMap(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<i64>, tensor<i64>) {
  %c0 = arith.constant 0 : i64
  %r:3 = array.cluster -> tensor<?xi64>, tensor<i64>, tensor<i64> {
    %d:3 = array.diagonal -> tensor<?xi64>, tensor<i64>, tensor<i64> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %c2 = arith.constant 2 : i64
        %c1 = arith.constant 1 : i64
        %t = arith.muli %x, %c2 : i64
        %u = arith.addi %t, %c1 : i64
        array.yield %u : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %h:2 = array.horizontal -> tensor<i64>, tensor<i64> left {
        %s = array.fold %ys init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {
        ^bb0(%a: i64, %y: i64):
          %b = arith.addi %a, %y : i64
          array.yield %b : i64
        }
        array.yield %s : tensor<i64>
      } right {
        %v = array.vertical -> tensor<i64> producer {
          %qs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
          ^bb0(%y: i64):
            %q = arith.muli %y, %y : i64
            array.yield %q : i64
          }
          array.yield %qs : tensor<?xi64>
        } consumer {
        ^bb0(%qs: tensor<?xi64>):
          %s = array.fold %qs init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {
          ^bb0(%a: i64, %q: i64):
            %b = arith.addi %a, %q : i64
            array.yield %b : i64
          }
          array.yield %s : tensor<i64>
        }
        array.yield %v : tensor<i64>
      }
      array.yield %h#0, %h#1 : tensor<i64>, tensor<i64>
    }
    array.yield %d#0, %d#1, %d#2 : tensor<?xi64>, tensor<i64>, tensor<i64>
  }
  return %r#0, %r#1, %r#2 : tensor<?xi64>, tensor<i64>, tensor<i64>
}

// A scan feeding a fold is one scf.for carrying both accumulators. A cluster whose
// horizontal sides have sizes that cannot be proved equal falls back to one loop nest
// per op (with a remark, checked in fallback.mlir).
// CHECK-LABEL: func.func @untouched(
// CHECK:         %[[S:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (i64, i64)
// CHECK-NEXT:      %[[X:.*]] = memref.load
// CHECK-NEXT:      %[[A2:.*]] = arith.addi %[[A]], %[[X]] : i64
// CHECK-NEXT:      %[[B2:.*]] = arith.addi %[[B]], %[[A2]] : i64
// CHECK-NEXT:      scf.yield %[[A2]], %[[B2]] : i64, i64
// CHECK:         memref.store %[[S]]#1
// CHECK:         scf.parallel
// CHECK:         scf.parallel
// CHECK-NOT:     array.
// CHECK:         return
func.func @untouched(%xs: tensor<?xi64>, %ws: tensor<?xi64>) -> (tensor<i64>, tensor<?xi64>, tensor<?xi64>) {
  %c0 = arith.constant 0 : i64
  %s = array.cluster -> tensor<i64> {
    %v = array.vertical -> tensor<i64> producer {
      %ps = array.scan left inclusive %xs init(%c0 : i64) : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%a: i64, %x: i64):
        %b = arith.addi %a, %x : i64
        array.yield %b : i64
      }
      array.yield %ps : tensor<?xi64>
    } consumer {
    ^bb0(%ps: tensor<?xi64>):
      %f = array.fold %ps init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {
      ^bb0(%a: i64, %x: i64):
        %b = arith.addi %a, %x : i64
        array.yield %b : i64
      }
      array.yield %f : tensor<i64>
    }
    array.yield %v : tensor<i64>
  }
  %r:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    %h:2 = array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
      %a = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %a : tensor<?xi64>
    } right {
      %b = array.map %ws : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %b : tensor<?xi64>
    }
    array.yield %h#0, %h#1 : tensor<?xi64>, tensor<?xi64>
  }
  return %s, %r#0, %r#1 : tensor<i64>, tensor<?xi64>, tensor<?xi64>
}
