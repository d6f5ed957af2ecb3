//! Clusters: every `array.cluster` becomes exactly one loop nest over buffers, or, where
//! its shape is not handled yet, its ops one by one (the unfused baseline) with a remark.
//!
//! The plan ([`plan`]) walks the fusion tree symbolically. Every array of the tree lives
//! in a *scope*: the cluster's base iteration space (the iteration size of seed 001 §1.4),
//! or the compacted space of a chain of filters (the result size is a *descendant* of the
//! iteration size, seed 001 §1.4: one loop over the filter's input, one `scf.if` per
//! layer of filtering). The leaves, in tree order, are:
//! * `map`, `generate`, `gather` (order 0): the element function runs in the scope of its
//!   inputs; its values stay in registers (vertical), are stored when the array is a
//!   cluster output (diagonal: stored *and* forwarded); an array read from outside is
//!   loaded once per iteration however many leaves read it (horizontal).
//! * `fold`: accumulators carried by the loop (`scf.for` over the innermost dimension,
//!   `scf.parallel` over the others), stored after it.
//! * `scan`: accumulators carried likewise, each element stored (and forwarded) at its
//!   position; right scans make the loop run from the end (only with maps, generates,
//!   gathers and other right scans: a fold or filter keeps the left-to-right order).
//! * `filter` (vectors): the predicate runs in the scope of the inputs; under `scf.if`
//!   the elements are stored at the filter's count (carried by the loop, the output
//!   size) and the leaves of the filter's scope run, their carried values passed out as
//!   the `scf.if`'s results (the old ones on the `else` path). Elements that fail the
//!   predicate are never given to the consumers' element functions.
//! * producers fused into a gather (`array.order` = the gather's `array.label`, seed 000
//!   §3.3): not iterated themselves; the gather's index function is pushed into their
//!   bodies, which run inside the gather's loop at the gathered index — maps, generates,
//!   gathers, and folds (an inner `scf.for` over the row at that index: seed 000
//!   simple4's multidimensional fold).
//! * `scatter` / `permute` (base scope only): the values and index arrays (scatter) or the
//!   source (permute, whose `index` region runs at the position) stream in from the loop
//!   (seed 000 Table 1: a scatter's values and indices are fusible edges, its
//!   destination is not); the destination, defined outside, is copied before the loop
//!   nest and written under `scf.if` (keep flag, bounds) exactly as outside clusters.
//!   Such a cluster's loop nest is `scf.for` in every dimension (row-major source order,
//!   the order the interpreter combines in), never from the end; the written array is
//!   complete only after the loop, so no other leaf of the cluster may read it.
//!
//! Sizes: extents are compared symbolically (static sizes, the same index value,
//! `tensor.dim` of the same outside tensor, through the ops that preserve sizes). A
//! multi-input combinator (map, fold, scan, filter, gather indices) requires its inputs
//! to have equal sizes (seed 001 §1.3: an ill-sized program is rejected), so its inputs'
//! extents are unified; leaves whose spaces are still not provably equal are not fused.
//!
//! Anything else — expand with other leaves, a fold result read inside its
//! cluster, filters of higher rank, a right scan with a fold or filter, element functions
//! reading arrays of the tree, spaces not provably equal — makes the cluster *fall
//! back*: the tree is flattened in place and its ops are lowered one by one exactly as
//! outside clusters, with a remark at the cluster's location. The result is the unfused
//! program's (never wrong, just not fused). A cluster of one combinator is lowered that
//! way silently: its own loop nest already is the cluster's one loop nest.

use super::{Builder, inline_body, lower_op, rank, replace_and_erase, static_dim, supported, ty, v, vectors_only};
use crate::bridge::emit_remark;
use crate::ir::{self, Op, Val};
use melior::ir::{OperationRef, operation::OperationLike};
use mlir_sys::*;
use std::collections::{HashMap, HashSet};

/// Lowers `cluster` as one loop nest, or falls back to its ops one by one.
pub(super) fn lower(b: &Builder, cluster: Op) {
    match plan(cluster) {
        Ok(plan) => b.lower_cluster(cluster, &plan),
        Err(why) => {
            let mut moved = Vec::new();
            let values = flatten(cluster, cluster, &mut moved);
            for (result, value) in ir::results(cluster).into_iter().zip(values) {
                ir::replace_uses_where(result, value, |_| true);
            }
            ir::erase(cluster);
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
    matches!(ir::op_name(op).as_str(), "array.cluster" | "array.vertical" | "array.horizontal" | "array.diagonal")
}

/// Moves the leaves of the tree rooted at `node` before `anchor` (tree order, producers
/// first), appending them to `moved`; binds the consumers' block arguments and the inner
/// nodes' results to the arrays they denote and erases the inner nodes. Returns the
/// values `node`'s results denote (the caller rewires and erases `node`).
fn flatten(node: Op, anchor: Op, moved: &mut Vec<Op>) -> Vec<Val> {
    let name = ir::op_name(node);
    let regions = if name == "array.cluster" { 1 } else { 2 };
    let mut yielded: Vec<Vec<Val>> = Vec::new();
    for r in 0..regions {
        let block = ir::first_block(ir::region(node, r));
        if r == 1 && matches!(name.as_str(), "array.vertical" | "array.diagonal") {
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
                ir::erase(*o);
            } else {
                ir::move_before(*o, anchor);
                moved.push(*o);
            }
        }
        yielded.push(ir::operands(*terminator));
    }
    match name.as_str() {
        "array.vertical" => yielded.pop().expect("two regions"),
        _ => yielded.concat(),
    }
}

// ---------------------------------------------------------------------------
// Sizes.
// ---------------------------------------------------------------------------

/// One extent of an iteration space, symbolically: equal keys are provably equal sizes.
#[derive(Clone, Copy, Debug)]
enum Extent {
    Static(i64),
    /// An index value defined outside the cluster.
    Value(Val),
    /// `tensor.dim` of a tensor defined outside the cluster.
    Dim(Val, usize),
}

impl PartialEq for Extent {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Extent::Static(a), Extent::Static(b)) => a == b,
            (Extent::Value(a), Extent::Value(b)) => ir::same_value(*a, *b),
            (Extent::Dim(a, d), Extent::Dim(b, e)) => ir::same_value(*a, *b) && d == e,
            _ => false,
        }
    }
}

fn value_key(v: Val) -> Extent {
    if let Some(def) = ir::defining_op(v) {
        match ir::op_name(def).as_str() {
            "arith.constant" => {
                if let Some(n) = ir::int_attribute_inherent(def, "value") {
                    return Extent::Static(n);
                }
            }
            // `array.dim`/`array.size`, lowered first (seed 001's reverse: the generate's
            // extent is the gathered array's size).
            "tensor.dim" => {
                let operands = ir::operands(def);
                if let Some(Extent::Static(d)) = operands.get(1).map(|d| value_key(*d))
                    && d >= 0
                    && (d as usize) < rank(ir::value_type(operands[0]))
                {
                    return dim_key(operands[0], d as usize);
                }
            }
            _ => {}
        }
    }
    Extent::Value(v)
}

/// The extent of dimension `d` of tensor `x` (defined outside the cluster).
fn dim_key(x: Val, d: usize) -> Extent {
    let t = ir::value_type(x);
    if let Some(s) = static_dim(t, d) {
        return Extent::Static(s);
    }
    if let Some(def) = ir::defining_op(x) {
        match ir::op_name(def).as_str() {
            "array.generate" => return value_key(ir::operands(def)[d]),
            "array.map" => {
                if let Some(first) = ir::operands(def).first() {
                    return dim_key(*first, d);
                }
            }
            "bufferization.to_tensor" => {
                let memref = ir::operands(def)[0];
                if let Some(alloc) = ir::defining_op(memref)
                    && ir::op_name(alloc) == "memref.alloc"
                {
                    // The alloc's operands are the dynamic sizes, in order.
                    let position = (0..d).filter(|e| static_dim(t, *e).is_none()).count();
                    if let Some(size) = ir::operands(alloc).get(position) {
                        return value_key(*size);
                    }
                }
            }
            _ => {}
        }
    }
    Extent::Dim(x, d)
}

fn keys_of(x: Val) -> Vec<Extent> {
    (0..rank(ir::value_type(x))).map(|d| dim_key(x, d)).collect()
}

/// Classes of extents known equal (union-find): a combinator's inputs have equal sizes.
#[derive(Default)]
struct Classes {
    members: Vec<Extent>,
    parent: Vec<usize>,
}

impl Classes {
    fn id(&mut self, e: Extent) -> usize {
        if let Some(i) = self.members.iter().position(|m| *m == e) {
            return i;
        }
        self.members.push(e);
        self.parent.push(self.parent.len());
        self.parent.len() - 1
    }

    fn find(&mut self, e: Extent) -> usize {
        let mut i = self.id(e);
        while self.parent[i] != i {
            i = self.parent[i];
        }
        i
    }

    fn union(&mut self, a: Extent, b: Extent) {
        let (x, y) = (self.find(a), self.find(b));
        self.parent[x] = y;
    }

    fn same(&mut self, a: Extent, b: Extent) -> bool {
        self.find(a) == self.find(b)
    }

    /// The extent to materialize for `e`'s class: a static member if there is one.
    fn representative(&mut self, e: Extent) -> Extent {
        let root = self.find(e);
        let members = self.members.clone();
        members.into_iter().find(|m| matches!(m, Extent::Static(_)) && self.find(*m) == root).unwrap_or(e)
    }
}

// ---------------------------------------------------------------------------
// The plan.
// ---------------------------------------------------------------------------

fn key(v: Val) -> usize {
    v.ptr as usize
}

fn key_op(op: Op) -> usize {
    op.ptr as usize
}

/// The op owning `v`: its defining op, or the op whose region holds the block of a
/// block argument.
fn owner_of(v: Val) -> Op {
    // SAFETY: live value.
    unsafe {
        if mlirValueIsAOpResult(v) {
            mlirOpResultGetOwner(v)
        } else {
            mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v))
        }
    }
}

fn defined_outside(v: Val, cluster: Op) -> bool {
    let owner = owner_of(v);
    owner.ptr.is_null() || !ir::is_within(owner, cluster)
}

fn same_ops(a: &[Op], b: &[Op]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| ir::same_op(*x, *y))
}

/// What an array of the tree is, symbolically.
#[derive(Clone)]
enum Sym {
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
struct Node {
    sym: Sym,
    /// The leaf and result number the array is.
    origin: (Op, usize),
}

/// Walks the fusion tree rooted at `node` (a fusion node or a leaf), calling `leaf` for
/// each leaf in tree order (producer before consumer, left before right); returns the
/// value of each result of `node`.
fn walk_tree<T: Clone>(
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
fn walk_region<T: Clone>(
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
fn body_is_closed(leaf: Op, cluster: Op) -> bool {
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
enum Kind {
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
struct Leaf {
    op: Op,
    kind: Kind,
    /// The filters whose scope it runs in (outermost first).
    guard: Vec<Op>,
    /// Its first slot in the loop's carried state (folds and scans: one per
    /// accumulator; filters: one, the count).
    slot: usize,
    slots: usize,
}

enum Output {
    /// Result `.1` of leaf `.0`, an array over the scope of `guard`.
    Array { origin: (Op, usize), guard: Vec<Op> },
    /// The final value of carried slot `.0` (a fold result).
    Fold(usize),
    /// The destination copy written by scatter/permute leaf `.0`.
    Written(Op),
}

pub(super) struct Plan {
    /// The extents of the base iteration space.
    space: Vec<Extent>,
    leaves: Vec<Leaf>,
    /// Every array of the tree (leaf results, bound block arguments, node results).
    origins: HashMap<usize, (Op, usize)>,
    /// The producers fused into gathers.
    deferred: HashSet<usize>,
    outputs: Vec<Output>,
    /// The initial carried state (`None`: a filter count, starting at 0).
    inits: Vec<Option<Val>>,
    /// The loop runs from the end (right scans).
    reverse: bool,
    /// Some leaf carries state: the innermost dimension is an `scf.for`.
    sequential: bool,
    /// A scatter or permute leaf: every dimension is an `scf.for` (row-major source
    /// order, as the interpreter applies the combines; seed 000 §2.1).
    ordered: bool,
}

/// A read of `x` by a computation running in order `wanted` (≠ 0): from outside, or a
/// producer of that order read once (its element function is moved into the reader).
fn deferred_read(
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
fn space_of(x: Val, env: &HashMap<usize, Node>, cluster: Op) -> Option<(Vec<Extent>, Vec<Op>)> {
    match env.get(&key(x)) {
        Some(Node { sym: Sym::Space { extents, guard }, .. }) => Some((extents.clone(), guard.clone())),
        Some(_) => None,
        None => defined_outside(x, cluster).then(|| (keys_of(x), vec![])),
    }
}

/// The common scope of the inputs `xs` of one combinator (same scope and rank, else
/// `None`); in the base scope their extents are unified.
fn inputs_space(
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
fn commutative_fold(fold: Op) -> bool {
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
fn plan(cluster: Op) -> Result<Plan, String> {
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

// ---------------------------------------------------------------------------
// The loop nest.
// ---------------------------------------------------------------------------

/// The state of the emission of one cluster's loop body.
struct Emitter<'a, 'c> {
    b: &'a Builder<'c>,
    plan: &'a Plan,
    /// The current value of every carried slot.
    state: Vec<Val>,
    /// The element of each leaf result in its scope (keyed by leaf and result).
    elements: HashMap<(usize, usize), Val>,
    /// One load per array read from outside, at the base position.
    loads: HashMap<usize, Val>,
    /// The buffers of arrays read from outside (made before the loop nest).
    outside: HashMap<usize, Val>,
    /// The predicate of each filter.
    predicates: HashMap<usize, Val>,
    /// The buffers of the cluster's outputs.
    buffers: Vec<Val>,
    /// The destination copy and its extents of each scatter/permute leaf.
    written: HashMap<usize, (Val, Vec<Val>)>,
    loop_root: Op,
    root_anchor: Op,
    root_position: Vec<Val>,
}

impl Emitter<'_, '_> {
    fn element(&mut self, x: Val) -> Val {
        if let Some((p, r)) = self.plan.origins.get(&key(x)) {
            return self.elements[&(key_op(*p), *r)];
        }
        // Read from outside: only base-scope leaves do (the plan checks it), so the
        // load goes with them, before any filter's scf.if.
        if let Some(l) = self.loads.get(&key(x)) {
            return *l;
        }
        let buffer = *self.outside.entry(key(x)).or_insert_with(|| self.b.to_buffer(self.loop_root, x));
        let l = self.b.load(self.root_anchor, buffer, &self.root_position);
        self.loads.insert(key(x), l);
        l
    }

    /// Stores the values of `op`'s results that are outputs of the cluster at `position`.
    fn store_outputs(&self, op: Op, values: &[Val], anchor: Op, position: &[Val]) {
        for (output, buffer) in self.plan.outputs.iter().zip(&self.buffers) {
            if let Output::Array { origin: (p, r), .. } = output
                && ir::same_op(*p, op)
            {
                self.b.store(anchor, values[*r], *buffer, position);
            }
        }
    }

    fn set_elements(&mut self, op: Op, values: &[Val]) {
        for (r, value) in values.iter().enumerate() {
            self.elements.insert((key_op(op), r), *value);
        }
    }

    /// The leaves of the scope of `guard` in tree order, then, under each filter's
    /// predicate, the scope of that filter.
    fn scope(&mut self, guard: &[Op], anchor: Op, position: &[Val]) {
        let here: Vec<usize> =
            (0..self.plan.leaves.len()).filter(|i| same_ops(&self.plan.leaves[*i].guard, guard)).collect();
        for i in &here {
            self.leaf(*i, anchor, position);
        }
        // The scope's outputs are stored after all its element functions.
        for i in &here {
            let op = self.plan.leaves[*i].op;
            if matches!(self.plan.leaves[*i].kind, Kind::Fold | Kind::Filter | Kind::Scatter | Kind::Permute) {
                continue;
            }
            let values: Vec<Val> = (0..ir::results(op).len()).map(|r| self.elements[&(key_op(op), r)]).collect();
            self.store_outputs(op, &values, anchor, position);
        }
        for i in here {
            if self.plan.leaves[i].kind == Kind::Filter {
                self.filter_scope(i, guard, anchor);
            }
        }
    }

    fn leaf(&mut self, i: usize, anchor: Op, position: &[Val]) {
        let plan = self.plan;
        let leaf = &plan.leaves[i];
        let op = leaf.op;
        let operands = ir::operands(op);
        let n = ir::results(op).len();
        let state_range = leaf.slot..leaf.slot + leaf.slots;
        match leaf.kind {
            Kind::Map => {
                let xs: Vec<Val> = operands.iter().map(|x| self.element(*x)).collect();
                let ys = inline_body(op, 0, &xs, anchor);
                self.set_elements(op, &ys);
            }
            Kind::Generate => {
                let ys = inline_body(op, 0, position, anchor);
                self.set_elements(op, &ys);
            }
            Kind::Gather => {
                let at: Vec<Val> = operands[1..]
                    .iter()
                    .map(|x| {
                        let i = self.element(*x);
                        self.b.index_cast(anchor, i)
                    })
                    .collect();
                let y = self.b.value_at(operands[0], &at, plan, anchor, self.loop_root, &mut self.outside);
                self.set_elements(op, &[y]);
            }
            Kind::Fold => {
                let mut arguments = self.state[state_range.clone()].to_vec();
                arguments.extend(operands[..operands.len() - n].iter().map(|x| self.element(*x)));
                let new = inline_body(op, 0, &arguments, anchor);
                self.state.splice(state_range, new);
            }
            Kind::Scan { exclusive } => {
                let accumulators = self.state[state_range.clone()].to_vec();
                let mut arguments = accumulators.clone();
                arguments.extend(operands[..operands.len() - n].iter().map(|x| self.element(*x)));
                let new = inline_body(op, 0, &arguments, anchor);
                // Inclusive: the element is the new accumulator; exclusive: the old one.
                let ys = if exclusive { accumulators } else { new.clone() };
                self.set_elements(op, &ys);
                self.state.splice(state_range, new);
            }
            Kind::Filter => {
                let xs: Vec<Val> = operands.iter().map(|x| self.element(*x)).collect();
                let keep = inline_body(op, 0, &xs, anchor)[0];
                self.predicates.insert(key_op(op), keep);
                // The kept elements are the inputs' elements (used under the predicate).
                self.set_elements(op, &xs);
            }
            Kind::Scatter | Kind::Permute => {
                // As outside clusters (`lower_scatter`/`lower_permute`), with the value
                // from the loop's registers: the target, then under `scf.if` (keep flag,
                // bounds) `dest[t] = combine(dest[t], value)` in the copy.
                let (buffer, dest_extents) = self.written[&key_op(op)].clone();
                let (value, target, keep) = if leaf.kind == Kind::Scatter {
                    let value = self.element(*operands.last().expect("scatter has values"));
                    let at: Vec<Val> = operands[1..operands.len() - 1]
                        .iter()
                        .map(|x| {
                            let i = self.element(*x);
                            self.b.index_cast(anchor, i)
                        })
                        .collect();
                    (value, at, None)
                } else {
                    let value = self.element(operands[0]);
                    let mut target = inline_body(op, 0, position, anchor);
                    let keep = (target.len() == dest_extents.len() + 1).then(|| target.pop().expect("the flag"));
                    let at: Vec<Val> = target.iter().map(|i| self.b.index_cast(anchor, *i)).collect();
                    (value, at, keep)
                };
                let body = self.b.guard(anchor, &target, &dest_extents, keep);
                let old = self.b.load(body, buffer, &target);
                let combine = if leaf.kind == Kind::Scatter { 0 } else { 1 };
                let combined = inline_body(op, combine, &[old, value], body);
                self.b.store(body, combined[0], buffer, &target);
            }
        }
    }

    /// `scf.if` on filter `i`'s predicate: the kept elements are stored at the count,
    /// the leaves of the filter's scope run at position `count`, and the count and the
    /// slots those leaves carry come out as the `scf.if`'s results (unchanged on `else`).
    fn filter_scope(&mut self, i: usize, guard: &[Op], anchor: Op) {
        let plan = self.plan;
        let filter = &plan.leaves[i];
        let mut inner = guard.to_vec();
        inner.push(filter.op);
        let mut slots: Vec<usize> = vec![filter.slot];
        for l in &plan.leaves {
            if l.guard.len() >= inner.len() && same_ops(&l.guard[..inner.len()], &inner) {
                slots.extend(l.slot..l.slot + l.slots);
            }
        }
        let types: Vec<_> = slots.iter().map(|s| ty(ir::value_type(self.state[*s]))).collect();
        let keep = self.predicates[&key_op(filter.op)];
        let (if_op, then_yield, else_yield) = self.b.if_else(anchor, keep, &types);
        let before: Vec<Val> = slots.iter().map(|s| self.state[*s]).collect();
        let count = self.state[filter.slot];
        let kept: Vec<Val> =
            (0..ir::results(filter.op).len()).map(|r| self.elements[&(key_op(filter.op), r)]).collect();
        self.store_outputs(filter.op, &kept, then_yield, &[count]);
        self.scope(&inner, then_yield, &[count]);
        let one = self.b.constant_index(then_yield, 1);
        self.state[filter.slot] = self.b.simple(then_yield, "arith.addi", &[count, one], &[], self.b.index());
        let after: Vec<Val> = slots.iter().map(|s| self.state[*s]).collect();
        ir::set_operands(then_yield, &after);
        ir::set_operands(else_yield, &before);
        for (s, r) in slots.iter().zip(ir::results(if_op)) {
            self.state[*s] = r;
        }
    }
}

impl<'c> Builder<'c> {
    fn materialize(&self, anchor: Op, extent: Extent) -> Val {
        match extent {
            Extent::Static(n) => self.constant_index(anchor, n),
            Extent::Value(v) => v,
            Extent::Dim(x, d) => self.dim_of(anchor, x, d),
        }
    }

    /// The extent of dimension `d` of array `x` of the tree or from outside, before
    /// `anchor` (outside the loop nest: it only reads values defined outside the cluster).
    fn extent_of(&self, x: Val, d: usize, plan: &Plan, anchor: Op) -> Val {
        let Some((producer, _)) =
            plan.origins.get(&key(x)).copied().filter(|(p, _)| plan.deferred.contains(&key_op(*p)))
        else {
            return self.dim_of(anchor, x, d);
        };
        let operands = ir::operands(producer);
        match ir::op_name(producer).as_str() {
            "array.generate" => operands[d],
            "array.gather" => self.extent_of(operands[1], d, plan, anchor),
            _ => self.extent_of(operands[0], d, plan, anchor),
        }
    }

    /// The element of array `x` at index `at`: a load from outside (buffers made before
    /// `loop_root`), or the element function of the producer fused into a gather, run at
    /// `at` (its inputs read at `at` in turn; a gather producer reads its source at the
    /// index it loads; a fold producer folds the row at `at` with an inner `scf.for`).
    fn value_at(
        &self,
        x: Val,
        at: &[Val],
        plan: &Plan,
        anchor: Op,
        loop_root: Op,
        buffers: &mut HashMap<usize, Val>,
    ) -> Val {
        let Some((producer, r)) =
            plan.origins.get(&key(x)).copied().filter(|(p, _)| plan.deferred.contains(&key_op(*p)))
        else {
            let buffer = *buffers.entry(key(x)).or_insert_with(|| self.to_buffer(loop_root, x));
            return self.load(anchor, buffer, at);
        };
        let operands = ir::operands(producer);
        let values = match ir::op_name(producer).as_str() {
            "array.generate" => inline_body(producer, 0, at, anchor),
            "array.map" => {
                let elements: Vec<Val> =
                    operands.iter().map(|y| self.value_at(*y, at, plan, anchor, loop_root, buffers)).collect();
                inline_body(producer, 0, &elements, anchor)
            }
            "array.gather" => {
                let inner: Vec<Val> = operands[1..]
                    .iter()
                    .map(|y| {
                        let i = self.value_at(*y, at, plan, anchor, loop_root, buffers);
                        self.index_cast(anchor, i)
                    })
                    .collect();
                vec![self.value_at(operands[0], &inner, plan, anchor, loop_root, buffers)]
            }
            _ => {
                // A fold: the row of its inputs at `at`, folded sequentially.
                let n = ir::results(producer).len();
                let (inputs, inits) = operands.split_at(operands.len() - n);
                let extent = self.extent_of(inputs[0], at.len(), plan, loop_root);
                let (loop_op, j, accumulators, yield_op) = self.for_loop(anchor, extent, inits);
                let mut row = at.to_vec();
                row.push(j);
                let mut arguments = accumulators;
                for y in inputs {
                    arguments.push(self.value_at(*y, &row, plan, yield_op, loop_root, buffers));
                }
                let new = inline_body(producer, 0, &arguments, yield_op);
                ir::set_operands(yield_op, &new);
                ir::results(loop_op)
            }
        };
        values[r]
    }

    /// One loop nest for the whole cluster (see the module doc): `scf.parallel` over the
    /// space, or, when leaves carry state, over its outer dimensions around one `scf.for`
    /// carrying it; the leaves' element functions inside, in scopes.
    fn lower_cluster(&self, cluster: Op, plan: &Plan) {
        let extents: Vec<Val> = plan.space.iter().map(|e| self.materialize(cluster, *e)).collect();
        let (outer, inner) = extents.split_at(extents.len() - 1);
        let result_types: Vec<MlirType> = ir::results(cluster).into_iter().map(ir::value_type).collect();
        // Scatter/permute leaves: a copy of the destination (defined outside), written
        // by the loop.
        let mut written = HashMap::new();
        for leaf in plan.leaves.iter().filter(|l| matches!(l.kind, Kind::Scatter | Kind::Permute)) {
            let dest = ir::operands(leaf.op)[if leaf.kind == Kind::Scatter { 0 } else { 1 }];
            let t = ir::value_type(ir::results(leaf.op)[0]);
            let dest_extents = self.extents(cluster, &[ir::value_type(dest), t], dest);
            let source = self.to_buffer(cluster, dest);
            let copy = self.alloc(cluster, t, &dest_extents);
            self.put(
                cluster,
                self.op("memref.copy").add_operands(&[v(source), v(copy)]).build().expect("valid memref.copy"),
            );
            written.insert(key_op(leaf.op), (copy, dest_extents));
        }
        let buffers: Vec<Val> = result_types
            .iter()
            .zip(&plan.outputs)
            .map(|(t, o)| match o {
                Output::Array { guard, .. } if guard.is_empty() => self.alloc(cluster, *t, &extents),
                // A filtered array: the filter's input length is an upper bound.
                Output::Array { .. } => self.alloc(cluster, *t, inner),
                Output::Fold(_) => self.alloc(cluster, *t, outer),
                Output::Written(op) => written[&key_op(*op)].0,
            })
            .collect();
        let zero = self.constant_index(cluster, 0);
        let inits: Vec<Val> = plan.inits.iter().map(|i| i.unwrap_or(zero)).collect();
        let last = plan.reverse.then(|| {
            let one = self.constant_index(cluster, 1);
            self.simple(cluster, "arith.subi", &[inner[0], one], &[], self.index())
        });
        let (outer_ivs, outer_anchor, position, root_anchor, carried) = if plan.sequential {
            let (outer_ivs, panchor) = if plan.ordered {
                // Row-major order over every dimension: nested `scf.for`s.
                let (mut ivs, mut anchor) = (vec![], cluster);
                for extent in outer {
                    let (_, iv, _, yield_op) = self.for_loop(anchor, *extent, &[]);
                    ivs.push(iv);
                    anchor = yield_op;
                }
                (ivs, anchor)
            } else {
                self.parallel(cluster, outer)
            };
            let (loop_op, k, state, yield_op) = self.for_loop(panchor, inner[0], &inits);
            let k = match last {
                Some(last) => self.simple(yield_op, "arith.subi", &[last, k], &[], self.index()),
                None => k,
            };
            let mut position = outer_ivs.clone();
            position.push(k);
            (outer_ivs, panchor, position, yield_op, Some((loop_op, state)))
        } else {
            let (ivs, anchor) = self.parallel(cluster, &extents);
            (vec![], anchor, ivs, anchor, None)
        };
        // The outermost loop: buffers of the arrays read from outside go before it.
        let mut loop_root = root_anchor;
        while let (Some(p), Some(c)) = (ir::parent_op(loop_root), ir::parent_op(cluster))
            && !ir::same_op(p, c)
        {
            loop_root = p;
        }
        let mut emitter = Emitter {
            b: self,
            plan,
            state: carried.as_ref().map(|(_, s)| s.clone()).unwrap_or_default(),
            elements: HashMap::new(),
            loads: HashMap::new(),
            outside: HashMap::new(),
            predicates: HashMap::new(),
            buffers: buffers.clone(),
            written,
            loop_root,
            root_anchor,
            root_position: position.clone(),
        };
        emitter.scope(&[], root_anchor, &position);
        let finals: Vec<Val> = match &carried {
            Some((loop_op, _)) => {
                ir::set_operands(root_anchor, &emitter.state);
                ir::results(*loop_op)
            }
            None => vec![],
        };
        let slot_of = |filter: Op| plan.leaves.iter().find(|l| ir::same_op(l.op, filter)).expect("a leaf").slot;
        let mut tensors = Vec::new();
        for ((output, buffer), t) in plan.outputs.iter().zip(&buffers).zip(&result_types) {
            let buffer = match output {
                Output::Fold(s) => {
                    self.store(outer_anchor, finals[*s], *buffer, &outer_ivs);
                    *buffer
                }
                Output::Array { guard, .. } if guard.is_empty() => *buffer,
                Output::Written(_) => *buffer,
                // The first `count` elements, the count of the innermost filter.
                Output::Array { guard, .. } => {
                    let count = finals[slot_of(*guard.last().expect("guarded"))];
                    self.prefix(cluster, *buffer, count)
                }
            };
            tensors.push(self.to_tensor(cluster, buffer, *t));
        }
        replace_and_erase(cluster, &tensors);
    }
}
