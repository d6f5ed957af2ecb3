// Pins the fusion trees that array-fuse builds for examples/seed000_simple.mlir:
// seed 000 §3.3: traversal-order sensitive fusion. simple1/simple4: the producer
// runs in the gather's label order (array.order = 2 = array.label of the gather);
// simple2: the first gather runs in the second gather's order 3; simple3: `as` is
// an output, so it cannot take a gather's order and nothing is fused; simple5: one
// cluster, `xs` read in order 0 by the map and in label order 2 by the gather.
//
// Expected trees (leaves named after the source):
//   @simple1: vertical(as=map, bs=gather)
//   @simple2: vertical(as=gather, bs=gather)
//   @simple3: no array.cluster
//   @simple4: vertical(as=fold, bs=gather)
//   @simple5: vertical(as=map, vertical(bs=gather, cs=map))
//
// The trees are seed 000's: they are chosen under its cost `reads-writes`. The default
// cost adds `gathered-folds` (analysis/src/cost.rs), which charges simple4's fold run in
// the order of a gather that loads its indices, so by default simple4 is not fused
// (DEFAULT); it adds `chained-gathers` too, which charges simple2's first gather run in
// the order of the second (both load their indices), so by default simple2 is not fused
// either. The UNFUSED run checks that array-unfuse removes every fusion node and
// gives back each combinator of the source (1 fold, 6 gather, 4 map).

// RUN: fuse-opt %examples/seed000_simple.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis{cost=reads-writes}, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed000_simple.mlir --emit-clustering=json | FileCheck %s --check-prefix=DEFAULT
// RUN: fuse-opt %examples/seed000_simple.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis{cost=reads-writes}, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.fold' --implicit-check-not='= array.gather' --implicit-check-not='= array.map'

// DEFAULT: "name":"simple1",{{.*}}"cost":"reads-writes+3*gathered-folds+3*chained-gathers","objective":3,{{.*}}"status":"optimal",{{.*}}"clusters":{{\[\[}}"as","bs"]]
// DEFAULT: "name":"simple2",{{[^[]*}}"cost":"reads-writes+3*gathered-folds+3*chained-gathers","objective":6,{{[^[]*}}"status":"optimal",{{[^[]*}}"clusters":{{\[\[}}"as"],["bs"]]
// DEFAULT: "name":"simple4",{{.*}}"cost":"reads-writes+3*gathered-folds+3*chained-gathers","objective":5,{{.*}}"status":"optimal",{{.*}}"clusters":{{\[\[}}"as"],["bs"]]

// CHECK-LABEL: func.func @simple1(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[AS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 2 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[AS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_AS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[BS:[0-9]+]] = array.gather %[[B_AS]][%[[IS]]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
// CHECK-NEXT:      array.yield %[[BS]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// CHECK-LABEL: func.func @simple2(
// CHECK-SAME:    %[[IS1:arg[0-9]+]]: tensor<?xindex>, %[[IS2:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[AS:[0-9]+]] = array.gather %[[XS]][%[[IS1]]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 3 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
// CHECK-NEXT:      array.yield %[[AS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_AS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[BS:[0-9]+]] = array.gather %[[B_AS]][%[[IS2]]] {array.cluster = 0 : i64, array.label = 3 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
// CHECK-NEXT:      array.yield %[[BS]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// CHECK-LABEL: func.func @simple3(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK-NEXT:  %[[AS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[BS:[0-9]+]] = array.gather %[[AS]][%[[IS]]] {array.cluster = 1 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
// CHECK-NEXT:  return %[[AS]], %[[BS]] : tensor<?xi64>, tensor<?xi64>

// CHECK-LABEL: func.func @simple4(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?x?xi64>) -> tensor<?xi64>
// CHECK:       %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[AS:[0-9]+]] = array.fold %[[XS]] init(%c0_i64 : i64) {array.cluster = 0 : i64, array.order = 2 : i64} : tensor<?x?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[AS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_AS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[BS:[0-9]+]] = array.gather %[[B_AS]][%[[IS]]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
// CHECK-NEXT:      array.yield %[[BS]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// CHECK-LABEL: func.func @simple5(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[AS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[AS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_AS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[VERT2:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:        %[[BS:[0-9]+]] = array.gather %[[XS]][%[[IS]]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
// CHECK-NEXT:        array.yield %[[BS]] : tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_BS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[CS:[0-9]+]] = array.map %[[B_AS]], %[[B_BS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[CS]] : tensor<?xi64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT2]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// UNFUSED-LABEL: func.func @simple1(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.gather
// UNFUSED:         return

// UNFUSED-LABEL: func.func @simple2(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED-COUNT-2: = array.gather
// UNFUSED:         return

// UNFUSED-LABEL: func.func @simple3(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.gather
// UNFUSED:         return

// UNFUSED-LABEL: func.func @simple4(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.fold
// UNFUSED:         = array.gather
// UNFUSED:         return

// UNFUSED-LABEL: func.func @simple5(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.map
// UNFUSED:         = array.gather
// UNFUSED:         = array.map
// UNFUSED:         return
