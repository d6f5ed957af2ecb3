// Verifier errors of the fusion-tree ops (array.cluster, array.vertical,
// array.horizontal, array.diagonal): one hand-written broken tree per message of
// the "Fusion trees" section of ArrayDialect.cpp.
//
// RUN: fuse-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// Regions: only combinators and fusion nodes, one block ending in array.yield,
// no arguments (except a consumer's).
//===----------------------------------------------------------------------===//

func.func @cluster_holds_constant(%xs: tensor<?xi64>) -> tensor<?xi64> {
  // expected-error@+1 {{'array.cluster' op region 'body' may only hold combinators and fusion nodes, found 'arith.constant'}}
  %r = array.cluster -> tensor<?xi64> {
    %c1 = arith.constant 1 : i64
    %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      %y = arith.addi %x, %c1 : i64
      array.yield %y : i64
    }
    array.yield %ys : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// -----

// A cluster is not a fusion node: clusters do not nest.
func.func @cluster_in_cluster(%xs: tensor<?xi64>) -> tensor<?xi64> {
  // expected-error@+1 {{'array.cluster' op region 'body' may only hold combinators and fusion nodes, found 'array.cluster'}}
  %r = array.cluster -> tensor<?xi64> {
    %inner = array.cluster -> tensor<?xi64> {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %ys : tensor<?xi64>
    }
    array.yield %inner : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// -----

func.func @consumer_holds_size(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op region 'consumer' may only hold combinators and fusion nodes, found 'array.size'}}
    %v = array.vertical -> tensor<?xi64> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %n = array.size %ys : tensor<?xi64>
      %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
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

func.func @producer_not_yield(%xs: tensor<?xi64>) {
  %v = array.cluster -> tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op region 'producer' must end with 'array.yield'}}
    %v_node = array.vertical -> tensor<?xi64> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      llvm.unreachable
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%y: i64):
        array.yield %y : i64
      }
      array.yield %zs : tensor<?xi64>
    }
    array.yield %v_node : tensor<?xi64>
  }
  return
}

// -----

func.func @cluster_not_yield(%xs: tensor<?xi64>) {
  // expected-error@+1 {{'array.cluster' op region 'body' must end with 'array.yield'}}
  array.cluster {
    %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      array.yield %x : i64
    }
    llvm.unreachable
  }
  return
}

// -----

func.func @left_with_argument(%xs: tensor<?xi64>) {
  %h:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    // expected-error@+1 {{'array.horizontal' op region 'left' takes no arguments}}
    %h_node:2 = array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
    ^bb0(%a: tensor<?xi64>):
      %as = array.map %a : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %as : tensor<?xi64>
    } right {
      %bs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %bs : tensor<?xi64>
    }
    array.yield %h_node#0, %h_node#1 : tensor<?xi64>, tensor<?xi64>
  }
  return
}

// -----

func.func @producer_with_argument(%xs: tensor<?xi64>) {
  %d:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    // expected-error@+1 {{'array.diagonal' op region 'producer' takes no arguments}}
    %d_node:2 = array.diagonal -> tensor<?xi64>, tensor<?xi64> producer {
    ^bb0(%a: tensor<?xi64>):
      %ys = array.map %a : tensor<?xi64> -> tensor<?xi64> {
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
    array.yield %d_node#0, %d_node#1 : tensor<?xi64>, tensor<?xi64>
  }
  return
}

// -----

func.func @cluster_with_argument(%xs: tensor<?xi64>) {
  // expected-error@+1 {{'array.cluster' op region 'body' takes no arguments}}
  %r = array.cluster -> tensor<?xi64> {
  ^bb0(%a: tensor<?xi64>):
    %ys = array.map %a : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      array.yield %x : i64
    }
    array.yield %ys : tensor<?xi64>
  }
  return
}

//===----------------------------------------------------------------------===//
// array.cluster: one tree, its yields and its outputs.
//===----------------------------------------------------------------------===//

// -----

// Two loops side by side must be joined by an array.horizontal first.
func.func @cluster_two_trees(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  // expected-error@+1 {{'array.cluster' op body must hold exactly one fusion tree (or one combinator) and the yield}}
  %r:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      array.yield %x : i64
    }
    %bs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      array.yield %x : i64
    }
    array.yield %as, %bs : tensor<?xi64>, tensor<?xi64>
  }
  return %r#0, %r#1 : tensor<?xi64>, tensor<?xi64>
}

// -----

func.func @cluster_empty() {
  // expected-error@+1 {{'array.cluster' op body must hold exactly one fusion tree (or one combinator) and the yield}}
  array.cluster {
    array.yield
  }
  return
}

// -----

func.func @cluster_result_types(%xs: tensor<?xi64>) -> tensor<?xi32> {
  // expected-error@+1 {{'array.cluster' op yields (tensor<?xi64>), but its results are (tensor<?xi32>)}}
  %r = array.cluster -> tensor<?xi32> {
    %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      array.yield %x : i64
    }
    array.yield %ys : tensor<?xi64>
  }
  return %r : tensor<?xi32>
}

// -----

// The cluster yields its input instead of what its tree computes.
func.func @cluster_output_not_from_tree(%xs: tensor<?xi64>) -> tensor<?xi64> {
  // expected-error@+1 {{'array.cluster' op output #0 is not a result of the cluster's tree}}
  %r = array.cluster -> tensor<?xi64> {
    %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      array.yield %x : i64
    }
    array.yield %xs : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// -----

// seed 000 §3.3 simple3 fused anyway: `as` runs in the gather's order 2 (as
// array-fuse would label it) but is also an output of the cluster.
func.func @simple3_fused(%is: tensor<?xindex>, %xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  // expected-error@+1 {{'array.cluster' op output #0 is produced in order 2 (a gather's order), so it would not be fully computed; outputs of a cluster must be in order 0 or 1 (seed 000 §3.3)}}
  %r:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    %d:2 = array.diagonal -> tensor<?xi64>, tensor<?xi64> producer {
      %as = array.map %xs {array.cluster = 0 : i64, array.order = 2 : i64} : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %as : tensor<?xi64>
    } consumer {
    ^bb0(%as: tensor<?xi64>):
      %bs = array.gather %as[%is] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
      array.yield %bs : tensor<?xi64>
    }
    array.yield %d#0, %d#1 : tensor<?xi64>, tensor<?xi64>
  }
  return %r#0, %r#1 : tensor<?xi64>, tensor<?xi64>
}

//===----------------------------------------------------------------------===//
// Result lists of the fusion nodes.
//===----------------------------------------------------------------------===//

// -----

// A vertical fuses the producer's arrays away: it cannot also return them.
func.func @vertical_returns_producer(%xs: tensor<?xi64>) {
  %v:2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op must yield the consumer's arrays (tensor<?xi64>), but its results are (tensor<?xi64>, tensor<?xi64>)}}
    %v_node:2 = array.vertical -> tensor<?xi64>, tensor<?xi64> producer {
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
    array.yield %v_node#0, %v_node#1 : tensor<?xi64>, tensor<?xi64>
  }
  return
}

// -----

// A diagonal keeps the producer's arrays: they come first.
func.func @diagonal_drops_producer(%xs: tensor<?xi64>) {
  %d = array.cluster -> tensor<?xi1> {
    // expected-error@+1 {{'array.diagonal' op must yield the producer's then the consumer's arrays (tensor<?xi64>, tensor<?xi1>), but its results are (tensor<?xi1>)}}
    %d_node = array.diagonal -> tensor<?xi1> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %zs = array.map %ys : tensor<?xi64> -> tensor<?xi1> {
      ^bb0(%y: i64):
        %c0 = arith.constant 0 : i64
        %p = arith.cmpi sgt, %y, %c0 : i64
        array.yield %p : i1
      }
      array.yield %zs : tensor<?xi1>
    }
    array.yield %d_node : tensor<?xi1>
  }
  return
}

// -----

func.func @horizontal_swapped_results(%xs: tensor<?xi64>) {
  %h:2 = array.cluster -> tensor<?xi1>, tensor<?xi64> {
    // expected-error@+1 {{'array.horizontal' op must yield the left then the right side's arrays (tensor<?xi64>, tensor<?xi1>), but its results are (tensor<?xi1>, tensor<?xi64>)}}
    %h_node:2 = array.horizontal -> tensor<?xi1>, tensor<?xi64> left {
      %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %as : tensor<?xi64>
    } right {
      %bs = array.map %xs : tensor<?xi64> -> tensor<?xi1> {
      ^bb0(%x: i64):
        %c0 = arith.constant 0 : i64
        %p = arith.cmpi sgt, %x, %c0 : i64
        array.yield %p : i1
      }
      array.yield %bs : tensor<?xi1>
    }
    array.yield %h_node#0, %h_node#1 : tensor<?xi1>, tensor<?xi64>
  }
  return
}

//===----------------------------------------------------------------------===//
// The LeftHandSide binding of vertical and diagonal (seed 002 §4.4).
//===----------------------------------------------------------------------===//

// -----

func.func @consumer_wrong_argument(%xs: tensor<?xi64>) {
  %v = array.cluster -> tensor<?xi32> {
    // expected-error@+1 {{'array.vertical' op region 'consumer' must take the producer's arrays (tensor<?xi64>) as arguments, but takes (tensor<?xi32>)}}
    %v_node = array.vertical -> tensor<?xi32> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi32>):
      %zs = array.map %ys : tensor<?xi32> -> tensor<?xi32> {
      ^bb0(%y: i32):
        array.yield %y : i32
      }
      array.yield %zs : tensor<?xi32>
    }
    array.yield %v_node : tensor<?xi32>
  }
  return
}

// -----

// The consumer must bind both arrays of the 2-result producer, in order.
func.func @consumer_missing_argument(%xs: tensor<?xi64>) {
  %d:3 = array.cluster -> tensor<?xi64>, tensor<?xi1>, tensor<?xi64> {
    // expected-error@+1 {{'array.diagonal' op region 'consumer' must take the producer's arrays (tensor<?xi64>, tensor<?xi1>) as arguments, but takes (tensor<?xi64>)}}
    %d_node:3 = array.diagonal -> tensor<?xi64>, tensor<?xi1>, tensor<?xi64> producer {
      %ys:2 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi1> {
      ^bb0(%x: i64):
        %c0 = arith.constant 0 : i64
        %p = arith.cmpi sgt, %x, %c0 : i64
        array.yield %x, %p : i64, i1
      }
      array.yield %ys#0, %ys#1 : tensor<?xi64>, tensor<?xi1>
    } consumer {
    ^bb0(%y0: tensor<?xi64>):
      %zs = array.map %y0 : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%y: i64):
        array.yield %y : i64
      }
      array.yield %zs : tensor<?xi64>
    }
    array.yield %d_node#0, %d_node#1, %d_node#2 : tensor<?xi64>, tensor<?xi1>, tensor<?xi64>
  }
  return
}

//===----------------------------------------------------------------------===//
// Bound arrays are streamed (seed 000 Fig. 2, x not in I2; Table 1).
//===----------------------------------------------------------------------===//

// -----

// Reading the bound array with array.index inside a leaf is a read at an
// arbitrary index (here reversed): the array would have to be manifest.
func.func @bound_read_by_index(%xs: tensor<?xi64>, %n: index) {
  %v = array.cluster -> tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op array #0 bound by the consumer is read at arbitrary indices inside 'array.generate'; a fused array may only be streamed (seed 000 Fig. 2, x not in I2)}}
    %v_node = array.vertical -> tensor<?xi64> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %zs = array.generate (%n) : tensor<?xi64> {
      ^bb0(%i: index):
        %c1 = arith.constant 1 : index
        %ni = arith.subi %n, %i : index
        %j = arith.subi %ni, %c1 : index
        %y = array.index %ys[%j] : tensor<?xi64>
        array.yield %y : i64
      }
      array.yield %zs : tensor<?xi64>
    }
    array.yield %v_node : tensor<?xi64>
  }
  return
}

// -----

// seed 000 §3.4: the destination of a scatter is written at arbitrary indices,
// so `bs` cannot be fused into the scatter (only `as` can).
func.func @bound_scatter_destination(%xs: tensor<?xi64>, %is: tensor<?xi64>) {
  %v = array.cluster -> tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op array #0 bound by the consumer is read by 'array.scatter' in no traversal order; it cannot be fused over (seed 000 Table 1)}}
    %v_node = array.vertical -> tensor<?xi64> producer {
      %bs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %c1 = arith.constant 1 : i64
        %b = arith.addi %x, %c1 : i64
        array.yield %b : i64
      }
      array.yield %bs : tensor<?xi64>
    } consumer {
    ^bb0(%bs: tensor<?xi64>):
      %r = array.scatter %bs[%is], %xs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
      ^bb0(%old: i64, %new: i64):
        %s = arith.addi %old, %new : i64
        array.yield %s : i64
      }
      array.yield %r : tensor<?xi64>
    }
    array.yield %v_node : tensor<?xi64>
  }
  return
}

// -----

// A gather source without a label has no traversal order to be produced in.
func.func @bound_gather_source_unlabelled(%xs: tensor<?xi64>, %is: tensor<?xindex>) {
  %v = array.cluster -> tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op array #0 bound by the consumer is read by 'array.gather' in no traversal order; it cannot be fused over (seed 000 Table 1)}}
    %v_node = array.vertical -> tensor<?xi64> producer {
      %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %as : tensor<?xi64>
    } consumer {
    ^bb0(%as: tensor<?xi64>):
      %bs = array.gather %as[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
      array.yield %bs : tensor<?xi64>
    }
    array.yield %v_node : tensor<?xi64>
  }
  return
}

// -----

// Producer in order 1, consumer in order 0: the loops run in different orders.
func.func @order_mismatch(%xs: tensor<?xi64>) {
  %v = array.cluster -> tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op array #0 is produced in order 1 but read in order 0 by 'array.map' (seed 000 Fig. 2: fusion needs matching traversal orders)}}
    %v_node = array.vertical -> tensor<?xi64> producer {
      %ys = array.map %xs {array.order = 1 : i64} : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %zs = array.map %ys {array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%y: i64):
        array.yield %y : i64
      }
      array.yield %zs : tensor<?xi64>
    }
    array.yield %v_node : tensor<?xi64>
  }
  return
}

// -----

// seed 000 §3.3 simple1 with the wrong label: `as` runs in order 2, the gather
// reads it in its label order 3.
func.func @gather_label_mismatch(%is: tensor<?xindex>, %xs: tensor<?xi64>) {
  %v = array.cluster -> tensor<?xi64> {
    // expected-error@+1 {{'array.vertical' op array #0 is produced in order 2 but read in order 3 by 'array.gather' (seed 000 Fig. 2: fusion needs matching traversal orders)}}
    %v_node = array.vertical -> tensor<?xi64> producer {
      %as = array.map %xs {array.order = 2 : i64} : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %as : tensor<?xi64>
    } consumer {
    ^bb0(%as: tensor<?xi64>):
      %bs = array.gather %as[%is] {array.label = 3 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
      array.yield %bs : tensor<?xi64>
    }
    array.yield %v_node : tensor<?xi64>
  }
  return
}

//===----------------------------------------------------------------------===//
// One iteration space per horizontal node.
//===----------------------------------------------------------------------===//

// -----

func.func @horizontal_static_shapes(%xs: tensor<4xi64>, %ys: tensor<8xi64>) {
  %h:2 = array.cluster -> tensor<4xi64>, tensor<8xi64> {
    // expected-error@+1 {{'array.horizontal' op fuses loops over different iteration spaces ('array.map' and 'array.map' have static iteration shapes of different sizes)}}
    %h_node:2 = array.horizontal -> tensor<4xi64>, tensor<8xi64> left {
      %as = array.map %xs : tensor<4xi64> -> tensor<4xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %as : tensor<4xi64>
    } right {
      %bs = array.map %ys : tensor<8xi64> -> tensor<8xi64> {
      ^bb0(%y: i64):
        array.yield %y : i64
      }
      array.yield %bs : tensor<8xi64>
    }
    array.yield %h_node#0, %h_node#1 : tensor<4xi64>, tensor<8xi64>
  }
  return
}

// -----

func.func @horizontal_generate_gather(%is: tensor<3xindex>, %xs: tensor<?xi64>) {
  %c5 = arith.constant 5 : index
  %h:2 = array.cluster -> tensor<5xi64>, tensor<3xi64> {
    // expected-error@+1 {{'array.horizontal' op fuses loops over different iteration spaces ('array.generate' and 'array.gather' have static iteration shapes of different sizes)}}
    %h_node:2 = array.horizontal -> tensor<5xi64>, tensor<3xi64> left {
      %as = array.generate (%c5) : tensor<5xi64> {
      ^bb0(%i: index):
        %c0 = arith.constant 0 : i64
        array.yield %c0 : i64
      }
      array.yield %as : tensor<5xi64>
    } right {
      %bs = array.gather %xs[%is] : tensor<?xi64>[tensor<3xindex>] -> tensor<3xi64>
      array.yield %bs : tensor<3xi64>
    }
    array.yield %h_node#0, %h_node#1 : tensor<5xi64>, tensor<3xi64>
  }
  return
}
