//! The bytes-moved model: how many bytes of arrays a function's loop nests read and write
//! from memory, unfused (one loop nest per combinator) and fused (one per cluster of the
//! optimal clustering), derived from the program by the fusion analysis itself.
//!
//! The model is the analysis's own `bytes` cost model (`cost::evaluate(.., CostModel::Bytes)`,
//! seed 000 §4.1 (e) weighted by array size), evaluated with the real array sizes of the
//! run instead of the analysis's compile-time estimate:
//!
//! * every array a loop nest reads from memory is read once per loop nest (consumers of one
//!   array in one cluster that read it in the same traversal order share the read; an
//!   unordered consumer, such as a gather's free-variable access or a barrier, reads it
//!   once on its own); an array fused away between producer and consumer is not read;
//! * every array a loop nest materializes (it escapes the function, or some consumer is in
//!   another loop nest or reads it out of order) is written once; function arguments are
//!   not written;
//! * scalars and rank-0 arrays (fold results) count zero bytes;
//! * an array that two row loops pass on row by row, which `array-merge-row-loops` keeps
//!   one row at a time in the code that runs (where a row holds 4096 bytes or more at
//!   the run's extent), is neither written nor read (the model's write and read of it
//!   are taken off, read from the pass's remarks);
//! * an array of type `tensor<d0 x .. x elem>` weighs `elem bytes × Π extents`, each dynamic
//!   extent being the run's extent (the inputs' generator uses one extent for every dynamic
//!   dimension, and every size class of a well-sized program derives from the arguments, a
//!   size scalar or a static shape). Data-dependent sizes (filter and expand outputs,
//!   arrays made by calls or `scf` ops) are unknown before running: they are counted at the
//!   full extent and the result is marked as an estimate (an upper bound for filters).
//!
//! The unfused graph is the program after `array-rotate-while, array-desugar` (what
//! `Variant::Unfused` compiles, but for the rotation, which moves no bytes: it runs the
//! same ops, and is applied here so that both graphs see a loop's first test in the
//! function's block, where the fused program has it); the fused one after
//! `array-rotate-while, array-desugar, array-simplify-gathers, array-recompute`, clustered
//! by the analysis with its defaults (what `array-fusion`, hence `Variant::Fused`, does).
//! Not modelled: caches (an array small enough to stay in cache is still counted), the
//! write-allocate read of stores, a scatter's copy of its destination (when it is not
//! updated in place), scans' and segments' extra passes.

use array_dialect::types::element_bytes;
use fusion_analysis::{
    clustering::Clustering,
    cost::{CostModel, evaluate},
    driver::{AnalysisOptions, choose_clustering},
    graph::{Graph, NodeKind},
};
use fusion_codegen::pipeline::{run_pipeline, run_pipeline_with_diagnostics};
use fusion_passes::{extract::extract_block, merge_row_loops};
use melior::{
    Context,
    ir::{
        BlockLike, Module, RegionLike, TypeLike, ValueLike,
        attribute::StringAttribute,
        operation::{OperationLike, WalkOrder, WalkResult},
    },
};
use mlir_sys::MlirType;
use std::path::Path;

/// Bytes moved by one function, unfused and fused.
#[derive(Clone, Debug, PartialEq)]
pub struct Traffic {
    pub unfused_bytes: f64,
    pub fused_bytes: f64,
    /// Loop nests of the code that runs: the outermost loops of the function after
    /// `array-to-loops` and `array-merge-row-loops`, unfused and after the ILP (an expand
    /// has two: its counts, then its segments; a cluster lowered op by op has one per op;
    /// two row loops merged are one).
    pub unfused_loops: usize,
    pub fused_loops: usize,
    /// Clusters of the ILP's clustering that `array-to-loops` lowered op by op (the unfused
    /// baseline, with a remark): fused on paper, not in the code that runs.
    pub fallbacks: usize,
    /// Some array has a data-dependent size, counted at the full extent.
    pub estimated: bool,
}

/// Bytes of an array of type `ty` (a ranked tensor or a memref) whose dynamic extents are
/// all `extent`; 0 for rank 0; `None` for any other type.
pub fn array_bytes(ty: MlirType, extent: u64) -> Option<u64> {
    use mlir_sys::*;
    // SAFETY: plain queries on a live type, checked to be a ranked tensor or memref first.
    unsafe {
        if !mlirTypeIsARankedTensor(ty) && !mlirTypeIsAMemRef(ty) {
            return None;
        }
        let rank = mlirShapedTypeGetRank(ty);
        if rank == 0 {
            return Some(0);
        }
        let element = element_bytes(melior::ir::Type::from_raw(mlirShapedTypeGetElementType(ty)))?;
        Some((0..rank).fold(element, |acc, d| {
            let n = if mlirShapedTypeIsDynamicDim(ty, d as isize) {
                extent
            } else {
                mlirShapedTypeGetDimSize(ty, d as isize) as u64
            };
            acc.saturating_mul(n)
        }))
    }
}

fn is_ranked_tensor(ty: MlirType) -> bool {
    // SAFETY: a plain query on a live type.
    unsafe { mlir_sys::mlirTypeIsARankedTensor(ty) }
}

/// The dependence graph of `@function`'s body with every array weighted by its bytes at
/// `extent`, and whether some array size is data-dependent.
pub fn weighted_graph(module: &Module, function: &str, extent: u64) -> Result<(Graph, bool), String> {
    let mut op = module.body().first_operation();
    let body = loop {
        let Some(f) = op else { return Err(format!("no function @{function}")) };
        let name = f.attribute("sym_name").ok().and_then(|a| StringAttribute::try_from(a).ok());
        if f.name().as_string_ref().as_str() == Ok("func.func") && name.is_some_and(|n| n.value() == function) {
            break f.region(0).ok().and_then(|r| r.first_block()).ok_or("the function has no body")?;
        }
        op = f.next_in_block();
    };
    let extracted = extract_block(body, None).map_err(|e| e.message)?;
    let mut graph = extracted.graph;
    // Input nodes are the body's array arguments, in order (a function body sees no array
    // defined outside it); every other node has its op.
    let mut arguments = (0..body.argument_count())
        .filter_map(|i| body.argument(i).ok())
        .map(|a| a.r#type().to_raw())
        .filter(|t| is_ranked_tensor(*t));
    for (node, op) in graph.nodes.iter_mut().zip(&extracted.ops) {
        let types: Vec<MlirType> = match op {
            // SAFETY: the op lives in `module`, which outlives this loop.
            Some(op) => unsafe { melior::ir::OperationRef::from_raw(*op) }
                .results()
                .map(|r| r.r#type().to_raw())
                .filter(|t| is_ranked_tensor(*t))
                .collect(),
            None => arguments.next().into_iter().collect(),
        };
        node.output_bytes = types.into_iter().map(|t| array_bytes(t, extent)).collect();
    }
    // Sizes only running tells: filter and expand outputs, arrays made by barriers.
    let estimated = graph.nodes.iter().any(|n| {
        matches!(n.kind, NodeKind::Filter | NodeKind::Expand) || (n.kind == NodeKind::Barrier && n.outputs > 0)
    });
    Ok((graph, estimated))
}

/// The analysis with its defaults, as `array-fusion` runs it.
fn default_options() -> AnalysisOptions {
    AnalysisOptions {
        strategy: Default::default(),
        formulation: Default::default(),
        cost: Default::default(),
        limits: fusion_solver::Limits::default(),
        dump_ilp: None,
    }
}

/// The module of `path` after the array passes `passes` (a `func.func` pipeline).
fn load_after<'c>(context: &'c Context, path: &Path, passes: &str) -> Result<Module<'c>, String> {
    let mut module = array_dialect::source::load_file(context, path).map_err(|e| format!("does not load: {e}"))?;
    run_pipeline(context, &mut module, &format!("builtin.module(func.func({passes}))"))?;
    Ok(module)
}

/// The loop nests of `@function` (its outermost loops; callees not counted) once lowered by `array-to-loops` after the
/// array passes `passes`, bufferized, and merged where `array-merge-row-loops` merges row loops (as the CPU
/// pipelines do); how many clusters were lowered op by op, and the bytes at `extent` of the arrays the merges
/// keep one row at a time (their remarks).
fn lowered_loops(path: &Path, function: &str, passes: &str, extent: u64) -> Result<Lowered, String> {
    let context = array_dialect::context();
    let mut module = array_dialect::source::load_file(&context, path).map_err(|e| format!("does not load: {e}"))?;
    let remarks = run_pipeline_with_diagnostics(
        &context,
        &mut module,
        &format!(
            "builtin.module(func.func({passes}), array-to-loops, one-shot-bufferize{{bufferize-function-boundaries \
             function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}}, \
             func.func(array-merge-row-loops))"
        ),
    )?;
    let body = module.body();
    let mut op = body.first_operation();
    while let Some(o) = op {
        let name = o.attribute("sym_name").ok().and_then(|a| StringAttribute::try_from(a).ok());
        if o.name().as_string_ref().as_str() == Ok("func.func") && name.is_some_and(|n| n.value() == function) {
            // Outermost loops, wherever they are (inside `scf.if` or `scf.while` too).
            let mut loops = 0;
            o.walk(WalkOrder::PreOrder, |i| {
                if matches!(i.name().as_string_ref().as_str(), Ok("scf.for" | "scf.parallel")) {
                    loops += 1;
                    WalkResult::Skip
                } else {
                    WalkResult::Advance
                }
            });
            let fallbacks = remarks.iter().filter(|r| r.contains("op by op")).count();
            let mut merged_bytes = 0.0;
            for remark in &remarks {
                let Some((_, rest)) = remark.split_once(merge_row_loops::REMARK_START) else { continue };
                let Some((array, rest)) = rest.split_once(merge_row_loops::REMARK_ROW) else { continue };
                let Some((row, _)) = rest.split_once(merge_row_loops::REMARK_END) else { continue };
                let bytes = |text: &str| -> Result<u64, String> {
                    let ty = melior::ir::Type::parse(&context, text).ok_or_else(|| format!("no type: {text}"))?;
                    array_bytes(ty.to_raw(), extent).ok_or_else(|| format!("no array: {text}"))
                };
                // The merged loop runs where a row holds enough bytes; where that is tested at
                // run time, the code holds the merged loop and copies of the two loops, of
                // which one or the other runs.
                let long_rows = bytes(row)? >= merge_row_loops::MIN_ROW_BYTES as u64;
                if long_rows {
                    merged_bytes += bytes(array)? as f64;
                }
                if remark.contains(merge_row_loops::REMARK_TESTED) {
                    loops -= if long_rows { 2 } else { 1 };
                }
            }
            return Ok(Lowered { loops, fallbacks, merged_bytes });
        }
        op = o.next_in_block();
    }
    Err(format!("no function @{function}"))
}

/// What [`lowered_loops`] finds.
struct Lowered {
    loops: usize,
    fallbacks: usize,
    merged_bytes: f64,
}

/// The bytes `@function` of the file moves with every dynamic extent `extent`.
pub fn function_traffic(path: &Path, function: &str, extent: u64) -> Result<Traffic, String> {
    fusion_passes::register_all_passes();
    let context = array_dialect::context();
    let unfused_module = load_after(&context, path, "array-rotate-while, array-desugar")?;
    let (unfused, estimated) = weighted_graph(&unfused_module, function, extent)?;
    // `array-recompute` is what the analysis does first under its default options.
    let fused_module =
        load_after(&context, path, "array-rotate-while, array-desugar, array-simplify-gathers, array-recompute")?;
    let (fused, _) = weighted_graph(&fused_module, function, extent)?;
    let baseline = Clustering::unfused(&unfused);
    let chosen = choose_clustering(&fused, &default_options()).map_err(|e| e.to_string())?.clustering;
    let unfused_code = lowered_loops(path, function, "array-desugar", extent)?;
    let fused_code = lowered_loops(path, function, "array-fusion", extent)?;
    // An array merged row loops keep one row at a time is written once and read once
    // (the merge needs one loop nest to write it and one other to read it) in the model,
    // and neither in the code that runs.
    Ok(Traffic {
        unfused_bytes: evaluate(&unfused, &baseline, CostModel::Bytes) - 2.0 * unfused_code.merged_bytes,
        fused_bytes: evaluate(&fused, &chosen, CostModel::Bytes) - 2.0 * fused_code.merged_bytes,
        unfused_loops: unfused_code.loops,
        fused_loops: fused_code.loops,
        fallbacks: fused_code.fallbacks,
        estimated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
    }

    #[test]
    fn vertical_pipeline_halves_the_traffic() {
        // map(f, map(g, xs)) on i64: unfused, the first loop reads xs and writes ys, the
        // second reads ys and writes the result (4 arrays of 8 KB); fused, xs is read and
        // the result written once.
        let t = function_traffic(&example("seed000_intro.mlir"), "verticalExample", 1000).unwrap();
        assert_eq!((t.unfused_bytes, t.fused_bytes), (32_000.0, 16_000.0));
        assert_eq!((t.unfused_loops, t.fused_loops), (2, 1));
        assert!(!t.estimated);
    }

    #[test]
    fn horizontal_pair_shares_its_input() {
        // as = map(f, xs), bs = map(g, xs): both outputs escape; fused, xs is read once.
        let t = function_traffic(&example("seed000_intro.mlir"), "horizontalExample", 1000).unwrap();
        assert_eq!((t.unfused_bytes, t.fused_bytes), (32_000.0, 24_000.0));
        assert_eq!((t.unfused_loops, t.fused_loops), (2, 1));
    }

    #[test]
    fn fused_generate_map_fold_moves_nothing() {
        // generate writes upto, map reads it and writes squares, fold reads squares (its
        // rank-0 result weighs nothing): 4 arrays unfused, none when all three are one loop.
        let t = function_traffic(&example("seed004_sum_of_squares.mlir"), "sumSquares", 1000).unwrap();
        assert_eq!((t.unfused_bytes, t.fused_bytes), (32_000.0, 0.0));
        assert_eq!((t.unfused_loops, t.fused_loops, t.fallbacks), (3, 1, 0));
    }

    #[test]
    fn an_array_merged_row_loops_keep_one_row_at_a_time_moves_nothing() {
        // rowSoftmax on a 1000 × 1000 f64 matrix (8 MB an array): its two clusters pass the
        // shifted exponentials on row by row; `array-merge-row-loops` makes them one row
        // loop where a row holds 4096 bytes or more (8000 here), and the model's write and
        // read of that array go.
        let t = function_traffic(&example("seed000_row_softmax.mlir"), "rowSoftmax", 1000).unwrap();
        assert_eq!(t.fused_loops, 1);
        assert_eq!(t.fused_bytes, 48_000_000.0 - 16_000_000.0);
        // At 100 × 100 a row holds 800 bytes: the two loops run as they were.
        let t = function_traffic(&example("seed000_row_softmax.mlir"), "rowSoftmax", 100).unwrap();
        assert_eq!(t.fused_loops, 2);
        assert_eq!(t.fused_bytes, 480_000.0);
    }

    #[test]
    fn loops_are_counted_in_the_lowered_code() {
        // sieveStep: its expand is fused with two maps and the scatter; that cluster's code
        // has two loops (the counts, then the segments).
        let t = function_traffic(&example("seed004_sieve.mlir"), "sieveStep", 100).unwrap();
        // Unfused: expand 2, maps 2, generate 1, scatter 1, filter 1, append 1; fused: the
        // expand's cluster 2, the three others 1 each.
        assert_eq!((t.unfused_loops, t.fused_loops, t.fallbacks), (8, 5, 0));
        // A cluster lowered op by op is counted as what it is: an expand of an expand's
        // segments.
        let lit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lit/lowering/filter-clusters.mlir");
        let t = function_traffic(&lit, "fallback", 100).unwrap();
        assert_eq!(t.fallbacks, 1, "{t:?}");
    }
}
