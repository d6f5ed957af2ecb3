// Source: seed 004 (Van Gils, "Fusion of Expand and Permute in Accelerate",
// MSc thesis 2023), §5.1 "Micro-benchmarks": an expand whose elements are
// permuted straight away, for the segment-length distributions of its Figs. 5-11,
// plus the three shapes a GPU work division must survive: one huge segment,
// mostly empty segments, many tiny ones.
//
// Each function expands every source element `a` to `count(a)` elements and
// sends element i of a's segment to target `R(a, i)` of a 1000-element
// histogram (seed 004's "R: the index is chosen randomly from U(0, min(total,
// 1000))", here a hash of a and i), adding the value a + i there. The scatter
// reads the expand's two results element by element, so the analysis fuses
// expand and scatter into one cluster (seed 000 Table 1) and array-to-loops
// makes it one segment nest; array-gpu-kernels then divides the segments among
// GPU threads by one of seed 004's strategies (--gpu-expand / expand-strategy).
// The combine is an integer add: commutative and associative, so the atomic
// updates of every strategy give the interpreter's result exactly.
//
// Encoding choices: generated inputs are i64 in -8..7, so counts are computed
// from a + 8 (0..15); seed 004's "p% l-u" is approximated by the remainder or
// the select below each function. These programs live in examples/gpu/ and not
// among the bundled examples: their segments (up to 3500 elements per source
// element) would make the CPU benchmarks' 10^7-element runs move terabytes.

// (100% 0-10) -> R, Fig. 5: every segment short.
func.func @smallSegments(%src: tensor<?xi64>) -> tensor<?xi64> {
  %c1000 = arith.constant 1000 : index
  %zeros = array.generate (%c1000) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %targets, %values = array.expand %src : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c8 = arith.constant 8 : i64
    %x = arith.addi %a, %c8 : i64
    %c11 = arith.constant 11 : i64
    %n = arith.remui %x, %c11 : i64
    %count = arith.index_cast %n : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %c31 = arith.constant 31 : i64
    %c17 = arith.constant 17 : i64
    %c1000i = arith.constant 1000 : i64
    %ha = arith.muli %a, %c31 : i64
    %hi = arith.muli %ii, %c17 : i64
    %h = arith.addi %ha, %hi : i64
    %target = arith.remui %h, %c1000i : i64
    %value = arith.addi %a, %ii : i64
    array.yield %target, %value : i64, i64
  }
  %histogram = array.scatter %zeros[%targets], %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %histogram : tensor<?xi64>
}

// (100% 0-100) -> R, Fig. 6.
func.func @moderateSegments(%src: tensor<?xi64>) -> tensor<?xi64> {
  %c1000 = arith.constant 1000 : index
  %zeros = array.generate (%c1000) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %targets, %values = array.expand %src : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c8 = arith.constant 8 : i64
    %x = arith.addi %a, %c8 : i64
    %c7 = arith.constant 7 : i64
    %c101 = arith.constant 101 : i64
    %y = arith.muli %x, %c7 : i64
    %n = arith.remui %y, %c101 : i64
    %count = arith.index_cast %n : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %c31 = arith.constant 31 : i64
    %c17 = arith.constant 17 : i64
    %c1000i = arith.constant 1000 : i64
    %ha = arith.muli %a, %c31 : i64
    %hi = arith.muli %ii, %c17 : i64
    %h = arith.addi %ha, %hi : i64
    %target = arith.remui %h, %c1000i : i64
    %value = arith.addi %a, %ii : i64
    array.yield %target, %value : i64, i64
  }
  %histogram = array.scatter %zeros[%targets], %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %histogram : tensor<?xi64>
}

// (100% 1000-3000) -> R, Fig. 7: every segment longer than a block.
func.func @largeSegments(%src: tensor<?xi64>) -> tensor<?xi64> {
  %c1000 = arith.constant 1000 : index
  %zeros = array.generate (%c1000) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %targets, %values = array.expand %src : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c8 = arith.constant 8 : i64
    %x = arith.addi %a, %c8 : i64
    %c131 = arith.constant 131 : i64
    %c2001 = arith.constant 2001 : i64
    %c1000c = arith.constant 1000 : i64
    %y = arith.muli %x, %c131 : i64
    %r = arith.remui %y, %c2001 : i64
    %n = arith.addi %r, %c1000c : i64
    %count = arith.index_cast %n : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %c31 = arith.constant 31 : i64
    %c17 = arith.constant 17 : i64
    %c1000i = arith.constant 1000 : i64
    %ha = arith.muli %a, %c31 : i64
    %hi = arith.muli %ii, %c17 : i64
    %h = arith.addi %ha, %hi : i64
    %target = arith.remui %h, %c1000i : i64
    %value = arith.addi %a, %ii : i64
    array.yield %target, %value : i64, i64
  }
  %histogram = array.scatter %zeros[%targets], %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %histogram : tensor<?xi64>
}

// (75% 1-1; 25% 0-0) -> R, Fig. 8: the expand used as a filter.
func.func @expandAsFilter(%src: tensor<?xi64>) -> tensor<?xi64> {
  %c1000 = arith.constant 1000 : index
  %zeros = array.generate (%c1000) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %targets, %values = array.expand %src : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c8 = arith.constant 8 : i64
    %x = arith.addi %a, %c8 : i64
    %c4 = arith.constant 4 : i64
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %r = arith.remui %x, %c4 : i64
    %keep = arith.cmpi ne, %r, %c0 : i64
    %n = arith.select %keep, %c1, %c0 : i64
    %count = arith.index_cast %n : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %c31 = arith.constant 31 : i64
    %c17 = arith.constant 17 : i64
    %c1000i = arith.constant 1000 : i64
    %ha = arith.muli %a, %c31 : i64
    %hi = arith.muli %ii, %c17 : i64
    %h = arith.addi %ha, %hi : i64
    %target = arith.remui %h, %c1000i : i64
    %value = arith.addi %a, %ii : i64
    array.yield %target, %value : i64, i64
  }
  %histogram = array.scatter %zeros[%targets], %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %histogram : tensor<?xi64>
}

// (90% 0-10; 10% 3000-3500) -> R, Fig. 9: a few long segments among short ones (here 1 in 16).
func.func @irregularSegments(%src: tensor<?xi64>) -> tensor<?xi64> {
  %c1000 = arith.constant 1000 : index
  %zeros = array.generate (%c1000) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %targets, %values = array.expand %src : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c8 = arith.constant 8 : i64
    %x = arith.addi %a, %c8 : i64
    %c11 = arith.constant 11 : i64
    %c15 = arith.constant 15 : i64
    %c37 = arith.constant 37 : i64
    %c501 = arith.constant 501 : i64
    %c3000 = arith.constant 3000 : i64
    %short = arith.remui %x, %c11 : i64
    %y = arith.muli %x, %c37 : i64
    %r = arith.remui %y, %c501 : i64
    %long = arith.addi %r, %c3000 : i64
    %isLong = arith.cmpi eq, %x, %c15 : i64
    %n = arith.select %isLong, %long, %short : i64
    %count = arith.index_cast %n : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %c31 = arith.constant 31 : i64
    %c17 = arith.constant 17 : i64
    %c1000i = arith.constant 1000 : i64
    %ha = arith.muli %a, %c31 : i64
    %hi = arith.muli %ii, %c17 : i64
    %h = arith.addi %ha, %hi : i64
    %target = arith.remui %h, %c1000i : i64
    %value = arith.addi %a, %ii : i64
    array.yield %target, %value : i64, i64
  }
  %histogram = array.scatter %zeros[%targets], %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %histogram : tensor<?xi64>
}

// Mostly empty segments: 7 in 8 source elements expand to nothing.
func.func @mostlyEmptySegments(%src: tensor<?xi64>) -> tensor<?xi64> {
  %c1000 = arith.constant 1000 : index
  %zeros = array.generate (%c1000) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %targets, %values = array.expand %src : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c8 = arith.constant 8 : i64
    %x = arith.addi %a, %c8 : i64
    %c8m = arith.constant 8 : i64
    %c5 = arith.constant 5 : i64
    %c0 = arith.constant 0 : i64
    %r = arith.remui %x, %c8m : i64
    %some = arith.cmpi eq, %r, %c0 : i64
    %len = arith.remui %a, %c5 : i64
    %n = arith.select %some, %len, %c0 : i64
    %count = arith.index_cast %n : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %c31 = arith.constant 31 : i64
    %c17 = arith.constant 17 : i64
    %c1000i = arith.constant 1000 : i64
    %ha = arith.muli %a, %c31 : i64
    %hi = arith.muli %ii, %c17 : i64
    %h = arith.addi %ha, %hi : i64
    %target = arith.remui %h, %c1000i : i64
    %value = arith.addi %a, %ii : i64
    array.yield %target, %value : i64, i64
  }
  %histogram = array.scatter %zeros[%targets], %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %histogram : tensor<?xi64>
}

// One huge segment: the source is 0, 1, 2, ... and element 0 expands to 4096 elements, every other to at most 2.
func.func @oneHugeSegment(%src: tensor<?xi64>) -> tensor<?xi64> {
  %c1000 = arith.constant 1000 : index
  %zeros = array.generate (%c1000) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %length = array.dim %src, 0 : tensor<?xi64>
  %iota = array.generate (%length) : tensor<?xi64> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    array.yield %ii : i64
  }
  %targets, %values = array.expand %iota : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c8 = arith.constant 8 : i64
    %x = arith.addi %a, %c8 : i64
    %c3 = arith.constant 3 : i64
    %c0 = arith.constant 0 : i64
    %c4096 = arith.constant 4096 : i64
    %isFirst = arith.cmpi eq, %a, %c0 : i64
    %small = arith.remui %a, %c3 : i64
    %n = arith.select %isFirst, %c4096, %small : i64
    %count = arith.index_cast %n : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %c31 = arith.constant 31 : i64
    %c17 = arith.constant 17 : i64
    %c1000i = arith.constant 1000 : i64
    %ha = arith.muli %a, %c31 : i64
    %hi = arith.muli %ii, %c17 : i64
    %h = arith.addi %ha, %hi : i64
    %target = arith.remui %h, %c1000i : i64
    %value = arith.addi %a, %ii : i64
    array.yield %target, %value : i64, i64
  }
  %histogram = array.scatter %zeros[%targets], %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %histogram : tensor<?xi64>
}
