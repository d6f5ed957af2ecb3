//! An expand fused with a permute (a scatter) as one GPU kernel, with seed 004's work
//! divisions (Van Gils, *Fusion of Expand and Permute in Accelerate*, §4.1).
//!
//! `array-to-loops` lowers a cluster of an `expand` and the `scatter` that consumes its
//! elements (with the maps between them folded into the loop body, seed 004 §3.2 Listing
//! 8) to a *segment nest*: an `scf.for` over the source elements whose body computes the
//! element's values and its segment length (the `count` region), then an inner `scf.for`
//! over the segment that runs the `get` region and the scatter's read-modify-write. When
//! the expanded arrays are not stored (fused away), the running offset the outer loop
//! carries is dead, and the nest is seed 004 §4.1's pseudo-code: a nested loop whose
//! inner trip count differs per element. `segment_nest` recognises it; every strategy
//! below runs the same (source, position) pairs, each exactly once, with the scatter's
//! updates made atomic (`memref.atomic_rmw`, as `parallel_forms::atomics` argues: the
//! combine is commutative and associative, so any order gives the sequential result).
//! Seed 004 §4.2 also offers locks for other combines; here a scatter whose combine has
//! no atomic form keeps its sequential kernel (one GPU thread, reported).
//!
//! The strategies (option `expand-strategy` of `array-gpu-kernels`):
//!
//! * `1-per-thread` (§4.1.1): a grid-stride loop over the source elements, each thread
//!   running whole segments.
//! * `1-per-warp` (§4.1.5): one warp per source element; lane 0 computes the element's
//!   values and count, `gpu.shuffle idx` hands them to the other lanes, and the lanes
//!   stride over the segment by 32.
//! * `1-per-block-shuffle` (§4.1.3): one block per element; lane 0 of every warp
//!   computes the values and shuffles them to its warp; the threads stride over the
//!   segment by the block size.
//! * `1-per-block-shared` (§4.1.4): one block per element; thread 0 computes the values
//!   into workgroup memory, a barrier, every thread reads them there.
//! * `N-per-block` (§4.1.6, Listing 9): each block takes N consecutive elements (N a
//!   power of two, 2 to 1024); its threads compute their values and counts into
//!   workgroup memory, thread 0 turns the counts into inclusive prefix sums
//!   (sequentially, as Listing 9), and the threads stride over the block's whole
//!   expansion, each finding its element by the unrolled binary search of §4.3.
//! * `balanced` (§6.1, future work there): the counts of all elements, their exclusive
//!   scan in global memory (the three-phase scan of `array-gpu-kernels`), then one
//!   thread per expanded element over the whole expansion, finding its element by a
//!   binary search of the offsets.
//! * `auto` (the default): [`choose`], from what the program states about the segment
//!   lengths (docs: "Expand + permute on the GPU" in the README).
//!
//! Seed 004's kernels stride over the elements with `for i in range(block_id, n,
//! num_blocks)`; the per-warp and per-block kernels here launch one warp or block per
//! element instead (a grid of up to 2^31 − 1 blocks), so every shuffle and barrier is
//! reached by every thread of the block at the kernel's top level, where
//! `array-gpu-emulate` can check them. Listing 9 passes `smem_size[input_idx - 1]` to
//! `get` where the position within the segment (`i2` minus it) is meant; here the
//! position is used.

use super::{Launch, Shape, grid_for, launch, launch_with_workgroup};
use crate::ir::{self, Op, Val};
use crate::parallel_forms::accesses::{load_buffer, root};
use crate::parallel_forms::{alloc, atomics, trip_count};
use crate::to_loops::builder::{Builder, ty, v};
use melior::dialect::arith;
use melior::ir::{Attribute, Type, TypeLike};
use mlir_sys::*;

/// How the segments of an expand fused with a scatter are divided among GPU threads.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ExpandStrategy {
    /// Chosen per nest by [`choose`].
    #[default]
    Auto,
    PerThread,
    PerWarp,
    PerBlockShuffle,
    PerBlockShared,
    /// N consecutive elements per block (a power of two, 2 to 1024).
    PerBlock(u32),
    Balanced,
}

impl ExpandStrategy {
    /// What the option accepts, for messages.
    pub const NAMES: &'static str = "auto, 1-per-thread, 1-per-warp, 1-per-block-shuffle, 1-per-block-shared, N-per-block (N a power of two from 2 to 1024), balanced";

    /// Every strategy with a fixed division (a few N-per-block), for tests and benchmarks.
    pub const ALL: [ExpandStrategy; 8] = [
        ExpandStrategy::PerThread,
        ExpandStrategy::PerWarp,
        ExpandStrategy::PerBlockShuffle,
        ExpandStrategy::PerBlockShared,
        ExpandStrategy::PerBlock(2),
        ExpandStrategy::PerBlock(16),
        ExpandStrategy::PerBlock(128),
        ExpandStrategy::Balanced,
    ];

    pub fn from_name(name: &str) -> Option<ExpandStrategy> {
        Some(match name {
            "auto" => ExpandStrategy::Auto,
            "1-per-thread" => ExpandStrategy::PerThread,
            "1-per-warp" => ExpandStrategy::PerWarp,
            "1-per-block-shuffle" => ExpandStrategy::PerBlockShuffle,
            "1-per-block-shared" => ExpandStrategy::PerBlockShared,
            "balanced" => ExpandStrategy::Balanced,
            other => {
                let n: u32 = other.strip_suffix("-per-block")?.parse().ok()?;
                if !(2..=1024).contains(&n) || !n.is_power_of_two() {
                    return None;
                }
                ExpandStrategy::PerBlock(n)
            }
        })
    }

    pub fn name(self) -> String {
        match self {
            ExpandStrategy::Auto => "auto".into(),
            ExpandStrategy::PerThread => "1-per-thread".into(),
            ExpandStrategy::PerWarp => "1-per-warp".into(),
            ExpandStrategy::PerBlockShuffle => "1-per-block-shuffle".into(),
            ExpandStrategy::PerBlockShared => "1-per-block-shared".into(),
            ExpandStrategy::PerBlock(n) => format!("{n}-per-block"),
            ExpandStrategy::Balanced => "balanced".into(),
        }
    }
}

/// The default division of a nest whose segments are at most `bound` long (`None`:
/// nothing bounds them statically), for blocks of `block_size` threads. The rule rests
/// on seed 004 §5's measurements (RTX 2080 Ti, run times relative to the unfused
/// kernels, Figs. 5–12):
///
/// * segments of at most one element (an expand used as a filter, Fig. 8): from 10^4
///   elements every division takes 0.15–0.23, 1-per-thread 0.15–0.16, among the
///   fastest, and it needs no shuffle or barrier: `1-per-thread`;
/// * short segments (at most half a block; Figs. 5 and 6, 0–10 and 0–100): at 10^5 and
///   2·10^5 elements the N-per-block kernels take 0.16–0.21, where 1-per-thread takes up
///   to 0.75 (Fig. 6) and 1-per-block 0.25 (Fig. 5: one element per block leaves most of
///   its threads idle); §5.1 puts the best N at the block size over the mean segment
///   length, taken here as half the bound (the mean of lengths spread evenly up to it),
///   rounded down to a power of two;
/// * anything else (long or unknown lengths): `1-per-block-shared`. 1-per-block is the
///   one division below the unfused time in every figure seed 004 prints, including the sieve's
///   pathologically uneven segments (Fig. 12: 0.78 at 10^7, where 1-per-warp is 2.35
///   and 16-per-block 2.98), and it is seed 004's own conclusion (§6). Of its two forms
///   the shared-memory one reads each element once per block (§4.1.4, NVIDIA's advice
///   for data every thread of a block uses).
///
/// The number of source elements does not enter the rule: seed 004 measures every
/// distribution from 1 to 2·10^5 elements, and both its best N (§5.1) and its
/// conclusion (§6) are argued from the segment lengths alone.
pub fn choose(bound: Option<i64>, block_size: i64) -> ExpandStrategy {
    match bound {
        Some(b) if b <= 1 => ExpandStrategy::PerThread,
        Some(b) if b <= block_size / 2 => {
            let mean = ((b + 1) / 2).max(1);
            let n = (block_size / mean).clamp(2, 1024) as u32;
            // The largest power of two not above n.
            ExpandStrategy::PerBlock(1 << (31 - n.leading_zeros()))
        }
        _ => ExpandStrategy::PerBlockShared,
    }
}

/// A segment nest (see the module doc).
pub(super) struct SegmentNest {
    /// The loop over the source elements.
    outer: Op,
    outer_iv: Val,
    outer_bounds: [Val; 3],
    /// The ops of the outer body before the segment loop: pure, region-free arithmetic
    /// and loads (the element's values and its count).
    prefix: Vec<Op>,
    /// The segment loop: `scf.for %i = 0 to %count step 1`, no results.
    inner: Op,
    count: Val,
    /// The values of `prefix` the segment loop's body uses.
    live_ins: Vec<Val>,
}

/// The nest of `op`; otherwise why not (`None`: `op` does not have a segment nest's
/// shape at all: a loop whose body holds a loop from 0 to a count by 1). Nothing is
/// changed.
pub(super) fn segment_nest(op: Op) -> Result<SegmentNest, Option<String>> {
    let body = ir::first_block(ir::region(op, 0));
    let inner_loop = ir::block_ops(body).into_iter().find(|o| ir::op_name(*o) == "scf.for");
    // The count is computed per element (inside the outer loop), or constant with the
    // outer loop still carrying the segments' offset, which nothing reads (an expand of
    // constant-length segments): other rectangular nests are not expands.
    let offset_only = !ir::results(op).is_empty() && ir::results(op).iter().all(|r| ir::uses(*r).is_empty());
    let shaped = ir::op_name(op) == "scf.for"
        && ir::int_attribute(op, "unsignedCmp").is_none()
        && inner_loop.is_some_and(|inner| {
            let operands = ir::operands(inner);
            ir::int_constant(operands[0]) == Some(0)
                && ir::int_constant(operands[2]) == Some(1)
                && (!ir::defined_outside(operands[1], op) || offset_only)
        });
    if !shaped {
        return Err(None);
    }
    nest_of(op).map_err(Some)
}

fn nest_of(op: Op) -> Result<SegmentNest, String> {
    if ir::results(op).iter().any(|r| !ir::uses(*r).is_empty()) {
        return Err("its carried values are used after it".into());
    }
    let body = ir::first_block(ir::region(op, 0));
    let arguments = ir::block_arguments(body);
    let ops = ir::block_ops(body);
    let (yield_op, ops) = ops.split_last().expect("scf.for bodies end in scf.yield");
    let inner_at = ops
        .iter()
        .position(|o| ir::op_name(*o) == "scf.for")
        .ok_or_else(|| "its body has no inner loop".to_string())?;
    let (prefix, rest) = ops.split_at(inner_at);
    let (inner, after) = (rest[0], &rest[1..]);
    let pure = |o: Op| {
        let name = ir::op_name(o);
        ir::region_count(o) == 0 && ["arith.", "math.", "index."].iter().any(|p| name.starts_with(p))
    };
    if let Some(other) = prefix.iter().find(|o| {
        !(pure(**o)
            || (ir::region_count(**o) == 0 && matches!(ir::op_name(**o).as_str(), "memref.load" | "memref.dim")))
    }) {
        return Err(format!("the ops before its segment loop include '{}'", ir::op_name(*other)));
    }
    // What follows the segment loop only advances the carried values (the expand's
    // running offset), which nothing reads: dead once the nest is divided differently.
    let feeds_yield_only = |value: Val| {
        ir::uses(value)
            .iter()
            .all(|(user, _)| ir::same_op(*user, *yield_op) || after.iter().any(|a| ir::same_op(*a, *user)))
    };
    if after.iter().any(|o| !pure(*o) || !ir::results(*o).into_iter().all(feeds_yield_only)) {
        return Err("ops after its segment loop do more than advance the carried offset".into());
    }
    if arguments[1..].iter().any(|a| !ir::uses(*a).iter().all(|(user, _)| after.iter().any(|x| ir::same_op(*x, *user))))
    {
        return Err("its carried values are read by the segments".into());
    }
    if ir::int_attribute(inner, "unsignedCmp").is_some() || !ir::results(inner).is_empty() {
        return Err("its segment loop carries values".into());
    }
    let inner_operands = ir::operands(inner);
    let (updates, written) = atomics::updates_of(ir::first_block(ir::region(inner, 0)))
        .map_err(|why| format!("its segment loop cannot run in parallel: {why}"))?;
    if updates.is_empty() {
        return Err("its segment loop updates no scatter destination".into());
    }
    // The elements' values must not depend on the updates (an element read before or
    // after another's update would differ between orders).
    for load in prefix.iter().filter(|o| ir::op_name(**o) == "memref.load") {
        if written.iter().any(|w| ir::same_value(root(load_buffer(*load)), *w)) {
            return Err("it reads a buffer its segments update".into());
        }
    }
    let live_ins = prefix
        .iter()
        .flat_map(|o| ir::results(*o))
        .filter(|r| ir::uses(*r).iter().any(|(user, _)| !ir::same_op(*user, inner) && ir::is_within(*user, inner)))
        .collect();
    let operands = ir::operands(op);
    Ok(SegmentNest {
        outer: op,
        outer_iv: arguments[0],
        outer_bounds: [operands[0], operands[1], operands[2]],
        prefix: prefix.to_vec(),
        inner,
        count: inner_operands[1],
        live_ins,
    })
}

/// What the program states about the segment lengths: an upper bound of `count`, if its
/// definition gives one (constants, remainders and minima by constants, through casts
/// and the clamp at zero that `array-to-loops` puts on every count).
pub(super) fn count_bound(count: Val) -> Option<i64> {
    if let Some(c) = ir::int_constant(count) {
        return Some(c);
    }
    let op = ir::defining_op(count)?;
    let operands = ir::operands(op);
    let constant = |k: usize| operands.get(k).and_then(|o| ir::int_constant(*o));
    match ir::op_name(op).as_str() {
        // A flag widened without sign (canonicalization's form of `select(c, 1, 0)`).
        "arith.extui"
            if unsafe {
                mlirTypeIsAInteger(ir::value_type(operands[0]))
                    && mlirIntegerTypeGetWidth(ir::value_type(operands[0])) == 1
            } =>
        {
            Some(1)
        }
        "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" => count_bound(operands[0]),
        // max(x, 0) with x ≤ b is at most max(b, 0).
        "arith.maxsi" if constant(1) == Some(0) => count_bound(operands[0]).map(|b| b.max(0)),
        // |x rem c| < c for c > 0.
        "arith.remui" | "arith.remsi" => constant(1).filter(|c| *c > 0).map(|c| c - 1),
        "arith.minsi" | "arith.minui" => match (count_bound(operands[0]), count_bound(operands[1])) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        },
        "arith.select" => Some(count_bound(operands[1])?.max(count_bound(operands[2])?)),
        // x + y ≤ bx + by (the counts are far from overflowing).
        "arith.addi" => Some(count_bound(operands[0])?.checked_add(count_bound(operands[1])?)?),
        // x & c ≤ c for c ≥ 0.
        "arith.andi" => constant(1).or(constant(0)).filter(|c| *c >= 0),
        _ => None,
    }
}

impl SegmentNest {
    pub(super) fn bound(&self) -> Option<i64> {
        count_bound(self.count)
    }

    /// The scalar values a strategy hands from the thread that computes an element to
    /// the threads that run its segment: the segment body's inputs and the count.
    fn handed(&self) -> Vec<Val> {
        let mut values = self.live_ins.clone();
        if !values.iter().any(|x| ir::same_value(*x, self.count)) && !ir::defined_outside(self.count, self.outer) {
            values.push(self.count);
        }
        values
    }

    /// Whether every handed value can go through `gpu.shuffle` (integers and floats of
    /// at most 64 bits, and indices).
    fn shuffleable(&self) -> bool {
        self.handed().iter().all(|x| shuffle_width(ir::value_type(*x)).is_some())
    }
}

/// Rewrites the segment nest as kernels of `strategy` (`Auto`: [`choose`]'s). Returns the
/// strategy used (the shuffling ones fall back to `1-per-block-shared` for values a
/// shuffle cannot carry) and, for `balanced`, the host loop computing the offsets, a
/// scan for the caller to make kernels of.
pub(super) fn divide(
    b: &Builder,
    nest: SegmentNest,
    strategy: ExpandStrategy,
    shape: Shape,
) -> (ExpandStrategy, Option<Op>) {
    let strategy = match strategy {
        ExpandStrategy::Auto => choose(nest.bound(), shape.block_size),
        s => s,
    };
    let strategy = match strategy {
        ExpandStrategy::PerWarp | ExpandStrategy::PerBlockShuffle if !nest.shuffleable() => {
            ExpandStrategy::PerBlockShared
        }
        s => s,
    };
    let op = nest.outer;
    let elements = trip_count(b, op, nest.outer_bounds);
    let mut scan = None;
    match strategy {
        ExpandStrategy::PerThread => per_thread(b, &nest, elements, shape),
        ExpandStrategy::PerWarp => per_warp(b, &nest, elements, shape),
        ExpandStrategy::PerBlockShuffle => per_block_shuffle(b, &nest, elements, shape),
        ExpandStrategy::PerBlockShared => per_block_shared(b, &nest, elements, shape),
        ExpandStrategy::PerBlock(n) => n_per_block(b, &nest, elements, shape, n as i64),
        ExpandStrategy::Balanced => scan = Some(balanced(b, &nest, elements, shape)),
        ExpandStrategy::Auto => unreachable!("chosen above"),
    }
    // SAFETY: no result of the nest is used (checked by `segment_nest`); the kernels hold
    // clones of its ops.
    unsafe { ir::erase(op) };
    (strategy, scan)
}

// --- Building blocks ------------------------------------------------------------------

/// A value map from the nest's values to a kernel's.
type Map = Vec<(Val, Val)>;

fn mapped(map: &Map, value: Val) -> Val {
    map.iter().find(|(from, _)| ir::same_value(*from, value)).map(|(_, to)| *to).unwrap_or(value)
}

/// A clone of `op` before `anchor` (operands as in `op`).
fn clone_before(op: Op, anchor: Op) -> Op {
    // SAFETY: cloning a live op; the clone is inserted into the anchor's block at once.
    unsafe {
        let copy = mlirOperationClone(op);
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor), anchor, copy);
        copy
    }
}

/// The source element `lower + position·step` of the outer loop, before `anchor`.
fn source(b: &Builder, nest: &SegmentNest, anchor: Op, position: Val) -> Val {
    let [lower, _, step] = nest.outer_bounds;
    let scaled = b.binary(anchor, arith::muli, position, step);
    b.binary(anchor, arith::addi, lower, scaled)
}

/// The element's values: the prefix cloned before `anchor` for source element `s`.
fn element_values(nest: &SegmentNest, anchor: Op, s: Val) -> Map {
    let mut map: Map = vec![(nest.outer_iv, s)];
    for op in &nest.prefix {
        let copy = clone_before(*op, anchor);
        let operands: Vec<Val> = ir::operands(copy).into_iter().map(|o| mapped(&map, o)).collect();
        ir::set_operands(copy, &operands);
        for (from, to) in ir::results(*op).into_iter().zip(ir::results(copy)) {
            map.push((from, to));
        }
    }
    map
}

/// The segment loop cloned before `anchor` over `bounds`, its inputs taken from `map`
/// (which holds the source element), its updates atomic.
fn segment(b: &Builder, nest: &SegmentNest, anchor: Op, bounds: [Val; 3], map: &Map) {
    let copy = clone_before(nest.inner, anchor);
    ir::set_operands(copy, &bounds);
    for (from, to) in map {
        ir::replace_uses_where(*from, *to, |user| ir::is_within(user, copy));
    }
    let (updates, _) = atomics::updates_of(ir::first_block(ir::region(copy, 0)))
        .expect("a clone of a segment loop whose updates were recognised");
    for update in updates {
        atomics::make_atomic(b, update);
    }
}

/// The width in bits a shuffle of type `t` moves (None: not shuffled here).
fn shuffle_width(t: MlirType) -> Option<u32> {
    // SAFETY: live type.
    unsafe {
        if mlirTypeIsAIndex(t) {
            Some(64)
        } else if mlirTypeIsAInteger(t) {
            Some(mlirIntegerTypeGetWidth(t)).filter(|w| *w <= 64)
        } else if mlirTypeIsAF32(t) || mlirTypeIsAF64(t) {
            Some(if mlirTypeIsAF32(t) { 32 } else { 64 })
        } else {
            None
        }
    }
}

/// `gpu.shuffle idx` of `value` from lane 0 of each warp, before `anchor`: indices go as
/// i64, integers narrower than 32 bits as i32 (the NVVM and ROCDL lowerings split 64-bit
/// shuffles into two 32-bit ones).
fn shuffle_from_lane_zero(b: &Builder, anchor: Op, value: Val) -> Val {
    let t = ir::value_type(value);
    let i32_type: Type = melior::ir::r#type::IntegerType::new(b.context, 32).into();
    let i64_type: Type = melior::ir::r#type::IntegerType::new(b.context, 64).into();
    // SAFETY: live type.
    let (is_index, narrow) = unsafe { (mlirTypeIsAIndex(t), mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) < 32) };
    let carried = if is_index {
        b.put1(anchor, arith::index_cast(v(value), i64_type, b.location))
    } else if narrow {
        b.put1(anchor, arith::extui(v(value), i32_type, b.location))
    } else {
        value
    };
    let i32_constant = |n: i64| {
        b.put1(
            anchor,
            arith::constant(b.context, melior::ir::attribute::IntegerAttribute::new(i32_type, n).into(), b.location),
        )
    };
    let (lane, width) = (i32_constant(0), i32_constant(32));
    let carried_type = ir::value_type(carried);
    let boolean: Type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let shuffle = b.put(
        anchor,
        b.op("gpu.shuffle")
            .add_operands(&[v(carried), v(lane), v(width)])
            .add_results(&[ty(carried_type), boolean])
            .add_attributes(&[(
                melior::ir::Identifier::new(b.context, "mode"),
                Attribute::parse(b.context, "#gpu<shuffle_mode idx>").expect("the gpu dialect is loaded"),
            )])
            .build()
            .expect("valid gpu.shuffle"),
    );
    let shuffled = ir::results(shuffle)[0];
    if is_index {
        b.put1(anchor, arith::index_cast(v(shuffled), b.index(), b.location))
    } else if narrow {
        b.put1(anchor, arith::trunci(v(shuffled), ty(t), b.location))
    } else {
        shuffled
    }
}

/// A zero of scalar type `t` (integer, index or float), before `anchor`.
fn zero(b: &Builder, anchor: Op, t: MlirType) -> Val {
    let attribute = Attribute::parse(b.context, &format!("0 : {}", ty(t)))
        .or_else(|| Attribute::parse(b.context, &format!("0.0 : {}", ty(t))));
    b.put1(anchor, arith::constant(b.context, attribute.expect("a zero of a scalar type"), b.location))
}

fn compare(b: &Builder, anchor: Op, predicate: arith::CmpiPredicate, lhs: Val, rhs: Val) -> Val {
    b.put1(anchor, arith::cmpi(b.context, predicate, v(lhs), v(rhs), b.location))
}

fn select(b: &Builder, anchor: Op, condition: Val, yes: Val, no: Val) -> Val {
    b.put1(anchor, arith::select(v(condition), v(yes), v(no), b.location))
}

fn barrier(b: &Builder, anchor: Op) {
    b.put(anchor, b.op("gpu.barrier").build().expect("valid gpu.barrier"));
}

/// A workgroup buffer type: `memref<length x t, #gpu.address_space<workgroup>>`.
fn workgroup_type(b: &Builder, t: MlirType, length: i64) -> MlirType {
    Type::parse(b.context, &format!("memref<{length}x{}, #gpu.address_space<workgroup>>", ty(t)))
        .expect("a workgroup memref type")
        .to_raw()
}

/// `max(n, 1)`: a launch needs one block at least (its threads then find no element).
fn at_least_one(b: &Builder, anchor: Op, n: Val) -> Val {
    let one = b.constant_index(anchor, 1);
    b.binary(anchor, arith::maxui, n, one)
}

/// `ceil(n / d)` for a constant `d`, before `anchor`.
fn ceil_div(b: &Builder, anchor: Op, n: Val, d: i64) -> Val {
    let d_less_one = b.constant_index(anchor, d - 1);
    let d = b.constant_index(anchor, d);
    let rounded = b.binary(anchor, arith::addi, n, d_less_one);
    b.binary(anchor, arith::divui, rounded, d)
}

/// `scf.if %condition` at the end of `launch` with results of the types of `values`:
/// the `then` branch computes them (by `then`, before its yield), the `else` branch
/// yields zeros. Returns the `if`'s results.
fn computed_where(b: &Builder, anchor: Op, condition: Val, values: &[Val], then: impl FnOnce(Op) -> Map) -> Vec<Val> {
    let types: Vec<Type> = values.iter().map(|x| ty(ir::value_type(*x))).collect();
    let (if_op, then_yield, else_yield) = b.if_else(anchor, condition, &types);
    let map = then(then_yield);
    let yielded: Vec<Val> = values.iter().map(|x| mapped(&map, *x)).collect();
    ir::set_operands(then_yield, &yielded);
    let zeros: Vec<Val> = values.iter().map(|x| zero(b, else_yield, ir::value_type(*x))).collect();
    ir::set_operands(else_yield, &zeros);
    ir::results(if_op)
}

// --- The strategies -----------------------------------------------------------------

/// §4.1.1: a grid-stride loop over the elements, whole segments per thread.
fn per_thread(b: &Builder, nest: &SegmentNest, elements: Val, shape: Shape) {
    let op = nest.outer;
    let grid = grid_for(b, op, elements, shape);
    let block = b.constant_index(op, shape.block_size);
    let l = launch(b, op, grid, block);
    let at = l.end;
    let bs = b.constant_index(at, shape.block_size);
    let first = b.binary(at, arith::muli, l.block_id, bs);
    let first = b.binary(at, arith::addi, first, l.thread_id);
    let stride = b.binary(at, arith::muli, l.grid_size, bs);
    let (_, position, _, end) = b.for_range(at, [first, elements, stride], &[]);
    let s = source(b, nest, end, position);
    let map = element_values(nest, end, s);
    let zero = b.constant_index(end, 0);
    let one = b.constant_index(end, 1);
    segment(b, nest, end, [zero, mapped(&map, nest.count), one], &map);
}

/// The shuffling strategies: one element per `group` (a warp, or a block of warps):
/// `element` is the group's element, lane 0 of each warp computes its values, shuffles
/// hand them to the warp, and the threads stride over the segment from `first` by
/// `stride`.
fn shuffled(b: &Builder, nest: &SegmentNest, l: &Launch, elements: Val, element: Val, first: Val, stride: Val) {
    let at = l.end;
    let warp_size = b.constant_index(at, 32);
    let lane = b.binary(at, arith::remui, l.thread_id, warp_size);
    let zero = b.constant_index(at, 0);
    let valid = compare(b, at, arith::CmpiPredicate::Ult, element, elements);
    let lane_zero = compare(b, at, arith::CmpiPredicate::Eq, lane, zero);
    let leader = b.binary(at, arith::andi, lane_zero, valid);
    let handed = nest.handed();
    let computed = computed_where(b, at, leader, &handed, |then| {
        let s = source(b, nest, then, element);
        element_values(nest, then, s)
    });
    let mut map: Map =
        handed.iter().zip(&computed).map(|(from, value)| (*from, shuffle_from_lane_zero(b, at, *value))).collect();
    let guarded = b.guard(at, &[], &[], Some(valid));
    let s = source(b, nest, guarded, element);
    map.push((nest.outer_iv, s));
    segment(b, nest, guarded, [first, mapped(&map, nest.count), stride], &map);
}

/// §4.1.5: one warp per element.
fn per_warp(b: &Builder, nest: &SegmentNest, elements: Val, shape: Shape) {
    let op = nest.outer;
    let warps_per_block = shape.block_size / 32;
    let grid = at_least_one(b, op, ceil_div(b, op, elements, warps_per_block));
    let block = b.constant_index(op, shape.block_size);
    let l = launch(b, op, grid, block);
    let at = l.end;
    let warp_size = b.constant_index(at, 32);
    let per_block = b.constant_index(at, warps_per_block);
    let warp_in_block = b.binary(at, arith::divui, l.thread_id, warp_size);
    let warp = b.binary(at, arith::muli, l.block_id, per_block);
    let warp = b.binary(at, arith::addi, warp, warp_in_block);
    let lane = b.binary(at, arith::remui, l.thread_id, warp_size);
    shuffled(b, nest, &l, elements, warp, lane, warp_size);
}

/// §4.1.3: one block per element, shuffles within each warp.
fn per_block_shuffle(b: &Builder, nest: &SegmentNest, elements: Val, shape: Shape) {
    let op = nest.outer;
    let grid = at_least_one(b, op, elements);
    let block = b.constant_index(op, shape.block_size);
    let l = launch(b, op, grid, block);
    let stride = b.constant_index(l.end, shape.block_size);
    shuffled(b, nest, &l, elements, l.block_id, l.thread_id, stride);
}

/// §4.1.4: one block per element, its values through workgroup memory.
fn per_block_shared(b: &Builder, nest: &SegmentNest, elements: Val, shape: Shape) {
    let op = nest.outer;
    let grid = at_least_one(b, op, elements);
    let block = b.constant_index(op, shape.block_size);
    let handed = nest.handed();
    let types: Vec<MlirType> = handed.iter().map(|x| workgroup_type(b, ir::value_type(*x), 1)).collect();
    let (l, shared) = launch_with_workgroup(b, op, grid, block, &types);
    let at = l.end;
    let zero = b.constant_index(at, 0);
    let valid = compare(b, at, arith::CmpiPredicate::Ult, l.block_id, elements);
    let thread_zero = compare(b, at, arith::CmpiPredicate::Eq, l.thread_id, zero);
    let leader = b.binary(at, arith::andi, thread_zero, valid);
    let then = b.guard(at, &[], &[], Some(leader));
    let s = source(b, nest, then, l.block_id);
    let values = element_values(nest, then, s);
    for (x, buffer) in handed.iter().zip(&shared) {
        b.store(then, mapped(&values, *x), *buffer, &[zero]);
    }
    barrier(b, at);
    let mut map: Map = handed.iter().zip(&shared).map(|(x, buffer)| (*x, b.load(at, *buffer, &[zero]))).collect();
    let guarded = b.guard(at, &[], &[], Some(valid));
    let s = source(b, nest, guarded, l.block_id);
    map.push((nest.outer_iv, s));
    let stride = b.constant_index(guarded, shape.block_size);
    segment(b, nest, guarded, [l.thread_id, mapped(&map, nest.count), stride], &map);
}

/// §4.1.6 (Listing 9) with §4.3's unrolled binary search: `n` elements per block.
fn n_per_block(b: &Builder, nest: &SegmentNest, elements: Val, shape: Shape, n: i64) {
    let op = nest.outer;
    let grid = at_least_one(b, op, ceil_div(b, op, elements, n));
    let block = b.constant_index(op, shape.block_size);
    let index_type = b.index().to_raw();
    let mut types = vec![workgroup_type(b, index_type, n)];
    types.extend(nest.live_ins.iter().map(|x| workgroup_type(b, ir::value_type(*x), n)));
    let (l, shared) = launch_with_workgroup(b, op, grid, block, &types);
    let (sums, inputs) = (shared[0], &shared[1..]);
    let at = l.end;
    let zero = b.constant_index(at, 0);
    let one = b.constant_index(at, 1);
    let n_value = b.constant_index(at, n);
    let stride = b.constant_index(at, shape.block_size);
    let first_element = b.binary(at, arith::muli, l.block_id, n_value);

    // The counts and values of the block's elements (0 past the last element).
    let (_, j, _, end) = b.for_range(at, [l.thread_id, n_value, stride], &[]);
    let element = b.binary(end, arith::addi, first_element, j);
    let inside = compare(b, end, arith::CmpiPredicate::Ult, element, elements);
    let (if_op, then_yield, else_yield) = b.if_else(end, inside, &[b.index()]);
    let s = source(b, nest, then_yield, element);
    let values = element_values(nest, then_yield, s);
    for (x, buffer) in nest.live_ins.iter().zip(inputs) {
        b.store(then_yield, mapped(&values, *x), *buffer, &[j]);
    }
    ir::set_operands(then_yield, &[mapped(&values, nest.count)]);
    let no_elements = b.constant_index(else_yield, 0);
    ir::set_operands(else_yield, &[no_elements]);
    b.store(end, ir::results(if_op)[0], sums, &[j]);
    barrier(b, at);

    // Thread 0: the inclusive prefix sums, sequentially (Listing 9).
    let is_zero = compare(b, at, arith::CmpiPredicate::Eq, l.thread_id, zero);
    let then = b.guard(at, &[], &[], Some(is_zero));
    let first_sum = b.load(then, sums, &[zero]);
    let (_, j, carried, end) = b.for_range(then, [one, n_value, one], &[first_sum]);
    let count = b.load(end, sums, &[j]);
    let sum = b.binary(end, arith::addi, carried[0], count);
    b.store(end, sum, sums, &[j]);
    ir::set_operands(end, &[sum]);
    barrier(b, at);

    // Every expanded element of the block, one per thread and step.
    let last = b.constant_index(at, n - 1);
    let total = b.load(at, sums, &[last]);
    let (_, k, _, end) = b.for_range(at, [l.thread_id, total, stride], &[]);
    // §4.3, unrolled: the number of inclusive sums not above k, which is the element
    // whose segment holds k (sums are non-decreasing, so those are a prefix of them;
    // k < total = sums[n - 1], so it is below n; an empty segment's sum equals the one
    // before it and is skipped). Step `bit` tests the last sum of the next 2^bit
    // candidates: all of them are ≤ k exactly when it is.
    let mut found = b.constant_index(end, 0);
    for bit in (0..n.trailing_zeros()).rev() {
        let mask = b.constant_index(end, 1 << bit);
        let mask_less_one = b.constant_index(end, (1 << bit) - 1);
        let middle = b.binary(end, arith::addi, found, mask_less_one);
        let sum = b.load(end, sums, &[middle]);
        let below = compare(b, end, arith::CmpiPredicate::Ule, sum, k);
        let advanced = b.binary(end, arith::addi, found, mask);
        found = select(b, end, below, advanced, found);
    }
    let is_first = compare(b, end, arith::CmpiPredicate::Eq, found, zero);
    let before = b.binary(end, arith::maxui, found, one);
    let before = b.binary(end, arith::subi, before, one);
    let previous = b.load(end, sums, &[before]);
    let start = select(b, end, is_first, zero, previous);
    let position = b.binary(end, arith::subi, k, start);
    let element = b.binary(end, arith::addi, first_element, found);
    let mut map: Map =
        nest.live_ins.iter().zip(inputs).map(|(x, buffer)| (*x, b.load(end, *buffer, &[found]))).collect();
    map.push((nest.outer_iv, source(b, nest, end, element)));
    let next = b.binary(end, arith::addi, position, one);
    segment(b, nest, end, [position, next, one], &map);
}

/// §6.1's globally balanced division: the offsets of all segments (an exclusive scan of
/// the counts, in global memory), then one thread per expanded element, which finds its
/// element by a binary search of the offsets. Returns the host loop of the scan, which
/// the caller makes kernels of (the three phases of `array-gpu-kernels`).
fn balanced(b: &Builder, nest: &SegmentNest, elements: Val, shape: Shape) -> Op {
    let op = nest.outer;
    let index_type = b.index().to_raw();
    let zero = b.constant_index(op, 0);
    let one = b.constant_index(op, 1);
    let length = b.binary(op, arith::addi, elements, one);
    let offsets = alloc(b, op, index_type, Some(length));
    // offsets[p] = the counts of the elements before p; offsets[elements] = the total.
    let (scan, p, carried, end) = b.for_range(op, [zero, elements, one], &[zero]);
    let s = source(b, nest, end, p);
    let values = element_values(nest, end, s);
    b.store(end, carried[0], offsets, &[p]);
    let next = b.binary(end, arith::addi, carried[0], mapped(&values, nest.count));
    ir::set_operands(end, &[next]);
    let total = ir::results(scan)[0];
    b.store(op, total, offsets, &[elements]);
    // The search below halves lo..hi (initially 0..elements) at each step: the bit
    // length of `elements` steps leave one candidate.
    let i64_type: Type = melior::ir::r#type::IntegerType::new(b.context, 64).into();
    let wide = b.put1(op, arith::index_cast(v(elements), i64_type, b.location));
    let leading = b.put1(
        op,
        b.op("math.ctlz").add_operands(&[v(wide)]).add_results(&[i64_type]).build().expect("valid math.ctlz"),
    );
    let sixty_four = b.put1(
        op,
        arith::constant(b.context, melior::ir::attribute::IntegerAttribute::new(i64_type, 64).into(), b.location),
    );
    let bits = b.binary(op, arith::subi, sixty_four, leading);
    let steps = b.put1(op, arith::index_cast(v(bits), b.index(), b.location));

    let grid = grid_for(b, op, total, shape);
    let block = b.constant_index(op, shape.block_size);
    let l = launch(b, op, grid, block);
    let at = l.end;
    let bs = b.constant_index(at, shape.block_size);
    let first = b.binary(at, arith::muli, l.block_id, bs);
    let first = b.binary(at, arith::addi, first, l.thread_id);
    let stride = b.binary(at, arith::muli, l.grid_size, bs);
    let (_, k, _, end) = b.for_range(at, [first, total, stride], &[]);
    // The last element whose offset is ≤ k: its segment holds k (an empty segment's
    // offset equals the next one's, so the last of equal offsets is the non-empty one;
    // k < total = offsets[elements]). Invariant: offsets[lo] ≤ k (offsets[0] = 0) and
    // the answer is below hi; mid = (lo + hi) / 2 lies in lo..hi while hi > lo + 1, and
    // equals lo once hi = lo + 1, where the step changes nothing.
    let zero_in = b.constant_index(end, 0);
    let one_in = b.constant_index(end, 1);
    let (search, _, bounds, step_end) = b.for_range(end, [zero_in, steps, one_in], &[zero_in, elements]);
    let (lo, hi) = (bounds[0], bounds[1]);
    let two = b.constant_index(step_end, 2);
    let sum = b.binary(step_end, arith::addi, lo, hi);
    let middle = b.binary(step_end, arith::divui, sum, two);
    let offset = b.load(step_end, offsets, &[middle]);
    let below = compare(b, step_end, arith::CmpiPredicate::Ule, offset, k);
    let new_lo = select(b, step_end, below, middle, lo);
    let new_hi = select(b, step_end, below, hi, middle);
    ir::set_operands(step_end, &[new_lo, new_hi]);
    let found = ir::results(search)[0];
    let start = b.load(end, offsets, &[found]);
    let position = b.binary(end, arith::subi, k, start);
    let s = source(b, nest, end, found);
    let map = element_values(nest, end, s);
    let next = b.binary(end, arith::addi, position, one_in);
    segment(b, nest, end, [position, next, one_in], &map);
    crate::parallel_forms::dealloc(b, op, offsets);
    scan
}
