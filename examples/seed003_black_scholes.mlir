// Source: seed 003 (Kristensen et al., Bohrium), §VI Table I: "Black Scholes",
// 1.5 × 10^6 64-bit floats, from the Benchpress suite. The Black–Scholes price of a
// European call and put option for every stock price S, with one strike X, maturity
// T, interest rate r and volatility v:
//
//   d1 = (ln(S/X) + (r + v²/2)·T) / (v·√T)        d2 = d1 − v·√T
//   call = S·N(d1) − X·e^(−rT)·N(d2)               put = X·e^(−rT)·N(−d2) − S·N(−d1)
//
// with N the standard normal distribution function, N(x) = (1 + erf(x/√2)) / 2.
//
// Encoding choices: one combinator per line of the formula (Benchpress computes each
// as a NumPy array expression, so unfused there is one pass per line), the scalar
// parameters as function arguments; 9 maps, all of one size, which fusion turns into
// a single loop. N(−x) is written as 1 − N(x).

func.func @blackScholes(%s: tensor<?xf64>, %x: f64, %t: f64, %r: f64, %v: f64) -> (tensor<?xf64>, tensor<?xf64>) {
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %sqrtT = math.sqrt %t : f64
  %vSqrtT = arith.mulf %v, %sqrtT : f64
  %v2 = arith.mulf %v, %v : f64
  %v2half = arith.mulf %v2, %half : f64
  %drift = arith.addf %r, %v2half : f64
  %driftT = arith.mulf %drift, %t : f64
  %rT = arith.mulf %r, %t : f64
  %negRT = arith.negf %rT : f64
  %growth = math.exp %negRT : f64
  %discounted = arith.mulf %x, %growth : f64
  %logRatio = array.map %s : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64):
    %q = arith.divf %p, %x : f64
    %l = math.log %q : f64
    array.yield %l : f64
  }
  %d1 = array.map %logRatio : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%l: f64):
    %n = arith.addf %l, %driftT : f64
    %d = arith.divf %n, %vSqrtT : f64
    array.yield %d : f64
  }
  %d2 = array.map %d1 : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%d: f64):
    %e = arith.subf %d, %vSqrtT : f64
    array.yield %e : f64
  }
  %nd1 = array.map %d1 : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%d: f64):
    %invSqrt2 = arith.constant 0.7071067811865476 : f64
    %y = arith.mulf %d, %invSqrt2 : f64
    %e = math.erf %y : f64
    %p = arith.addf %e, %one : f64
    %c = arith.mulf %p, %half : f64
    array.yield %c : f64
  }
  %nd2 = array.map %d2 : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%d: f64):
    %invSqrt2 = arith.constant 0.7071067811865476 : f64
    %y = arith.mulf %d, %invSqrt2 : f64
    %e = math.erf %y : f64
    %p = arith.addf %e, %one : f64
    %c = arith.mulf %p, %half : f64
    array.yield %c : f64
  }
  %stockPart = array.map %s, %nd1 : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %n: f64):
    %m = arith.mulf %p, %n : f64
    array.yield %m : f64
  }
  %strikePart = array.map %nd2 : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%n: f64):
    %m = arith.mulf %discounted, %n : f64
    array.yield %m : f64
  }
  %call = array.map %stockPart, %strikePart : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %b: f64):
    %c = arith.subf %a, %b : f64
    array.yield %c : f64
  }
  // put = X·e^(−rT)·(1 − N(d2)) − S·(1 − N(d1)) = call − S + X·e^(−rT) (put–call parity
  // is not used: the put is computed from N as Benchpress does).
  %put = array.map %s, %nd1, %nd2 : tensor<?xf64>, tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%p: f64, %n1: f64, %n2: f64):
    %m1 = arith.subf %one, %n1 : f64
    %m2 = arith.subf %one, %n2 : f64
    %a = arith.mulf %discounted, %m2 : f64
    %b = arith.mulf %p, %m1 : f64
    %c = arith.subf %a, %b : f64
    array.yield %c : f64
  }
  return %call, %put : tensor<?xf64>, tensor<?xf64>
}
