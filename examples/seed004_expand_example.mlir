// Source: seed 004 (Van Gils, "Fusion of Expand and Permute in Accelerate",
// MSc thesis 2023), §1.3 "Flattening by Expansion", the example
//
//   expand (\a -> 3) (\a i -> a * i) [1, 2, 3, 4]
//
// which evaluates to [0, 1, 2, 0, 2, 4, 0, 3, 6, 0, 4, 8]: every element
// expands to 3 elements, element i of the expansion of a being a * i.
//
// Encoding choices: Exp Int is i64 and the literal input is an
// `arith.constant` of type tensor<4xi64>; the `count` region is the size
// function (yielding an `index`), the `get` region receives the element and
// the position i within its segment (an `index`, converted to i64). The
// result length is data dependent, hence `tensor<?xi64>`.

func.func @expandExample() -> tensor<?xi64> {
  %arr = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %expanded = array.expand %arr : tensor<4xi64> -> tensor<?xi64> count {
  ^bb0(%a: i64):
    %c3 = arith.constant 3 : index
    array.yield %c3 : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %y = arith.muli %a, %ii : i64
    array.yield %y : i64
  }
  return %expanded : tensor<?xi64>
}
