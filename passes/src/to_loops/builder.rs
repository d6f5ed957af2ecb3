//! The builder of the lowering: upstream ops (`scf`, `memref`, `arith`, `tensor`,
//! `bufferization`) inserted before an anchor op, the type helpers they need, and the
//! moves of element functions into loop bodies.

use crate::ir::{self, Op, Val};
use array_dialect::view::{ArrayOp, OpKind, attribute};
use melior::dialect::{arith, arith::CmpiPredicate, memref, scf};
use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
        attribute::{DenseI32ArrayAttribute, IntegerAttribute},
        operation::{Operation, OperationBuilder},
    },
};
use mlir_sys::*;

pub(crate) fn rank(t: MlirType) -> usize {
    ir::rank(t).expect("array values are ranked tensors") as usize
}

/// The static extent of dimension `d` of a shaped type, if static.
pub(crate) fn static_dim(t: MlirType, d: usize) -> Option<i64> {
    // SAFETY: live shaped type with more than `d` dimensions.
    unsafe { (!mlirShapedTypeIsDynamicDim(t, d as isize)).then(|| mlirShapedTypeGetDimSize(t, d as isize)) }
}

/// The identity-layout memref type of a ranked tensor type.
pub(crate) fn memref_type(tensor: MlirType) -> MlirType {
    // SAFETY: live ranked tensor type.
    unsafe {
        let r = mlirShapedTypeGetRank(tensor) as isize;
        let shape: Vec<i64> = (0..r).map(|d| mlirShapedTypeGetDimSize(tensor, d)).collect();
        mlirMemRefTypeContiguousGet(mlirShapedTypeGetElementType(tensor), r, shape.as_ptr(), mlirAttributeGetNull())
    }
}

pub(crate) fn element_type(tensor: MlirType) -> MlirType {
    // SAFETY: live shaped type.
    unsafe { mlirShapedTypeGetElementType(tensor) }
}

pub(crate) fn v<'c>(raw: Val) -> Value<'c, 'static> {
    // SAFETY: the value is live IR of the function being rewritten.
    unsafe { Value::from_raw(raw) }
}

pub(crate) fn vs<'c>(raws: &[Val]) -> Vec<Value<'c, 'static>> {
    raws.iter().map(|r| v(*r)).collect()
}

pub(crate) fn ty<'c>(raw: MlirType) -> Type<'c> {
    // SAFETY: live type of the pass's context.
    unsafe { Type::from_raw(raw) }
}

/// The typed view of `op`, an `array` op of the function being lowered (`None` for other
/// ops). The view borrows the op: it is read while the op is live, before it is erased.
pub(crate) fn array_op<'a>(op: Op) -> Option<ArrayOp<'a, 'a>> {
    // SAFETY: `op` is a live operation of the function being rewritten.
    ArrayOp::of(unsafe { OperationRef::from_raw(op) })
}

/// The kind of `op`, if it is an `array` op.
pub(crate) fn op_kind(op: Op) -> Option<OpKind> {
    OpKind::from_name(&ir::op_name(op))
}

/// The raw handles of `values`.
pub(crate) fn raws(values: &[Value]) -> Vec<Val> {
    values.iter().map(|x| x.to_raw()).collect()
}

/// Moves the ops of the single block of region `index` of `op` before `anchor`, with the
/// block's arguments replaced by `arguments`; returns the values its `array.yield`
/// yields. The yield stays behind (it is erased with `op`).
pub(crate) fn inline_body(op: Op, index: isize, arguments: &[Val], anchor: Op) -> Vec<Val> {
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

/// The buffer behind `dest` when a scatter or permute `user` (result type `result`) may
/// update it in place rather than a copy. That holds when
/// * `dest` is `bufferization.to_tensor %alloc restrict` of a `memref.alloc` of `result`'s
///   buffer type: a buffer this lowering made for a producer's result, reached by no
///   other tensor (`restrict`);
/// * every use of `%alloc` other than that `to_tensor` precedes it in its block (the
///   producer's loop nest filled it; nothing reads or writes it later);
/// * `user` is the only op that reads `dest`'s elements, through one operand: its other
///   uses are `tensor.dim`s, which read extents, and the update keeps those;
/// * `user` is in the `to_tensor`'s block, directly or within fusion-tree ops, so it runs
///   once per `dest` (not in a loop body or an element function).
///
/// Then nothing observes the array once the update begins, so updating it in place gives
/// the values a copy would (seed 000 §2: `scatter` returns a new array; the old one is
/// dead after it). A function argument, an array read elsewhere or a buffer of another
/// type is copied.
fn in_place_buffer(dest: Val, user: Op, result: MlirType) -> Option<Val> {
    let to_tensor = ir::defining_op(dest)?;
    if ir::op_name(to_tensor) != "bufferization.to_tensor" || !ir::has_inherent_attribute(to_tensor, "restrict") {
        return None;
    }
    let buffer = ir::operands(to_tensor)[0];
    let alloc = ir::defining_op(buffer)?;
    if ir::op_name(alloc) != "memref.alloc" || !ir::same_type(ir::value_type(buffer), memref_type(result)) {
        return None;
    }
    // SAFETY: a live op.
    let block = unsafe { mlirOperationGetBlock(to_tensor) };
    // Whether `op`'s ancestor in the to_tensor's block comes before the to_tensor.
    let earlier = |mut op: Op| loop {
        // SAFETY: live ops.
        if ir::same_block(unsafe { mlirOperationGetBlock(op) }, block) {
            return unsafe { mlirOperationIsBeforeInBlock(op, to_tensor) };
        }
        match ir::parent_op(op) {
            Some(parent) => op = parent,
            None => return false,
        }
    };
    if !ir::uses(buffer).into_iter().all(|(u, _)| ir::same_op(u, to_tensor) || earlier(u)) {
        return None;
    }
    // `user` runs once each time `dest` is made: it sits in the to_tensor's block, or in
    // fusion-tree ops there (a cluster runs each leaf once). In a loop body or an element
    // function it would run many times, each run seeing the earlier runs' updates.
    let mut op = user;
    // SAFETY: live ops.
    while !ir::same_block(unsafe { mlirOperationGetBlock(op) }, block) {
        let parent = ir::parent_op(op)?;
        if !op_kind(parent).is_some_and(OpKind::is_fusion_tree) {
            return None;
        }
        op = parent;
    }
    let uses = ir::uses(dest);
    let by_user = uses.iter().filter(|(u, _)| ir::same_op(*u, user)).count();
    let others_read_extents = uses.iter().all(|(u, _)| ir::same_op(*u, user) || ir::op_name(*u) == "tensor.dim");
    (by_user == 1 && others_read_extents).then_some(buffer)
}

/// Whether the fold's combine may be applied in any order and grouping: from the right,
/// or as a parallel reduction ([`array_dialect::view::combine_commutes`], the rule the
/// fusion analysis also gives such folds their directions by).
pub(crate) fn regroupable_fold(fold: Op) -> bool {
    matches!(array_op(fold), Some(ArrayOp::Fold { body, .. }) if array_dialect::view::combine_commutes(body))
}

/// Whether the fold is lowered as a parallel reduction: its combine may be regrouped
/// ([`regroupable_fold`]) and its accumulator is a float or an integer of at least 8 bits:
/// `convert-scf-to-openmp` gives integer reductions an atomic combiner (`llvm.atomicrmw`),
/// which LLVM accepts for neither `i1` nor `index` (not yet an integer type at that point
/// of the pipeline).
pub(crate) fn reducible_fold(fold: Op) -> bool {
    // SAFETY: live ranked tensor types of the fold's results.
    let atomic_width = |r: &Val| unsafe {
        let t = element_type(ir::value_type(*r));
        mlirTypeIsAFloat(t) || (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) >= 8)
    };
    regroupable_fold(fold) && ir::results(fold).iter().all(atomic_width)
}

/// Replaces every result of `op` by `replacements` and erases it.
///
/// # Safety
/// `replacements` must cover every result of `op` that has uses, and no handle to `op`
/// or to anything nested in it may be used afterwards.
pub(crate) unsafe fn replace_and_erase(op: Op, replacements: &[Val]) {
    for (r, n) in ir::results(op).into_iter().zip(replacements) {
        ir::replace_uses_where(r, *n, |_| true);
    }
    // SAFETY: every used result was replaced above; the caller drops its handles.
    unsafe { ir::erase(op) }
}

/// Builds ops of the upstream dialects before an anchor op, at one location.
pub(crate) struct Builder<'c> {
    pub(crate) context: &'c Context,
    pub(crate) location: Location<'c>,
}

impl<'c> Builder<'c> {
    /// Inserts `op` before `anchor`; returns it.
    pub(crate) fn put(&self, anchor: Op, op: Operation<'c>) -> Op {
        let raw = op.into_raw();
        // SAFETY: `anchor` is live and in a block; ownership of `raw` passes to the block.
        unsafe { mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor), anchor, raw) };
        raw
    }

    pub(crate) fn put1(&self, anchor: Op, op: Operation<'c>) -> Val {
        ir::results(self.put(anchor, op))[0]
    }

    pub(crate) fn op(&self, name: &str) -> OperationBuilder<'c> {
        OperationBuilder::new(name, self.location)
    }

    pub(crate) fn index(&self) -> Type<'c> {
        Type::index(self.context)
    }

    pub(crate) fn constant_index(&self, anchor: Op, value: i64) -> Val {
        self.put1(
            anchor,
            arith::constant(self.context, IntegerAttribute::new(self.index(), value).into(), self.location),
        )
    }

    /// The extent of dimension `d` of tensor `x`: a constant when static, else `tensor.dim`.
    pub(crate) fn dim_of(&self, anchor: Op, x: Val, d: usize) -> Val {
        if let Some(s) = static_dim(ir::value_type(x), d) {
            return self.constant_index(anchor, s);
        }
        self.tensor_dim(anchor, x, d)
    }

    /// The extent of dimension `d` of buffer `x`: a constant when static, else `memref.dim`.
    pub(crate) fn memref_dim(&self, anchor: Op, x: Val, d: usize) -> Val {
        if let Some(s) = static_dim(ir::value_type(x), d) {
            return self.constant_index(anchor, s);
        }
        let dd = self.constant_index(anchor, d as i64);
        self.memref_dim_at(anchor, x, dd)
    }

    /// `memref.dim` of buffer `x` at the dimension held by index value `d`.
    fn memref_dim_at(&self, anchor: Op, x: Val, d: Val) -> Val {
        self.put1(
            anchor,
            self.op("memref.dim")
                .add_operands(&[v(x), v(d)])
                .add_results(&[self.index()])
                .build()
                .expect("valid memref.dim"),
        )
    }

    /// `tensor.dim` of dimension `d` of tensor `x`.
    fn tensor_dim(&self, anchor: Op, x: Val, d: usize) -> Val {
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
    pub(crate) fn extents(&self, anchor: Op, types: &[MlirType], source: Val) -> Vec<Val> {
        let r = rank(ir::value_type(source));
        (0..r)
            .map(|d| match types.iter().find_map(|t| static_dim(*t, d)) {
                Some(s) => self.constant_index(anchor, s),
                None => self.tensor_dim(anchor, source, d),
            })
            .collect()
    }

    /// The buffer of `tensor`, to read from: marked `read_only` (the lowering writes only
    /// into buffers it allocates, copying a scatter's destination first), so One-Shot
    /// Bufferize needs no copy when the same tensor is also read in a loop nest by
    /// `tensor.extract` (an `array.index` of it): without the mark it copied the whole
    /// array (seed 000's `greedyTopDownBad`, where the loop reads `bs[0]` and `bs`).
    pub(crate) fn to_buffer(&self, anchor: Op, tensor: Val) -> Val {
        let t = memref_type(ir::value_type(tensor));
        self.put1(
            anchor,
            self.op("bufferization.to_buffer")
                .add_operands(&[v(tensor)])
                .add_results(&[ty(t)])
                .add_attributes(&[(Identifier::new(self.context, "read_only"), Attribute::unit(self.context))])
                .build()
                .expect("valid bufferization.to_buffer"),
        )
    }

    /// `memref.alloc` of the buffer of a tensor of type `tensor`, with the dynamic sizes
    /// taken from `extents` (built generically: melior's `memref::alloc` names the segment
    /// sizes `operand_segment_sizes`, which MLIR 22 does not read).
    pub(crate) fn alloc(&self, anchor: Op, tensor: MlirType, extents: &[Val]) -> Val {
        let dynamic: Vec<Val> =
            (0..rank(tensor)).filter(|d| static_dim(tensor, *d).is_none()).map(|d| extents[d]).collect();
        self.put1(
            anchor,
            self.op("memref.alloc")
                .add_operands(&vs(&dynamic))
                .add_attributes(&[(
                    Identifier::new(self.context, attribute::OPERAND_SEGMENT_SIZES),
                    DenseI32ArrayAttribute::new(self.context, &[dynamic.len() as i32, 0]).into(),
                )])
                .add_results(&[ty(memref_type(tensor))])
                .build()
                .expect("valid memref.alloc"),
        )
    }

    pub(crate) fn to_tensor(&self, anchor: Op, memref: Val, tensor: MlirType) -> Val {
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

    pub(crate) fn load(&self, anchor: Op, memref: Val, indices: &[Val]) -> Val {
        // The result type is inferred: the memref's element type.
        self.put1(anchor, memref::load(v(memref), &vs(indices), self.location))
    }

    pub(crate) fn store(&self, anchor: Op, value: Val, memref: Val, indices: &[Val]) {
        self.put(anchor, memref::store(v(value), v(memref), &vs(indices), self.location));
    }

    pub(crate) fn index_cast(&self, anchor: Op, value: Val) -> Val {
        // SAFETY: live type.
        if unsafe { mlirTypeIsAIndex(ir::value_type(value)) } {
            return value;
        }
        self.put1(anchor, arith::index_cast(v(value), self.index(), self.location))
    }

    /// `memref.copy` of `source` into `target`, before `anchor`.
    pub(crate) fn copy(&self, anchor: Op, source: Val, target: Val) {
        self.put(
            anchor,
            self.op("memref.copy").add_operands(&[v(source), v(target)]).build().expect("valid memref.copy"),
        );
    }

    /// The buffer a scatter or permute (`user`, with result type `result`) writes: its
    /// destination `dest`'s own buffer when it may be updated in place ([`in_place_buffer`]),
    /// else a new buffer holding a copy of `dest` (`memref.alloc` + `memref.copy`, before
    /// `anchor`). After `user` is lowered, call [`Builder::retire_destination`] on `dest`.
    pub(crate) fn destination_buffer(&self, anchor: Op, dest: Val, user: Op, result: MlirType, extents: &[Val]) -> Val {
        if let Some(buffer) = in_place_buffer(dest, user, result) {
            return buffer;
        }
        let source = self.to_buffer(anchor, dest);
        let buffer = self.alloc(anchor, result, extents);
        self.copy(anchor, source, buffer);
        buffer
    }

    /// After a scatter or permute updated `dest`'s buffer in place: the `tensor.dim`s of
    /// `dest` left read the buffer's extents (`memref.dim`), and `dest`'s
    /// `bufferization.to_tensor` is erased, so that only the result's `to_tensor restrict`
    /// names the buffer (MLIR requires one). Nothing happens when `dest` was copied.
    pub(crate) fn retire_destination(&self, dest: Val) {
        let Some(to_tensor) = ir::defining_op(dest) else { return };
        if ir::op_name(to_tensor) != "bufferization.to_tensor" {
            return;
        }
        let buffer = ir::operands(to_tensor)[0];
        let uses = ir::uses(dest);
        if !uses.iter().all(|(user, _)| ir::op_name(*user) == "tensor.dim") {
            return; // Copied: `dest` is still read (by the copy, at least).
        }
        for (dim, _) in uses {
            let extent = self.memref_dim_at(dim, buffer, ir::operands(dim)[1]);
            ir::replace_uses_where(ir::results(dim)[0], extent, |_| true);
            // SAFETY: the tensor.dim's result was replaced above.
            unsafe { ir::erase(dim) };
        }
        // SAFETY: its only result has no uses left.
        unsafe { ir::erase(to_tensor) };
    }

    /// `scf.parallel` from 0 to `extents` with step 1, before `anchor`; returns the
    /// induction variables and the body's terminator (`scf.reduce`), before which the
    /// body goes. With no extents (rank 0) no loop is made: the body goes before
    /// `anchor`.
    pub(crate) fn parallel(&self, anchor: Op, extents: &[Val]) -> (Vec<Val>, Op) {
        if extents.is_empty() {
            return (vec![], anchor);
        }
        let (_, ivs, terminator) = self.parallel_loop(anchor, extents, &[]);
        (ivs, terminator)
    }

    /// `scf.parallel` from 0 to `extent` reducing into `inits` (one result each), before
    /// `anchor`; returns the op, the induction variable and the body's terminator, a
    /// placeholder `scf.reduce` that [`Builder::finish_reduction`] replaces.
    pub(crate) fn parallel_reduction(&self, anchor: Op, extent: Val, inits: &[Val]) -> (Op, Val, Op) {
        let (loop_op, ivs, placeholder) = self.parallel_loop(anchor, &[extent], inits);
        (loop_op, ivs[0], placeholder)
    }

    /// `scf.parallel` over `extents` (from 0, step 1) with initial values `inits` of its
    /// reductions, before `anchor`: the op, its induction variables and the body's
    /// terminator (an `scf.reduce` without operands).
    fn parallel_loop(&self, anchor: Op, extents: &[Val], inits: &[Val]) -> (Op, Vec<Val>, Op) {
        let n = extents.len();
        let zero = self.constant_index(anchor, 0);
        let one = self.constant_index(anchor, 1);
        self.parallel_range(anchor, &vec![zero; n], extents, &vec![one; n], inits)
    }

    /// `scf.parallel` over `lower[d]..upper[d]` by `step[d]` with initial values `inits` of
    /// its reductions, before `anchor`: the op, its induction variables and the body's
    /// terminator (an `scf.reduce` without operands).
    pub(crate) fn parallel_range(
        &self,
        anchor: Op,
        lower: &[Val],
        upper: &[Val],
        step: &[Val],
        inits: &[Val],
    ) -> (Op, Vec<Val>, Op) {
        let n = lower.len();
        let types: Vec<Type> = inits.iter().map(|i| ty(ir::value_type(*i))).collect();
        let block = Block::new(&vec![(self.index(), self.location); n]);
        block.append_operation(self.op("scf.reduce").build().expect("valid scf.reduce"));
        let region = Region::new();
        region.append_block(block);
        let mut operands = lower.to_vec();
        operands.extend_from_slice(upper);
        operands.extend_from_slice(step);
        operands.extend_from_slice(inits);
        let segments = [n as i32, n as i32, n as i32, inits.len() as i32];
        let loop_op = self.put(
            anchor,
            self.op("scf.parallel")
                .add_operands(&vs(&operands))
                .add_results(&types)
                .add_attributes(&[(
                    Identifier::new(self.context, attribute::OPERAND_SEGMENT_SIZES),
                    DenseI32ArrayAttribute::new(self.context, &segments).into(),
                )])
                .add_regions([region])
                .build()
                .expect("valid scf.parallel"),
        );
        let body = ir::first_block(ir::region(loop_op, 0));
        (loop_op, ir::block_arguments(body), ir::terminator(body))
    }

    /// Replaces the placeholder terminator of a [`Builder::parallel_reduction`] by
    /// `scf.reduce(values)`, whose region `k` combines two partial values of result `k`
    /// with `combine(k, lhs, rhs, anchor)` (ops inserted before `anchor`).
    pub(crate) fn finish_reduction(
        &self,
        placeholder: Op,
        values: &[Val],
        combine: impl Fn(usize, Val, Val, Op) -> Val,
    ) {
        let regions: Vec<Region> = values
            .iter()
            .map(|value| {
                let t = ty(ir::value_type(*value));
                let block = Block::new(&[(t, self.location), (t, self.location)]);
                let lhs = block.argument(0).expect("two arguments");
                block
                    .append_operation(self.op("scf.reduce.return").add_operands(&[lhs.into()]).build().expect("valid"));
                let region = Region::new();
                region.append_block(block);
                region
            })
            .collect();
        let reduce =
            regions.into_iter().fold(self.op("scf.reduce").add_operands(&vs(values)), |b, r| b.add_regions([r]));
        let reduce = self.put(placeholder, reduce.build().expect("valid scf.reduce"));
        for k in 0..values.len() {
            let block = ir::first_block(ir::region(reduce, k as isize));
            let arguments = ir::block_arguments(block);
            let ret = ir::terminator(block);
            let combined = combine(k, arguments[0], arguments[1], ret);
            ir::set_operands(ret, &[combined]);
        }
        // SAFETY: the placeholder has no results and no uses; nothing refers to it after.
        unsafe { ir::erase(placeholder) };
    }

    /// The combine of `fold` (one associative, commutative op: [`regroupable_fold`])
    /// applied to two partial values of its reduction, before `anchor`. Minimum and maximum are written as
    /// compare-and-select, the form `convert-scf-to-openmp` recognises as a reduction.
    pub(crate) fn reduction_combine(&self, fold: Op, lhs: Val, rhs: Val, anchor: Op) -> Val {
        let combine = ir::block_ops(ir::first_block(ir::region(fold, 0)))[0];
        let predicate = match ir::op_name(combine).as_str() {
            "arith.maxsi" => Some(CmpiPredicate::Sgt),
            "arith.minsi" => Some(CmpiPredicate::Slt),
            "arith.maxui" => Some(CmpiPredicate::Ugt),
            "arith.minui" => Some(CmpiPredicate::Ult),
            _ => None,
        };
        match predicate {
            Some(predicate) => {
                let first = self.put1(anchor, arith::cmpi(self.context, predicate, v(lhs), v(rhs), self.location));
                self.put1(anchor, arith::select(v(first), v(lhs), v(rhs), self.location))
            }
            None => inline_body(fold, 0, &[lhs, rhs], anchor)[0],
        }
    }

    /// `scf.for` from 0 to `extent` carrying `inits`, before `anchor` (built generically:
    /// melior's `scf::for` has no `iter_args`); returns the op,
    /// the induction variable, the accumulators and the body's `scf.yield` (without
    /// operands yet).
    pub(crate) fn for_loop(&self, anchor: Op, extent: Val, inits: &[Val]) -> (Op, Val, Vec<Val>, Op) {
        let zero = self.constant_index(anchor, 0);
        let one = self.constant_index(anchor, 1);
        self.for_range(anchor, [zero, extent, one], inits)
    }

    /// [`Builder::for_loop`] over `lower..upper` by `step` (`bounds`, in that order).
    pub(crate) fn for_range(&self, anchor: Op, bounds: [Val; 3], inits: &[Val]) -> (Op, Val, Vec<Val>, Op) {
        let types: Vec<Type> = inits.iter().map(|i| ty(ir::value_type(*i))).collect();
        let mut arguments = vec![(self.index(), self.location)];
        arguments.extend(types.iter().map(|t| (*t, self.location)));
        let block = Block::new(&arguments);
        block.append_operation(scf::r#yield(&[], self.location));
        let region = Region::new();
        region.append_block(block);
        let mut operands = bounds.to_vec();
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

    /// The binary `arith` op `build` (`arith::addi`, …) of `lhs` and `rhs`, before
    /// `anchor`; its result (of the operands' type).
    pub(crate) fn binary(
        &self,
        anchor: Op,
        build: impl FnOnce(Value<'c, 'static>, Value<'c, 'static>, Location<'c>) -> Operation<'c>,
        lhs: Val,
        rhs: Val,
    ) -> Val {
        self.put1(anchor, build(v(lhs), v(rhs), self.location))
    }

    /// An `scf.if` before `anchor` whose condition is `keep` (if any) and
    /// `0 <= at[d] < extents[d]` for every dimension (one unsigned comparison each, so a
    /// negative index fails too); returns the `then` block's terminator, before which the
    /// guarded code goes. With no condition at all (rank 0, no flag) it returns `anchor`.
    pub(crate) fn guard(&self, anchor: Op, at: &[Val], extents: &[Val], keep: Option<Val>) -> Op {
        let mut condition: Option<Val> = keep;
        for (i, extent) in at.iter().zip(extents) {
            let c = self.put1(anchor, arith::cmpi(self.context, CmpiPredicate::Ult, v(*i), v(*extent), self.location));
            condition = Some(match condition {
                Some(p) => self.binary(anchor, arith::andi, p, c),
                None => c,
            });
        }
        let Some(condition) = condition else { return anchor };
        let block = Block::new(&[]);
        block.append_operation(scf::r#yield(&[], self.location));
        let then_region = Region::new();
        then_region.append_block(block);
        let if_op = self.put(anchor, scf::r#if(v(condition), &[], then_region, Region::new(), self.location));
        ir::terminator(ir::first_block(ir::region(if_op, 0)))
    }

    /// `scf.if %condition` with results of `types` and both branches, before `anchor`;
    /// returns the op and the two branches' `scf.yield`s (without operands yet).
    pub(crate) fn if_else(&self, anchor: Op, condition: Val, types: &[Type<'c>]) -> (Op, Op, Op) {
        let branch = || {
            let block = Block::new(&[]);
            block.append_operation(scf::r#yield(&[], self.location));
            let region = Region::new();
            region.append_block(block);
            region
        };
        let if_op = self.put(anchor, scf::r#if(v(condition), types, branch(), branch(), self.location));
        let then_yield = ir::terminator(ir::first_block(ir::region(if_op, 0)));
        let else_yield = ir::terminator(ir::first_block(ir::region(if_op, 1)));
        (if_op, then_yield, else_yield)
    }

    /// The first `length` elements of the vector buffer `buffer`, as a buffer of
    /// identity layout (`memref.reinterpret_cast` at offset 0, stride 1).
    pub(crate) fn prefix(&self, anchor: Op, buffer: Val, length: Val) -> Val {
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
                        Identifier::new(self.context, attribute::OPERAND_SEGMENT_SIZES),
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
}
