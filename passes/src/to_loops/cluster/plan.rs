//! The plan of a cluster: which leaves it has, in which scope each runs, what the loop
//! carries and what it stores.

use super::super::builder::static_dim;
use super::super::{supported, vectors_only};
use super::extents::{Classes, Extent, keys_of, value_key};
use crate::ir::{self, Op, Val};
use melior::ir::{OperationRef, operation::OperationLike};
use mlir_sys::*;
use std::collections::{HashMap, HashSet};

pub(super) fn key(v: Val) -> usize {
    v.ptr as usize
}

pub(super) fn key_op(op: Op) -> usize {
    op.ptr as usize
}

/// The op owning `v`: its defining op, or the op whose region holds the block of a
/// block argument.
pub(super) fn owner_of(v: Val) -> Op {
    // SAFETY: live value.
    unsafe {
        if mlirValueIsAOpResult(v) {
            mlirOpResultGetOwner(v)
        } else {
            mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v))
        }
    }
}

pub(super) fn defined_outside(v: Val, cluster: Op) -> bool {
    let owner = owner_of(v);
    owner.ptr.is_null() || !ir::is_within(owner, cluster)
}

pub(super) fn same_ops(a: &[Op], b: &[Op]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| ir::same_op(*x, *y))
}

/// What an array of the tree is, symbolically.
#[derive(Clone)]
pub(super) enum Sym {
    /// An array over the base space (`guard` empty, `extents` its extents) or over the
    /// compacted space of the filters in `guard` (outermost first).
    Space { extents: Vec<Extent>, guard: Vec<Op> },
    /// A fold result.
    Fold,
    /// The result of a scatter or permute leaf: an array over its destination's space,
    /// complete only after the loop nest (so no other leaf of the cluster may read it).
    Written,
    /// A result of a producer fused into a gather: it runs in order `.0` (the gather's
    /// label); `.1` is the producer.
    Deferred(i64, Op),
}

#[derive(Clone)]
pub(super) struct Node {
    sym: Sym,
    /// The leaf and result number the array is.
    origin: (Op, usize),
}

/// Walks the fusion tree rooted at `node` (a fusion node or a leaf), calling `leaf` for
/// each leaf in tree order (producer before consumer, left before right); returns the
/// value of each result of `node`.
pub(super) fn walk_tree<T: Clone>(
    node: Op,
    env: &mut HashMap<usize, T>,
    leaf: &mut impl FnMut(Op, &HashMap<usize, T>) -> Option<Vec<T>>,
) -> Option<Vec<T>> {
    match ir::op_name(node).as_str() {
        "array.vertical" | "array.diagonal" | "array.horizontal" => {
            let first = walk_region(node, 0, env, leaf)?;
            if ir::op_name(node) != "array.horizontal" {
                let args = ir::block_arguments(ir::first_block(ir::region(node, 1)));
                if args.len() != first.len() {
                    return None;
                }
                for (a, value) in args.iter().zip(&first) {
                    env.insert(key(*a), value.clone());
                }
            }
            let second = walk_region(node, 1, env, leaf)?;
            Some(match ir::op_name(node).as_str() {
                "array.vertical" => second,
                _ => first.into_iter().chain(second).collect(),
            })
        }
        _ => leaf(node, env),
    }
}

/// Walks the ops of region `index` of `op`; returns the values its `array.yield` yields.
pub(super) fn walk_region<T: Clone>(
    op: Op,
    index: isize,
    env: &mut HashMap<usize, T>,
    leaf: &mut impl FnMut(Op, &HashMap<usize, T>) -> Option<Vec<T>>,
) -> Option<Vec<T>> {
    let ops = ir::block_ops(ir::first_block(ir::region(op, index)));
    let (terminator, body) = ops.split_last()?;
    for o in body {
        let values = walk_tree(*o, env, leaf)?;
        let results = ir::results(*o);
        if values.len() != results.len() {
            return None;
        }
        for (r, value) in results.iter().zip(values) {
            env.insert(key(*r), value);
        }
    }
    ir::operands(*terminator).iter().map(|y| env.get(&key(*y)).cloned()).collect()
}

/// Whether the element functions of `leaf` read only their own arguments and values
/// defined outside `cluster`.
pub(super) fn body_is_closed(leaf: Op, cluster: Op) -> bool {
    let mut closed = true;
    // SAFETY: live op.
    let operation = unsafe { OperationRef::from_raw(leaf) };
    operation.walk(melior::ir::operation::WalkOrder::PreOrder, |inner| {
        let inner = inner.to_raw();
        if !ir::same_op(inner, leaf) {
            for o in ir::operands(inner) {
                let owner = owner_of(o);
                if !owner.ptr.is_null() && ir::is_within(owner, cluster) && !ir::is_within(owner, leaf) {
                    closed = false;
                }
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    closed
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Map,
    Generate,
    Gather,
    Fold,
    Scan {
        exclusive: bool,
    },
    Filter,
    /// `array.scatter` (values and index arrays in the scope) or `array.permute` (source
    /// in the scope, index region at the position): writes into a copy of its
    /// destination, in the loop's (sequential, row-major) order.
    Scatter,
    Permute,
}

/// An order-0 leaf: it runs once per iteration of its scope.
pub(super) struct Leaf {
    pub(super) op: Op,
    pub(super) kind: Kind,
    /// The filters whose scope it runs in (outermost first).
    pub(super) guard: Vec<Op>,
    /// Its first slot in the loop's carried state (folds and scans: one per
    /// accumulator; filters: one, the count).
    pub(super) slot: usize,
    pub(super) slots: usize,
}

pub(super) enum Output {
    /// Result `.1` of leaf `.0`, an array over the scope of `guard`.
    Array { origin: (Op, usize), guard: Vec<Op> },
    /// The final value of carried slot `.0` (a fold result).
    Fold(usize),
    /// The destination copy written by scatter/permute leaf `.0`.
    Written(Op),
}

pub(super) struct Plan {
    /// The extents of the base iteration space.
    pub(super) space: Vec<Extent>,
    pub(super) leaves: Vec<Leaf>,
    /// Every array of the tree (leaf results, bound block arguments, node results).
    pub(super) origins: HashMap<usize, (Op, usize)>,
    /// The producers fused into gathers.
    pub(super) deferred: HashSet<usize>,
    pub(super) outputs: Vec<Output>,
    /// The initial carried state (`None`: a filter count, starting at 0).
    pub(super) inits: Vec<Option<Val>>,
    /// The loop runs from the end (right scans).
    pub(super) reverse: bool,
    /// Some leaf carries state: the innermost dimension is an `scf.for`.
    pub(super) sequential: bool,
    /// A scatter or permute leaf: every dimension is an `scf.for` (row-major source
    /// order, as the interpreter applies the combines; seed 000 §2.1).
    pub(super) ordered: bool,
}

/// A read of `x` by a computation running in order `wanted` (≠ 0): from outside, or a
/// producer of that order read once (its element function is moved into the reader).
pub(super) fn deferred_read(
    x: Val,
    wanted: i64,
    env: &HashMap<usize, Node>,
    reads: &mut HashMap<usize, usize>,
    cluster: Op,
) -> bool {
    match env.get(&key(x)) {
        Some(Node { sym: Sym::Deferred(o, p), .. }) if *o == wanted => {
            let n = reads.entry(key_op(*p)).or_insert(0);
            *n += 1;
            *n == 1
        }
        Some(_) => false,
        None => defined_outside(x, cluster),
    }
}

/// The scope and extents of array `x` read by an order-0 leaf.
pub(super) fn space_of(x: Val, env: &HashMap<usize, Node>, cluster: Op) -> Option<(Vec<Extent>, Vec<Op>)> {
    match env.get(&key(x)) {
        Some(Node { sym: Sym::Space { extents, guard }, .. }) => Some((extents.clone(), guard.clone())),
        Some(_) => None,
        None => defined_outside(x, cluster).then(|| (keys_of(x), vec![])),
    }
}

/// The common scope of the inputs `xs` of one combinator (same scope and rank, else
/// `None`); in the base scope their extents are unified.
pub(super) fn inputs_space(
    xs: &[Val],
    env: &HashMap<usize, Node>,
    cluster: Op,
    classes: &mut Classes,
) -> Option<(Vec<Extent>, Vec<Op>)> {
    let first = space_of(*xs.first()?, env, cluster)?;
    for x in &xs[1..] {
        let (extents, guard) = space_of(*x, env, cluster)?;
        if !same_ops(&guard, &first.1) || extents.len() != first.0.len() {
            return None;
        }
        if guard.is_empty() {
            for (a, b) in extents.iter().zip(&first.0) {
                classes.union(*a, *b);
            }
        }
    }
    Some(first)
}

/// Whether the fold's combine is one integer op that is associative and commutative,
/// applied to the accumulator and the element (`acc ⊕ x` or `x ⊕ acc`): folding from the
/// right then gives the same value as from the left, bit for bit.
pub(super) fn commutative_fold(fold: Op) -> bool {
    if ir::results(fold).len() != 1 {
        return false;
    }
    let block = ir::first_block(ir::region(fold, 0));
    let arguments = ir::block_arguments(block);
    let ops = ir::block_ops(block);
    let [combine, terminator] = ops.as_slice() else { return false };
    let operands = ir::operands(*combine);
    let results = ir::results(*combine);
    matches!(
        ir::op_name(*combine).as_str(),
        "arith.addi"
            | "arith.muli"
            | "arith.andi"
            | "arith.ori"
            | "arith.xori"
            | "arith.maxsi"
            | "arith.minsi"
            | "arith.maxui"
            | "arith.minui"
    ) && operands.len() == 2
        && arguments.len() == 2
        && operands.iter().all(|o| arguments.iter().any(|a| ir::same_value(*a, *o)))
        && !ir::same_value(operands[0], operands[1])
        && ir::operands(*terminator).len() == 1
        && results.len() == 1
        && ir::same_value(ir::operands(*terminator)[0], results[0])
}

/// Decides how `cluster` becomes one loop nest, or why it cannot.
pub(super) fn plan(cluster: Op) -> Result<Plan, String> {
    let body = ir::block_ops(ir::first_block(ir::region(cluster, 0)));
    if body.len() != 2 {
        return Err("the cluster body is not one fusion tree".into());
    }
    let mut why: Option<String> = None;
    let mut classes = Classes::default();
    let mut spaces: Vec<Vec<Extent>> = Vec::new();
    let mut leaves: Vec<Leaf> = Vec::new();
    let mut inits: Vec<Option<Val>> = Vec::new();
    let mut deferred: HashSet<usize> = HashSet::new();
    let mut reads: HashMap<usize, usize> = HashMap::new();
    let (mut left_scans, mut right_scans, mut filters, mut reversed) = (0, 0, 0, 0);
    let mut noncommutative_folds = 0;
    let mut writers = 0;
    let mut env: HashMap<usize, Node> = HashMap::new();
    let mut leaf = |op: Op, env: &HashMap<usize, Node>| -> Option<Vec<Node>> {
        let name = ir::op_name(op);
        let mut reject = |message: String| {
            why.get_or_insert(message);
            None
        };
        if !supported(op) {
            return reject(format!("'{name}' has an array type that buffers cannot hold"));
        }
        if !body_is_closed(op, cluster) {
            return reject(format!("the element function of '{name}' reads an array of the tree"));
        }
        let operands = ir::operands(op);
        let n = ir::results(op).len();
        let nodes = |sym: Sym| -> Vec<Node> { (0..n).map(|r| Node { sym: sym.clone(), origin: (op, r) }).collect() };
        // Orders 0 and 1 are the left-to-right and right-to-left traversals of the
        // cluster's loop; orders ≥ 2 are gather labels (seed 000 §3).
        let order = ir::int_attribute(op, "array.order").unwrap_or(0);
        if order == 1 {
            reversed += 1;
            if name == "array.fold" && !commutative_fold(op) {
                return reject("a fold in right-to-left order whose combine may not commute".into());
            }
        }
        if order >= 2 {
            // Fused into a gather of label `order`: computed at the gathered index.
            let ok = match name.as_str() {
                "array.generate" => operands.iter().all(|o| defined_outside(*o, cluster)),
                "array.map" => operands.iter().all(|x| deferred_read(*x, order, env, &mut reads, cluster)),
                "array.gather" => match ir::int_attribute(op, "array.label") {
                    Some(label) => {
                        deferred_read(operands[0], label, env, &mut reads, cluster)
                            && operands[1..].iter().all(|x| deferred_read(*x, order, env, &mut reads, cluster))
                    }
                    None => false,
                },
                "array.fold" => {
                    let (inputs, fold_inits) = operands.split_at(operands.len() - n);
                    fold_inits.iter().all(|i| defined_outside(*i, cluster))
                        && !inputs.is_empty()
                        && inputs.iter().all(|x| deferred_read(*x, order, env, &mut reads, cluster))
                }
                _ => false,
            };
            if !ok {
                return reject(format!("'{name}' fused into a gather is not lowered at the gathered index"));
            }
            deferred.insert(key_op(op));
            return Some(nodes(Sym::Deferred(order, op)));
        }
        let mut add = |kind: Kind, guard: &[Op], slots: usize| {
            let slot = leaves.iter().map(|l| l.slots).sum();
            leaves.push(Leaf { op, kind, guard: guard.to_vec(), slot, slots });
        };
        match name.as_str() {
            "array.generate" => {
                if operands.iter().any(|o| !defined_outside(*o, cluster)) {
                    return reject("a generate's shape is computed in the cluster".into());
                }
                let t = ir::value_type(ir::results(op)[0]);
                let extents: Vec<Extent> = operands
                    .iter()
                    .enumerate()
                    .map(|(d, o)| static_dim(t, d).map(Extent::Static).unwrap_or_else(|| value_key(*o)))
                    .collect();
                spaces.push(extents.clone());
                add(Kind::Generate, &[], 0);
                Some(nodes(Sym::Space { extents, guard: vec![] }))
            }
            "array.map" | "array.gather" => {
                let (source, inputs) = if name == "array.gather" {
                    let source_ok = match ir::int_attribute(op, "array.label") {
                        Some(label) => deferred_read(operands[0], label, env, &mut reads, cluster),
                        None => defined_outside(operands[0], cluster),
                    };
                    if !source_ok {
                        return reject("a gather's source is computed in the cluster in another order".into());
                    }
                    (true, &operands[1..])
                } else {
                    (false, &operands[..])
                };
                let Some((extents, guard)) = inputs_space(inputs, env, cluster, &mut classes) else {
                    return reject(format!(
                        "the inputs of '{name}' are not arrays of one scope (a fold result read in its cluster, \
                         or arrays of different filters)"
                    ));
                };
                if guard.is_empty() {
                    spaces.push(extents.clone());
                }
                add(if source { Kind::Gather } else { Kind::Map }, &guard, 0);
                Some(nodes(Sym::Space { extents, guard }))
            }
            "array.fold" | "array.scan" => {
                let (inputs, fold_inits) = operands.split_at(operands.len() - n);
                if fold_inits.iter().any(|i| !defined_outside(*i, cluster)) {
                    return reject(format!("the initial values of '{name}' are computed in the cluster"));
                }
                let Some((extents, guard)) = inputs_space(inputs, env, cluster, &mut classes) else {
                    return reject(format!(
                        "the inputs of '{name}' are not arrays of one scope (a fold result read in its cluster, \
                         or arrays of different filters)"
                    ));
                };
                if guard.is_empty() {
                    spaces.push(extents.clone());
                }
                inits.extend(fold_inits.iter().map(|i| Some(*i)));
                if name == "array.fold" {
                    noncommutative_folds += !commutative_fold(op) as usize;
                    add(Kind::Fold, &guard, n);
                    return Some(nodes(Sym::Fold));
                }
                if ir::int_attribute_inherent(op, "direction") == Some(1) {
                    if !guard.is_empty() {
                        return reject("a right scan of a filter's output".into());
                    }
                    right_scans += 1;
                } else {
                    left_scans += 1;
                }
                let exclusive = ir::int_attribute_inherent(op, "kind") == Some(1);
                add(Kind::Scan { exclusive }, &guard, n);
                Some(nodes(Sym::Space { extents, guard }))
            }
            "array.filter" => {
                if !vectors_only(op) {
                    return reject("a filter of higher rank".into());
                }
                let Some((extents, guard)) = inputs_space(&operands, env, cluster, &mut classes) else {
                    return reject("the inputs of 'array.filter' are not arrays of one scope".into());
                };
                if guard.is_empty() {
                    spaces.push(extents.clone());
                }
                filters += 1;
                inits.push(None);
                add(Kind::Filter, &guard, 1);
                let mut inner = guard;
                inner.push(op);
                Some(nodes(Sym::Space { extents: vec![Extent::Static(-1)], guard: inner }))
            }
            "array.scatter" | "array.permute" => {
                // Seed 000 §2.1/Table 1: the values (and index arrays) stream into the
                // scatter; the destination does not (it is copied before the loop).
                let (dest, streamed) = if name == "array.scatter" {
                    (operands[0], operands[1..].iter().rev().copied().collect::<Vec<_>>())
                } else {
                    (operands[1], vec![operands[0]])
                };
                if !defined_outside(dest, cluster) {
                    return reject(format!("the destination of '{name}' is computed in the cluster"));
                }
                let Some((extents, guard)) = inputs_space(&streamed, env, cluster, &mut classes) else {
                    return reject(format!("the streamed inputs of '{name}' are not arrays of one scope"));
                };
                if !guard.is_empty() {
                    return reject(format!("'{name}' of a filter's output"));
                }
                spaces.push(extents);
                writers += 1;
                add(if name == "array.scatter" { Kind::Scatter } else { Kind::Permute }, &[], 0);
                Some(nodes(Sym::Written))
            }
            _ => reject(format!("'{name}' is not lowered inside a fused loop nest yet")),
        }
    };
    let outputs = walk_region(cluster, 0, &mut env, &mut leaf);
    let Some(outputs) = outputs else {
        return Err(why.unwrap_or_else(|| "the fusion tree is malformed".into()));
    };
    let Some(first) = spaces.first().cloned() else {
        return Err("no leaf iterates over a space".into());
    };
    if first.is_empty() {
        return Err("rank-0 iteration space".into());
    }
    for s in &spaces {
        if s.len() != first.len() || s.iter().zip(&first).any(|(a, b)| !classes.same(*a, *b)) {
            return Err("the leaves' iteration spaces are not provably equal".into());
        }
    }
    // A right-to-left loop (right scans, leaves in order 1): a left scan or a filter
    // needs the other direction, and a fold may run backwards only when its combine
    // commutes (the interpreter folds from the left).
    let reverse = right_scans > 0 || reversed > 0;
    if reverse && (left_scans > 0 || filters > 0 || noncommutative_folds > 0) {
        return Err("a right-to-left loop with a left scan, a filter or a fold whose combine may not commute".into());
    }
    if reverse && writers > 0 {
        return Err("a right-to-left loop with a scatter or permute (they write in source order)".into());
    }
    if filters > 0 && first.len() != 1 {
        return Err("a filter in a space of higher rank".into());
    }
    // Array outputs need a tensor type the buffers can hold.
    let result_types: Vec<MlirType> = ir::results(cluster).into_iter().map(ir::value_type).collect();
    let mut plan_outputs = Vec::new();
    for (t, node) in result_types.iter().zip(&outputs) {
        let (op, r) = node.origin;
        let output = match &node.sym {
            Sym::Space { guard, .. } if guard.is_empty() && ir::rank(*t) == Some(first.len() as i64) => {
                Output::Array { origin: node.origin, guard: vec![] }
            }
            Sym::Space { guard, .. } if !guard.is_empty() && ir::rank(*t) == Some(1) && static_dim(*t, 0).is_none() => {
                Output::Array { origin: node.origin, guard: guard.clone() }
            }
            Sym::Fold if ir::rank(*t) == Some(first.len() as i64 - 1) => {
                let l = leaves.iter().find(|l| ir::same_op(l.op, op)).expect("folds are leaves");
                Output::Fold(l.slot + r)
            }
            Sym::Written => Output::Written(op),
            _ => return Err("an output of the cluster is not stored by the loop nest".into()),
        };
        plan_outputs.push(output);
    }
    let space = first.iter().map(|e| classes.representative(*e)).collect();
    let origins = env.iter().map(|(k, node)| (*k, node.origin)).collect();
    let ordered = writers > 0;
    let sequential = !inits.is_empty() || ordered;
    Ok(Plan { space, leaves, origins, deferred, outputs: plan_outputs, inits, reverse, sequential, ordered })
}
