//! One loop nest per combinator outside clusters (the unfused lowering; also the
//! fallback of a cluster that is not lowered as one loop nest).

use super::builder::{Builder, array_op, element_type, inline_body, raws, reducible_fold, replace_and_erase};
use crate::ir::{self, Op, Val};
use array_dialect::view::{ArrayOp, ScanDirection, ScanKind};
use melior::dialect::arith;
use melior::ir::ValueLike;
use mlir_sys::*;

impl<'c> Builder<'c> {
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
        // SAFETY: the lowered values replace every result; `op` is not used again.
        unsafe { replace_and_erase(op, &tensors) };
    }

    pub(super) fn lower_map(&self, op: Op) {
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

    pub(super) fn lower_generate(&self, op: Op) {
        let extents = ir::operands(op);
        self.elementwise(op, &extents, |anchor, ivs| inline_body(op, 0, ivs, anchor));
    }

    pub(super) fn lower_gather(&self, op: Op) {
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

    /// `array.fold` → `scf.parallel` over the outer dimensions around an `scf.for` over
    /// the innermost one carrying the accumulators; a rank-1 fold whose combine may be
    /// regrouped is one parallel reduction instead.
    pub(super) fn lower_fold(&self, op: Op) {
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
        if outer.is_empty() && reducible_fold(op) {
            // A whole-array fold whose combine may be regrouped: a parallel reduction (as in
            // clusters), its part of each iteration the element.
            let (loop_op, iv, placeholder) = self.parallel_reduction(op, inner[0], inits);
            let element = self.load(placeholder, input_buffers[0], &[iv]);
            self.finish_reduction(placeholder, &[element], |_, lhs, rhs, at| self.reduction_combine(op, lhs, rhs, at));
            self.store(op, ir::results(loop_op)[0], buffers[0], &[]);
            let tensor = self.to_tensor(op, buffers[0], result_types[0]);
            // SAFETY: the lowered value replaces the one result; `op` is not used again.
            unsafe { replace_and_erase(op, &[tensor]) };
            return;
        }
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
        // SAFETY: the lowered values replace every result; `op` is not used again.
        unsafe { replace_and_erase(op, &tensors) };
    }

    /// `array.scan` → `scf.parallel` over the outer dimensions (none for rank 1) around
    /// an `scf.for` over the innermost dimension carrying the accumulators. The row is
    /// visited at `k` (left) or `n-1-k` (right); inclusive scans combine then store the
    /// new accumulators, exclusive scans store the old ones then combine.
    pub(super) fn lower_scan(&self, op: Op) {
        let Some(ArrayOp::Scan { direction, kind, inputs, inits, .. }) = array_op(op) else { return };
        let (inputs, inits) = (raws(&inputs), raws(&inits));
        let results = ir::results(op);
        let Some(first) = inputs.first() else { return };
        let right = direction == ScanDirection::Right;
        let exclusive = kind == ScanKind::Exclusive;
        let mut types: Vec<MlirType> = inputs.iter().map(|i| ir::value_type(*i)).collect();
        let result_types: Vec<MlirType> = results.iter().map(|r| ir::value_type(*r)).collect();
        types.extend_from_slice(&result_types);
        let extents = self.extents(op, &types, *first);
        let (outer, inner) = extents.split_at(extents.len() - 1);
        let buffers: Vec<Val> = result_types.iter().map(|t| self.alloc(op, *t, &extents)).collect();
        let input_buffers: Vec<Val> = inputs.iter().map(|i| self.to_buffer(op, *i)).collect();
        let last = if right {
            let one = self.constant_index(op, 1);
            Some(self.binary(op, arith::subi, inner[0], one))
        } else {
            None
        };
        let (outer_ivs, anchor) = self.parallel(op, outer);
        let (_, k, accumulators, yield_op) = self.for_loop(anchor, inner[0], &inits);
        let position = match last {
            Some(last) => self.binary(yield_op, arith::subi, last, k),
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
        // SAFETY: the lowered values replace every result; `op` is not used again.
        unsafe { replace_and_erase(op, &tensors) };
    }

    /// `array.scatter` → a copy of the destination (`memref.alloc` + `memref.copy`; none
    /// when the destination may be updated in place, [`Builder::destination_buffer`]),
    /// then a sequential `scf.for` nest over the values' index space (source order, as
    /// the interpreter applies non-commutative combines): the element's destination
    /// index is loaded (`arith.index_cast` for integer indices) and, inside an `scf.if`
    /// on the keep flag (if the scatter has a `keep` array) and the bounds, the old element
    /// is combined with the value and stored. A dropped position is never written; an
    /// index out of range is skipped (the reference interpreter reports an error there).
    pub(super) fn lower_scatter(&self, op: Op) {
        let Some(ArrayOp::Scatter { dest, indices, keep, values, .. }) = array_op(op) else {
            unreachable!("lower_scatter is called on scatters")
        };
        let (dest, values, keep) = (dest.to_raw(), values.to_raw(), keep.map(|k| k.to_raw()));
        let indices = &raws(&indices);
        let dest_type = ir::value_type(dest);
        let result_type = ir::value_type(ir::results(op)[0]);
        let dest_extents = self.extents(op, &[dest_type, result_type], dest);
        let mut types: Vec<MlirType> = vec![ir::value_type(values)];
        types.extend(indices.iter().map(|i| ir::value_type(*i)));
        let value_extents = self.extents(op, &types, values);
        let buffer = self.destination_buffer(op, dest, op, result_type, &dest_extents);
        let value_buffer = self.to_buffer(op, values);
        let index_buffers: Vec<Val> = indices.iter().map(|i| self.to_buffer(op, *i)).collect();
        let keep_buffer = keep.map(|k| self.to_buffer(op, k));
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
        // A dropped position (keep flag false) is never written, whatever its index.
        let keep = keep_buffer.map(|k| self.load(anchor, k, &ivs));
        let body_anchor = self.guard(anchor, &at, &dest_extents, keep);
        let old = self.load(body_anchor, buffer, &at);
        let new = self.load(body_anchor, value_buffer, &ivs);
        let combined = inline_body(op, 0, &[old, new], body_anchor);
        self.store(body_anchor, combined[0], buffer, &at);
        let tensor = self.to_tensor(op, buffer, result_type);
        // SAFETY: the lowered values replace every result; `op` is not used again.
        unsafe { replace_and_erase(op, &[tensor]) };
        self.retire_destination(dest);
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
    pub(super) fn lower_permute(&self, op: Op) {
        let operands = ir::operands(op);
        let (source, dest) = (operands[0], operands[1]);
        let dest_type = ir::value_type(dest);
        let result_type = ir::value_type(ir::results(op)[0]);
        let dest_extents = self.extents(op, &[dest_type, result_type], dest);
        let source_extents = self.extents(op, &[ir::value_type(source)], source);
        let buffer = self.destination_buffer(op, dest, op, result_type, &dest_extents);
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
        // SAFETY: the lowered values replace every result; `op` is not used again.
        unsafe { replace_and_erase(op, &[tensor]) };
        self.retire_destination(dest);
    }

    /// `array.filter` → result buffers of the input length (an upper bound), then one
    /// sequential `scf.for` over the input carrying the output count: the predicate runs
    /// on the loaded elements and, under `scf.if`, each input's element is stored at
    /// `count` and the count incremented. The results are the first `count` elements
    /// (`memref.reinterpret_cast`), as tensors.
    pub(super) fn lower_filter(&self, op: Op) {
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
        let next = self.binary(then_yield, arith::addi, count, one);
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
        // SAFETY: the lowered values replace every result; `op` is not used again.
        unsafe { replace_and_erase(op, &tensors) };
    }

    /// The segment length of one element: the count region's value as an index,
    /// negative counts taken as 0.
    pub(super) fn segment_length(&self, anchor: Op, count: Val, zero: Val) -> Val {
        let count = self.index_cast(anchor, count);
        self.binary(anchor, arith::maxsi, count, zero)
    }

    /// `array.expand` → a first `scf.for` summing the `count` region (a clone) over the
    /// input (the total length), result buffers of that length, then a second `scf.for`
    /// over the input carrying the running offset, with an inner `scf.for` over
    /// `0..count` storing the `get` region's values at `offset + j`.
    pub(super) fn lower_expand(&self, op: Op) {
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
        let sum = self.binary(yield_op, arith::addi, totals[0], count);
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
        let position = self.binary(inner_yield, arith::addi, offset, j);
        for (value, buffer) in values.iter().zip(&buffers) {
            self.store(inner_yield, *value, *buffer, &[position]);
        }
        let next = self.binary(yield_op, arith::addi, offset, count);
        ir::set_operands(yield_op, &[next]);
        let tensors: Vec<Val> = buffers.iter().zip(&result_types).map(|(b, t)| self.to_tensor(op, *b, *t)).collect();
        // SAFETY: the lowered values replace every result; `op` is not used again.
        unsafe { replace_and_erase(op, &tensors) };
    }
}
