//! `array-own-loop-inits`: between MLIR's ownership-based buffer deallocation and the
//! lowering of its `bufferization.dealloc` ops, a loop takes ownership of an initial
//! buffer that the function allocated for it alone, so that a function returning the
//! loop's result does not copy it.
//!
//! Why: `ownership-based-buffer-deallocation` passes every buffer into an `scf.while`
//! with the ownership indicator `false` (the enclosing block keeps the responsibility to
//! free it), and the loop passes indicators on with the buffers it carries. A function
//! must return buffers it owns, so where a returned loop result may be an initial buffer
//! (the loop did not run), the pass returns `scf.if %owned { %r } else { clone %r }`:
//! a whole copy of the array whenever the loop runs zero times. Seed 004's BFS, rotated by
//! `array-rotate-while`, returns its loop's result, and on kernel-bench's input the loop
//! does not run: the copy was half of its time (README, "Against JAX/XLA").
//!
//! What it changes: for a loop `%r = scf.while (…, %a, …, %own_a = false, …)` in a
//! function's top-level block, where
//! 1. `%a` is a `memref.alloc` of that block, an operand of the loop once,
//! 2. every other use of `%a` before the loop is a load, a store or a `memref.dim`, inside
//!    ops that come before the loop (none makes another name for the buffer),
//! 3. after the loop, `%a` is used only as a deallocated memref of one
//!    `bufferization.dealloc` of the block, with the condition `true`,
//!
//! the loop's ownership operand for `%a` becomes `true` and that condition `false`.
//!
//! **Why it is exact.** The code the deallocation pass put inside and after the loop
//! reads the indicators dynamically: an iteration frees a carried buffer when its
//! indicator is true and nothing it passes on retains it, and after the loop the
//! function frees (or returns without a copy) a result whose indicator is true. That code
//! is correct for any truthful indicators. `true` for `%a` is truthful once nothing else
//! will free `%a` (the one dealloc that would, 3, no longer does) and nothing uses `%a`
//! after the loop has taken it (3: no use after the loop but that dealloc; 2: no alias
//! made before it). So `%a` is freed exactly once: by the iteration that stops carrying
//! it, or, if the loop returns it, by whoever then owns the result. Canonicalization then
//! folds the `scf.if` on the result's indicator where the loop always passes `true` on,
//! and the copy goes.
//!
//! The ownership operands are the trailing `i1` operands the deallocation pass appends,
//! one per memref operand in order; a loop whose operands do not have that shape, or
//! whose indicator for `%a` is not the constant `false`, is left alone.

use crate::bridge::{PassDefinition, PassFailed, PassOptions};
use crate::ir::{self, Op, Val};
use array_dialect::raw::string_ref;
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-own-loop-inits",
    description: "After ownership-based-buffer-deallocation, before bufferization-lower-deallocations: an scf.while takes ownership of an initial buffer the function allocated for it alone (used before the loop only by loads, stores and dims, after it only by the function's dealloc), so that a returned loop result is not copied when the loop does not run",
    anchor: Some("func.func"),
    dependent_dialects: &[],
    options: &[],
    state: None,
    run,
};

fn run(_: &melior::Context, function: melior::ir::OperationRef, _: &PassOptions) -> Result<(), PassFailed> {
    let function = function.to_raw();
    if !ir::has_body(function) {
        return Ok(());
    }
    let body = ir::first_block(ir::region(function, 0));
    for while_op in ir::block_ops(body).into_iter().filter(|op| ir::op_name(*op) == "scf.while") {
        let operands = ir::operands(while_op);
        let memrefs: Vec<usize> = (0..operands.len()).filter(|&j| ir::is_memref(operands[j])).collect();
        let first_ownership = operands.len() - memrefs.len();
        let shaped =
            memrefs.iter().all(|&j| j < first_ownership) && operands[first_ownership..].iter().all(|v| is_i1(*v));
        if !shaped {
            continue;
        }
        for (i, &j) in memrefs.iter().enumerate() {
            let ownership = first_ownership + i;
            if let Some(dealloc_condition) = owned_by_loop_alone(while_op, body, &operands, j, ownership) {
                let (dealloc, index) = dealloc_condition;
                // SAFETY: live ops of this function; the new constant dominates the loop,
                // and the `false` indicator (defined before the loop) dominates the dealloc
                // after it.
                unsafe {
                    let truth = constant_i1(while_op, true);
                    mlirOperationSetOperand(dealloc, index as isize, operands[ownership]);
                    mlirOperationSetOperand(while_op, ownership as isize, truth);
                }
            }
        }
    }
    Ok(())
}

/// When operand `j` of `while_op` meets conditions 1–3 of the module documentation with
/// the constant `false` as its indicator (operand `ownership`): the dealloc after the loop
/// that frees it and the operand number of that dealloc's condition for it.
fn owned_by_loop_alone(
    while_op: Op,
    body: MlirBlock,
    operands: &[Val],
    j: usize,
    ownership: usize,
) -> Option<(Op, usize)> {
    let buffer = operands[j];
    // 1. A fresh buffer of this block, passed once; indicator false.
    let alloc = ir::defining_op(buffer)?;
    if ir::op_name(alloc) != "memref.alloc" || !ir::in_block(alloc, body) {
        return None;
    }
    if operands.iter().filter(|v| ir::same_value(**v, buffer)).count() != 1 || !is_false(operands[ownership]) {
        return None;
    }
    let mut dealloc = None;
    for (user, index) in ir::uses(buffer) {
        if ir::same_op(user, while_op) {
            continue;
        }
        let top = top_level_ancestor(user, body)?;
        // SAFETY: two ops of one block.
        let before_loop = unsafe { mlirOperationIsBeforeInBlock(top, while_op) };
        if before_loop {
            // 2. Before the loop, only accesses that make no other name for the buffer.
            if !ACCESSES.contains(&ir::op_name(user).as_str()) {
                return None;
            }
            continue;
        }
        // 3. After the loop, one dealloc of the block frees it under the condition true.
        if ir::op_name(user) != "bufferization.dealloc" || !ir::same_op(top, user) || dealloc.is_some() {
            return None;
        }
        let dealloc_operands = ir::operands(user);
        let freed = dealloc_operands.iter().filter(|v| is_i1(**v)).count();
        let index = index as usize;
        if index >= freed || !is_true(dealloc_operands[freed + index]) {
            return None;
        }
        dealloc = Some((user, freed + index));
    }
    dealloc
}

/// Uses of a buffer that read or write its elements or its sizes and make no new name for
/// it.
const ACCESSES: &[&str] = &[
    "memref.load",
    "memref.store",
    "memref.dim",
    "vector.load",
    "vector.store",
    "vector.transfer_read",
    "vector.transfer_write",
    "vector.maskedload",
    "vector.maskedstore",
];

/// The op of `block` that is `op` or holds it.
fn top_level_ancestor(op: Op, block: MlirBlock) -> Option<Op> {
    let mut current = op;
    while !ir::in_block(current, block) {
        current = ir::parent_op(current)?;
    }
    Some(current)
}

fn is_i1(v: Val) -> bool {
    // SAFETY: a live value's type.
    unsafe {
        let t = ir::value_type(v);
        mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1
    }
}

/// An `i1` `arith.constant` `false` (its integer value 0).
fn is_false(v: Val) -> bool {
    is_i1(v) && ir::int_constant(v) == Some(0)
}

/// An `i1` `arith.constant` `true` (its integer value, sign-extended, is −1).
fn is_true(v: Val) -> bool {
    is_i1(v) && ir::int_constant(v).is_some_and(|c| c != 0)
}

/// A new `arith.constant` of `i1` before `anchor`.
///
/// # Safety
/// `anchor` is a live op in a block.
unsafe fn constant_i1(anchor: Op, value: bool) -> Val {
    // SAFETY: a new op built from live handles, inserted before the anchor.
    unsafe {
        let location = ir::location(anchor);
        let context = mlirOperationGetContext(anchor);
        let i1 = mlirIntegerTypeGet(context, 1);
        let mut state = mlirOperationStateGet(string_ref("arith.constant"), location);
        let attribute = mlirNamedAttributeGet(
            mlirIdentifierGet(context, string_ref("value")),
            mlirIntegerAttrGet(i1, value as i64),
        );
        mlirOperationStateAddAttributes(&mut state, 1, &attribute);
        mlirOperationStateAddResults(&mut state, 1, &i1);
        let op = mlirOperationCreate(&mut state);
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor), anchor, op);
        ir::results(op)[0]
    }
}
