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
//!
//! What this does not model: races between threads (the kernels of `array-gpu-kernels`
//! write disjoint elements, update shared ones with `memref.atomic_rmw`, which runs here
//! in thread order, or, for reductions, write only from thread 0), and block-wide
//! operations inside control flow, which are refused with an error at the op (the kernels
//! made here have them only at the top level of the kernel, where every thread reaches them).

use super::{collect, constant};
use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_error};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::Builder;
use melior::{
    Context,
    ir::{Location, OperationRef},
};
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-gpu-emulate",
    description: "Run the gpu.launch kernels of array-gpu-kernels on the CPU: blocks and threads as loops, every thread of a block finishing each segment between gpu.all_reduce/gpu.barrier before the next starts (for checking kernels without a GPU)",
    anchor: Some("func.func"),
    dependent_dialects: &[mlirGetDialectHandle__arith__, mlirGetDialectHandle__memref__, mlirGetDialectHandle__scf__],
    options: &[],
    state: None,
    run,
};

const BLOCK_WIDE: &[&str] = &["gpu.all_reduce", "gpu.barrier"];

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    for launch in collect(function.to_raw(), |op| ir::op_name(op) == "gpu.launch") {
        let location = unsafe { Location::from_raw(ir::location(launch)) };
        let b = Builder { context, location };
        if let Err((at, message)) = emulate(&b, launch) {
            emit_error(unsafe { Location::from_raw(ir::location(at)) }, &format!("array-gpu-emulate: {message}"));
            return Err(PassFailed);
        }
    }
    Ok(())
}

fn emulate(b: &Builder, launch: Op) -> Result<(), (Op, String)> {
    let sizes = ir::operands(launch);
    if sizes.len() != 6 {
        return Err((launch, "only synchronous launches without a dynamic shared memory size are emulated".into()));
    }
    if [sizes[1], sizes[2], sizes[4], sizes[5]].iter().any(|s| constant(*s) != Some(1)) {
        return Err((launch, "only one-dimensional grids and blocks (y and z sizes 1) are emulated".into()));
    }
    let body = ir::first_block(ir::region(launch, 0));
    let ids = ir::block_arguments(body);
    if ids.len() != 12 {
        return Err((launch, "workgroup memory attributions are not emulated".into()));
    }
    let ops = ir::block_ops(body);
    // The gpu.terminator stays behind and goes with the launch.
    let (_, ops) = ops.split_last().expect("a launch body ends in gpu.terminator");
    for op in ops {
        let nested = collect(*op, |o| !ir::same_op(o, *op) && BLOCK_WIDE.contains(&ir::op_name(o).as_str()));
        if let Some(inner) = nested.first() {
            return Err((*inner, "a block-wide operation inside control flow is not emulated".into()));
        }
    }
    // Segments of thread code, and the block-wide op after each (none after the last).
    let mut segments: Vec<Vec<Op>> = vec![vec![]];
    let mut splits: Vec<Op> = Vec::new();
    for op in ops {
        if BLOCK_WIDE.contains(&ir::op_name(*op).as_str()) {
            splits.push(*op);
            segments.push(vec![]);
        } else {
            segments.last_mut().expect("one segment at least").push(*op);
        }
    }

    let zero = b.constant_index(launch, 0);
    let one = b.constant_index(launch, 1);
    let (grid, block) = (sizes[0], sizes[3]);
    let (block_loop, block_id, _, block_end) = b.for_range(launch, [zero, grid, one], &[]);
    // Block ids, thread ids, grid sizes, block sizes (x, y, z each); y and z ids are 0.
    for k in [1, 2, 4, 5] {
        ir::replace_uses_where(ids[k], zero, |_| true);
    }
    ir::replace_uses_where(ids[0], block_id, |_| true);
    for k in 0..3 {
        ir::replace_uses_where(ids[6 + k], sizes[k], |_| true);
        ir::replace_uses_where(ids[9 + k], sizes[3 + k], |_| true);
    }
    let mut thread_loops = Vec::new();
    for (k, segment) in segments.iter().enumerate() {
        let (thread_loop, thread_id, _, thread_end) = b.for_range(block_end, [zero, block, one], &[]);
        for op in segment {
            ir::move_before(*op, thread_end);
        }
        ir::replace_uses_where(ids[3], thread_id, |user| ir::is_within(user, thread_loop));
        thread_loops.push((thread_loop, thread_id, thread_end));
        if let Some(split) = splits.get(k) {
            ir::move_before(*split, block_end);
        }
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
                super::dealloc(b, ir::next_in_block(block_loop), buffer);
            }
        }
    }

    for split in &splits {
        if ir::op_name(*split) == "gpu.all_reduce" {
            combine_in_thread_order(b, *split, &spilled, block)?;
        } else {
            // SAFETY: gpu.barrier has no results; the segments around it are already apart.
            unsafe { ir::erase(*split) };
        }
    }
    // SAFETY: the launch has no results and its body's ops and arguments are no longer used.
    unsafe { ir::erase(launch) };
    Ok(())
}

/// `memref.alloc(block) : memref<?xT>` before `anchor`.
fn per_thread_buffer(b: &Builder, anchor: Op, element: MlirType, block: Val) -> Val {
    super::alloc(b, anchor, element, Some(block))
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
