//! `array-fuse`: materializes the clustering chosen by `array-fusion-analysis` (the
//! `array.cluster` attributes) as explicit fusion trees (seed 002 §4.2 steps 1d–1e,
//! §4.4): each cluster of two or more combinators becomes one `array.cluster` holding a
//! binary tree of `array.vertical` / `array.horizontal` / `array.diagonal` whose leaves
//! are the original ops.
//!
//! 1. The block is reordered so that every cluster is contiguous and clusters follow
//!    their execution order; other ops move only as far as their dependencies require.
//! 2. A cluster's ops (in that order) are combined recursively: the first op `p`
//!    against the rest, the rest split into connected components combined
//!    horizontally. If the rest uses `p`'s arrays the pair is *vertical* when nothing
//!    outside the pair uses them, else *diagonal*; otherwise it is *horizontal*. For the
//!    extended normalise2 of seed 002 this gives Listing 2:
//!    diagonal(map, horizontal(fold, vertical(scan, fold))).

use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_error};
use crate::ir::{self, Op, Val};
use array_dialect::view::{ArrayOp, OpKind, attribute};
use melior::ir::{OperationRef, ValueLike, operation::OperationLike};
use mlir_sys::MlirBlock;
use std::collections::{BTreeMap, HashMap, HashSet};

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-fuse",
    description: "Materialize the clustering of array-fusion-analysis as array.cluster ops holding vertical/horizontal/diagonal fusion trees",
    anchor: Some("func.func"),
    dependent_dialects: &[],
    options: &[],
    state: None,
    run,
};

fn run(_: &melior::Context, function: OperationRef, _: &PassOptions) -> Result<(), PassFailed> {
    for block in blocks_under(function.to_raw()) {
        if let Err(message) = fuse_block(block) {
            emit_error(function.location(), &format!("array-fuse: {message}"));
            return Err(PassFailed);
        }
    }
    Ok(())
}

/// Every block nested in `op` (its regions, recursively), outermost first.
pub(crate) fn blocks_under(op: Op) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    for r in 0..ir::region_count(op) {
        for block in ir::region_blocks(ir::region(op, r as isize)) {
            out.push(block);
            for inner in ir::block_ops(block) {
                out.extend(blocks_under(inner));
            }
        }
    }
    out
}

/// The ancestor of `op` (or `op` itself) whose block is `block`.
fn top_level_in(op: Op, block: MlirBlock) -> Option<Op> {
    let mut current = Some(op);
    while let Some(o) = current {
        // SAFETY: live op.
        if unsafe { mlir_sys::mlirOperationGetBlock(o) }.ptr == block.ptr {
            return Some(o);
        }
        current = ir::parent_op(o);
    }
    None
}

/// Ops of `block` whose results `op` (or anything nested in it) uses.
fn dependencies(op: Op, block: MlirBlock) -> Vec<Op> {
    let mut deps = Vec::new();
    let mut visit = |o: Op| {
        for v in ir::operands(o) {
            if let Some(def) = ir::defining_op(v).and_then(|d| top_level_in(d, block))
                && !ir::same_op(def, op)
                && !deps.iter().any(|d: &Op| ir::same_op(*d, def))
            {
                deps.push(def);
            }
        }
    };
    walk(op, &mut visit);
    deps
}

fn walk(op: Op, f: &mut impl FnMut(Op)) {
    f(op);
    // SAFETY: live op.
    unsafe {
        for r in 0..mlir_sys::mlirOperationGetNumRegions(op) {
            let mut block = mlir_sys::mlirRegionGetFirstBlock(ir::region(op, r));
            while !block.ptr.is_null() {
                for inner in ir::block_ops(block) {
                    walk(inner, f);
                }
                block = mlir_sys::mlirBlockGetNextInRegion(block);
            }
        }
    }
}

fn key(op: Op) -> usize {
    op.ptr as usize
}

fn fuse_block(block: MlirBlock) -> Result<(), String> {
    if !ir::block_ops(block).iter().any(|op| ir::int_attribute(*op, attribute::CLUSTER).is_some()) {
        return Ok(());
    }
    forward_sizes(block);
    let mut ops = ir::block_ops(block);
    let Some(terminator) = ops.pop() else { return Ok(()) };
    let mut clusters: BTreeMap<i64, Vec<Op>> = BTreeMap::new();
    let mut cluster_of: HashMap<usize, i64> = HashMap::new();
    for &op in &ops {
        if let Some(c) = ir::int_attribute(op, attribute::CLUSTER) {
            clusters.entry(c).or_default().push(op);
            cluster_of.insert(key(op), c);
        }
    }
    if clusters.values().all(|c| c.len() < 2) {
        return Ok(());
    }

    // 1. Schedule: clusters contiguous, dependencies first, otherwise program order.
    let mut scheduled: Vec<Op> = Vec::new();
    let mut done: HashSet<usize> = HashSet::new();
    let mut visiting: HashSet<usize> = HashSet::new();
    fn emit(
        op: Op,
        block: MlirBlock,
        clusters: &BTreeMap<i64, Vec<Op>>,
        cluster_of: &HashMap<usize, i64>,
        scheduled: &mut Vec<Op>,
        done: &mut HashSet<usize>,
        visiting: &mut HashSet<usize>,
    ) -> Result<(), String> {
        if done.contains(&key(op)) {
            return Ok(());
        }
        let members: Vec<Op> = match cluster_of.get(&key(op)) {
            Some(c) => clusters[c].clone(),
            None => vec![op],
        };
        for m in &members {
            if !visiting.insert(key(*m)) {
                return Err(format!(
                    "the clustering has a cycle through '{}' (clusters must be acyclic)",
                    ir::op_name(*m)
                ));
            }
        }
        for m in &members {
            for d in dependencies(*m, block) {
                if !members.iter().any(|x| ir::same_op(*x, d)) {
                    emit(d, block, clusters, cluster_of, scheduled, done, visiting)?;
                }
            }
        }
        for m in members {
            done.insert(key(m));
            scheduled.push(m);
        }
        Ok(())
    }
    for &op in &ops {
        emit(op, block, &clusters, &cluster_of, &mut scheduled, &mut done, &mut visiting)?;
    }
    for &op in &scheduled {
        ir::move_before(op, terminator);
    }

    // 2. One tree per cluster of two or more combinators.
    for members in clusters.values().filter(|m| m.len() >= 2) {
        let anchor = next_in_block(*members.last().expect("non-empty")).unwrap_or(terminator);
        let tree = build_tree(members);
        let root = materialize(&tree, anchor);
        let outputs = used_outside(root);
        let types: Vec<_> = outputs.iter().map(|v| ir::value_type(*v)).collect();
        let cluster = ir::create_before(anchor, OpKind::Cluster.name(), &[], &types, &[vec![]]);
        let yield_op = ir::terminator(ir::first_block(ir::region(cluster, 0)));
        ir::move_before(root, yield_op);
        ir::set_operands(yield_op, &outputs);
        for (v, r) in outputs.iter().zip(ir::results(cluster)) {
            ir::replace_uses_where(*v, r, |user| !ir::is_within(user, cluster));
        }
    }
    Ok(())
}

fn next_in_block(op: Op) -> Option<Op> {
    // SAFETY: live op.
    let next = unsafe { mlir_sys::mlirOperationGetNextInBlock(op) };
    (!next.ptr.is_null()).then_some(next)
}

/// Results of `op` used by anything not nested in `op`.
fn used_outside(op: Op) -> Vec<Val> {
    ir::results(op).into_iter().filter(|v| ir::uses(*v).iter().any(|(user, _)| !ir::is_within(*user, op))).collect()
}

/// A fusion tree over leaf ops.
enum Tree {
    Leaf(Op),
    Horizontal(Box<Tree>, Box<Tree>),
    /// Vertical or diagonal: decided when materialized, from the uses.
    Dependent(Box<Tree>, Box<Tree>),
}

/// Whether `consumer` (or an op nested in it) uses a result of `producer`.
fn uses_result_of(consumer: Op, producer: Op) -> bool {
    let results = ir::results(producer);
    let mut found = false;
    walk(consumer, &mut |o| {
        found |= ir::operands(o).iter().any(|v| results.iter().any(|r| ir::same_value(*r, *v)));
    });
    found
}

/// The tree of ops (in program order): the first op against the rest, the rest split
/// into connected components joined horizontally (see the module comment).
fn build_tree(ops: &[Op]) -> Tree {
    if ops.len() == 1 {
        return Tree::Leaf(ops[0]);
    }
    let (first, rest) = (ops[0], &ops[1..]);
    // Connected components of `rest` under direct use.
    let n = rest.len();
    let mut component: Vec<usize> = (0..n).collect();
    fn find(c: &mut Vec<usize>, i: usize) -> usize {
        if c[i] != i {
            let r = find(c, c[i]);
            c[i] = r;
        }
        c[i]
    }
    for i in 0..n {
        for j in (i + 1)..n {
            if uses_result_of(rest[j], rest[i]) {
                let (a, b) = (find(&mut component, i), find(&mut component, j));
                component[a.max(b)] = a.min(b);
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<Op>> = BTreeMap::new();
    for (i, op) in rest.iter().enumerate() {
        let root = find(&mut component, i);
        groups.entry(root).or_default().push(*op);
    }
    let mut parts = groups.into_values().map(|g| build_tree(&g));
    let mut right = parts.next().expect("rest is non-empty");
    for part in parts {
        right = Tree::Horizontal(Box::new(right), Box::new(part));
    }
    let dependent = rest.iter().any(|op| uses_result_of(*op, first));
    let left = Box::new(Tree::Leaf(first));
    if dependent { Tree::Dependent(left, Box::new(right)) } else { Tree::Horizontal(left, Box::new(right)) }
}

/// Places the tree's top op right before `anchor` and returns it.
fn materialize(tree: &Tree, anchor: Op) -> Op {
    match tree {
        Tree::Leaf(op) => {
            ir::move_before(*op, anchor);
            *op
        }
        Tree::Horizontal(l, r) | Tree::Dependent(l, r) => {
            let left = materialize(l, anchor);
            let right = materialize(r, anchor);
            let left_out = used_outside(left);
            let right_out = used_outside(right);
            let (kind, bind, results) = match tree {
                Tree::Horizontal(..) => (OpKind::Horizontal, false, [left_out.clone(), right_out.clone()].concat()),
                _ => {
                    // Vertical when the producer's arrays are used only by the consumer
                    // side; diagonal when they are also used after the pair.
                    let escapes = left_out.iter().any(|v| {
                        ir::uses(*v).iter().any(|(user, _)| !ir::is_within(*user, left) && !ir::is_within(*user, right))
                    });
                    if escapes {
                        (OpKind::Diagonal, true, [left_out.clone(), right_out.clone()].concat())
                    } else {
                        (OpKind::Vertical, true, right_out.clone())
                    }
                }
            };
            let types: Vec<_> = results.iter().map(|v| ir::value_type(*v)).collect();
            let argument_types: Vec<_> =
                if bind { left_out.iter().map(|v| ir::value_type(*v)).collect() } else { vec![] };
            let node = ir::create_before(anchor, kind.name(), &[], &types, &[vec![], argument_types]);
            let first = ir::first_block(ir::region(node, 0));
            let second = ir::first_block(ir::region(node, 1));
            let (yield_first, yield_second) = (ir::terminator(first), ir::terminator(second));
            ir::move_before(left, yield_first);
            ir::set_operands(yield_first, &left_out);
            ir::move_before(right, yield_second);
            ir::set_operands(yield_second, &right_out);
            if bind {
                for (v, argument) in left_out.iter().zip(ir::block_arguments(second)) {
                    ir::replace_uses_where(*v, argument, |user| ir::is_within(user, right));
                }
            }
            for (v, r) in results.iter().zip(ir::results(node)) {
                ir::replace_uses_where(*v, r, |user| !ir::is_within(user, node));
            }
            node
        }
    }
}

/// Size queries read no elements, yet `array.dim %v` is an SSA use of `%v`: a generate
/// sized by `array.dim` of a map it is fused with would have to run after the whole
/// cluster. Ask the array the size comes from instead (the same size by the op's
/// semantics): a map's or scan's first input, a gather's first index array, a fold's
/// first input (same dimension number), or directly a generate's shape operand. Sizes of filters, expands and barriers are
/// data-dependent and stay as they are (the analysis keeps those apart).
fn forward_sizes(block: MlirBlock) {
    for op in ir::block_ops(block) {
        // SAFETY (both views): live ops of this block, not rewritten while the view is read.
        let dimension = match unsafe { ir::view(op) } {
            Some(ArrayOp::Dim { dimension, .. }) => Some(dimension),
            Some(ArrayOp::Size { .. }) => None,
            _ => continue,
        };
        for _ in 0..64 {
            let array = ir::operands(op)[0];
            let Some(producer) = ir::defining_op(array) else { break };
            let source = match unsafe { ir::view(producer) } {
                Some(ArrayOp::Map { inputs, .. } | ArrayOp::Scan { inputs, .. }) => Some(inputs[0].to_raw()),
                Some(ArrayOp::Reverse { input } | ArrayOp::Force { input }) => Some(input.to_raw()),
                Some(ArrayOp::Gather { indices, .. }) => indices.first().map(|v| v.to_raw()),
                // A fold's result is its input without the innermost dimension, so
                // dimension d of the result is dimension d of the input.
                Some(ArrayOp::Fold { inputs, .. }) if dimension.is_some() => {
                    ir::set_operands(op, &[inputs[0].to_raw()]);
                    continue;
                }
                Some(ArrayOp::Generate { shape, .. }) if let Some(d) = dimension => {
                    if let Some(extent) = shape.get(d as usize) {
                        ir::replace_uses_where(ir::results(op)[0], extent.to_raw(), |_| true);
                        // Now dead; left in place it would still use the array.
                        // SAFETY: its result was replaced just above; `op` is not used again.
                        unsafe { ir::erase(op) };
                    }
                    break;
                }
                _ => None,
            };
            match source {
                // Scans keep the whole shape; maps, gathers and reverse too.
                Some(s) if ir::same_type(ir::value_type(s), ir::value_type(array)) || shapes_have_rank(s, array) => {
                    ir::set_operands(op, &[s]);
                }
                _ => break,
            }
        }
    }
}

/// Same rank, so dimension numbers mean the same (element types may differ).
fn shapes_have_rank(a: Val, b: Val) -> bool {
    ir::rank(ir::value_type(a)).is_some() && ir::rank(ir::value_type(a)) == ir::rank(ir::value_type(b))
}
