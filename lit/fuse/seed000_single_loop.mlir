// Pins the fusion trees that array-fuse builds for examples/seed000_single_loop.mlir:
// seed 000 §1 singleLoop: the whole function is ONE cluster. `bs` (reverse,
// reading `as` in its label order 2) and `cs` are bound by verticals; `cs` is read
// by both `ds` and `result` inside the consumer subtree (the paper's "diagonal"
// use of cs: no node yields it, because nothing outside the cluster needs it).
//
// Expected trees (leaves named after the source):
//   @singleLoop: vertical(bs=reverse, vertical(cs=map, vertical(ds=map, result=map)))
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (3 map, 1 reverse).

// RUN: fuse-opt %examples/seed000_single_loop.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed000_single_loop.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.map' --implicit-check-not='= array.reverse'

// CHECK-LABEL: func.func @singleLoop(
// CHECK-SAME:    %[[AS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[BS:[0-9]+]] = array.reverse %[[AS]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xi64>
// CHECK-NEXT:      array.yield %[[BS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_BS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[VERT2:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:        %[[CS:[0-9]+]] = array.map %[[AS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[CS]] : tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_CS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[VERT3:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:          %[[DS:[0-9]+]] = array.map %[[B_CS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:                 array.yield {{.*}} : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[DS]] : tensor<?xi64>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[B_DS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:          %[[RESULT:[0-9]+]] = array.map %[[B_BS]], %[[B_CS]], %[[B_DS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64>, tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
// CHECK:                 array.yield {{.*}} : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[RESULT]] : tensor<?xi64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT3]] : tensor<?xi64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT2]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// UNFUSED-LABEL: func.func @singleLoop(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.reverse
// UNFUSED-COUNT-3: = array.map
// UNFUSED:         return
