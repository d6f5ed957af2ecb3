// Pins the fusion trees that array-fuse builds for examples/seed001_quickhull.mlir:
// seed 001 §1.5.4 quickhull filterMax: one cluster, the annotated points
// streamed into the fold (maximum) and, side by side, the filter streamed into
// the final map; only maximAnn#0 and `above` leave the cluster.
//
// Expected trees (leaves named after the source):
//   @filterMax: vertical(ptsAnn=map, horizontal(maximAnn=fold, vertical(aboveAnn=filter, above=map)))
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (1 filter, 1 fold, 2 map).

// RUN: fuse-opt %examples/seed001_quickhull.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed001_quickhull.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.filter' --implicit-check-not='= array.fold' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @filterMax(
// CHECK-SAME:    %[[LA:arg[0-9]+]]: complex<f64>, %[[LB:arg[0-9]+]]: complex<f64>, %[[PTS:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> (tensor<complex<f64>>, tensor<?xcomplex<f64>>)
// CHECK:       %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<complex<f64>>, tensor<?xcomplex<f64>> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]]:2 = array.vertical -> tensor<complex<f64>>, tensor<?xcomplex<f64>> producer {
// CHECK-NEXT:      %[[PTSANN:[0-9]+]]:2 = array.map %[[PTS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>>, tensor<?xf64> {
// CHECK:             array.yield {{.*}} : complex<f64>, f64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[PTSANN]]#0, %[[PTSANN]]#1 : tensor<?xcomplex<f64>>, tensor<?xf64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_PTSANN0:arg[0-9]+]]: tensor<?xcomplex<f64>>, %[[B_PTSANN1:arg[0-9]+]]: tensor<?xf64>):
// CHECK-NEXT:      %[[HORIZ1:[0-9]+]]:2 = array.horizontal -> tensor<complex<f64>>, tensor<?xcomplex<f64>> left {
// CHECK-NEXT:        %[[MAXIMANN:[0-9]+]]:2 = array.fold %[[B_PTSANN0]], %[[B_PTSANN1]] init(%cst, %cst_0 : complex<f64>, f64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>>, tensor<?xf64> -> tensor<complex<f64>>, tensor<f64> {
// CHECK:               array.yield {{.*}} : complex<f64>, f64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[MAXIMANN]]#0 : tensor<complex<f64>>
// CHECK-NEXT:      } right {
// CHECK-NEXT:        %[[VERT2:[0-9]+]] = array.vertical -> tensor<?xcomplex<f64>> producer {
// CHECK-NEXT:          %[[ABOVEANN:[0-9]+]]:2 = array.filter %[[B_PTSANN0]], %[[B_PTSANN1]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>>, tensor<?xf64> -> tensor<?xcomplex<f64>>, tensor<?xf64> {
// CHECK:                 array.yield {{.*}} : i1
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[ABOVEANN]]#0, %[[ABOVEANN]]#1 : tensor<?xcomplex<f64>>, tensor<?xf64>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[B_ABOVEANN0:arg[0-9]+]]: tensor<?xcomplex<f64>>, %[[B_ABOVEANN1:arg[0-9]+]]: tensor<?xf64>):
// CHECK-NEXT:          %[[ABOVE:[0-9]+]] = array.map %[[B_ABOVEANN0]], %[[B_ABOVEANN1]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>>, tensor<?xf64> -> tensor<?xcomplex<f64>> {
// CHECK:                 array.yield {{.*}} : complex<f64>
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[ABOVE]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT2]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1 : tensor<complex<f64>>, tensor<?xcomplex<f64>>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]]#0, %[[VERT1]]#1 : tensor<complex<f64>>, tensor<?xcomplex<f64>>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]]#0, %[[CLUSTER1]]#1 : tensor<complex<f64>>, tensor<?xcomplex<f64>>

// UNFUSED-LABEL: func.func @filterMax(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.fold
// UNFUSED:         = array.filter
// UNFUSED:         = array.map
// UNFUSED:         return
