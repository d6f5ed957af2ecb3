// Parses, verifies and pins examples/seed001_quickhull.mlir
// (seed 001 §1.5.4, Listing 1.4, `filterMax`).
// RUN: fuse-opt %examples/seed001_quickhull.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed001_quickhull.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed001_quickhull.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @filterMax(
// CHECK-SAME:    %{{arg[0-9]+}}: complex<f64>, %{{arg[0-9]+}}: complex<f64>, %[[PTS:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> (tensor<complex<f64>>, tensor<?xcomplex<f64>>)
// CHECK:         %[[PTSANN:[0-9]+]]:2 = array.map %[[PTS]] : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>>, tensor<?xf64>
// CHECK:         %[[MAXIMANN:[0-9]+]]:2 = array.fold %[[PTSANN]]#0, %[[PTSANN]]#1 init(%{{.+}}, %{{.+}} : complex<f64>, f64) : tensor<?xcomplex<f64>>, tensor<?xf64> -> tensor<complex<f64>>, tensor<f64>
// CHECK-NEXT:    ^bb0(%{{.+}}: complex<f64>, %{{.+}}: f64, %{{.+}}: complex<f64>, %{{.+}}: f64):
// CHECK:         %[[ABOVEANN:[0-9]+]]:2 = array.filter %[[PTSANN]]#0, %[[PTSANN]]#1 : tensor<?xcomplex<f64>>, tensor<?xf64> -> tensor<?xcomplex<f64>>, tensor<?xf64>
// CHECK:         %[[ABOVE:[0-9]+]] = array.map %[[ABOVEANN]]#0, %[[ABOVEANN]]#1 : tensor<?xcomplex<f64>>, tensor<?xf64> -> tensor<?xcomplex<f64>>
// CHECK-NOT:     array.index
// CHECK:         return %[[MAXIMANN]]#0, %[[ABOVE]] : tensor<complex<f64>>, tensor<?xcomplex<f64>>

// CANON-LABEL: func.func @filterMax(
// CANON:         array.map
// CANON:         array.fold
// CANON:         array.filter
// CANON:         array.map
