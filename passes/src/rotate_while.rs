//! `array-rotate-while`: loop rotation of `scf.while`, so that a loop's first test sits
//! beside the producers of the values it tests, where the clustering can fuse them.
//!
//! Why: an `scf.while` tests its condition (the `before` region) before every iteration,
//! the first included. When that test computes on arrays (seed 004 §5's BFS:
//! `awhile (map not $ and $ zipWith (==) parents oldParents)`), the first test reads the
//! loop's initial arrays, which the enclosing block has just produced (two `generate`s).
//! The clustering works block by block (seed 000 §3), and the test is in another block,
//! so each initial array is written to memory and read back by the test: in BFS four
//! passes over n elements where one would do. XLA's while loops materialise their
//! initial state too; JAX code writes the first test out by hand (`lax.cond` before
//! `lax.while_loop`). This pass does it for every loop it finds worth it.
//!
//! The rotation: with `before` = B (arguments b, ending in `scf.condition(c) f`) and
//! `after` = A (arguments a, ending in `scf.yield y`),
//!
//! ```text
//! %r = scf.while (b = init) { B; condition(c) f } do { ^(a): A; yield y }
//! ```
//! becomes
//! ```text
//! B[b := init]                                  // the first test, in the enclosing block
//! %r = scf.while (a' = f[b := init], go = c[b := init]) { condition(go) a' }
//!      do { ^(a): A; B[b := y]; yield f, c }
//! ```
//! The new loop carries the test's outcome as a flag: its `before` region only reads the
//! flag, and its `after` region runs the body, then the test on the body's results.
//! (MLIR's C++ `scf::wrapWhileLoopInZeroTripCheck`, which the C API does not expose, puts
//! the loop in an `scf.if` on the first test instead. This form keeps the loop in its
//! block, where `array-elide-loop-copies` and `array-own-loop-inits` see it: when the
//! loop does not run its result is the initial array itself, which the function may
//! return without a copy once the loop owns it.)
//!
//! **Why it is exact.** The original runs B₀ A₁ B₁ A₂ B₂ … Aₖ Bₖ, where Bₖ is the first
//! test that yields false (k ≥ 0), and returns the f of Bₖ. The rotated form runs B₀
//! outside and enters the loop with B₀'s f and c. Each test of the new loop reads the
//! flag, which is the c of the latest Bᵢ; while it is true, an iteration runs Aᵢ₊₁ on
//! that Bᵢ's f (as the original, whose Aᵢ₊₁ gets the f of Bᵢ), then Bᵢ₊₁ on Aᵢ₊₁'s y, and
//! passes on Bᵢ₊₁'s f and c. At the first false flag, the one of Bₖ, the loop returns
//! Bₖ's f. The same ops run, in the same order, on the same values, so nothing needs to
//! be pure.
//!
//! **Dead state is dropped**: component k of the loop's state (the k-th value forwarded
//! by `scf.condition`) goes when the loop's result k has no use and A's argument k has
//! none. In the new loop that component is only passed from the `after` region's yield
//! to the `before` region, which forwards it unread to the `after` region, which does not
//! read it (A's argument k); and nothing reads the result. In BFS this is `oldParents`:
//! its initial array is then read only by the first test, fuses with it and is never
//! written.
//!
//! **When it rotates**: only where it can help the clustering, i.e. where some argument
//! of B is an operand of an `array` op in B and its initial value is the result of an
//! `array` op in the loop's block. Elsewhere it would only duplicate B. Each rotated
//! loop gets a remark.

use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_remark};
use crate::ir::{self, Op, Val};
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-rotate-while",
    description: "Rotate scf.while loops whose test computes on arrays produced just before the loop: the first test runs before the loop (where the clustering can fuse it with those producers), the loop carries the test's outcome and runs body then test, and loop state that nothing reads is dropped",
    anchor: Some("func.func"),
    dependent_dialects: &[],
    options: &[],
    state: None,
    run,
};

fn run(_: &melior::Context, function: melior::ir::OperationRef, _: &PassOptions) -> Result<(), PassFailed> {
    for while_op in ir::collect(function.to_raw(), |op| ir::op_name(op) == "scf.while") {
        if !worth_rotating(while_op) {
            continue;
        }
        let location = ir::location(while_op);
        let dropped = rotate(while_op);
        let dropped = if dropped.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = dropped.iter().map(|k| k.to_string()).collect();
            format!("; unread loop state dropped: component {}", list.join(", "))
        };
        // SAFETY: the location of the loop, owned by the context.
        emit_remark(
            unsafe { melior::ir::Location::from_raw(location) },
            &format!("array-rotate-while: first test moved before the loop, which now runs body then test{dropped}"),
        );
    }
    Ok(())
}

/// The `before` and `after` blocks of an `scf.while` (each region holds exactly one).
fn blocks(while_op: Op) -> Option<(MlirBlock, MlirBlock)> {
    let single = |index| {
        let blocks = ir::region_blocks(ir::region(while_op, index));
        (blocks.len() == 1).then(|| blocks[0])
    };
    Some((single(0)?, single(1)?))
}

/// Whether some argument of the `before` block is read by an `array` op there and starts
/// as the result of an `array` op of the loop's own block (see the module documentation).
fn worth_rotating(while_op: Op) -> bool {
    let Some((before, _)) = blocks(while_op) else { return false };
    // SAFETY: a live op.
    let block = unsafe { mlirOperationGetBlock(while_op) };
    let inits = ir::operands(while_op);
    ir::block_arguments(before).into_iter().zip(inits).any(|(argument, init)| {
        let tested = ir::uses(argument).into_iter().any(|(user, _)| ir::kind(user).is_some());
        let produced_here =
            ir::defining_op(init).is_some_and(|producer| ir::kind(producer).is_some() && ir::in_block(producer, block));
        tested && produced_here
    })
}

/// Rotates `while_op` as the module documentation shows and erases it; returns the
/// components of its state that were dropped.
fn rotate(while_op: Op) -> Vec<usize> {
    let (before, after) = blocks(while_op).expect("checked by worth_rotating");
    // SAFETY: live op.
    let block = unsafe { mlirOperationGetBlock(while_op) };
    let location = ir::location(while_op);
    let inits = ir::operands(while_op);
    let old_results = ir::results(while_op);
    let after_arguments = ir::block_arguments(after);
    let state = old_results.len();
    let live: Vec<usize> = (0..state)
        .filter(|&k| !(ir::uses(old_results[k]).is_empty() && ir::uses(after_arguments[k]).is_empty()))
        .collect();
    let live_types: Vec<MlirType> = live.iter().map(|&k| ir::value_type(old_results[k])).collect();

    // The first test: a copy of B with b := init, moved before the loop.
    // SAFETY: live ops of the function the pass owns; the clone is a complete copy whose
    // `before` ops are moved out before the rest of it is erased, and nothing outside
    // uses its results.
    let (first_continue, first_forwarded) = unsafe {
        let copy = mlirOperationClone(while_op);
        mlirBlockInsertOwnedOperationBefore(block, while_op, copy);
        let (copy_before, _) = blocks(copy).expect("a clone has the original's blocks");
        for (argument, init) in ir::block_arguments(copy_before).into_iter().zip(&inits) {
            mlirValueReplaceAllUsesOfWith(argument, *init);
        }
        let ops = ir::block_ops(copy_before);
        let (condition, body) = ops.split_last().expect("an scf.while's before block ends in scf.condition");
        for op in body {
            ir::move_before(*op, copy);
        }
        let operands = ir::operands(*condition);
        ir::erase(copy);
        (operands[0], operands[1..].to_vec())
    };

    // The new loop: state f[live] and the flag c, tested by the `before` region.
    let mut operands: Vec<Val> = live.iter().map(|&k| first_forwarded[k]).collect();
    operands.push(first_continue);
    let mut before_types = live_types.clone();
    before_types.push(ir::value_type(first_continue));
    let new_loop =
        ir::create_detached(location, "scf.while", &operands, &live_types, &[before_types, live_types.clone()]);
    // SAFETY: the new op is detached; inserting transfers its ownership.
    unsafe { mlirBlockInsertOwnedOperationBefore(block, while_op, new_loop) };
    let new_before = ir::first_block(ir::region(new_loop, 0));
    let new_after = ir::first_block(ir::region(new_loop, 1));
    let (flag, state_arguments) = {
        let arguments = ir::block_arguments(new_before);
        let (flag, state) = arguments.split_last().expect("the flag is the last argument");
        (*flag, state.to_vec())
    };
    let mut forwarded = vec![flag];
    forwarded.extend(state_arguments);
    // SAFETY: a detached op appended to the new loop's empty block.
    unsafe {
        mlirBlockAppendOwnedOperation(new_before, ir::create_detached(location, "scf.condition", &forwarded, &[], &[]))
    };

    // The new loop's `after` block: A with a := its arguments, then B with b := y, then
    // the yield of B's f[live] and c.
    let new_arguments = ir::block_arguments(new_after);
    // SAFETY: live values and ops; every use of a block argument of the old loop is
    // rewired before its ops move, and the old loop is erased only once it is empty and
    // its results are unused.
    unsafe {
        for (i, &k) in live.iter().enumerate() {
            mlirValueReplaceAllUsesOfWith(after_arguments[k], new_arguments[i]);
        }
        let after_ops = ir::block_ops(after);
        let (yield_op, body) = after_ops.split_last().expect("an scf.while's after block ends in scf.yield");
        for op in body {
            append(new_after, *op);
        }
        for (argument, value) in ir::block_arguments(before).into_iter().zip(ir::operands(*yield_op)) {
            mlirValueReplaceAllUsesOfWith(argument, value);
        }
        ir::erase(*yield_op);
        let before_ops = ir::block_ops(before);
        let (condition, body) = before_ops.split_last().expect("an scf.while's before block ends in scf.condition");
        for op in body {
            append(new_after, *op);
        }
        let tested = ir::operands(*condition);
        let mut passed_on: Vec<Val> = live.iter().map(|&k| tested[k + 1]).collect();
        passed_on.push(tested[0]);
        mlirBlockAppendOwnedOperation(new_after, ir::create_detached(location, "scf.yield", &passed_on, &[], &[]));
        ir::erase(*condition);

        let new_results = ir::results(new_loop);
        for (i, &k) in live.iter().enumerate() {
            mlirValueReplaceAllUsesOfWith(old_results[k], new_results[i]);
        }
        ir::erase(while_op);
    }
    (0..state).filter(|k| !live.contains(k)).collect()
}

/// Moves `op` to the end of `block`.
///
/// # Safety
/// `op` and `block` live, `op` not an ancestor of `block`.
unsafe fn append(block: MlirBlock, op: Op) {
    // SAFETY: the caller's contract; the op is unlinked, then owned by the block.
    unsafe {
        mlirOperationRemoveFromParent(op);
        mlirBlockAppendOwnedOperation(block, op);
    }
}
