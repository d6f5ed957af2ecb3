// `array-to-loops` (first slice): map, generate, fold and gather outside clusters become
// loop nests over buffers; everything else is left as it is.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops)' | fuse-opt --verify-diagnostics > /dev/null

// A binary map of 2-D arrays with two results.
// CHECK-LABEL: func.func @map2d(
// CHECK-SAME:      %[[A:.*]]: tensor<4x?xf32>, %[[B:.*]]: tensor<4x?xf32>)
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[N:.*]] = tensor.dim %[[A]], %[[C1]] : tensor<4x?xf32>
// CHECK:         %[[BA:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<4x?xf32> to memref<4x?xf32>
// CHECK:         %[[BB:.*]] = bufferization.to_buffer %[[B]] read_only : tensor<4x?xf32> to memref<4x?xf32>
// CHECK:         %[[S:.*]] = memref.alloc(%[[N]]) : memref<4x?xf32>
// CHECK:         %[[P:.*]] = memref.alloc(%[[N]]) : memref<4x?xf32>
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%[[C4]], %[[N]]) step
// CHECK:           %[[X:.*]] = memref.load %[[BA]][%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK:           %[[Y:.*]] = memref.load %[[BB]][%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK:           %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK:           %[[PROD:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK:           memref.store %[[SUM]], %[[S]][%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK:           memref.store %[[PROD]], %[[P]][%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK:           scf.reduce
// CHECK:         }
// CHECK:         %[[TS:.*]] = bufferization.to_tensor %[[S]] restrict writable : memref<4x?xf32> to tensor<4x?xf32>
// CHECK:         %[[TP:.*]] = bufferization.to_tensor %[[P]] restrict writable : memref<4x?xf32> to tensor<4x?xf32>
// CHECK:         return %[[TS]], %[[TP]]
// CHECK-NOT:     array.
func.func @map2d(%a: tensor<4x?xf32>, %b: tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<4x?xf32>) {
  %s, %p = array.map %a, %b : tensor<4x?xf32>, tensor<4x?xf32> -> tensor<4x?xf32>, tensor<4x?xf32> {
  ^bb0(%x: f32, %y: f32):
    %sum = arith.addf %x, %y : f32
    %prod = arith.mulf %x, %y : f32
    array.yield %sum, %prod : f32, f32
  }
  return %s, %p : tensor<4x?xf32>, tensor<4x?xf32>
}

// generate: the induction variables are the index.
// CHECK-LABEL: func.func @generate(
// CHECK-SAME:      %[[N:.*]]: index)
// CHECK:         %[[M:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N]]) step
// CHECK:           %[[V:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:           memref.store %[[V]], %[[M]][%[[I]]] : memref<?xi64>
// CHECK:         %[[T:.*]] = bufferization.to_tensor %[[M]] restrict writable : memref<?xi64> to tensor<?xi64>
// CHECK:         return %[[T]]
func.func @generate(%n: index) -> tensor<?xi64> {
  %r = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  return %r : tensor<?xi64>
}

// fold of a vector whose combine is associative and commutative (`addi`): one parallel
// reduction, stored in a rank-0 buffer.
// CHECK-LABEL: func.func @fold1d(
// CHECK-SAME:      %[[XS:.*]]: tensor<?xi64>)
// CHECK:         %[[Z:.*]] = arith.constant 0 : i64
// CHECK:         %[[N:.*]] = tensor.dim %[[XS]], %{{.*}} : tensor<?xi64>
// CHECK:         %[[R:.*]] = memref.alloc() : memref<i64>
// CHECK:         %[[B:.*]] = bufferization.to_buffer %[[XS]] read_only : tensor<?xi64> to memref<?xi64>
// CHECK-NOT:     scf.for
// CHECK:         %[[S:.*]] = scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N]]) step (%{{.*}}) init (%[[Z]]) -> i64 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[B]][%[[I]]] : memref<?xi64>
// CHECK-NEXT:      scf.reduce(%[[X]] : i64) {
// CHECK-NEXT:      ^bb0(%[[L:.*]]: i64, %[[H:.*]]: i64):
// CHECK-NEXT:        %[[A:.*]] = arith.addi %[[L]], %[[H]] : i64
// CHECK-NEXT:        scf.reduce.return %[[A]] : i64
// CHECK:         memref.store %[[S]], %[[R]][] : memref<i64>
// CHECK:         %[[T:.*]] = bufferization.to_tensor %[[R]] restrict writable : memref<i64> to tensor<i64>
// CHECK:         return %[[T]]
func.func @fold1d(%xs: tensor<?xi64>) -> tensor<i64> {
  %z = arith.constant 0 : i64
  %r = array.fold %xs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  return %r : tensor<i64>
}

// fold of a vector whose combine does not commute (acc·31 + x): one scf.for carrying the
// accumulator, in order.
// CHECK-LABEL: func.func @fold1d_ordered(
// CHECK-NOT:     scf.parallel
// CHECK:         %[[S:.*]] = scf.for %[[I:.*]] = %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i64) {
// CHECK:           %[[X:.*]] = memref.load %{{.*}}[%[[I]]] : memref<?xi64>
// CHECK:           %[[M:.*]] = arith.muli %[[ACC]], %{{.*}} : i64
// CHECK:           %[[A:.*]] = arith.addi %[[M]], %[[X]] : i64
// CHECK:           scf.yield %[[A]] : i64
// CHECK:         return
func.func @fold1d_ordered(%xs: tensor<?xi64>) -> tensor<i64> {
  %z = arith.constant 0 : i64
  %r = array.fold %xs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %c31 = arith.constant 31 : i64
    %m = arith.muli %acc, %c31 : i64
    %a = arith.addi %m, %x : i64
    array.yield %a : i64
  }
  return %r : tensor<i64>
}

// fold of a matrix: scf.parallel over the rows, scf.for over each row; two inputs
// and two accumulators.
// CHECK-LABEL: func.func @fold2d(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x8xf32>, %[[YS:.*]]: tensor<?x8xf32>)
// CHECK:         %[[M:.*]] = tensor.dim %[[XS]], %{{.*}} : tensor<?x8xf32>
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[R0:.*]] = memref.alloc(%[[M]]) : memref<?xf32>
// CHECK:         %[[R1:.*]] = memref.alloc(%[[M]]) : memref<?xf32>
// CHECK:         %[[BX:.*]] = bufferization.to_buffer %[[XS]]
// CHECK:         %[[BY:.*]] = bufferization.to_buffer %[[YS]]
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[M]]) step
// CHECK:           %[[S:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK:             %[[X:.*]] = memref.load %[[BX]][%[[I]], %[[J]]] : memref<?x8xf32>
// CHECK:             %[[Y:.*]] = memref.load %[[BY]][%[[I]], %[[J]]] : memref<?x8xf32>
// CHECK:             %[[U:.*]] = arith.addf %[[A]], %[[X]] : f32
// CHECK:             %[[W:.*]] = arith.maximumf %[[B]], %[[Y]] : f32
// CHECK:             scf.yield %[[U]], %[[W]] : f32, f32
// CHECK:           }
// CHECK:           memref.store %[[S]]#0, %[[R0]][%[[I]]] : memref<?xf32>
// CHECK:           memref.store %[[S]]#1, %[[R1]][%[[I]]] : memref<?xf32>
// CHECK:           scf.reduce
// CHECK:         }
func.func @fold2d(%xs: tensor<?x8xf32>, %ys: tensor<?x8xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = arith.constant 0.0 : f32
  %m = arith.constant -1.0e30 : f32
  %r:2 = array.fold %xs, %ys init(%z, %m : f32, f32) : tensor<?x8xf32>, tensor<?x8xf32> -> tensor<?xf32>, tensor<?xf32> {
  ^bb0(%a: f32, %b: f32, %x: f32, %y: f32):
    %u = arith.addf %a, %x : f32
    %w = arith.maximumf %b, %y : f32
    array.yield %u, %w : f32, f32
  }
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xf32>
}

// gather from a matrix with an index array and an i32 array (index_cast).
// CHECK-LABEL: func.func @gather(
// CHECK-SAME:      %[[XS:.*]]: tensor<?x?xf32>, %[[IS:.*]]: tensor<?xindex>, %[[JS:.*]]: tensor<?xi32>)
// CHECK:         %[[N:.*]] = tensor.dim %[[IS]], %{{.*}} : tensor<?xindex>
// CHECK:         %[[BX:.*]] = bufferization.to_buffer %[[XS]] read_only : tensor<?x?xf32> to memref<?x?xf32>
// CHECK:         %[[BI:.*]] = bufferization.to_buffer %[[IS]] read_only : tensor<?xindex> to memref<?xindex>
// CHECK:         %[[BJ:.*]] = bufferization.to_buffer %[[JS]] read_only : tensor<?xi32> to memref<?xi32>
// CHECK:         %[[R:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK:         scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%[[N]]) step
// CHECK:           %[[I:.*]] = memref.load %[[BI]][%[[K]]] : memref<?xindex>
// CHECK:           %[[J32:.*]] = memref.load %[[BJ]][%[[K]]] : memref<?xi32>
// CHECK:           %[[J:.*]] = arith.index_cast %[[J32]] : i32 to index
// CHECK:           %[[V:.*]] = memref.load %[[BX]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK:           memref.store %[[V]], %[[R]][%[[K]]] : memref<?xf32>
// CHECK:         bufferization.to_tensor %[[R]] restrict writable : memref<?xf32> to tensor<?xf32>
func.func @gather(%xs: tensor<?x?xf32>, %is: tensor<?xindex>, %js: tensor<?xi32>) -> tensor<?xf32> {
  %r = array.gather %xs[%is, %js] : tensor<?x?xf32>[tensor<?xindex>, tensor<?xi32>] -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// Outside the pass: a reverse (sugar, removed by array-desugar first) is left as it is;
// the map feeding it is lowered, and so is the cluster map → filter: one scf.for carrying
// the count, the map's value in a register, stored at the count under scf.if.
// CHECK-LABEL: func.func @partial(
// CHECK:         scf.parallel
// CHECK:         array.reverse
// CHECK-NOT:     array.
// CHECK:         scf.for {{.*}} -> (index)
// CHECK:           %[[Y:.*]] = arith.muli
// CHECK:           %[[P:.*]] = arith.cmpi sgt, %[[Y]]
// CHECK:           scf.if %[[P]] -> (index)
// CHECK-NEXT:        memref.store %[[Y]]
// CHECK-NOT:     scf.parallel
// CHECK:         memref.reinterpret_cast
// CHECK:         return
func.func @partial(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %c0 = arith.constant 0 : i64
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %x : i64
    array.yield %y : i64
  }
  %gts = array.reverse %ys : tensor<?xi64>
  %zs = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %m = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %y = arith.muli %x, %x : i64
        array.yield %y : i64
      }
      array.yield %m : tensor<?xi64>
    } consumer {
    ^bb0(%ms: tensor<?xi64>):
      %f = array.filter %ms : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %p = arith.cmpi sgt, %x, %c0 : i64
        array.yield %p : i1
      }
      array.yield %f : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %gts, %zs : tensor<?xi64>, tensor<?xi64>
}
