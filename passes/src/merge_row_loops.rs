//! `array-merge-row-loops`: two parallel loops over the same rows, the first writing an
//! array row by row that only the second reads, each row in its own iteration, run as
//! one loop that keeps one row of that array at a time.
//!
//! Why: the optimal clustering is a partition into loop nests, each of which reads and
//! writes whole arrays (seed 000's model: a cluster is one traversal of its iteration
//! space). A row softmax is two such nests over the rows of a matrix: the row maxima
//! and the shifted exponentials, then the row sums and the quotients. They cannot be one
//! cluster (the exponentials would be read in two orders, seed 000 (12)), so the
//! exponentials go through memory: a whole array written, faulted in when fresh, and
//! read back. Both nests run row by row, though, and the second reads in row `r` only
//! what the first wrote in row `r`. Running the first nest's row `r` and then the
//! second's, row after row, the array is needed one row at a time, and that row stays
//! in the cache. XLA gets the same effect by recomputing the exponentials in a third
//! loop over the scores; this keeps the clustering's loop nests, each still one loop nest
//! inside the merged row loop, and only drops the array between them.
//!
//! What is rewritten: `L1` and `L2`, `scf.parallel` ops of one block with the same
//! bounds and steps (`reuse_buffers::same_size` on each), no reductions, `L2` after `L1`
//! with only arithmetic, `memref.dim` and `memref.alloc` between them, and `M`, a
//! `memref.alloc` of that block before `L1` with an identity layout and more dimensions
//! than the loops have induction variables (a row per iteration; loops over elements
//! themselves are the clustering's to fuse, not this pass's). `L1`'s body, then
//! `L2`'s (its induction variables renamed to `L1`'s), become the body of `L1`; `M`
//! becomes a buffer of its trailing dimensions allocated at the start of each iteration
//! (the deallocation pipeline, which runs after, frees it at the iteration's end), and
//! every access `M[ivs, rest]` becomes `row[rest]`; the ops between the loops move
//! before `L1`. The allocation per iteration costs more than a short row saves, so a row
//! must hold [`MIN_ROW_BYTES`] or more: a row of static size below it is not merged, and
//! for a row of dynamic size an `scf.if` on its size runs the merged loop, or copies of
//! `M`, `L1` and `L2` as they were.
//!
//! Why it is exact. Each condition is checked conservatively; any doubt keeps the loops:
//!
//! 1. Every use of `M` is a store inside `L1` or a load inside `L2` whose leading indices
//!    are exactly that loop's induction variables, or a `memref.dim` (replaced by the
//!    size `M` was allocated with). So iteration `r` of `L1` writes only row `r` of `M`
//!    and iteration `r` of `L2` reads only row `r`; no other op reads or writes `M`.
//! 2. The bodies hold only arithmetic, math, structured control flow (`scf.for`,
//!    `scf.if`, `scf.while`), loads, stores and `memref.dim`: no call, copy, allocation
//!    or nested parallel loop whose effects the check cannot see.
//! 3. Every buffer either body loads or stores is a function argument or a
//!    `memref.alloc` of the function (no view of one), and every buffer stored to is an
//!    allocation. Allocations alias nothing else, and arguments are never written, so two
//!    different buffer values are two different memories, or both are read-only.
//! 4. No buffer but `M` that `L1` stores to is loaded or stored by `L2`, and no buffer
//!    `L2` stores to is loaded or stored by `L1`.
//!
//! Originally every iteration of `L1` runs, then every iteration of `L2`; merged,
//! iteration `r` of `L1` is followed by iteration `r` of `L2`, and iterations run in any
//! order or at once. By 3 and 4, apart from `M` the two loops share only buffers neither
//! writes, so moving `L2`'s iteration `r` before `L1`'s iteration `r' ≠ r` changes
//! nothing either reads. By 1, the only values passing between them through `M` are row
//! `r`'s, written by `L1`'s iteration `r` and read by `L2`'s iteration `r`, which still
//! runs after it and reads the same values from the iteration's own row buffer. The ops
//! moved before `L1` are pure or allocate, and read nothing `L1` defines (it has no
//! results). `lit/lowering/merge-row-loops.mlir` checks the IR and runs the merged
//! program against the interpreter.

use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_remark};
use crate::ir::{self, Op, Val};
use crate::parallel_forms::accesses::{self, load_buffer, load_indices, store_buffer, store_indices};
use crate::reuse_buffers::same_size;
use crate::to_loops::builder::{Builder, replace_and_erase, ty, v, vs};
use array_dialect::types::element_bytes;
use melior::{
    Context,
    dialect::arith::{self, CmpiPredicate},
    ir::{Identifier, Location, OperationRef, attribute::DenseI32ArrayAttribute},
};
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-merge-row-loops",
    description: "After one-shot-bufferize: two scf.parallel loops over the same rows, the first storing an array row by row that only the second loads, each row in its own iteration, run as one loop that keeps one row of the array at a time (each merge gets a remark)",
    anchor: Some("func.func"),
    dependent_dialects: &[mlirGetDialectHandle__memref__],
    options: &[],
    state: None,
    run,
};

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    merge_row_loops(context, function.to_raw());
    Ok(())
}

/// The remark of a merge is `REMARK_START`, the merged array's type, `REMARK_ROW`, the
/// row buffer's type, `REMARK_END`.
pub const REMARK_START: &str = "array-merge-row-loops: two loop nests over the same rows run as one where a row holds 4096 bytes or more; an array of ";
pub const REMARK_ROW: &str = " between them is kept one row (";
pub const REMARK_END: &str = ") at a time";
/// Ends the remark of a merge whose rows are tested at run time: the code then holds both
/// the merged loop and copies of the two loops.
pub const REMARK_TESTED: &str = "; the two loops run as they were where rows are shorter (tested at run time)";

/// The fewest bytes a row must hold for the merged loop to run: each iteration allocates
/// and frees its row buffer (tens of nanoseconds with glibc's per-thread caches), which
/// a short row's write and read (a few nanoseconds for a few cache lines) do not repay;
/// 4096 bytes written and read again are about half a microsecond at 15 GB/s. A row of
/// static size below it is not merged; a row of dynamic size is tested at run time, the
/// two loops running as they were when it is shorter.
pub const MIN_ROW_BYTES: i64 = 4096;

/// Merges every pair of loops the module doc allows, one at a time, each found on the IR
/// the earlier merges left (a merged loop allocates its row buffer in its body, which
/// condition 2 refuses, so it merges no further); returns the type of each array a merge
/// keeps one row at a time (no longer written or read as a whole).
pub fn merge_row_loops(context: &Context, function: Op) -> Vec<MlirType> {
    let mut merged = Vec::new();
    let mut short_row_copies: Vec<Op> = Vec::new();
    while let Some(merge) = find_merge(function, &short_row_copies) {
        // SAFETY: a live op of the function.
        let location = unsafe { Location::from_raw(ir::location(merge.first)) };
        merged.push(ir::value_type(merge.array));
        let (row, copies) = merge.apply(context);
        let tested = if copies.is_empty() { "" } else { REMARK_TESTED };
        short_row_copies.extend(copies);
        let array = type_text(merged[merged.len() - 1]);
        let message = format!("{REMARK_START}{array}{REMARK_ROW}{}{REMARK_END}{tested}", type_text(row));
        emit_remark(location, &message);
    }
    merged
}

/// Two loops and the array between them, checked.
struct Merge {
    first: Op,
    second: Op,
    /// `M`: the `memref.alloc` result.
    array: Val,
}

/// The first pair of loops to merge, other than the copies kept for short rows.
fn find_merge(function: Op, short_row_copies: &[Op]) -> Option<Merge> {
    let copy = |op: Op| short_row_copies.iter().any(|c| ir::same_op(*c, op));
    for first in ir::collect(function, |op| ir::op_name(op) == "scf.parallel") {
        let Some(second) = next_parallel(first) else { continue };
        if copy(first) || copy(second) {
            continue;
        }
        if !same_iteration_space(first, second) {
            continue;
        }
        let (Some(first_accesses), Some(second_accesses)) = (body_accesses(first), body_accesses(second)) else {
            continue;
        };
        for array in first_accesses.stored() {
            if row_array(array, first, second)
                && independent_but_for(array, &first_accesses, &second_accesses)
                && second_accesses.loads.iter().any(|l| ir::same_value(load_buffer(*l), array))
            {
                return Some(Merge { first, second, array });
            }
        }
    }
    None
}

/// The next `scf.parallel` after `op` in its block when only movable ops lie between.
fn next_parallel(op: Op) -> Option<Op> {
    // SAFETY: a live op in a block.
    let block = unsafe { mlirOperationGetBlock(op) };
    let ops = ir::block_ops(block);
    let at = ops.iter().position(|o| ir::same_op(*o, op))?;
    for &next in &ops[at + 1..] {
        if ir::op_name(next) == "scf.parallel" {
            return Some(next);
        }
        if !movable(next) {
            return None;
        }
    }
    None
}

/// Pure arithmetic, a shape query or an allocation: safe to run earlier, before the
/// first loop (whose body defines nothing it could read).
fn movable(op: Op) -> bool {
    let name = ir::op_name(op);
    ir::region_count(op) == 0 && (name.starts_with("arith.") || name == "memref.dim" || name == "memref.alloc")
}

/// Both loops: the same induction variables over the same bounds and steps, no
/// reductions (operands are lower bounds, upper bounds and steps only, and the body ends
/// in an empty `scf.reduce`).
fn same_iteration_space(first: Op, second: Op) -> bool {
    let (a, b) = (ir::operands(first), ir::operands(second));
    let n = induction_variables(first).len();
    n > 0
        && induction_variables(second).len() == n
        && a.len() == 3 * n
        && b.len() == 3 * n
        && a.iter().zip(&b).all(|(x, y)| same_size(*x, *y))
        && [first, second].iter().all(|l| {
            let t = ir::terminator(body(*l));
            ir::op_name(t) == "scf.reduce" && ir::operands(t).is_empty()
        })
}

fn body(parallel: Op) -> MlirBlock {
    ir::first_block(ir::region(parallel, 0))
}

fn induction_variables(parallel: Op) -> Vec<Val> {
    ir::block_arguments(body(parallel))
}

/// The loads and stores of a loop body (condition 2 and 3 of the module doc), or `None`.
struct BodyAccesses {
    loads: Vec<Op>,
    stores: Vec<Op>,
}

impl BodyAccesses {
    fn stored(&self) -> Vec<Val> {
        distinct(self.stores.iter().map(|s| store_buffer(*s)))
    }

    fn loaded(&self) -> Vec<Val> {
        distinct(self.loads.iter().map(|l| load_buffer(*l)))
    }
}

fn distinct(values: impl Iterator<Item = Val>) -> Vec<Val> {
    let mut out: Vec<Val> = Vec::new();
    for value in values {
        if !out.iter().any(|o| ir::same_value(*o, value)) {
            out.push(value);
        }
    }
    out
}

fn body_accesses(parallel: Op) -> Option<BodyAccesses> {
    let mut ops = Vec::new();
    for top in ir::block_ops(body(parallel)) {
        ops.extend(ir::collect(top, |_| true));
    }
    // The ops the parallel forms allow in a loop body whose iterations run in parallel,
    // and the loop's own terminator.
    let allowed = |op: &Op| {
        accesses::allowed(*op) || (ir::op_name(*op) == "scf.reduce" && ir::same_op(*op, ir::terminator(body(parallel))))
    };
    if !ops.iter().all(allowed) {
        return None;
    }
    let named = |name: &str| ops.iter().copied().filter(|o| ir::op_name(*o) == name).collect::<Vec<_>>();
    let accesses = BodyAccesses { loads: named("memref.load"), stores: named("memref.store") };
    let plain = |b: &Val| is_argument(*b) || is_allocation(b);
    if !accesses.loaded().iter().all(plain) || !accesses.stored().iter().all(is_allocation) {
        return None;
    }
    Some(accesses)
}

fn is_allocation(buffer: &Val) -> bool {
    ir::defining_op(*buffer).is_some_and(|d| ir::op_name(d) == "memref.alloc")
}

/// A function argument: a block argument of a block that no op owns but the function.
fn is_argument(buffer: Val) -> bool {
    if ir::defining_op(buffer).is_some() {
        return false;
    }
    // SAFETY: a block argument of a live block.
    let owner = unsafe { mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(buffer)) };
    !owner.ptr.is_null() && ir::op_name(owner) == "func.func"
}

/// Condition 4: apart from `array`, neither loop touches what the other writes.
fn independent_but_for(array: Val, first: &BodyAccesses, second: &BodyAccesses) -> bool {
    let touched_by_second: Vec<Val> = second.loaded().into_iter().chain(second.stored()).collect();
    let touched_by_first: Vec<Val> = first.loaded().into_iter().chain(first.stored()).collect();
    let contains = |set: &[Val], x: Val| set.iter().any(|s| ir::same_value(*s, x));
    first.stored().into_iter().filter(|w| !ir::same_value(*w, array)).all(|w| !contains(&touched_by_second, w))
        && second.stored().into_iter().all(|w| !contains(&touched_by_first, w))
}

/// Condition 1: `array` is an allocation of the loops' block before `first`, with an
/// identity layout and more dimensions than the loops have induction variables (a row
/// per iteration: loops over the elements themselves are the clustering's to fuse),
/// used only by stores in `first` and loads in `second` at the iteration's
/// own row, and by `memref.dim` at constant indices.
fn row_array(array: Val, first: Op, second: Op) -> bool {
    let Some(alloc) = ir::defining_op(array) else { return false };
    // SAFETY: a live op in a block.
    let block = unsafe { mlirOperationGetBlock(first) };
    if ir::op_name(alloc) != "memref.alloc" || !ir::in_block(alloc, block) || !before(alloc, first) {
        return false;
    }
    let t = ir::value_type(array);
    // SAFETY: queries of a live memref type.
    let (rank, identity) =
        unsafe { (mlirShapedTypeGetRank(t), mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t))) };
    let n = induction_variables(first).len();
    if !identity || (rank as usize) <= n {
        return false;
    }
    // A row of static size must hold `MIN_ROW_BYTES` or more (one of dynamic size is
    // tested at run time).
    // SAFETY: queries of a live memref type.
    let (element, row_dims) = unsafe {
        (
            element_bytes(melior::ir::Type::from_raw(mlirShapedTypeGetElementType(t))),
            (n..rank as usize).map(|d| mlirShapedTypeGetDimSize(t, d as isize)).collect::<Vec<i64>>(),
        )
    };
    let Some(element) = element else { return false };
    // SAFETY: a plain query.
    if row_dims.iter().all(|d| !unsafe { mlirShapedTypeIsDynamicSize(*d) })
        && row_dims.iter().product::<i64>().saturating_mul(element as i64) < MIN_ROW_BYTES
    {
        return false;
    }
    let leading = |indices: &[Val], ivs: &[Val]| indices.iter().zip(ivs).all(|(i, iv)| ir::same_value(*i, *iv));
    ir::uses(array).into_iter().all(|(user, operand)| match (ir::op_name(user).as_str(), operand) {
        ("memref.store", 1) => ir::is_within(user, first) && leading(&store_indices(user), &induction_variables(first)),
        ("memref.load", 0) => ir::is_within(user, second) && leading(&load_indices(user), &induction_variables(second)),
        ("memref.dim", 0) => ir::int_constant(ir::operands(user)[1]).is_some(),
        _ => false,
    })
}

/// Whether `a` comes before `b` in their block.
fn before(a: Op, b: Op) -> bool {
    // SAFETY: a live op in a block.
    let block = unsafe { mlirOperationGetBlock(b) };
    let ops = ir::block_ops(block);
    let at = |x: Op| ops.iter().position(|o| ir::same_op(*o, x));
    matches!((at(a), at(b)), (Some(i), Some(j)) if i < j)
}

impl Merge {
    /// Rewrites the two loops; returns the row buffer's type and the copies of the loops
    /// kept for short rows (none for a row of static size).
    fn apply(self, context: &Context) -> (MlirType, Vec<Op>) {
        let Merge { first, second, array } = self;
        // SAFETY: live ops.
        let b = Builder { context, location: unsafe { Location::from_raw(ir::location(first)) } };
        // The ops between the loops run before the first.
        // SAFETY: a live op in a block.
        let block = unsafe { mlirOperationGetBlock(first) };
        let ops = ir::block_ops(block);
        let from = ops.iter().position(|o| ir::same_op(*o, first)).expect("in its block") + 1;
        let to = ops.iter().position(|o| ir::same_op(*o, second)).expect("in its block");
        for op in &ops[from..to] {
            ir::move_before(*op, first);
        }
        let alloc = ir::defining_op(array).expect("an allocation");
        let t = ir::value_type(array);
        // SAFETY: queries of a live memref type.
        let shape: Vec<i64> =
            unsafe { (0..mlirShapedTypeGetRank(t) as isize).map(|d| mlirShapedTypeGetDimSize(t, d)).collect() };
        // SAFETY: a plain query.
        let dynamic = |d: usize| unsafe { mlirShapedTypeIsDynamicSize(shape[d]) };
        // The size operand of each dynamic dimension.
        let sizes = ir::operands(alloc);
        let size_of = |d: usize| sizes[(0..d).filter(|k| dynamic(*k)).count()];
        // `memref.dim` of the array: the size it was allocated with.
        for (user, _) in ir::uses(array) {
            if ir::op_name(user) != "memref.dim" {
                continue;
            }
            let d = ir::int_constant(ir::operands(user)[1]).expect("checked constant") as usize;
            let size = if dynamic(d) { size_of(d) } else { b.constant_index(user, shape[d]) };
            // SAFETY: the dim's one result is replaced, and no handle to it is kept.
            unsafe { replace_and_erase(user, &[size]) };
        }
        // The row buffer, allocated at the start of each iteration of the first loop.
        let n = induction_variables(first).len();
        let row_shape = &shape[n..];
        // SAFETY: building a type of the context from the array's element type.
        let row_type = unsafe {
            mlirMemRefTypeContiguousGet(
                mlirShapedTypeGetElementType(t),
                row_shape.len() as isize,
                row_shape.as_ptr(),
                mlirMemRefTypeGetMemorySpace(t),
            )
        };
        let row_sizes: Vec<Val> = (n..shape.len()).filter(|d| dynamic(*d)).map(size_of).collect();
        let mut short_row_copies = Vec::new();
        if !row_sizes.is_empty() {
            // A row of dynamic size: the merged loop where it holds `MIN_ROW_BYTES` or more,
            // else copies of the two loops and of the array as they were.
            // SAFETY: the array's element type, a live type.
            let element = element_bytes(unsafe { melior::ir::Type::from_raw(mlirShapedTypeGetElementType(t)) })
                .expect("checked by row_array");
            let mut row_bytes = b.constant_index(first, element as i64);
            for (d, &size) in shape.iter().enumerate().skip(n) {
                let extent = if dynamic(d) { size_of(d) } else { b.constant_index(first, size) };
                row_bytes = b.binary(first, arith::muli, row_bytes, extent);
            }
            let least = b.constant_index(first, MIN_ROW_BYTES);
            let long_rows = b.put1(first, arith::cmpi(context, CmpiPredicate::Uge, v(row_bytes), v(least), b.location));
            let (_, then_yield, else_yield) = b.if_else(first, long_rows, &[]);
            // SAFETY: clones of live ops, linked right away before the else branch's end;
            // their operands are defined before the `scf.if` (the array's sizes, the
            // loops' bounds, the ops moved before the first loop).
            let copies: Vec<Op> = [alloc, first, second]
                .iter()
                .map(|op| unsafe {
                    let copy = mlirOperationClone(*op);
                    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(else_yield), else_yield, copy);
                    copy
                })
                .collect();
            let array_copy = ir::results(copies[0])[0];
            ir::replace_uses_where(array, array_copy, |user| {
                ir::is_within(user, copies[1]) || ir::is_within(user, copies[2])
            });
            ir::move_before(first, then_yield);
            ir::move_before(second, then_yield);
            short_row_copies = copies[1..].to_vec();
        }
        let start = ir::block_ops(body(first))[0];
        let row = ir::results(
            b.put(
                start,
                b.op("memref.alloc")
                    .add_operands(&vs(&row_sizes))
                    .add_attributes(&[(
                        Identifier::new(context, "operandSegmentSizes"),
                        DenseI32ArrayAttribute::new(context, &[row_sizes.len() as i32, 0]).into(),
                    )])
                    .add_results(&[ty(row_type)])
                    .build()
                    .expect("valid memref.alloc"),
            ),
        )[0];
        // Every access to the array goes to the row.
        for (user, _) in ir::uses(array) {
            let operands = ir::operands(user);
            match ir::op_name(user).as_str() {
                "memref.store" => {
                    let mut new = vec![operands[0], row];
                    new.extend_from_slice(&operands[2 + n..]);
                    ir::set_operands(user, &new);
                }
                _ => {
                    let mut new = vec![row];
                    new.extend_from_slice(&operands[1 + n..]);
                    ir::set_operands(user, &new);
                }
            }
        }
        // The second body after the first, on the first's induction variables.
        for (theirs, ours) in induction_variables(second).into_iter().zip(induction_variables(first)) {
            ir::replace_uses_where(theirs, ours, |_| true);
        }
        let end = ir::terminator(body(first));
        let moved = ir::block_ops(body(second));
        for op in &moved[..moved.len() - 1] {
            ir::move_before(*op, end);
        }
        // SAFETY: the second loop's body is now its terminator alone and it has no
        // results; the array has no uses left.
        unsafe {
            ir::erase(second);
            ir::erase(alloc);
        }
        (row_type, short_row_copies)
    }
}

fn type_text(t: MlirType) -> String {
    // SAFETY: printing a live type.
    unsafe { melior::ir::Type::from_raw(t) }.to_string()
}
