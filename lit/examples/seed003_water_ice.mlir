// Parses, verifies and pins examples/seed003_water_ice.mlir (seed 003 Table I's water-ice
// simulation, one iteration of Benchpress' wisp loop): size inference proves all 42
// combinators' sizes equal (no warning); the analysis proves optimal three clusters (the
// cell (2-D) map with T[:, :, 0] and its index arrays; the density, heat capacity and
// products map with the layer index; every neighbour gather, broadcast and both update
// maps with the other index arrays, cut where they read the first two's arrays); nothing
// is lowered op by op; and the results agree under the interpreter, compiled unfused and
// compiled fused (CPU, OpenMP, emulated GPU kernels), on degenerate grids (0 × 0, 1 × 1) too.
//
// Worked independently: a pure-Python transcription of the benchmark's step (no NumPy and
// not this tool: dens and heatcap copied as written; temp.py and salt.py with their padded
// flux arrays built at N_L + 1 rows and N_W + 1 columns and sliced as the benchmark slices
// them; wisp.py's loop body with p, c_w and m starting as ones and the top-step test
// i % 10 == 0; Python 2's integer divisions; sqrt and x * x for NumPy's ** 0.5 and ** 2)
// gives, bit for bit, every value checked below; the HAND and NONTOP checksums are its
// FNV-1a (64 bits) of "tensor<2x3x4xf64>[" + ", ".join(repr(x) for x in the values) + "]".
// The benchmark's own code (its Python 2 divisions made explicit) run under NumPy agrees.
// * HAND and PROBE-TOP lines, the shipped 2 × 3 grid at step i = 10 (a top step, so every
//   layer moves; winter; I_export = 14.22): T = [−4, 0, 5, 2] + a + b (the benchmark's
//   start, 0.1 as 0), S = [36, 36, 25, 36] but [25, 36, 36, 36] in cell (1, 1), and
//   V = 2, 0.25, 1 / 0.5, 4, 0.0625 (where V <= 0.5, h_ice = √V/2 and x_ice = √V);
//   integer T and square S make every power exact. The ice grows everywhere (V' > V); the
//   fresh top of cell (1, 1) draws salt from the five other tops, its neighbours (directly
//   or diagonally): 25 → 29.158..., theirs 36 → 35.0 to 35.3.
// * NONTOP and PROBE-NEXT lines, the same grid at i = 11 (not a top step): layer 0 of T and
//   S and V' are step 10's (same season, same I_export); layers 1..3 of T and S stay.
//
// The generated-input runs give --size (and --seed), so `--run` generates the inputs and
// leaves the shipped ones unread.
// RUN: fuse-opt %examples/seed003_water_ice.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_water_ice.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_water_ice.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: rm -rf %t && fuse-opt %examples/seed003_water_ice.mlir --run --output-dir=%t/top | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %s --run --function=layers --input=%t/top/wispStep.0.npy --input=%t/top/wispStep.1.npy | FileCheck %s --check-prefix=PROBE-TOP
// RUN: fuse-opt %s --run --function=stepEleven --output-dir=%t > /dev/null
// RUN: fuse-opt %examples/seed003_water_ice.mlir --run --input=%examples/inputs/seed003_water_ice/wispStep.0.npy --input=%examples/inputs/seed003_water_ice/wispStep.1.npy --input=%examples/inputs/seed003_water_ice/wispStep.2.npy --input=%t/stepEleven.0.npy --output-dir=%t/next | FileCheck %s --check-prefix=NONTOP
// RUN: fuse-opt %s --run --function=layers --input=%t/next/wispStep.0.npy --input=%t/next/wispStep.1.npy | FileCheck %s --check-prefix=PROBE-NEXT
// RUN: fuse-opt %examples/seed003_water_ice.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_water_ice.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_water_ice.mlir --run --check --size=8 --seed=3 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_water_ice.mlir --run --check --size=4 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @wispStep(
// CHECK-COUNT-12: array.generate
// CHECK:         array.gather
// CHECK:         math.powf
// CHECK-COUNT-25: array.gather
// CHECK:         return

// CLUSTERS: "name":"wispStep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"row","col","layer0","T0","xIce"],["kIdx","p"],["aIdx","bIdx","aPrev","aNext","bPrev","bNext","kPrev","kNext","x3","surf3","dV3","pTup","pTdn","cwDn","pTn","pTs","pTw","pTe","pTnw","pTse","pTne","pNE","Tsw","pSup","pSdn","pSn","pSs","pSw","pSe","pSnw","pSse","pSne","Ssw","tNew","sNew"]]

// LOOPS-NOT: op by op

// HAND: @wispStep: <{{.*}}shape [2, 3, 4] checksum a12029dd7e45e91f>, <{{.*}}shape [2, 3, 4] checksum 939eabbbf2b061d7>, tensor<2x3xf64>[2.0337443221567164, 0.2694550457672409, 1.0182517016317016, 0.5285069204180786, 4.003971521128444, 0.0633543063214812] ({{.*}}, interpreter) [inputs from {{.*}}seed003_water_ice/]
// HAND: @wispStep: <{{.*}}shape [2, 3, 4] checksum a12029dd7e45e91f>, <{{.*}}shape [2, 3, 4] checksum 939eabbbf2b061d7>, tensor<2x3xf64>[2.0337443221567164, 0.2694550457672409, 1.0182517016317016, 0.5285069204180786, 4.003971521128444, 0.0633543063214812] ({{.*}}, compiled)

// The layers of T', then of S'.
// PROBE-TOP: @layers: tensor<2x3xf64>[-3.9598637058318786, -2.9930451732823036, -1.9906297352500226, -2.984339614036911, -1.9907414066161249, -1.0198143356768363], tensor<2x3xf64>[-0.0008525805787777052, 0.9965477480440296, 1.9989952085379434, 0.9974951951428485, 1.9988860741780499, 2.9949989518061617], tensor<2x3xf64>[5.000063358722051, 6.000027166209031, 7.000013703954486, 6.000000329937233, 6.999973984077177, 7.9999294951818545], tensor<2x3xf64>[2.000003011715644, 3.0000022602583702, 4.000000012964867, 3.00000001306657, 3.999997766163788, 4.9999970191536685],
// PROBE-TOP-SAME: tensor<2x3xf64>[34.99941669282332, 35.29248386271275, 35.0188629400821, 35.292662665279046, 29.15817446693266, 35.29314004413731], tensor<2x3xf64>[35.9950854242793, 35.995062003915194, 35.99510195570575, 35.99508769954194, 35.9926009561388, 35.99509050543774], tensor<2x3xf64>[25.0034001269724, 25.002247619163736, 25.00329906830254, 25.00225065649901, 35.98347961984593, 25.00225525378071], tensor<2x3xf64>[35.999999511209445, 35.99999958304979, 35.999999991335486, 35.99999999119248, 36.0000003868672, 36.000000520721734] ({{.*}}, interpreter)

// NONTOP: @wispStep: <{{.*}}shape [2, 3, 4] checksum 7d207fe60863306a>, <{{.*}}shape [2, 3, 4] checksum 6d0d97bcc2343f3d>, tensor<2x3xf64>[2.0337443221567164, 0.2694550457672409, 1.0182517016317016, 0.5285069204180786, 4.003971521128444, 0.0633543063214812] ({{.*}}, interpreter)
// NONTOP: @wispStep: <{{.*}}shape [2, 3, 4] checksum 7d207fe60863306a>, <{{.*}}shape [2, 3, 4] checksum 6d0d97bcc2343f3d>, tensor<2x3xf64>[2.0337443221567164, 0.2694550457672409, 1.0182517016317016, 0.5285069204180786, 4.003971521128444, 0.0633543063214812] ({{.*}}, compiled)

// PROBE-NEXT: @layers: tensor<2x3xf64>[-3.9598637058318786, -2.9930451732823036, -1.9906297352500226, -2.984339614036911, -1.9907414066161249, -1.0198143356768363], tensor<2x3xf64>[0.0, 1.0, 2.0, 1.0, 2.0, 3.0], tensor<2x3xf64>[5.0, 6.0, 7.0, 6.0, 7.0, 8.0], tensor<2x3xf64>[2.0, 3.0, 4.0, 3.0, 4.0, 5.0],
// PROBE-NEXT-SAME: tensor<2x3xf64>[34.99941669282332, 35.29248386271275, 35.0188629400821, 35.292662665279046, 29.15817446693266, 35.29314004413731], tensor<2x3xf64>[36.0, 36.0, 36.0, 36.0, 36.0, 36.0], tensor<2x3xf64>[25.0, 25.0, 25.0, 25.0, 36.0, 25.0], tensor<2x3xf64>[36.0, 36.0, 36.0, 36.0, 36.0, 36.0] ({{.*}}, interpreter)

// RESULT: @wispStep: match (interpreter, unfused, fused)

// The four layers of a 2 × 3 × 4 temperature and salinity, each a 2 × 3 grid.
func.func @layers(%t: tensor<2x3x4xf64>, %s: tensor<2x3x4xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %rows, %cols, %l0, %l1, %l2, %l3 = array.generate (%c2, %c3) : tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex> {
  ^bb0(%a: index, %b: index):
    array.yield %a, %b, %c0, %c1, %c2, %c3 : index, index, index, index, index, index
  }
  %t0 = array.gather %t[%rows, %cols, %l0] : tensor<2x3x4xf64>[tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>] -> tensor<2x3xf64>
  %t1 = array.gather %t[%rows, %cols, %l1] : tensor<2x3x4xf64>[tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>] -> tensor<2x3xf64>
  %t2 = array.gather %t[%rows, %cols, %l2] : tensor<2x3x4xf64>[tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>] -> tensor<2x3xf64>
  %t3 = array.gather %t[%rows, %cols, %l3] : tensor<2x3x4xf64>[tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>] -> tensor<2x3xf64>
  %s0 = array.gather %s[%rows, %cols, %l0] : tensor<2x3x4xf64>[tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>] -> tensor<2x3xf64>
  %s1 = array.gather %s[%rows, %cols, %l1] : tensor<2x3x4xf64>[tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>] -> tensor<2x3xf64>
  %s2 = array.gather %s[%rows, %cols, %l2] : tensor<2x3x4xf64>[tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>] -> tensor<2x3xf64>
  %s3 = array.gather %s[%rows, %cols, %l3] : tensor<2x3x4xf64>[tensor<2x3xindex>, tensor<2x3xindex>, tensor<2x3xindex>] -> tensor<2x3xf64>
  return %t0, %t1, %t2, %t3, %s0, %s1, %s2, %s3 : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}

// The iteration number of the step after the shipped one: 11, not a top step.
func.func @stepEleven() -> i64 {
  %i = arith.constant 11 : i64
  return %i : i64
}
