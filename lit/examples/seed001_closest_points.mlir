// Parses, verifies and pins examples/seed001_closest_points.mlir
// (seed 001 §1.5.2, Listing 1.2, recursive case of closestPoints).
// RUN: fuse-opt %examples/seed001_closest_points.mlir | FileCheck %s
// RUN: fuse-opt %examples/seed001_closest_points.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed001_closest_points.mlir --verify-each --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @closestPointsStep(
// CHECK-SAME:    %[[PTS:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> tensor<f64>
// (external) Midpoint
// CHECK:         %[[SUMY:[0-9]+]] = array.fold %[[PTS]] init(%{{.+}} : f64) : tensor<?xcomplex<f64>> -> tensor<f64>
// CHECK:           complex.im
// CHECK:         %[[LEN:[0-9]+]] = array.dim %[[PTS]], 0 : tensor<?xcomplex<f64>>
// CHECK:         %[[MIDY:[0-9]+]] = array.map %[[SUMY]] : tensor<f64> -> tensor<f64>
// CHECK:           arith.index_cast %[[LEN]]
// (cluster 1) Filter above and below
// CHECK:         %[[ABOVES:[0-9]+]] = array.filter %[[PTS]] : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>>
// CHECK:           array.index %[[MIDY]][] : tensor<f64>
// CHECK:         %[[BELOWS:[0-9]+]] = array.filter %[[PTS]] : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>>
// CHECK:           array.index %[[MIDY]][] : tensor<f64>
// (external) Recursive 'divide' step
// CHECK:         %[[ABOVEP:[0-9]+]] = call @closestPoints(%[[ABOVES]]) : (tensor<?xcomplex<f64>>) -> tensor<f64>
// CHECK:         %[[BELOWP:[0-9]+]] = call @closestPoints(%[[BELOWS]]) : (tensor<?xcomplex<f64>>) -> tensor<f64>
// CHECK:         %[[AMIN:[0-9]+]] = array.index %[[ABOVEP]][] : tensor<f64>
// CHECK:         %[[BMIN:[0-9]+]] = array.index %[[BELOWP]][] : tensor<f64>
// CHECK:         %[[BORDER:[0-9]+]] = arith.minimumf %[[AMIN]], %[[BMIN]] : f64
// (cluster 2) Points near the border
// CHECK:         %[[ABOVEB:[0-9]+]] = array.filter %[[PTS]]
// CHECK:           array.index %[[MIDY]][]
// CHECK:           arith.subf %{{.+}}, %[[BORDER]]
// CHECK:         %[[BELOWB:[0-9]+]] = array.filter %[[PTS]]
// CHECK:           array.index %[[MIDY]][]
// CHECK:           arith.addf %{{.+}}, %[[BORDER]]
// (cluster 3) cross, distances and minimum
// CHECK:         %[[NA:[0-9]+]] = array.dim %[[ABOVEB]], 0
// CHECK:         %[[NB:[0-9]+]] = array.dim %[[BELOWB]], 0
// CHECK:         %[[MERGED:[0-9]+]]:2 = array.generate(%[[NA]], %[[NB]]) : tensor<?x?xindex>, tensor<?x?xindex>
// CHECK:         %[[MERGEDA:[0-9]+]] = array.gather %[[ABOVEB]][%[[MERGED]]#0] : tensor<?xcomplex<f64>>[tensor<?x?xindex>] -> tensor<?x?xcomplex<f64>>
// CHECK:         %[[MERGEDB:[0-9]+]] = array.gather %[[BELOWB]][%[[MERGED]]#1] : tensor<?xcomplex<f64>>[tensor<?x?xindex>] -> tensor<?x?xcomplex<f64>>
// CHECK:         %[[DISTS:[0-9]+]] = array.map %[[MERGEDA]], %[[MERGEDB]] : tensor<?x?xcomplex<f64>>, tensor<?x?xcomplex<f64>> -> tensor<?x?xf64>
// CHECK:           complex.abs
// CHECK:         %[[MINSROWS:[0-9]+]] = array.fold %[[DISTS]] init(%[[BORDER]] : f64) : tensor<?x?xf64> -> tensor<?xf64>
// CHECK:         %[[MINS:[0-9]+]] = array.fold %[[MINSROWS]] init(%[[BORDER]] : f64) : tensor<?xf64> -> tensor<f64>
// CHECK:         return %[[MINS]] : tensor<f64>

// The stand-in for the recursive call (not from the seed): closestPointsNaive.
// CHECK-LABEL: func.func private @closestPoints(
// CHECK-SAME:    %[[P:arg[0-9]+]]: tensor<?xcomplex<f64>>) -> tensor<f64>
// CHECK:         %[[N:[0-9]+]] = array.dim %[[P]], 0 : tensor<?xcomplex<f64>>
// CHECK:         %[[PAIRS:[0-9]+]] = array.generate(%[[N]], %[[N]]) : tensor<?x?xf64>
// CHECK:           complex.abs
// CHECK:           arith.cmpi ult
// CHECK:         %[[ROWS:[0-9]+]] = array.fold %[[PAIRS]] init({{.+}}) : tensor<?x?xf64> -> tensor<?xf64>
// CHECK:         %[[MIN:[0-9]+]] = array.fold %[[ROWS]] init({{.+}}) : tensor<?xf64> -> tensor<f64>
// CHECK:         return %[[MIN]] : tensor<f64>

// CANON-LABEL: func.func @closestPointsStep(
// CANON:         array.fold
// CANON:         array.dim
// CANON:         array.map
// CANON-COUNT-2: array.filter
// CANON-COUNT-2: call @closestPoints
// CANON:         arith.minimumf
// CANON-COUNT-2: array.filter
// CANON-COUNT-2: array.dim
// CANON:         array.generate
// CANON-COUNT-2: array.gather
// CANON:         array.map
// CANON-COUNT-2: array.fold
// CANON-LABEL: func.func private @closestPoints(
// CANON:         array.generate
// CANON-COUNT-2: array.fold
