//! `array-gpu-emulate`: the kernels of `array-gpu-kernels` run on the CPU, to check them
//! against the interpreter without a GPU (`fuse-opt --run --check --gpu-sim`, the
//! compiled-differential property test). A `gpu.launch` becomes a loop over its blocks
//! whose body runs every thread of the block in order, *segment by segment*: the block-wide
//! operations (`gpu.all_reduce`, `gpu.barrier`) split the kernel's body into segments, and
//! every thread finishes a segment before any thread starts the next, which is what CUDA
//! guarantees at them. Values a thread computes in one segment and uses in a later one are
//! kept per thread in a buffer of the block's size; a `gpu.all_reduce` combines the
//! threads' values in thread order with its own region (CUDA leaves that order open, so a
//! float sum may differ from the GPU's in the last bits, as the fold's `reassoc` allows).
//! Block-wide operations inside control flow (where part of a block could miss them) are
//! refused with an error at the op; the kernels made here have them only at the top level
//! of the kernel, where every thread reaches them.
//!
//! The host side of `array-gpu-host-memory` runs in CPU memory: `gpu.alloc` becomes
//! `memref.alloc` (a buffer distinct from the caller's), `gpu.memcpy` `memref.copy`,
//! `gpu.dealloc` `memref.dealloc`, and the streams (`gpu.wait`) go.
//!
//! **Checked accesses** (option `check-accesses`, on by default): every `memref.load`,
//! `memref.store` and `memref.atomic_rmw` of a kernel is checked at run time, by the
//! functions of `emulation_checks.mlir` that the pass adds to the module:
//!
//! * *bounds*: an index outside its dimension is a fault, and the access is skipped (a
//!   load yields zero), so a faulty kernel never writes outside its buffers;
//! * *races*, on buffers the launch's threads share (defined outside the kernel): a plain
//!   write and another access of the same element by another thread, unordered (another
//!   block, or the same block with no block-wide operation between them), is a fault;
//!   atomic updates of one element by many threads are not. Shadows of each shared buffer
//!   keep the last write and the last read per element, so a race with an earlier access
//!   can go unseen; every race reported is real. Accesses through a view made inside the
//!   kernel are checked for bounds only.
//!
//! The fault record is the global `@__array_gpu_emulation_fault`; the module attribute
//! `array.gpu_emulation_accesses` lists the checked accesses (op, location, function) by
//! the number the record gives. The JIT (`fusion_codegen::jit`) reads both and turns a
//! fault into an error naming the access, the two threads and the element.

use crate::bridge::{PassDefinition, PassFailed, PassOption, PassOptions, emit_error};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::{Builder, ty, vs};
use melior::{
    Context,
    ir::{
        Attribute, Location, OperationRef, Type,
        attribute::{ArrayAttribute, FlatSymbolRefAttribute, StringAttribute},
        operation::{OperationLike, OperationMutLike},
    },
};
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-gpu-emulate",
    description: "Run the gpu.launch kernels of array-gpu-kernels on the CPU: blocks and threads as loops, every thread of a block finishing each segment between gpu.all_reduce/gpu.barrier before the next starts, every buffer access checked for bounds and races (for checking kernels without a GPU)",
    anchor: Some("builtin.module"),
    dependent_dialects: &[
        mlirGetDialectHandle__arith__,
        mlirGetDialectHandle__complex__,
        mlirGetDialectHandle__func__,
        mlirGetDialectHandle__memref__,
        mlirGetDialectHandle__scf__,
    ],
    options: &[PassOption {
        name: "check-accesses",
        description: "Check every load, store and atomic update of a kernel at run time: bounds, and races between threads (emulation_checks.mlir)",
        default: || "true".into(),
    }],
    state: None,
    run,
};

/// The module attribute listing the checked accesses, by the number the fault record gives.
pub const ACCESSES_ATTRIBUTE: &str = "array.gpu_emulation_accesses";
/// The global fault record (see `emulation_checks.mlir` for its layout).
pub const FAULT_RECORD: &str = "__array_gpu_emulation_fault";
const CHECKS: &str = include_str!("emulation_checks.mlir");

const BLOCK_WIDE: &[&str] = &["gpu.all_reduce", "gpu.barrier", "gpu.shuffle"];
const CHECKED_ACCESSES: &[&str] = &["memref.load", "memref.store", "memref.atomic_rmw"];

fn run<'c>(context: &'c Context, module: OperationRef<'c, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let check = match options.get("check-accesses") {
        "true" | "1" => true,
        "false" | "0" => false,
        other => {
            emit_error(
                module.location(),
                &format!("array-gpu-emulate: check-accesses must be true or false, not '{other}'"),
            );
            return Err(PassFailed);
        }
    };
    let module = module.to_raw();
    let functions: Vec<Op> = ir::block_ops(ir::first_block(ir::region(module, 0)))
        .into_iter()
        .filter(|op| ir::op_name(*op) == "func.func")
        .collect();
    let mut table: Vec<String> = Vec::new();
    for function in &functions {
        host_memory_on_the_cpu(context, *function);
    }
    for function in functions {
        // SAFETY: a live func.func of the module.
        let name = unsafe { OperationRef::from_raw(function) }
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_owned())
            .unwrap_or_default();
        for launch in ir::collect(function, |op| ir::op_name(op) == "gpu.launch") {
            let location = unsafe { Location::from_raw(ir::location(launch)) };
            let b = Builder { context, location };
            let emulated = emulate(&b, launch).and_then(|emulated| match check {
                true => instrument(&b, &emulated, &name, &mut table),
                false => Ok(()),
            });
            if let Err((at, message)) = emulated {
                emit_error(unsafe { Location::from_raw(ir::location(at)) }, &format!("array-gpu-emulate: {message}"));
                return Err(PassFailed);
            }
        }
    }
    if !table.is_empty() {
        add_checks(context, module, &table);
    }
    Ok(())
}

/// The host side of `array-gpu-host-memory` in CPU memory: `gpu.alloc` → `memref.alloc`,
/// `gpu.dealloc` → `memref.dealloc`, `gpu.memcpy` → `memref.copy`, and the `gpu.wait`s
/// around them (streams) go. The managed buffers stay distinct from the caller's, so the
/// copies between them are checked too.
fn host_memory_on_the_cpu(context: &Context, function: Op) {
    let ops =
        ir::collect(function, |op| matches!(ir::op_name(op).as_str(), "gpu.alloc" | "gpu.dealloc" | "gpu.memcpy"));
    for op in ops {
        let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
        // Leave out the async dependencies (tokens).
        let operands: Vec<Val> = ir::operands(op).into_iter().filter(|o| !is_token(*o)).collect();
        match ir::op_name(op).as_str() {
            "gpu.alloc" => {
                let t = ir::value_type(ir::results(op)[0]);
                let alloc = crate::parallel_forms::alloc_of_type(&b, op, t, &operands);
                ir::replace_uses_where(ir::results(op)[0], alloc, |_| true);
            }
            "gpu.dealloc" => {
                b.put(op, b.op("memref.dealloc").add_operands(&vs(&operands)).build().expect("valid memref.dealloc"));
            }
            _ => {
                // gpu.memcpy %target, %source; memref.copy %source, %target.
                b.copy(op, operands[1], operands[0]);
            }
        }
        erase_with_streams(op);
    }
}

fn is_token(value: Val) -> bool {
    ty(ir::value_type(value)).to_string() == "!gpu.async.token"
}

/// Erases `op` (whose memref result, if any, is no longer used), the `gpu.wait`s that
/// wait for its token, and the `gpu.wait async` streams it depended on once unused.
fn erase_with_streams(op: Op) {
    let streams: Vec<Op> = ir::operands(op).into_iter().filter(|o| is_token(*o)).filter_map(ir::defining_op).collect();
    for token in ir::results(op).into_iter().filter(|r| is_token(*r)) {
        for (user, _) in ir::uses(token) {
            // SAFETY: a gpu.wait [%token] has no results (or an unused token).
            unsafe { ir::erase(user) };
        }
    }
    // SAFETY: every use of the op's results is gone.
    unsafe { ir::erase(op) };
    for stream in streams {
        if ir::op_name(stream) == "gpu.wait" && ir::results(stream).iter().all(|r| ir::uses(*r).is_empty()) {
            // SAFETY: unused.
            unsafe { ir::erase(stream) };
        }
    }
}

/// Adds the functions and the fault record of `emulation_checks.mlir` to `module`, and the
/// table of checked accesses as its attribute.
fn add_checks(context: &Context, module: Op, table: &[String]) {
    // Through `parse_source`, which ends the text in the NUL MLIR's lexer expects.
    let checks = array_dialect::source::parse_source(context, CHECKS, "emulation_checks.mlir")
        .expect("emulation_checks.mlir parses");
    let body = ir::first_block(ir::region(module, 0));
    for op in ir::block_ops(checks.body().to_raw()) {
        // SAFETY: moving a live op of the parsed module, which is dropped empty, to the end
        // of this module's body.
        unsafe {
            mlirOperationRemoveFromParent(op);
            mlirBlockAppendOwnedOperation(body, op);
        }
    }
    let entries: Vec<Attribute> = table.iter().map(|t| StringAttribute::new(context, t).into()).collect();
    let attribute: Attribute = ArrayAttribute::new(context, &entries).into();
    // SAFETY: a live op of this context; the attribute is of the same context.
    let mut module_ref = unsafe { melior::ir::operation::OperationRefMut::from_raw(module) };
    module_ref.set_discardable_attribute(ACCESSES_ATTRIBUTE, attribute);
}

/// A launch after emulation: the loop over its blocks, the loop over the threads of each
/// segment, and the accesses of the kernel with their segment.
struct Emulated {
    block_loop: Op,
    block_id: Val,
    block_size: Val,
    /// Per segment: its thread id.
    thread_ids: Vec<Val>,
    /// The loads, stores and atomic updates of the kernel's code, with their segment.
    accesses: Vec<(Op, usize)>,
}

fn emulate(b: &Builder, launch: Op) -> Result<Emulated, (Op, String)> {
    let sizes = ir::operands(launch);
    if sizes.len() != 6 {
        return Err((launch, "only synchronous launches without a dynamic shared memory size are emulated".into()));
    }
    if [sizes[1], sizes[2], sizes[4], sizes[5]].iter().any(|s| ir::int_constant(*s) != Some(1)) {
        return Err((launch, "only one-dimensional grids and blocks (y and z sizes 1) are emulated".into()));
    }
    let body = ir::first_block(ir::region(launch, 0));
    let ids = ir::block_arguments(body);
    let workgroup = ir::int_attribute(launch, "workgroup_attributions")
        .or_else(|| ir::int_attribute_inherent(launch, "workgroup_attributions"))
        .unwrap_or(0) as usize;
    if ids.len() != 12 + workgroup {
        return Err((launch, "private memory attributions are not emulated".into()));
    }
    let ops = ir::block_ops(body);
    // The gpu.terminator stays behind and goes with the launch.
    let (_, ops) = ops.split_last().expect("a launch body ends in gpu.terminator");
    for op in ops {
        let nested = ir::collect(*op, |o| !ir::same_op(o, *op) && BLOCK_WIDE.contains(&ir::op_name(o).as_str()));
        if let Some(inner) = nested.first() {
            return Err((*inner, "a block-wide operation inside control flow is not emulated".into()));
        }
    }
    // Segments of thread code, and the block-wide op after each (none after the last).
    // A shuffle ends a segment too (every lane of its warp must have computed its
    // operand), and runs as the first op of the next one: each thread then reads its
    // source lane's operand.
    let mut segments: Vec<Vec<Op>> = vec![vec![]];
    let mut splits: Vec<Op> = Vec::new();
    let mut shuffles: Vec<(Op, Val)> = Vec::new();
    for op in ops {
        if ir::op_name(*op) == "gpu.shuffle" {
            splits.push(*op);
            shuffles.push((*op, ir::operands(*op)[0]));
            segments.push(vec![*op]);
        } else if BLOCK_WIDE.contains(&ir::op_name(*op).as_str()) {
            splits.push(*op);
            segments.push(vec![]);
        } else {
            segments.last_mut().expect("one segment at least").push(*op);
        }
    }
    let accesses: Vec<(Op, usize)> = segments
        .iter()
        .enumerate()
        .flat_map(|(k, segment)| {
            segment
                .iter()
                .flat_map(|op| ir::collect(*op, |o| CHECKED_ACCESSES.contains(&ir::op_name(o).as_str())))
                .map(move |access| (access, k))
        })
        .collect();

    let zero = b.constant_index(launch, 0);
    let one = b.constant_index(launch, 1);
    let (grid, block) = (sizes[0], sizes[3]);
    let (block_loop, block_id, _, block_end) = b.for_range(launch, [zero, grid, one], &[]);
    let mut workgroup_deallocs: Vec<Op> = Vec::new();
    // Block ids, thread ids, grid sizes, block sizes (x, y, z each); y and z ids are 0.
    for k in [1, 2, 4, 5] {
        ir::replace_uses_where(ids[k], zero, |_| true);
    }
    ir::replace_uses_where(ids[0], block_id, |_| true);
    for k in 0..3 {
        ir::replace_uses_where(ids[6 + k], sizes[k], |_| true);
        ir::replace_uses_where(ids[9 + k], sizes[3 + k], |_| true);
    }
    // Workgroup memory: a buffer per block, in CPU memory (accesses to it are checked for
    // bounds; it is not shared with other blocks).
    for attribution in &ids[12..] {
        let t = ir::value_type(*attribution);
        // SAFETY: a live memref type with static shape (workgroup attributions have one).
        let plain = unsafe {
            let rank = mlirShapedTypeGetRank(t);
            let shape: Vec<i64> = (0..rank).map(|d| mlirShapedTypeGetDimSize(t, d as isize)).collect();
            mlirMemRefTypeContiguousGet(
                mlirShapedTypeGetElementType(t),
                rank as isize,
                shape.as_ptr(),
                mlirAttributeGetNull(),
            )
        };
        let buffer = crate::parallel_forms::alloc_of_type(b, block_end, plain, &[]);
        crate::parallel_forms::dealloc(b, block_end, buffer);
        let dealloc =
            ir::block_ops(ir::first_block(ir::region(block_loop, 0))).into_iter().rev().nth(1).expect("the dealloc");
        ir::replace_uses_where(*attribution, buffer, |_| true);
        workgroup_deallocs.push(dealloc);
    }
    let mut thread_loops = Vec::new();
    for (k, segment) in segments.iter().enumerate() {
        let (thread_loop, thread_id, _, thread_end) = b.for_range(block_end, [zero, block, one], &[]);
        for op in segment {
            ir::move_before(*op, thread_end);
        }
        ir::replace_uses_where(ids[3], thread_id, |user| ir::is_within(user, thread_loop));
        thread_loops.push((thread_loop, thread_id, thread_end));
        if let Some(split) = splits.get(k)
            && ir::op_name(*split) != "gpu.shuffle"
        {
            ir::move_before(*split, block_end);
        }
    }
    // The workgroup buffers live until every segment has run.
    for dealloc in workgroup_deallocs {
        ir::move_before(dealloc, block_end);
    }

    // Values that live from one segment into a later one (or into an all_reduce): one
    // element per thread.
    let mut spilled: Vec<(Val, Val)> = Vec::new(); // (value, its buffer)
    for (k, segment) in segments.iter().enumerate() {
        let (_, thread_id, thread_end) = thread_loops[k];
        for op in segment {
            for value in ir::results(*op) {
                let escapes = ir::uses(value).into_iter().any(|(user, _)| !ir::is_within(user, thread_loops[k].0));
                if !escapes {
                    continue;
                }
                let buffer = per_thread_buffer(b, block_loop, ir::value_type(value), block);
                b.store(thread_end, value, buffer, &[thread_id]);
                for &(later, later_id, _) in thread_loops.iter().skip(k + 1) {
                    if ir::uses(value).iter().any(|(user, _)| ir::is_within(*user, later)) {
                        let first = ir::block_ops(ir::first_block(ir::region(later, 0)))[0];
                        let reloaded = b.load(first, buffer, &[later_id]);
                        ir::replace_uses_where(value, reloaded, |user| ir::is_within(user, later));
                    }
                }
                spilled.push((value, buffer));
                crate::parallel_forms::dealloc(b, ir::next_in_block(block_loop), buffer);
            }
        }
    }

    for split in &splits {
        if ir::op_name(*split) == "gpu.all_reduce" {
            combine_in_thread_order(b, *split, &spilled, block)?;
        } else if ir::op_name(*split) == "gpu.shuffle" {
            let operand = shuffles.iter().find(|(s, _)| ir::same_op(*s, *split)).expect("a recorded shuffle").1;
            let k = segments.iter().position(|segment| segment.first().is_some_and(|o| ir::same_op(*o, *split)));
            let thread_id = thread_loops[k.expect("a shuffle starts a segment")].1;
            shuffle_from_spilled(b, *split, operand, thread_id, &spilled)?;
        } else {
            // SAFETY: gpu.barrier has no results; the segments around it are already apart.
            unsafe { ir::erase(*split) };
        }
    }
    // SAFETY: the launch has no results and its body's ops and arguments are no longer used.
    unsafe { ir::erase(launch) };
    Ok(Emulated {
        block_loop,
        block_id,
        block_size: block,
        thread_ids: thread_loops.iter().map(|(_, id, _)| *id).collect(),
        accesses,
    })
}

/// A `gpu.shuffle idx` (the first op of its thread's segment, `thread_id` the thread) →
/// the operand its source lane computed, read from the operand's per-thread buffer (the
/// operand itself where it is the same in every thread); `valid` is true.
fn shuffle_from_spilled(
    b: &Builder,
    shuffle: Op,
    operand: Val,
    thread_id: Val,
    spilled: &[(Val, Val)],
) -> Result<(), (Op, String)> {
    let mode = ir::string_attribute_inherent(shuffle, "mode").unwrap_or_default();
    let mode = if mode.is_empty() {
        // SAFETY: a live op; the attribute is printed to a string.
        unsafe { OperationRef::from_raw(shuffle) }.attribute("mode").map(|a| a.to_string()).unwrap_or_default()
    } else {
        mode
    };
    if !mode.contains("idx") {
        return Err((shuffle, format!("only gpu.shuffle idx is emulated, not {mode}")));
    }
    let operands = ir::operands(shuffle);
    let index = |value: Val| {
        b.put1(shuffle, melior::dialect::arith::index_cast(crate::to_loops::builder::v(value), b.index(), b.location))
    };
    let (lane, width) = (index(operands[1]), index(operands[2]));
    let within = b.binary(shuffle, melior::dialect::arith::remui, thread_id, width);
    let warp_start = b.binary(shuffle, melior::dialect::arith::subi, thread_id, within);
    let source = b.binary(shuffle, melior::dialect::arith::addi, warp_start, lane);
    let value = match spilled.iter().find(|(v, _)| ir::same_value(*v, operand)) {
        Some((_, buffer)) => b.load(shuffle, *buffer, &[source]),
        None => operand,
    };
    let boolean: Type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let valid = b.put1(
        shuffle,
        melior::dialect::arith::constant(
            b.context,
            melior::ir::attribute::IntegerAttribute::new(boolean, 1).into(),
            b.location,
        ),
    );
    // SAFETY: both results are replaced.
    unsafe { crate::to_loops::builder::replace_and_erase(shuffle, &[value, valid]) };
    Ok(())
}

/// `memref.alloc(block) : memref<?xT>` before `anchor`.
fn per_thread_buffer(b: &Builder, anchor: Op, element: MlirType, block: Val) -> Val {
    crate::parallel_forms::alloc(b, anchor, element, Some(block))
}

/// A `gpu.all_reduce` (its region form) → the combination of every thread's operand, in
/// thread order, by a loop of the region's ops; its result replaces the op's.
fn combine_in_thread_order(b: &Builder, reduce: Op, spilled: &[(Val, Val)], block: Val) -> Result<(), (Op, String)> {
    let operand = ir::operands(reduce)[0];
    if ir::region_count(reduce) != 1 || ir::block_ops(ir::first_block(ir::region(reduce, 0))).is_empty() {
        return Err((reduce, "only gpu.all_reduce with a combining region is emulated".into()));
    }
    let zero = b.constant_index(reduce, 0);
    let one = b.constant_index(reduce, 1);
    let buffer = spilled.iter().find(|(v, _)| ir::same_value(*v, operand)).map(|(_, buffer)| *buffer);
    let first = match buffer {
        Some(buffer) => b.load(reduce, buffer, &[zero]),
        None => operand, // the same value in every thread
    };
    let (loop_op, t, accumulators, end) = b.for_range(reduce, [one, block, one], &[first]);
    let element = match buffer {
        Some(buffer) => b.load(end, buffer, &[t]),
        None => operand,
    };
    let region_block = ir::first_block(ir::region(reduce, 0));
    let formal = ir::block_arguments(region_block);
    ir::replace_uses_where(formal[0], accumulators[0], |_| true);
    ir::replace_uses_where(formal[1], element, |_| true);
    let ops = ir::block_ops(region_block);
    let (yield_op, combine) = ops.split_last().expect("gpu.all_reduce regions end in gpu.yield");
    for op in combine {
        ir::move_before(*op, end);
    }
    ir::set_operands(end, &ir::operands(*yield_op));
    let result = ir::results(loop_op)[0];
    // SAFETY: the result is replaced; the region's ops were moved out.
    unsafe { crate::to_loops::builder::replace_and_erase(reduce, &[result]) };
    Ok(())
}

/// Adds the run-time checks of `emulation_checks.mlir` to every load, store and atomic
/// update of an emulated launch, numbering them in `table`.
fn instrument(b: &Builder, emulated: &Emulated, function: &str, table: &mut Vec<String>) -> Result<(), (Op, String)> {
    let Emulated { block_loop, block_id, block_size, thread_ids, accesses } = emulated;
    // SAFETY: i1 of the pass's context.
    let boolean = unsafe { mlirIntegerTypeGet(b.context.to_raw(), 1) };
    let segments = b.constant_index(*block_loop, thread_ids.len() as i64);
    // Two shadows per shared buffer (last writes, last reads), for this launch only.
    let mut shadows: Vec<(Val, Val, Val)> = Vec::new();
    for &(access, segment) in accesses {
        let name = ir::op_name(access);
        let operands = ir::operands(access);
        let at = if name == "memref.load" { 0 } else { 1 };
        let (buffer, indices) = (operands[at], operands[at + 1..].to_vec());
        // SAFETY: the location of a live op.
        let location = unsafe { Location::from_raw(ir::location(access)) };
        let id = b.constant_index(access, table.len() as i64);
        table.push(format!("'{name}' at {location} in @{function}"));
        let (block, thread) = (*block_id, thread_ids[segment]);
        let extents: Vec<Val> = (0..indices.len()).map(|d| b.memref_dim(access, buffer, d)).collect();
        let mut inside: Option<Val> = None;
        for (d, (i, extent)) in indices.iter().zip(&extents).enumerate() {
            let dimension = b.constant_index(access, d as i64);
            let arguments = [*i, *extent, dimension, id, block, thread];
            let ok = call(b, access, "__array_gpu_emulation_in_bounds", &arguments, &[boolean])[0];
            inside = Some(match inside {
                Some(p) => b.binary(access, melior::dialect::arith::andi, p, ok),
                None => ok,
            });
        }
        if let Some(inside) = inside {
            skip_unless(b, access, inside)?;
        }
        if !ir::defined_outside(buffer, *block_loop) {
            continue; // private to a thread, or a view made in the kernel: bounds only
        }
        let (writes, reads) = match shadows.iter().find(|(s, _, _)| ir::same_value(*s, buffer)) {
            Some(&(_, writes, reads)) => (writes, reads),
            None => {
                let mut length = b.constant_index(*block_loop, 1);
                for d in 0..indices.len() {
                    let extent = b.memref_dim(*block_loop, buffer, d);
                    length = b.binary(*block_loop, melior::dialect::arith::muli, length, extent);
                }
                let writes = call(b, *block_loop, "__array_gpu_emulation_shadow", &[length], &[vector_i64(b)])[0];
                let reads = call(b, *block_loop, "__array_gpu_emulation_shadow", &[length], &[vector_i64(b)])[0];
                let after = ir::next_in_block(*block_loop);
                crate::parallel_forms::dealloc(b, after, writes);
                crate::parallel_forms::dealloc(b, after, reads);
                shadows.push((buffer, writes, reads));
                (writes, reads)
            }
        };
        // The element, row-major (inside the guard: the indices are in bounds).
        let mut element = b.constant_index(access, 0);
        for (i, extent) in indices.iter().zip(&extents) {
            let scaled = b.binary(access, melior::dialect::arith::muli, element, *extent);
            element = b.binary(access, melior::dialect::arith::addi, scaled, *i);
        }
        let check = match name.as_str() {
            "memref.load" => "__array_gpu_emulation_load",
            "memref.store" => "__array_gpu_emulation_store",
            _ => "__array_gpu_emulation_atomic",
        };
        let k = b.constant_index(access, segment as i64);
        call(b, access, check, &[writes, reads, element, id, block, thread, *block_size, k, segments], &[]);
    }
    Ok(())
}

/// Puts `access` in an `scf.if inside`, whose other branch yields zero for a load or an
/// atomic update: an access out of bounds is skipped (the fault is recorded already).
fn skip_unless(b: &Builder, access: Op, inside: Val) -> Result<(), (Op, String)> {
    let results = ir::results(access);
    let zero = match results.first() {
        Some(result) => {
            let t = ir::value_type(*result);
            Some(
                zero(b, access, t)
                    .ok_or_else(|| (access, format!("an access of an element of type {} cannot be checked", ty(t))))?,
            )
        }
        None => None,
    };
    let types: Vec<Type> = results.iter().map(|r| ty(ir::value_type(*r))).collect();
    let (if_op, then_yield, else_yield) = b.if_else(access, inside, &types);
    if let (Some(result), Some(zero)) = (results.first(), zero) {
        ir::replace_uses_where(*result, ir::results(if_op)[0], |_| true);
        ir::set_operands(else_yield, &[zero]);
        ir::move_before(access, then_yield);
        ir::set_operands(then_yield, &[*result]);
    } else {
        ir::move_before(access, then_yield);
    }
    Ok(())
}

/// The zero of element type `t` (integer, index, float, complex, or a vector of them).
fn zero(b: &Builder, anchor: Op, t: MlirType) -> Option<Val> {
    let text = ty(t).to_string();
    // SAFETY: queries of a live type.
    let (integer, float, complex, vector) = unsafe {
        (mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t), mlirTypeIsAFloat(t), mlirTypeIsAComplex(t), mlirTypeIsAVector(t))
    };
    let (op, value) = if integer {
        ("arith.constant", format!("0 : {text}"))
    } else if float {
        ("arith.constant", format!("0.0 : {text}"))
    } else if complex {
        // SAFETY: a complex type.
        let part = ty(unsafe { mlirComplexTypeGetElementType(t) });
        ("complex.constant", format!("[0.0 : {part}, 0.0 : {part}]"))
    } else if vector {
        // SAFETY: a vector type.
        let element = unsafe { mlirShapedTypeGetElementType(t) };
        let float = unsafe { mlirTypeIsAFloat(element) };
        ("arith.constant", format!("dense<{}> : {text}", if float { "0.0" } else { "0" }))
    } else {
        return None;
    };
    let value = Attribute::parse(b.context, &value)?;
    let op = b
        .op(op)
        .add_attributes(&[(melior::ir::Identifier::new(b.context, "value"), value)])
        .add_results(&[ty(t)])
        .build()
        .ok()?;
    Some(b.put1(anchor, op))
}

/// `memref<?xi64>`, the type of a shadow.
fn vector_i64(b: &Builder) -> MlirType {
    let dynamic = i64::MIN; // ShapedType::kDynamic
    // SAFETY: building a type of the pass's context.
    unsafe {
        let i64_type = mlirIntegerTypeGet(b.context.to_raw(), 64);
        mlirMemRefTypeContiguousGet(i64_type, 1, [dynamic].as_ptr(), mlirAttributeGetNull())
    }
}

/// `func.call @callee(arguments)` before `anchor`; its results.
fn call(b: &Builder, anchor: Op, callee: &str, arguments: &[Val], results: &[MlirType]) -> Vec<Val> {
    let types: Vec<Type> = results.iter().map(|t| ty(*t)).collect();
    let op = b.put(
        anchor,
        b.op("func.call")
            .add_operands(&vs(arguments))
            .add_attributes(&[(
                melior::ir::Identifier::new(b.context, "callee"),
                FlatSymbolRefAttribute::new(b.context, callee).into(),
            )])
            .add_results(&types)
            .build()
            .expect("valid func.call"),
    );
    ir::results(op)
}
