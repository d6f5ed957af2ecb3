// Pins the fusion trees that array-fuse builds for examples/seed004_bfs.mlir:
// seed 004 BFS: flags, iota, filter and expand form one vertical chain; the
// permute (which reads `neighbours` at arbitrary indices) is separate, while the
// scatter variant fuses the expand into the scatter (the flags map, read only by
// the filter, stays manifest there). In @bfs the loop test is one cluster.
//
// Expected trees (leaves named after the source):
//   @bfsStep: vertical(flags=map, vertical(iota=generate, vertical(knownFlags+known=filter, neighbours+newParents=expand)))
//   @bfsStepScatter: vertical(iota=generate, vertical(knownFlags+known=filter, vertical(neighbours+newParents=expand, p=scatter)))
//   @relaxDistances: current=map alone (the scatter's destination);
//                    vertical(neighbours+candidates=expand, relaxed=scatter)
//   @bfs: vertical(same=map, vertical(allSame=fold, changed=map))
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (3 expand, 2 filter, 1 fold, 4 generate, 5 map, 1 permute, 2 scatter).

// RUN: fuse-opt %examples/seed004_bfs.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed004_bfs.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.expand' --implicit-check-not='= array.filter' --implicit-check-not='= array.fold' --implicit-check-not='= array.generate' --implicit-check-not='= array.map' --implicit-check-not='= array.permute' --implicit-check-not='= array.scatter'

// CHECK-LABEL: func.func @bfsStep(
// CHECK-SAME:    %[[PARENTS:arg[0-9]+]]: tensor<?xi64>, %[[OFFSETS:arg[0-9]+]]: tensor<?xi64>, %[[EDGES:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:       %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]]:2 = array.vertical -> tensor<?xi64>, tensor<?xi64> producer {
// CHECK-NEXT:      %[[FLAGS:[0-9]+]] = array.map %[[PARENTS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi1> {
// CHECK:             array.yield {{.*}} : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[FLAGS]] : tensor<?xi1>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_FLAGS:arg[0-9]+]]: tensor<?xi1>):
// CHECK-NEXT:      %[[VERT2:[0-9]+]]:2 = array.vertical -> tensor<?xi64>, tensor<?xi64> producer {
// CHECK-NEXT:        %[[IOTA:[0-9]+]] = array.generate(%{{[0-9]+}}) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[IOTA]] : tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_IOTA:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[VERT3:[0-9]+]]:2 = array.vertical -> tensor<?xi64>, tensor<?xi64> producer {
// CHECK-NEXT:          %[[KNOWNFLAGS_KNOWN:[0-9]+]]:2 = array.filter %[[B_FLAGS]], %[[B_IOTA]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi1>, tensor<?xi64> -> tensor<?xi1>, tensor<?xi64> {
// CHECK:                 array.yield {{.*}} : i1
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[KNOWNFLAGS_KNOWN]]#1 : tensor<?xi64>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[B_KNOWN:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:          %[[NEIGHBOURS_NEWPARENTS:[0-9]+]]:2 = array.expand %[[B_KNOWN]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
// CHECK:                 %{{[0-9]+}} = array.index %[[OFFSETS]][%{{[0-9]+}}] : tensor<?xi64>
// CHECK-NEXT:            %{{[0-9]+}} = array.index %[[OFFSETS]][%{{[0-9]+}}] : tensor<?xi64>
// CHECK:                 array.yield {{.*}} : index
// CHECK-NEXT:          } get {
// CHECK:                 %{{[0-9]+}} = array.index %[[OFFSETS]][%{{[0-9]+}}] : tensor<?xi64>
// CHECK:                 %{{[0-9]+}} = array.index %[[EDGES]][%{{[0-9]+}}] : tensor<?xi64>
// CHECK-NEXT:            array.yield {{.*}} : i64, i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[NEIGHBOURS_NEWPARENTS]]#0, %[[NEIGHBOURS_NEWPARENTS]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT3]]#0, %[[VERT3]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT2]]#0, %[[VERT2]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]]#0, %[[VERT1]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[P:[0-9]+]] = array.permute %[[CLUSTER1]]#1 into %[[PARENTS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> into tensor<?xi64> index {
// CHECK:         %{{[0-9]+}} = array.index %[[CLUSTER1]]#0[%arg3] : tensor<?xi64>
// CHECK:         array.yield {{.*}} : index, i1
// CHECK-NEXT:  } combine {
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[P]], %[[PARENTS]] : tensor<?xi64>, tensor<?xi64>

// CHECK-LABEL: func.func @bfsStepScatter(
// CHECK-SAME:    %[[PARENTS:arg[0-9]+]]: tensor<?xi64>, %[[OFFSETS:arg[0-9]+]]: tensor<?xi64>, %[[EDGES:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:       %[[FLAGS:[0-9]+]] = array.map %[[PARENTS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi1> {
// CHECK:         array.yield {{.*}} : i1
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[IOTA:[0-9]+]] = array.generate(%{{[0-9]+}}) {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[IOTA]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_IOTA:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[VERT2:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:        %[[KNOWNFLAGS_KNOWN:[0-9]+]]:2 = array.filter %[[FLAGS]], %[[B_IOTA]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi1>, tensor<?xi64> -> tensor<?xi1>, tensor<?xi64> {
// CHECK:               array.yield {{.*}} : i1
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[KNOWNFLAGS_KNOWN]]#1 : tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_KNOWN:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[VERT3:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:          %[[NEIGHBOURS_NEWPARENTS:[0-9]+]]:2 = array.expand %[[B_KNOWN]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
// CHECK:                 %{{[0-9]+}} = array.index %[[OFFSETS]][%{{[0-9]+}}] : tensor<?xi64>
// CHECK-NEXT:            %{{[0-9]+}} = array.index %[[OFFSETS]][%{{[0-9]+}}] : tensor<?xi64>
// CHECK:                 array.yield {{.*}} : index
// CHECK-NEXT:          } get {
// CHECK:                 %{{[0-9]+}} = array.index %[[OFFSETS]][%{{[0-9]+}}] : tensor<?xi64>
// CHECK:                 %{{[0-9]+}} = array.index %[[EDGES]][%{{[0-9]+}}] : tensor<?xi64>
// CHECK-NEXT:            array.yield {{.*}} : i64, i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[NEIGHBOURS_NEWPARENTS]]#0, %[[NEIGHBOURS_NEWPARENTS]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[B_NEIGHBOURS:arg[0-9]+]]: tensor<?xi64>, %[[B_NEWPARENTS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:          %[[P:[0-9]+]] = array.scatter %[[PARENTS]][%[[B_NEIGHBOURS]]], %[[B_NEWPARENTS]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
// CHECK:                 array.yield {{.*}} : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[P]] : tensor<?xi64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT3]] : tensor<?xi64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT2]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]], %[[PARENTS]] : tensor<?xi64>, tensor<?xi64>

// CHECK-LABEL: func.func @relaxDistances(
// CHECK-SAME:    %[[DIST:arg[0-9]+]]: tensor<?xi64>, %[[FRONTIER:arg[0-9]+]]: tensor<?xi64>, %{{.+}}) -> tensor<?xi64>
// CHECK:         %[[CURRENT:[0-9]+]] = array.map %[[DIST]] {array.cluster = 0 : i64, array.order = 0 : i64}
// CHECK:         %[[C:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:      %[[V:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:        %[[E:[0-9]+]]:2 = array.expand %[[FRONTIER]] {array.cluster = 1 : i64, array.order = 0 : i64}
// CHECK:             array.yield %[[E]]#0, %[[E]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[T:arg[0-9]+]]: tensor<?xi64>, %[[VALUES:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[S:[0-9]+]] = array.scatter %[[CURRENT]][%[[T]]], %[[VALUES]] {array.cluster = 1 : i64, array.order = 0 : i64}
// CHECK:         return %[[C]] : tensor<?xi64>

// CHECK-LABEL: func.func @bfs(
// CHECK-SAME:    %[[SRC:arg[0-9]+]]: i64, %[[TOTALNODES:arg[0-9]+]]: index, %[[OFFSETS:arg[0-9]+]]: tensor<?xi64>, %[[EDGES:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[PARENTSI:[0-9]+]] = array.generate(%[[TOTALNODES]]) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> {
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[PARENTSN:[0-9]+]] = array.generate(%[[TOTALNODES]]) {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> {
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[LOOP:[0-9]+]]:2 = scf.while (%[[PARENTS:arg[0-9]+]] = %[[PARENTSI]], %[[OLDPARENTS:arg[0-9]+]] = %[[PARENTSN]]) : (tensor<?xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
// CHECK:         %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<i1> {
// CHECK-NEXT:      %[[VERT1:[0-9]+]] = array.vertical -> tensor<i1> producer {
// CHECK-NEXT:        %[[SAME:[0-9]+]] = array.map %[[PARENTS]], %[[OLDPARENTS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64>, tensor<?xi64> -> tensor<?xi1> {
// CHECK:               array.yield {{.*}} : i1
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[SAME]] : tensor<?xi1>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_SAME:arg[0-9]+]]: tensor<?xi1>):
// CHECK-NEXT:        %[[VERT2:[0-9]+]] = array.vertical -> tensor<i1> producer {
// CHECK-NEXT:          %[[ALLSAME:[0-9]+]] = array.fold %[[B_SAME]] init(%true : i1) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi1> -> tensor<i1> {
// CHECK:                 array.yield {{.*}} : i1
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[ALLSAME]] : tensor<i1>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[B_ALLSAME:arg[0-9]+]]: tensor<i1>):
// CHECK-NEXT:          %[[CHANGED:[0-9]+]] = array.map %[[B_ALLSAME]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<i1> -> tensor<i1> {
// CHECK:                 array.yield {{.*}} : i1
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[CHANGED]] : tensor<i1>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT2]] : tensor<i1>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT1]] : tensor<i1>
// CHECK-NEXT:    }
// CHECK:         %[[P_PREV:[0-9]+]]:2 = func.call @bfsStep(%arg4, %[[OFFSETS]], %[[EDGES]]) : (tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:       return %[[LOOP]]#0 : tensor<?xi64>

// UNFUSED-LABEL: func.func @bfsStep(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.generate
// UNFUSED:         = array.filter
// UNFUSED:         = array.expand
// UNFUSED:         = array.permute
// UNFUSED:         return

// UNFUSED-LABEL: func.func @bfsStepScatter(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.generate
// UNFUSED:         = array.filter
// UNFUSED:         = array.expand
// UNFUSED:         = array.scatter
// UNFUSED:         return

// UNFUSED-LABEL: func.func @relaxDistances(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.expand
// UNFUSED:         = array.scatter
// UNFUSED:         return

// UNFUSED-LABEL: func.func @bfs(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.generate
// UNFUSED:         = array.map
// UNFUSED:         = array.fold
// UNFUSED:         = array.map
// UNFUSED:         return
