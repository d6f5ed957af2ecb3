// Broken trees found by review: each is rejected (seed 000 Fig. 2 and §3.3).
// RUN: fuse-opt %s --split-input-file --verify-diagnostics

// 1. vertical whose consumer never reads the bound array: the producer's result is dropped
func.func @vertical_unused(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op array #0 bound by the consumer is never used}}
    %v = array.vertical -> tensor<?xi64> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %zs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%y: i64):
        array.yield %y : i64
      }
      array.yield %zs : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// -----

// 2. horizontal of a fold over 4 elements and a map over 8 elements
func.func @horizontal_fold_map(%xs: tensor<4xi64>, %ys: tensor<8xi64>, %z: i64) -> (tensor<i64>, tensor<8xi64>) {
  %r:2 = array.cluster -> tensor<i64>, tensor<8xi64> {
    // expected-error@+1 {{'array.horizontal' op fuses loops over different iteration spaces ('array.fold' and 'array.map'}}
    %h:2 = array.horizontal -> tensor<i64>, tensor<8xi64> left {
      %s = array.fold %xs init(%z : i64) : tensor<4xi64> -> tensor<i64> {
      ^bb0(%a: i64, %x: i64):
        %t = arith.addi %a, %x : i64
        array.yield %t : i64
      }
      array.yield %s : tensor<i64>
    } right {
      %bs = array.map %ys : tensor<8xi64> -> tensor<8xi64> {
      ^bb0(%y: i64):
        array.yield %y : i64
      }
      array.yield %bs : tensor<8xi64>
    }
    array.yield %h#0, %h#1 : tensor<i64>, tensor<8xi64>
  }
  return %r#0, %r#1 : tensor<i64>, tensor<8xi64>
}

// -----

// 3. a fusion node outside any cluster
func.func @orphan(%xs: tensor<?xi64>) -> tensor<?xi64> {
  // expected-error@+1 {{'array.vertical' op must be nested in an 'array.cluster'}}
  %v = array.vertical -> tensor<?xi64> producer {
    %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      array.yield %x : i64
    }
    array.yield %ys : tensor<?xi64>
  } consumer {
  ^bb0(%ys: tensor<?xi64>):
    %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%y: i64):
      array.yield %y : i64
    }
    array.yield %zs : tensor<?xi64>
  }
  return %v : tensor<?xi64>
}

// -----

// 4. order mismatch hidden behind an empty producer region that forwards the bound array
func.func @forward_order(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %ys = array.map %xs {array.order = 2 : i64} : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      // expected-error@+1 {{'array.vertical' op region 'producer' holds no combinator}}
      %w = array.vertical -> tensor<?xi64> producer {
        array.yield %ys : tensor<?xi64>
      } consumer {
      ^bb0(%ys2: tensor<?xi64>):
        %zs = array.map %ys2 {array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
        ^bb0(%y: i64):
          array.yield %y : i64
        }
        array.yield %zs : tensor<?xi64>
      }
      array.yield %w : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// -----

// 5. a cluster output in a gather's order, forwarded by a vertical's consumer (simple3 in disguise)
func.func @forward_output(%is: tensor<?xindex>, %xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  // expected-error@+1 {{'array.cluster' op output #0 is produced in order 2}}
  %r:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    %v:2 = array.vertical -> tensor<?xi64>, tensor<?xi64> producer {
      %as = array.map %xs {array.order = 2 : i64} : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %as : tensor<?xi64>
    } consumer {
    ^bb0(%as: tensor<?xi64>):
      %bs = array.gather %as[%is] {array.label = 2 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
      array.yield %as, %bs : tensor<?xi64>, tensor<?xi64>
    }
    array.yield %v#0, %v#1 : tensor<?xi64>, tensor<?xi64>
  }
  return %r#0, %r#1 : tensor<?xi64>, tensor<?xi64>
}

// -----

// 7. producer region with no loop at all (just forwards an input)
func.func @empty_producer(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op region 'producer' holds no combinator}}
    %v = array.vertical -> tensor<?xi64> producer {
      array.yield %xs : tensor<?xi64>
    } consumer {
    ^bb0(%a: tensor<?xi64>):
      %zs = array.map %a : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%y: i64):
        array.yield %y : i64
      }
      array.yield %zs : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}
