// Pins the fusion trees that array-fuse builds for examples/seed002_normalise2.mlir:
// seed 002 §4.4 Listing 2: the extended normalise2 is
// diagonal(map, horizontal(fold, vertical(scanl, fold))), followed by a second
// cluster of the two maps; plain normalise2 has the same tree without the map.
//
// Expected trees (leaves named after the source):
//   @normalise2: horizontal(sum1=fold, vertical(scn=scan, sum2=fold)); horizontal(ys1=map, ys2=map)
//   @normalise2Extended: diagonal(xs=map, horizontal(sum1=fold, vertical(scn=scan, sum2=fold))); horizontal(ys1=map, ys2=map)
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (4 fold, 5 map, 2 scan).

// These are the trees of the seed's model: recompute=false. With recomputation (the
// default), lit/fuse/recompute.mlir pins what changes.
//
// RUN: fuse-opt %examples/seed002_normalise2.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis{recompute=false}, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed002_normalise2.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis{recompute=false}, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.fold' --implicit-check-not='= array.map' --implicit-check-not='= array.scan'

// CHECK-LABEL: func.func @normalise2(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:       %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<i64>, tensor<i64> {
// CHECK-NEXT:    %[[HORIZ1:[0-9]+]]:2 = array.horizontal -> tensor<i64>, tensor<i64> left {
// CHECK-NEXT:      %[[SUM1:[0-9]+]] = array.fold %[[XS]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[SUM1]] : tensor<i64>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[VERT1:[0-9]+]] = array.vertical -> tensor<i64> producer {
// CHECK-NEXT:        %[[SCN:[0-9]+]] = array.scan left inclusive %[[XS]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[SCN]] : tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_SCN:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[SUM2:[0-9]+]] = array.fold %[[B_SCN]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[SUM2]] : tensor<i64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT1]] : tensor<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1 : tensor<i64>, tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[CLUSTER2:[0-9]+]]:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
// CHECK-NEXT:    %[[HORIZ2:[0-9]+]]:2 = array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
// CHECK-NEXT:      %[[YS1:[0-9]+]] = array.map %[[XS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]]#0[] : tensor<i64>
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS1]] : tensor<?xi64>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[YS2:[0-9]+]] = array.map %[[XS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]]#1[] : tensor<i64>
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS2]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ2]]#0, %[[HORIZ2]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER2]]#0, %[[CLUSTER2]]#1 : tensor<?xi64>, tensor<?xi64>

// CHECK-LABEL: func.func @normalise2Extended(
// CHECK-SAME:    %[[YS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:       %[[CLUSTER1:[0-9]+]]:3 = array.cluster -> tensor<?xi64>, tensor<i64>, tensor<i64> {
// CHECK-NEXT:    %[[DIAG1:[0-9]+]]:3 = array.diagonal -> tensor<?xi64>, tensor<i64>, tensor<i64> producer {
// CHECK-NEXT:      %[[XS:[0-9]+]] = array.map %[[YS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[XS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_XS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[HORIZ1:[0-9]+]]:2 = array.horizontal -> tensor<i64>, tensor<i64> left {
// CHECK-NEXT:        %[[SUM1:[0-9]+]] = array.fold %[[B_XS]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[SUM1]] : tensor<i64>
// CHECK-NEXT:      } right {
// CHECK-NEXT:        %[[VERT1:[0-9]+]] = array.vertical -> tensor<i64> producer {
// CHECK-NEXT:          %[[SCN:[0-9]+]] = array.scan left inclusive %[[B_XS]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:                 array.yield {{.*}} : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[SCN]] : tensor<?xi64>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[B_SCN:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:          %[[SUM2:[0-9]+]] = array.fold %[[B_SCN]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<i64> {
// CHECK:                 array.yield {{.*}} : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[SUM2]] : tensor<i64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT1]] : tensor<i64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1 : tensor<i64>, tensor<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[DIAG1]]#0, %[[DIAG1]]#1, %[[DIAG1]]#2 : tensor<?xi64>, tensor<i64>, tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[CLUSTER2:[0-9]+]]:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
// CHECK-NEXT:    %[[HORIZ2:[0-9]+]]:2 = array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
// CHECK-NEXT:      %[[YS1:[0-9]+]] = array.map %[[CLUSTER1]]#0 {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]]#1[] : tensor<i64>
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS1]] : tensor<?xi64>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[YS2:[0-9]+]] = array.map %[[CLUSTER1]]#0 {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]]#2[] : tensor<i64>
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS2]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ2]]#0, %[[HORIZ2]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER2]]#0, %[[CLUSTER2]]#1 : tensor<?xi64>, tensor<?xi64>

// UNFUSED-LABEL: func.func @normalise2(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.fold
// UNFUSED:         = array.scan
// UNFUSED:         = array.fold
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         return

// UNFUSED-LABEL: func.func @normalise2Extended(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.fold
// UNFUSED:         = array.scan
// UNFUSED:         = array.fold
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         return
