// Source: seed 000 (the fusion ILP paper), §5.1 "Large case studies": its
// FlashAttention "has multiple instances of the pattern where an n-dimensional
// array is `gathered` to n + 1 dimensions, and the result is then reduced back to
// n dimensions with a `fold`". The softmax over the rows of a score matrix is the
// core of attention (FlashAttention, seed 000 ref. [11]) and the smallest program
// with that pattern in both directions:
//
//   softmax(S)[i, j] = exp(S[i, j] - max_j S[i, j]) / Σ_j exp(S[i, j] - max_j S[i, j])
//
// Encoding choices: the row maximum and the row sum are folds over the innermost
// dimension (`%rowMax`, `%rowSum`, vectors of the rows); each is broadcast back
// over its row with `array.replicate` (desugared to a generate of the row index and
// a gather: the n → n + 1 gather of the paper); `%shifted` is exp(S - max) and
// `%softmax` the quotient. The maximum starts at -inf.

func.func @rowSoftmax(%scores: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %cols = array.dim %scores, 1 : tensor<?x?xf64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %rowMax = array.fold %scores init(%ninf : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %s: f64):
    %m = arith.maximumf %acc, %s : f64
    array.yield %m : f64
  }
  %rowMaxes = array.replicate %rowMax, %cols : tensor<?xf64> -> tensor<?x?xf64>
  %shifted = array.map %scores, %rowMaxes : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%s: f64, %m: f64):
    %d = arith.subf %s, %m : f64
    %e = math.exp %d : f64
    array.yield %e : f64
  }
  %zero = arith.constant 0.0 : f64
  %rowSum = array.fold %shifted init(%zero : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %e: f64):
    %t = arith.addf %acc, %e : f64
    array.yield %t : f64
  }
  %rowSums = array.replicate %rowSum, %cols : tensor<?xf64> -> tensor<?x?xf64>
  %softmax = array.map %shifted, %rowSums : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%e: f64, %t: f64):
    %q = arith.divf %e, %t : f64
    array.yield %q : f64
  }
  return %softmax : tensor<?x?xf64>
}
