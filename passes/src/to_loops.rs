//! `array-to-loops`: lowers the array combinators to `scf` loop nests over buffers — one
//! loop nest per combinator outside clusters, one per `array.cluster`.
//!
//! The pass first adds the run-time checks of the size equalities the fusion analysis
//! could not prove (`size_checks`: ops marked `array.check_sizes`), then lowers the scalar
//! queries everywhere (element functions included):
//! `array.size`, `array.dim`, `array.index` → `tensor.dim` (a constant for a static
//! extent) and `tensor.extract`. Then it visits the combinators in post order (nested
//! ones, inside element functions, first) and lowers each combinator outside a cluster
//! on its own (`unfused`) and each cluster as a whole (`cluster`).
//!
//! Modules:
//! * `builder`: the `Builder` of upstream ops (`scf`, `memref`,
//!   `arith`, `tensor`, `bufferization`) before an anchor op, the type helpers, and the
//!   moves of element functions into loop bodies (`inline_body`).
//! * `unfused`: one loop nest per combinator outside clusters.
//!   - `map` / `generate` / `gather` → `memref.alloc` of every result (dynamic sizes from
//!     `tensor.dim` of an input, or the generate's shape operands), an `scf.parallel` over
//!     the result's index space whose body holds the element function (moved, not cloned:
//!     block arguments become `memref.load`s of the inputs (`bufferization.to_buffer`), or
//!     the induction variables for generate; the `array.yield` becomes `memref.store`s),
//!     then `bufferization.to_tensor … restrict writable` replacing the results. A gather
//!     loads every index array at the induction variables (`arith.index_cast` for integer
//!     indices) and then the source. Rank-0 maps get no loop (the body is moved in place).
//!   - `fold` → `scf.parallel` over the outer dimensions (none for a rank-1 input) around
//!     an `scf.for` over the innermost dimension carrying the accumulators (`iter_args`,
//!     the body moved in, `scf.yield` of the new accumulators); the final accumulators are
//!     stored into the result buffers.
//!   - `scan` → the same loops; the row is visited at `k` (left) or `n-1-k` (right);
//!     inclusive scans combine then store, exclusive scans store the accumulator then
//!     combine.
//!   - `scatter` → a copy of the destination (`memref.alloc` + `memref.copy` from
//!     `bufferization.to_buffer`), or none when the destination's own buffer may be
//!     updated in place (a loop nest of this pass made it and nothing else reads it:
//!     `Builder::destination_buffer`), then a *sequential* `scf.for` nest over the
//!     values' index space (source order, which the interpreter uses too, so non-commutative
//!     combines agree): the index arrays are loaded (`arith.index_cast` for integer
//!     indices), and inside an `scf.if` bounds check (`cmpi ult` per dimension, so
//!     negative indices fail too) the old element is combined with the value and stored.
//!     An out-of-range index is skipped by compiled code; the reference interpreter
//!     reports an error there.
//!   - `permute` (the one `array-desugar` keeps: with a keep flag, seed 004 §1.1) → like
//!     scatter: a copy of the destination (or none, as there), then a sequential
//!     `scf.for` nest over the source in row-major order; the `index` region runs at the source index, and under
//!     one `scf.if` (keep flag and bounds) `dest[t] = combine(dest[t], src[s])`. A dropped
//!     element is never written whatever its target (the interpreter drops before it
//!     checks bounds); later kept elements are combined after earlier ones with one
//!     target; targets nobody writes keep the destination's element.
//!   - `filter` and `expand` of vectors, sequentially. Filter: result buffers of the input
//!     length (an upper bound), one `scf.for` over the input carrying the output count;
//!     the predicate runs on the loaded elements and, under `scf.if`, every input's element
//!     is stored at `count` and the count incremented; the results are the first `count`
//!     elements (`memref.reinterpret_cast` to identity layout, so bufferization,
//!     deallocation and the LLVM lowering see an ordinary view of the alloc). Expand: a
//!     first `scf.for` sums the `count` region (a clone of the op, via
//!     `mlirOperationClone`) into the total length; the results are allocated with it; a
//!     second `scf.for` carries the running offset around an inner `scf.for` over
//!     `0..count` storing the `get` region's values at `offset + j`. Negative counts are
//!     taken as 0 (the interpreter reports an error there).
//! * `cluster`: every cluster is one loop nest (see its module doc) — maps, generates,
//!   gathers, folds, scans (right scans and order-1 leaves: a loop from the end) and
//!   filters (one `scf.for` carrying the counts, the filter's consumers under `scf.if` on
//!   its predicate), expands (a first loop summing the counts, then per element a loop
//!   over its segment), producers fused into gathers (seed 000 simple1: `xs[is[k]]`;
//!   simple2: `xs[is1[is2[k]]]`; folds included, simple4), and scatters/permutes fed by
//!   the loop (their destination copied before it, or updated in place as above; every
//!   dimension then an `scf.for`, in source order), and leaves reading fold results (after the loop that carries the
//!   fold, in the body of the outer loops: a map over row sums; a rank-0 map once after
//!   the nest). Its submodules are the sizes (`cluster::extents`), the plan of the
//!   leaves and their scopes (`cluster::plan`) and the emission of the loop nest
//!   (`cluster::emit`). Any other cluster shape (an expand of an expand's segments,
//!   spaces not provably equal, …) *falls back*: the tree is
//!   flattened and its ops lowered one by one as outside clusters (the unfused baseline,
//!   never a wrong result), with a remark `array-to-loops: cluster lowered op by op
//!   (unfused) …` at the cluster.
//!
//! The pass runs on any op: on a module (`builtin.module(array-to-loops)`) it lowers every
//! function in it. Left as they are: the sugar ops (`reverse`, `backpermute`,
//! `replicate`; `array-desugar` removes them first), filters and expands of higher rank,
//! and combinators whose arrays have a tensor encoding or an element type that memrefs
//! cannot hold.

use crate::bridge::{PassDefinition, PassFailed, PassOptions};
use crate::ir::{self, Op, Val};
use array_dialect::view::{ArrayOp, OpKind};
use builder::{Builder, array_op, element_type, op_kind, rank, replace_and_erase, static_dim, ty};
use melior::{
    Context,
    ir::{Location, OperationRef, ValueLike, operation::OperationLike},
};
use mlir_sys::*;

pub(crate) mod builder;
mod cluster;
mod size_checks;
mod unfused;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-to-loops",
    description: "Lower the array combinators and scalar queries to scf loop nests over memrefs: one loop nest per combinator outside clusters and per cluster",
    // Any op: on a module (`builtin.module(array-to-loops)`) it lowers every function,
    // on a function (`func.func(array-to-loops)`) that function, and the pass manager
    // may then lower functions in parallel.
    anchor: None,
    dependent_dialects: &[
        mlirGetDialectHandle__arith__,
        mlirGetDialectHandle__memref__,
        mlirGetDialectHandle__scf__,
        mlirGetDialectHandle__tensor__,
        mlirGetDialectHandle__bufferization__,
        mlirGetDialectHandle__cf__,
    ],
    options: &[],
    state: None,
    run,
};

/// The ops the pass lowers to loop nests (clusters as a whole).
const LOWERED: &[OpKind] = &[
    OpKind::Map,
    OpKind::Generate,
    OpKind::Fold,
    OpKind::Gather,
    OpKind::Scan,
    OpKind::Scatter,
    OpKind::Permute,
    OpKind::Filter,
    OpKind::Expand,
    OpKind::Cluster,
];

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    size_checks::insert(context, function);
    lower_without_loops(context, function);
    let mut targets = Vec::new();
    function.walk(melior::ir::operation::WalkOrder::PostOrder, |op| {
        if OpKind::of(&op).is_some_and(|kind| LOWERED.contains(&kind)) {
            targets.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    // Post order: nested combinators (inside element functions) are lowered before the
    // ones whose bodies hold them, and lowering one op never destroys another collected
    // op. The leaves of a fusion tree are lowered with their cluster.
    for op in targets {
        if is_tree_child(op) {
            continue;
        }
        if op_kind(op) == Some(OpKind::Cluster) {
            let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
            cluster::lower(&b, op);
            continue;
        }
        lower_op(context, op);
    }
    Ok(())
}

/// Lowers one combinator outside any cluster (left as it is when not supported).
fn lower_op(context: &Context, op: Op) {
    if !supported(op) {
        return;
    }
    let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
    match op_kind(op) {
        Some(OpKind::Map) => b.lower_map(op),
        Some(OpKind::Generate) => b.lower_generate(op),
        Some(OpKind::Gather) => b.lower_gather(op),
        Some(OpKind::Fold) => b.lower_fold(op),
        Some(OpKind::Scan) => b.lower_scan(op),
        Some(OpKind::Scatter) => b.lower_scatter(op),
        Some(OpKind::Permute) => b.lower_permute(op),
        Some(OpKind::Filter) if vectors_only(op) => b.lower_filter(op),
        Some(OpKind::Expand) if vectors_only(op) => b.lower_expand(op),
        _ => {}
    }
}

/// `array.size`, `array.dim` and `array.index` → `tensor.dim` (an `arith.constant` for a
/// static extent) and `tensor.extract`, wherever they are (also inside element functions
/// and clusters: they read a tensor defined before the combinator, seed 000 `xs ! i`
/// makes `xs` a free variable that is fully computed first). Bufferization turns them
/// into `memref.dim`/`memref.load` of the array's buffer.
///
/// `array.force xs` → `xs`: force is seed 000's fusion barrier, which the analysis has
/// already honoured (nothing is fused across it, so `xs` is materialised by its own loop
/// nest); on values it is the identity, and tensors are values, so no copy is needed.
fn lower_without_loops(context: &Context, function: OperationRef) {
    let mut scalars = Vec::new();
    function.walk(melior::ir::operation::WalkOrder::PostOrder, |op| {
        if OpKind::of(&op).is_some_and(|kind| kind.is_size_or_element_read() || kind == OpKind::Force) {
            scalars.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    for op in scalars {
        let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
        let replacements: Vec<Val> = match array_op(op) {
            Some(ArrayOp::Size { input }) => {
                let x = input.to_raw();
                (0..rank(ir::value_type(x))).map(|d| b.dim_of(op, x, d)).collect()
            }
            Some(ArrayOp::Dim { input, dimension }) => vec![b.dim_of(op, input.to_raw(), dimension as usize)],
            Some(ArrayOp::Index { array, indices }) => {
                let element = ty(element_type(ir::value_type(array.to_raw())));
                vec![
                    b.put1(
                        op,
                        b.op("tensor.extract")
                            .add_operands(&[array])
                            .add_operands(&indices)
                            .add_results(&[element])
                            .build()
                            .expect("valid tensor.extract"),
                    ),
                ]
            }
            Some(ArrayOp::Force { input }) => vec![input.to_raw()],
            _ => continue,
        };
        // SAFETY: the lowered values replace every result; `op` is not used again.
        unsafe { replace_and_erase(op, &replacements) };
    }
}

/// Whether `op` is a leaf or node of a fusion tree (its parent is a cluster or a
/// fusion node): it is lowered with its cluster.
fn is_tree_child(op: Op) -> bool {
    ir::parent_op(op).and_then(op_kind).is_some_and(OpKind::is_fusion_tree)
}

/// Every array operand and result is a ranked tensor without encoding whose element
/// type a memref can hold.
fn supported(op: Op) -> bool {
    ir::operands(op).into_iter().chain(ir::results(op)).map(ir::value_type).all(|t| {
        // SAFETY: live types, checked before reading.
        unsafe {
            if !mlirTypeIsATensor(t) {
                return true; // scalars (fold inits, generate extents)
            }
            if !mlirTypeIsARankedTensor(t) || !mlirRankedTensorTypeGetEncoding(t).ptr.is_null() {
                return false;
            }
            let e = mlirShapedTypeGetElementType(t);
            mlirTypeIsAInteger(e)
                || mlirTypeIsAIndex(e)
                || mlirTypeIsAFloat(e)
                || mlirTypeIsAComplex(e)
                || mlirTypeIsAVector(e)
        }
    })
}

/// Filter and expand are lowered for vectors only: every input and result of rank 1,
/// every result of dynamic length.
fn vectors_only(op: Op) -> bool {
    let ranks_ok = ir::operands(op).into_iter().chain(ir::results(op)).all(|x| ir::rank(ir::value_type(x)) == Some(1));
    ranks_ok
        && !ir::operands(op).is_empty()
        && ir::results(op).into_iter().all(|r| static_dim(ir::value_type(r), 0).is_none())
}
