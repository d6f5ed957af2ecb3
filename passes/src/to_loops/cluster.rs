//! Clusters: every `array.cluster` becomes exactly one loop nest over buffers, or, where
//! its shape is not handled yet, its ops one by one (the unfused baseline) with a remark.
//!
//! The plan ([`plan`]: a planner with one method per leaf kind) walks the fusion tree
//! symbolically. Every array of the tree lives
//! in a *scope*: the cluster's base iteration space (the iteration size of seed 001 §1.4),
//! or the compacted space of a chain of filters (the result size is a *descendant* of the
//! iteration size, seed 001 §1.4: one loop over the filter's input, one `scf.if` per
//! layer of filtering). The leaves, in tree order, are:
//! * `map`, `generate`, `gather` (order 0): the element function runs in the scope of its
//!   inputs; its values stay in registers (vertical), are stored when the array is a
//!   cluster output (diagonal: stored *and* forwarded); an array read from outside is
//!   loaded once per iteration however many leaves read it (horizontal).
//! * `fold`: accumulators carried by the loop (`scf.for` over the innermost dimension,
//!   `scf.parallel` over the others), stored after it. Its results are arrays over the
//!   space without the innermost dimension (seed 001 §1.4), complete after that loop:
//!   the leaves reading them (maps, generates and gathers of that rank, folds and scans
//!   of them, carried in turn by the next loop out, which becomes an `scf.for`) run in
//!   the body of the outer loops, after the inner one — row sums feeding a map over rows
//!   in the same row iteration, a rank-0 map once after the whole nest.
//! * `scan`: accumulators carried likewise, each element stored (and forwarded) at its
//!   position; right scans make the loop run from the end (only with maps, generates,
//!   gathers and other right scans: a fold or filter keeps the left-to-right order).
//! * `filter` (vectors): the predicate runs in the scope of the inputs; under `scf.if`
//!   the elements are stored at the filter's count (carried by the loop, the output
//!   size) and the leaves of the filter's scope run, their carried values passed out as
//!   the `scf.if`'s results (the old ones on the `else` path). Elements that fail the
//!   predicate are never given to the consumers' element functions.
//! * `expand` (vectors, seed 004 §2): like a filter, a scope of its own — for each input
//!   element an inner `scf.for` over its segment, at the running offset (carried by the
//!   loop), where the `get` values and the leaves of the expand's scope run. The results'
//!   length is known only after all counts: a first loop nest (over a copy of the
//!   cluster) runs just what the counts need and sums them; the buffers get that length.
//!   An expand of an expand's segments is not fused.
//! * producers fused into a gather (`array.order` = the gather's `array.label`, seed 000
//!   §3.3): not iterated themselves; the gather's index function is pushed into their
//!   bodies, which run inside the gather's loop at the gathered index — maps, generates,
//!   gathers, and folds (an inner `scf.for` over the row at that index: seed 000
//!   simple4's multidimensional fold).
//! * `scatter` / `permute` (of the base space, or of a filter's or expand's scope, in
//!   its order): the values and index arrays (scatter) or the
//!   source (permute, whose `index` region runs at the position) stream in from the loop
//!   (seed 000 Table 1: a scatter's values and indices are fusible edges, its
//!   destination is not); the destination, defined outside, is copied before the loop
//!   nest and written under `scf.if` (keep flag, bounds) exactly as outside clusters.
//!   Such a cluster's loop nest is `scf.for` in every dimension (row-major source order,
//!   the order the interpreter combines in), never from the end; the written array is
//!   complete only after the loop, so no other leaf of the cluster may read it.
//!
//! Sizes ([`extents`]): extents are compared symbolically (static sizes, the same index value,
//! `tensor.dim` of the same outside tensor, through the ops that preserve sizes). A
//! multi-input combinator (map, fold, scan, filter, gather indices) requires its inputs
//! to have equal sizes (seed 001 §1.3: an ill-sized program is rejected), so its inputs'
//! extents are unified; leaves whose spaces are still not provably equal are not fused.
//!
//! A gather whose gathered producers fold a row at an index that does not depend on the
//! inner dimensions (softmax's row maximum broadcast over its row) runs before the inner
//! loops, once per outer iteration, under "the inner loops run" (`Leaf::hoisted`). A
//! cluster of rank 0 (a map of a fold of everything, a gather of one element) has no loop.
//!
//! Anything else — an expand of an expand's segments, filters of higher rank, scatters
//! of a fold result, a right scan with a fold or filter, element functions
//! reading arrays of the tree, spaces not provably equal — makes the cluster *fall
//! back*: the tree is flattened in place and its ops are lowered one by one exactly as
//! outside clusters, with a remark at the cluster's location. The result is the unfused
//! program's (never wrong, just not fused). A cluster of one combinator is lowered that
//! way silently: its own loop nest already is the cluster's one loop nest.
//!
//! The loop nest of a planned cluster is emitted by [`emit`]: the extents materialized
//! before it, the destination copies of scatters and permutes, the loops, then the leaves
//! scope by scope (an emitter carrying the loop's state), and the outputs stored after.

use super::builder::{Builder, op_kind};
use super::lower_op;
use crate::bridge::emit_remark;
use crate::ir::{self, Op, Val};
use array_dialect::view::OpKind;

mod emit;
mod extents;
mod plan;

/// Lowers `cluster` as one loop nest, or falls back to its ops one by one.
pub(super) fn lower(b: &Builder, cluster: Op) {
    match plan::plan(cluster) {
        Ok(plan) => b.lower_cluster(cluster, &plan),
        Err(why) => {
            let mut moved = Vec::new();
            let values = flatten(cluster, cluster, &mut moved);
            for (result, value) in ir::results(cluster).into_iter().zip(values) {
                ir::replace_uses_where(result, value, |_| true);
            }
            // SAFETY: every result was replaced above and its leaves moved out; `cluster`
            // is not used again.
            unsafe { ir::erase(cluster) };
            if moved.len() > 1 {
                emit_remark(
                    b.location,
                    &format!("array-to-loops: cluster lowered op by op (unfused), not as one loop nest: {why}"),
                );
            }
            for op in moved {
                lower_op(b.context, op);
            }
        }
    }
}

fn is_tree_node(op: Op) -> bool {
    op_kind(op).is_some_and(OpKind::is_fusion_tree)
}

/// Moves the leaves of the tree rooted at `node` before `anchor` (tree order, producers
/// first), appending them to `moved`; binds the consumers' block arguments and the inner
/// nodes' results to the arrays they denote and erases the inner nodes. Returns the
/// values `node`'s results denote (the caller rewires and erases `node`).
fn flatten(node: Op, anchor: Op, moved: &mut Vec<Op>) -> Vec<Val> {
    let kind = op_kind(node);
    let regions = if kind == Some(OpKind::Cluster) { 1 } else { 2 };
    let mut yielded: Vec<Vec<Val>> = Vec::new();
    for r in 0..regions {
        let block = ir::first_block(ir::region(node, r));
        if r == 1 && matches!(kind, Some(OpKind::Vertical | OpKind::Diagonal)) {
            for (argument, value) in ir::block_arguments(block).into_iter().zip(&yielded[0]) {
                ir::replace_uses_where(argument, *value, |_| true);
            }
        }
        let ops = ir::block_ops(block);
        let (terminator, inner) = ops.split_last().expect("tree regions end in array.yield");
        for o in inner {
            if is_tree_node(*o) {
                let values = flatten(*o, anchor, moved);
                for (result, value) in ir::results(*o).into_iter().zip(values) {
                    ir::replace_uses_where(result, value, |_| true);
                }
                // Its yields still read moved values; erasing it drops those uses.
                // SAFETY: every result was replaced just above; `o` is not used again.
                unsafe { ir::erase(*o) };
            } else {
                ir::move_before(*o, anchor);
                moved.push(*o);
            }
        }
        yielded.push(ir::operands(*terminator));
    }
    match kind {
        Some(OpKind::Vertical) => yielded.pop().expect("two regions"),
        _ => yielded.concat(),
    }
}
