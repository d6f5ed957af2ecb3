//! Sequential loops that carry a regroupable combine, as three parallel phases.
//!
//! `array-to-loops` lowers a scan (seed 000 §2: `scanl`/`scanr`, inclusive or exclusive),
//! a filter's compaction and an expand's placement (seed 004) to one `scf.for` carrying
//! an accumulator: `acc' = acc ⊕ x(k)`, with `x(k)` computed from iteration `k` alone, and
//! the body storing `acc` or `acc'` (a scan's output), or storing at position `acc` (a
//! filter's kept element, `⊕` = `+`, `x` = 1 when kept) or at `acc .. acc + x` (an
//! expand's segment). When `⊕` may be regrouped (associative; [`regroupable`]), the loop
//! runs as the classic three phases over chunks of consecutive iterations:
//!
//! 1. **Partials** (parallel over chunks): each chunk runs the loop's body from the
//!    combine's identity, without its stores: the chunk's `x(lo) ⊕ … ⊕ x(hi-1)`.
//! 2. **Offsets** (one thread, over the chunks only): an exclusive scan of the partials
//!    from the loop's initial value, `init ⊕ P0 ⊕ … ⊕ P(c-1)` for chunk `c`, and the total,
//!    the loop's result.
//! 3. **Rescan** (parallel over chunks): each chunk runs the original body, stores
//!    included, from its offset: by associativity every iteration sees the accumulator the
//!    sequential loop gives it, so it computes and stores the same values.
//!
//! Phase 3 runs chunks concurrently, so it is sound only when the iterations of different
//! chunks do not interact through memory; [`Analysis::of`] lists the conditions and why
//! each suffices. A loop that writes nothing (a total, such as an expand's output size)
//! needs phases 1 and 2 only.
//!
//! A carried value may also be a **fold of the scanned values** (seed 002's normalise2
//! fuses a sum of prefix sums into the scan's loop): its `x` depends on the scans'
//! accumulators, so phase 1 cannot compute its partial, but nothing else reads it. Phase
//! 3, where every chunk starts from its exact offsets, then folds it per chunk from the
//! identity and stores the chunk's value, and a fourth phase (one thread, over the chunks)
//! combines those in chunk order from the fold's initial value.

use super::accesses::{Accesses, store_buffer, store_indices};
use super::{Chunking, Combiner, alloc, dealloc, trip_count};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::Builder;
use melior::{dialect::arith, ir::OperationRef};
use mlir_sys::*;
use std::collections::HashSet;

/// How a carried value is updated in one iteration.
#[derive(Clone, Copy)]
enum Update {
    /// `acc' = acc ⊕ x` (either operand order).
    Always { x: Val },
    /// `acc' = scf.if p { acc ⊕ x } else { acc }` (or the branches swapped): `x` is added
    /// only where `p` holds; `kept_region` is the region of the `scf.if` that combines.
    Guarded { if_op: Op, kept_region: isize, x: Val },
}

/// Where a store of the loop body writes, in terms of the iteration.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    /// At a one-to-one function of the loop's induction variable `k` (`k`, `k ± c`,
    /// `c - k`): the index value, so that every store of a buffer must use the same one
    /// (`k` and `c - k` together would meet).
    Iteration(usize),
    /// At carried value `j` (a filter's compaction).
    Carried(usize),
    /// At carried value `j` plus the index of an inner loop over `0..x` (an expand).
    Segment(usize),
}

/// A loop that the three phases may run.
struct Analysis {
    combiners: Vec<Combiner>,
    /// Whether the body stores anything (phase 3 is needed).
    writes: bool,
    /// Per carried value: whether it is a fold over values that depend on the other
    /// carried values (a sum of prefix sums), rather than a scan of independent ones.
    folded: Vec<bool>,
}

/// The loops of the three phases, in order, where `op` stood.
pub(crate) struct Phases {
    /// Phase 1, `scf.parallel` over the chunks.
    pub partials: Op,
    /// Phase 2, `scf.for` over the chunks.
    pub offsets: Op,
    /// Phase 3, `scf.parallel` over the chunks (`op` itself, inside); none when `op`
    /// stores nothing and folds nothing.
    pub rescan: Option<Op>,
    /// Phase 4, `scf.for` over the chunks combining the folds' partials; none without
    /// folds.
    pub folds: Option<Op>,
}

/// Runs `scf.for` `op` as the three phases when [`Analysis::of`] admits it; or says why
/// not (and changes nothing).
pub(crate) fn three_phase(b: &Builder, op: Op, chunking: Chunking) -> Result<Phases, String> {
    let analysis = Analysis::of(op)?;
    let operands = ir::operands(op);
    let (lower, upper, step, inits) = (operands[0], operands[1], operands[2], operands[3..].to_vec());
    let types: Vec<MlirType> = inits.iter().map(|i| ir::value_type(*i)).collect();

    // The chunks: `chunk` iterations each (the last may have fewer), `chunks` of them.
    let trips = trip_count(b, op, [lower, upper, step]);
    let most = b.constant_index(op, chunking.max_chunks);
    let least = b.constant_index(op, chunking.min_chunk);
    let chunk = ceil_div(b, op, trips, most);
    let chunk = b.binary(op, arith::maxui, chunk, least);
    let chunks = ceil_div(b, op, trips, chunk);
    let span = b.binary(op, arith::muli, chunk, step);
    // Iterations lower + (c·chunk + i)·step for i < chunk, below upper.
    let chunk_bounds = |anchor: Op, c: Val| {
        let offset = b.binary(anchor, arith::muli, c, span);
        let first = b.binary(anchor, arith::addi, lower, offset);
        let end = b.binary(anchor, arith::addi, first, span);
        let end = b.binary(anchor, arith::minsi, end, upper);
        (first, end)
    };
    let partials: Vec<Val> = types.iter().map(|t| alloc(b, op, *t, Some(chunks))).collect();
    let scanned: Vec<usize> = (0..types.len()).filter(|k| !analysis.folded[*k]).collect();
    let folded: Vec<usize> = (0..types.len()).filter(|k| analysis.folded[*k]).collect();
    let zero = b.constant_index(op, 0);
    let one = b.constant_index(op, 1);

    // Phase 1: each chunk's partial, from the identity, without the stores.
    let (phase1, c, end) = b.parallel_range(op, &[zero], &[chunks], &[one], &[]);
    let (first, last) = chunk_bounds(end, c[0]);
    let identities: Vec<Val> = analysis.combiners.iter().zip(&types).map(|(k, t)| k.identity(b, end, *t)).collect();
    // SAFETY: cloning a live op; the clone is inserted into the new loop's block at once.
    let copy = unsafe {
        let copy = mlirOperationClone(op);
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(end), end, copy);
        copy
    };
    let mut copy_operands = vec![first, last, step];
    copy_operands.extend_from_slice(&identities);
    ir::set_operands(copy, &copy_operands);
    for store in ir::collect(copy, |o| ir::op_name(o) == "memref.store") {
        // SAFETY: a store has no results.
        unsafe { ir::erase(store) };
    }
    // The folds' values here start from the identity, not from their chunk's offsets:
    // they are not stored (phase 3 computes them).
    let results = ir::results(copy);
    for k in &scanned {
        b.store(end, results[*k], partials[*k], &c);
    }

    // Phase 2: the exclusive scan of the scans' partials from the initial values, in
    // place; the totals are the loop's results.
    let scanned_inits: Vec<Val> = scanned.iter().map(|k| inits[*k]).collect();
    let (phase2, c, accumulators, yield_op) = b.for_range(op, [zero, chunks, one], &scanned_inits);
    let mut next = Vec::new();
    for (a, k) in scanned.iter().enumerate() {
        let p = b.load(yield_op, partials[*k], &[c]);
        b.store(yield_op, accumulators[a], partials[*k], &[c]);
        next.push(analysis.combiners[*k].apply(b, yield_op, accumulators[a], p));
    }
    ir::set_operands(yield_op, &next);
    let op_results = ir::results(op);
    for (k, total) in scanned.iter().zip(ir::results(phase2)) {
        ir::replace_uses_where(op_results[*k], total, |_| true);
    }

    // Phase 3: each chunk reruns the loop, stores included, from its scans' offsets and
    // its folds' identities; a fold's value at the chunk's end is the chunk's partial.
    let phase3 = (analysis.writes || !folded.is_empty()).then(|| {
        let (phase3, c, end) = b.parallel_range(op, &[zero], &[chunks], &[one], &[]);
        let (first, last) = chunk_bounds(end, c[0]);
        let mut loop_operands = vec![first, last, step];
        for (k, t) in types.iter().enumerate() {
            loop_operands.push(match analysis.folded[k] {
                true => analysis.combiners[k].identity(b, end, *t),
                false => b.load(end, partials[k], &c),
            });
        }
        ir::move_before(op, end);
        ir::set_operands(op, &loop_operands);
        for k in &folded {
            b.store(end, op_results[*k], partials[*k], &c);
        }
        phase3
    });

    // Phase 4: the folds' partials combined in chunk order from the initial values.
    let phase4 = (!folded.is_empty()).then(|| {
        let anchor = ir::next_in_block(phase3.expect("folds need phase 3"));
        let folded_inits: Vec<Val> = folded.iter().map(|k| inits[*k]).collect();
        let (phase4, c, accumulators, yield_op) = b.for_range(anchor, [zero, chunks, one], &folded_inits);
        let next: Vec<Val> = folded
            .iter()
            .enumerate()
            .map(|(a, k)| {
                let p = b.load(yield_op, partials[*k], &[c]);
                analysis.combiners[*k].apply(b, yield_op, accumulators[a], p)
            })
            .collect();
        ir::set_operands(yield_op, &next);
        let rescan = phase3.expect("folds need phase 3");
        for (k, total) in folded.iter().zip(ir::results(phase4)) {
            ir::replace_uses_where(op_results[*k], total, |user| !ir::is_within(user, rescan));
        }
        phase4
    });
    let after = ir::next_in_block(phase4.or(phase3).unwrap_or(phase2));
    for partial in &partials {
        dealloc(b, after, *partial);
    }
    if phase3.is_none() {
        // SAFETY: its results were replaced by the totals.
        unsafe { ir::erase(op) };
    }
    Ok(Phases { partials: phase1, offsets: phase2, rescan: phase3, folds: phase4 })
}

fn ceil_div(b: &Builder, anchor: Op, n: Val, d: Val) -> Val {
    let one = b.constant_index(anchor, 1);
    let rounded = b.binary(anchor, arith::addi, n, d);
    let rounded = b.binary(anchor, arith::subi, rounded, one);
    b.binary(anchor, arith::divui, rounded, d)
}

impl Analysis {
    /// The analysis of `op`, if the three phases compute what it computes:
    ///
    /// 1. `op` is an `scf.for` with carried values, its body only pure ops, loads and
    ///    stores ([`Accesses::of`]).
    /// 2. Every carried value `acc` is updated as `acc ⊕ x` or `if p { acc ⊕ x } else
    ///    { acc }` ([`Update`]) with `⊕` regroupable, and either
    ///    * `x`, `p` do not depend on any carried value (`tainted`): then a chunk's effect
    ///      on `acc` is `⊕` of its `x`s, which phase 1 computes from the identity, and
    ///      phase 3 sees the sequential accumulators (associativity); or
    ///    * `acc` is only folded ([`only_folded`]: nothing but its own update reads it),
    ///      and at least one carried value is of the first kind: its `x`, `p` depend only
    ///      on values of the first kind (any other carried value is read by nothing
    ///      else), which phase 3 has exact, so phase 3 computes each chunk's `⊕` of its
    ///      `x`s and phase 4 combines them in order (associativity).
    ///
    ///    No store can use a folded value (it is read by its update alone), so the
    ///    positions below are those of values of the first kind.
    /// 3. Every buffer stored to is a `memref.alloc` accessed through that value only
    ///    (no view of it and no other buffer can alias it), is never loaded in the loop
    ///    (phase 1 drops the stores, so a load could see other data; and no iteration
    ///    reads another's writes), and is written at one kind of [`Position`], which makes
    ///    the positions of different iterations disjoint:
    ///    * `Iteration`: one index value, a one-to-one function of `k` (`k`, `k ± c`,
    ///      `c - k`), for every store of the buffer;
    ///    * `Carried(j)`: `acc_j`, inside the combining branch of its `Guarded` update with
    ///      `⊕ = addi` and `x = 1`: the iterations that write it see distinct `acc_j`
    ///      (each such iteration adds 1, the others 0);
    ///    * `Segment(j)`: `acc_j + t` with `t` the index of an inner loop over `0..x`,
    ///      step 1, for the `Always` update `acc_j + x` of `acc_j`, `x ≥ 0` provably
    ///      (`non_negative`): iteration `k` writes `[acc_j, acc_j + x)`, and these ranges
    ///      follow one another without overlap.
    fn of(op: Op) -> Result<Analysis, String> {
        if ir::op_name(op) != "scf.for" || ir::results(op).is_empty() || ir::int_attribute(op, "unsignedCmp").is_some()
        {
            return Err("it is not an scf.for carrying values".into());
        }
        let body = ir::first_block(ir::region(op, 0));
        let arguments = ir::block_arguments(body);
        let (iv, carried) = (arguments[0], &arguments[1..]);
        let yielded = ir::operands(ir::terminator(body));
        let accesses = Accesses::of(body)?;
        let tainted = tainted(carried, &accesses.ops);
        let is_tainted = |v: Val| tainted.contains(&(v.ptr as usize));
        let mut combiners = Vec::new();
        let mut updates = Vec::new();
        let mut folded = Vec::new();
        let refusal = "a carried value is not updated by a regroupable combine with a value independent of the carried ones (or is not a fold of such values)";
        for (acc, y) in carried.iter().zip(&yielded) {
            let (combiner, update, depends) = update_of(*acc, *y, &is_tainted).ok_or(refusal)?;
            if depends && !only_folded(*acc, *y, update, ir::terminator(body)) {
                return Err(refusal.into());
            }
            combiners.push(combiner);
            updates.push(update);
            folded.push(depends);
        }
        if folded.iter().all(|f| *f) {
            return Err(refusal.into());
        }

        let mut positions: Vec<(Val, Position)> = Vec::new();
        for store in &accesses.stores {
            let (buffer, indices) = (store_buffer(*store), store_indices(*store));
            if !accesses.isolated(buffer) {
                return Err("it writes a buffer that is not a fresh allocation accessed directly".into());
            }
            if !accesses.loads_of(buffer).is_empty() || indices.len() != 1 {
                return Err("it reads a buffer it writes, or writes a buffer of rank other than 1".into());
            }
            let position = position_of(*store, indices[0], iv, carried, &combiners, &updates, op).ok_or(
                "a store's position is not provably distinct between iterations (k, an accumulator that adds 1, or a segment of a non-negative length)",
            )?;
            match positions.iter().find(|(b, _)| ir::same_value(*b, buffer)) {
                Some((_, p)) if *p != position => {
                    return Err("it writes a buffer at two kinds of position".into());
                }
                Some(_) => {}
                None => positions.push((buffer, position)),
            }
        }
        Ok(Analysis { combiners, writes: !accesses.stores.is_empty(), folded })
    }
}

/// The values of `ops` that depend on the `carried` values: results of an op with a
/// dependent operand, and (conservatively) every result and block argument of an op whose
/// regions use one, or yield one.
pub(super) fn tainted(carried: &[Val], ops: &[Op]) -> HashSet<usize> {
    let mut tainted: HashSet<usize> = carried.iter().map(|v| v.ptr as usize).collect();
    loop {
        let before = tainted.len();
        for op in ops {
            let uses_tainted = ir::collect(*op, |_| true)
                .into_iter()
                .any(|inner| ir::operands(inner).iter().any(|v| tainted.contains(&(v.ptr as usize))));
            if uses_tainted {
                tainted.extend(ir::results(*op).iter().map(|v| v.ptr as usize));
                for r in 0..ir::region_count(*op) {
                    for block in ir::region_blocks(ir::region(*op, r as isize)) {
                        tainted.extend(ir::block_arguments(block).iter().map(|v| v.ptr as usize));
                    }
                }
            }
        }
        if tainted.len() == before {
            return tainted;
        }
    }
}

/// The combine and the form of the update `y` of carried value `acc` ([`Update`]), and
/// whether its `x` (or its guard `p`) depends on carried values.
fn update_of(acc: Val, y: Val, is_tainted: &impl Fn(Val) -> bool) -> Option<(Combiner, Update, bool)> {
    let combine_of = |value: Val| -> Option<(Combiner, Val)> {
        let d = ir::defining_op(value)?;
        let combiner = regroupable(d)?;
        let x = match ir::operands(d)[..] {
            [a, x] | [x, a] if ir::same_value(a, acc) && !ir::same_value(x, acc) => x,
            _ => return None,
        };
        Some((combiner, x))
    };
    if let Some((combiner, x)) = combine_of(y) {
        return Some((combiner, Update::Always { x }, is_tainted(x)));
    }
    let if_op = ir::defining_op(y)?;
    if ir::op_name(if_op) != "scf.if" {
        return None;
    }
    let result = ir::results(if_op).iter().position(|r| ir::same_value(*r, y))?;
    let yielded = |region: isize| -> Option<Val> {
        let blocks = ir::region_blocks(ir::region(if_op, region));
        Some(ir::operands(ir::terminator(*blocks.first()?))[result])
    };
    let (then_value, else_value) = (yielded(0)?, yielded(1)?);
    let (kept_region, (combiner, x)) = if ir::same_value(else_value, acc) {
        (0, combine_of(then_value)?)
    } else if ir::same_value(then_value, acc) {
        (1, combine_of(else_value)?)
    } else {
        return None;
    };
    let depends = is_tainted(x) || is_tainted(ir::operands(if_op)[0]);
    Some((combiner, Update::Guarded { if_op, kept_region, x }, depends))
}

/// Whether carried value `acc`, updated to `y` by `update`, is only folded: `acc` is read
/// by its own combine alone (and, for a guarded update, passed on unchanged by the
/// branch that does not combine), the combine's result only becomes `y`, and `y` is only
/// yielded to the next iteration (`terminator`, the loop body's `scf.yield`). Then no
/// other value of any iteration depends on it, so it may be computed per chunk from the
/// identity and the chunks' values combined in order afterwards (associativity), while
/// what it folds may depend on the scans' accumulators, which phase 3 has exact.
fn only_folded(acc: Val, y: Val, update: Update, terminator: Op) -> bool {
    let used_only_by = |v: Val, allowed: &dyn Fn(Op) -> bool| ir::uses(v).iter().all(|(user, _)| allowed(*user));
    let Some(combine) = (match update {
        Update::Always { .. } => ir::defining_op(y),
        Update::Guarded { if_op, kept_region, .. } => {
            let blocks = ir::region_blocks(ir::region(if_op, kept_region));
            let result = ir::results(if_op).iter().position(|r| ir::same_value(*r, y));
            result.and_then(|r| blocks.first().and_then(|b| ir::defining_op(ir::operands(ir::terminator(*b))[r])))
        }
    }) else {
        return false;
    };
    let yield_of_if = |user: Op| match update {
        Update::Guarded { if_op, .. } => {
            ir::op_name(user) == "scf.yield" && ir::parent_op(user).is_some_and(|p| ir::same_op(p, if_op))
        }
        Update::Always { .. } => false,
    };
    let y_only_yielded = ir::uses(y).len() == 1 && used_only_by(y, &|user| ir::same_op(user, terminator));
    let combine_only_updates = match update {
        Update::Always { .. } => true,
        Update::Guarded { .. } => used_only_by(ir::results(combine)[0], &yield_of_if),
    };
    y_only_yielded && combine_only_updates && used_only_by(acc, &|user| ir::same_op(user, combine) || yield_of_if(user))
}

/// The combine of `op` if it may be regrouped: an integer op of
/// [`array_dialect::view::INTEGER_REGROUPABLE`] or a float minimum or maximum of
/// [`array_dialect::view::EXACT_FLOAT_REGROUPABLE`] (bit for bit), or a float add or
/// multiply carrying `fastmath<reassoc>` (the program's permission).
pub(crate) fn regroupable(op: Op) -> Option<Combiner> {
    let name = ir::op_name(op);
    let integer = array_dialect::view::INTEGER_REGROUPABLE
        .iter()
        .chain(array_dialect::view::EXACT_FLOAT_REGROUPABLE)
        .find(|c| **c == name);
    let float = array_dialect::view::REASSOCIABLE_FLOAT.iter().find(|c| **c == name).filter(|_| {
        // SAFETY: a live op of the function being rewritten.
        array_dialect::view::allows_reassociation(&unsafe { OperationRef::from_raw(op) })
    });
    let known = integer.or(float)?;
    (ir::operands(op).len() == 2).then_some(Combiner { op: known })
}

/// Where `store` (in the body of `op`) writes, given its single `index` ([`Position`]).
fn position_of(
    store: Op,
    index: Val,
    iv: Val,
    carried: &[Val],
    combiners: &[Combiner],
    updates: &[Update],
    op: Op,
) -> Option<Position> {
    if injective_in(index, iv, op) {
        return Some(Position::Iteration(index.ptr as usize));
    }
    let carried_index = |v: Val| carried.iter().position(|c| ir::same_value(*c, v));
    let adds = |j: usize| combiners[j].op == "arith.addi";
    if let Some(j) = carried_index(index) {
        let Update::Guarded { if_op, kept_region, x } = updates[j] else { return None };
        let inside_kept = ir::region_blocks(ir::region(if_op, kept_region))
            .into_iter()
            .any(|block| ir::block_ops(block).into_iter().any(|o| ir::is_within(store, o)));
        return (adds(j) && ir::int_constant(x) == Some(1) && inside_kept).then_some(Position::Carried(j));
    }
    let sum = ir::defining_op(index).filter(|d| ir::op_name(*d) == "arith.addi")?;
    let (j, t) = match ir::operands(sum)[..] {
        [a, t] if carried_index(a).is_some() => (carried_index(a)?, t),
        [t, a] if carried_index(a).is_some() => (carried_index(a)?, t),
        _ => return None,
    };
    let Update::Always { x } = updates[j] else { return None };
    // `t` is the induction variable of a loop around the store, inside `op`, over `0..x`.
    // SAFETY: a block argument (checked) of a live block.
    let inner = unsafe {
        if !mlirValueIsABlockArgument(t) {
            return None;
        }
        mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(t))
    };
    let over_segment = ir::op_name(inner) == "scf.for"
        && !ir::same_op(inner, op)
        && ir::is_within(inner, op)
        && ir::is_within(store, inner)
        && ir::same_value(ir::block_arguments(ir::first_block(ir::region(inner, 0)))[0], t)
        && ir::int_constant(ir::operands(inner)[0]) == Some(0)
        && ir::int_constant(ir::operands(inner)[2]) == Some(1)
        && (ir::same_value(ir::operands(inner)[1], x)
            || ir::int_constant(ir::operands(inner)[1]).is_some_and(|u| ir::int_constant(x) == Some(u)))
        && ir::defined_outside(x, inner);
    (adds(j) && over_segment && non_negative(x)).then_some(Position::Segment(j))
}

/// Whether `index` is `iv`, `iv + c`, `c + iv`, `iv - c` or `c - iv` for a `c` defined
/// outside `op`: a one-to-one function of the iteration (a right scan visits `n-1-k`).
pub(super) fn injective_in(index: Val, iv: Val, op: Op) -> bool {
    if ir::same_value(index, iv) {
        return true;
    }
    let Some(d) = ir::defining_op(index) else { return false };
    let name = ir::op_name(d);
    let operands = ir::operands(d);
    (name == "arith.addi" || name == "arith.subi")
        && operands.len() == 2
        && ((ir::same_value(operands[0], iv) && ir::defined_outside(operands[1], op))
            || (ir::same_value(operands[1], iv) && ir::defined_outside(operands[0], op)))
}

/// Whether `v` is provably at least 0 (as a signed integer): a constant that is, or
/// `max(_, c)` with such a constant `c` (`arith.maxsi`).
fn non_negative(v: Val) -> bool {
    if ir::int_constant(v).is_some_and(|c| c >= 0) {
        return true;
    }
    ir::defining_op(v).is_some_and(|d| {
        ir::op_name(d) == "arith.maxsi" && ir::operands(d).iter().any(|o| ir::int_constant(*o).is_some_and(|c| c >= 0))
    })
}
