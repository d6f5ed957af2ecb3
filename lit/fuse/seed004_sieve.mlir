// Pins the fusion trees that array-fuse builds for examples/seed004_sieve.mlir:
// seed 004 sieve: expand -> map -> 3-result map -> scatter with keep flags (the
// permute' of the listing) is one vertical chain, one loop nest over the
// expanded elements whose only output is the scatter's result; the defaults'
// generate, the filter and the append are separate.
//
// Expected trees (leaves named after the source):
//   @sieveStep: vertical(multiples=expand, vertical(shifted=map, vertical(sieves=map, permuted=scatter)))
//   @primes: no array.cluster
//
// The UNFUSED run checks that array-unfuse removes every fusion node and gives
// back each combinator of the source (1 expand, 1 filter, 4 generate, 3 map, 1 scatter).

// RUN: fuse-opt %examples/seed004_sieve.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse))' | FileCheck %s
// RUN: fuse-opt %examples/seed004_sieve.mlir --pass-pipeline='builtin.module(func.func(array-fusion-analysis, array-fuse, array-unfuse))' \
// RUN:   | FileCheck %s --check-prefix=UNFUSED --implicit-check-not=array.vertical \
// RUN:       --implicit-check-not=array.horizontal --implicit-check-not=array.diagonal \
// RUN:       --implicit-check-not='array.cluster ->' --implicit-check-not='array.cluster {' --implicit-check-not='= array.expand' --implicit-check-not='= array.filter' --implicit-check-not='= array.generate' --implicit-check-not='= array.map' --implicit-check-not='= array.scatter'

// CHECK-LABEL: func.func @sieveStep(
// CHECK-SAME:    %[[OLD:arg[0-9]+]]: tensor<?xi64>, %[[C:arg[0-9]+]]: tensor<i64>, %[[N:arg[0-9]+]]: i64, %[[LIMIT:arg[0-9]+]]: i64) -> (tensor<?xi64>, tensor<i64>)
// CHECK:       %[[DEFAULTS:[0-9]+]] = array.generate(%{{[0-9]+}}) {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> {
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[MULTIPLES:[0-9]+]] = array.expand %[[OLD]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> count {
// CHECK:             array.yield {{.*}} : index
// CHECK-NEXT:      } get {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[MULTIPLES]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_MULTIPLES:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[VERT2:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:        %[[SHIFTED:[0-9]+]] = array.map %[[B_MULTIPLES]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[SHIFTED]] : tensor<?xi64>
// CHECK-NEXT:      } consumer {
// CHECK-NEXT:      ^bb0(%[[B_SHIFTED:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:        %[[VERT3:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:          %[[SIEVES:[0-9]+]]:3 = array.map %[[B_SHIFTED]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64>, tensor<?xi1>, tensor<?xi64> {
// CHECK:                 array.yield {{.*}} : i64, i1, i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[SIEVES]]#0, %[[SIEVES]]#1, %[[SIEVES]]#2 : tensor<?xi64>, tensor<?xi1>, tensor<?xi64>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[T:arg[0-9]+]]: tensor<?xi64>, %[[K:arg[0-9]+]]: tensor<?xi1>, %[[V:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:          %[[PERMUTED:[0-9]+]] = array.scatter %[[DEFAULTS]][%[[T]]] keep(%[[K]] : tensor<?xi1>), %[[V]] {array.cluster = 1 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
// CHECK-NEXT:          ^bb0(%{{.*}}: i64, %[[NEWV:arg[0-9]+]]: i64):
// CHECK-NEXT:            array.yield %[[NEWV]] : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[PERMUTED]] : tensor<?xi64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT3]] : tensor<?xi64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[VERT2]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[NEW:[0-9]+]] = array.filter %[[CLUSTER1]] {array.cluster = 2 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:         array.yield {{.*}} : i1
// CHECK-NEXT:  }
// CHECK:       %[[APPENDED:[0-9]+]] = array.generate(%{{[0-9]+}}) {array.cluster = 3 : i64, array.order = 0 : i64} : tensor<?xi64> {
// CHECK:           %{{[0-9]+}} = array.index %[[OLD]][%arg4] : tensor<?xi64>
// CHECK:           %{{[0-9]+}} = array.index %[[NEW]][%{{[0-9]+}}] : tensor<?xi64>
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[CNEXT:[0-9]+]] = array.generate() {array.cluster = 4 : i64, array.order = 0 : i64} : tensor<i64> {
// CHECK-NEXT:    array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[APPENDED]], %[[CNEXT]] : tensor<?xi64>, tensor<i64>

// CHECK-LABEL: func.func @primes(
// CHECK-SAME:    %[[N:arg[0-9]+]]: i64) -> tensor<?xi64>
// CHECK-NEXT:  %[[C0:[0-9]+]] = array.generate() {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<i64> {
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:         array.yield {{.*}} : i64
// CHECK-NEXT:  }
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:       %[[LOOP:[0-9]+]]:2 = scf.while (%[[OLD:arg[0-9]+]] = %cast, %[[C:arg[0-9]+]] = %[[C0]]) : (tensor<?xi64>, tensor<i64>) -> (tensor<?xi64>, tensor<i64>) {
// CHECK-NEXT:    %[[MORE:[0-9]+]] = array.map %[[C]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<i64> -> tensor<i1> {
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:           array.yield {{.*}} : i1
// CHECK-NEXT:    }
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:         %[[NEXT_CNEXT:[0-9]+]]:2 = func.call @sieveStep(%arg1, %arg2, %[[N]], %{{[0-9]+}}) : (tensor<?xi64>, tensor<i64>, i64, i64) -> (tensor<?xi64>, tensor<i64>)
// CHECK-NOT:   {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// CHECK:       return %[[LOOP]]#0 : tensor<?xi64>

// UNFUSED-LABEL: func.func @sieveStep(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.generate
// UNFUSED:         = array.expand
// UNFUSED-COUNT-2: = array.map
// UNFUSED:         = array.scatter
// UNFUSED:         = array.filter
// UNFUSED-COUNT-2: = array.generate
// UNFUSED:         return

// UNFUSED-LABEL: func.func @primes(
// UNFUSED-NOT:     {{array\.(cluster|vertical|horizontal|diagonal) [^=]}}
// UNFUSED:         = array.generate
// UNFUSED:         = array.map
// UNFUSED:         return
