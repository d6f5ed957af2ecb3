//! Scatter nests in parallel by owner: deterministic, for any combine.
//!
//! `array-to-loops` lowers a scatter or a keep-flag permute (seed 000 §2, seed 004 §1.1)
//! to a sequential `scf.for` nest over the source positions whose body updates the
//! destination at a computed index, in source order, because two sources may target one
//! element and the combine need not commute. [`by_owner`] runs such a nest on `owners`
//! threads without changing any result: the destination's first dimension is cut into
//! `owners` consecutive ranges; owner `w` runs the *whole* nest, in source order, and
//! performs only the updates whose target row falls in its range. Every element is then
//! updated by one thread, in the sequential order, so the result is the sequential one
//! bit for bit, whatever the combine (a subtraction, the last write winning); and no two
//! threads touch one element, so nothing is atomic and nothing contends.
//!
//! Each owner reads the whole source, so the form pays `owners` reads of the source (and
//! recomputations of what the nest computes before its updates) for spreading the
//! updates, which are random accesses; it gains where those dominate. [`analyse`]
//! states the conditions.

use super::accesses::{Accesses, load_indices, store_indices};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::Builder;
use melior::dialect::arith;
use mlir_sys::*;

/// A buffer the nest writes and the ops of one block that touch it, to be guarded.
struct Guarded {
    buffer: Val,
    /// The index of the buffer's first dimension at which every access is made.
    row: Val,
    /// The consecutive ops of one block from the first access of the buffer to the last.
    range: Vec<Op>,
}

/// Rewrites the `scf.for` nest `op` into an `scf.parallel` over `owners` (an `index`
/// value defined before `op`) whose iterations each run the nest with the updates of
/// other owners' rows skipped; returns the new loop, or why not (and changes nothing).
pub(crate) fn by_owner(b: &Builder, op: Op, owners: Val) -> Result<Op, String> {
    let guarded = analyse(op)?;
    let zero = b.constant_index(op, 0);
    let one = b.constant_index(op, 1);
    // Rows per owner of each buffer: ceil(rows / owners), before the nest.
    let per_owner: Vec<(Val, Val)> = guarded
        .iter()
        .map(|g| {
            let rows = b.memref_dim(op, g.buffer, 0);
            let rounded = b.binary(op, arith::addi, rows, owners);
            let rounded = b.binary(op, arith::subi, rounded, one);
            (rows, b.binary(op, arith::divui, rounded, owners))
        })
        .collect();
    let (parallel, w, end) = b.parallel_range(op, &[zero], &[owners], &[one], &[]);
    ir::move_before(op, end);
    for (g, (rows, chunk)) in guarded.iter().zip(&per_owner) {
        // Owner w's rows: lo .. min(lo + chunk, rows); `guard` tests row - lo < span
        // unsigned, which is lo <= row < lo + span.
        let lo = b.binary(op, arith::muli, w[0], *chunk);
        let hi = b.binary(op, arith::addi, lo, *chunk);
        let hi = b.binary(op, arith::minui, hi, *rows);
        let span = b.binary(op, arith::subi, hi, lo);
        let span = b.binary(op, arith::maxsi, span, zero);
        let first = g.range[0];
        let offset = b.binary(first, arith::subi, g.row, lo);
        let then_end = b.guard(first, &[offset], &[span], None);
        for o in &g.range {
            ir::move_before(*o, then_end);
        }
    }
    Ok(parallel)
}

/// Whether [`by_owner`] would rewrite `op` (or why not), changing nothing.
pub(crate) fn admits(op: Op) -> Result<(), String> {
    analyse(op).map(|_| ())
}

/// The buffers to guard, if `op` may run by owner. The conditions, and why each is needed:
///
/// 1. `op` is an `scf.for` without carried values, its body (nested ops included) only
///    pure ops, loads, stores and structured control flow ([`Accesses::of`]): any other
///    effect could order the iterations in a way this does not see.
/// 2. It writes at least one buffer, and every buffer it writes is a `memref.alloc`
///    defined before the nest and accessed through that value only
///    ([`Accesses::isolated`]): no other value read or written aliases it, so the
///    guarded updates are the only accesses of its elements.
/// 3. Every load and store of such a buffer uses the same index values (one element per
///    iteration, of row `row`), and they lie in one block; the ops from the first of them
///    to the last (the range) define values used only inside the range. Then skipping
///    the range in an iteration whose row another thread owns changes nothing else the
///    iteration computes, and the owner of the row performs exactly the sequential
///    nest's accesses of each of its elements, in the same order.
/// 4. The ranges of different buffers do not overlap, nor does one hold an op of the
///    other inside its ops (each gets its own guard, and no guard skips another
///    buffer's accesses).
///
/// Buffers the nest only reads are read by every owner; none of them is written
/// (condition 2: every written buffer is guarded), so all owners read the same values.
fn analyse(op: Op) -> Result<Vec<Guarded>, String> {
    if ir::op_name(op) != "scf.for" || !ir::results(op).is_empty() {
        return Err("it is not an scf.for without carried values".into());
    }
    let accesses = Accesses::of(ir::first_block(ir::region(op, 0)))?;
    let written = accesses.written();
    if written.is_empty() {
        return Err("it writes no buffer".into());
    }
    let mut guarded: Vec<Guarded> = Vec::new();
    for buffer in written {
        if !accesses.isolated(buffer) || !ir::defined_outside(buffer, op) {
            return Err("it writes a buffer that is not a fresh allocation accessed directly".into());
        }
        let mut touching: Vec<(Op, Vec<Val>)> =
            accesses.loads_of(buffer).into_iter().map(|l| (l, load_indices(l))).collect();
        touching.extend(accesses.stores_of(buffer).into_iter().map(|s| (s, store_indices(s))));
        let indices = touching[0].1.clone();
        let same_element = touching
            .iter()
            .all(|(_, i)| i.len() == indices.len() && i.iter().zip(&indices).all(|(a, b)| ir::same_value(*a, *b)));
        if indices.is_empty() || !same_element {
            return Err("it accesses a buffer it writes at more than one index per iteration".into());
        }
        let block = block_of(touching[0].0);
        if touching.iter().any(|(o, _)| block_of(*o).ptr != block.ptr) {
            return Err("the accesses of a buffer it writes are not in one block".into());
        }
        let ops = ir::block_ops(block);
        let position = |o: Op| ops.iter().position(|p| ir::same_op(*p, o)).expect("an op of its block");
        let first = touching.iter().map(|(o, _)| position(*o)).min().expect("one access at least");
        let last = touching.iter().map(|(o, _)| position(*o)).max().expect("one access at least");
        let range = ops[first..=last].to_vec();
        let inside = |user: Op| range.iter().any(|r| ir::same_op(*r, user) || ir::is_within(user, *r));
        let closed =
            range.iter().all(|r| ir::results(*r).into_iter().all(|v| ir::uses(v).iter().all(|(u, _)| inside(*u))));
        if !closed {
            return Err("a value computed between a buffer's accesses is used after them".into());
        }
        guarded.push(Guarded { buffer, row: indices[0], range });
    }
    // A range nested in an op of another range overlaps it too: the outer guard would
    // skip the inner buffer's updates of iterations whose outer row another owner has
    // (a map fused beside a scatter, written in place into the buffer the scatter's
    // sources are read from, once guarded the whole body).
    for (i, a) in guarded.iter().enumerate() {
        for other in &guarded[i + 1..] {
            let overlap =
                a.range.iter().any(|o| other.range.iter().any(|p| ir::is_within(*o, *p) || ir::is_within(*p, *o)));
            if overlap {
                return Err("the accesses of two buffers it writes interleave".into());
            }
        }
    }
    Ok(guarded)
}

fn block_of(op: Op) -> MlirBlock {
    // SAFETY: a live op in a block.
    unsafe { mlirOperationGetBlock(op) }
}
