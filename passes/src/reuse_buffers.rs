//! `array-reuse-buffers`: a loop nest that writes a new buffer while reading, element by
//! element, an array nothing reads afterwards writes into that array's buffer instead.
//!
//! Why: every cluster of the optimal clustering materializes its outputs into buffers of
//! its own, so a program whose clusters pass arrays on (a row softmax: the shifted
//! exponentials, then their quotients by the row sums) holds one buffer per intermediate
//! array, although each dies in the loop nest that reads it. XLA's buffer assignment and
//! IREE's in-place bufferization give such an output the dead input's memory. It saves
//! memory, and time where fresh memory is slow: a fresh 80 MB buffer must be faulted in
//! and zeroed by the kernel on its first write (README, "Against JAX/XLA and NumPy").
//! The bytes the loops move do not change.
//!
//! The pass runs on buffers, between `one-shot-bufferize` and the deallocation pipeline
//! (`fusion_codegen`'s CPU pipelines), and replaces a `memref.alloc` `%out` by an earlier
//! `memref.alloc` `%in` of the same block when it can prove that no load can tell the
//! difference. Each condition is checked conservatively; any doubt keeps `%out`:
//!
//! 1. Same buffer shape: the two allocations have one memref type (element type, static
//!    sizes, layout, memory space) and the same alignment, and each dynamic size of
//!    `%out` is provably the one of `%in` (`same_size`: one SSA value, equal constants,
//!    or `memref.dim` of one buffer at equal constant indices, looked through
//!    allocations).
//! 2. `%in` never escapes: every use of it, anywhere, is a `memref.load`, a
//!    `memref.store` into it or a `memref.dim`. So no other name (a view, a cast, a call's
//!    result, a copy's target, a returned value) reaches its memory.
//! 3. Let L be the op of the block that holds the first use of `%out` other than a
//!    `memref.dim` (the loop nest that computes it). Before L, `%out` is only measured;
//!    after L, `%in` is not used at all; inside L, `%in` is only loaded (and measured)
//!    and `%out` only stored into (and measured). So `%in`'s contents matter only to the
//!    loads inside L, and `%out`'s only to what comes after L.
//! 4. Inside L, every element of `%in` is loaded before the element of `%out` at the
//!    same indices is stored, and never after (`check_writer`). L is checked as a
//!    nest of *pinning* loops: a loop (`scf.for`, `scf.parallel`) whose induction
//!    variables are, at the next index positions, exactly the indices of every load of
//!    `%in` and every store to `%out` inside it. Distinct iterations of such a loop have
//!    distinct induction values (a positive step), so they touch disjoint slices of both
//!    buffers, which are the same slices because the shapes are equal (1): one
//!    iteration's stores cannot reach another iteration's loads, in any order of
//!    iterations, in parallel too. Within one iteration (one execution of the loop's
//!    body block), the ops run once each, in order: at most one op of the block (the
//!    writer) may contain stores to `%out`, and no op after it may contain loads of
//!    `%in`. The writer is a store, an `scf.if` (each branch checked the same way), or a
//!    pinning loop, checked again one level down. Every load of `%in` is then before
//!    every store in its slice, so it reads what it read when the buffers were distinct.
//!
//! Under 1–4, running L with `%out` = `%in` loads the same values and stores the same
//! values at the same places; after L, `%in`'s old contents are never read (3), so its
//! buffer holds exactly what `%out` would hold. The allocation of `%out` is erased, and
//! the deallocation pipeline, which runs next, frees the one buffer where the last of
//! its uses ends.
//!
//! With `parallel-forms=true` (the OpenMP pipeline, where `array-parallel-forms` runs
//! next) a nest is also left alone when a loop on its writer's path is an `scf.for` that
//! carries values (a scan's or a filter's loop): `array-parallel-forms` runs such a loop
//! in three phases only when it loads no buffer it stores to, and a shared buffer would
//! keep it sequential.
//!
//! A reused buffer can be reused again by a later nest (a chain of element-wise
//! clusters) as long as 2 still holds: once `%out`'s uses (a return, a call) have become
//! `%in`'s, it usually does not.

use crate::bridge::{PassDefinition, PassFailed, PassOption, PassOptions, emit_error};
use crate::ir::{self, Op, Val};
use melior::ir::operation::OperationLike;
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-reuse-buffers",
    description: "After one-shot-bufferize: a loop nest that writes a new buffer while reading element by element a buffer of the same shape that nothing uses afterwards writes into that buffer instead (its allocation is erased)",
    anchor: Some("func.func"),
    dependent_dialects: &[],
    options: &[PassOption {
        name: "parallel-forms",
        description: "array-parallel-forms runs later: leave alone nests whose stores are inside an scf.for that carries values (a scan's loop), which it runs in three phases only with distinct buffers",
        default: || "false".into(),
    }],
    state: None,
    run,
};

fn run(_: &melior::Context, function: melior::ir::OperationRef, options: &PassOptions) -> Result<(), PassFailed> {
    let parallel_forms = match options.get("parallel-forms") {
        "true" | "1" => true,
        "false" | "0" => false,
        other => {
            emit_error(
                function.location(),
                &format!("array-reuse-buffers: option 'parallel-forms' must be true or false, got '{other}'"),
            );
            return Err(PassFailed);
        }
    };
    reuse_buffers(function.to_raw(), parallel_forms);
    Ok(())
}

/// Applies the module's rewrite to every block of `function`; returns how many
/// allocations were erased. `parallel_forms`: leave alone nests whose stores are inside an
/// `scf.for` that carries values (module doc).
pub fn reuse_buffers(function: Op, parallel_forms: bool) -> usize {
    let mut blocks = Vec::new();
    for op in ir::collect(function, |op| ir::region_count(op) > 0) {
        for r in 0..ir::region_count(op) {
            blocks.extend(ir::region_blocks(ir::region(op, r as isize)));
        }
    }
    blocks.into_iter().map(|block| reuse_in_block(block, parallel_forms)).sum()
}

fn reuse_in_block(block: MlirBlock, parallel_forms: bool) -> usize {
    let mut erased = 0;
    let mut allocs: Vec<Op> = Vec::new();
    for op in ir::block_ops(block) {
        if ir::op_name(op) != "memref.alloc" {
            continue;
        }
        let reused = allocs.iter().rev().position(|&candidate| reusable(candidate, op, block, parallel_forms).is_ok());
        match reused {
            Some(from_end) => {
                let target = allocs[allocs.len() - 1 - from_end];
                let (out, into) = (ir::results(op)[0], ir::results(target)[0]);
                ir::replace_uses_where(out, into, |_| true);
                // SAFETY: the allocation has no uses left.
                unsafe { ir::erase(op) };
                erased += 1;
            }
            None => allocs.push(op),
        }
    }
    erased
}

/// Why `out_alloc` may not write into the buffer of `in_alloc` (conditions 1–4).
fn reusable(in_alloc: Op, out_alloc: Op, block: MlirBlock, parallel_forms: bool) -> Result<(), String> {
    let (input, out) = (ir::results(in_alloc)[0], ir::results(out_alloc)[0]);
    // 1. One shape.
    if !ir::same_type(ir::value_type(input), ir::value_type(out)) {
        return Err("different types".into());
    }
    if ir::int_attribute_inherent(in_alloc, "alignment") != ir::int_attribute_inherent(out_alloc, "alignment") {
        return Err("different alignments".into());
    }
    let (in_sizes, out_sizes) = (ir::operands(in_alloc), ir::operands(out_alloc));
    if in_sizes.len() != out_sizes.len() || !in_sizes.iter().zip(&out_sizes).all(|(a, b)| same_size(*a, *b)) {
        return Err("sizes not provably equal".into());
    }
    // 2. `%in` never escapes.
    let in_uses = ir::uses(input);
    for &(user, at) in &in_uses {
        if !matches!(access(user, at), Some(Access::Load | Access::Store | Access::Dim)) {
            return Err(format!("'{}' uses the input buffer", ir::op_name(user)));
        }
    }
    // 3. The nest L, and where each buffer is used around it.
    let ops = ir::block_ops(block);
    let position = |user: Op| -> Option<usize> {
        let top = ancestor_in(user, block)?;
        ops.iter().position(|o| ir::same_op(*o, top))
    };
    let out_uses = ir::uses(out);
    let mut nest: Option<usize> = None;
    for &(user, at) in &out_uses {
        if access(user, at) != Some(Access::Dim) {
            let p = position(user).ok_or("a use outside the block")?;
            nest = Some(nest.map_or(p, |n| n.min(p)));
        }
    }
    let Some(nest) = nest else { return Err("the new buffer is never used".into()) };
    for &(user, at) in &out_uses {
        if position(user) == Some(nest) && !matches!(access(user, at), Some(Access::Store | Access::Dim)) {
            return Err(format!("'{}' uses the new buffer inside its loop nest", ir::op_name(user)));
        }
    }
    for &(user, at) in &in_uses {
        match position(user) {
            Some(p) if p < nest => {}
            Some(p) if p == nest && matches!(access(user, at), Some(Access::Load | Access::Dim)) => {}
            _ => return Err(format!("'{}' uses the input buffer in or after the loop nest", ir::op_name(user))),
        }
    }
    // 4. Loads before stores, slice by slice.
    let buffers = Buffers { input, out, parallel_forms };
    check_writer(ops[nest], 0, &buffers)
}

struct Buffers {
    input: Val,
    out: Val,
    /// Refuse writers inside an `scf.for` that carries values (module doc).
    parallel_forms: bool,
}

impl Buffers {
    /// The index operands of `op` if it is a load of the input or a store to the output.
    fn indices(&self, op: Op) -> Option<Vec<Val>> {
        let operands = ir::operands(op);
        match ir::op_name(op).as_str() {
            "memref.load" if ir::same_value(operands[0], self.input) => Some(operands[1..].to_vec()),
            "memref.store" if ir::same_value(operands[1], self.out) => Some(operands[2..].to_vec()),
            _ => None,
        }
    }

    fn loads_input(&self, op: Op) -> bool {
        !ir::collect(op, |o| ir::op_name(o) == "memref.load" && self.indices(o).is_some()).is_empty()
    }

    fn stores_out(&self, op: Op) -> bool {
        !ir::collect(op, |o| ir::op_name(o) == "memref.store" && self.indices(o).is_some()).is_empty()
    }
}

/// Condition 4 for the ops of one block, run once each in order, in an iteration whose
/// first `depth` indices are pinned: at most one op stores to the output, and no op after
/// it loads the input.
fn check_block(block: MlirBlock, depth: usize, buffers: &Buffers) -> Result<(), String> {
    let ops = ir::block_ops(block);
    let writers: Vec<usize> = (0..ops.len()).filter(|&i| buffers.stores_out(ops[i])).collect();
    let Some(&writer) = writers.first() else { return Ok(()) };
    if writers.len() > 1 {
        return Err("two ops of one block store to the new buffer".into());
    }
    if ops[writer + 1..].iter().any(|&op| buffers.loads_input(op)) {
        return Err("the input buffer is loaded after a store to the new buffer".into());
    }
    check_writer(ops[writer], depth, buffers)
}

/// Condition 4 for the op of a block that stores to the output.
fn check_writer(op: Op, depth: usize, buffers: &Buffers) -> Result<(), String> {
    let name = ir::op_name(op);
    match name.as_str() {
        "memref.store" => Ok(()),
        "scf.if" => {
            for r in 0..ir::region_count(op) {
                for block in ir::region_blocks(ir::region(op, r as isize)) {
                    check_block(block, depth, buffers)?;
                }
            }
            Ok(())
        }
        "scf.for" | "scf.parallel" => {
            let body = ir::first_block(ir::region(op, 0));
            let arguments = ir::block_arguments(body);
            // scf.for's block arguments are the induction variable, then the carried values.
            let ivs = if name == "scf.for" { &arguments[..1] } else { &arguments[..] };
            if buffers.parallel_forms && name == "scf.for" && !ir::results(op).is_empty() {
                return Err("a loop that carries values, which array-parallel-forms may run in three phases".into());
            }
            if !positive_steps(op, &name, ivs.len()) {
                return Err(format!("'{name}' with a step not known to be positive"));
            }
            for access in ir::collect(op, |o| matches!(ir::op_name(o).as_str(), "memref.load" | "memref.store")) {
                let Some(indices) = buffers.indices(access) else { continue };
                let pinned = indices.len() >= depth + ivs.len()
                    && ivs.iter().enumerate().all(|(t, iv)| ir::same_value(indices[depth + t], *iv));
                if !pinned {
                    return Err(format!("an access inside '{name}' is not indexed by its induction variables"));
                }
            }
            check_block(body, depth + ivs.len(), buffers)
        }
        other => Err(format!("'{other}' stores to the new buffer")),
    }
}

/// Whether every step of the loop is a positive constant (then distinct iterations have
/// distinct induction values; scf.for and scf.parallel require positive steps anyway,
/// this only refuses what it cannot see).
fn positive_steps(op: Op, name: &str, ivs: usize) -> bool {
    let operands = ir::operands(op);
    let steps: &[Val] = if name == "scf.for" {
        &operands[2..3]
    } else {
        // scf.parallel: lower bounds, upper bounds, steps, then inits.
        &operands[2 * ivs..3 * ivs]
    };
    steps.iter().all(|s| ir::int_constant(*s).is_some_and(|c| c > 0))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Access {
    Load,
    Store,
    Dim,
}

/// How `user` uses the buffer that is its operand `at`, if it only loads from it, stores
/// into it or measures it.
fn access(user: Op, at: isize) -> Option<Access> {
    match (ir::op_name(user).as_str(), at) {
        ("memref.load", 0) => Some(Access::Load),
        ("memref.store", 1) => Some(Access::Store),
        ("memref.dim", 0) => Some(Access::Dim),
        _ => None,
    }
}

/// The op of `block` that is `op` or contains it.
fn ancestor_in(op: Op, block: MlirBlock) -> Option<Op> {
    let mut current = op;
    while !ir::in_block(current, block) {
        current = ir::parent_op(current)?;
    }
    Some(current)
}

/// Whether two index values are provably equal: one value, equal constants, or the same
/// dimension of one buffer (an allocation's dynamic dimension is the size it was given).
pub(crate) fn same_size(a: Val, b: Val) -> bool {
    let (a, b) = (resolve_size(a), resolve_size(b));
    if ir::same_value(a, b) {
        return true;
    }
    if let (Some(x), Some(y)) = (ir::int_constant(a), ir::int_constant(b)) {
        return x == y;
    }
    match (dim_of(a), dim_of(b)) {
        (Some((m, i)), Some((n, j))) => ir::same_value(m, n) && i == j,
        _ => false,
    }
}

/// `memref.dim %m, c` as (`%m`, c), for a constant c.
fn dim_of(v: Val) -> Option<(Val, i64)> {
    let op = ir::defining_op(v)?;
    if ir::op_name(op) != "memref.dim" {
        return None;
    }
    let operands = ir::operands(op);
    Some((operands[0], ir::int_constant(operands[1])?))
}

/// Looks through `memref.dim` of an allocation to the size operand it was given.
fn resolve_size(v: Val) -> Val {
    let mut v = v;
    for _ in 0..16 {
        let Some((buffer, index)) = dim_of(v) else { return v };
        let Some(alloc) = ir::defining_op(buffer).filter(|a| ir::op_name(*a) == "memref.alloc") else { return v };
        // The index-th dimension is dynamic when the type says so; its size is the
        // operand counted among the dynamic dimensions before it.
        // SAFETY: a memref type of a live value.
        let shape: Vec<i64> = unsafe {
            let t = ir::value_type(buffer);
            (0..mlirShapedTypeGetRank(t) as isize).map(|d| mlirShapedTypeGetDimSize(t, d)).collect()
        };
        let Some(&size) = shape.get(index as usize) else { return v };
        // SAFETY: plain query.
        if !unsafe { mlirShapedTypeIsDynamicSize(size) } {
            return v;
        }
        let dynamic_before =
            shape[..index as usize].iter().filter(|s| unsafe { mlirShapedTypeIsDynamicSize(**s) }).count();
        let Some(&operand) = ir::operands(alloc).get(dynamic_before) else { return v };
        v = operand;
    }
    v
}
