//! `array-to-loops` (first slice): lowers combinators that are *not* inside an
//! `array.cluster` to one loop nest each, over buffers.
//!
//! * `array.map` / `array.generate` / `array.gather` → `memref.alloc` of every result
//!   (dynamic sizes from `tensor.dim` of an input, or the generate's shape operands),
//!   an `scf.parallel` over the result's index space whose body holds the element
//!   function (moved, not cloned: block arguments become `memref.load`s of the inputs
//!   (`bufferization.to_buffer`), or the induction variables for generate; the
//!   `array.yield` becomes `memref.store`s), then `bufferization.to_tensor … restrict
//!   writable` replacing the results. A gather loads every index array at the
//!   induction variables (`arith.index_cast` for integer indices) and then the source.
//! * `array.fold` → `scf.parallel` over the outer dimensions (none for a rank-1
//!   input) around an `scf.for` over the innermost dimension carrying the
//!   accumulators (`iter_args`, the body moved in, `scf.yield` of the new
//!   accumulators); the final accumulators are stored into the result buffers.
//! * Rank-0 maps are lowered without a loop (the body is moved in place).
//! * Second slice: an `array.cluster` whose leaves are all maps, generates and folds
//!   (order 0) over one iteration space (extents proved equal symbolically: static
//!   sizes, the same index value, or `tensor.dim` of the same outside tensor) becomes
//!   exactly one loop nest: `scf.parallel` over the space, or, with folds, over its outer
//!   dimensions around one `scf.for` carrying every fold's accumulators. The leaves'
//!   element functions go in tree order; arrays bound by vertical/diagonal stay in
//!   registers (SSA values); each outside array is loaded once per iteration; only the
//!   cluster's outputs get buffers (diagonal producers included). Fold results must not
//!   be read by other leaves of the cluster.
//!
//! * Third slice: `array.scan` outside clusters → `scf.parallel` over the outer
//!   dimensions (none for rank 1) around an `scf.for` over the innermost dimension
//!   carrying the accumulators; the row is visited at `k` (left) or `n-1-k` (right);
//!   inclusive scans combine then store, exclusive scans store the accumulator then
//!   combine. `array.scatter` outside clusters → a copy of the destination
//!   (`memref.alloc` + `memref.copy` from `bufferization.to_buffer`), then a
//!   *sequential* `scf.for` nest over the values' index space (source order, which the
//!   interpreter uses too, so non-commutative combines agree): the index arrays are
//!   loaded (`arith.index_cast` for integer indices), and inside an `scf.if` bounds
//!   check (`cmpi ult` per dimension, so negative indices fail too) the old element is
//!   combined with the value and stored. An out-of-range index is skipped by compiled
//!   code; the reference interpreter reports an error there.
//!
//! * Third slice, gathers in clusters: a cluster leaf may be an `array.gather` (order
//!   0) whose iteration space is its index arrays'; its source is read from outside, or
//!   is a producer fused into it (a map, generate or gather whose `array.order` is the
//!   gather's `array.label`, read by nothing else). Such a producer is not given its
//!   own iteration: its element function runs inside the gather's loop at the gathered
//!   index, its inputs loaded there in turn (seed 000 simple1: `xs[is[k]]`; simple2:
//!   `xs[is1[is2[k]]]`). Folds fused into gathers (simple4): fifth slice.
//!
//! * Fourth slice: `array.filter` and `array.expand` of vectors outside clusters,
//!   sequentially. Filter: result buffers of the input length (an upper bound), one
//!   `scf.for` over the input carrying the output count; the predicate runs on the
//!   loaded elements and, under `scf.if`, every input's element is stored at `count`
//!   and the count incremented; the results are the first `count` elements
//!   (`memref.reinterpret_cast` to identity layout, so bufferization, deallocation and
//!   the LLVM lowering see an ordinary view of the alloc). Expand: a first `scf.for`
//!   sums the `count` region (a clone of the op, via `mlirOperationClone`) into the
//!   total length; the results are allocated with it; a second `scf.for` carries the
//!   running offset around an inner `scf.for` over `0..count` storing the `get` region's
//!   values at `offset + j`. Negative counts are taken as 0 (the interpreter reports
//!   an error there).
//!
//! * Fifth slice: `array.size`, `array.dim`, `array.index` → `tensor.dim` (a constant
//!   for a static extent) and `tensor.extract`, everywhere (element functions included),
//!   before anything else. Clusters ([`cluster`], see its module doc): every cluster is
//!   one loop nest — maps, generates, gathers, folds, scans (right scans and order-1
//!   leaves: a loop from the end) and filters (one `scf.for` carrying the counts, the
//!   filter's consumers under `scf.if` on its predicate), producers fused into gathers
//!   (folds included, seed 000 simple4), and scatters/permutes fed by the loop (their
//!   destination copied before it; every dimension then an `scf.for`, in source order).
//!   Any other cluster shape (expand with other leaves, a fold result read in its
//!   cluster, spaces not provably equal, …)
//!   *falls back*: the tree is flattened and its ops lowered one by one as outside
//!   clusters (the unfused baseline, never a wrong result), with a remark
//!   `array-to-loops: cluster lowered op by op (unfused) …` at the cluster.
//!
//! * Sixth slice: `array.permute` (the one `array-desugar` keeps: with a keep flag, seed
//!   004 §1.1) → like scatter: a copy of the destination, then a sequential `scf.for`
//!   nest over the source in row-major order; the `index` region runs at the source
//!   index, and under one `scf.if` (keep flag and bounds) `dest[t] = combine(dest[t],
//!   src[s])`. A dropped element is never written whatever its target (the interpreter
//!   drops before it checks bounds); later kept elements are combined after earlier ones
//!   with one target; targets nobody writes keep the destination's element.
//!
//! The pass runs on a module (`builtin.module(array-to-loops)`) and lowers every
//! function in it. Left as they are: the sugar ops (`reverse`, `backpermute`,
//! `replicate`; `array-desugar` removes them first), filters and expands of higher
//! rank, and combinators whose arrays have a tensor encoding or an element type that
//! memrefs cannot hold.

use crate::bridge::{PassDefinition, PassFailed, PassOptions};
use crate::ir::{self, Op, Val};
use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type, Value,
        attribute::{DenseI32ArrayAttribute, IntegerAttribute},
        operation::{Operation, OperationBuilder, OperationLike},
    },
};
use mlir_sys::*;

mod cluster;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-to-loops",
    description: "Lower the array combinators and scalar queries to scf loop nests over memrefs: one loop nest per combinator outside clusters and per cluster",
    // Any op: on a module (`builtin.module(array-to-loops)`) it lowers every function,
    // on a function (`func.func(array-to-loops)`) that function, and the pass manager
    // may then lower functions in parallel.
    anchor: None,
    dependent_dialects: &[
        mlirGetDialectHandle__arith__,
        mlirGetDialectHandle__memref__,
        mlirGetDialectHandle__scf__,
        mlirGetDialectHandle__tensor__,
        mlirGetDialectHandle__bufferization__,
    ],
    options: &[],
    state: None,
    run,
};

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    lower_scalars(context, function);
    let mut targets = Vec::new();
    function.walk(melior::ir::operation::WalkOrder::PostOrder, |op| {
        if matches!(
            op.name().as_string_ref().as_str(),
            Ok("array.map"
                | "array.generate"
                | "array.fold"
                | "array.gather"
                | "array.scan"
                | "array.scatter"
                | "array.permute"
                | "array.filter"
                | "array.expand"
                | "array.cluster")
        ) {
            targets.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    // Post order: nested combinators (inside element functions) are lowered before the
    // ones whose bodies hold them, and lowering one op never destroys another collected
    // op. The leaves of a fusion tree are lowered with their cluster.
    for op in targets {
        if is_tree_child(op) {
            continue;
        }
        if ir::op_name(op) == "array.cluster" {
            let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
            cluster::lower(&b, op);
            continue;
        }
        lower_op(context, op);
    }
    Ok(())
}

/// Lowers one combinator outside any cluster (left as it is when not supported).
fn lower_op(context: &Context, op: Op) {
    if !supported(op) {
        return;
    }
    let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
    match ir::op_name(op).as_str() {
        "array.map" => b.lower_map(op),
        "array.generate" => b.lower_generate(op),
        "array.gather" => b.lower_gather(op),
        "array.fold" => b.lower_fold(op),
        "array.scan" => b.lower_scan(op),
        "array.scatter" => b.lower_scatter(op),
        "array.permute" => b.lower_permute(op),
        "array.filter" if vectors_only(op) => b.lower_filter(op),
        "array.expand" if vectors_only(op) => b.lower_expand(op),
        _ => {}
    }
}

/// `array.size`, `array.dim` and `array.index` → `tensor.dim` (an `arith.constant` for a
/// static extent) and `tensor.extract`, wherever they are (also inside element functions
/// and clusters: they read a tensor defined before the combinator, seed 000 `xs ! i`
/// makes `xs` a free variable that is fully computed first). Bufferization turns them
/// into `memref.dim`/`memref.load` of the array's buffer.
fn lower_scalars(context: &Context, function: OperationRef) {
    let mut scalars = Vec::new();
    function.walk(melior::ir::operation::WalkOrder::PostOrder, |op| {
        if matches!(op.name().as_string_ref().as_str(), Ok("array.size" | "array.dim" | "array.index")) {
            scalars.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    for op in scalars {
        let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
        let operands = ir::operands(op);
        let x = operands[0];
        let t = ir::value_type(x);
        let replacements: Vec<Val> = match ir::op_name(op).as_str() {
            "array.size" => (0..rank(t)).map(|d| b.dim_of(op, x, d)).collect(),
            "array.dim" => {
                let Some(d) = ir::int_attribute_inherent(op, "dimension") else { continue };
                vec![b.dim_of(op, x, d as usize)]
            }
            _ => {
                let element = ty(element_type(t));
                vec![
                    b.put1(
                        op,
                        b.op("tensor.extract")
                            .add_operands(&vs(&operands))
                            .add_results(&[element])
                            .build()
                            .expect("valid tensor.extract"),
                    ),
                ]
            }
        };
        replace_and_erase(op, &replacements);
    }
}

/// Whether `op` is a leaf or node of a fusion tree (its parent is a cluster or a
/// fusion node): it is lowered with its cluster.
fn is_tree_child(op: Op) -> bool {
    ir::parent_op(op).is_some_and(|p| {
        matches!(ir::op_name(p).as_str(), "array.cluster" | "array.vertical" | "array.horizontal" | "array.diagonal")
    })
}

/// Every array operand and result is a ranked tensor without encoding whose element
/// type a memref can hold.
fn supported(op: Op) -> bool {
    ir::operands(op).into_iter().chain(ir::results(op)).map(ir::value_type).all(|t| {
        // SAFETY: live types, checked before reading.
        unsafe {
            if !mlirTypeIsATensor(t) {
                return true; // scalars (fold inits, generate extents)
            }
            if !mlirTypeIsARankedTensor(t) || !mlirRankedTensorTypeGetEncoding(t).ptr.is_null() {
                return false;
            }
            let e = mlirShapedTypeGetElementType(t);
            mlirTypeIsAInteger(e)
                || mlirTypeIsAIndex(e)
                || mlirTypeIsAFloat(e)
                || mlirTypeIsAComplex(e)
                || mlirTypeIsAVector(e)
        }
    })
}

fn rank(t: MlirType) -> usize {
    ir::rank(t).expect("array values are ranked tensors") as usize
}

/// The static extent of dimension `d` of a shaped type, if static.
fn static_dim(t: MlirType, d: usize) -> Option<i64> {
    // SAFETY: live shaped type with more than `d` dimensions.
    unsafe { (!mlirShapedTypeIsDynamicDim(t, d as isize)).then(|| mlirShapedTypeGetDimSize(t, d as isize)) }
}

/// The identity-layout memref type of a ranked tensor type.
fn memref_type(tensor: MlirType) -> MlirType {
    // SAFETY: live ranked tensor type.
    unsafe {
        let r = mlirShapedTypeGetRank(tensor) as isize;
        let shape: Vec<i64> = (0..r).map(|d| mlirShapedTypeGetDimSize(tensor, d)).collect();
        mlirMemRefTypeContiguousGet(mlirShapedTypeGetElementType(tensor), r, shape.as_ptr(), mlirAttributeGetNull())
    }
}

fn element_type(tensor: MlirType) -> MlirType {
    // SAFETY: live shaped type.
    unsafe { mlirShapedTypeGetElementType(tensor) }
}

fn v<'c>(raw: Val) -> Value<'c, 'static> {
    // SAFETY: the value is live IR of the function being rewritten.
    unsafe { Value::from_raw(raw) }
}

fn vs<'c>(raws: &[Val]) -> Vec<Value<'c, 'static>> {
    raws.iter().map(|r| v(*r)).collect()
}

fn ty<'c>(raw: MlirType) -> Type<'c> {
    // SAFETY: live type of the pass's context.
    unsafe { Type::from_raw(raw) }
}

/// Moves the ops of the single block of region `index` of `op` before `anchor`, with the
/// block's arguments replaced by `arguments`; returns the values its `array.yield`
/// yields. The yield stays behind (it is erased with `op`).
fn inline_body(op: Op, index: isize, arguments: &[Val], anchor: Op) -> Vec<Val> {
    let block = ir::first_block(ir::region(op, index));
    let formal = ir::block_arguments(block);
    assert_eq!(formal.len(), arguments.len(), "element function arity");
    for (a, actual) in formal.iter().zip(arguments) {
        ir::replace_uses_where(*a, *actual, |_| true);
    }
    let ops = ir::block_ops(block);
    let (terminator, body) = ops.split_last().expect("element functions end in array.yield");
    for o in body {
        ir::move_before(*o, anchor);
    }
    ir::operands(*terminator)
}

/// Replaces every result of `op` by `replacements` and erases it.
fn replace_and_erase(op: Op, replacements: &[Val]) {
    for (r, n) in ir::results(op).into_iter().zip(replacements) {
        ir::replace_uses_where(r, *n, |_| true);
    }
    ir::erase(op);
}

struct Builder<'c> {
    context: &'c Context,
    location: Location<'c>,
}

impl<'c> Builder<'c> {
    /// Inserts `op` before `anchor`; returns it.
    fn put(&self, anchor: Op, op: Operation<'c>) -> Op {
        let raw = op.into_raw();
        // SAFETY: `anchor` is live and in a block; ownership of `raw` passes to the block.
        unsafe { mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor), anchor, raw) };
        raw
    }

    fn put1(&self, anchor: Op, op: Operation<'c>) -> Val {
        ir::results(self.put(anchor, op))[0]
    }

    fn op(&self, name: &str) -> OperationBuilder<'c> {
        OperationBuilder::new(name, self.location)
    }

    fn index(&self) -> Type<'c> {
        Type::index(self.context)
    }

    fn constant_index(&self, anchor: Op, value: i64) -> Val {
        self.put1(
            anchor,
            self.op("arith.constant")
                .add_attributes(&[(
                    Identifier::new(self.context, "value"),
                    IntegerAttribute::new(self.index(), value).into(),
                )])
                .add_results(&[self.index()])
                .build()
                .expect("valid arith.constant"),
        )
    }

    /// The extent of dimension `d` of tensor `x`: a constant when static, else `tensor.dim`.
    fn dim_of(&self, anchor: Op, x: Val, d: usize) -> Val {
        if let Some(s) = static_dim(ir::value_type(x), d) {
            return self.constant_index(anchor, s);
        }
        let dd = self.constant_index(anchor, d as i64);
        self.put1(
            anchor,
            self.op("tensor.dim")
                .add_operands(&[v(x), v(dd)])
                .add_results(&[self.index()])
                .build()
                .expect("valid tensor.dim"),
        )
    }

    /// The extents of the index space of `shape_type`'s rank: static extents from any of
    /// `types` (all of that shape), otherwise `tensor.dim` of `source`.
    fn extents(&self, anchor: Op, types: &[MlirType], source: Val) -> Vec<Val> {
        let r = rank(ir::value_type(source));
        (0..r)
            .map(|d| match types.iter().find_map(|t| static_dim(*t, d)) {
                Some(s) => self.constant_index(anchor, s),
                None => {
                    let dd = self.constant_index(anchor, d as i64);
                    self.put1(
                        anchor,
                        self.op("tensor.dim")
                            .add_operands(&[v(source), v(dd)])
                            .add_results(&[self.index()])
                            .build()
                            .expect("valid tensor.dim"),
                    )
                }
            })
            .collect()
    }

    fn to_buffer(&self, anchor: Op, tensor: Val) -> Val {
        let t = memref_type(ir::value_type(tensor));
        self.put1(
            anchor,
            self.op("bufferization.to_buffer")
                .add_operands(&[v(tensor)])
                .add_results(&[ty(t)])
                .build()
                .expect("valid bufferization.to_buffer"),
        )
    }

    /// `memref.alloc` of the buffer of a tensor of type `tensor`, with the dynamic sizes
    /// taken from `extents`.
    fn alloc(&self, anchor: Op, tensor: MlirType, extents: &[Val]) -> Val {
        let dynamic: Vec<Val> =
            (0..rank(tensor)).filter(|d| static_dim(tensor, *d).is_none()).map(|d| extents[d]).collect();
        self.put1(
            anchor,
            self.op("memref.alloc")
                .add_operands(&vs(&dynamic))
                .add_attributes(&[(
                    Identifier::new(self.context, "operandSegmentSizes"),
                    DenseI32ArrayAttribute::new(self.context, &[dynamic.len() as i32, 0]).into(),
                )])
                .add_results(&[ty(memref_type(tensor))])
                .build()
                .expect("valid memref.alloc"),
        )
    }

    fn to_tensor(&self, anchor: Op, memref: Val, tensor: MlirType) -> Val {
        let unit: Attribute = Attribute::unit(self.context);
        self.put1(
            anchor,
            self.op("bufferization.to_tensor")
                .add_operands(&[v(memref)])
                .add_attributes(&[
                    (Identifier::new(self.context, "restrict"), unit),
                    (Identifier::new(self.context, "writable"), unit),
                ])
                .add_results(&[ty(tensor)])
                .build()
                .expect("valid bufferization.to_tensor"),
        )
    }

    fn load(&self, anchor: Op, memref: Val, indices: &[Val]) -> Val {
        // SAFETY: live memref type.
        let element = unsafe { mlirShapedTypeGetElementType(ir::value_type(memref)) };
        self.put1(
            anchor,
            self.op("memref.load")
                .add_operands(&[v(memref)])
                .add_operands(&vs(indices))
                .add_results(&[ty(element)])
                .build()
                .expect("valid memref.load"),
        )
    }

    fn store(&self, anchor: Op, value: Val, memref: Val, indices: &[Val]) {
        self.put(
            anchor,
            self.op("memref.store")
                .add_operands(&[v(value), v(memref)])
                .add_operands(&vs(indices))
                .build()
                .expect("valid memref.store"),
        );
    }

    fn index_cast(&self, anchor: Op, value: Val) -> Val {
        // SAFETY: live type.
        if unsafe { mlirTypeIsAIndex(ir::value_type(value)) } {
            return value;
        }
        self.put1(
            anchor,
            self.op("arith.index_cast")
                .add_operands(&[v(value)])
                .add_results(&[self.index()])
                .build()
                .expect("valid arith.index_cast"),
        )
    }

    /// `scf.parallel` from 0 to `extents` with step 1, before `anchor`; returns the
    /// induction variables and the body's terminator (`scf.reduce`), before which the
    /// body goes. With no extents (rank 0) no loop is made: the body goes before
    /// `anchor`.
    fn parallel(&self, anchor: Op, extents: &[Val]) -> (Vec<Val>, Op) {
        if extents.is_empty() {
            return (vec![], anchor);
        }
        let n = extents.len();
        let zero = self.constant_index(anchor, 0);
        let one = self.constant_index(anchor, 1);
        let block = Block::new(&vec![(self.index(), self.location); n]);
        block.append_operation(self.op("scf.reduce").build().expect("valid scf.reduce"));
        let region = Region::new();
        region.append_block(block);
        let mut operands = vec![zero; n];
        operands.extend_from_slice(extents);
        operands.extend(std::iter::repeat_n(one, n));
        let loop_op = self.put(
            anchor,
            self.op("scf.parallel")
                .add_operands(&vs(&operands))
                .add_attributes(&[(
                    Identifier::new(self.context, "operandSegmentSizes"),
                    DenseI32ArrayAttribute::new(self.context, &[n as i32, n as i32, n as i32, 0]).into(),
                )])
                .add_regions([region])
                .build()
                .expect("valid scf.parallel"),
        );
        let body = ir::first_block(ir::region(loop_op, 0));
        (ir::block_arguments(body), ir::terminator(body))
    }

    /// `scf.for` from 0 to `extent` carrying `inits`, before `anchor`; returns the op,
    /// the induction variable, the accumulators and the body's `scf.yield` (without
    /// operands yet).
    fn for_loop(&self, anchor: Op, extent: Val, inits: &[Val]) -> (Op, Val, Vec<Val>, Op) {
        let zero = self.constant_index(anchor, 0);
        let one = self.constant_index(anchor, 1);
        let types: Vec<Type> = inits.iter().map(|i| ty(ir::value_type(*i))).collect();
        let mut arguments = vec![(self.index(), self.location)];
        arguments.extend(types.iter().map(|t| (*t, self.location)));
        let block = Block::new(&arguments);
        block.append_operation(self.op("scf.yield").build().expect("valid scf.yield"));
        let region = Region::new();
        region.append_block(block);
        let mut operands = vec![zero, extent, one];
        operands.extend_from_slice(inits);
        let loop_op = self.put(
            anchor,
            self.op("scf.for")
                .add_operands(&vs(&operands))
                .add_results(&types)
                .add_regions([region])
                .build()
                .expect("valid scf.for"),
        );
        let body = ir::first_block(ir::region(loop_op, 0));
        let arguments = ir::block_arguments(body);
        (loop_op, arguments[0], arguments[1..].to_vec(), ir::terminator(body))
    }

    /// Allocates the results of `op`, runs `body` (which gets the loop's insertion point
    /// and induction variables and returns the values to store) in a parallel loop over
    /// `extents`, and replaces the results by the filled buffers.
    fn elementwise(&self, op: Op, extents: &[Val], body: impl FnOnce(Op, &[Val]) -> Vec<Val>) {
        let result_types: Vec<MlirType> = ir::results(op).into_iter().map(ir::value_type).collect();
        let buffers: Vec<Val> = result_types.iter().map(|t| self.alloc(op, *t, extents)).collect();
        let (ivs, anchor) = self.parallel(op, extents);
        let values = body(anchor, &ivs);
        for (value, buffer) in values.iter().zip(&buffers) {
            self.store(anchor, *value, *buffer, &ivs);
        }
        let tensors: Vec<Val> = buffers.iter().zip(&result_types).map(|(b, t)| self.to_tensor(op, *b, *t)).collect();
        replace_and_erase(op, &tensors);
    }

    fn lower_map(&self, op: Op) {
        let inputs = ir::operands(op);
        let mut types: Vec<MlirType> = inputs.iter().map(|i| ir::value_type(*i)).collect();
        types.extend(ir::results(op).into_iter().map(ir::value_type));
        let Some(first) = inputs.first() else { return };
        let extents = self.extents(op, &types, *first);
        let buffers: Vec<Val> = inputs.iter().map(|i| self.to_buffer(op, *i)).collect();
        self.elementwise(op, &extents, |anchor, ivs| {
            let elements: Vec<Val> = buffers.iter().map(|b| self.load(anchor, *b, ivs)).collect();
            inline_body(op, 0, &elements, anchor)
        });
    }

    fn lower_generate(&self, op: Op) {
        let extents = ir::operands(op);
        self.elementwise(op, &extents, |anchor, ivs| inline_body(op, 0, ivs, anchor));
    }

    fn lower_gather(&self, op: Op) {
        let operands = ir::operands(op);
        let (source, indices) = operands.split_first().expect("gather has a source");
        let mut types: Vec<MlirType> = indices.iter().map(|i| ir::value_type(*i)).collect();
        types.extend(ir::results(op).into_iter().map(ir::value_type));
        let extents = self.extents(op, &types, indices[0]);
        let source_buffer = self.to_buffer(op, *source);
        let index_buffers: Vec<Val> = indices.iter().map(|i| self.to_buffer(op, *i)).collect();
        self.elementwise(op, &extents, |anchor, ivs| {
            let at: Vec<Val> = index_buffers
                .iter()
                .map(|b| {
                    let i = self.load(anchor, *b, ivs);
                    self.index_cast(anchor, i)
                })
                .collect();
            vec![self.load(anchor, source_buffer, &at)]
        });
    }

    fn lower_fold(&self, op: Op) {
        let inputs: Vec<Val> = ir::operands(op);
        let results = ir::results(op);
        let (inputs, inits) = inputs.split_at(inputs.len() - results.len());
        let Some(first) = inputs.first() else { return };
        let types: Vec<MlirType> = inputs.iter().map(|i| ir::value_type(*i)).collect();
        let all_extents = self.extents(op, &types, *first);
        let (outer, inner) = all_extents.split_at(all_extents.len() - 1);
        let result_types: Vec<MlirType> = results.iter().map(|r| ir::value_type(*r)).collect();
        // The result buffers hold the accumulator types.
        debug_assert!(result_types.iter().zip(inits).all(|(t, i)| ir::same_type(element_type(*t), ir::value_type(*i))));
        let buffers: Vec<Val> = result_types.iter().map(|t| self.alloc(op, *t, outer)).collect();
        let input_buffers: Vec<Val> = inputs.iter().map(|i| self.to_buffer(op, *i)).collect();
        let (outer_ivs, anchor) = self.parallel(op, outer);
        let (loop_op, iv, accumulators, yield_op) = self.for_loop(anchor, inner[0], inits);
        let mut at = outer_ivs.clone();
        at.push(iv);
        let mut arguments = accumulators;
        arguments.extend(input_buffers.iter().map(|b| self.load(yield_op, *b, &at)));
        let new = inline_body(op, 0, &arguments, yield_op);
        ir::set_operands(yield_op, &new);
        for (final_value, buffer) in ir::results(loop_op).iter().zip(&buffers) {
            self.store(anchor, *final_value, *buffer, &outer_ivs);
        }
        let tensors: Vec<Val> = buffers.iter().zip(&result_types).map(|(b, t)| self.to_tensor(op, *b, *t)).collect();
        replace_and_erase(op, &tensors);
    }
}

// ---------------------------------------------------------------------------
// Third slice: scan and scatter outside clusters.
// ---------------------------------------------------------------------------

impl<'c> Builder<'c> {
    /// A one-result op `name` with `operands`, `attributes` and result type `result`.
    fn simple(
        &self,
        anchor: Op,
        name: &str,
        operands: &[Val],
        attributes: &[(&str, Attribute<'c>)],
        result: Type<'c>,
    ) -> Val {
        let attributes: Vec<(Identifier, Attribute)> =
            attributes.iter().map(|(n, a)| (Identifier::new(self.context, n), *a)).collect();
        self.put1(
            anchor,
            self.op(name)
                .add_operands(&vs(operands))
                .add_attributes(&attributes)
                .add_results(&[result])
                .build()
                .unwrap_or_else(|_| panic!("valid {name}")),
        )
    }

    /// `array.scan` → `scf.parallel` over the outer dimensions (none for rank 1) around
    /// an `scf.for` over the innermost dimension carrying the accumulators. The row is
    /// visited at `k` (left) or `n-1-k` (right); inclusive scans combine then store the
    /// new accumulators, exclusive scans store the old ones then combine.
    fn lower_scan(&self, op: Op) {
        let operands: Vec<Val> = ir::operands(op);
        let results = ir::results(op);
        let (inputs, inits) = operands.split_at(operands.len() - results.len());
        let Some(first) = inputs.first() else { return };
        let right = ir::int_attribute_inherent(op, "direction") == Some(1);
        let exclusive = ir::int_attribute_inherent(op, "kind") == Some(1);
        let mut types: Vec<MlirType> = inputs.iter().map(|i| ir::value_type(*i)).collect();
        let result_types: Vec<MlirType> = results.iter().map(|r| ir::value_type(*r)).collect();
        types.extend_from_slice(&result_types);
        let extents = self.extents(op, &types, *first);
        let (outer, inner) = extents.split_at(extents.len() - 1);
        let buffers: Vec<Val> = result_types.iter().map(|t| self.alloc(op, *t, &extents)).collect();
        let input_buffers: Vec<Val> = inputs.iter().map(|i| self.to_buffer(op, *i)).collect();
        let last = if right {
            let one = self.constant_index(op, 1);
            Some(self.simple(op, "arith.subi", &[inner[0], one], &[], self.index()))
        } else {
            None
        };
        let (outer_ivs, anchor) = self.parallel(op, outer);
        let (_, k, accumulators, yield_op) = self.for_loop(anchor, inner[0], inits);
        let position = match last {
            Some(last) => self.simple(yield_op, "arith.subi", &[last, k], &[], self.index()),
            None => k,
        };
        let mut at = outer_ivs.clone();
        at.push(position);
        if exclusive {
            for (a, buffer) in accumulators.iter().zip(&buffers) {
                self.store(yield_op, *a, *buffer, &at);
            }
        }
        let mut arguments = accumulators;
        arguments.extend(input_buffers.iter().map(|b| self.load(yield_op, *b, &at)));
        let new = inline_body(op, 0, &arguments, yield_op);
        if !exclusive {
            for (a, buffer) in new.iter().zip(&buffers) {
                self.store(yield_op, *a, *buffer, &at);
            }
        }
        ir::set_operands(yield_op, &new);
        let tensors: Vec<Val> = buffers.iter().zip(&result_types).map(|(b, t)| self.to_tensor(op, *b, *t)).collect();
        replace_and_erase(op, &tensors);
    }

    /// `array.scatter` → a copy of the destination (`memref.alloc` + `memref.copy`),
    /// then a sequential `scf.for` nest over the values' index space (source order, as
    /// the interpreter applies non-commutative combines): the element's destination
    /// index is loaded (`arith.index_cast` for integer indices) and, inside an `scf.if`
    /// bounds check, the old element is combined with the value and stored. An index out
    /// of range is skipped (the reference interpreter reports an error there).
    fn lower_scatter(&self, op: Op) {
        let operands = ir::operands(op);
        let dest = operands[0];
        let values = *operands.last().expect("scatter has values");
        let indices = &operands[1..operands.len() - 1];
        let dest_type = ir::value_type(dest);
        let result_type = ir::value_type(ir::results(op)[0]);
        let dest_extents = self.extents(op, &[dest_type, result_type], dest);
        let mut types: Vec<MlirType> = vec![ir::value_type(values)];
        types.extend(indices.iter().map(|i| ir::value_type(*i)));
        let value_extents = self.extents(op, &types, values);
        let source = self.to_buffer(op, dest);
        let buffer = self.alloc(op, result_type, &dest_extents);
        self.put(op, self.op("memref.copy").add_operands(&[v(source), v(buffer)]).build().expect("valid memref.copy"));
        let value_buffer = self.to_buffer(op, values);
        let index_buffers: Vec<Val> = indices.iter().map(|i| self.to_buffer(op, *i)).collect();
        let mut anchor = op;
        let mut ivs = Vec::new();
        for extent in &value_extents {
            let (_, iv, _, yield_op) = self.for_loop(anchor, *extent, &[]);
            ivs.push(iv);
            anchor = yield_op;
        }
        let at: Vec<Val> = index_buffers
            .iter()
            .map(|b| {
                let i = self.load(anchor, *b, &ivs);
                self.index_cast(anchor, i)
            })
            .collect();
        let body_anchor = self.guard(anchor, &at, &dest_extents, None);
        let old = self.load(body_anchor, buffer, &at);
        let new = self.load(body_anchor, value_buffer, &ivs);
        let combined = inline_body(op, 0, &[old, new], body_anchor);
        self.store(body_anchor, combined[0], buffer, &at);
        let tensor = self.to_tensor(op, buffer, result_type);
        replace_and_erase(op, &[tensor]);
    }

    /// An `scf.if` before `anchor` whose condition is `keep` (if any) and
    /// `0 <= at[d] < extents[d]` for every dimension (one unsigned comparison each, so a
    /// negative index fails too); returns the `then` block's terminator, before which the
    /// guarded code goes. With no condition at all (rank 0, no flag) it returns `anchor`.
    fn guard(&self, anchor: Op, at: &[Val], extents: &[Val], keep: Option<Val>) -> Op {
        let i1 = Type::from(melior::ir::r#type::IntegerType::new(self.context, 1));
        let ult: Attribute =
            IntegerAttribute::new(Type::from(melior::ir::r#type::IntegerType::new(self.context, 64)), 6).into();
        let mut condition: Option<Val> = keep;
        for (i, extent) in at.iter().zip(extents) {
            let c = self.simple(anchor, "arith.cmpi", &[*i, *extent], &[("predicate", ult)], i1);
            condition = Some(match condition {
                Some(p) => self.simple(anchor, "arith.andi", &[p, c], &[], i1),
                None => c,
            });
        }
        let Some(condition) = condition else { return anchor };
        let block = Block::new(&[]);
        block.append_operation(self.op("scf.yield").build().expect("valid scf.yield"));
        let then_region = Region::new();
        then_region.append_block(block);
        let if_op = self.put(
            anchor,
            self.op("scf.if")
                .add_operands(&[v(condition)])
                .add_regions([then_region, Region::new()])
                .build()
                .expect("valid scf.if"),
        );
        ir::terminator(ir::first_block(ir::region(if_op, 0)))
    }

    /// `array.permute src into dest` (with or without a keep flag; `array-desugar` turns
    /// the flagless ones into generate + scatter, seed 000 §2.1) → a copy of `dest`, then
    /// a sequential `scf.for` nest over the source's index space in row-major order (the
    /// interpreter's order, so when two kept elements hit one target the later source
    /// element is combined last): the `index` region runs at the source index and, under
    /// `scf.if` on its keep flag (the `Nothing` of seed 004 §1.1: a dropped element is
    /// never written, whatever its target) and the bounds check, the `combine` region
    /// gets `(dest[t], src[s])` and its value is stored at `t`. Targets nobody writes keep
    /// the destination's element. A kept element whose target is out of range is skipped
    /// (the reference interpreter reports an error there), as for scatter.
    fn lower_permute(&self, op: Op) {
        let operands = ir::operands(op);
        let (source, dest) = (operands[0], operands[1]);
        let dest_type = ir::value_type(dest);
        let result_type = ir::value_type(ir::results(op)[0]);
        let dest_extents = self.extents(op, &[dest_type, result_type], dest);
        let source_extents = self.extents(op, &[ir::value_type(source)], source);
        let dest_buffer = self.to_buffer(op, dest);
        let buffer = self.alloc(op, result_type, &dest_extents);
        self.put(
            op,
            self.op("memref.copy").add_operands(&[v(dest_buffer), v(buffer)]).build().expect("valid memref.copy"),
        );
        let source_buffer = self.to_buffer(op, source);
        let mut anchor = op;
        let mut ivs = Vec::new();
        for extent in &source_extents {
            let (_, iv, _, yield_op) = self.for_loop(anchor, *extent, &[]);
            ivs.push(iv);
            anchor = yield_op;
        }
        let mut target = inline_body(op, 0, &ivs, anchor);
        let keep = (target.len() == dest_extents.len() + 1).then(|| target.pop().expect("the flag"));
        assert_eq!(target.len(), dest_extents.len(), "the permute's index region yields one index per dimension");
        let at: Vec<Val> = target.iter().map(|i| self.index_cast(anchor, *i)).collect();
        let body_anchor = self.guard(anchor, &at, &dest_extents, keep);
        let old = self.load(body_anchor, buffer, &at);
        let new = self.load(body_anchor, source_buffer, &ivs);
        let combined = inline_body(op, 1, &[old, new], body_anchor);
        self.store(body_anchor, combined[0], buffer, &at);
        let tensor = self.to_tensor(op, buffer, result_type);
        replace_and_erase(op, &[tensor]);
    }
}

// ---------------------------------------------------------------------------
// Fourth slice: filter and expand outside clusters, sequentially.
// ---------------------------------------------------------------------------

/// Filter and expand are lowered for vectors only: every input and result of rank 1,
/// every result of dynamic length.
fn vectors_only(op: Op) -> bool {
    let ranks_ok = ir::operands(op).into_iter().chain(ir::results(op)).all(|x| ir::rank(ir::value_type(x)) == Some(1));
    ranks_ok
        && !ir::operands(op).is_empty()
        && ir::results(op).into_iter().all(|r| static_dim(ir::value_type(r), 0).is_none())
}

impl<'c> Builder<'c> {
    /// `scf.if %condition` with results of `types` and both branches, before `anchor`;
    /// returns the op and the two branches' `scf.yield`s (without operands yet).
    fn if_else(&self, anchor: Op, condition: Val, types: &[Type<'c>]) -> (Op, Op, Op) {
        let branch = || {
            let block = Block::new(&[]);
            block.append_operation(self.op("scf.yield").build().expect("valid scf.yield"));
            let region = Region::new();
            region.append_block(block);
            region
        };
        let if_op = self.put(
            anchor,
            self.op("scf.if")
                .add_operands(&[v(condition)])
                .add_results(types)
                .add_regions([branch(), branch()])
                .build()
                .expect("valid scf.if"),
        );
        let then_yield = ir::terminator(ir::first_block(ir::region(if_op, 0)));
        let else_yield = ir::terminator(ir::first_block(ir::region(if_op, 1)));
        (if_op, then_yield, else_yield)
    }

    /// The first `length` elements of the vector buffer `buffer`, as a buffer of
    /// identity layout (`memref.reinterpret_cast` at offset 0, stride 1).
    fn prefix(&self, anchor: Op, buffer: Val, length: Val) -> Val {
        let t = ir::value_type(buffer);
        let i64s = |values: &[i64]| -> Attribute<'c> {
            // SAFETY: building an attribute of the pass's context.
            unsafe {
                Attribute::from_raw(mlirDenseI64ArrayGet(self.context.to_raw(), values.len() as isize, values.as_ptr()))
            }
        };
        let dynamic = i64::MIN; // ShapedType::kDynamic
        self.put1(
            anchor,
            self.op("memref.reinterpret_cast")
                .add_operands(&[v(buffer), v(length)])
                .add_attributes(&[
                    (
                        Identifier::new(self.context, "operandSegmentSizes"),
                        DenseI32ArrayAttribute::new(self.context, &[1, 0, 1, 0]).into(),
                    ),
                    (Identifier::new(self.context, "static_offsets"), i64s(&[0])),
                    (Identifier::new(self.context, "static_sizes"), i64s(&[dynamic])),
                    (Identifier::new(self.context, "static_strides"), i64s(&[1])),
                ])
                .add_results(&[ty(t)])
                .build()
                .expect("valid memref.reinterpret_cast"),
        )
    }

    /// `array.filter` → result buffers of the input length (an upper bound), then one
    /// sequential `scf.for` over the input carrying the output count: the predicate runs
    /// on the loaded elements and, under `scf.if`, each input's element is stored at
    /// `count` and the count incremented. The results are the first `count` elements
    /// (`memref.reinterpret_cast`), as tensors.
    fn lower_filter(&self, op: Op) {
        let inputs = ir::operands(op);
        let result_types: Vec<MlirType> = ir::results(op).into_iter().map(ir::value_type).collect();
        let mut types: Vec<MlirType> = inputs.iter().map(|i| ir::value_type(*i)).collect();
        types.extend_from_slice(&result_types);
        let n = self.extents(op, &types, inputs[0])[0];
        let buffers: Vec<Val> = result_types.iter().map(|t| self.alloc(op, *t, &[n])).collect();
        let input_buffers: Vec<Val> = inputs.iter().map(|i| self.to_buffer(op, *i)).collect();
        let zero = self.constant_index(op, 0);
        let one = self.constant_index(op, 1);
        let (loop_op, k, counts, yield_op) = self.for_loop(op, n, &[zero]);
        let count = counts[0];
        let elements: Vec<Val> = input_buffers.iter().map(|b| self.load(yield_op, *b, &[k])).collect();
        let keep = inline_body(op, 0, &elements, yield_op)[0];
        let (if_op, then_yield, else_yield) = self.if_else(yield_op, keep, &[self.index()]);
        for (e, b) in elements.iter().zip(&buffers) {
            self.store(then_yield, *e, *b, &[count]);
        }
        let next = self.simple(then_yield, "arith.addi", &[count, one], &[], self.index());
        ir::set_operands(then_yield, &[next]);
        ir::set_operands(else_yield, &[count]);
        ir::set_operands(yield_op, &[ir::results(if_op)[0]]);
        let total = ir::results(loop_op)[0];
        let tensors: Vec<Val> = buffers
            .iter()
            .zip(&result_types)
            .map(|(b, t)| {
                let view = self.prefix(op, *b, total);
                self.to_tensor(op, view, *t)
            })
            .collect();
        replace_and_erase(op, &tensors);
    }

    /// The segment length of one element: the count region's value as an index,
    /// negative counts taken as 0.
    fn segment_length(&self, anchor: Op, count: Val, zero: Val) -> Val {
        let count = self.index_cast(anchor, count);
        self.simple(anchor, "arith.maxsi", &[count, zero], &[], self.index())
    }

    /// `array.expand` → a first `scf.for` summing the `count` region (a clone) over the
    /// input (the total length), result buffers of that length, then a second `scf.for`
    /// over the input carrying the running offset, with an inner `scf.for` over
    /// `0..count` storing the `get` region's values at `offset + j`.
    fn lower_expand(&self, op: Op) {
        let inputs = ir::operands(op);
        let result_types: Vec<MlirType> = ir::results(op).into_iter().map(ir::value_type).collect();
        let types: Vec<MlirType> = inputs.iter().map(|i| ir::value_type(*i)).collect();
        let n = self.extents(op, &types, inputs[0])[0];
        let input_buffers: Vec<Val> = inputs.iter().map(|i| self.to_buffer(op, *i)).collect();
        let zero = self.constant_index(op, 0);
        // First pass: the total length, from a clone of the count region.
        // SAFETY: `op` is live; the clone is unlinked and destroyed below, after its
        // body has been moved out (its remaining yield only reads moved values).
        let copy = unsafe { mlirOperationClone(op) };
        let (sizing, k, totals, yield_op) = self.for_loop(op, n, &[zero]);
        let elements: Vec<Val> = input_buffers.iter().map(|b| self.load(yield_op, *b, &[k])).collect();
        let count = inline_body(copy, 0, &elements, yield_op)[0];
        let count = self.segment_length(yield_op, count, zero);
        let sum = self.simple(yield_op, "arith.addi", &[totals[0], count], &[], self.index());
        ir::set_operands(yield_op, &[sum]);
        // SAFETY: the clone has no uses and is not in a block.
        unsafe { mlirOperationDestroy(copy) };
        let total = ir::results(sizing)[0];
        let buffers: Vec<Val> = result_types.iter().map(|t| self.alloc(op, *t, &[total])).collect();
        // Second pass: fill the segments.
        let (_, k, offsets, yield_op) = self.for_loop(op, n, &[zero]);
        let offset = offsets[0];
        let elements: Vec<Val> = input_buffers.iter().map(|b| self.load(yield_op, *b, &[k])).collect();
        let count = inline_body(op, 0, &elements, yield_op)[0];
        let count = self.segment_length(yield_op, count, zero);
        let (_, j, _, inner_yield) = self.for_loop(yield_op, count, &[]);
        let mut arguments = elements.clone();
        arguments.push(j);
        let values = inline_body(op, 1, &arguments, inner_yield);
        let position = self.simple(inner_yield, "arith.addi", &[offset, j], &[], self.index());
        for (value, buffer) in values.iter().zip(&buffers) {
            self.store(inner_yield, *value, *buffer, &[position]);
        }
        let next = self.simple(yield_op, "arith.addi", &[offset, count], &[], self.index());
        ir::set_operands(yield_op, &[next]);
        let tensors: Vec<Val> = buffers.iter().zip(&result_types).map(|(b, t)| self.to_tensor(op, *b, *t)).collect();
        replace_and_erase(op, &tensors);
    }
}
