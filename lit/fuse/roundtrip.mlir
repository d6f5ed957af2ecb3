// Hand-written fusion trees of every kind (a cluster around one combinator,
// vertical, horizontal, diagonal, the nested tree of seed 002 Listing 2, gather
// orders, a 2-array binding, a cluster without results) parse, verify, print and
// parse again to the same trees, in the custom and in the generic form.
//
// RUN: fuse-opt %s | fuse-opt | FileCheck %s
// RUN: fuse-opt %s --mlir-print-op-generic | fuse-opt | FileCheck %s

// A cluster around a single combinator.
func.func @single(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    %ys = array.map %xs {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      array.yield %x : i64
    }
    array.yield %ys : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// seed 002 §4.1 map fusion: vertical.
func.func @vertical(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %y = arith.muli %x, %x : i64
        array.yield %y : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%y: i64):
        %c1 = arith.constant 1 : i64
        %z = arith.addi %y, %c1 : i64
        array.yield %z : i64
      }
      array.yield %zs : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// seed 000 Fig. 1(b): horizontal, with static shapes that agree, and a fold
// next to a map over the same array (seed 002 §4.4).
func.func @horizontal(%xs: tensor<8xi64>, %z: i64) -> (tensor<8xi64>, tensor<i64>) {
  %r:2 = array.cluster -> tensor<8xi64>, tensor<i64> {
    %h:2 = array.horizontal -> tensor<8xi64>, tensor<i64> left {
      %as = array.map %xs : tensor<8xi64> -> tensor<8xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %as : tensor<8xi64>
    } right {
      %s = array.fold %xs init(%z : i64) : tensor<8xi64> -> tensor<i64> {
      ^bb0(%acc: i64, %x: i64):
        %t = arith.addi %acc, %x : i64
        array.yield %t : i64
      }
      array.yield %s : tensor<i64>
    }
    array.yield %h#0, %h#1 : tensor<8xi64>, tensor<i64>
  }
  return %r#0, %r#1 : tensor<8xi64>, tensor<i64>
}

// seed 002 §4.1 diagonal: `ys` is streamed into the fold and also kept.
func.func @diagonal(%xs: tensor<?xi64>, %z: i64) -> (tensor<?xi64>, tensor<i64>) {
  %r:2 = array.cluster -> tensor<?xi64>, tensor<i64> {
    %d:2 = array.diagonal -> tensor<?xi64>, tensor<i64> producer {
      %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x : i64
      }
      array.yield %ys : tensor<?xi64>
    } consumer {
    ^bb0(%ys: tensor<?xi64>):
      %s = array.fold %ys init(%z : i64) : tensor<?xi64> -> tensor<i64> {
      ^bb0(%acc: i64, %y: i64):
        %t = arith.addi %acc, %y : i64
        array.yield %t : i64
      }
      array.yield %s : tensor<i64>
    }
    array.yield %d#0, %d#1 : tensor<?xi64>, tensor<i64>
  }
  return %r#0, %r#1 : tensor<?xi64>, tensor<i64>
}

// seed 002 Listing 2: diagonal(map, horizontal(fold, vertical(scanl, fold))),
// with the fusion nodes carrying an attribute.
func.func @listing2(%ys: tensor<?xi64>, %zero: i64) -> (tensor<?xi64>, tensor<i64>, tensor<i64>) {
  %r:3 = array.cluster -> tensor<?xi64>, tensor<i64>, tensor<i64> attributes {note = "listing 2"} {
    %d:3 = array.diagonal -> tensor<?xi64>, tensor<i64>, tensor<i64> attributes {note = "map"} producer {
      %xs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%y: i64):
        array.yield %y : i64
      }
      array.yield %xs : tensor<?xi64>
    } consumer {
    ^bb0(%xs: tensor<?xi64>):
      %h:2 = array.horizontal -> tensor<i64>, tensor<i64> left {
        %sum1 = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
        ^bb0(%acc: i64, %x: i64):
          %s = arith.addi %acc, %x : i64
          array.yield %s : i64
        }
        array.yield %sum1 : tensor<i64>
      } right {
        %v = array.vertical -> tensor<i64> producer {
          %scn = array.scan left inclusive %xs init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
          ^bb0(%acc: i64, %x: i64):
            %s = arith.addi %acc, %x : i64
            array.yield %s : i64
          }
          array.yield %scn : tensor<?xi64>
        } consumer {
        ^bb0(%scn: tensor<?xi64>):
          %sum2 = array.fold %scn init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
          ^bb0(%acc: i64, %x: i64):
            %s = arith.addi %acc, %x : i64
            array.yield %s : i64
          }
          array.yield %sum2 : tensor<i64>
        }
        array.yield %v : tensor<i64>
      }
      array.yield %h#0, %h#1 : tensor<i64>, tensor<i64>
    }
    array.yield %d#0, %d#1, %d#2 : tensor<?xi64>, tensor<i64>, tensor<i64>
  }
  return %r#0, %r#1, %r#2 : tensor<?xi64>, tensor<i64>, tensor<i64>
}

// seed 000 §3.3 simple1: the producer runs in the gather's label order; the
// cluster's output is the gather's, in order 0.
func.func @gather_order(%is: tensor<?xindex>, %xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
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
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// seed 000 §3.4: both arrays of the 2-result map are bound and fused into the
// scatter (as index array and values); the destination comes from outside.
func.func @scatter(%xs: tensor<?xi64>, %bs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %as:2 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
      ^bb0(%x: i64):
        array.yield %x, %x : i64, i64
      }
      array.yield %as#0, %as#1 : tensor<?xi64>, tensor<?xi64>
    } consumer {
    ^bb0(%idx: tensor<?xi64>, %vals: tensor<?xi64>):
      %s = array.scatter %bs[%idx], %vals : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
      ^bb0(%old: i64, %new: i64):
        %t = arith.addi %old, %new : i64
        array.yield %t : i64
      }
      array.yield %s : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}

// A cluster whose results are all unused may have none.
func.func @no_results(%xs: tensor<?xi64>) {
  array.cluster {
    %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      array.yield %x : i64
    }
    array.yield
  }
  return
}

// CHECK-LABEL: func.func @single(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[YS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 0 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:           array.yield {{.*}} : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[YS]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// CHECK-LABEL: func.func @vertical(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[YS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_YS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[ZS:[0-9]+]] = array.map %[[B_YS]] : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[ZS]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// CHECK-LABEL: func.func @horizontal(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<8xi64>, %[[Z:arg[0-9]+]]: i64) -> (tensor<8xi64>, tensor<i64>)
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<8xi64>, tensor<i64> {
// CHECK-NEXT:    %[[HORIZ1:[0-9]+]]:2 = array.horizontal -> tensor<8xi64>, tensor<i64> left {
// CHECK-NEXT:      %[[AS:[0-9]+]] = array.map %[[XS]] : tensor<8xi64> -> tensor<8xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[AS]] : tensor<8xi64>
// CHECK-NEXT:    } right {
// CHECK-NEXT:      %[[S:[0-9]+]] = array.fold %[[XS]] init(%[[Z]] : i64) : tensor<8xi64> -> tensor<i64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[S]] : tensor<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1 : tensor<8xi64>, tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]]#0, %[[CLUSTER1]]#1 : tensor<8xi64>, tensor<i64>

// CHECK-LABEL: func.func @diagonal(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>, %[[Z:arg[0-9]+]]: i64) -> (tensor<?xi64>, tensor<i64>)
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]]:2 = array.cluster -> tensor<?xi64>, tensor<i64> {
// CHECK-NEXT:    %[[DIAG1:[0-9]+]]:2 = array.diagonal -> tensor<?xi64>, tensor<i64> producer {
// CHECK-NEXT:      %[[YS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[YS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_YS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[S:[0-9]+]] = array.fold %[[B_YS]] init(%[[Z]] : i64) : tensor<?xi64> -> tensor<i64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[S]] : tensor<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[DIAG1]]#0, %[[DIAG1]]#1 : tensor<?xi64>, tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]]#0, %[[CLUSTER1]]#1 : tensor<?xi64>, tensor<i64>

// CHECK-LABEL: func.func @listing2(
// CHECK-SAME:    %[[YS:arg[0-9]+]]: tensor<?xi64>, %[[ZERO:arg[0-9]+]]: i64) -> (tensor<?xi64>, tensor<i64>, tensor<i64>)
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]]:3 = array.cluster -> tensor<?xi64>, tensor<i64>, tensor<i64> attributes {note = "listing 2"} {
// CHECK-NEXT:    %[[DIAG1:[0-9]+]]:3 = array.diagonal -> tensor<?xi64>, tensor<i64>, tensor<i64> attributes {note = "map"} producer {
// CHECK-NEXT:      %[[XS:[0-9]+]] = array.map %[[YS]] : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[XS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_XS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[HORIZ1:[0-9]+]]:2 = array.horizontal -> tensor<i64>, tensor<i64> left {
// CHECK-NEXT:        %[[SUM1:[0-9]+]] = array.fold %[[B_XS]] init(%[[ZERO]] : i64) : tensor<?xi64> -> tensor<i64> {
// CHECK:               array.yield {{.*}} : i64
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[SUM1]] : tensor<i64>
// CHECK-NEXT:      } right {
// CHECK-NEXT:        %[[VERT1:[0-9]+]] = array.vertical -> tensor<i64> producer {
// CHECK-NEXT:          %[[SCN:[0-9]+]] = array.scan left inclusive %[[B_XS]] init(%[[ZERO]] : i64) : tensor<?xi64> -> tensor<?xi64> {
// CHECK:                 array.yield {{.*}} : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[SCN]] : tensor<?xi64>
// CHECK-NEXT:        } consumer {
// CHECK-NEXT:        ^bb0(%[[B_SCN:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:          %[[SUM2:[0-9]+]] = array.fold %[[B_SCN]] init(%[[ZERO]] : i64) : tensor<?xi64> -> tensor<i64> {
// CHECK:                 array.yield {{.*}} : i64
// CHECK-NEXT:          }
// CHECK-NEXT:          array.yield %[[SUM2]] : tensor<i64>
// CHECK-NEXT:        }
// CHECK-NEXT:        array.yield %[[VERT1]] : tensor<i64>
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[HORIZ1]]#0, %[[HORIZ1]]#1 : tensor<i64>, tensor<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[DIAG1]]#0, %[[DIAG1]]#1, %[[DIAG1]]#2 : tensor<?xi64>, tensor<i64>, tensor<i64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]]#0, %[[CLUSTER1]]#1, %[[CLUSTER1]]#2 : tensor<?xi64>, tensor<i64>, tensor<i64>

// CHECK-LABEL: func.func @gather_order(
// CHECK-SAME:    %[[IS:arg[0-9]+]]: tensor<?xindex>, %[[XS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[AS:[0-9]+]] = array.map %[[XS]] {array.cluster = 0 : i64, array.order = 2 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[AS]] : tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_AS:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[BS:[0-9]+]] = array.gather %[[B_AS]][%[[IS]]] {array.cluster = 0 : i64, array.label = 2 : i64, array.order = 0 : i64} : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
// CHECK-NEXT:      array.yield %[[BS]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// CHECK-LABEL: func.func @scatter(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>, %[[BS:arg[0-9]+]]: tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:  %[[CLUSTER1:[0-9]+]] = array.cluster -> tensor<?xi64> {
// CHECK-NEXT:    %[[VERT1:[0-9]+]] = array.vertical -> tensor<?xi64> producer {
// CHECK-NEXT:      %[[AS:[0-9]+]]:2 = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
// CHECK:             array.yield {{.*}} : i64, i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[AS]]#0, %[[AS]]#1 : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:    } consumer {
// CHECK-NEXT:    ^bb0(%[[B_AS0:arg[0-9]+]]: tensor<?xi64>, %[[B_AS1:arg[0-9]+]]: tensor<?xi64>):
// CHECK-NEXT:      %[[S:[0-9]+]] = array.scatter %[[BS]][%[[B_AS0]]], %[[B_AS1]] : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
// CHECK:             array.yield {{.*}} : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      array.yield %[[S]] : tensor<?xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield %[[VERT1]] : tensor<?xi64>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[CLUSTER1]] : tensor<?xi64>

// CHECK-LABEL: func.func @no_results(
// CHECK-SAME:    %[[XS:arg[0-9]+]]: tensor<?xi64>)
// CHECK-NEXT:  array.cluster {
// CHECK-NEXT:    %[[YS:[0-9]+]] = array.map %[[XS]] : tensor<?xi64> -> tensor<?xi64> {
// CHECK:           array.yield {{.*}} : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    array.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  return
