//! `array-fusion-analysis`: chooses the optimal clustering of every block of a function
//! (the body and, as separate problems, the blocks of nested `scf` ops: seed 000 §4.1
//! "Control flow") and records it on the ops:
//! * `array.cluster = N : i64` on every combinator: its cluster, numbered in execution
//!   order within its block;
//! * `array.order = d : i64`: the traversal order in which it produces its output
//!   (0 forward, 1 backward, ≥ 2 a gather label; seed 000 §3.3);
//! * `array.fusion` on the function: formulation, cost, objective and status per block.
//!
//! With `emit-clustering=FILE`, the report of every analysed block (the JSON of
//! `fuse-opt --emit-clustering=json`, or Graphviz when FILE ends in `.dot`) is written to FILE.

use crate::bridge::{PassDefinition, PassFailed, PassOption, PassOptions, emit_error, emit_warning};
use crate::{extract, recompute};
use array_dialect::source::file_line_col;
use array_dialect::view::attribute;
use fusion_analysis::cost::CostFunction;
use fusion_analysis::driver::{AnalysisOptions, choose_clustering};
use fusion_analysis::formulation::Formulation;
use fusion_analysis::report::{FunctionReport, cluster_names, to_dot, to_json};
use fusion_solver::Limits;
use melior::Context;
use melior::ir::{
    BlockLike, BlockRef, OperationRef, RegionLike,
    attribute::{IntegerAttribute, StringAttribute},
    operation::{OperationLike, OperationMutLike},
    r#type::IntegerType,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The options' defaults are those of the analysis's own types (`Formulation`,
/// `CostFunction`, `Limits`), so they are written once.
pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-fusion-analysis",
    description: "Choose the optimal fusion clustering of each block by ILP (SCIP) and record it as attributes",
    anchor: Some("func.func"),
    dependent_dialects: &[],
    options: &[
        PassOption {
            name: "strategy",
            description: "How to choose the clustering: ilp (the optimum), or a baseline to compare it with: unfused, greedy-top-down, greedy-bottom-up (seed 000 §5), stream (pull streams, seed 001 §1.1), megiddo (loops of one size only, seed 001 §1.1), bohrium-greedy, bohrium-linear (seed 003 §V); a baseline's report says status baseline; or bohrium-optimal (seed 003 Fig. 11's branch and bound, exact like the ILP: optimal when it finishes within time-limit)",
            default: || fusion_analysis::baseline::Strategy::default().to_string(),
        },
        PassOption {
            name: "formulation",
            description: "ILP formulation: combined, gather (seed 000 Fig. 4), robinson (seed 001 Fig. 1.14)",
            default: || Formulation::default().to_string(),
        },
        PassOption {
            name: "cost",
            description: "Cost model, or a linear combination like 'reads-writes+0.5*clusters': clusters, fused-edges, intermediate-arrays, reads, reads-writes, robinson, bytes, max-locality (seed 003 Def. 20; no ILP formulation: strategy=bohrium-optimal or a baseline), gathered-folds (folds run in a gather's order: row folds fused into a gather, which the lowering recomputes per gathered element in random row order; the default charges 3 each), chained-gathers (gathers that load their indices run in the order of another such gather: two dependent random reads per element; the default charges 3 each)",
            default: || CostFunction::default().to_string(),
        },
        PassOption {
            name: "recompute",
            description: "Before choosing the clustering, give each in-order consumer of a cheap producer (a map of one input array) its own copy instead of a materialised array (passes/src/recompute.rs, where it is proven never to raise the optimum): true or false; only for strategy=ilp and cost models other than robinson and max-locality",
            default: || "true".into(),
        },
        PassOption {
            name: "time-limit",
            description: "Solver (or branch and bound) time limit in seconds per block; the best incumbent is used when it is hit",
            default: || Limits::default().time_seconds.to_string(),
        },
        PassOption {
            name: "gap",
            description: "Relative optimality gap at which the solver may stop",
            default: || Limits::default().relative_gap.to_string(),
        },
        PassOption {
            name: "threads",
            description: "Solver threads: the combined formulation races this many solves (differently seeded, every second one on reliability branching), each with its cycle inequalities, sharing incumbents; the others use SCIP's concurrent solver",
            default: || Limits::default().threads.to_string(),
        },
        PassOption {
            name: "dump-ilp",
            description: "Write each block's ILP in CPLEX LP format: dump-ilp=model.lp writes model.<function>.lp (model.<function>.<block>.lp for nested blocks)",
            default: String::new,
        },
        PassOption {
            name: "emit-clustering",
            description: "Write the report of every analysed block of this run to this file, in source order: JSON, or Graphviz when the name ends in .dot (rewritten after each function)",
            default: String::new,
        },
    ],
    state: Some(|| Box::new(ReportSink::default())),
    run,
};

/// The reports (JSON data and Graphviz text) of every block a pass instance has
/// analysed, in source order: the state of the pass, shared by the copies that run
/// functions on several threads, written to the file of `emit-clustering`, and read by
/// an embedding compiler that created the pass with its own sink
/// ([`crate::bridge::create_pass`] with `Box::new(sink.clone())`).
pub type ReportSink = Arc<Mutex<Vec<(FunctionReport, String)>>>;

/// Writes `reports` to `path`: Graphviz when it ends in `.dot`, else JSON.
fn write_reports(path: &Path, reports: &[(FunctionReport, String)]) -> std::io::Result<()> {
    let text = if path.extension().is_some_and(|e| e == "dot") {
        reports.iter().map(|(_, dot)| dot.as_str()).collect()
    } else {
        let data: Vec<FunctionReport> = reports.iter().map(|(r, _)| r.clone()).collect();
        format!("{}\n", to_json(&data))
    };
    std::fs::write(path, text)
}

fn parse_options(function: OperationRef, options: &PassOptions) -> Result<(AnalysisOptions, String), PassFailed> {
    let fail = |message: String| {
        emit_error(function.location(), &format!("array-fusion-analysis: {message}"));
        PassFailed
    };
    let formulation: Formulation = options.get("formulation").parse().map_err(fail)?;
    let cost_text = options.get("cost").to_owned();
    let cost: CostFunction = cost_text.parse().map_err(|e: String| fail(e))?;
    let number = |name: &str| -> Result<f64, PassFailed> {
        options.get(name).trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0).ok_or_else(|| {
            emit_error(
                function.location(),
                &format!(
                    "array-fusion-analysis: option '{name}' must be a non-negative number, got '{}'",
                    options.get(name)
                ),
            );
            PassFailed
        })
    };
    let limits = Limits {
        time_seconds: number("time-limit")?,
        relative_gap: number("gap")?,
        threads: number("threads")?.max(1.0) as i32,
        nodes: None,
    };
    let dump = options.get("dump-ilp");
    let dump_ilp = (!dump.is_empty()).then(|| PathBuf::from(dump));
    let strategy = options.get("strategy").parse().map_err(fail)?;
    Ok((AnalysisOptions { strategy, formulation, cost, limits, dump_ilp }, cost_text))
}

/// Source text of files named in locations, to recover SSA names (cached per file).
fn source_of(function: OperationRef, cache: &mut HashMap<String, Option<String>>) -> Option<String> {
    let (file, _, _) = file_line_col(function.location())?;
    cache.entry(file.clone()).or_insert_with(|| std::fs::read_to_string(&file).ok()).clone()
}

fn symbol_name(function: OperationRef) -> String {
    function
        .attribute("sym_name")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
        .unwrap_or_else(|| "<anonymous>".into())
}

/// Where the model of a block is written for `dump-ilp=FILE`: the function's name (and
/// the block's index when the function has nested blocks) goes before the extension,
/// `model.lp` → `model.normalize2.lp`, so that functions analysed in parallel never
/// write the same file.
fn dump_path(path: &std::path::Path, function: &str, block: Option<usize>) -> PathBuf {
    let name: String =
        function.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
    let tag = match block {
        Some(i) => format!("{name}.{i}"),
        None => name,
    };
    match (path.file_stem(), path.extension()) {
        (Some(stem), Some(ext)) => {
            path.with_file_name(format!("{}.{tag}.{}", stem.to_string_lossy(), ext.to_string_lossy()))
        }
        _ => PathBuf::from(format!("{}.{tag}", path.display())),
    }
}

/// The blocks to analyse: the function body, then nested `scf` blocks, depth first.
fn blocks_of<'c, 'a>(function: OperationRef<'c, 'a>) -> Vec<(String, BlockRef<'c, 'a>)> {
    fn nested<'c, 'a>(block: BlockRef<'c, 'a>, prefix: &str, out: &mut Vec<(String, BlockRef<'c, 'a>)>) {
        let mut op = block.first_operation();
        while let Some(o) = op {
            let name = o.name().as_string_ref().as_str().unwrap_or_default().to_owned();
            if name.starts_with("scf.") {
                let position = file_line_col(o.location()).map(|(_, l, c)| format!("{l}:{c}")).unwrap_or_default();
                for (r, region) in o.regions().enumerate() {
                    let mut b = region.first_block();
                    let mut i = 0;
                    while let Some(inner) = b {
                        let label = format!("{prefix}/{name}@{position}#{r}.{i}");
                        out.push((label.clone(), inner));
                        nested(inner, &label, out);
                        b = inner.next_in_region();
                        i += 1;
                    }
                }
            }
            op = o.next_in_block();
        }
    }
    let mut out = Vec::new();
    let name = symbol_name(function);
    if let Ok(region) = function.region(0)
        && let Some(body) = region.first_block()
    {
        out.push((name.clone(), body));
        nested(body, &name, &mut out);
    }
    out
}

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let (analysis, cost_text) = parse_options(function, options)?;
    let recompute = match options.get("recompute") {
        "true" | "1" => true,
        "false" | "0" => false,
        other => {
            emit_error(
                function.location(),
                &format!("array-fusion-analysis: option 'recompute' must be true or false, got '{other}'"),
            );
            return Err(PassFailed);
        }
    };
    if recompute && recomputation_keeps_the_optimum(&analysis) {
        recompute::recompute_and_remark(function.to_raw());
    }
    let mut reports = Vec::new();
    let result = analyse(context, function, &analysis, &cost_text, &mut reports);
    let Some(sink) = options.state::<ReportSink>() else {
        emit_error(function.location(), "array-fusion-analysis: the pass was created without its report state");
        return Err(PassFailed);
    };
    let mut emitted = sink.lock().unwrap_or_else(|e| e.into_inner());
    emitted.extend(reports);
    emitted.sort_by(|a, b| a.0.position.cmp(&b.0.position));
    let file = options.get("emit-clustering");
    if file.is_empty() {
        return result;
    }
    if let Err(e) = write_reports(Path::new(file), &emitted) {
        emit_error(function.location(), &format!("array-fusion-analysis: cannot write '{file}': {e}"));
        return Err(PassFailed);
    }
    result
}

/// Whether the proof of [`recompute`] covers this analysis: the ILP's optimum (a baseline
/// would only be made worse by copies) of a cost function whose models all count
/// clusters, edges, arrays or reads (not the pairs of `robinson` and `max-locality`),
/// with no negative weight.
fn recomputation_keeps_the_optimum(analysis: &AnalysisOptions) -> bool {
    use fusion_analysis::cost::CostModel;
    analysis.strategy == fusion_analysis::baseline::Strategy::Ilp
        && analysis
            .cost
            .terms()
            .iter()
            .all(|(model, weight)| *weight >= 0.0 && !matches!(model, CostModel::Robinson | CostModel::MaxLocality))
}

/// Analyses every block of `function`, records the clustering on its ops and adds the
/// blocks' reports to `reports`.
fn analyse<'c>(
    context: &'c Context,
    function: OperationRef<'c, '_>,
    analysis: &AnalysisOptions,
    cost_text: &str,
    reports: &mut Vec<(FunctionReport, String)>,
) -> Result<(), PassFailed> {
    let mut cache = HashMap::new();
    let source = source_of(function, &mut cache);
    let blocks = blocks_of(function);
    let several = blocks.len() > 1;
    let i64_type = IntegerType::new(context, 64).into();
    let mut summaries = Vec::new();
    let position = file_line_col(function.location()).unwrap_or_default();
    for (index, (name, block)) in blocks.into_iter().enumerate() {
        let extracted = match extract::extract_block(block, source.as_deref()) {
            Ok(e) => e,
            Err(e) => {
                let location = match &e.location {
                    Some((file, line, column)) => {
                        melior::ir::Location::new(context, file, *line as usize, *column as usize)
                    }
                    None => function.location(),
                };
                emit_error(location, &e.message);
                return Err(PassFailed);
            }
        };
        // Size equalities that could not be proven: a warning each, and the op marked
        // for `array-to-loops`, which checks them at run time (its in-edges are
        // already infusible).
        for unprovable in &extracted.unprovable {
            let e = &unprovable.error;
            let location = match &e.location {
                Some((file, line, column)) => {
                    melior::ir::Location::new(context, file, *line as usize, *column as usize)
                }
                None => function.location(),
            };
            emit_warning(
                location,
                &format!(
                    "{}; the equality is checked at run time, and '{}' is not fused with the producers of its operands",
                    e.message, e.op
                ),
            );
            // SAFETY: the op belongs to the function this pass owns right now.
            let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(unprovable.op) };
            if op.attribute(attribute::CHECK_SIZES).is_err() {
                let at = e.location.as_ref().map(|(f, l, c)| format!("{f}:{l}:{c}: ")).unwrap_or_default();
                let requirement = e.message.strip_prefix("size equality not provable: ").unwrap_or(&e.message);
                let message = format!("{at}run-time size check failed: {requirement}");
                op.set_discardable_attribute(attribute::CHECK_SIZES, StringAttribute::new(context, &message).into());
            }
        }
        let graph = &extracted.graph;
        if !graph.nodes.iter().any(|n| n.kind.is_fusible_kind()) {
            continue; // nothing to fuse in this block
        }
        let mut block_options = analysis.clone();
        if let Some(path) = &analysis.dump_ilp {
            block_options.dump_ilp = Some(dump_path(path, &symbol_name(function), several.then_some(index)));
        }
        let outcome = match choose_clustering(graph, &block_options) {
            Ok(o) => o,
            Err(e) => {
                emit_error(function.location(), &format!("array-fusion-analysis: {e}"));
                return Err(PassFailed);
            }
        };
        for w in &outcome.warnings {
            emit_warning(function.location(), &format!("array-fusion-analysis ({name}): {w}"));
        }
        // Clusters are numbered in execution order, counting only those with a
        // combinator (inputs and barriers are not loops of the program).
        let loops =
            outcome.clustering.clusters.iter().filter(|c| c.iter().any(|n| graph.node(*n).kind.is_fusible_kind()));
        for (cluster, nodes) in loops.enumerate() {
            for node in nodes {
                if let Some(Some(op)) = extracted.ops.get(node.0) {
                    // SAFETY: the op belongs to the function this pass owns right now.
                    let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(*op) };
                    op.set_discardable_attribute(
                        attribute::CLUSTER,
                        IntegerAttribute::new(i64_type, cluster as i64).into(),
                    );
                    op.set_discardable_attribute(
                        attribute::ORDER,
                        IntegerAttribute::new(i64_type, outcome.clustering.output_orders[node.0] as i64).into(),
                    );
                    if let fusion_analysis::graph::NodeKind::Gather { label } = graph.node(*node).kind {
                        // The order in which this gather (or gather-like sugar) reads its source.
                        op.set_discardable_attribute(
                            attribute::LABEL,
                            IntegerAttribute::new(i64_type, label as i64).into(),
                        );
                    }
                }
            }
        }
        let report = FunctionReport {
            name: name.clone(),
            formulation: analysis.formulation.to_string(),
            cost: cost_text.to_owned(),
            objective: outcome.objective,
            bound: outcome.bound,
            status: outcome.status,
            solve_ms: outcome.solve_ms,
            effort: outcome.effort,
            variables: outcome.variables,
            rows: outcome.rows,
            clusters: cluster_names(graph, &outcome.clustering),
            position: (position.0.clone(), position.1, position.2 + index as u32),
        };
        summaries.push(format!(
            "{}: {} clusters, objective {}, {}",
            name,
            report.clusters.len(),
            report.objective,
            report.status.as_str()
        ));
        let dot = to_dot(&name, graph, &outcome.clustering);
        reports.push((report, dot));
    }
    if !summaries.is_empty() {
        let mut f = unsafe { melior::ir::operation::OperationRefMut::from_raw(function.to_raw()) };
        f.set_discardable_attribute(
            attribute::FUSION_SUMMARY,
            StringAttribute::new(context, &summaries.join("; ")).into(),
        );
    }
    Ok(())
}
