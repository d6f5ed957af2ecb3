//! Loop nests that fold in order: their per-iteration values in parallel, the fold after.
//!
//! A fold whose combine may not be regrouped (a float sum without `fastmath<reassoc>`)
//! must combine its values in the program's order, so `scans::three_phase` refuses it and
//! the loop that carries it stays sequential. When every iteration's value is computed
//! from that iteration alone, only the combining is ordered, not the computing. Seed 003's
//! heat-equation step fuses a whole grid update into one nest: the outer loop over rows
//! computes a row of the new grid and the row's sum of changes (an inner loop), and carries
//! the float sum of those row sums, which left every row to one thread.
//!
//! [`values_then_fold`] runs such a loop as two loops:
//!
//! 1. **Values** (`scf.parallel` over the iterations): each iteration runs the body, its
//!    stores included, and stores the value `x(k)` it would combine into the carried
//!    value in a buffer of one element per iteration;
//! 2. **Fold** (`scf.for`, the loop itself, reduced to its combines): `acc = acc ⊕ x(k)`
//!    for k in the loop's order, the values loaded from that buffer.
//!
//! The fold applies the same combine to the same values in the same order, so its results
//! are the sequential loop's bit for bit, for any combine. It costs one stored and loaded
//! element per iteration, which pays only when an iteration does more than compute one
//! element: [`values_then_fold`] takes loops whose body holds a loop (a nest), and leaves a
//! flat fold over elements (seed 003's Leibniz π) in order.

use super::accesses::{Accesses, store_indices};
use super::scans::{injective_in, tainted};
use super::{alloc, dealloc, trip_count};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::Builder;
use melior::dialect::arith;

/// How one carried value is updated: `acc' = combine(acc, x)` (either operand order).
struct Update {
    combine: Op,
    x: Val,
}

/// Rewrites `scf.for` `op` into the two loops of the module doc when [`updates_of`]
/// admits it; returns the values' `scf.parallel`, or why not (changing nothing): `None`
/// when `op` is no loop nest carrying values, which this form is not meant for.
pub(crate) fn values_then_fold(b: &Builder, op: Op) -> Result<Op, Option<String>> {
    let updates = updates_of(op)?;
    let operands = ir::operands(op);
    let (lower, upper, step) = (operands[0], operands[1], operands[2]);
    let body = ir::first_block(ir::region(op, 0));
    let iv = ir::block_arguments(body)[0];
    let trips = trip_count(b, op, [lower, upper, step]);
    let values: Vec<Val> = updates.iter().map(|u| alloc(b, op, ir::value_type(u.x), Some(trips))).collect();
    // Iteration iv is number (iv - lower) / step of the loop (step > 0, as in scf.for).
    let number = |anchor: Op, iv: Val| {
        let offset = b.binary(anchor, arith::subi, iv, lower);
        b.binary(anchor, arith::divui, offset, step)
    };

    // 1. The values: every op of the body but the combines and the terminator moves into
    //    a parallel loop over the same iterations, which also stores each x.
    let (parallel, parallel_iv, end) = b.parallel_range(op, &[lower], &[upper], &[step], &[]);
    let parallel_iv = parallel_iv[0];
    let terminator = ir::terminator(body);
    for o in ir::block_ops(body) {
        if !ir::same_op(o, terminator) && !updates.iter().any(|u| ir::same_op(u.combine, o)) {
            ir::move_before(o, end);
        }
    }
    ir::replace_uses_where(iv, parallel_iv, |user| ir::is_within(user, parallel));
    let k = number(end, parallel_iv);
    for (u, buffer) in updates.iter().zip(&values) {
        let x = if ir::same_value(u.x, iv) { parallel_iv } else { u.x };
        b.store(end, x, *buffer, &[k]);
    }

    // 2. The fold: the loop keeps its combines, each now reading its x from the buffer.
    let first_combine = ir::block_ops(body)[0];
    let k = number(first_combine, iv);
    for (u, buffer) in updates.iter().zip(&values) {
        let x = b.load(first_combine, *buffer, &[k]);
        ir::replace_uses_where(u.x, x, |user| ir::same_op(user, u.combine));
    }
    let after = ir::next_in_block(op);
    for buffer in &values {
        dealloc(b, after, *buffer);
    }
    Ok(parallel)
}

/// The updates of the carried values of `op`, if the two loops compute what it computes:
///
/// 1. `op` is an `scf.for` carrying values whose body holds a loop (the module doc says
///    why), and only pure ops, loads and stores ([`Accesses::of`]).
/// 2. Every carried value `acc` is read only by one op of the body's own block with two
///    operands, `acc` and an `x` that depends on no carried value ([`tainted`]), and one
///    result, which is only yielded as `acc`'s next value: so the body's other ops never
///    see a carried value (they may run in any order and apart from the combines), each
///    iteration's `x` is the one the sequential loop combines, and the combines, kept in
///    the loop, combine the same values in the same order.
/// 3. Every buffer stored to is a `memref.alloc` reached through that value only
///    ([`Accesses::isolated`]), never loaded in the loop, and every store to it has one
///    first index, a one-to-one function of the induction variable ([`injective_in`]):
///    different iterations write disjoint parts of it and no iteration reads what
///    another writes, so running the iterations concurrently leaves memory as the
///    sequential loop does.
fn updates_of(op: Op) -> Result<Vec<Update>, Option<String>> {
    if ir::op_name(op) != "scf.for" || ir::results(op).is_empty() || ir::int_attribute(op, "unsignedCmp").is_some() {
        return Err(None);
    }
    let body = ir::first_block(ir::region(op, 0));
    let arguments = ir::block_arguments(body);
    let (iv, carried) = (arguments[0], &arguments[1..]);
    let nested = ir::block_ops(body)
        .into_iter()
        .flat_map(|top| ir::collect(top, |o| matches!(ir::op_name(o).as_str(), "scf.for" | "scf.while")))
        .next()
        .is_some();
    if !nested {
        return Err(None);
    }
    let accesses = Accesses::of(body)?;
    let terminator = ir::terminator(body);
    let yielded = ir::operands(terminator);
    let tainted = tainted(carried, &accesses.ops);
    let refusal = "a carried value is read by more than one combine of a value independent of the carried ones";
    let mut updates = Vec::new();
    for (acc, y) in carried.iter().zip(&yielded) {
        let Some(combine) = super::sole_update(op, *acc, *y) else { return Err(Some(refusal.into())) };
        let x = match ir::operands(combine)[..] {
            [a, x] | [x, a] if ir::same_value(a, *acc) && !ir::same_value(x, *acc) => x,
            _ => return Err(Some(refusal.into())),
        };
        if tainted.contains(&(x.ptr as usize)) {
            return Err(Some(refusal.into()));
        }
        updates.push(Update { combine, x });
    }
    for buffer in accesses.written() {
        let stores = accesses.stores_of(buffer);
        let first_index = store_indices(stores[0]).first().copied();
        let disjoint = first_index.is_some_and(|i| {
            injective_in(i, iv, op)
                && stores.iter().all(|s| store_indices(*s).first().is_some_and(|j| ir::same_value(*j, i)))
        });
        if !accesses.isolated(buffer) || !accesses.loads_of(buffer).is_empty() || !disjoint {
            return Err(Some(
                "its iterations may write the same elements or read what they write (each buffer it stores to must be a fresh allocation, not read in it, written at one first index that is a one-to-one function of the iteration)".into(),
            ));
        }
    }
    Ok(updates)
}
