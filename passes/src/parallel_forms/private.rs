//! Scatter nests in parallel on private copies of the destination.
//!
//! A scatter whose combine is commutative and associative (a histogram's `+`) may update
//! its destination in any order (`atomics`), but atomic updates serialise the core's
//! memory accesses and contend when many sources target few elements, and running by
//! owner (`owners`) reads the whole source once per thread. [`private_copies`] gives each
//! of `copies` threads a private copy of every updated buffer instead:
//!
//! 1. thread `t` fills its copy with the combine's identity, then runs the nest over its
//!    own consecutive share of the outermost loop's iterations, updating its copy with
//!    plain loads and stores;
//! 2. every element of the destination is then combined with the `copies` private
//!    elements at its position (`scf.parallel` over the elements).
//!
//! **Why it computes the sequential result.** Condition 3 of `atomics`' analysis (the
//! conditions under which a nest may run with atomic updates) holds for the nest: every
//! buffer it writes is either written at the nest's own induction variables (distinct
//! iterations, distinct elements: the shares write disjoint elements of the real buffer)
//! or changed only by one read-modify-write `B[I] = B[I] ⊕ x` with ⊕ commutative and
//! associative. After step 1 the copy of thread `t` holds, at every position, the
//! identity combined with the values its share sent there; after step 2 the destination
//! holds its initial value combined with all of them, which is the sequential value up
//! to the order of ⊕, i.e. exactly for integers. A float sum is reassociated, as with
//! atomic updates, so by default (`scatters=exact`, [`exact_private_copies`]) the form
//! is used only for combines that regroup exactly or that the program lets regroup
//! (`fastmath<reassoc>`); `scatters=private` takes every commutative combine with an
//! identity. An overwrite with a constant (`atomics`' third kind) has no identity to
//! start a copy from, and such a nest is refused.
//!
//! **When.** The copies cost filling and merging `copies · m` elements (m: the updated
//! buffers' elements) against the nest's `N` iterations, so the form is taken at run time
//! only when `8 · copies · m ≤ N`, which keeps that overhead under a quarter of the
//! updates' own accesses (each reads and writes an element); otherwise the nest runs in
//! order, unchanged. A histogram of few bins over many elements is the case it is for.
//!
//! **How many copies.** A number fixed when compiling ([`Copies::Fixed`]), or as many as
//! OpenMP has threads when the program runs ([`Copies::AtRunTime`]:
//! `omp_get_max_threads()`, the team size of the parallel regions that follow, at least
//! 1), which `fusion_codegen`'s OpenMP pipeline uses: a program compiled on one machine
//! and run on another, or under another `OMP_NUM_THREADS`, then neither leaves threads
//! idle nor makes copies no thread uses. Any count gives the same result (step 2 combines
//! every copy).

use super::Combiner;
use super::accesses::load_indices;
use super::atomics;
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::{Builder, ty, v};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::{Identifier, attribute::FlatSymbolRefAttribute};
use mlir_sys::*;

/// How many private copies a nest gets (module doc).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Copies {
    /// This many, fixed when compiling.
    Fixed(i64),
    /// `omp_get_max_threads()` (at least 1) when the nest runs; the module must declare
    /// `func.func private @omp_get_max_threads() -> i32`.
    AtRunTime,
}

/// The OpenMP runtime function the private copies call when counted at run time
/// (`copies-at-run-time=true`).
pub const MAX_THREADS_FUNCTION: &str = "omp_get_max_threads";

/// The default scatter form (`scatters=exact`): [`private_copies`] for `copies` ≥ 2
/// threads where every update's combine may be regrouped without changing the value
/// ([`super::scans::regroupable`]: an integer combine or a float minimum or maximum, bit
/// for bit, or a float add or multiply carrying `fastmath<reassoc>`, the program's
/// permission); otherwise why the nest stays in source order (and nothing changes).
///
/// **Why it computes the program's value.** `private_copies` computes the sequential
/// result up to the grouping of ⊕ (see the module doc); for these combines any grouping
/// gives the sequential value, or is the one the program allowed. On one thread the
/// copies would only add work, so the nest stays as it is.
pub(crate) fn exact_private_copies(b: &Builder, op: Op, copies: Copies) -> Result<Op, String> {
    let (nest, updates) = atomics::analyse(op)?;
    // An overwrite (no combine) is refused by `copies_of` with its own reason.
    if let Some(combine) = updates.iter().filter_map(|u| u.combine).find(|c| super::scans::regroupable(*c).is_none()) {
        return Err(format!(
            "a scatter, in source order: its combine '{}' may not be regrouped (integer combines, float minimum and maximum, and float add and multiply marked fastmath<reassoc> may; scatters=owners, atomic or private run it in parallel on request)",
            ir::op_name(combine)
        ));
    }
    if let Copies::Fixed(count) = copies
        && count < 2
    {
        return Err("a scatter, in source order: one thread, where private copies would only add work".into());
    }
    // Counted at run time, one thread runs the nest in order (the test of `copies_of`).
    copies_of(b, op, nest, updates, copies, true)
}

/// Rewrites the `scf.for` nest `op` into `scf.if (8 · copies · m ≤ N) { the private-copy
/// form } else { op }`, for `copies` threads; returns the `scf.if`, or why not (and
/// changes nothing).
pub(crate) fn private_copies(b: &Builder, op: Op, copies: Copies) -> Result<Op, String> {
    let (nest, updates) = atomics::analyse(op)?;
    copies_of(b, op, nest, updates, copies, false)
}

/// [`private_copies`] of the nest `op` that [`atomics::analyse`] found to be `nest` with
/// `updates`; with `two_or_more`, the test also asks for two copies or more.
fn copies_of(
    b: &Builder,
    op: Op,
    nest: atomics::Nest,
    updates: Vec<atomics::Update>,
    copies: Copies,
    two_or_more: bool,
) -> Result<Op, String> {
    if updates.iter().any(|u| u.combine.is_none()) {
        return Err("it overwrites elements with a constant, which has no identity to start private copies from".into());
    }
    let combiners: Vec<Combiner> = updates
        .iter()
        .map(|u| u.combine.and_then(combiner_of))
        .collect::<Option<_>>()
        .ok_or("its combine has no identity known here")?;
    let buffers: Vec<Val> = updates.iter().map(|u| ir::operands(u.store)[1]).collect();
    let copies = match copies {
        Copies::Fixed(count) => b.constant_index(op, count),
        Copies::AtRunTime => threads_at_run_time(b, op),
    };

    // The test, before the nest: N iterations against the copies' elements.
    let mut trips = b.constant_index(op, 1);
    for d in 0..nest.loops.len() {
        let count = super::trip_count(b, op, [nest.lower[d], nest.upper[d], nest.step[d]]);
        trips = b.binary(op, arith::muli, trips, count);
    }
    let extents: Vec<Vec<Val>> = buffers.iter().map(|buffer| dims(b, op, *buffer)).collect();
    let lengths: Vec<Val> = extents.iter().map(|e| product(b, op, e)).collect();
    let mut elements = b.constant_index(op, 0);
    for length in &lengths {
        elements = b.binary(op, arith::addi, elements, *length);
    }
    let gaps = b.constant_index(op, 2 * ROW_GAP);
    let rows: Vec<Val> = lengths.iter().map(|length| b.binary(op, arith::addi, *length, gaps)).collect();
    // 8 · copies · m ≤ N as m ≤ ⌊⌊N / 8⌋ / copies⌋ (equivalent for whole numbers and
    // copies > 0), which no product can overflow.
    let eight = b.constant_index(op, 8);
    let budget = b.binary(op, arith::divui, trips, eight);
    let budget = b.binary(op, arith::divui, budget, copies);
    let mut worth = b.put1(op, arith::cmpi(b.context, CmpiPredicate::Ule, v(elements), v(budget), b.location));
    if two_or_more {
        let two = b.constant_index(op, 2);
        let several = b.put1(op, arith::cmpi(b.context, CmpiPredicate::Uge, v(copies), v(two), b.location));
        worth = b.binary(op, arith::andi, worth, several);
    }
    let (check, then_yield, else_yield) = b.if_else(op, worth, &[]);

    // The private copies: one row per thread, each buffer's elements in row-major order
    // between two runs of `ROW_GAP` unused elements, so that the elements of two
    // threads' rows, or of a row and whatever the heap put next to the copy, are at least
    // 64 bytes apart and never share a cache line. (Without the gaps, at the histogram's
    // bins -8..7 the last bins of one row and the first of the next shared a line, and two
    // threads ran slower than one.)
    let private: Vec<Val> = buffers
        .iter()
        .zip(&rows)
        .map(|(buffer, row)| {
            super::alloc_of_type(b, then_yield, dynamic_memref(element_type(*buffer), 2), &[copies, *row])
        })
        .collect();

    // Step 1: each thread fills its copies and runs its share of the nest on them.
    let zero = b.constant_index(then_yield, 0);
    let one = b.constant_index(then_yield, 1);
    let (_, thread, end) = b.parallel_range(then_yield, &[zero], &[copies], &[one], &[]);
    let t = thread[0];
    for ((copy, row), combiner) in private.iter().zip(&rows).zip(&combiners) {
        let identity = combiner.identity(b, end, element_type(*copy));
        let (_, j, _, fill_end) = b.for_loop(end, *row, &[]);
        b.store(fill_end, identity, *copy, &[t, j]);
    }
    let share = {
        let count = super::trip_count(b, end, [nest.lower[0], nest.upper[0], nest.step[0]]);
        let rounded = b.binary(end, arith::addi, count, copies);
        let rounded = b.binary(end, arith::subi, rounded, one);
        b.binary(end, arith::divui, rounded, copies)
    };
    let span = b.binary(end, arith::muli, share, nest.step[0]);
    let lower = b.binary(end, arith::muli, t, span);
    let lower = b.binary(end, arith::addi, nest.lower[0], lower);
    let upper = b.binary(end, arith::addi, lower, span);
    let upper = b.binary(end, arith::minsi, upper, nest.upper[0]);
    // SAFETY: a clone of a live op, linked right away before the thread loop's end.
    let share_nest = unsafe {
        let clone = mlirOperationClone(op);
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(end), end, clone);
        clone
    };
    let mut bounds = ir::operands(share_nest);
    bounds[0] = lower;
    bounds[1] = upper;
    ir::set_operands(share_nest, &bounds);
    let (_, share_updates) = atomics::analyse(share_nest).expect("a clone of an admitted nest is admitted");
    for update in &share_updates {
        let buffer = ir::operands(update.store)[1];
        let k = buffers.iter().position(|x| ir::same_value(*x, buffer)).expect("the clone updates the same buffers");
        let load = update.load.expect("a combine reads the old element");
        // The load and the store of a read-modify-write use the same index values
        // (`atomics`' analysis), in one block, the load first: one position serves both.
        let at = linear(b, load, &load_indices(load), &extents[k]);
        let old = b.load(load, private[k], &[t, at]);
        ir::replace_uses_where(ir::results(load)[0], old, |_| true);
        b.store(update.store, ir::operands(update.store)[0], private[k], &[t, at]);
        // SAFETY: the load's only use was rewired; the store has no results.
        unsafe {
            ir::erase(load);
            ir::erase(update.store);
        }
    }

    // Step 2: every element of each destination combined with its private elements.
    for ((buffer, copy), (e, combiner)) in buffers.iter().zip(&private).zip(extents.iter().zip(&combiners)) {
        let (ivs, element_end) = b.parallel(then_yield, e);
        let initial = b.load(element_end, *buffer, &ivs);
        let at = linear(b, element_end, &ivs, e);
        let (for_op, k, accumulators, k_yield) = b.for_loop(element_end, copies, &[initial]);
        let partial = b.load(k_yield, *copy, &[k, at]);
        let combined = combiner.apply(b, k_yield, accumulators[0], partial);
        ir::set_operands(k_yield, &[combined]);
        b.store(element_end, ir::results(for_op)[0], *buffer, &ivs);
        super::dealloc(b, then_yield, *copy);
    }

    ir::move_before(op, else_yield);
    Ok(check)
}

/// `max(omp_get_max_threads(), 1)` as an index, before `anchor`.
fn threads_at_run_time(b: &Builder, anchor: Op) -> Val {
    // SAFETY: a builtin type of the builder's live context.
    let i32_type = ty(unsafe { mlirIntegerTypeGet(b.context.to_raw(), 32) });
    let call = b.put1(
        anchor,
        b.op("func.call")
            .add_attributes(&[(
                Identifier::new(b.context, "callee"),
                FlatSymbolRefAttribute::new(b.context, MAX_THREADS_FUNCTION).into(),
            )])
            .add_results(&[i32_type])
            .build()
            .expect("valid func.call"),
    );
    let threads = b.put1(anchor, arith::index_cast(v(call), b.index(), b.location));
    let one = b.constant_index(anchor, 1);
    b.binary(anchor, arith::maxsi, threads, one)
}

/// The extents of every dimension of the buffer `buffer`, before `anchor` (defined
/// before the nest, so every use inside it sees them).
fn dims(b: &Builder, anchor: Op, buffer: Val) -> Vec<Val> {
    // SAFETY: a live memref value's type.
    let rank = unsafe { mlirShapedTypeGetRank(ir::value_type(buffer)) } as usize;
    (0..rank).map(|d| b.memref_dim(anchor, buffer, d)).collect()
}

fn element_type(buffer: Val) -> MlirType {
    // SAFETY: a live memref value's type.
    unsafe { mlirShapedTypeGetElementType(ir::value_type(buffer)) }
}

/// `memref<?x…x?xelement>` of `rank` dynamic dimensions, identity layout.
fn dynamic_memref(element: MlirType, rank: usize) -> MlirType {
    let shape = vec![i64::MIN; rank]; // ShapedType::kDynamic
    // SAFETY: building a type of the element's context.
    unsafe { mlirMemRefTypeContiguousGet(element, rank as isize, shape.as_ptr(), mlirAttributeGetNull()) }
}

/// Unused elements before and after the elements of each thread's row of a private copy:
/// 64, at least 64 bytes whatever the element type (one byte or more), so no cache line
/// holds elements of two rows, or of a row and another allocation.
const ROW_GAP: i64 = 64;

/// The product of `extents` (1 for none), before `anchor`.
fn product(b: &Builder, anchor: Op, extents: &[Val]) -> Val {
    let mut p = b.constant_index(anchor, 1);
    for extent in extents {
        p = b.binary(anchor, arith::muli, p, *extent);
    }
    p
}

/// The position in a private row of the element at `indices` of a buffer of `extents`:
/// `ROW_GAP` plus its row-major position `((i₀ d₁ + i₁) d₂ + i₂) …` (0 for rank 0),
/// before `anchor`.
fn linear(b: &Builder, anchor: Op, indices: &[Val], extents: &[Val]) -> Val {
    let mut at = b.constant_index(anchor, 0);
    for (index, extent) in indices.iter().zip(extents) {
        at = b.binary(anchor, arith::muli, at, *extent);
        at = b.binary(anchor, arith::addi, at, *index);
    }
    let gap = b.constant_index(anchor, ROW_GAP);
    b.binary(anchor, arith::addi, at, gap)
}

/// The [`Combiner`] of a combine op, if it is one whose identity is known.
fn combiner_of(combine: Op) -> Option<Combiner> {
    let name = ir::op_name(combine);
    super::FLOAT_COMBINERS
        .iter()
        .chain(array_dialect::view::INTEGER_REGROUPABLE.iter())
        .copied()
        .find(|known| *known == name)
        .map(|op| Combiner { op })
}
