//! `array-unfuse`: the inverse of `array-fuse`, for testing: every cluster and
//! fusion node is replaced by the ops it holds, in place, so that fuse then unfuse gives
//! back the original program up to op order (and the analysis attributes).

use crate::bridge::{PassDefinition, PassFailed, PassOptions};
use crate::ir::{self, Op};
use array_dialect::view::OpKind;
use melior::ir::OperationRef;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-unfuse",
    description: "Replace every array.cluster and fusion node by the combinators it holds (the inverse of array-fuse)",
    anchor: Some("func.func"),
    dependent_dialects: &[],
    options: &[],
    state: None,
    run,
};

fn is_tree_op(op: Op) -> bool {
    ir::kind(op).is_some_and(OpKind::is_fusion_tree)
}

fn run(_: &melior::Context, function: OperationRef, _: &PassOptions) -> Result<(), PassFailed> {
    // Outermost first: flattening a node exposes its children at the same place.
    loop {
        let mut found = None;
        for block in crate::fuse::blocks_under(function.to_raw()) {
            if let Some(op) = ir::block_ops(block).into_iter().find(|o| is_tree_op(*o)) {
                found = Some(op);
                break;
            }
        }
        let Some(node) = found else { return Ok(()) };
        flatten(node);
    }
}

/// Moves the contents of `node`'s regions before it, rewires the bound arrays and the
/// node's results to the values its regions yield, and erases it.
fn flatten(node: Op) {
    let kind = ir::kind(node);
    let regions = if kind == Some(OpKind::Cluster) { 1 } else { 2 };
    let mut yielded = Vec::new();
    let mut first_yield = Vec::new();
    for r in 0..regions {
        let block = ir::first_block(ir::region(node, r));
        let ops = ir::block_ops(block);
        let (inner, terminator) = ops.split_at(ops.len() - 1);
        let values = ir::operands(terminator[0]);
        if r == 1 && matches!(kind, Some(OpKind::Vertical | OpKind::Diagonal)) {
            // The consumer's block arguments are the producer's yielded arrays.
            for (argument, value) in ir::block_arguments(block).into_iter().zip(&first_yield) {
                ir::replace_uses_where(argument, *value, |_| true);
            }
        }
        for op in inner {
            ir::move_before(*op, node);
        }
        if r == 0 {
            first_yield = values.clone();
        }
        yielded.push(values);
    }
    let results: Vec<_> = match kind {
        Some(OpKind::Vertical) => yielded[1].clone(),
        Some(OpKind::Cluster) => yielded[0].clone(),
        _ => [yielded[0].clone(), yielded[1].clone()].concat(),
    };
    for (result, value) in ir::results(node).into_iter().zip(results) {
        ir::replace_uses_where(result, value, |_| true);
    }
    // The yields still use the moved values; erasing the node erases them with it.
    // SAFETY: every result was replaced above and its ops were moved out; only the yields
    // (inside it) still use values, and `node` is not used again.
    unsafe { ir::erase(node) };
}
