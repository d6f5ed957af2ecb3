// Pins the fusion trees that array-fuse builds for examples/seed001_closest_points.mlir:
// seed 001 §1.5.2 closestPoints: the midpoint (fold + rank-0 map), cluster 1
// (filters above/below, horizontal), cluster 2 (filters near the border,
// horizontal) and cluster 3 (cross = generate + two gathers, map, two folds, one
// vertical chain); the recursive calls stay between the clusters.
//
// Expected trees (leaves named after the source):
//   @closestPointsStep: vertical(sumy=fold, midy=map); horizontal(aboves=filter, belows=filter); horizontal(aboveB=filter, belowB=filter); vertical(mergedI+mergedJ=generate, vertical(mergedA=gather, vertical(mergedB=gather, vertical(dists=map, vertical(minsRows=fold, mins=fold)))))
//   @closestPoints (the stand-in for the recursive call, not from the seed):
//     vertical(pairs=generate, vertical(rows=fold, min=fold))
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (step: 4 filter, 3 fold, 2 gather, 1 generate,
// 2 map; stand-in: 1 generate, 2 fold).

// RUN: fuse-opt %examples/seed001_closest_points.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed001_closest_points.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.filter' --implicit-check-not='= array.fold' --implicit-check-not='= array.gather' --implicit-check-not='= array.generate' --implicit-check-not='= array.map'

// CHECK-LABEL: func.func @closestPointsStep(
// CHECK-SAME:    %[[PTS:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> tensor<f64>
// CHECK:       %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<f64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<f64> producer {
// CHECK-NEXT:      %[[SUMY:[0-9]+]] = array.fold %[[PTS]] init(%cst : f64) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<f64> {
// CHECK:             array.yield {{.*}} : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[SUMY]] : tensor<f64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_SUMY:arg[0-9]+]]: tensor<f64>):
// CHECK-NEXT:      %[[MIDY:[0-9]+]] = array.map %[[B_SUMY]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<f64> -> tensor<f64> {
// CHECK:             array.yield {{.*}} : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[MIDY]] : tensor<f64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<f64>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[CLUSTER2:[0-9]+]]:2 = array.cluster -> tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>> {
// CHECK-NEXT:    %[[HORIZ1:[0-9]+]]:2 = array.horizontal -> tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>> left {
// CHECK-NEXT:      %[[ABOVES:[0-9]+]] = array.filter %[[PTS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]][] : tensor<f64>
// CHECK:             array.yield {{.*}} : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[ABOVES]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[BELOWS:[0-9]+]] = array.filter %[[PTS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]][] : tensor<f64>
// CHECK:             array.yield {{.*}} : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[BELOWS]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1 : tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[ABOVEPRIME:[0-9]+]] = call @closestPoints(%[[CLUSTER2]]#0) : (tensor<?xcomplex<f64>>) -> tensor<f64>
// CHECK-NEXT:  %[[BELOWPRIME:[0-9]+]] = call @closestPoints(%[[CLUSTER2]]#1) : (tensor<?xcomplex<f64>>) -> tensor<f64>
// CHECK:       %[[CLUSTER3:[0-9]+]]:2 = array.cluster -> tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>> {
// CHECK-NEXT:    %[[HORIZ2:[0-9]+]]:2 = array.horizontal -> tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>> left {
// CHECK-NEXT:      %[[ABOVEB:[0-9]+]] = array.filter %[[PTS]] {array.cluster = 2 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]][] : tensor<f64>
// CHECK:             array.yield {{.*}} : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[ABOVEB]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[BELOWB:[0-9]+]] = array.filter %[[PTS]] {array.cluster = 2 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
// CHECK:             %{{[0-9]+}} = array.index %[[CLUSTER1]][] : tensor<f64>
// CHECK:             array.yield {{.*}} : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[BELOWB]] : tensor<?xcomplex<f64>>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ2]]#0, %[[HORIZ2]]#1 : tensor<?xcomplex<f64>>, tensor<?xcomplex<f64>>
// CHECK-NEXT:  }
// CHECK:       %[[CLUSTER4:[0-9]+]] = array.cluster -> tensor<f64> {
// CHECK-NEXT:    %[[VERT2:[0-9]+]] = array.vertical -> tensor<f64> producer {
// CHECK-NEXT:      %[[MERGEDI_MERGEDJ:[0-9]+]]:2 = array.generate(%{{[0-9]+}}, %{{[0-9]+}}) {array.cluster = 3 : i64, array.order = 0 : i64} : tensor<?x?xindex>, tensor<?x?xindex> {
// CHECK:             array.yield {{.*}} : index, index
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[MERGEDI_MERGEDJ]]#0, %[[MERGEDI_MERGEDJ]]#1 : tensor<?x?xindex>, tensor<?x?xindex>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_MERGEDI:arg[0-9]+]]: tensor<?x?xindex>, %[[B_MERGEDJ:arg[0-9]+]]: tensor<?x?xindex>):
// CHECK-NEXT:      %[[VERT3:[0-9]+]] = array.vertical -> tensor<f64> producer {
// CHECK-NEXT:        %[[MERGEDA:[0-9]+]] = array.gather %[[CLUSTER3]]#0[%[[B_MERGEDI]]] {array.cluster = 3 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>>[tensor<?x?xindex>] -> tensor<?x?xcomplex<f64>>
// CHECK-NEXT:        array.yield %[[MERGEDA]] : tensor<?x?xcomplex<f64>>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_MERGEDA:arg[0-9]+]]: tensor<?x?xcomplex<f64>>):
// CHECK-NEXT:        %[[VERT4:[0-9]+]] = array.vertical -> tensor<f64> producer {
// CHECK-NEXT:          %[[MERGEDB:[0-9]+]] = array.gather %[[CLUSTER3]]#1[%[[B_MERGEDJ]]] {array.cluster = 3 : i64, array.label = 3 : i64, array.order = 0 : i64} : tensor<?xcomplex<f64>>[tensor<?x?xindex>] -> tensor<?x?xcomplex<f64>>
// CHECK-NEXT:          array.yield %[[MERGEDB]] : tensor<?x?xcomplex<f64>>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[B_MERGEDB:arg[0-9]+]]: tensor<?x?xcomplex<f64>>):
// CHECK-NEXT:          %[[VERT5:[0-9]+]] = array.vertical -> tensor<f64> producer {
// CHECK-NEXT:            %[[DISTS:[0-9]+]] = array.map %[[B_MERGEDA]], %[[B_MERGEDB]] {array.cluster = 3 : i64, array.order = 0 : i64} : tensor<?x?xcomplex<f64>>, tensor<?x?xcomplex<f64>> -> tensor<?x?xf64> {
// CHECK:                   array.yield {{.*}} : f64
// CHECK-NEXT:            }
// CHECK-NEXT:            array.yield %[[DISTS]] : tensor<?x?xf64>
// CHECK-NEXT:          } consumer {
// CHECK-NEXT:          ^bb0(%[[B_DISTS:arg[0-9]+]]: tensor<?x?xf64>):
// CHECK-NEXT:            %[[VERT6:[0-9]+]] = array.vertical -> tensor<f64> producer {
// CHECK-NEXT:              %[[MINSROWS:[0-9]+]] = array.fold %[[B_DISTS]] init(%{{[0-9]+}} : f64) {array.cluster = 3 : i64, array.order = 0 : i64} : tensor<?x?xf64> -> tensor<?xf64> {
// CHECK:                     array.yield {{.*}} : f64
// CHECK-NEXT:              }
// CHECK-NEXT:              array.yield %[[MINSROWS]] : tensor<?xf64>
// CHECK-NEXT:            } consumer {
// CHECK-NEXT:            ^bb0(%[[B_MINSROWS:arg[0-9]+]]: tensor<?xf64>):
// CHECK-NEXT:              %[[MINS:[0-9]+]] = array.fold %[[B_MINSROWS]] init(%{{[0-9]+}} : f64) {array.cluster = 3 : i64, array.order = 0 : i64} : tensor<?xf64> -> tensor<f64> {
// CHECK:                     array.yield {{.*}} : f64
// CHECK-NEXT:              }
// CHECK-NEXT:              array.yield %[[MINS]] : tensor<f64>
// CHECK-NEXT:            }
// CHECK-NEXT:            array.yield %[[VERT6]] : tensor<f64>
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[VERT5]] : tensor<f64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT4]] : tensor<f64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT3]] : tensor<f64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT2]] : tensor<f64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER4]] : tensor<f64>

// UNFUSED-LABEL: func.func @closestPointsStep(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.fold
// UNFUSED:         = array.map
// UNFUSED-COUNT-4: = array.filter
// UNFUSED:         = array.generate
// UNFUSED-COUNT-2: = array.gather
// UNFUSED:         = array.map
// UNFUSED-COUNT-2: = array.fold
// UNFUSED:         return

// CHECK-LABEL: func.func private @closestPoints(
// CHECK-SAME:    %[[P:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> tensor<f64> attributes {array.fusion = "closestPoints: 1 clusters, objective 2, optimal"}
// CHECK:         %[[C:[0-9]+]] = array.cluster -> tensor<f64> {
// CHECK-NEXT:      array.vertical -> tensor<f64> producer {
// CHECK-NEXT:        array.generate
// CHECK:           } consumer {
// CHECK:             array.vertical -> tensor<f64> producer {
// CHECK-NEXT:          array.fold %{{.+}} : tensor<?x?xf64> -> tensor<?xf64>
// CHECK:             } consumer {
// CHECK:               array.fold %{{.+}} : tensor<?xf64> -> tensor<f64>
// CHECK:         return %[[C]] : tensor<f64>

// UNFUSED-LABEL: func.func private @closestPoints(
// UNFUSED:         = array.generate
// UNFUSED-COUNT-2: = array.fold
// UNFUSED:         return
