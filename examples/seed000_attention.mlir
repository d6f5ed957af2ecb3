// Source: seed 000 (the fusion ILP paper), §5.1 "Large case studies": its
// FlashAttention (ref. [11]) "has multiple instances of the pattern where an
// n-dimensional array is `gathered` to n + 1 dimensions, and the result is then
// reduced back to n dimensions with a `fold`", the pattern on which the cost
// functions differ most. This is exact (untiled) attention written that way,
// 22 combinators after desugaring:
//
//   S = Q·Kᵀ / √d,   P = softmax over the rows of S,   O = P·V
//
// Encoding choices: every product of matrices is the n → n + 1 pattern. Q (n×d) is
// replicated along a new innermost dimension of m and transposed to Q3[i, j, c] =
// Q[i, c]; K (m×d) is replicated n times and transposed to K3[i, j, c] = K[j, c];
// their elementwise product is folded over c (the innermost dimension) into S.
// Likewise P3[i, e, j] = P[i, j] and V3[i, e, j] = V[j, e] fold over j into O. The
// row maximum and the row sum of the softmax are folds broadcast back with
// `array.replicate` (seed000_row_softmax.mlir). `array-desugar` turns each
// replicate and transpose into a generate of indices and a gather. Shapes are
// static (n = m = 64, d = 32) so the three-dimensional temporaries of the unfused
// program stay at 1 MiB each; 1/√d = 0.17677669529663687.

func.func @attention(%q: tensor<64x32xf64>, %k: tensor<64x32xf64>, %v: tensor<64x32xf64>) -> tensor<64x32xf64> {
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  // S[i, j] = Σ_c Q[i, c] K[j, c] / √d
  %qr = array.replicate %q, %c64 : tensor<64x32xf64> -> tensor<64x32x64xf64>
  %q3 = array.transpose %qr [0, 2, 1] : tensor<64x32x64xf64> -> tensor<64x64x32xf64>
  %kr = array.replicate %k, %c64 : tensor<64x32xf64> -> tensor<64x32x64xf64>
  %k3 = array.transpose %kr [2, 0, 1] : tensor<64x32x64xf64> -> tensor<64x64x32xf64>
  %qk = array.map %q3, %k3 : tensor<64x64x32xf64>, tensor<64x64x32xf64> -> tensor<64x64x32xf64> {
  ^bb0(%a: f64, %b: f64):
    %p = arith.mulf %a, %b : f64
    array.yield %p : f64
  }
  %dot = array.fold %qk init(%zero : f64) : tensor<64x64x32xf64> -> tensor<64x64xf64> {
  ^bb0(%acc: f64, %x: f64):
    %s = arith.addf %acc, %x : f64
    array.yield %s : f64
  }
  %scores = array.map %dot : tensor<64x64xf64> -> tensor<64x64xf64> {
  ^bb0(%x: f64):
    %scale = arith.constant 0.17677669529663687 : f64
    %s = arith.mulf %x, %scale : f64
    array.yield %s : f64
  }
  // P = softmax over the rows of S
  %rowMax = array.fold %scores init(%ninf : f64) : tensor<64x64xf64> -> tensor<64xf64> {
  ^bb0(%acc: f64, %s: f64):
    %m = arith.maximumf %acc, %s : f64
    array.yield %m : f64
  }
  %rowMaxes = array.replicate %rowMax, %c64 : tensor<64xf64> -> tensor<64x64xf64>
  %shifted = array.map %scores, %rowMaxes : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64> {
  ^bb0(%s: f64, %m: f64):
    %d = arith.subf %s, %m : f64
    %e = math.exp %d : f64
    array.yield %e : f64
  }
  %rowSum = array.fold %shifted init(%zero : f64) : tensor<64x64xf64> -> tensor<64xf64> {
  ^bb0(%acc: f64, %e: f64):
    %t = arith.addf %acc, %e : f64
    array.yield %t : f64
  }
  %rowSums = array.replicate %rowSum, %c64 : tensor<64xf64> -> tensor<64x64xf64>
  %probs = array.map %shifted, %rowSums : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64> {
  ^bb0(%e: f64, %t: f64):
    %p = arith.divf %e, %t : f64
    array.yield %p : f64
  }
  // O[i, e] = Σ_j P[i, j] V[j, e]
  %pr = array.replicate %probs, %c32 : tensor<64x64xf64> -> tensor<64x64x32xf64>
  %p3 = array.transpose %pr [0, 2, 1] : tensor<64x64x32xf64> -> tensor<64x32x64xf64>
  %vr = array.replicate %v, %c64 : tensor<64x32xf64> -> tensor<64x32x64xf64>
  %v3 = array.transpose %vr [2, 1, 0] : tensor<64x32x64xf64> -> tensor<64x32x64xf64>
  %pv = array.map %p3, %v3 : tensor<64x32x64xf64>, tensor<64x32x64xf64> -> tensor<64x32x64xf64> {
  ^bb0(%a: f64, %b: f64):
    %p = arith.mulf %a, %b : f64
    array.yield %p : f64
  }
  %out = array.fold %pv init(%zero : f64) : tensor<64x32x64xf64> -> tensor<64x32xf64> {
  ^bb0(%acc: f64, %x: f64):
    %s = arith.addf %acc, %x : f64
    array.yield %s : f64
  }
  return %out : tensor<64x32xf64>
}
