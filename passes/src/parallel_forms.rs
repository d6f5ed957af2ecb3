//! Parallel forms of the sequential loop nests of `array-to-loops`, once bufferized, and
//! the CPU pass `array-parallel-forms` that uses them (`array-gpu-kernels` uses them too,
//! making each parallel loop a kernel).
//!
//! `array-to-loops` lowers the combinators that carry a value from one element to the
//! next as sequential `scf.for` loops: scans (seed 000 §2), a filter's compaction (seed
//! 001 §1.3), an expand's placement of its segments (seed 004 §1) and scatters (seed 000
//! §2; sequential because two sources may target one element). These have parallel
//! forms that compute the same values:
//!
//! * `scans::three_phase`: a loop whose carried values are updated by a regroupable
//!   (associative) combine → three phases over chunks of iterations: the chunks'
//!   partials (`scf.parallel`), their exclusive scan (`scf.for` over the chunks), each
//!   chunk rerun from its offset with its stores (`scf.parallel`); and a fourth
//!   (`scf.for` over the chunks) where the loop also folds the scanned values;
//! * `owners::by_owner`: a scatter nest (any combine) → an `scf.parallel` over owners,
//!   each running the whole nest in source order and performing only the updates of its
//!   own rows of the destination: the sequential result bit for bit, nothing atomic;
//! * `atomics::parallel_updates`: a scatter nest whose combine is commutative and
//!   associative → one `scf.parallel` of `memref.atomic_rmw` updates (on the CPU only on
//!   request, see below);
//! * `private::private_copies`: the same nests → each thread updates a private copy of
//!   the destination from its share of the sources, and the copies are then combined
//!   into it (taken at run time where the copies are small next to the sources);
//! * `ordered_folds::values_then_fold`: a loop nest carrying a fold whose combine may not
//!   be regrouped (a float sum in order), of values each iteration computes alone → the
//!   iterations in parallel, each storing its value, then the fold over those values in
//!   the program's order (seed 003's heat-equation step: rows in parallel, the total of
//!   the row sums after).
//!
//! Each states the conditions under which the parallel form is exact, and refuses (with
//! the reason, changing nothing) any loop that breaks one. Folds need no rewrite here:
//! `array-to-loops` already makes a fold whose combine may be regrouped an `scf.parallel`
//! with `scf.reduce`.
//!
//! `array-parallel-forms` applies them to every `scf.for` of a function that no
//! `scf.parallel` encloses, outermost first (a loop that has no parallel form is searched
//! for inner loops that do; a loop's carried values that nothing reads are dropped first,
//! `without_dead_carried_values`), so that `convert-scf-to-openmp` then runs every phase on all
//! threads (`fusion_codegen`'s OpenMP pipeline runs it just before). Loops that stay
//! sequential are reported, one remark each with the condition they broke, and a summary
//! remark per function counts every kind. Then every outermost `scf.parallel` of two or
//! more dimensions without reductions keeps only its first dimension parallel, the others
//! becoming `scf.for` loops inside it (`outermost_dimension_only` says why). On one
//! thread the phases read their input
//! twice, so the sequential pipelines leave the loops as they are: they are the reference
//! forms the tests compare with.
//!
//! By default (`scatters=exact`) a scatter runs on private copies, one per owner (or, with
//! `copies-at-run-time=true`, as `fusion_codegen`'s OpenMP pipeline sets it, one per
//! thread OpenMP has when the program runs), where regrouping its combine gives the
//! program's value (an integer combine, a float minimum or maximum, or a float add or
//! multiply the program marked `fastmath<reassoc>`), there are two copies or more, and
//! the copies are small next to the sources (both checked at run time when counted
//! then); otherwise it stays in source order. The option
//! `scatters` asks for another form (`sequential`; `owners`, on `owners` owners, which
//! `fusion_codegen`'s OpenMP pipeline sets to its thread count; `atomic`; or `private`
//! for every commutative combine with an identity, float sums regrouped), because no
//! form wins on every index distribution. Measured on this project's 2-core x86
//! machine, 10^7 elements, 2 threads against the loop in order on one (`kernel-bench
//! --threads 2 --scatters FORM`):
//!
//! * a histogram of 10^7 bins, of which its generated inputs reach 16
//!   (`examples/seed000_histogram.mlir`, `@histogram`): by owner 0.83× (each owner
//!   recomputes the bins of every element; the updates, to 16 cached bins, are cheap),
//!   atomic 0.17× (286 ms against 49: the threads contend for the same cache lines);
//!   private copies of 10^7 bins are too large, so that form runs the loop in order (1.0×);
//! * the same into 256 bins (`@byteHistogram`, 2026-11-27): private 1.56–1.81×, by owner
//!   0.16×, atomic 0.05×;
//! * a scatter-add to 10^7 bins spread by a multiplicative hash: by owner 1.17×.
//!
//! Even without contention (10^7 random bins, one thread, C) a locked add took 1.6–1.8×
//! the time of a plain one, as it stops the core from overlapping the cache misses of
//! successive updates. GPUs have no such cost, and `array-gpu-kernels` uses the atomic
//! form.

pub(crate) mod accesses;
pub(crate) mod atomics;
mod ordered_folds;
mod owners;
mod private;
pub use private::MAX_THREADS_FUNCTION;
pub(crate) mod scans;

use crate::bridge::{PassDefinition, PassFailed, PassOption, PassOptions, emit_error, emit_remark};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::{Builder, ty, v, vs};
use melior::{
    Context,
    dialect::arith,
    ir::{
        Attribute, Identifier, Location, OperationRef,
        attribute::{DenseI32ArrayAttribute, FloatAttribute, IntegerAttribute},
        operation::OperationLike,
    },
};
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-parallel-forms",
    description: "Run the bufferized sequential loops of array-to-loops that have a parallel form in parallel on the CPU: loops carrying a regroupable combine (scans, filter compaction, expand placement) as three scf.parallel phases over chunks, scatters on private copies of the destination where regrouping their combine is exact (the default, scatters=exact), or as requested (scatters=owners, atomic: scf.parallel with memref.atomic_rmw, or private); every loop that stays sequential is reported",
    anchor: Some("func.func"),
    dependent_dialects: &[mlirGetDialectHandle__arith__, mlirGetDialectHandle__memref__, mlirGetDialectHandle__scf__],
    options: &[
        PassOption {
            name: "max-chunks",
            description: "Most chunks of a three-phase scan (their exclusive scan runs sequentially)",
            default: || CPU_CHUNKING.max_chunks.to_string(),
        },
        PassOption {
            name: "scatters",
            description: "How scatter nests run: exact (the default: on private copies, as with private, where regrouping the combine gives the sequential value (an integer combine, a float minimum or maximum) or the program allows it (a float add or multiply marked fastmath<reassoc>) and there are two owners or more; otherwise in source order), sequential (in source order), owners (each of `owners` threads runs the whole nest in source order and performs the updates of its own rows of the destination; exact for any combine) atomic (scf.parallel with memref.atomic_rmw, for commutative combines) or private (each of `owners` threads updates a private copy of the destination from its share of the sources, and the copies are combined into it; for commutative combines with an identity, taken at run time where the copies are small next to the sources); see the measurements in the module doc",
            default: || ScatterForm::default().name().into(),
        },
        PassOption {
            name: "owners",
            description: "Owners of a scatter run by owner: the number of threads that will run it (fusion_codegen's OpenMP pipeline passes the OpenMP thread count of the compiling process)",
            default: || "2".into(),
        },
        PassOption {
            name: "copies-at-run-time",
            description: "Private copies of a scatter's destination: as many as OpenMP has threads when the program runs (omp_get_max_threads, which the module must declare; fusion_codegen's OpenMP pipeline does) instead of `owners`: true or false",
            default: || "false".into(),
        },
        PassOption {
            name: "min-chunk",
            description: "Fewest iterations per chunk of a three-phase scan",
            default: || CPU_CHUNKING.min_chunk.to_string(),
        },
    ],
    state: None,
    run,
};

/// How a three-phase scan divides its iterations: `ceil(trips / max_chunks)` iterations
/// per chunk, but at least `min_chunk` (the last chunk may have fewer).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chunking {
    pub max_chunks: i64,
    pub min_chunk: i64,
}

/// The CPU's default: a thread runs whole chunks, so a few per thread balance the work
/// (OpenMP's static schedule hands each thread a contiguous run of them), and 1024 of
/// them keep the sequential phase (one step per chunk) negligible next to 10^5 or more
/// elements. The small least chunk makes inputs of a few hundred elements span many
/// chunks, which the tests exercise.
pub(crate) const CPU_CHUNKING: Chunking = Chunking { max_chunks: 1024, min_chunk: 16 };

/// How scatter nests run (option `scatters`): on private copies where that gives the
/// program's value and pays (`exact`, the default: `private::exact_private_copies`), in
/// source order, by owner (`owners::by_owner`: exact for any combine), with atomic
/// updates (`atomics::parallel_updates`: commutative combines), or on private copies for
/// every commutative combine with an identity (`private::private_copies`, float sums
/// regrouped). No parallel form wins on every index distribution (the measurements are
/// in the module doc).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ScatterForm {
    #[default]
    Exact,
    Sequential,
    Owners,
    Atomic,
    Private,
}

impl ScatterForm {
    pub const ALL: [ScatterForm; 5] =
        [ScatterForm::Exact, ScatterForm::Sequential, ScatterForm::Owners, ScatterForm::Atomic, ScatterForm::Private];

    /// The value of the pass option `scatters` (and of `fuse-opt --scatters=`).
    pub fn name(self) -> &'static str {
        match self {
            ScatterForm::Exact => "exact",
            ScatterForm::Sequential => "sequential",
            ScatterForm::Owners => "owners",
            ScatterForm::Atomic => "atomic",
            ScatterForm::Private => "private",
        }
    }

    pub fn from_name(name: &str) -> Option<ScatterForm> {
        ScatterForm::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// The options: how scans are chunked, and how scatters run (by how many owners).
#[derive(Clone, Copy)]
struct Forms {
    chunking: Chunking,
    scatters: ScatterForm,
    owners: i64,
    /// Private copies as many as the threads at run time (option `copies-at-run-time`).
    copies_at_run_time: bool,
}

impl Forms {
    fn copies(&self) -> private::Copies {
        if self.copies_at_run_time { private::Copies::AtRunTime } else { private::Copies::Fixed(self.owners) }
    }
}

/// What became of the sequential loops of one function (the summary remark).
#[derive(Default)]
struct Counts {
    scans: usize,
    /// Of the scans, those with a fourth loop combining the chunks' folds of scanned values.
    scan_folds: usize,
    owners: usize,
    atomic: usize,
    private: usize,
    /// Folds in order of values computed in parallel (`ordered_folds`).
    ordered_folds: usize,
    sequential: usize,
}

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let number = |name: &str| -> Result<i64, PassFailed> {
        options.get(name).trim().parse::<i64>().ok().filter(|n| (1..=i32::MAX as i64).contains(n)).ok_or_else(|| {
            emit_error(
                function.location(),
                &format!("array-parallel-forms: {name} must be a positive integer, not '{}'", options.get(name)),
            );
            PassFailed
        })
    };
    let chunking = Chunking { max_chunks: number("max-chunks")?, min_chunk: number("min-chunk")? };
    let Some(scatters) = ScatterForm::from_name(options.get("scatters").trim()) else {
        emit_error(
            function.location(),
            &format!(
                "array-parallel-forms: scatters must be 'exact', 'sequential', 'owners', 'atomic' or 'private', not '{}'",
                options.get("scatters").trim()
            ),
        );
        return Err(PassFailed);
    };
    let copies_at_run_time = match options.get("copies-at-run-time").trim() {
        "true" | "1" => true,
        "false" | "0" => false,
        other => {
            emit_error(
                function.location(),
                &format!("array-parallel-forms: copies-at-run-time must be true or false, not '{other}'"),
            );
            return Err(PassFailed);
        }
    };
    let forms = Forms { chunking, scatters, owners: number("owners")?, copies_at_run_time };
    let function = function.to_raw();
    let mut counts = Counts::default();
    convert_block(context, ir::first_block(ir::region(function, 0)), forms, &mut counts);
    for parallel in ir::collect(function, |op| ir::op_name(op) == "scf.parallel") {
        // SAFETY: the location of a live op.
        let b = Builder { context, location: unsafe { Location::from_raw(ir::location(parallel)) } };
        outermost_dimension_only(&b, parallel);
    }
    // SAFETY: the location of a live op.
    let location = unsafe { Location::from_raw(ir::location(function)) };
    emit_remark(
        location,
        &format!(
            "array-parallel-forms: {} scans (three phases each, {} with a fourth folding scanned values), {} scatters by owner, {} scatters with atomic updates, {} scatters on private copies, {} ordered folds of values computed in parallel, {} loops stay sequential",
            counts.scans,
            counts.scan_folds,
            counts.owners,
            counts.atomic,
            counts.private,
            counts.ordered_folds,
            counts.sequential
        ),
    );
    Ok(())
}

/// Gives every `scf.for` of `block` not enclosed by an `scf.parallel` its parallel form
/// where it has one; looks inside the others, and inside other region ops.
fn convert_block(context: &Context, block: MlirBlock, forms: Forms, counts: &mut Counts) {
    for op in ir::block_ops(block) {
        let name = ir::op_name(op);
        if name == "scf.parallel" {
            // Already parallel; the loops inside run within one of its iterations.
            continue;
        }
        if name == "scf.for" {
            // SAFETY: the location of a live op.
            let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
            let op = without_dead_carried_values(&b, op);
            let refusal = if ir::results(op).is_empty() {
                match forms.scatters {
                    ScatterForm::Exact => match private::exact_private_copies(&b, op, forms.copies()) {
                        Ok(_) => {
                            counts.private += 1;
                            continue;
                        }
                        Err(why) => why,
                    },
                    ScatterForm::Sequential => match owners::admits(op) {
                        Ok(()) => "a scatter, in source order (scatters=owners, atomic or private give it a parallel form; none wins on every index distribution)".to_string(),
                        Err(why) => why,
                    },
                    ScatterForm::Atomic => match atomics::parallel_updates(&b, op) {
                        Ok(_) => {
                            counts.atomic += 1;
                            continue;
                        }
                        Err(why) => why,
                    },
                    ScatterForm::Private => match private::private_copies(&b, op, forms.copies()) {
                        Ok(_) => {
                            counts.private += 1;
                            continue;
                        }
                        Err(why) => why,
                    },
                    ScatterForm::Owners => match owners::admits(op) {
                        Ok(()) => {
                            let count = b.constant_index(op, forms.owners);
                            owners::by_owner(&b, op, count).expect("admitted above");
                            counts.owners += 1;
                            continue;
                        }
                        Err(why) => why,
                    },
                }
            } else {
                match scans::three_phase(&b, op, forms.chunking) {
                    Ok(phases) => {
                        counts.scans += 1;
                        counts.scan_folds += phases.folds.is_some() as usize;
                        continue;
                    }
                    Err(why) => match ordered_folds::values_then_fold(&b, op) {
                        Ok(_) => {
                            counts.ordered_folds += 1;
                            continue;
                        }
                        Err(None) => why,
                        Err(Some(also)) => {
                            format!("{why}; nor may its values be computed in parallel and folded after: {also}")
                        }
                    },
                }
            };
            let before = counts.scans + counts.atomic + counts.owners + counts.private + counts.ordered_folds;
            convert_regions(context, op, forms, counts);
            let inner_parallel = counts.scans + counts.atomic + counts.owners + counts.private + counts.ordered_folds
                > before
                || !ir::collect(op, |o| !ir::same_op(o, op) && ir::op_name(o) == "scf.parallel").is_empty();
            if !inner_parallel {
                emit_remark(b.location, &format!("array-parallel-forms: 'scf.for' stays sequential: {refusal}"));
                counts.sequential += 1;
            }
            continue;
        }
        convert_regions(context, op, forms, counts);
    }
}

/// `scf.for` `op` rebuilt without its carried values when none is used: every result
/// unused, and every carried value read only by one pure op whose result is only yielded
/// as its next value (an expand fused into a scatter still counts its segments' total,
/// which nothing reads); else `op` itself. Such a value affects nothing but itself, so
/// dropping it, with its update, changes no other value or store; and a loop without
/// carried values is a scatter nest the scatter forms can take whole, where before they
/// took the nest of each iteration alone (and paid their setup once per iteration).
fn without_dead_carried_values(b: &Builder, op: Op) -> Op {
    let body = ir::first_block(ir::region(op, 0));
    let carried = ir::block_arguments(body)[1..].to_vec();
    let terminator = ir::terminator(body);
    let yielded = ir::operands(terminator);
    if carried.is_empty() || ir::results(op).iter().any(|r| !ir::uses(*r).is_empty()) {
        return op;
    }
    let mut updates = Vec::new();
    for (acc, y) in carried.iter().zip(&yielded) {
        let Some(update) = sole_update(op, *acc, *y) else { return op };
        updates.push(update);
    }
    let operands = ir::operands(op);
    let (rebuilt, iv, _, end) = b.for_range(op, [operands[0], operands[1], operands[2]], &[]);
    ir::replace_uses_where(ir::block_arguments(body)[0], iv, |_| true);
    for o in ir::block_ops(body) {
        if !ir::same_op(o, terminator) && !updates.iter().any(|u| ir::same_op(*u, o)) {
            ir::move_before(o, end);
        }
    }
    // SAFETY: the updates' results are used only by the old terminator, erased with `op`,
    // whose results are unused; the updates go first (they use the old block's arguments).
    unsafe {
        ir::erase(terminator);
        for u in updates {
            ir::erase(u);
        }
        ir::erase(op);
    }
    rebuilt
}

/// The op that alone updates carried value `acc` of `scf.for` `op` to its next value
/// `y`, if there is one: `acc`'s only user, a pure op (`arith`, `math`, `complex`, `index`)
/// of the body's own block with the single result `y`, which only the body's `scf.yield`
/// uses. Then no other op of any iteration sees `acc` or `y`.
pub(crate) fn sole_update(op: Op, acc: Val, y: Val) -> Option<Op> {
    let [(update, _)] = ir::uses(acc)[..] else { return None };
    let terminator = ir::terminator(ir::first_block(ir::region(op, 0)));
    let pure = ["arith.", "math.", "complex.", "index."].iter().any(|p| ir::op_name(update).starts_with(p));
    let in_body = ir::parent_op(update).is_some_and(|p| ir::same_op(p, op));
    let only_yielded = matches!(ir::results(update)[..], [r] if ir::same_value(r, y))
        && matches!(ir::uses(y)[..], [(user, _)] if ir::same_op(user, terminator));
    (pure && in_body && only_yielded).then_some(update)
}

/// Rewrites an `scf.parallel` of two or more dimensions without reductions, that no other
/// `scf.parallel` encloses, as an `scf.parallel` over its first dimension whose body runs
/// the other dimensions as nested `scf.for` loops; leaves any other loop as it is.
///
/// Why: `convert-scf-to-openmp` collapses the dimensions of a loop into one work-sharing
/// loop and recovers each index with a division and a remainder by the trip counts, in
/// every iteration, which also keeps LLVM from vectorising the innermost dimension: seed
/// 003's Gauss elimination step (a 3162 × 3162 map) ran 8.8 ms on one thread and 17.1 ms
/// on two. With the first dimension shared out and the others in order inside it, each
/// thread runs whole rows as the one-thread program does. Any order of the iterations of
/// a loop without reductions computes the same (that is what `scf.parallel` states), so
/// running some of them in sequence changes no result.
fn outermost_dimension_only(b: &Builder, parallel: Op) {
    let enclosed =
        std::iter::successors(ir::parent_op(parallel), |o| ir::parent_op(*o)).any(|o| ir::op_name(o) == "scf.parallel");
    let body = ir::first_block(ir::region(parallel, 0));
    let ivs = ir::block_arguments(body);
    let n = ivs.len();
    if enclosed || n < 2 || !ir::results(parallel).is_empty() {
        return;
    }
    let operands = ir::operands(parallel);
    let (lower, upper, step) = (&operands[..n], &operands[n..2 * n], &operands[2 * n..3 * n]);
    let (_, outer, mut anchor) = b.parallel_range(parallel, &lower[..1], &upper[..1], &step[..1], &[]);
    let mut new_ivs = vec![outer[0]];
    for d in 1..n {
        let (_, iv, _, body_end) = b.for_range(anchor, [lower[d], upper[d], step[d]], &[]);
        new_ivs.push(iv);
        anchor = body_end;
    }
    for (old, new) in ivs.iter().zip(&new_ivs) {
        ir::replace_uses_where(*old, *new, |_| true);
    }
    let ops = ir::block_ops(body);
    for op in &ops[..ops.len() - 1] {
        ir::move_before(*op, anchor);
    }
    // SAFETY: the loop has no results and its body (but for its empty `scf.reduce`) was
    // moved out.
    unsafe { ir::erase(parallel) };
}

fn convert_regions(context: &Context, op: Op, forms: Forms, counts: &mut Counts) {
    for r in 0..ir::region_count(op) {
        for inner in ir::region_blocks(ir::region(op, r as isize)) {
            convert_block(context, inner, forms, counts);
        }
    }
}

// --- Combines --------------------------------------------------------------------------

/// An associative, commutative `arith` op combining two partial values, with an
/// identity, so that threads without elements contribute nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Combiner {
    pub(crate) op: &'static str,
}

/// The float combines the parallel forms know besides the integer ones of
/// [`array_dialect::view::INTEGER_REGROUPABLE`] (each has an identity, see
/// [`Combiner::identity`]).
pub(crate) const FLOAT_COMBINERS: &[&str] =
    &["arith.addf", "arith.mulf", "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf"];

impl Combiner {
    /// `lhs op rhs`, before `anchor`.
    pub(crate) fn apply(&self, b: &Builder, anchor: Op, lhs: Val, rhs: Val) -> Val {
        b.put1(
            anchor,
            b.op(self.op)
                .add_operands(&[v(lhs), v(rhs)])
                .add_results(&[ty(ir::value_type(lhs))])
                .build()
                .expect("valid combine"),
        )
    }

    /// The identity of the combine on `t`, a constant before `anchor`. Proofs: x+0 = x,
    /// x·1 = x, x & ~0 = x, x | 0 = x ^ 0 = x, max(x, MIN) = x, min(x, MAX) = x (signed
    /// and unsigned bounds of the width), -0.0 + x = x for every float x (also +0.0 and
    /// NaN), maximumf(x, -inf) = x, minimumf(x, +inf) = x, maxnumf/minnumf(x, NaN) = x.
    pub(crate) fn identity(&self, b: &Builder, anchor: Op, t: MlirType) -> Val {
        // SAFETY: live type, checked before reading.
        let width = unsafe {
            if mlirTypeIsAIndex(t) {
                64
            } else if mlirTypeIsAInteger(t) {
                mlirIntegerTypeGetWidth(t)
            } else {
                0
            }
        };
        let int = |value: i64| -> Attribute { IntegerAttribute::new(ty(t), value).into() };
        let float = |value: f64| -> Attribute { FloatAttribute::new(b.context, ty(t), value).into() };
        let signed_min = if width >= 64 { i64::MIN } else { -(1i64 << (width.max(1) - 1)) };
        let attribute = match self.op {
            "arith.addi" | "arith.ori" | "arith.xori" | "arith.maxui" => int(0),
            "arith.muli" => int(1),
            "arith.andi" | "arith.minui" => int(-1),
            "arith.maxsi" => int(signed_min),
            "arith.minsi" => int(!signed_min),
            "arith.addf" => float(-0.0),
            "arith.mulf" => float(1.0),
            "arith.maximumf" => float(f64::NEG_INFINITY),
            "arith.minimumf" => float(f64::INFINITY),
            _ => float(f64::NAN), // maxnumf, minnumf
        };
        b.put1(anchor, arith::constant(b.context, attribute, b.location))
    }
}

// --- Small IR helpers -------------------------------------------------------------

/// `memref.alloc` of a vector of `length` elements of `element`, or of a rank-0 buffer.
pub(crate) fn alloc(b: &Builder, anchor: Op, element: MlirType, length: Option<Val>) -> Val {
    let dynamic = i64::MIN; // ShapedType::kDynamic
    let shape: &[i64] = if length.is_some() { &[dynamic] } else { &[] };
    // SAFETY: building a type of the context from a live element type.
    let t =
        unsafe { mlirMemRefTypeContiguousGet(element, shape.len() as isize, shape.as_ptr(), mlirAttributeGetNull()) };
    let sizes: Vec<Val> = length.into_iter().collect();
    alloc_of_type(b, anchor, t, &sizes)
}

/// `memref.alloc(sizes) : t` (host memory) before `anchor`: `sizes` are the dynamic extents.
pub(crate) fn alloc_of_type(b: &Builder, anchor: Op, t: MlirType, sizes: &[Val]) -> Val {
    b.put1(
        anchor,
        b.op("memref.alloc")
            .add_operands(&vs(sizes))
            .add_attributes(&[(
                Identifier::new(b.context, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(b.context, &[sizes.len() as i32, 0]).into(),
            )])
            .add_results(&[ty(t)])
            .build()
            .expect("valid memref.alloc"),
    )
}

pub(crate) fn dealloc(b: &Builder, anchor: Op, buffer: Val) {
    b.put(anchor, b.op("memref.dealloc").add_operands(&[v(buffer)]).build().expect("valid memref.dealloc"));
}

/// The number of iterations of a loop over `lower..upper` by `step` (positive, as
/// `scf.for`'s and `scf.parallel`'s steps are): max(upper - lower, 0) ceildiv step.
pub(crate) fn trip_count(b: &Builder, anchor: Op, [lower, upper, step]: [Val; 3]) -> Val {
    let zero = b.constant_index(anchor, 0);
    let one = b.constant_index(anchor, 1);
    let span = b.binary(anchor, arith::subi, upper, lower);
    let span = b.binary(anchor, arith::maxsi, span, zero);
    let rounded = b.binary(anchor, arith::addi, span, step);
    let rounded = b.binary(anchor, arith::subi, rounded, one);
    b.binary(anchor, arith::divui, rounded, step)
}
