//! `array-gpu-kernels`: the loop nests of `array-to-loops`, once bufferized, as GPU
//! kernels (`gpu.launch`), one per loop nest, so one per cluster of the fusion analysis
//! (DESIGN §6: parallel loops → `gpu` kernels). It runs on a function after
//! `one-shot-bufferize` (and the deallocation pipeline); `gpu-kernel-outlining` then makes
//! each launch a `gpu.func` of its own `gpu.module`, and the NVVM or ROCDL lowering makes
//! PTX or AMDGPU code of them (`codegen::gpu`).
//!
//! What each op of the function body becomes (`classify`):
//!
//! * `scf.parallel` without reductions → a **parallel kernel**: a one-dimensional grid of
//!   `block-size`-thread blocks, each thread running a grid-stride loop over the
//!   linearised iteration space (row-major, the last dimension fastest, so neighbouring
//!   threads touch neighbouring elements), with the loop's body inside.
//! * `scf.parallel` with reductions whose combine is a known associative, commutative
//!   `arith` op (`combiner`: the integer add, mul, and, or, xor, signed/unsigned min/max,
//!   written as one op or as `array-to-loops`' compare-and-select; the float add, mul,
//!   and the four min/max) → a **reduction**: two kernels. The first as above, each thread
//!   folding its elements into the combine's identity, then `gpu.all_reduce` over the
//!   block (lowered by `convert-gpu-to-nvvm`/`-rocdl` to warp shuffles and workgroup
//!   memory), thread 0 writing the block's partial; the second, one block, reduces the
//!   partials the same way and combines the loop's initial value. Two kernels, not
//!   atomics, so the result does not depend on the order blocks finish in: a float sum
//!   is the same on every run (it may differ from the sequential sum, as the
//!   reassociation the fold allowed permits).
//! * `memref.copy` → first rewritten as an `scf.parallel` of loads and stores, so a copy
//!   is a parallel kernel too.
//! * Control flow of the host (`scf.for`, `scf.while`, `scf.if`, … whose regions hold a
//!   parallel loop, such as bfs's frontier loop, or a call, such as quadtree's recursion)
//!   stays on the host; its regions are converted the same way.
//! * An `scf.for` carrying values updated by a regroupable combine (a scan, a filter's
//!   compaction, an expand's placement) → **three phases** over chunks of iterations
//!   (`scans`): partials, their exclusive scan, the chunks rerun from their offsets.
//! * An `scf.for` nest without carried values whose read-modify-writes combine
//!   commutatively (a scatter-add) → a parallel kernel of **atomic updates** (`atomics`).
//! * Any other loop, and any other op that reads or writes buffer elements (a scan of a
//!   subtraction, an arg-max, a scatter whose last write wins) → a **one-thread
//!   kernel** (grid 1, block 1), which keeps the data on the device; its scalar results
//!   come back through one-element buffers read by the host after the launch. This is the
//!   sequential form, and it is reported (a remark per kernel, naming the condition of
//!   `scans` or `atomics` the loop broke), not hidden.
//! * A `gpu.launch` already in the function (written by hand) stays as it is.
//! * Everything else (single loads and stores of elements, such as a rank-0 result;
//!   constants, sizes, `memref.alloc`/`dealloc`, casts, scalar arithmetic, calls) stays
//!   on the host.
//!
//! Inside a kernel, a nested `scf.parallel` (an inner reduction of a row, a copy) runs
//! sequentially in its thread: it becomes an `scf.for` nest carrying its reductions.
//!
//! Memory: kernels read and write the function's buffers directly; `array-gpu-host-memory`
//! (`host_memory`) then places them in managed memory and copies the caller's arguments
//! in and the results out.
//!
//! A summary remark per function counts the kernels of each kind.

pub mod emulate;
pub mod host_memory;
pub mod segments;

use crate::bridge::{PassDefinition, PassFailed, PassOption, PassOptions, emit_remark};
use crate::ir::{self, Op, Val};
use crate::parallel_forms::{Chunking, Combiner, FLOAT_COMBINERS, alloc, atomics, dealloc, scans, trip_count};
use crate::to_loops::builder::{Builder, ty, v, vs};
use melior::{
    Context,
    dialect::arith,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, ValueLike,
        attribute::DenseI32ArrayAttribute, operation::OperationLike,
    },
};
use mlir_sys::*;
pub use segments::ExpandStrategy;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-gpu-kernels",
    description: "Make the bufferized loop nests of array-to-loops GPU kernels (gpu.launch): grid-stride kernels for parallel loops, two-kernel block reductions for parallel reductions, three-phase scans for loops carrying a regroupable combine, atomic updates for commutative scatters, one-thread kernels (reported) for other sequential nests",
    anchor: Some("func.func"),
    dependent_dialects: &[
        mlirGetDialectHandle__gpu__,
        mlirGetDialectHandle__arith__,
        mlirGetDialectHandle__memref__,
        mlirGetDialectHandle__scf__,
        mlirGetDialectHandle__math__,
    ],
    options: &[
        PassOption {
            name: "block-size",
            description: "Threads per block of the parallel kernels (a multiple of the warp size, 32, up to 1024)",
            default: || "256".into(),
        },
        PassOption {
            name: "max-blocks",
            description: "Most blocks of a grid; threads then stride over the rest (also the number of partials of a reduction)",
            default: || "4096".into(),
        },
        PassOption {
            name: "expand-strategy",
            description: "How an expand fused with a scatter divides its segments among threads (seed 004 §4.1): auto, 1-per-thread, 1-per-warp, 1-per-block-shuffle, 1-per-block-shared, N-per-block (N a power of two from 2 to 1024), balanced",
            default: || "auto".into(),
        },
    ],
    state: None,
    run,
};

/// The launch shape of the parallel kernels.
#[derive(Clone, Copy)]
struct Shape {
    block_size: i64,
    max_blocks: i64,
    /// The division of expand segments (`segments`).
    expand: ExpandStrategy,
}

/// How the three-phase scans divide their iterations on a GPU: at most 65536 chunks, as
/// their exclusive scan runs in one thread (65536 steps, against the 10^7 of a one-thread
/// scan of 10^7 elements), which still leaves enough chunks to fill a GPU's threads; at
/// least 16 iterations each, so a chunk's two passes over its elements amortise its
/// partial, and small inputs span several iterations per chunk, which the tests exercise.
const GPU_CHUNKING: Chunking = Chunking { max_chunks: 65536, min_chunk: 16 };

/// How many kernels of each kind a function got (the summary remark).
#[derive(Default)]
struct Counts {
    parallel: usize,
    /// Of the parallel kernels, those made from a scatter with atomic updates.
    atomic: usize,
    /// Loops carrying a regroupable combine (scans, compactions): three phases, a kernel
    /// each (two where the loop stores nothing).
    scans: usize,
    /// Of the scans, those with a fourth kernel (one thread) combining the chunks' folds.
    scan_folds: usize,
    reductions: usize,
    one_thread: usize,
    /// Expands fused with a scatter, divided by a strategy of seed 004 (`segments`).
    expand_permute: usize,
}

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let number = |name: &str, low: i64, high: i64| -> Result<i64, PassFailed> {
        options.get(name).trim().parse::<i64>().ok().filter(|n| (low..=high).contains(n)).ok_or_else(|| {
            crate::bridge::emit_error(
                function.location(),
                &format!(
                    "array-gpu-kernels: {name} must be an integer from {low} to {high}, not '{}'",
                    options.get(name)
                ),
            );
            PassFailed
        })
    };
    let block_size = number("block-size", 32, 1024)?;
    if block_size % 32 != 0 {
        crate::bridge::emit_error(
            function.location(),
            &format!("array-gpu-kernels: block-size must be a multiple of the warp size 32, not {block_size}"),
        );
        return Err(PassFailed);
    }
    let expand = ExpandStrategy::from_name(options.get("expand-strategy").trim()).ok_or_else(|| {
        crate::bridge::emit_error(
            function.location(),
            &format!(
                "array-gpu-kernels: expand-strategy must be one of {}, not '{}'",
                ExpandStrategy::NAMES,
                options.get("expand-strategy")
            ),
        );
        PassFailed
    })?;
    if let ExpandStrategy::PerBlock(n) = expand
        && n as i64 > 1024
    {
        unreachable!("from_name bounds N");
    }
    let shape = Shape { block_size, max_blocks: number("max-blocks", 1, i32::MAX as i64)?, expand };
    let function = function.to_raw();
    let copies = ir::collect(function, |op| ir::op_name(op) == "memref.copy");
    for copy in copies {
        copy_as_parallel(context, copy);
    }
    let mut counts = Counts::default();
    // SAFETY: a func.func has one region.
    let body = ir::first_block(ir::region(function, 0));
    convert_block(context, body, shape, &mut counts);
    let location = unsafe { Location::from_raw(ir::location(function)) };
    emit_remark(
        location,
        &format!(
            "array-gpu-kernels: {} parallel kernels ({} with atomic updates), {} reductions (two kernels each), {} scans (three phases each, {} with a fourth folding scanned values), {} one-thread kernels, {} expand-permute nests",
            counts.parallel,
            counts.atomic,
            counts.reductions,
            counts.scans,
            counts.scan_folds,
            counts.one_thread,
            counts.expand_permute
        ),
    );
    Ok(())
}

/// What an op of host code becomes.
#[derive(Debug, PartialEq, Eq)]
enum Placement {
    /// Stays on the host as it is.
    Host,
    /// Host control flow around parallel loops: stays, its regions are converted.
    HostControl,
    /// A parallel loop: a kernel over its iteration space.
    Parallel,
    /// Reads or writes buffer elements sequentially: a one-thread kernel.
    OneThread,
}

fn classify(op: Op) -> Placement {
    let name = ir::op_name(op);
    if name == "scf.parallel" {
        return Placement::Parallel;
    }
    // A kernel already (written by hand, or converted before): it stays as it is.
    if name == "gpu.launch" {
        return Placement::Host;
    }
    // Calls stay on the host (the callee is converted by itself and may launch kernels),
    // so control flow around them does too.
    let hosts_kernels = |o: Op| !ir::same_op(o, op) && matches!(ir::op_name(o).as_str(), "scf.parallel" | "func.call");
    if ir::region_count(op) > 0 && !ir::collect(op, hosts_kernels).is_empty() {
        return Placement::HostControl;
    }
    // A load or store of one element at the top level stays on the host: the buffers
    // are reachable from it (see the module doc), and one access is no loop nest.
    if matches!(name.as_str(), "memref.load" | "memref.store") {
        return Placement::Host;
    }
    // A loop is a loop nest of the program (a sequential cluster, such as a fold whose
    // combine may not be regrouped, even when it reads no buffer): it runs on the device.
    if matches!(name.as_str(), "scf.for" | "scf.while") || !ir::collect(op, touches_elements).is_empty() {
        return Placement::OneThread;
    }
    Placement::Host
}

/// Whether `op` reads or writes the elements of a buffer (not only its shape or pointer).
fn touches_elements(op: Op) -> bool {
    matches!(
        ir::op_name(op).as_str(),
        "memref.load"
            | "memref.store"
            | "memref.copy"
            | "memref.atomic_rmw"
            | "memref.generic_atomic_rmw"
            | "vector.load"
            | "vector.store"
            | "vector.transfer_read"
            | "vector.transfer_write"
    )
}

fn convert_block(context: &Context, block: MlirBlock, shape: Shape, counts: &mut Counts) {
    for op in ir::block_ops(block) {
        let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
        match classify(op) {
            Placement::Host => {}
            Placement::HostControl => {
                for r in 0..ir::region_count(op) {
                    for inner in ir::region_blocks(ir::region(op, r as isize)) {
                        convert_block(context, inner, shape, counts);
                    }
                }
            }
            Placement::Parallel => match reduction_combiners(op) {
                Some(combiners) if combiners.is_empty() => {
                    parallel_kernel(&b, op, shape);
                    counts.parallel += 1;
                }
                Some(combiners) => {
                    reduction_kernels(&b, op, &combiners, shape);
                    counts.reductions += 1;
                }
                None => {
                    emit_remark(
                        b.location,
                        "array-gpu-kernels: a parallel reduction whose combine has no known identity runs as one GPU thread",
                    );
                    one_thread_kernel(&b, op);
                    counts.one_thread += 1;
                }
            },
            Placement::OneThread => sequential_nest(&b, op, shape, counts),
        }
    }
}

/// A sequential loop nest (or another op touching buffer elements) → its parallel form
/// where it has one: an expand fused with a scatter divided among threads (`segments`),
/// a scan in three phases, a scatter of atomic updates; otherwise one GPU thread,
/// reported with the reason.
fn sequential_nest(b: &Builder, op: Op, shape: Shape, counts: &mut Counts) {
    let mut as_segments = String::new();
    if ir::op_name(op) == "scf.for" {
        match segments::segment_nest(op) {
            Ok(nest) => {
                let bound = nest.bound();
                let (used, scan) = segments::divide(b, nest, shape.expand, shape);
                let why = match (shape.expand, bound) {
                    (ExpandStrategy::Auto, Some(bound)) => format!("chosen for segments of at most {bound} elements"),
                    (ExpandStrategy::Auto, None) => "chosen for segments of unknown length".to_string(),
                    (asked, _) if asked == used => "as requested".to_string(),
                    (asked, _) => {
                        format!("{} was requested, but a value of the element cannot be shuffled", asked.name())
                    }
                };
                emit_remark(
                    b.location,
                    &format!(
                        "array-gpu-kernels: an expand fused with a scatter runs as {} kernels ({why})",
                        used.name()
                    ),
                );
                counts.expand_permute += 1;
                if let Some(scan) = scan {
                    sequential_nest(b, scan, shape, counts);
                }
                return;
            }
            Err(Some(why)) => as_segments = format!("; as expand segments: {why}"),
            Err(None) => {}
        }
    }
    // A loop carrying values may be a scan; one carrying none a scatter.
    let carries = !ir::results(op).is_empty();
    let refusal = if carries && ir::op_name(op) == "scf.for" {
        match scans::three_phase(b, op, GPU_CHUNKING) {
            Ok(phases) => {
                parallel_kernel(b, phases.partials, shape);
                one_thread_kernel(b, phases.offsets);
                if let Some(rescan) = phases.rescan {
                    parallel_kernel(b, rescan, shape);
                }
                if let Some(folds) = phases.folds {
                    one_thread_kernel(b, folds);
                    counts.scan_folds += 1;
                }
                counts.scans += 1;
                return;
            }
            Err(why) => why,
        }
    } else if ir::op_name(op) == "scf.for" {
        match atomics::parallel_updates(b, op) {
            Ok(parallel) => {
                parallel_kernel(b, parallel, shape);
                counts.parallel += 1;
                counts.atomic += 1;
                return;
            }
            Err(why) => why,
        }
    } else {
        "only scf.for loops have parallel forms here".into()
    };
    if ir::results(op).into_iter().all(|r| scalar(ir::value_type(r))) {
        emit_remark(
            b.location,
            &format!(
                "array-gpu-kernels: '{}' runs as one GPU thread (sequential form): {refusal}{as_segments}",
                ir::op_name(op)
            ),
        );
        one_thread_kernel(b, op);
        counts.one_thread += 1;
    } else {
        emit_remark(
            b.location,
            &format!(
                "array-gpu-kernels: '{}' yields a buffer and stays on the host (it needs memory the host can reach)",
                ir::op_name(op)
            ),
        );
    }
}

// --- The kernels -------------------------------------------------------------------

/// The ids of a launch's body (x dimension; the grid and blocks are one-dimensional).
struct Launch {
    op: Op,
    block_id: Val,
    thread_id: Val,
    /// The number of blocks: the host's value, which the kernel receives as an argument
    /// (not `gpu.grid_dim`, which the ROCDL lowering turns into a call of the ROCm device
    /// library `ockl`).
    grid_size: Val,
    /// The body's `gpu.terminator`, before which the kernel's code goes.
    end: Op,
}

/// `gpu.launch` of `grid` blocks of `block` threads (x only), before `anchor`.
fn launch(b: &Builder, anchor: Op, grid: Val, block: Val) -> Launch {
    launch_with_workgroup(b, anchor, grid, block, &[]).0
}

/// [`launch`] with workgroup (shared) memory: one buffer of each of `workgroup`'s types
/// (memrefs in `#gpu.address_space<workgroup>`), returned with the launch.
fn launch_with_workgroup(b: &Builder, anchor: Op, grid: Val, block: Val, workgroup: &[MlirType]) -> (Launch, Vec<Val>) {
    let one = b.constant_index(anchor, 1);
    let mut arguments = vec![(b.index(), b.location); 12];
    arguments.extend(workgroup.iter().map(|t| (ty(*t), b.location)));
    let body = Block::new(&arguments);
    body.append_operation(b.op("gpu.terminator").build().expect("valid gpu.terminator"));
    let region = Region::new();
    region.append_block(body);
    let mut attributes = vec![(
        Identifier::new(b.context, "operandSegmentSizes"),
        DenseI32ArrayAttribute::new(b.context, &[0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]).into(),
    )];
    if !workgroup.is_empty() {
        let i64_type = melior::ir::r#type::IntegerType::new(b.context, 64).into();
        attributes.push((
            Identifier::new(b.context, "workgroup_attributions"),
            melior::ir::attribute::IntegerAttribute::new(i64_type, workgroup.len() as i64).into(),
        ));
    }
    let op = b.put(
        anchor,
        b.op("gpu.launch")
            .add_operands(&vs(&[grid, one, one, block, one, one]))
            .add_attributes(&attributes)
            .add_regions([region])
            .build()
            .expect("valid gpu.launch"),
    );
    let entry = ir::first_block(ir::region(op, 0));
    let ids = ir::block_arguments(entry);
    // Block arguments: block ids, thread ids, grid sizes, block sizes (x, y, z each), then
    // the workgroup buffers.
    let launch = Launch { op, block_id: ids[0], thread_id: ids[3], grid_size: grid, end: ir::terminator(entry) };
    (launch, ids[12..].to_vec())
}

/// The trip counts of the dimensions of `scf.parallel` `op` and its total, before `anchor`.
fn trip_counts(b: &Builder, op: Op, anchor: Op) -> (Vec<Val>, Val) {
    let (lower, upper, step) = bounds(op);
    let mut trips = Vec::new();
    let mut total = b.constant_index(anchor, 1);
    for k in 0..lower.len() {
        let trip = trip_count(b, anchor, [lower[k], upper[k], step[k]]);
        total = b.binary(anchor, arith::muli, total, trip);
        trips.push(trip);
    }
    (trips, total)
}

/// The number of blocks for `total` iterations: ceil(total / block) clamped to
/// 1..=max-blocks (a grid of zero blocks is an invalid launch; with fewer blocks than
/// that, the threads stride).
fn grid_for(b: &Builder, anchor: Op, total: Val, shape: Shape) -> Val {
    let block = b.constant_index(anchor, shape.block_size);
    let block_less_one = b.constant_index(anchor, shape.block_size - 1);
    let one = b.constant_index(anchor, 1);
    let most = b.constant_index(anchor, shape.max_blocks);
    let rounded = b.binary(anchor, arith::addi, total, block_less_one);
    let blocks = b.binary(anchor, arith::divui, rounded, block);
    let blocks = b.binary(anchor, arith::maxui, blocks, one);
    b.binary(anchor, arith::minui, blocks, most)
}

/// Inside `launch`: a grid-stride `scf.for` over `0..total` carrying `inits`, and the
/// induction variables of the original loop at each linear position (row-major).
fn grid_stride_loop(
    b: &Builder,
    launch: &Launch,
    op: Op,
    trips: &[Val],
    total: Val,
    block_size: i64,
    inits: &[Val],
) -> (Op, Vec<Val>, Vec<Val>, Op) {
    let at = launch.end;
    let block = b.constant_index(at, block_size);
    let first = b.binary(at, arith::muli, launch.block_id, block);
    let first = b.binary(at, arith::addi, first, launch.thread_id);
    let stride = b.binary(at, arith::muli, launch.grid_size, block);
    let (loop_op, linear, accumulators, yield_op) = b.for_range(at, [first, total, stride], inits);
    let (lower, _, step) = bounds(op);
    let mut ivs = vec![linear; trips.len()];
    let mut rest = linear;
    for k in (0..trips.len()).rev() {
        let index = if k == 0 { rest } else { b.binary(yield_op, arith::remui, rest, trips[k]) };
        if k > 0 {
            rest = b.binary(yield_op, arith::divui, rest, trips[k]);
        }
        let scaled = b.binary(yield_op, arith::muli, index, step[k]);
        ivs[k] = b.binary(yield_op, arith::addi, lower[k], scaled);
    }
    (loop_op, ivs, accumulators, yield_op)
}

/// Moves the body of `scf.parallel` `op` before `anchor` with its induction variables
/// replaced by `ivs`; returns the operands of its `scf.reduce` (the values to combine).
/// Nested parallel loops in the moved body become sequential loops.
fn move_parallel_body(b: &Builder, op: Op, ivs: &[Val], anchor: Op) -> Vec<Val> {
    let body = ir::first_block(ir::region(op, 0));
    for (formal, actual) in ir::block_arguments(body).into_iter().zip(ivs) {
        ir::replace_uses_where(formal, *actual, |_| true);
    }
    let ops = ir::block_ops(body);
    let (reduce, moved) = ops.split_last().expect("scf.parallel bodies end in scf.reduce");
    for o in moved {
        ir::move_before(*o, anchor);
        for nested in ir::collect(*o, |n| ir::op_name(n) == "scf.parallel").into_iter().rev() {
            sequentialise(b, nested);
        }
    }
    ir::operands(*reduce)
}

/// A parallel loop without reductions → one grid-stride kernel.
fn parallel_kernel(b: &Builder, op: Op, shape: Shape) {
    let (trips, total) = trip_counts(b, op, op);
    let grid = grid_for(b, op, total, shape);
    let block = b.constant_index(op, shape.block_size);
    let l = launch(b, op, grid, block);
    let (_, ivs, _, yield_op) = grid_stride_loop(b, &l, op, &trips, total, shape.block_size, &[]);
    move_parallel_body(b, op, &ivs, yield_op);
    // SAFETY: the loop has no results; its body was moved out.
    unsafe { ir::erase(op) };
}

/// A parallel reduction → a kernel of block partials and a kernel combining them.
fn reduction_kernels(b: &Builder, op: Op, combiners: &[Combiner], shape: Shape) {
    let inits = reduction_inits(op);
    let types: Vec<MlirType> = inits.iter().map(|i| ir::value_type(*i)).collect();
    let (trips, total) = trip_counts(b, op, op);
    let grid = grid_for(b, op, total, shape);
    let block = b.constant_index(op, shape.block_size);
    let partials: Vec<Val> = types.iter().map(|t| alloc(b, op, *t, Some(grid))).collect();
    let results: Vec<Val> = types.iter().map(|t| alloc(b, op, *t, None)).collect();

    // Kernel 1: every thread folds its elements, every block its threads' values.
    let first = launch(b, op, grid, block);
    let identities: Vec<Val> = combiners.iter().zip(&types).map(|(c, t)| c.identity(b, first.end, *t)).collect();
    let (loop_op, ivs, accumulators, yield_op) =
        grid_stride_loop(b, &first, op, &trips, total, shape.block_size, &identities);
    let values = move_parallel_body(b, op, &ivs, yield_op);
    let combined: Vec<Val> =
        combiners.iter().enumerate().map(|(k, c)| c.apply(b, yield_op, accumulators[k], values[k])).collect();
    ir::set_operands(yield_op, &combined);
    let per_thread = ir::results(loop_op);
    let per_block: Vec<Val> =
        combiners.iter().enumerate().map(|(k, c)| all_reduce(b, first.end, c, per_thread[k])).collect();
    let leader = thread_zero(b, &first);
    for k in 0..combiners.len() {
        b.store(leader, per_block[k], partials[k], &[first.block_id]);
    }

    // Kernel 2: one block combines the partials, then the loop's initial values.
    let single = b.constant_index(op, 1);
    let second = launch(b, op, single, block);
    let identities: Vec<Val> = combiners.iter().zip(&types).map(|(c, t)| c.identity(b, second.end, *t)).collect();
    let (loop_op, j, accumulators, yield_op) = b.for_range(second.end, [second.thread_id, grid, block], &identities);
    let loaded: Vec<Val> = partials.iter().map(|p| b.load(yield_op, *p, &[j])).collect();
    let combined: Vec<Val> =
        combiners.iter().enumerate().map(|(k, c)| c.apply(b, yield_op, accumulators[k], loaded[k])).collect();
    ir::set_operands(yield_op, &combined);
    let per_thread = ir::results(loop_op);
    let totals: Vec<Val> =
        combiners.iter().enumerate().map(|(k, c)| all_reduce(b, second.end, c, per_thread[k])).collect();
    let leader = thread_zero(b, &second);
    for k in 0..combiners.len() {
        let with_init = combiners[k].apply(b, leader, inits[k], totals[k]);
        b.store(leader, with_init, results[k], &[]);
    }

    let replacements: Vec<Val> = results.iter().map(|r| b.load(op, *r, &[])).collect();
    for buffer in partials.iter().chain(&results) {
        dealloc(b, op, *buffer);
    }
    // SAFETY: every result is replaced; the body was moved out.
    unsafe { crate::to_loops::builder::replace_and_erase(op, &replacements) };
}

/// `scf.if %thread_id == 0` at the end of `launch`: the terminator of its `then` block.
fn thread_zero(b: &Builder, launch: &Launch) -> Op {
    let zero = b.constant_index(launch.end, 0);
    let is_first =
        b.put1(launch.end, arith::cmpi(b.context, arith::CmpiPredicate::Eq, v(launch.thread_id), v(zero), b.location));
    let block = Block::new(&[]);
    block.append_operation(melior::dialect::scf::r#yield(&[], b.location));
    let then_region = Region::new();
    then_region.append_block(block);
    let if_op = b.put(launch.end, melior::dialect::scf::r#if(v(is_first), &[], then_region, Region::new(), b.location));
    ir::terminator(ir::first_block(ir::region(if_op, 0)))
}

/// `gpu.all_reduce` of `value` over the block with the combine `c`, before `anchor`.
fn all_reduce(b: &Builder, anchor: Op, c: &Combiner, value: Val) -> Val {
    let t = ty(ir::value_type(value));
    let block = Block::new(&[(t, b.location), (t, b.location)]);
    let (lhs, rhs) = (block.argument(0).expect("lhs").to_raw(), block.argument(1).expect("rhs").to_raw());
    let region = Region::new();
    let block = region.append_block(block);
    let yield_op = block.append_operation(b.op("gpu.yield").build().expect("valid gpu.yield")).to_raw();
    let combined = c.apply(b, yield_op, lhs, rhs);
    ir::set_operands(yield_op, &[combined]);
    b.put1(
        anchor,
        b.op("gpu.all_reduce")
            .add_operands(&[v(value)])
            .add_results(&[t])
            .add_attributes(&[(Identifier::new(b.context, "uniform"), Attribute::unit(b.context))])
            .add_regions([region])
            .build()
            .expect("valid gpu.all_reduce"),
    )
}

/// A sequential op → a kernel of one thread; its scalar results come back through
/// one-element buffers.
fn one_thread_kernel(b: &Builder, op: Op) {
    let results = ir::results(op);
    let buffers: Vec<Val> = results.iter().map(|r| alloc(b, op, ir::value_type(*r), None)).collect();
    let one = b.constant_index(op, 1);
    let l = launch(b, op, one, one);
    ir::move_before(op, l.end);
    for nested in ir::collect(op, |n| ir::op_name(n) == "scf.parallel").into_iter().rev() {
        sequentialise(b, nested);
    }
    // The op may have been replaced by its sequential form: take the results anew from
    // what now precedes the terminator.
    let op = ir::block_ops(ir::first_block(ir::region(l.op, 0))).into_iter().rev().nth(1).expect("the moved op");
    let results = ir::results(op);
    for (r, buffer) in results.iter().zip(&buffers) {
        b.store(l.end, *r, *buffer, &[]);
    }
    let after = ir::next_in_block(l.op);
    for (r, buffer) in results.iter().zip(&buffers) {
        let loaded = b.load(after, *buffer, &[]);
        let launch_op = l.op;
        ir::replace_uses_where(*r, loaded, |user| !ir::is_within(user, launch_op));
        dealloc(b, after, *buffer);
    }
}

/// `scf.parallel` `op` (inside a kernel) → an `scf.for` nest that carries its
/// reductions, combined in iteration order with the combine regions of its `scf.reduce`.
fn sequentialise(b: &Builder, op: Op) {
    let (lower, upper, step) = bounds(op);
    let inits = reduction_inits(op);
    let mut ivs = Vec::new();
    let mut anchor = op;
    let mut carried = inits.clone();
    let mut loops = Vec::new();
    for k in 0..lower.len() {
        let (loop_op, iv, accumulators, yield_op) = b.for_range(anchor, [lower[k], upper[k], step[k]], &carried);
        ivs.push(iv);
        loops.push((loop_op, yield_op));
        anchor = yield_op;
        carried = accumulators;
    }
    let innermost_yield = anchor;
    let reduce = ir::terminator(ir::first_block(ir::region(op, 0)));
    let values = {
        let body = ir::first_block(ir::region(op, 0));
        for (formal, actual) in ir::block_arguments(body).into_iter().zip(&ivs) {
            ir::replace_uses_where(formal, *actual, |_| true);
        }
        let ops = ir::block_ops(body);
        for o in &ops[..ops.len() - 1] {
            ir::move_before(*o, innermost_yield);
        }
        ir::operands(reduce)
    };
    // Each reduction: the combine region's ops moved in, on (accumulator, value).
    let mut next = Vec::new();
    for (k, value) in values.iter().enumerate() {
        let block = ir::first_block(ir::region(reduce, k as isize));
        let formal = ir::block_arguments(block);
        ir::replace_uses_where(formal[0], carried[k], |_| true);
        ir::replace_uses_where(formal[1], *value, |_| true);
        let ops = ir::block_ops(block);
        let (ret, combine) = ops.split_last().expect("scf.reduce regions end in scf.reduce.return");
        for o in combine {
            ir::move_before(*o, innermost_yield);
        }
        next.push(ir::operands(*ret)[0]);
    }
    // Each loop yields what its inner loop produced (the innermost the combined values).
    let mut yielded = next;
    for (loop_op, yield_op) in loops.iter().rev() {
        ir::set_operands(*yield_op, &yielded);
        yielded = ir::results(*loop_op);
    }
    let replacements = if loops.is_empty() { inits } else { ir::results(loops[0].0) };
    // SAFETY: every result is replaced; the body and the combines were moved out.
    unsafe { crate::to_loops::builder::replace_and_erase(op, &replacements) };
}

/// `memref.copy %source, %target` → an `scf.parallel` over the shape storing each
/// element (the same effect; it then becomes a parallel kernel, or a loop inside one).
fn copy_as_parallel(context: &Context, copy: Op) {
    let b = Builder { context, location: unsafe { Location::from_raw(ir::location(copy)) } };
    let [source, target] = ir::operands(copy)[..] else { return };
    // SAFETY: live shaped type.
    let rank = unsafe { mlirShapedTypeGetRank(ir::value_type(source)) } as usize;
    let extents: Vec<Val> = (0..rank)
        .map(|d| {
            let dd = b.constant_index(copy, d as i64);
            b.put1(
                copy,
                b.op("memref.dim").add_operands(&[v(source), v(dd)]).add_results(&[b.index()]).build().expect("valid"),
            )
        })
        .collect();
    let (ivs, at) = b.parallel(copy, &extents);
    let element = b.load(at, source, &ivs);
    b.store(at, element, target, &ivs);
    // SAFETY: memref.copy has no results.
    unsafe { ir::erase(copy) };
}

// --- Reductions: the combines the GPU forms know -------------------------------------

/// The combines of the reductions of `scf.parallel` `op` (empty without reductions), or
/// `None` when one is not a known combine ([`Combiner`]).
fn reduction_combiners(op: Op) -> Option<Vec<Combiner>> {
    let reduce = ir::terminator(ir::first_block(ir::region(op, 0)));
    (0..ir::region_count(reduce)).map(|k| recognise(ir::first_block(ir::region(reduce, k as isize)))).collect()
}

/// The combine of one `scf.reduce` region: one known op on its two arguments (either
/// order), or `array-to-loops`' compare-and-select form of an integer min/max.
fn recognise(block: MlirBlock) -> Option<Combiner> {
    let arguments = ir::block_arguments(block);
    let ops = ir::block_ops(block);
    let returned = ir::operands(*ops.last()?);
    let on_arguments = |op: Op| {
        let o = ir::operands(op);
        o.len() == 2
            && ((ir::same_value(o[0], arguments[0]) && ir::same_value(o[1], arguments[1]))
                || (ir::same_value(o[0], arguments[1]) && ir::same_value(o[1], arguments[0])))
    };
    let returns = |op: Op| returned.len() == 1 && ir::same_value(returned[0], ir::results(op)[0]);
    match ops.len() {
        2 => {
            let op = ops[0];
            let name = ir::op_name(op);
            let known = array_dialect::view::INTEGER_REGROUPABLE.iter().chain(FLOAT_COMBINERS).find(|c| **c == name)?;
            (on_arguments(op) && returns(op)).then_some(Combiner { op: known })
        }
        3 => {
            // %c = arith.cmpi P, %a, %b ; %r = arith.select %c, %a, %b
            let (compare, select) = (ops[0], ops[1]);
            if ir::op_name(compare) != "arith.cmpi" || ir::op_name(select) != "arith.select" || !returns(select) {
                return None;
            }
            let c = ir::operands(compare);
            let s = ir::operands(select);
            let same_order = c.len() == 2
                && ir::same_value(s[0], ir::results(compare)[0])
                && ir::same_value(s[1], c[0])
                && ir::same_value(s[2], c[1])
                && on_arguments(compare);
            if !same_order {
                return None;
            }
            // Predicates of arith.cmpi: sgt 4, slt 2, ugt 8, ult 6 (and the non-strict ones
            // pick the same value up to ties, which are equal).
            let op = match ir::int_attribute_inherent(compare, "predicate")? {
                4 | 5 => "arith.maxsi",
                2 | 3 => "arith.minsi",
                8 | 9 => "arith.maxui",
                6 | 7 => "arith.minui",
                _ => return None,
            };
            Some(Combiner { op })
        }
        _ => None,
    }
}

// --- Small IR helpers -------------------------------------------------------------

/// Lower bounds, upper bounds and steps of `scf.parallel` `op`.
fn bounds(op: Op) -> (Vec<Val>, Vec<Val>, Vec<Val>) {
    let n = ir::block_arguments(ir::first_block(ir::region(op, 0))).len();
    let operands = ir::operands(op);
    (operands[..n].to_vec(), operands[n..2 * n].to_vec(), operands[2 * n..3 * n].to_vec())
}

/// The initial values of the reductions of `scf.parallel` `op`.
fn reduction_inits(op: Op) -> Vec<Val> {
    let n = ir::block_arguments(ir::first_block(ir::region(op, 0))).len();
    ir::operands(op)[3 * n..].to_vec()
}

/// Whether a one-element buffer can carry a value of type `t` back to the host.
fn scalar(t: MlirType) -> bool {
    // SAFETY: live type.
    unsafe {
        mlirTypeIsAInteger(t)
            || mlirTypeIsAIndex(t)
            || mlirTypeIsAFloat(t)
            || mlirTypeIsAComplex(t)
            || mlirTypeIsAVector(t)
    }
}
