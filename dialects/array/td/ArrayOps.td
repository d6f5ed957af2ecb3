//===- ArrayOps.td - the `array` dialect of data-parallel combinators -----===//
//
// One op per combinator of the source papers. Arrays are builtin ranked tensors
// (value semantics, dynamic dimensions allowed); element functions are regions
// whose block arguments are elements (or indices) and whose terminator is
// `array.yield`. Reading an array at an arbitrary index from inside a region is
// `array.index`: that array becomes a *free variable* of the enclosing combinator
// (seed 000 §3.1, Table 1 "free f"), which the fusion analysis treats as an
// infusible edge.
//
// Tuples of arrays are written structure-of-arrays (seed 000 §2: "an
// Array-of-Structures to Structure-of-Arrays transformation happens before the
// fusion analysis"): combinators take and return several arrays of one shape.
//
// Traits: combinators with regions are exactly as side-effect free and
// speculatable as their bodies (`RecursiveMemoryEffects`,
// `RecursivelySpeculatable`); `index`, `gather`, `scatter`, `backpermute` and
// `permute` read or write at computed indices, which is undefined when out of
// bounds, so they have no memory effect of their own but are not speculatable.
// `reverse` and `replicate` only read in bounds, so they are `Pure`.
//
//===----------------------------------------------------------------------===//

#ifndef ARRAY_OPS_TD
#define ARRAY_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def Array_Dialect : Dialect {
  let name = "array";
  let cppNamespace = "::mlir::array";
  let summary = "Data-parallel array combinators with explicit fusion";
  let description = [{
    Combinators over builtin ranked tensors: map, generate, gather, scatter,
    fold, scan, filter, expand, force, size/dim, index and yield, plus the sugar
    backpermute, permute, reverse and replicate (desugared by `array-desugar`).
    Semantics follow van Balen et al. (seed 000, Table 1), Robinson et al.
    (seed 001, Fig. 1.2) and Van Gils (seed 004, §1.3).
  }];
}

class Array_Op<string mnemonic, list<Trait> traits = []>
    : Op<Array_Dialect, mnemonic, traits>;

// An array value: a builtin ranked tensor of any element type.
def Array_AnyArray : RankedTensorOf<[AnyType]>;
// Index arrays of gather/scatter: `index` or signless integer elements.
def Array_IndexArray : RankedTensorOf<[Index, AnySignlessInteger]>;

// Traits of every combinator that carries element functions in regions.
defvar RegionCombinatorTraits = [RecursiveMemoryEffects, RecursivelySpeculatable];

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Array_ScanDirection : I32EnumAttr<"ScanDirection",
    "traversal direction of a scan (seed 000 Table 1: scanl is order 0, scanr order 1)", [
      I32EnumAttrCase<"left", 0>,
      I32EnumAttrCase<"right", 1>
    ]> {
  let cppNamespace = "::mlir::array";
}

def Array_ScanKind : I32EnumAttr<"ScanKind",
    "whether element i of a scan includes input element i", [
      I32EnumAttrCase<"inclusive", 0>,
      I32EnumAttrCase<"exclusive", 1>
    ]> {
  let cppNamespace = "::mlir::array";
}

//===----------------------------------------------------------------------===//
// Core combinators (seed 000 Table 1, seed 001 Fig. 1.2, seed 004 §1.3)
//===----------------------------------------------------------------------===//

def Array_MapOp : Array_Op<"map", RegionCombinatorTraits> {
  let summary = "applies an element function to one or more same-shaped arrays";
  let description = [{
    `map (f, xs)` of seed 000; n-ary, so `zipWith`/`zipWith3` are maps too. The
    body receives one element of every input (in operand order) and yields one
    element of every result. All inputs and results have the same shape.

    ```mlir
    %ys = array.map %xs, %zs : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %z : f32
      array.yield %s : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Array_AnyArray>:$inputs);
  let results = (outs Variadic<Array_AnyArray>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs) `->` type($results) $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Array_GenerateOp : Array_Op<"generate", RegionCombinatorTraits> {
  let summary = "creates arrays of a given shape from a function of the index";
  let description = [{
    `generate (s, f)` of seed 000. One `index` shape operand per dimension; the
    body receives the element's multidimensional index and yields one element of
    every result. A shape computed from data (for example from a fold result)
    makes the result size *rigid* in the sense of seed 001 §1.3.4.

    ```mlir
    %is = array.generate (%n) : tensor<?xindex> {
    ^bb0(%i: index):
      array.yield %i : index
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$shape);
  let results = (outs Variadic<Array_AnyArray>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`(` $shape `)` attr-dict `:` type($results) $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Array_GatherOp : Array_Op<"gather", [NoMemoryEffect]> {
  let summary = "reads a source array in the order given by index arrays";
  let description = [{
    `gather_l (is, xs)` of seed 000: `ys[s] = xs[is_0[s], ..., is_{r-1}[s]]` for
    a source of rank r, with one index array per source dimension (structure of
    arrays). The index arrays define the traversal order; the source is read in
    the gather's own order (its label, assigned by the fusion analysis).

    ```mlir
    %ys = array.gather %xs[%is] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Array_AnyArray:$source, Variadic<Array_IndexArray>:$indices);
  let results = (outs Array_AnyArray:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` type($source) `[` type($indices) `]` `->` type($result)
  }];
  let hasVerifier = 1;
}

def Array_ScatterOp : Array_Op<"scatter",
    [RecursiveMemoryEffects, AttrSizedOperandSegments, AllTypesMatch<["dest", "result"]>]> {
  let summary = "combines values into a destination array at given indices";
  let description = [{
    `scatter (f, dest, src)` of seed 000, with the pairs of `src` written as
    index arrays (one per destination dimension) and a value array of the same
    shape. For each source position s, `dest[i(s)]` becomes
    `f(dest[i(s)], values[s])`. The destination is consumed: the scatter must
    be its last use (seed 000 §2), which the fusion analysis enforces by making
    every later use of `dest` infusible. Indices out of range are undefined.

    An optional `keep` array of `i1` of the same shape drops the source
    positions whose flag is false before their index is looked at: the
    `Nothing` target of seed 004's `permute'` (§1.1), as
    `permute' f dest (zip (map Just/Nothing targets) values)`. A dropped
    position's index may be anything.

    ```mlir
    %r = array.scatter %dest[%is], %vs : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
    ^bb0(%old: f32, %new: f32):
      %s = arith.addf %old, %new : f32
      array.yield %s : f32
    }
    %k = array.scatter %dest[%is] keep(%flags : tensor<?xi1>), %vs : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
    ^bb0(%old: f32, %new: f32):
      array.yield %new : f32
    }
    ```
  }];
  let arguments = (ins Array_AnyArray:$dest, Variadic<Array_IndexArray>:$indices,
                       Optional<RankedTensorOf<[I1]>>:$keep, Array_AnyArray:$values);
  let results = (outs Array_AnyArray:$result);
  let regions = (region SizedRegion<1>:$combine);
  let assemblyFormat = [{
    $dest `[` $indices `]` (`keep` `(` $keep^ `:` type($keep) `)`)? `,` $values attr-dict `:`
    type($dest) `[` type($indices) `]` `,` type($values) `combine` $combine
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Array_FoldOp : Array_Op<"fold",
    !listconcat(RegionCombinatorTraits, [AttrSizedOperandSegments])> {
  let summary = "reduces the innermost dimension of one or more arrays";
  let description = [{
    `fold (op, xs)` of seed 000 / `fold f z xs` of seed 001. Each row along the
    innermost dimension is reduced, starting from the initial values; the
    results have the input shape without its innermost dimension (a rank-0
    tensor for a vector). One or more inputs of one shape, one or more
    accumulators, one result per accumulator: the counts are independent, so
    several accumulators share one input without passing it twice. The body
    receives the accumulators and then one element of every input, and yields
    the new accumulators. A result read as a scalar (with `array.index`) is a
    fusion-preventing dependency (seed 001 §1.1).

    ```mlir
    %sum = array.fold %xs init(%zero : f32) : tensor<?xf32> -> tensor<f32> {
    ^bb0(%acc: f32, %x: f32):
      %s = arith.addf %acc, %x : f32
      array.yield %s : f32
    }
    // The sum and the sum of squares of one input, in one pass.
    %s, %q = array.fold %xs init(%zero, %zero : f32, f32)
        : tensor<?xf32> -> tensor<f32>, tensor<f32> {
    ^bb0(%s0: f32, %q0: f32, %x: f32):
      %s1 = arith.addf %s0, %x : f32
      %xx = arith.mulf %x, %x : f32
      %q1 = arith.addf %q0, %xx : f32
      array.yield %s1, %q1 : f32, f32
    }
    ```
  }];
  let arguments = (ins Variadic<Array_AnyArray>:$inputs, Variadic<AnyType>:$inits);
  let results = (outs Variadic<Array_AnyArray>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs `init` `(` $inits `:` type($inits) `)` attr-dict `:` type($inputs) `->` type($results) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Array_ScanOp : Array_Op<"scan",
    !listconcat(RegionCombinatorTraits, [AttrSizedOperandSegments])> {
  let summary = "prefix combination along the innermost dimension";
  let description = [{
    `scanl`/`scanr` of seed 000 along the innermost dimension. `left` traverses
    each row from index 0 upwards (order 0), `right` from the end (order 1).
    `inclusive`: element i combines the initial value with input elements up to
    and including i; `exclusive`: up to but excluding i (element 0, or the last
    element for `right`, is the initial value). The results have the input
    shape. As for `fold`, the numbers of inputs and of accumulators are
    independent (one result per accumulator). For `right` the body still
    receives the accumulators, then the elements.

    ```mlir
    %ps = array.scan left inclusive %xs init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%acc: i64, %x: i64):
      %s = arith.addi %acc, %x : i64
      array.yield %s : i64
    }
    ```
  }];
  let arguments = (ins Array_ScanDirection:$direction, Array_ScanKind:$kind,
                       Variadic<Array_AnyArray>:$inputs, Variadic<AnyType>:$inits);
  let results = (outs Variadic<Array_AnyArray>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $direction $kind $inputs `init` `(` $inits `:` type($inits) `)` attr-dict `:` type($inputs) `->`
    type($results) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Array_FilterOp : Array_Op<"filter", RegionCombinatorTraits> {
  let summary = "keeps the elements of vectors for which a predicate holds";
  let description = [{
    `filter p xs` of seed 001: a size-changing combinator (a *transducer*,
    seed 001 §1.3.6) whose result size is data-dependent, so every result has a
    dynamic dimension. Several inputs of one length are filtered together
    (structure of arrays); the predicate receives one element of each and
    yields an `i1`.

    ```mlir
    %gts = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      %p = arith.cmpi sgt, %x, %c0 : i64
      array.yield %p : i1
    }
    ```
  }];
  let arguments = (ins Variadic<Array_AnyArray>:$inputs);
  let results = (outs Variadic<Array_AnyArray>:$results);
  let regions = (region SizedRegion<1>:$predicate);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs) `->` type($results) $predicate";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Array_ExpandOp : Array_Op<"expand", RegionCombinatorTraits> {
  let summary = "flattens by expansion: each element becomes a segment of the result";
  let description = [{
    `expand size get xs` of seed 004 §1.3: the `count` region gives the number
    of result elements of each input element (an `index`), the `get` region
    gives element j of that segment from the input element(s) and j. The
    segments are concatenated in input order, so results are dynamic vectors.

    ```mlir
    %ys = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
    ^bb0(%x: i64):
      array.yield %c3 : index
    } get {
    ^bb0(%x: i64, %j: index):
      %jj = arith.index_cast %j : index to i64
      %y = arith.muli %x, %jj : i64
      array.yield %y : i64
    }
    ```
  }];
  let arguments = (ins Variadic<Array_AnyArray>:$inputs);
  let results = (outs Variadic<Array_AnyArray>:$results);
  let regions = (region SizedRegion<1>:$count, SizedRegion<1>:$get);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($results) `count` $count `get` $get
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Array_ForceOp : Array_Op<"force", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "returns its input and forbids fusing across it";
  let description = [{
    `force (xs)` of seed 000: a fusion barrier. The producer of the input is
    never fused with any consumer of the result.
  }];
  let arguments = (ins Array_AnyArray:$input);
  let results = (outs Array_AnyArray:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Array_SizeOp : Array_Op<"size",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "the extent of every dimension of an array";
  let description = [{
    `size (xs)` of seed 000; `%m, %n = array.size %xs : tensor<?x?xf32>` gives
    one `index` per dimension. Does not read the elements.
  }];
  let arguments = (ins Array_AnyArray:$input);
  let results = (outs Variadic<Index>:$sizes);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Array_DimOp : Array_Op<"dim", [Pure]> {
  let summary = "the extent of one dimension of an array";
  let arguments = (ins Array_AnyArray:$input, I64Attr:$dimension);
  let results = (outs Index:$size);
  let assemblyFormat = "$input `,` $dimension attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Array_IndexOp : Array_Op<"index", [NoMemoryEffect,
    TypesMatchWith<"result is the element type of the array", "array", "result",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "reads one element of an array at an arbitrary index";
  let description = [{
    `xs ! i` of seed 000. Inside a combinator's region it makes `xs` a free
    variable of that combinator: `xs` must be fully computed first, so its
    producer cannot fuse with the combinator. A rank-0 array (a fold result) is
    read with no indices: `array.index %sum[] : tensor<f32>`.
  }];
  let arguments = (ins Array_AnyArray:$array, Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$array `[` $indices `]` attr-dict `:` type($array)";
  let hasVerifier = 1;
}

def Array_YieldOp : Array_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["MapOp", "GenerateOp", "ScatterOp", "FoldOp", "ScanOp", "FilterOp",
                 "ExpandOp", "BackpermuteOp", "PermuteOp", "ClusterOp", "VerticalOp",
                 "HorizontalOp", "DiagonalOp"]>]> {
  let summary = "ends an element function, giving its values";
  let description = [{
    The enclosing combinator checks the number and types of the values.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// Sugar (desugared by `array-desugar`, seed 000 §2.1)
//===----------------------------------------------------------------------===//

def Array_BackpermuteOp : Array_Op<"backpermute", [RecursiveMemoryEffects]> {
  let summary = "reads a source at indices computed from the output index";
  let description = [{
    `backpermute (sz, f, xs)` of seed 000 §2.1: the result has the given shape
    and `ys[i] = xs[f(i)]`; the body receives the output index and yields one
    source index per source dimension. Desugars to `generate` + `gather`.

    ```mlir
    %ys = array.backpermute %xs to (%n) : tensor<?xf32> -> tensor<?xf32> {
    ^bb0(%i: index):
      array.yield %i : index
    }
    ```
  }];
  let arguments = (ins Array_AnyArray:$source, Variadic<Index>:$shape);
  let results = (outs Array_AnyArray:$result);
  let regions = (region SizedRegion<1>:$index_map);
  let assemblyFormat = [{
    $source `to` `(` $shape `)` attr-dict `:` type($source) `->` type($result) $index_map
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Array_PermuteOp : Array_Op<"permute",
    [RecursiveMemoryEffects, AllTypesMatch<["dest", "result"]>]> {
  let summary = "forward permutation of a source into a copy of a destination";
  let description = [{
    Accelerate's `permute` (seed 000 §2.1, seed 004 §1.1): the `index` region
    maps each source index to one destination index per destination dimension,
    optionally followed by an `i1` that is false for elements to drop (the
    `Nothing` of seed 004); the `combine` region gives
    `f(dest[t], source[s])`. Desugars to `generate` + `scatter`.

    ```mlir
    %r = array.permute %src into %dest : tensor<?xf32> into tensor<?xf32> index {
    ^bb0(%i: index):
      array.yield %i : index
    } combine {
    ^bb0(%old: f32, %new: f32):
      array.yield %new : f32
    }
    ```
  }];
  let arguments = (ins Array_AnyArray:$source, Array_AnyArray:$dest);
  let results = (outs Array_AnyArray:$result);
  let regions = (region SizedRegion<1>:$index_map, SizedRegion<1>:$combine);
  let assemblyFormat = [{
    $source `into` $dest attr-dict `:` type($source) `into` type($dest) `index` $index_map
    `combine` $combine
  }];
  let hasRegionVerifier = 1;
}

def Array_ReverseOp : Array_Op<"reverse", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "reverses the innermost dimension";
  let description = [{
    `reverse` of seed 000 §2: `generate (n, \i: n-i-1)` followed by `gather`
    (per row of the innermost dimension for higher ranks).
  }];
  let arguments = (ins Array_AnyArray:$input);
  let results = (outs Array_AnyArray:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Array_TransposeOp : Array_Op<"transpose", [Pure]> {
  let summary = "permutes the dimensions of an array";
  let description = [{
    Dimension `k` of the result is dimension `permutation[k]` of the input, and
    `ys[i_0, ..., i_(r-1)] = xs[j]` with `j[permutation[k]] = i_k` (NumPy's
    `transpose(xs, axes=permutation)`, Accelerate's `transpose` for rank 2).
    Desugars to `generate` (the permuted index) + `gather`, so it fuses as a gather.

    ```mlir
    %t = array.transpose %m [1, 0] : tensor<?x3xf64> -> tensor<3x?xf64>
    ```
  }];
  let arguments = (ins Array_AnyArray:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Array_AnyArray:$result);
  let assemblyFormat = "$input $permutation attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Array_SliceOp : Array_Op<"slice", [NoMemoryEffect]> {
  let summary = "a contiguous run of the innermost dimension";
  let description = [{
    `ys[..., i] = xs[..., offset + i]` for `0 <= i < size` (NumPy's
    `xs[..., offset:offset+size]`; `take n` is `from 0 size n`, `drop n` is
    `from n size (dim - n)`). The run must lie inside the innermost dimension:
    like a gather's indices, an index out of range is undefined (the interpreter
    reports it). Desugars to `generate` (the shifted index) + `gather`.

    ```mlir
    %ys = array.slice %xs from %c1 size %n : tensor<?xf32> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Array_AnyArray:$input, Index:$offset, Index:$size);
  let results = (outs Array_AnyArray:$result);
  let assemblyFormat = [{
    $input `from` $offset `size` $size attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Array_ReshapeOp : Array_Op<"reshape", [NoMemoryEffect]> {
  let summary = "the same elements in row-major order, in another shape";
  let description = [{
    `ys` has the given shape, and element `k` of `ys` in row-major order is
    element `k` of `xs` (NumPy's `reshape`, Accelerate's `reshape`). The element
    counts must agree: like a gather's indices, a mismatch is undefined (the
    interpreter reports it). Desugars to `generate` (the row-major index of the
    output, split along the input's extents) + `gather`.

    ```mlir
    %m = array.reshape %xs to (%rows, %c4) : tensor<?xf32> -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Array_AnyArray:$input, Variadic<Index>:$shape);
  let results = (outs Array_AnyArray:$result);
  let assemblyFormat = [{
    $input `to` `(` $shape `)` attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Array_ConcatOp : Array_Op<"concat", [Pure]> {
  let summary = "two arrays joined along the innermost dimension";
  let description = [{
    `ys[..., i] = lhs[..., i]` for `i < n` and `rhs[..., i - n]` after, with `n`
    the innermost extent of `lhs` (NumPy's `concatenate(axis=-1)`, Accelerate's
    `++`). The outer dimensions of both must agree. Desugars to a `generate`
    whose element function reads one of the two (`array.index` in a `scf.if`),
    so both are computed before it (they are free variables of it, seed 000).

    ```mlir
    %ys = array.concat %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Array_AnyArray:$lhs, Array_AnyArray:$rhs);
  let results = (outs Array_AnyArray:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Array_ReplicateOp : Array_Op<"replicate", [Pure]> {
  let summary = "repeats an array along a new innermost dimension";
  let description = [{
    `ys[i..., j] = xs[i...]` for `j < count` (Accelerate's `replicate` with a
    new innermost dimension; seed 000 `greedyBottomUpBad` writes it as
    `generate` + `gather`).
  }];
  let arguments = (ins Array_AnyArray:$input, Index:$count);
  let results = (outs Array_AnyArray:$result);
  let assemblyFormat = "$input `,` $count attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Fusion trees (seed 002 §4.4 Listing 1; typing rules of seed 000 Fig. 2)
//===----------------------------------------------------------------------===//

def Array_ClusterOp : Array_Op<"cluster", [RecursiveMemoryEffects]> {
  let summary = "one fused loop nest: the root of a fusion tree";
  let description = [{
    `RootOfCluster` of seed 002 Listing 1. The body holds one fusion tree (a
    `vertical`, `horizontal` or `diagonal`, or a single combinator) and yields
    the cluster's manifest outputs: the arrays that the rest of the program
    uses. Values defined outside are read directly (the cluster's inputs).
    Every yielded array is produced in traversal order 0 or 1 (seed 000 §3.3).

    ```mlir
    %ys1, %ys2 = array.cluster -> tensor<?xi64>, tensor<?xi64> {
      %a, %b = array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
        ...
      } right {
        ...
      }
      array.yield %a, %b : tensor<?xi64>, tensor<?xi64>
    }
    ```
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`->` type($results)^)? attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def Array_VerticalOp : Array_Op<"vertical", [RecursiveMemoryEffects]> {
  let summary = "producer streamed into its consumer: the producer's arrays are fused away";
  let description = [{
    `Vertical` of seed 002 Listing 1 and rule VERTICAL of seed 000 Fig. 2. The
    `producer` region yields arrays that the `consumer` region receives as its
    block arguments (the `LeftHandSide` binding); the op yields the consumer's
    results only. Every use of a bound array must read it in the order the
    producer produces it.
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumer);
  let assemblyFormat = "(`->` type($results)^)? attr-dict-with-keyword `producer` $producer `consumer` $consumer";
  let hasRegionVerifier = 1;
}

def Array_HorizontalOp : Array_Op<"horizontal", [RecursiveMemoryEffects]> {
  let summary = "two independent loops in lockstep, sharing their common inputs";
  let description = [{
    `Horizontal` of seed 002 Listing 1 and rule HORIZONTAL of seed 000 Fig. 2:
    the two sides cannot see each other's arrays; the op yields the left side's
    results, then the right side's.
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$left, SizedRegion<1>:$right);
  let assemblyFormat = "(`->` type($results)^)? attr-dict-with-keyword `left` $left `right` $right";
  let hasRegionVerifier = 1;
}

def Array_DiagonalOp : Array_Op<"diagonal", [RecursiveMemoryEffects]> {
  let summary = "producer streamed into its consumer and also kept";
  let description = [{
    `Diagonal` of seed 002 §4.1 and Listing 1, rule DIAGONAL of seed 000 Fig. 2:
    like `vertical`, but the producer's arrays are also results (stored and
    forwarded); the op yields the producer's results, then the consumer's.
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumer);
  let assemblyFormat = "(`->` type($results)^)? attr-dict-with-keyword `producer` $producer `consumer` $consumer";
  let hasRegionVerifier = 1;
}

#endif // ARRAY_OPS_TD
