// Pins the fusion trees that array-fuse builds for examples/seed001_quadtree.mlir:
// seed 001 §1.5.3 quadtree: initialBounds is one cluster (both coordinate maps
// and the four folds); in `go` the four filters fuse horizontally, p1..p4 in
// order, each reading its own box; @quadtree has no combinators, nor have the
// stand-ins of the external functions (@splitbox, @smallbox, @nil, @leafArray,
// @tree; not from the seed).
//
// Expected trees (leaves named after the source):
//   @quadtree: no array.cluster
//   @initialBounds: vertical(xs=map, horizontal(horizontal(vertical(ys=map, horizontal(y1=fold, y2=fold)), x1=fold), x2=fold))
//   @go: horizontal(p1=filter, horizontal(horizontal(p2=filter, p3=filter), p4=filter))
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (4 filter, 4 fold, 2 map).

// RUN: fuse-opt %examples/seed001_quadtree.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed001_quadtree.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.filter' --implicit-check-not='= array.fold' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @quadtree(
// CHECK-SAME:    %[[PTS:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> i64
// CHECK-NEXT:  %[[X1_Y1_X2_Y2:[0-9]+]]:4 = call @initialBounds(%[[PTS]]) : (tensor<?xcomplex<f64>>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>)
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:       %[[TREE:[0-9]+]] = call @go(%[[PTS]], %from_elements) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
// CHECK-NEXT:  return %[[TREE]] : i64

// CHECK-LABEL: func.func @initialBounds(
// CHECK-SAME:    %[[PTS:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>)
// CHECK:       %[[CLUSTER1:[0-9]+]]:4 = array.cluster -> tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]]:4 = array.vertical -> tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64> producer {
// CHECK-NEXT:      %[[XS:[0-9]+]] = array.map %[[PTS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xf64> {
// CHECK:             array.yield {{.*}} : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[XS]] : tensor<?xf64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_XS:arg[0-9]+]]: tensor<?xf64>):
// CHECK-NEXT:      %[[HORIZ1:[0-9]+]]:4 = array.horizontal -> tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64> left {
// CHECK-NEXT:        %[[HORIZ2:[0-9]+]]:3 = array.horizontal -> tensor<f64>, tensor<f64>, tensor<f64> left {
// CHECK-NEXT:          %[[VERT2:[0-9]+]]:2 = array.vertical -> tensor<f64>, tensor<f64> producer {
// CHECK-NEXT:            %[[YS:[0-9]+]] = array.map %[[PTS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xf64> {
// CHECK:                   array.yield {{.*}} : f64
// CHECK-NEXT:            }
// CHECK-NEXT:            array.yield %[[YS]] : tensor<?xf64>
// CHECK-NEXT:          } consumer {
// CHECK-NEXT:          ^bb0(%[[B_YS:arg[0-9]+]]: tensor<?xf64>):
// CHECK-NEXT:            %[[HORIZ3:[0-9]+]]:2 = array.horizontal -> tensor<f64>, tensor<f64> left {
// CHECK-NEXT:              %[[Y1:[0-9]+]] = array.fold %[[B_YS]] init(%cst : f64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xf64> -> tensor<f64> {
// CHECK:                     array.yield {{.*}} : f64
// CHECK-NEXT:              }
// CHECK-NEXT:              array.yield %[[Y1]] : tensor<f64>
// CHECK-NEXT:            } right {
// CHECK-NEXT:              %[[Y2:[0-9]+]] = array.fold %[[B_YS]] init(%cst_0 : f64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xf64> -> tensor<f64> {
// CHECK:                     array.yield {{.*}} : f64
// CHECK-NEXT:              }
// CHECK-NEXT:              array.yield %[[Y2]] : tensor<f64>
// CHECK-NEXT:            }
// CHECK-NEXT:            array.yield %[[HORIZ3]]#0, %[[HORIZ3]]#1 : tensor<f64>, tensor<f64>
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[VERT2]]#0, %[[VERT2]]#1 : tensor<f64>, tensor<f64>
// CHECK-NEXT:        } right {
// CHECK-NEXT:          %[[X1:[0-9]+]] = array.fold %[[B_XS]] init(%cst : f64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xf64> -> tensor<f64> {
// CHECK:                 array.yield {{.*}} : f64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[X1]] : tensor<f64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[HORIZ2]]#0, %[[HORIZ2]]#1, %[[HORIZ2]]#2 : tensor<f64>, tensor<f64>, tensor<f64>
// CHECK-NEXT:      } right {
// CHECK-NEXT:        %[[X2:[0-9]+]] = array.fold %[[B_XS]] init(%cst_0 : f64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xf64> -> tensor<f64> {
// CHECK:               array.yield {{.*}} : f64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[X2]] : tensor<f64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1, %[[HORIZ1]]#2, %[[HORIZ1]]#3 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]]#0, %[[VERT1]]#1, %[[VERT1]]#2, %[[VERT1]]#3 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]]#2, %[[CLUSTER1]]#0, %[[CLUSTER1]]#3, %[[CLUSTER1]]#1 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>

// CHECK-LABEL: func.func @go(
// CHECK-SAME:    %[[INS:arg[0-9]+]]: tensor<?xcomplex<f64>>, %[[BOX:arg[0-9]+]]: tensor<4xf64>) -> i64
// CHECK:       %[[RESULT:[0-9]+]] = scf.if %{{[0-9]+}} -> (i64) {
// CHECK-NEXT:    %[[NIL:[0-9]+]] = func.call @nil() : () -> i64
// CHECK:         %[[SMALL:[0-9]+]] = func.call @smallbox(%[[BOX]]) : (tensor<4xf64>) -> i1
// CHECK-NEXT:    %[[SUB:[0-9]+]] = scf.if %[[SMALL]] -> (i64) {
// CHECK-NEXT:      %[[LEAF:[0-9]+]] = func.call @leafArray(%[[INS]]) : (tensor<?xcomplex<f64>>) -> i64
// CHECK:           %[[B1_B2_B3_B4:[0-9]+]]:4 = func.call @splitbox(%[[BOX]]) : (tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>)
// CHECK-NEXT:      %[[CLUSTER1:[0-9]+]]:4 = array.cluster -> tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>> {
// CHECK-NEXT:        %[[HORIZ1:[0-9]+]]:4 = array.horizontal -> tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>> left {
// CHECK-NEXT:          %[[P1:[0-9]+]] = array.filter %[[INS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
// CHECK:                 %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#0[%c0] : tensor<4xf64>
// CHECK-NEXT:            %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#0[%c1] : tensor<4xf64>
// CHECK-NEXT:            %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#0[%c2] : tensor<4xf64>
// CHECK-NEXT:            %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#0[%c3] : tensor<4xf64>
// CHECK:                 array.yield {{.*}} : i1
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[P1]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:        } right {
// CHECK-NEXT:          %[[HORIZ2:[0-9]+]]:3 = array.horizontal -> tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>> left {
// CHECK-NEXT:            %[[HORIZ3:[0-9]+]]:2 = array.horizontal -> tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>> left {
// CHECK-NEXT:              %[[P2:[0-9]+]] = array.filter %[[INS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
// CHECK:                     %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#1[%c0] : tensor<4xf64>
// CHECK-NEXT:                %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#1[%c1] : tensor<4xf64>
// CHECK-NEXT:                %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#1[%c2] : tensor<4xf64>
// CHECK-NEXT:                %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#1[%c3] : tensor<4xf64>
// CHECK:                     array.yield {{.*}} : i1
// CHECK-NEXT:              }
// CHECK-NEXT:              array.yield %[[P2]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:            } right {
// CHECK-NEXT:              %[[P3:[0-9]+]] = array.filter %[[INS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
// CHECK:                     %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#2[%c0] : tensor<4xf64>
// CHECK-NEXT:                %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#2[%c1] : tensor<4xf64>
// CHECK-NEXT:                %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#2[%c2] : tensor<4xf64>
// CHECK-NEXT:                %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#2[%c3] : tensor<4xf64>
// CHECK:                     array.yield {{.*}} : i1
// CHECK-NEXT:              }
// CHECK-NEXT:              array.yield %[[P3]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:            }
// CHECK-NEXT:            array.yield %[[HORIZ3]]#0, %[[HORIZ3]]#1 : tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>
// CHECK-NEXT:          } right {
// CHECK-NEXT:            %[[P4:[0-9]+]] = array.filter %[[INS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
// CHECK:                   %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#3[%c0] : tensor<4xf64>
// CHECK-NEXT:              %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#3[%c1] : tensor<4xf64>
// CHECK-NEXT:              %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#3[%c2] : tensor<4xf64>
// CHECK-NEXT:              %{{[0-9]+}} = array.index %[[B1_B2_B3_B4]]#3[%c3] : tensor<4xf64>
// CHECK:                   array.yield {{.*}} : i1
// CHECK-NEXT:            }
// CHECK-NEXT:            array.yield %[[P4]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[HORIZ2]]#0, %[[HORIZ2]]#1, %[[HORIZ2]]#2 : tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1, %[[HORIZ1]]#2, %[[HORIZ1]]#3 : tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[Q1:[0-9]+]] = func.call @go(%[[CLUSTER1]]#0, %[[B1_B2_B3_B4]]#0) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
// CHECK-NEXT:      %[[Q2:[0-9]+]] = func.call @go(%[[CLUSTER1]]#1, %[[B1_B2_B3_B4]]#1) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
// CHECK-NEXT:      %[[Q3:[0-9]+]] = func.call @go(%[[CLUSTER1]]#2, %[[B1_B2_B3_B4]]#2) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
// CHECK-NEXT:      %[[Q4:[0-9]+]] = func.call @go(%[[CLUSTER1]]#3, %[[B1_B2_B3_B4]]#3) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
// CHECK-NEXT:      %[[NODE:[0-9]+]] = func.call @tree(%[[Q1]], %[[Q2]], %[[Q3]], %[[Q4]]) : (i64, i64, i64, i64) -> i64
// CHECK:       return %[[RESULT]] : i64

// UNFUSED-LABEL: func.func @quadtree(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         return

// UNFUSED-LABEL: func.func @initialBounds(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.map
// UNFUSED-COUNT-4: = array.fold
// UNFUSED:         return

// UNFUSED-LABEL: func.func @go(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-4: = array.filter
// UNFUSED:         return
