// Parses, verifies and pins examples/seed000_simple.mlir
// (seed 000 §3.3, simple1 .. simple5).
// RUN: fuse-opt %examples/seed000_simple.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed000_simple.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_simple.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// simple1: map, then gather of the map's result.
// CHECK-LABEL: func.func @simple1(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[AS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[BS:[0-9]+]] = array.gather %[[AS]][%[[IS]]] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
// CHECK:         return %[[BS]] : tensor<?xi64>

// simple2: two gathers in a row.
// CHECK-LABEL: func.func @simple2(
// CHECK-SAME:    %[[IS1:arg[0-9]+]]: tensor<?xindex>, %[[IS2:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xi64>)
// CHECK-NOT:     array.map
// CHECK:         %[[AS:[0-9]+]] = array.gather %[[XS]][%[[IS1]]]
// CHECK:         %[[BS:[0-9]+]] = array.gather %[[AS]][%[[IS2]]]
// CHECK:         return %[[BS]] : tensor<?xi64>

// simple3: as simple1, but `as` is also a result.
// CHECK-LABEL: func.func @simple3(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:         %[[AS:[0-9]+]] = array.map %[[XS]]
// CHECK:         %[[BS:[0-9]+]] = array.gather %[[AS]][%[[IS]]]
// CHECK:         return %[[AS]], %[[BS]] : tensor<?xi64>, tensor<?xi64>

// simple4: a 2-D fold over the innermost dimension, then a gather of its rows.
// CHECK-LABEL: func.func @simple4(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?x?xi64>) -> tensor<?xi64>
// CHECK:         %{{[0-9]+}}:2 = array.size %[[XS]] : tensor<?x?xi64>
// CHECK:         %[[AS:[0-9]+]] = array.fold %[[XS]] init(%{{.+}} : i64) : tensor<?x?xi64> -> tensor<?xi64>
// CHECK:         %[[BS:[0-9]+]] = array.gather %[[AS]][%[[IS]]] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
// CHECK:         return %[[BS]]

// simple5: a map and a gather of the same `xs`, zipped by a 2-input map.
// CHECK-LABEL: func.func @simple5(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK:         %[[AS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>
// CHECK:         %[[BS:[0-9]+]] = array.gather %[[XS]][%[[IS]]]
// CHECK:         %[[CS:[0-9]+]] = array.map %[[AS]], %[[BS]] : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
// CHECK:         return %[[CS]]

// Canonicalization may drop the unused `m,n = size xs` of simple4, nothing else.
// CANON-LABEL: func.func @simple1(
// CANON:         array.map
// CANON:         array.gather
// CANON-LABEL: func.func @simple2(
// CANON-COUNT-2: array.gather
// CANON-LABEL: func.func @simple3(
// CANON:         array.map
// CANON:         array.gather
// CANON-LABEL: func.func @simple4(
// CANON:         array.fold
// CANON:         array.gather
// CANON-LABEL: func.func @simple5(
// CANON:         array.map
// CANON:         array.gather
// CANON:         array.map
