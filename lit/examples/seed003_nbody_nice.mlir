// Parses, verifies and pins examples/seed003_nbody_nice.mlir (seed 003 Table I's NBody
// Nice, one time step of planets and massless asteroids): size inference proves every
// planet–planet array np × np and every asteroid–planet array na × np, so no size
// warning; the 40 combinators form two clusters (each kind of pair with the updates of
// the bodies it pulls; the pair arrays are never stored, each body's acceleration is one
// fold with three accumulators); nothing is lowered op by op.
//
// The shipped inputs (dt = 2, G folded into the masses) are a 3-4-5 triangle: planet A
// at (0, 0, 0) with m = 27 and v = (1, 0, 0), planet B at (0, 0, 4) with m = 125 and
// v = (0, −1, 0), asteroid C at (3, 0, 0) with v = (0, 0, 1), asteroid D at (0, 3, 0)
// with v = (0, 0, −1). By hand (m · d / |d|³, then v += a·dt, r += v·dt):
//   a_A = 125·(0, 0, 4)/64 = (0, 0, 7.8125):   v_A = (1, 0, 15.625),   r_A = (2, 0, 31.25)
//   a_B = 27·(0, 0, −4)/64 = (0, 0, −1.6875):  v_B = (0, −1, −3.375),  r_B = (0, −2, −2.75)
//   a_C = 27·(−3, 0, 0)/27 + 125·(−3, 0, 4)/125 = (−6, 0, 4):  v_C = (−12, 0, 9),  r_C = (−21, 0, 18)
//   a_D = 27·(0, −3, 0)/27 + 125·(0, −3, 4)/125 = (0, −6, 4):  v_D = (0, −12, 7),  r_D = (0, −21, 14)
// (also computed with a 15-line pure-Python transcription of Benchpress' calc_force and
// move, which gives the same values). All values are exact in binary, so the check is
// exact. The results are px, py, pz, pvx, pvy, pvz, then the asteroids' ax .. avz.
//
// Generated inputs agree under the interpreter, compiled unfused and compiled fused
// (CPU, OpenMP, emulated GPU kernels), one body of each kind and none included; given
// --size or --seed, `--run` generates the inputs and leaves the shipped ones unread.
// RUN: fuse-opt %examples/seed003_nbody_nice.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_nbody_nice.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_nbody_nice.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_nbody_nice.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %examples/seed003_nbody_nice.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_nbody_nice.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_nbody_nice.mlir --run --check --size=60 --seed=5 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_nbody_nice.mlir --run --check --size=20 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @nbodyNiceStep(
// CHECK:         array.fold {{.*}} : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?xf64>, tensor<?xf64>, tensor<?xf64>
// CHECK:         array.fold {{.*}} : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?xf64>, tensor<?xf64>, tensor<?xf64>
// CHECK-COUNT-12: array.map {{.*}} : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64>

// CLUSTERS: "name":"nbodyNiceStep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"pI","pJ","pxi","pxj","pdx","pyi","pyj","pdy","pzi","pzj","pdz","pmj","pWeight","pax","pvx2","pvy2","pvz2","px2","py2","pz2"],["aI","aJ","axi","apxj","adx","ayi","apyj","ady","azi","apzj","adz","amj","aWeight","aax","avx2","avy2","avz2","ax2","ay2","az2"]]

// LOOPS-NOT: op by op

// HAND: @nbodyNiceStep: tensor<2xf64>[2.0, 0.0], tensor<2xf64>[0.0, -2.0], tensor<2xf64>[31.25, -2.75], tensor<2xf64>[1.0, 0.0], tensor<2xf64>[0.0, -1.0], tensor<2xf64>[15.625, -3.375], tensor<2xf64>[-21.0, 0.0], tensor<2xf64>[0.0, -21.0], tensor<2xf64>[18.0, 14.0], tensor<2xf64>[-12.0, 0.0], tensor<2xf64>[0.0, -12.0], tensor<2xf64>[9.0, 7.0] ({{.*}}, interpreter)
// HAND: @nbodyNiceStep: tensor<2xf64>[2.0, 0.0], tensor<2xf64>[0.0, -2.0], tensor<2xf64>[31.25, -2.75], tensor<2xf64>[1.0, 0.0], tensor<2xf64>[0.0, -1.0], tensor<2xf64>[15.625, -3.375], tensor<2xf64>[-21.0, 0.0], tensor<2xf64>[0.0, -21.0], tensor<2xf64>[18.0, 14.0], tensor<2xf64>[-12.0, 0.0], tensor<2xf64>[0.0, -12.0], tensor<2xf64>[9.0, 7.0] ({{.*}}, compiled)
// RESULT: @nbodyNiceStep: match (interpreter, unfused, fused)
