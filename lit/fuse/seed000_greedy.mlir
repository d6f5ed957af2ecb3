// Pins the fusion trees that array-fuse builds for examples/seed000_greedy.mlir:
// seed 000 §5 "Greedy counterexamples". greedyTopDownBad: `bs` stays manifest
// (read by `ds` at index 0) and cs, ds, es, result form one chain of verticals,
// so `cs` is fused vertically into `es` as the paper's ILP solution does.
// greedyBottomUpBad: under the default reads-writes cost the paper's clustering
// {is, large, ys, zs}, {result} ties with {is, large, zs}, {ys, result} (which keeps
// `large` manifest); the solver returns the paper's, and the trees below are its.
//
// Expected trees (leaves named after the source):
//   @greedyBottomUpBad: vertical(is=generate, vertical(large=gather, horizontal(zs=fold, ys=fold))); result=map alone
//   @greedyTopDownBad: vertical(cs=map, vertical(ds=generate, vertical(es=map, result=fold)))
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (3 fold, 1 gather, 2 generate, 4 map).

// RUN: fuse-opt %examples/seed000_greedy.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed000_greedy.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.fold' --implicit-check-not='= array.gather' --implicit-check-not='= array.generate' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @greedyBottomUpBad(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xf64>, %[[M:arg[0-9]+]]: index) -> tensor<?xf64>
// CHECK:       %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<?xf64>, tensor<?xf64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]]:2 = array.vertical -> tensor<?xf64>, tensor<?xf64> producer {
// CHECK-NEXT:      %[[IS:[0-9]+]] = array.generate(%{{[0-9]+}}, %[[M]]) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?x?xindex> {
// CHECK:             array.yield {{.*}} : index
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[IS]] : tensor<?x?xindex>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_IS:arg[0-9]+]]: tensor<?x?xindex>):
// CHECK-NEXT:      %[[VERT2:[0-9]+]]:2 = array.vertical -> tensor<?xf64>, tensor<?xf64> producer {
// CHECK-NEXT:        %[[LARGE:[0-9]+]] = array.gather %[[XS]][%[[B_IS]]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xf64>[tensor<?x?xindex>] -> tensor<?x?xf64>
// CHECK-NEXT:        array.yield %[[LARGE]] : tensor<?x?xf64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_LARGE:arg[0-9]+]]: tensor<?x?xf64>):
// CHECK-NEXT:        %[[HOR:[0-9]+]]:2 = array.horizontal -> tensor<?xf64>, tensor<?xf64> left {
// CHECK-NEXT:          %[[ZS:[0-9]+]] = array.fold %[[B_LARGE]] init(%cst : f64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?x?xf64> -> tensor<?xf64> {
// CHECK:                 array.yield {{.*}} : f64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[ZS]] : tensor<?xf64>
// CHECK-NEXT:        } right {
// CHECK-NEXT:          %[[YS:[0-9]+]] = array.fold %[[B_LARGE]] init(%cst_0 : f64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?x?xf64> -> tensor<?xf64> {
// CHECK:                 array.yield {{.*}} : f64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[YS]] : tensor<?xf64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[HOR]]#0, %[[HOR]]#1 : tensor<?xf64>, tensor<?xf64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT2]]#0, %[[VERT2]]#1 : tensor<?xf64>, tensor<?xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]]#0, %[[VERT1]]#1 : tensor<?xf64>, tensor<?xf64>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[RESULT:[0-9]+]] = array.map %[[CLUSTER1]]#0 {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xf64> -> tensor<?xf64> {
// CHECK:         %{{[0-9]+}} = array.index %[[CLUSTER1]]#1[%c0] : tensor<?xf64>
// CHECK:         array.yield {{.*}} : f64
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[RESULT]] : tensor<?xf64>

// CHECK-LABEL: func.func @greedyTopDownBad(
// CHECK-SAME:    %[[AS:arg[0-9]+]]: tensor<?xi64>) -> tensor<i64>
// CHECK:       %[[BS:[0-9]+]] = array.map %[[AS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK:       %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<i64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<i64> producer {
// CHECK-NEXT:      %[[CS:[0-9]+]] = array.map %[[BS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[CS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_CS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[VERT2:[0-9]+]] = array.vertical -> tensor<i64> producer {
// CHECK-NEXT:        %[[DS:[0-9]+]] = array.generate(%{{[0-9]+}}) {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> {
// CHECK:               %{{[0-9]+}} = array.index %[[BS]][%c0] : tensor<?xi64>
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[DS]] : tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_DS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[VERT3:[0-9]+]] = array.vertical -> tensor<i64> producer {
// CHECK-NEXT:          %[[ES:[0-9]+]] = array.map %[[B_CS]], %[[B_DS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
// CHECK:                 array.yield {{.*}} : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[ES]] : tensor<?xi64>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[B_ES:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:          %[[RESULT:[0-9]+]] = array.fold %[[B_ES]] init(%c0_i64 : i64) {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:                 array.yield {{.*}} : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[RESULT]] : tensor<i64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT3]] : tensor<i64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT2]] : tensor<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<i64>

// UNFUSED-LABEL: func.func @greedyBottomUpBad(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.generate
// UNFUSED:         = array.gather
// UNFUSED-COUNT-2: = array.fold
// UNFUSED:         = array.map
// UNFUSED:         return

// UNFUSED-LABEL: func.func @greedyTopDownBad(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         = array.generate
// UNFUSED:         = array.map
// UNFUSED:         = array.fold
// UNFUSED:         return
