// Parses, verifies and pins examples/seed004_sieve.mlir
// (seed 004 Appendix A.1, Listing 10, Sieve of Eratosthenes with permute').
// RUN: fuse-opt %examples/seed004_sieve.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed004_sieve.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed004_sieve.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @sieveStep(
// CHECK-SAME:    %[[OLD:arg[0-9]+]]: tensor<?xi64>, %[[C:arg[0-9]+]]: tensor<i64>, %{{arg[0-9]+}}: i64, %{{arg[0-9]+}}: i64) -> (tensor<?xi64>, tensor<i64>)
// CHECK:         array.index %[[C]][] : tensor<i64>
// CHECK:         %[[MULTIPLES:[0-9]+]] = array.expand %[[OLD]] : tensor<?xi64> -> tensor<?xi64> count {
// CHECK:         } get {
// CHECK:         %[[SHIFTED:[0-9]+]] = array.map %[[MULTIPLES]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[SIEVES:[0-9]+]]:3 = array.map %[[SHIFTED]] : tensor<?xi64> -> tensor<?xi64>, tensor<?xi1>, tensor<?xi64>
// CHECK:         %[[DEFAULTS:[0-9]+]] = array.generate(%{{.+}}) : tensor<?xi64>
// CHECK:         %[[PERMUTED:[0-9]+]] = array.scatter %[[DEFAULTS]][%[[SIEVES]]#0] keep(%[[SIEVES]]#1 : tensor<?xi1>), %[[SIEVES]]#2 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
// CHECK-NEXT:      ^bb0(%{{.*}}: i64, %[[NEWV:arg[0-9]+]]: i64):
// CHECK-NEXT:        array.yield %[[NEWV]] : i64
// CHECK:         %[[NEW:[0-9]+]] = array.filter %[[PERMUTED]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[LENOLD:[0-9]+]] = array.dim %[[OLD]], 0
// CHECK:         %[[LENNEW:[0-9]+]] = array.dim %[[NEW]], 0
// CHECK:         %[[APPENDED:[0-9]+]] = array.generate(%{{.+}}) : tensor<?xi64>
// CHECK:           scf.if
// CHECK:             array.index %[[OLD]][
// CHECK:             array.index %[[NEW]][
// CHECK:         %[[CNEXT:[0-9]+]] = array.generate() : tensor<i64>
// CHECK:         return %[[APPENDED]], %[[CNEXT]] : tensor<?xi64>, tensor<i64>

// CHECK-LABEL: func.func @primes(
// CHECK:         %[[C0:[0-9]+]] = array.generate() : tensor<i64>
// CHECK:         math.sqrt
// CHECK:         %[[LOOP:[0-9]+]]:2 = scf.while
// CHECK:           %[[MORE:[0-9]+]] = array.map %{{.+}} : tensor<i64> -> tensor<i1>
// CHECK:           %[[CONT:[0-9]+]] = array.index %[[MORE]][] : tensor<i1>
// CHECK:           scf.condition(%[[CONT]])
// CHECK:         } do {
// CHECK:           func.call @sieveStep(
// CHECK:         return %[[LOOP]]#0 : tensor<?xi64>

// CANON-LABEL: func.func @sieveStep(
// CANON:         array.expand
// CANON-COUNT-2: array.map
// CANON:         array.generate
// CANON:         array.scatter
// CANON:         array.filter
// CANON:         array.generate
// CANON:         array.generate()
// CANON-LABEL: func.func @primes(
// CANON:         array.generate()
// CANON:         scf.while
// CANON:           array.map
// CANON:           func.call @sieveStep
