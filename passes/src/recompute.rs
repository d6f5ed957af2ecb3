//! `array-recompute`: recomputation of cheap producers, before the clustering is chosen.
//! `array-fusion-analysis` runs it first (its option `recompute`, on by default where the
//! proof below holds); the pass exists on its own for tests and for the benchmarks'
//! bytes-moved model, which must see the program the analysis clusters.
//!
//! seed 000 and seed 001 give every combinator one cluster, so an array read by two
//! consumers that cannot share a cluster is written once and read back: in
//! `cycle xs = let ys = map (+1) xs; s = fold (+) 0 ys in map (+s) ys` the second map
//! must follow the fold, so `ys` is materialised. XLA and other fusers instead recompute
//! such a producer inside each consumer's loop. This module does that as a program
//! transformation the ILP then sees: a producer `P` is cloned so that each of its
//! consumers reads a copy of its own, when
//! 1. `P` is an `array.map` of exactly one array `A` that is not produced in `P`'s block
//!    (a function argument, a loop's block argument or a value from an enclosing block:
//!    an input of the block's problem, never a node of it);
//! 2. `P`'s element function is made of `arith`, `math`, `complex` and `index` ops only
//!    (pure: evaluating it again changes nothing) and reads no array (no array captured
//!    from outside); scalars from outside are allowed;
//! 3. an element of `A` takes no more bytes than an element of `P` (the `bytes` model);
//! 4. `P` has at least two consumers, and every use of `P` is the one array operand of an
//!    `array.map`, `array.fold`, `array.scan` or `array.filter` in `P`'s block (a direct,
//!    in-order read: no return, call, loop, gather, index or second array operand).
//!
//! **Why the optimum cannot get worse.** Let K be any valid clustering of the block's
//! graph G, and G' the graph after `P` is replaced by copies `P_1 … P_k`, `P_i` read by
//! consumer `c_i` only. Put each `P_i` into the cluster of `c_i` and leave the other
//! nodes where K has them: call that K'.
//! * K' is valid. `P_i`'s in-edges come from `A`, an input of the problem (no node), and
//!   from the producers of the scalars its function captures, which are before `P` and so
//!   before `c_i`'s cluster in K. Its one out-edge goes to `c_i`, in-order and between
//!   combinators that may fuse, so it is fusible (by condition 4 `c_i` has no other
//!   array operand whose size could be unproven). `P_i`'s iteration size is `A`'s, which
//!   is the size `c_i` iterates over. It may traverse in either order, so it takes
//!   `c_i`'s.
//! * No cost model the ILP formulations minimise is higher for K' than for K:
//!   - `clusters`: a loop is a group of nodes joined by fused edges and shared reads
//!     (`cost::clusters`), so copies in different places could split a loop. They do not:
//!     every copy reads `A`, so consumers that shared `P`'s loop in K share `A`'s read in
//!     K'. This is why a `generate` is never copied: its copies read nothing, and the
//!     property test `recomputation_never_raises_the_optimum` found a program where two
//!     folds of one generate went from one loop to two;
//!   - `fused-edges`: each pair (`P`, `c_i`) becomes (`P_i`, `c_i`), fused; no other
//!     pair changes;
//!   - `intermediate-arrays`, and the writes of `reads-writes` and `bytes`: no copy is
//!     manifest (its only consumer shares its cluster over a fusible edge), and `P` is
//!     gone;
//!   - `reads`, `reads-writes` and `bytes`: in a cluster and order where some `c_i`
//!     read `P` from memory, that read goes and at most one read of `A` comes in. In
//!     `P`'s own cluster, `P` read `A` in that order already. By condition 3, `A` weighs
//!     no more than `P`;
//!   - `gathered-folds` and `chained-gathers`: the copies are maps, and every fold and
//!     gather keeps its cluster and order.
//!
//! So the optimum of G' is at most cost(K') ≤ cost(K) for every K, the optimum of G
//! included. This argument does not hold for `robinson` and `max-locality`: they count
//! pairs of nodes that read a common array, and copies add such pairs. With those models,
//! and for the baseline strategies, nothing is recomputed. What recomputation costs is
//! arithmetic: one more evaluation of `P`'s function per element in each further
//! consumer's loop. Condition 2 keeps that to scalar work on values already loaded.

use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_remark};
use crate::ir::{self, Op, Val};
use array_dialect::view::{ArrayOp, OpKind};
use melior::ir::ValueLike;
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-recompute",
    description: "Give each in-order consumer of a cheap producer (a map of one input array) its own copy instead of a materialised array; array-fusion-analysis does this first (option recompute)",
    anchor: Some("func.func"),
    dependent_dialects: &[],
    options: &[],
    state: None,
    run,
};

fn run(_: &melior::Context, function: melior::ir::OperationRef, _: &PassOptions) -> Result<(), PassFailed> {
    recompute_and_remark(function.to_raw());
    Ok(())
}

/// [`recompute_producers`], with a remark at each producer that was cloned.
pub fn recompute_and_remark(function: Op) {
    for done in recompute_producers(function) {
        // SAFETY: the location of a live op of this function.
        let location = unsafe { melior::ir::Location::from_raw(done.location) };
        let copies = if done.copies == 1 { "copy" } else { "copies" };
        emit_remark(
            location,
            &format!(
                "array-recompute: recomputed in each of its consumers ({} more {copies}) instead of materialised",
                done.copies
            ),
        );
    }
}

/// The discardable attribute that marks a copy: `array.recomputed = i : i64`, the i-th
/// copy of its producer (from 1). The extractor appends `'i` to the node's name.
pub const COPY_ATTRIBUTE: &str = "array.recomputed";

/// One producer that was cloned: its location, and how many copies were added.
pub struct Recomputed {
    pub location: MlirLocation,
    pub copies: usize,
}

/// Clones every producer of the blocks the analysis solves (the body of `function` and
/// the blocks of nested `scf` ops) that meets the conditions of the module documentation,
/// one copy per consumer after the first.
pub fn recompute_producers(function: Op) -> Vec<Recomputed> {
    let mut done = Vec::new();
    for block in analysed_blocks(function) {
        for op in ir::block_ops(block) {
            let Some(consumers) = consumers_if_recomputable(op, block) else { continue };
            for (i, consumer) in consumers.iter().enumerate().skip(1) {
                // SAFETY: a live op of the function the pass owns; the clone is inserted
                // right after it, so it dominates every consumer `op` dominates.
                let copy = unsafe {
                    let copy = mlirOperationClone(op);
                    mlirBlockInsertOwnedOperationAfter(block, op, copy);
                    let i64_type = mlirIntegerTypeGet(mlirOperationGetContext(op), 64);
                    mlirOperationSetDiscardableAttributeByName(
                        copy,
                        array_dialect::raw::string_ref(COPY_ATTRIBUTE),
                        mlirIntegerAttrGet(i64_type, i as i64),
                    );
                    copy
                };
                let (from, to) = (ir::results(op)[0], ir::results(copy)[0]);
                ir::replace_uses_where(from, to, |user| ir::same_op(user, *consumer));
            }
            done.push(Recomputed { location: ir::location(op), copies: consumers.len() - 1 });
        }
    }
    done
}

/// The blocks of `function` that the analysis solves: its body and the blocks of `scf`
/// ops nested in them.
fn analysed_blocks(function: Op) -> Vec<MlirBlock> {
    fn nested(block: MlirBlock, out: &mut Vec<MlirBlock>) {
        out.push(block);
        for op in ir::block_ops(block) {
            if ir::op_name(op).starts_with("scf.") {
                for r in 0..ir::region_count(op) {
                    for inner in ir::region_blocks(ir::region(op, r as isize)) {
                        nested(inner, out);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    if ir::region_count(function) > 0 {
        for block in ir::region_blocks(ir::region(function, 0)) {
            nested(block, &mut out);
        }
    }
    out
}

/// The consumers of `op`'s result, in block order, when `op` meets conditions
/// 1–4 of the module documentation; `None` otherwise.
fn consumers_if_recomputable(op: Op, block: MlirBlock) -> Option<Vec<Op>> {
    // SAFETY: a live op of the function the pass owns, only read here.
    match unsafe { ir::view(op) }? {
        ArrayOp::Map { inputs, .. } => {
            // Condition 1: one array input, not produced in this block.
            let [input] = inputs.as_slice() else { return None };
            let input = input.to_raw();
            if ir::defining_op(input).is_some_and(|d| ir::same_block(op_block(d), block)) {
                return None;
            }
            // Condition 3.
            let element = |v: Val| {
                // SAFETY: a live value's type, checked to be shaped first.
                unsafe {
                    let t = ir::value_type(v);
                    mlirTypeIsAShaped(t).then(|| mlirShapedTypeGetElementType(t))
                }
            };
            let bytes = |t: MlirType| {
                // SAFETY: a live type.
                array_dialect::types::element_bytes(unsafe { melior::ir::Type::from_raw(t) })
            };
            let (a, p) = (bytes(element(input)?)?, bytes(element(ir::results(op)[0])?)?);
            if a > p {
                return None;
            }
        }
        _ => return None,
    }
    // Condition 2: a pure element function that reads no array.
    let impure_or_reads_array = ir::collect(op, |inner| !ir::same_op(inner, op)).into_iter().any(|inner| {
        let name = ir::op_name(inner);
        let pure = ir::kind(inner) == Some(OpKind::Yield)
            || ["arith.", "math.", "complex.", "index."].iter().any(|d| name.starts_with(d));
        !pure || ir::operands(inner).into_iter().any(|v| is_tensor(v) && ir::defined_outside(v, op))
    });
    if impure_or_reads_array {
        return None;
    }
    // Condition 4.
    let mut consumers: Vec<Op> = Vec::new();
    for (user, _) in ir::uses(ir::results(op)[0]) {
        if !ir::same_block(op_block(user), block) {
            return None;
        }
        // SAFETY: a live op, only read.
        let inputs = match unsafe { ir::view(user) }? {
            ArrayOp::Map { inputs, .. }
            | ArrayOp::Fold { inputs, .. }
            | ArrayOp::Scan { inputs, .. }
            | ArrayOp::Filter { inputs, .. } => inputs,
            _ => return None,
        };
        if inputs.len() != 1 || ir::operands(user).into_iter().filter(|v| is_tensor(*v)).count() != 1 {
            return None;
        }
        if !consumers.iter().any(|c| ir::same_op(*c, user)) {
            consumers.push(user);
        }
    }
    // In block order (use lists are not): the first consumer keeps the original.
    // SAFETY: live ops of one block.
    consumers.sort_by(|a, b| {
        if ir::same_op(*a, *b) {
            std::cmp::Ordering::Equal
        } else if unsafe { mlirOperationIsBeforeInBlock(*a, *b) } {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        }
    });
    (consumers.len() >= 2).then_some(consumers)
}

fn op_block(op: Op) -> MlirBlock {
    // SAFETY: a live op.
    unsafe { mlirOperationGetBlock(op) }
}

fn is_tensor(v: Val) -> bool {
    // SAFETY: a live value's type.
    unsafe { mlirTypeIsATensor(ir::value_type(v)) }
}
