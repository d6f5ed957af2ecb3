//! The plan of a cluster: which leaves it has, in which scope each runs, what the loop
//! carries and what it stores.

use super::super::builder::{array_op, op_kind, raws, reducible_fold, regroupable_fold, static_dim};
use super::super::{supported, vectors_only};
use super::extents::{Classes, Extent, keys_of, value_key};
use crate::ir::{self, Op, Val};
use array_dialect::view::{ArrayOp, OpKind, ScanDirection, ScanKind, attribute};
use melior::ir::{OperationRef, ValueLike, operation::OperationLike};
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
    /// An array over a prefix of the base space (`guard` empty, `extents` its extents:
    /// the base space for most leaves, the base space without its innermost dimension
    /// for the result of a fold over it, and so on) or over the compacted space of the
    /// filters in `guard` (outermost first).
    Space { extents: Vec<Extent>, guard: Vec<Op> },
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
    /// The dimensions of the base space an element depends on (bit `d`: dimension `d`;
    /// [`ALL`]: every one, or not known).
    deps: u64,
}

/// An element that depends on every dimension (or whose dependence is not analysed).
const ALL: u64 = u64::MAX;

/// The loop level an element depending on `deps` can be computed at: after the loops over
/// dimensions `0..level`.
fn level_of(deps: u64) -> usize {
    (u64::BITS - deps.leading_zeros()) as usize
}

/// The dimensions the element function of generate `op` depends on: the block arguments
/// its yielded values are computed from (values from outside depend on none; an op with
/// regions conservatively on every dimension).
fn generate_deps(op: Op) -> u64 {
    let block = ir::first_block(ir::region(op, 0));
    let mut deps: HashMap<usize, u64> = HashMap::new();
    for (d, a) in ir::block_arguments(block).into_iter().enumerate() {
        deps.insert(key(a), if d < 64 { 1 << d } else { ALL });
    }
    let mut yielded = 0;
    for inner in ir::block_ops(block) {
        let from_operands = ir::operands(inner).iter().fold(0, |acc, o| acc | deps.get(&key(*o)).copied().unwrap_or(0));
        // SAFETY: live op.
        let regions = unsafe { mlirOperationGetNumRegions(inner) };
        let d = if regions > 0 { ALL } else { from_operands };
        for r in ir::results(inner) {
            deps.insert(key(r), d);
        }
        if ir::op_name(inner) == "array.yield" {
            yielded |= from_operands;
        }
    }
    yielded
}

/// Walks the fusion tree rooted at `node` (a fusion node or a leaf), calling `leaf` for
/// each leaf in tree order (producer before consumer, left before right); returns the
/// value of each result of `node`.
pub(super) fn walk_tree<T: Clone>(
    node: Op,
    env: &mut HashMap<usize, T>,
    leaf: &mut impl FnMut(Op, &HashMap<usize, T>) -> Option<Vec<T>>,
) -> Option<Vec<T>> {
    let kind = op_kind(node);
    match kind {
        Some(OpKind::Vertical | OpKind::Diagonal | OpKind::Horizontal) => {
            let first = walk_region(node, 0, env, leaf)?;
            if kind != Some(OpKind::Horizontal) {
                let args = ir::block_arguments(ir::first_block(ir::region(node, 1)));
                if args.len() != first.len() {
                    return None;
                }
                for (a, value) in args.iter().zip(&first) {
                    env.insert(key(*a), value.clone());
                }
            }
            let second = walk_region(node, 1, env, leaf)?;
            Some(match kind {
                Some(OpKind::Vertical) => second,
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
    Scan(ScanKind),
    Filter,
    /// `array.scatter` (values and index arrays in the scope) or `array.permute` (source
    /// in the scope, index region at the position): writes into a copy of its
    /// destination, in the loop's (sequential, row-major) order.
    Scatter,
    Permute,
    /// `array.expand` (vectors): opens the scope of its segments, an inner loop over each
    /// input element's segment, at the running offset (carried by the loop).
    Expand,
}

/// An order-0 leaf: it runs once per iteration of its scope.
pub(super) struct Leaf {
    pub(super) op: Op,
    pub(super) kind: Kind,
    /// The filters and expands whose scope it runs in (outermost first).
    pub(super) guard: Vec<Op>,
    /// The rank of its scope: the base rank for the leaves of the innermost loop body, `k`
    /// for a leaf over arrays of rank `k` < base (fold results and what reads them), which
    /// runs after the loop over dimension `k`, once per iteration of the outer `k` loops.
    pub(super) rank: usize,
    /// A leaf of the base rank whose element depends only on the dimensions `0..h` and
    /// is computed once per iteration of those loops, before the loop over dimension `h`
    /// (`Some(h)`): a gather that folds a row at the gathered index (seed 000 §3.3), such as
    /// the row maximum of a softmax broadcast back over the row, and the leaves computing
    /// its index.
    pub(super) hoisted: Option<usize>,
    /// The dimensions its element depends on (maps, generates, gathers of the base scope).
    deps: u64,
    /// Its first slot in the loop's carried state (folds and scans: one per
    /// accumulator; filters: one, the count).
    pub(super) slot: usize,
    pub(super) slots: usize,
}

pub(super) enum Output {
    /// Result `.1` of leaf `.0`, an array over the scope of `guard` (a fold's result: its
    /// final accumulator, stored after the loop that carries it).
    Array { origin: (Op, usize), guard: Vec<Op> },
    /// The buffer written by scatter/permute leaf `.0` (its destination's copy, or its
    /// destination's own buffer).
    Written(Op),
}

/// A scope's loop extents and the ops it holds.
type Scope = (Vec<Extent>, Vec<Op>);

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
    /// The innermost loop runs from the end (right scans).
    pub(super) reverse: bool,
    /// By dimension `d`: the loop over `d` is an `scf.for`, because leaves of rank `d + 1`
    /// carry state across it (folds, scans, filter counts), or because a scatter or permute
    /// leaf writes in row-major source order (as the interpreter applies the combines;
    /// seed 000 §2.1). The other loops are `scf.parallel`.
    pub(super) sequential: Vec<bool>,
    /// By dimension `d`: the loop over `d` carries only the accumulators of folds whose
    /// combines are associative and commutative ([`reducible_fold`]), outside any
    /// filter's or expand's scope, and nothing writes in source order; the emitter then
    /// runs it as a parallel reduction (`scf.parallel` + `scf.reduce`) where it is not
    /// nested in another parallel loop: any grouping and order of the elements gives the
    /// fold's value (bit for bit for integers; for `fastmath<reassoc>` floats, what the
    /// user allowed).
    pub(super) reduction: Vec<bool>,
    /// The leaves (by op) the first pass over the expands' counts runs (empty: no expand).
    pub(super) sizing: HashSet<usize>,
}

impl Plan {
    /// The rank of the base iteration space.
    pub(super) fn rank(&self) -> usize {
        self.space.len()
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

/// Whether computing an element of `x`, a gather's source, folds a row: `x` is produced by
/// a fold fused into the gather, or by a producer fused into it that reads one.
fn folds_at_gathered_index(x: Val, env: &Env) -> bool {
    match env.get(&key(x)) {
        Some(Node { sym: Sym::Deferred(_, p), .. }) => {
            matches!(array_op(*p), Some(ArrayOp::Fold { .. }))
                || ir::operands(*p).iter().any(|y| folds_at_gathered_index(*y, env))
        }
        _ => false,
    }
}

/// Decides how `cluster` becomes one loop nest, or why it cannot.
pub(super) fn plan(cluster: Op) -> Result<Plan, String> {
    let body = ir::block_ops(ir::first_block(ir::region(cluster, 0)));
    if body.len() != 2 {
        return Err("the cluster body is not one fusion tree".into());
    }
    let mut planner = Planner::new(cluster);
    let mut env: Env = HashMap::new();
    let outputs = walk_region(cluster, 0, &mut env, &mut |op, env| planner.leaf(op, env));
    let Some(outputs) = outputs else {
        return Err(planner.why.take().unwrap_or_else(|| "the fusion tree is malformed".into()));
    };
    planner.finish(&outputs, &env)
}

/// The symbolic value of every array of the tree walked so far.
type Env = HashMap<usize, Node>;

/// The leaves that decide the direction and order of the cluster's loop.
#[derive(Default)]
struct Tally {
    left_scans: usize,
    /// The rank of each right scan.
    right_scans: Vec<usize>,
    /// Filters and expands: their scopes need the left-to-right loop over vectors.
    filters: usize,
    /// Leaves in order 1 (right to left).
    reversed: usize,
    noncommutative_folds: usize,
    /// Scatter and permute leaves.
    writers: usize,
}

/// The planning of one cluster: the leaves are visited in tree order ([`walk_region`]),
/// one method per leaf kind, each giving the symbolic values of the leaf's results or
/// rejecting the cluster ([`Planner::reject`] keeps the first reason).
struct Planner {
    cluster: Op,
    /// Why the cluster is not lowered as one loop nest (the first reason found).
    why: Option<String>,
    classes: Classes,
    /// The base-scope iteration space of every leaf, to be proved equal.
    spaces: Vec<Vec<Extent>>,
    leaves: Vec<Leaf>,
    inits: Vec<Option<Val>>,
    /// The producers fused into gathers.
    deferred: HashSet<usize>,
    tally: Tally,
}

/// The nodes of the results of leaf `op`, all of them `sym`.
fn nodes(op: Op, sym: Sym) -> Vec<Node> {
    (0..ir::results(op).len()).map(|r| Node { sym: sym.clone(), origin: (op, r), deps: ALL }).collect()
}

impl Planner {
    fn new(cluster: Op) -> Planner {
        Planner {
            cluster,
            why: None,
            classes: Classes::default(),
            spaces: Vec::new(),
            leaves: Vec::new(),
            inits: Vec::new(),
            deferred: HashSet::new(),
            tally: Tally::default(),
        }
    }

    fn reject(&mut self, message: String) -> Option<Vec<Node>> {
        self.why.get_or_insert(message);
        None
    }

    /// Adds a leaf running in the scope of `guard` with extents `extents` (filtered
    /// scopes are vectors: rank 1).
    fn add(&mut self, op: Op, kind: Kind, (extents, guard): (&[Extent], &[Op]), slots: usize) {
        let slot = self.leaves.iter().map(|l| l.slots).sum();
        let rank = if guard.is_empty() { extents.len() } else { 1 };
        self.leaves.push(Leaf { op, kind, guard: guard.to_vec(), rank, hoisted: None, deps: ALL, slot, slots });
    }

    /// Records that the elements of the leaf just added (in the base scope) depend on the
    /// dimensions `deps`; returns its nodes.
    fn depending(&mut self, deps: u64, mut nodes: Vec<Node>) -> Option<Vec<Node>> {
        let leaf = self.leaves.last_mut().expect("a leaf was added");
        if leaf.guard.is_empty() {
            leaf.deps = deps;
            for n in &mut nodes {
                n.deps = deps;
            }
        }
        Some(nodes)
    }

    /// The dimensions the elements of array `x` (read by a leaf of the base scope)
    /// depend on: those of its leaf, or every one (loaded at the position from outside).
    fn deps_of(x: Val, env: &Env) -> u64 {
        env.get(&key(x)).map_or(ALL, |n| n.deps)
    }

    /// The common scope of a leaf's inputs ([`inputs_space`]); a base scope is recorded
    /// as one of the spaces to prove equal.
    fn scope(&mut self, inputs: &[Val], env: &Env) -> Option<(Vec<Extent>, Vec<Op>)> {
        let (extents, guard) = inputs_space(inputs, env, self.cluster, &mut self.classes)?;
        if guard.is_empty() {
            self.spaces.push(extents.clone());
        }
        Some((extents, guard))
    }

    fn mixed_inputs(&mut self, kind: OpKind) -> Option<Vec<Node>> {
        self.reject(format!(
            "the inputs of '{}' are not arrays of one scope (arrays of different ranks, or of \
             different filters)",
            kind.name()
        ))
    }

    /// A read of `x` by a computation running in order `wanted` (≠ 0): from outside, or a
    /// producer of that order (its element function is moved into the reader; a producer
    /// read by several readers of the label runs once per read, as seed 000 §3.3 fuses it).
    fn deferred_read(&self, x: Val, wanted: i64, env: &Env) -> bool {
        match env.get(&key(x)) {
            Some(Node { sym: Sym::Deferred(o, _), .. }) => *o == wanted,
            Some(_) => false,
            None => defined_outside(x, self.cluster),
        }
    }

    /// One leaf of the tree: the checks every leaf passes, then the method of its kind.
    fn leaf(&mut self, op: Op, env: &Env) -> Option<Vec<Node>> {
        let name = ir::op_name(op);
        if !supported(op) {
            return self.reject(format!("'{name}' has an array type that buffers cannot hold"));
        }
        if !body_is_closed(op, self.cluster) {
            return self.reject(format!("the element function of '{name}' reads an array of the tree"));
        }
        let view = array_op(op);
        // Orders 0 and 1 are the left-to-right and right-to-left traversals of the
        // cluster's loop; orders ≥ 2 are gather labels (seed 000 §3).
        let order = ir::int_attribute(op, attribute::ORDER).unwrap_or(0);
        if order == 1 {
            self.tally.reversed += 1;
            if matches!(view, Some(ArrayOp::Fold { .. })) && !regroupable_fold(op) {
                return self.reject("a fold in right-to-left order whose combine may not commute".into());
            }
        }
        if order >= 2 {
            return self.fused_into_gather(op, view.as_ref(), order, env);
        }
        match view {
            Some(ArrayOp::Generate { shape, .. }) => self.generate(op, &raws(&shape)),
            Some(ArrayOp::Map { inputs, .. }) => self.map(op, &raws(&inputs), env),
            Some(ArrayOp::Gather { source, indices }) => self.gather(op, source.to_raw(), &raws(&indices), env),
            Some(ArrayOp::Fold { inputs, inits, .. }) => self.fold(op, &raws(&inputs), &raws(&inits), env),
            Some(ArrayOp::Scan { direction, kind, inputs, inits, .. }) => {
                self.scan(op, direction, kind, &raws(&inputs), &raws(&inits), env)
            }
            Some(ArrayOp::Filter { inputs, .. }) => self.filter(op, &raws(&inputs), env),
            Some(ArrayOp::Scatter { dest, indices, keep, values, .. }) => {
                // The values first, then the keep flags, then the index arrays from the last.
                let streamed: Vec<Val> =
                    std::iter::once(values).chain(keep).chain(indices.into_iter().rev()).map(|x| x.to_raw()).collect();
                self.writer(op, OpKind::Scatter, dest.to_raw(), &streamed, env)
            }
            Some(ArrayOp::Permute { source, dest, .. }) => {
                self.writer(op, OpKind::Permute, dest.to_raw(), &[source.to_raw()], env)
            }
            Some(ArrayOp::Expand { inputs, .. }) => self.expand(op, &raws(&inputs), env),
            _ => self.reject(format!("'{name}' is not lowered inside a fused loop nest yet")),
        }
    }

    /// A producer fused into the gather of label `order` (seed 000 §3.3): not iterated,
    /// computed at the gathered index; it reads only arrays from outside and producers of
    /// the same label, each read once.
    fn fused_into_gather(&mut self, op: Op, view: Option<&ArrayOp>, order: i64, env: &Env) -> Option<Vec<Node>> {
        let cluster = self.cluster;
        let ok = match view {
            Some(ArrayOp::Generate { shape, .. }) => shape.iter().all(|o| defined_outside(o.to_raw(), cluster)),
            Some(ArrayOp::Map { inputs, .. }) => inputs.iter().all(|x| self.deferred_read(x.to_raw(), order, env)),
            Some(ArrayOp::Gather { source, indices }) => match ir::int_attribute(op, attribute::LABEL) {
                Some(label) => {
                    self.deferred_read(source.to_raw(), label, env)
                        && indices.iter().all(|x| self.deferred_read(x.to_raw(), order, env))
                }
                None => false,
            },
            Some(ArrayOp::Fold { inputs, inits, .. }) => {
                inits.iter().all(|i| defined_outside(i.to_raw(), cluster))
                    && !inputs.is_empty()
                    && inputs.iter().all(|x| self.deferred_read(x.to_raw(), order, env))
            }
            _ => false,
        };
        if !ok {
            let name = ir::op_name(op);
            return self.reject(format!("'{name}' fused into a gather is not lowered at the gathered index"));
        }
        self.deferred.insert(key_op(op));
        Some(nodes(op, Sym::Deferred(order, op)))
    }

    /// A generate iterates over its shape, which must come from outside.
    fn generate(&mut self, op: Op, shape: &[Val]) -> Option<Vec<Node>> {
        if shape.iter().any(|o| !defined_outside(*o, self.cluster)) {
            return self.reject("a generate's shape is computed in the cluster".into());
        }
        let t = ir::value_type(ir::results(op)[0]);
        let extents: Vec<Extent> = shape
            .iter()
            .enumerate()
            .map(|(d, o)| static_dim(t, d).map(Extent::Static).unwrap_or_else(|| value_key(*o)))
            .collect();
        self.spaces.push(extents.clone());
        self.add(op, Kind::Generate, (&extents, &[]), 0);
        self.depending(generate_deps(op), nodes(op, Sym::Space { extents, guard: vec![] }))
    }

    /// A map runs in the scope of its inputs.
    fn map(&mut self, op: Op, inputs: &[Val], env: &Env) -> Option<Vec<Node>> {
        let Some((extents, guard)) = self.scope(inputs, env) else { return self.mixed_inputs(OpKind::Map) };
        self.add(op, Kind::Map, (&extents, &guard), 0);
        let deps = inputs.iter().fold(0, |acc, x| acc | Self::deps_of(*x, env));
        self.depending(deps, nodes(op, Sym::Space { extents, guard }))
    }

    /// A gather runs in the scope of its index arrays; its source comes from outside or is
    /// a producer of its label.
    fn gather(&mut self, op: Op, source: Val, indices: &[Val], env: &Env) -> Option<Vec<Node>> {
        let source_ok = match ir::int_attribute(op, attribute::LABEL) {
            Some(label) => self.deferred_read(source, label, env),
            None => defined_outside(source, self.cluster),
        };
        if !source_ok {
            return self.reject("a gather's source is computed in the cluster in another order".into());
        }
        let Some((extents, guard)) = self.scope(indices, env) else { return self.mixed_inputs(OpKind::Gather) };
        self.add(op, Kind::Gather, (&extents, &guard), 0);
        let deps = indices.iter().fold(0, |acc, x| acc | Self::deps_of(*x, env));
        self.depending(deps, nodes(op, Sym::Space { extents, guard }))
    }

    /// The scope of a fold or scan, whose initial values come from outside and whose
    /// accumulators the loop carries.
    fn accumulating(
        &mut self,
        kind: OpKind,
        inputs: &[Val],
        inits: &[Val],
        env: &Env,
    ) -> Result<Scope, Option<Vec<Node>>> {
        if inits.iter().any(|i| !defined_outside(*i, self.cluster)) {
            return Err(self.reject(format!("the initial values of '{}' are computed in the cluster", kind.name())));
        }
        let Some(scope) = self.scope(inputs, env) else { return Err(self.mixed_inputs(kind)) };
        self.inits.extend(inits.iter().map(|i| Some(*i)));
        Ok(scope)
    }

    /// A fold's results are its final accumulators: arrays over its scope without the
    /// innermost dimension (rank 0 for a fold of a filter's output), complete after the
    /// loop that carries them, where leaves of that rank read them.
    fn fold(&mut self, op: Op, inputs: &[Val], inits: &[Val], env: &Env) -> Option<Vec<Node>> {
        let (extents, guard) = match self.accumulating(OpKind::Fold, inputs, inits, env) {
            Ok(scope) => scope,
            Err(rejected) => return rejected,
        };
        if guard.is_empty() && extents.is_empty() {
            return self.reject("a fold of a rank-0 array".into());
        }
        self.tally.noncommutative_folds += !regroupable_fold(op) as usize;
        self.add(op, Kind::Fold, (&extents, &guard), ir::results(op).len());
        let outer = if guard.is_empty() { extents[..extents.len() - 1].to_vec() } else { vec![] };
        Some(nodes(op, Sym::Space { extents: outer, guard: vec![] }))
    }

    /// A scan's results are arrays of its scope, one accumulator per element.
    fn scan(
        &mut self,
        op: Op,
        direction: ScanDirection,
        kind: ScanKind,
        inputs: &[Val],
        inits: &[Val],
        env: &Env,
    ) -> Option<Vec<Node>> {
        let (extents, guard) = match self.accumulating(OpKind::Scan, inputs, inits, env) {
            Ok(scope) => scope,
            Err(rejected) => return rejected,
        };
        if guard.is_empty() && extents.is_empty() {
            return self.reject("a scan of a rank-0 array".into());
        }
        match direction {
            ScanDirection::Right if !guard.is_empty() => {
                return self.reject("a right scan of a filter's output".into());
            }
            ScanDirection::Right => self.tally.right_scans.push(extents.len()),
            ScanDirection::Left => self.tally.left_scans += 1,
        }
        self.add(op, Kind::Scan(kind), (&extents, &guard), ir::results(op).len());
        Some(nodes(op, Sym::Space { extents, guard }))
    }

    /// A filter (of vectors) opens a scope of its own: its results and its consumers run
    /// under its predicate, at its count.
    fn filter(&mut self, op: Op, inputs: &[Val], env: &Env) -> Option<Vec<Node>> {
        if !vectors_only(op) {
            return self.reject("a filter of higher rank".into());
        }
        let Some((extents, guard)) = self.scope(inputs, env) else {
            return self.reject(format!("the inputs of '{}' are not arrays of one scope", OpKind::Filter.name()));
        };
        self.tally.filters += 1;
        self.inits.push(None);
        self.add(op, Kind::Filter, (&extents, &guard), 1);
        let mut inner = guard;
        inner.push(op);
        Some(nodes(op, Sym::Space { extents: vec![Extent::Static(-1)], guard: inner }))
    }

    /// An expand (of vectors) opens a scope of its own, like a filter: its results and
    /// their consumers run in the inner loop over each segment (seed 004 §2: the segments'
    /// elements at the running offset). Its own length is known only after a first pass
    /// over the counts (`emit`); an expand of an expand's segments would need the inner
    /// one's counts in that pass too, and is not fused.
    fn expand(&mut self, op: Op, inputs: &[Val], env: &Env) -> Option<Vec<Node>> {
        if !vectors_only(op) {
            return self.reject("an expand of higher rank".into());
        }
        let Some((extents, guard)) = self.scope(inputs, env) else {
            return self.reject(format!("the inputs of '{}' are not arrays of one scope", OpKind::Expand.name()));
        };
        if guard.iter().any(|g| op_kind(*g) == Some(OpKind::Expand)) {
            return self.reject("an expand of an expand's segments".into());
        }
        self.tally.filters += 1;
        self.inits.push(None);
        self.add(op, Kind::Expand, (&extents, &guard), 1);
        let mut inner = guard;
        inner.push(op);
        Some(nodes(op, Sym::Space { extents: vec![Extent::Static(-1)], guard: inner }))
    }

    /// A scatter or permute (of the base space, a filter's or an expand's scope). Seed 000 §2.1/Table 1: the values (and
    /// index arrays) stream into the scatter; the destination does not (it is copied
    /// before the loop).
    fn writer(&mut self, op: Op, kind: OpKind, dest: Val, streamed: &[Val], env: &Env) -> Option<Vec<Node>> {
        let name = kind.name();
        if !defined_outside(dest, self.cluster) {
            return self.reject(format!("the destination of '{name}' is computed in the cluster"));
        }
        let Some((extents, guard)) = self.scope(streamed, env) else {
            return self.reject(format!("the streamed inputs of '{name}' are not arrays of one scope"));
        };
        // In a filter's or an expand's scope it writes the kept or expanded elements in
        // their order, the loop's (left to right: the scopes need it too).
        self.tally.writers += 1;
        self.add(op, if kind == OpKind::Scatter { Kind::Scatter } else { Kind::Permute }, (&extents, &guard), 0);
        Some(nodes(op, Sym::Written))
    }

    /// The checks over the whole tree, then the plan: one base space (every other space a
    /// prefix of it), a loop direction every leaf accepts, and outputs the loop nest stores.
    fn finish(mut self, outputs: &[Node], env: &Env) -> Result<Plan, String> {
        let Some(base) = self.spaces.iter().max_by_key(|s| s.len()).cloned() else {
            return Err("no leaf iterates over a space".into());
        };
        // Rank 0 (maps of rank-0 arrays, gathers of one element): no loop at all, the leaves
        // run once.
        for s in &self.spaces {
            if s.iter().zip(&base).any(|(a, b)| !self.classes.same(*a, *b)) {
                return Err("the leaves' iteration spaces are not provably equal".into());
            }
        }
        let rank = base.len();
        if let Some(l) = self.leaves.iter().find(|l| l.rank < rank && matches!(l.kind, Kind::Scatter | Kind::Permute)) {
            let name = ir::op_name(l.op);
            return Err(format!("'{name}' over arrays of lower rank than the cluster's loop nest"));
        }
        let reverse = self.tally.direction(rank)? && rank > 0;
        let outputs = self.outputs(outputs)?;
        let space = base.iter().map(|e| self.classes.representative(*e)).collect();
        let origins = env.iter().map(|(k, node)| (*k, node.origin)).collect();
        // Scatters and permutes write in row-major source order: every loop is an `scf.for`.
        let mut sequential = vec![self.tally.writers > 0; rank];
        let mut reduction = vec![self.tally.writers == 0; rank];
        for l in self.leaves.iter().filter(|l| l.slots > 0) {
            sequential[l.rank - 1] = true;
            let reducible = l.kind == Kind::Fold && l.guard.is_empty() && l.slots == 1 && reducible_fold(l.op);
            reduction[l.rank - 1] &= reducible;
        }
        for (r, s) in reduction.iter_mut().zip(&sequential) {
            *r &= *s;
        }
        self.hoist(rank, env);
        let sizing = self.sizing(env);
        let (leaves, deferred, inits) = (self.leaves, self.deferred, self.inits);
        Ok(Plan { space, leaves, origins, deferred, outputs, inits, reverse, sequential, reduction, sizing })
    }

    /// Marks the leaves computed before an inner loop ([`Leaf::hoisted`]): each gather of
    /// the base scope whose gathered producers fold a row and whose index does not depend
    /// on the innermost dimension — folded once per row instead of once per element, the
    /// same values: element functions have no effects — and the leaves its index reads,
    /// transitively (in reverse tree order, consumers come first).
    fn hoist(&mut self, rank: usize, env: &Env) {
        let mut needed: HashSet<usize> = HashSet::new();
        for l in self.leaves.iter_mut().rev() {
            let level = level_of(l.deps);
            if l.rank != rank || !l.guard.is_empty() || level >= rank {
                continue;
            }
            let wanted = needed.contains(&key_op(l.op))
                || (l.kind == Kind::Gather && folds_at_gathered_index(ir::operands(l.op)[0], env));
            if !wanted {
                continue;
            }
            l.hoisted = Some(level);
            let inputs = match l.kind {
                Kind::Gather => ir::operands(l.op)[1..].to_vec(),
                _ => ir::operands(l.op),
            };
            for x in inputs {
                if let Some(n) = env.get(&key(x)) {
                    needed.insert(key_op(n.origin.0));
                }
            }
        }
    }

    /// The leaves the first pass over the counts of the expands needs: the expands, the
    /// filters whose scopes they are in, and the leaves computing what those read,
    /// transitively (in reverse tree order: consumers, and the leaves in a filter's scope,
    /// come after the leaves they need).
    fn sizing(&self, env: &Env) -> HashSet<usize> {
        let mut needed: HashSet<usize> = HashSet::new();
        for l in self.leaves.iter().rev() {
            if l.kind != Kind::Expand && !needed.contains(&key_op(l.op)) {
                continue;
            }
            needed.insert(key_op(l.op));
            needed.extend(l.guard.iter().map(|g| key_op(*g)));
            for x in ir::operands(l.op) {
                if let Some(n) = env.get(&key(x)) {
                    needed.insert(key_op(n.origin.0));
                }
            }
        }
        needed
    }

    /// How the cluster's results are stored; array outputs need a tensor type the buffers
    /// can hold.
    fn outputs(&self, nodes: &[Node]) -> Result<Vec<Output>, String> {
        let result_types: Vec<MlirType> = ir::results(self.cluster).into_iter().map(ir::value_type).collect();
        let mut outputs = Vec::new();
        for (t, node) in result_types.iter().zip(nodes) {
            let output = match &node.sym {
                Sym::Space { extents, guard } if guard.is_empty() && ir::rank(*t) == Some(extents.len() as i64) => {
                    Output::Array { origin: node.origin, guard: vec![] }
                }
                Sym::Space { guard, .. }
                    if !guard.is_empty() && ir::rank(*t) == Some(1) && static_dim(*t, 0).is_none() =>
                {
                    Output::Array { origin: node.origin, guard: guard.clone() }
                }
                Sym::Written => Output::Written(node.origin.0),
                _ => return Err("an output of the cluster is not stored by the loop nest".into()),
            };
            outputs.push(output);
        }
        Ok(outputs)
    }
}

impl Tally {
    /// Whether the loop runs from the end, if one direction suits every leaf in a space
    /// of rank `rank`. A right-to-left loop (right scans, leaves in order 1): a left scan
    /// or a filter needs the other direction, and a fold may run backwards only when its
    /// combine commutes (the interpreter folds from the left).
    fn direction(&self, rank: usize) -> Result<bool, String> {
        let reverse = !self.right_scans.is_empty() || self.reversed > 0;
        // Only the innermost loop runs from the end.
        if self.right_scans.iter().any(|k| *k != rank) {
            return Err("a right scan over an outer dimension of the loop nest".into());
        }
        if reverse && (self.left_scans > 0 || self.filters > 0 || self.noncommutative_folds > 0) {
            return Err(
                "a right-to-left loop with a left scan, a filter or a fold whose combine may not commute".into()
            );
        }
        if reverse && self.writers > 0 {
            return Err("a right-to-left loop with a scatter or permute (they write in source order)".into());
        }
        if self.filters > 0 && rank != 1 {
            return Err("a filter in a space of higher rank".into());
        }
        Ok(reverse)
    }
}
