// Source: seed 003 (Kristensen et al., "Fusion of Array Operations at Runtime"
// (Bohrium)), §VI Table I: "Game of Life" (10^8 64-bit floats, 20 iterations, from the
// Benchpress suite, benchmarks/gameoflife/python_numpy/gameoflife.py, rule version 1).
// One generation of Conway's Game of Life on a 0/1 grid whose outermost ring is a
// fixed frame: Benchpress keeps an (H+2) × (W+2) state and updates only its inside
// `cells = state[1:-1, 1:-1]`, so a border cell never changes and every inside cell has
// all 8 neighbours. With N the sum of the 8 neighbours and c the cell:
//
//   live  = N · c                       stay  = 2 ≤ live ≤ 3     (survive on 2 or 3)
//   dead  = N · (c == 0)                spawn = dead == 3         (born on 3)
//   new[i, j] = stay ∨ spawn   inside,      new[i, j] = state[i, j]   on the border
//
// Encoding choices: each of the 8 neighbours is a gather of the state at clamped
// indices (six generated index arrays, one per row or column offset; clamping keeps the
// border's reads in bounds, and the border keeps its value anyway); a generated i1 mask
// marks the inside; the rule is Benchpress' version 1 as five maps (the neighbour count
// in its order ul + um + ur + ml + mr + ll + lm + lr, live, stay, dead, spawn, whose
// booleans are i1 arrays) and a last map that stores stay ∨ spawn as 0/1 inside and the
// old cell on the border. Cells are i64 (Benchpress uses its float dtype; the values are
// 0 and 1 either way). 21 combinators.

func.func @lifeStep(%state: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = array.dim %state, 0 : tensor<?x?xi64>
  %m = array.dim %state, 1 : tensor<?x?xi64>
  %nLast = arith.subi %n, %c1 : index
  %mLast = arith.subi %m, %c1 : index
  %rowUp = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %i, %c1 : index
    %k = arith.subi %a, %c1 : index
    array.yield %k : index
  }
  %rowSame = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %i : index
  }
  %rowDown = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.addi %i, %c1 : index
    %k = arith.minui %a, %nLast : index
    array.yield %k : index
  }
  %colLeft = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.maxui %j, %c1 : index
    %k = arith.subi %a, %c1 : index
    array.yield %k : index
  }
  %colSame = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %j : index
  }
  %colRight = array.generate (%n, %m) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %a = arith.addi %j, %c1 : index
    %k = arith.minui %a, %mLast : index
    array.yield %k : index
  }
  %ul = array.gather %state[%rowUp, %colLeft] : tensor<?x?xi64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xi64>
  %um = array.gather %state[%rowUp, %colSame] : tensor<?x?xi64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xi64>
  %ur = array.gather %state[%rowUp, %colRight] : tensor<?x?xi64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xi64>
  %ml = array.gather %state[%rowSame, %colLeft] : tensor<?x?xi64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xi64>
  %mr = array.gather %state[%rowSame, %colRight] : tensor<?x?xi64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xi64>
  %ll = array.gather %state[%rowDown, %colLeft] : tensor<?x?xi64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xi64>
  %lm = array.gather %state[%rowDown, %colSame] : tensor<?x?xi64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xi64>
  %lr = array.gather %state[%rowDown, %colRight] : tensor<?x?xi64>[tensor<?x?xindex>, tensor<?x?xindex>] -> tensor<?x?xi64>
  %neighbors = array.map %ul, %um, %ur, %ml, %mr, %ll, %lm, %lr : tensor<?x?xi64>, tensor<?x?xi64>, tensor<?x?xi64>, tensor<?x?xi64>, tensor<?x?xi64>, tensor<?x?xi64>, tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%a: i64, %b: i64, %c: i64, %d: i64, %e: i64, %f: i64, %g: i64, %h: i64):
    %s1 = arith.addi %a, %b : i64
    %s2 = arith.addi %s1, %c : i64
    %s3 = arith.addi %s2, %d : i64
    %s4 = arith.addi %s3, %e : i64
    %s5 = arith.addi %s4, %f : i64
    %s6 = arith.addi %s5, %g : i64
    %s7 = arith.addi %s6, %h : i64
    array.yield %s7 : i64
  }
  %live = array.map %neighbors, %state : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%k: i64, %c: i64):
    %l = arith.muli %k, %c : i64
    array.yield %l : i64
  }
  %stay = array.map %live : tensor<?x?xi64> -> tensor<?x?xi1> {
  ^bb0(%l: i64):
    %low = arith.constant 2 : i64
    %high = arith.constant 3 : i64
    %a = arith.cmpi sge, %l, %low : i64
    %b = arith.cmpi sle, %l, %high : i64
    %s = arith.andi %a, %b : i1
    array.yield %s : i1
  }
  %dead = array.map %neighbors, %state : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%k: i64, %c: i64):
    %zero = arith.constant 0 : i64
    %isDead = arith.cmpi eq, %c, %zero : i64
    %w = arith.extui %isDead : i1 to i64
    %d = arith.muli %k, %w : i64
    array.yield %d : i64
  }
  %spawn = array.map %dead : tensor<?x?xi64> -> tensor<?x?xi1> {
  ^bb0(%d: i64):
    %three = arith.constant 3 : i64
    %s = arith.cmpi eq, %d, %three : i64
    array.yield %s : i1
  }
  %inside = array.generate (%n, %m) : tensor<?x?xi1> {
  ^bb0(%i: index, %j: index):
    %i0 = arith.cmpi ugt, %i, %c0 : index
    %i1 = arith.cmpi ult, %i, %nLast : index
    %j0 = arith.cmpi ugt, %j, %c0 : index
    %j1 = arith.cmpi ult, %j, %mLast : index
    %a = arith.andi %i0, %i1 : i1
    %b = arith.andi %j0, %j1 : i1
    %in = arith.andi %a, %b : i1
    array.yield %in : i1
  }
  %next = array.map %state, %stay, %spawn, %inside : tensor<?x?xi64>, tensor<?x?xi1>, tensor<?x?xi1>, tensor<?x?xi1> -> tensor<?x?xi64> {
  ^bb0(%c: i64, %s: i1, %b: i1, %in: i1):
    %alive = arith.ori %s, %b : i1
    %v = arith.extui %alive : i1 to i64
    %r = arith.select %in, %v, %c : i64
    array.yield %r : i64
  }
  return %next : tensor<?x?xi64>
}
