//! The loop nest of a planned cluster.

use super::super::builder::{Builder, array_op, inline_body, rank, raws, replace_and_erase, ty, v};
use super::extents::Extent;
use super::plan::{Kind, Output, Plan, key, key_op, same_ops};
use crate::ir::{self, Op, Val};
use array_dialect::view::{ArrayOp, ScanKind};
use melior::dialect::arith;
use melior::ir::ValueLike;
use mlir_sys::*;
use std::collections::HashMap;

/// What one gathered element has computed of the producers fused into its gather: by
/// producer, index values and insertion point, all results of the producer.
pub(super) type Computed = HashMap<(usize, Vec<usize>, usize), Vec<Val>>;

/// The state of the emission of one cluster's loop body.
pub(super) struct Emitter<'a, 'c> {
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
    /// The segment length and the input elements of each expand.
    expansions: HashMap<usize, (Val, Vec<Val>)>,
    /// The first pass over the expands' counts: only the leaves it needs
    /// ([`Plan::sizing`]), nothing stored, no segment loops.
    sizing: bool,
    /// The buffers of the cluster's outputs.
    buffers: Vec<Val>,
    /// The buffer (a copy of the destination, or the destination's own) and its extents
    /// of each scatter/permute leaf.
    written: HashMap<usize, (Val, Vec<Val>)>,
    /// The extents of the base iteration space (materialized before the nest).
    extents: Vec<Val>,
    /// The last index of the innermost dimension, when that loop runs from the end.
    last: Option<Val>,
    /// The loops being emitted are inside an `scf.parallel`.
    in_parallel: bool,
    /// The dimension whose loop is a parallel reduction being emitted: the folds it
    /// carries give their elements to the `scf.reduce` instead of combining them.
    reducing: Option<usize>,
    /// The outermost loop of the nest (buffers of arrays from outside are made before it).
    loop_root: Op,
    /// Where the leaves being emitted load the arrays they read from outside, and at which
    /// position: the loop body of their rank, before any filter's `scf.if`.
    read_anchor: Op,
    read_position: Vec<Val>,
}

/// By scatter or permute leaf: the buffer it writes and that buffer's extents.
type WrittenBuffers = HashMap<usize, (Val, Vec<Val>)>;

impl Emitter<'_, '_> {
    pub(super) fn element(&mut self, x: Val) -> Val {
        if let Some((p, r)) = self.plan.origins.get(&key(x)) {
            return self.elements[&(key_op(*p), *r)];
        }
        // Read from outside: only leaves outside filters' scopes do (the plan checks it),
        // so the load goes with them, before any filter's scf.if. An array has one rank,
        // so it is read at one level of the nest.
        if let Some(l) = self.loads.get(&key(x)) {
            return *l;
        }
        let buffer = *self.outside.entry(key(x)).or_insert_with(|| self.b.to_buffer(self.loop_root, x));
        let l = self.b.load(self.read_anchor, buffer, &self.read_position);
        self.loads.insert(key(x), l);
        l
    }

    /// Stores the values of `op`'s results that are outputs of the cluster at `position`.
    pub(super) fn store_outputs(&self, op: Op, values: &[Val], anchor: Op, position: &[Val]) {
        if self.sizing {
            return;
        }
        for (output, buffer) in self.plan.outputs.iter().zip(&self.buffers) {
            if let Output::Array { origin: (p, r), .. } = output
                && ir::same_op(*p, op)
            {
                self.b.store(anchor, values[*r], *buffer, position);
            }
        }
    }

    pub(super) fn set_elements(&mut self, op: Op, values: &[Val]) {
        for (r, value) in values.iter().enumerate() {
            self.elements.insert((key_op(op), r), *value);
        }
    }

    /// Whether leaf `i` is emitted in this pass.
    fn runs(&self, i: usize) -> bool {
        !self.sizing || self.plan.sizing.contains(&key_op(self.plan.leaves[i].op))
    }

    /// The leaves of the innermost loop body in the scope of `guard` in tree order, then,
    /// under each filter's predicate, the scope of that filter, and in each expand's
    /// segment loop, the scope of that expand.
    pub(super) fn scope(&mut self, guard: &[Op], anchor: Op, position: &[Val]) {
        let rank = self.plan.rank();
        let here: Vec<usize> = (0..self.plan.leaves.len())
            .filter(|i| {
                self.plan.leaves[*i].rank == rank && same_ops(&self.plan.leaves[*i].guard, guard) && self.runs(*i)
            })
            .collect();
        for i in &here {
            // Hoisted leaves were computed before an inner loop (`Emitter::level`).
            if self.plan.leaves[*i].hoisted.is_none() {
                self.leaf(*i, anchor, position);
            }
        }
        // The scope's outputs are stored after all its element functions (hoisted ones
        // too: an array output has an element at every position).
        for i in &here {
            let op = self.plan.leaves[*i].op;
            if matches!(
                self.plan.leaves[*i].kind,
                Kind::Fold | Kind::Filter | Kind::Scatter | Kind::Permute | Kind::Expand
            ) {
                continue;
            }
            let values: Vec<Val> = (0..ir::results(op).len()).map(|r| self.elements[&(key_op(op), r)]).collect();
            self.store_outputs(op, &values, anchor, position);
        }
        for i in here {
            match self.plan.leaves[i].kind {
                Kind::Filter => self.filter_scope(i, guard, anchor),
                Kind::Expand if !self.sizing => self.expand_scope(i, guard, anchor),
                _ => {}
            }
        }
    }

    pub(super) fn leaf(&mut self, i: usize, anchor: Op, position: &[Val]) {
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
                let y = self.b.value_at(
                    operands[0],
                    &at,
                    plan,
                    anchor,
                    self.loop_root,
                    &mut self.outside,
                    &mut Computed::new(),
                );
                self.set_elements(op, &[y]);
            }
            Kind::Fold if self.reducing == Some(leaf.rank - 1) => {
                // One input, one accumulator (`Plan::reduction`): this iteration's part of
                // the reduction is its element; `scf.reduce` combines the parts.
                self.state[leaf.slot] = self.element(operands[0]);
            }
            Kind::Fold => {
                let mut arguments = self.state[state_range.clone()].to_vec();
                arguments.extend(operands[..operands.len() - n].iter().map(|x| self.element(*x)));
                let new = inline_body(op, 0, &arguments, anchor);
                self.state.splice(state_range, new);
            }
            Kind::Scan(kind) => {
                let accumulators = self.state[state_range.clone()].to_vec();
                let mut arguments = accumulators.clone();
                arguments.extend(operands[..operands.len() - n].iter().map(|x| self.element(*x)));
                let new = inline_body(op, 0, &arguments, anchor);
                // Inclusive: the element is the new accumulator; exclusive: the old one.
                let ys = if kind == ScanKind::Exclusive { accumulators } else { new.clone() };
                self.set_elements(op, &ys);
                self.state.splice(state_range, new);
            }
            Kind::Expand => {
                // The segment length (negative counts are empty segments, as outside
                // clusters); the first pass adds it to the running total.
                let xs: Vec<Val> = operands.iter().map(|x| self.element(*x)).collect();
                let count = inline_body(op, 0, &xs, anchor)[0];
                let zero = self.b.constant_index(anchor, 0);
                let count = self.b.segment_length(anchor, count, zero);
                if self.sizing {
                    self.state[leaf.slot] = self.b.binary(anchor, arith::addi, self.state[leaf.slot], count);
                }
                self.expansions.insert(key_op(op), (count, xs));
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
                let (value, target, keep) = if let Some(ArrayOp::Scatter { indices, keep, values, .. }) = array_op(op) {
                    let value = self.element(values.to_raw());
                    let at: Vec<Val> = indices
                        .iter()
                        .map(|x| {
                            let i = self.element(x.to_raw());
                            self.b.index_cast(anchor, i)
                        })
                        .collect();
                    (value, at, keep.map(|k| self.element(k.to_raw())))
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

    /// The carried slots of the leaves in the scope of `inner` (a filter's or expand's) and
    /// in the scopes nested in it.
    fn slots_within(&self, inner: &[Op]) -> Vec<usize> {
        self.plan
            .leaves
            .iter()
            .filter(|l| l.guard.len() >= inner.len() && same_ops(&l.guard[..inner.len()], inner))
            .flat_map(|l| l.slot..l.slot + l.slots)
            .collect()
    }

    /// The segment loop of expand `i`: `scf.for j < count`, carrying the slots of the
    /// leaves of the expand's scope; the `get` region's values are the elements at
    /// position `offset + j` (stored there when they are outputs) and the leaves of the
    /// scope run there; the offset advances by the count after the loop.
    fn expand_scope(&mut self, i: usize, guard: &[Op], anchor: Op) {
        let plan = self.plan;
        let expand = &plan.leaves[i];
        let mut inner = guard.to_vec();
        inner.push(expand.op);
        let slots = self.slots_within(&inner);
        let (count, xs) = self.expansions[&key_op(expand.op)].clone();
        let offset = self.state[expand.slot];
        let inits: Vec<Val> = slots.iter().map(|s| self.state[*s]).collect();
        let (loop_op, j, arguments, yield_op) = self.b.for_loop(anchor, count, &inits);
        for (s, a) in slots.iter().zip(arguments) {
            self.state[*s] = a;
        }
        let position = self.b.binary(yield_op, arith::addi, offset, j);
        let mut arguments = xs;
        arguments.push(j);
        let values = inline_body(expand.op, 1, &arguments, yield_op);
        self.set_elements(expand.op, &values);
        self.store_outputs(expand.op, &values, yield_op, &[position]);
        self.scope(&inner, yield_op, &[position]);
        let after: Vec<Val> = slots.iter().map(|s| self.state[*s]).collect();
        ir::set_operands(yield_op, &after);
        for (s, r) in slots.iter().zip(ir::results(loop_op)) {
            self.state[*s] = r;
        }
        self.state[expand.slot] = self.b.binary(anchor, arith::addi, offset, count);
    }

    /// `scf.if` on filter `i`'s predicate: the kept elements are stored at the count,
    /// the leaves of the filter's scope run at position `count`, and the count and the
    /// slots those leaves carry come out as the `scf.if`'s results (unchanged on `else`).
    pub(super) fn filter_scope(&mut self, i: usize, guard: &[Op], anchor: Op) {
        let plan = self.plan;
        let filter = &plan.leaves[i];
        let mut inner = guard.to_vec();
        inner.push(filter.op);
        let mut slots: Vec<usize> = vec![filter.slot];
        slots.extend(self.slots_within(&inner));
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
        self.state[filter.slot] = self.b.binary(then_yield, arith::addi, count, one);
        let after: Vec<Val> = slots.iter().map(|s| self.state[*s]).collect();
        ir::set_operands(then_yield, &after);
        ir::set_operands(else_yield, &before);
        for (s, r) in slots.iter().zip(ir::results(if_op)) {
            self.state[*s] = r;
        }
    }
}

impl<'c> Builder<'c> {
    pub(super) fn materialize(&self, anchor: Op, extent: Extent) -> Val {
        match extent {
            Extent::Static(n) => self.constant_index(anchor, n),
            Extent::Value(v) => v,
            Extent::Dim(x, d) => self.dim_of(anchor, x, d),
        }
    }

    /// The extent of dimension `d` of array `x` of the tree or from outside, before
    /// `anchor` (outside the loop nest: it only reads values defined outside the cluster).
    pub(super) fn extent_of(&self, x: Val, d: usize, plan: &Plan, anchor: Op) -> Val {
        let Some((producer, _)) =
            plan.origins.get(&key(x)).copied().filter(|(p, _)| plan.deferred.contains(&key_op(*p)))
        else {
            return self.dim_of(anchor, x, d);
        };
        match array_op(producer) {
            Some(ArrayOp::Generate { shape, .. }) => shape[d].to_raw(),
            Some(ArrayOp::Gather { indices, .. }) => self.extent_of(indices[0].to_raw(), d, plan, anchor),
            // A map or a fold: the extent of its first input.
            _ => self.extent_of(ir::operands(producer)[0], d, plan, anchor),
        }
    }

    /// The element of array `x` at index `at`: a load from outside (buffers made before
    /// `loop_root`), or the element function of the producer fused into a gather, run at
    /// `at` (its inputs read at `at` in turn; a gather producer reads its source at the
    /// index it loads; a fold producer folds the row at `at` with an inner `scf.for`).
    /// `computed` remembers what this gathered element has computed already, by producer,
    /// index and insertion point, so a producer read twice at one index (a map of `x, x`,
    /// or two readers of one label) runs once there.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn value_at(
        &self,
        x: Val,
        at: &[Val],
        plan: &Plan,
        anchor: Op,
        loop_root: Op,
        buffers: &mut HashMap<usize, Val>,
        computed: &mut Computed,
    ) -> Val {
        let Some((producer, r)) =
            plan.origins.get(&key(x)).copied().filter(|(p, _)| plan.deferred.contains(&key_op(*p)))
        else {
            let buffer = *buffers.entry(key(x)).or_insert_with(|| self.to_buffer(loop_root, x));
            return self.load(anchor, buffer, at);
        };
        let memo_key = (key_op(producer), at.iter().map(|v| key(*v)).collect::<Vec<_>>(), key_op(anchor));
        if let Some(values) = computed.get(&memo_key) {
            return values[r];
        }
        let values = match array_op(producer) {
            Some(ArrayOp::Generate { .. }) => inline_body(producer, 0, at, anchor),
            Some(ArrayOp::Map { inputs, .. }) => {
                let elements: Vec<Val> = raws(&inputs)
                    .iter()
                    .map(|y| self.value_at(*y, at, plan, anchor, loop_root, buffers, computed))
                    .collect();
                inline_body(producer, 0, &elements, anchor)
            }
            Some(ArrayOp::Gather { source, indices }) => {
                let inner: Vec<Val> = raws(&indices)
                    .iter()
                    .map(|y| {
                        let i = self.value_at(*y, at, plan, anchor, loop_root, buffers, computed);
                        self.index_cast(anchor, i)
                    })
                    .collect();
                vec![self.value_at(source.to_raw(), &inner, plan, anchor, loop_root, buffers, computed)]
            }
            Some(ArrayOp::Fold { inputs, inits, .. }) => {
                // The row of its inputs at `at`, folded sequentially.
                let inputs = raws(&inputs);
                let extent = self.extent_of(inputs[0], at.len(), plan, loop_root);
                let (loop_op, j, accumulators, yield_op) = self.for_loop(anchor, extent, &raws(&inits));
                let mut row = at.to_vec();
                row.push(j);
                let mut arguments = accumulators;
                for y in &inputs {
                    arguments.push(self.value_at(*y, &row, plan, yield_op, loop_root, buffers, computed));
                }
                let new = inline_body(producer, 0, &arguments, yield_op);
                ir::set_operands(yield_op, &new);
                ir::results(loop_op)
            }
            _ => unreachable!("the planner fuses only maps, generates, gathers and folds into gathers"),
        };
        let value = values[r];
        computed.insert(memo_key, values);
        value
    }

    /// Scatter/permute leaves: the buffer each one writes, made before `cluster` (a copy
    /// of its destination, defined outside, or that destination's own buffer when it may be
    /// updated in place: [`Builder::destination_buffer`]); with its extents, by leaf; and
    /// the destinations, to retire after the cluster is lowered.
    fn destination_buffers(&self, cluster: Op, plan: &Plan) -> (WrittenBuffers, Vec<Val>) {
        let mut written = HashMap::new();
        let mut destinations = Vec::new();
        for leaf in &plan.leaves {
            let dest = match array_op(leaf.op) {
                Some(ArrayOp::Scatter { dest, .. } | ArrayOp::Permute { dest, .. }) => dest.to_raw(),
                _ => continue,
            };
            let t = ir::value_type(ir::results(leaf.op)[0]);
            let dest_extents = self.extents(cluster, &[ir::value_type(dest), t], dest);
            let buffer = self.destination_buffer(cluster, dest, leaf.op, t, &dest_extents);
            written.insert(key_op(leaf.op), (buffer, dest_extents));
            if !destinations.iter().any(|d| ir::same_value(*d, dest)) {
                destinations.push(dest);
            }
        }
        (written, destinations)
    }

    /// One loop nest for the whole cluster (see the module doc): a loop per run of
    /// dimensions ([`Emitter::level`]), the leaves' element functions inside, in scopes, and
    /// the leaves of lower rank after the loops whose folds they read.
    pub(super) fn lower_cluster(&self, cluster: Op, plan: &Plan) {
        let extents: Vec<Val> = plan.space.iter().map(|e| self.materialize(cluster, *e)).collect();
        let result_types: Vec<MlirType> = ir::results(cluster).into_iter().map(ir::value_type).collect();
        let (written, destinations) = self.destination_buffers(cluster, plan);
        let totals = if plan.sizing.is_empty() { HashMap::new() } else { self.expand_totals(cluster, plan) };
        let buffers: Vec<Val> = result_types
            .iter()
            .zip(&plan.outputs)
            .map(|(t, o)| match o {
                Output::Array { guard, .. } if guard.is_empty() => self.alloc(cluster, *t, &extents[..rank(*t)]),
                // An array of a filter's or an expand's scope (a vector; the base space is
                // too): the length of the innermost expand of its scope, else the filter's
                // input length, is an upper bound.
                Output::Array { guard, .. } => match guard.iter().rev().find_map(|g| totals.get(&key_op(*g))) {
                    Some(total) => self.alloc(cluster, *t, &[*total]),
                    None => self.alloc(cluster, *t, &extents),
                },
                Output::Written(op) => written[&key_op(*op)].0,
            })
            .collect();
        let mut emitter = self.emitter(cluster, plan, extents, false);
        emitter.buffers = buffers.clone();
        emitter.written = written;
        emitter.level(0, cluster, &[]);
        let slot_of = |filter: Op| plan.leaves.iter().find(|l| ir::same_op(l.op, filter)).expect("a leaf").slot;
        let mut tensors = Vec::new();
        for ((output, buffer), t) in plan.outputs.iter().zip(&buffers).zip(&result_types) {
            let buffer = match output {
                Output::Array { guard, .. } if guard.is_empty() => *buffer,
                Output::Written(_) => *buffer,
                // The first `count` elements, the count of the innermost filter (or the
                // final offset of the innermost expand: its length).
                Output::Array { guard, .. } => {
                    let count = emitter.state[slot_of(*guard.last().expect("guarded"))];
                    self.prefix(cluster, *buffer, count)
                }
            };
            tensors.push(self.to_tensor(cluster, buffer, *t));
        }
        // SAFETY: the lowered values replace every result; `cluster` is not used again.
        unsafe { replace_and_erase(cluster, &tensors) };
        for dest in destinations {
            self.retire_destination(dest);
        }
    }
}

impl<'c> Builder<'c> {
    /// An emitter of `plan`'s loop nest before `cluster` over `extents`, its carried state
    /// at the initial values; `sizing`: the first pass over the expands' counts.
    fn emitter<'a>(&'a self, cluster: Op, plan: &'a Plan, extents: Vec<Val>, sizing: bool) -> Emitter<'a, 'c> {
        let zero = self.constant_index(cluster, 0);
        let state: Vec<Val> = plan.inits.iter().map(|i| i.unwrap_or(zero)).collect();
        let last = plan.reverse.then(|| {
            let one = self.constant_index(cluster, 1);
            self.binary(cluster, arith::subi, *extents.last().expect("rank ≥ 1"), one)
        });
        Emitter {
            b: self,
            plan,
            state,
            elements: HashMap::new(),
            loads: HashMap::new(),
            outside: HashMap::new(),
            predicates: HashMap::new(),
            expansions: HashMap::new(),
            sizing,
            buffers: vec![],
            written: HashMap::new(),
            extents,
            last,
            in_parallel: false,
            reducing: None,
            loop_root: cluster,
            read_anchor: cluster,
            read_position: vec![],
        }
    }

    /// The length of each expand's results (by op), from a first loop nest over a copy of
    /// `cluster` that runs only what the expands' counts need and sums them (as outside
    /// clusters, seed 004 §2: the lengths first, then the segments). Element functions
    /// have no effects, so running them twice changes nothing but time.
    fn expand_totals(&self, cluster: Op, plan: &Plan) -> HashMap<usize, Val> {
        // SAFETY: `cluster` is live; the copy is not linked into any block.
        let copy = unsafe { mlirOperationClone(cluster) };
        let copy_plan = super::plan::plan(copy).expect("a copy of a planned cluster plans the same");
        let extents: Vec<Val> = copy_plan.space.iter().map(|e| self.materialize(cluster, *e)).collect();
        let mut first = self.emitter(cluster, &copy_plan, extents, true);
        first.level(0, cluster, &[]);
        // The leaves are in the same (tree) order in both plans.
        let totals = plan
            .leaves
            .iter()
            .zip(&copy_plan.leaves)
            .filter(|(l, _)| l.kind == Kind::Expand)
            .map(|(l, c)| (key_op(l.op), first.state[c.slot]))
            .collect();
        drop(first);
        // SAFETY: the ops moved out of the copy read only values defined outside it (element
        // functions are closed) or their own arguments, replaced when they were moved; the
        // copy has no uses.
        unsafe { mlirOperationDestroy(copy) };
        totals
    }
}

impl Emitter<'_, '_> {
    /// The loop body of level `d`, inside the loops over dimensions `0..d` (at `ivs`,
    /// before `anchor`). The innermost body holds the leaves of the base rank. Any other
    /// level holds the loop over the next dimensions — one `scf.parallel` over a run of
    /// dimensions nothing happens between, or one `scf.for` carrying the state of the
    /// leaves of rank `d + 1` — and after it the leaves of rank `d`, which read the results
    /// of the folds that loop carried (row folds feeding a map over rows; a rank-0 map
    /// after a fold: once, after the whole nest).
    fn level(&mut self, d: usize, anchor: Op, ivs: &[Val]) {
        let plan = self.plan;
        let rank = plan.rank();
        if d == rank {
            self.read_anchor = anchor;
            self.read_position = ivs.to_vec();
            self.scope(&[], anchor, ivs);
            return;
        }
        let hoisted: Vec<usize> =
            (0..plan.leaves.len()).filter(|i| plan.leaves[*i].hoisted == Some(d) && self.runs(*i)).collect();
        if hoisted.is_empty() {
            self.loops(d, anchor, ivs);
        } else {
            // Leaves computed once here, before the loops over the dimensions `d..`, instead
            // of at every position: only when those loops run at all (their extents are
            // positive), as at every position they would (a gathered index is in bounds
            // only where the program evaluates it).
            let carried = self.carried(d);
            let types: Vec<_> = carried.iter().map(|s| ty(ir::value_type(self.state[*s]))).collect();
            let zero = self.b.constant_index(anchor, 0);
            let mut runs = None;
            for extent in &self.extents[d..] {
                let positive = self.b.put1(
                    anchor,
                    arith::cmpi(self.b.context, arith::CmpiPredicate::Sgt, v(*extent), v(zero), self.b.location),
                );
                runs = Some(match runs {
                    Some(all) => self.b.binary(anchor, arith::andi, all, positive),
                    None => positive,
                });
            }
            let (if_op, then_yield, else_yield) = self.b.if_else(anchor, runs.expect("d < rank"), &types);
            let before: Vec<Val> = carried.iter().map(|s| self.state[*s]).collect();
            // Dimensions `d..` are not read by the hoisted element functions.
            let mut position = ivs.to_vec();
            position.resize(plan.rank(), zero);
            for i in hoisted {
                self.leaf(i, then_yield, &position);
            }
            self.loops(d, then_yield, ivs);
            let after: Vec<Val> = carried.iter().map(|s| self.state[*s]).collect();
            ir::set_operands(then_yield, &after);
            ir::set_operands(else_yield, &before);
            for (s, r) in carried.iter().zip(ir::results(if_op)) {
                self.state[*s] = r;
            }
        }
        // The folds the loop carried are complete: their results are arrays of rank `d`.
        for l in plan.leaves.iter().filter(|l| l.rank == d + 1 && l.kind == Kind::Fold) {
            let values = self.state[l.slot..l.slot + l.slots].to_vec();
            self.set_elements(l.op, &values);
            self.store_outputs(l.op, &values, anchor, ivs);
        }
        self.read_anchor = anchor;
        self.read_position = ivs.to_vec();
        let here: Vec<usize> = (0..plan.leaves.len()).filter(|i| plan.leaves[*i].rank == d && self.runs(*i)).collect();
        for i in &here {
            self.leaf(*i, anchor, ivs);
        }
        for i in here {
            let op = plan.leaves[i].op;
            if plan.leaves[i].kind != Kind::Fold {
                let values: Vec<Val> = (0..ir::results(op).len()).map(|r| self.elements[&(key_op(op), r)]).collect();
                self.store_outputs(op, &values, anchor, ivs);
            }
        }
    }

    /// The loop over dimension `d` (or a run of parallel dimensions from `d`) before
    /// `anchor`, with the levels inside it; the state it carries is updated to its results.
    fn loops(&mut self, d: usize, anchor: Op, ivs: &[Val]) {
        let plan = self.plan;
        let rank = plan.rank();
        if plan.reduction[d] && !self.in_parallel {
            self.reduction_loop(d, anchor, ivs);
        } else if plan.sequential[d] {
            let carried = self.carried(d);
            let inits: Vec<Val> = carried.iter().map(|s| self.state[*s]).collect();
            let (loop_op, iv, arguments, yield_op) = self.b.for_loop(anchor, self.extents[d], &inits);
            self.enter(d, loop_op);
            let iv = match self.last {
                Some(last) if d + 1 == rank => self.b.binary(yield_op, arith::subi, last, iv),
                _ => iv,
            };
            for (s, a) in carried.iter().zip(arguments) {
                self.state[*s] = a;
            }
            self.level(d + 1, yield_op, &[ivs, &[iv]].concat());
            let after: Vec<Val> = carried.iter().map(|s| self.state[*s]).collect();
            ir::set_operands(yield_op, &after);
            for (s, r) in carried.iter().zip(ir::results(loop_op)) {
                self.state[*s] = r;
            }
        } else {
            let lower_rank = |k: usize| plan.leaves.iter().any(|l| l.rank == k);
            let mut e = d;
            let hoisted_at = |k: usize| plan.leaves.iter().any(|l| l.hoisted == Some(k));
            while e + 1 < rank && !plan.sequential[e + 1] && !lower_rank(e + 1) && !hoisted_at(e + 1) {
                e += 1;
            }
            if self.in_parallel {
                // Inside an `scf.parallel` already: plain loops (an OpenMP region nested in
                // another would fork per outer iteration and run on one thread anyway).
                let (mut inner, mut body) = (ivs.to_vec(), anchor);
                for k in d..=e {
                    let (loop_op, iv, _, yield_op) = self.b.for_loop(body, self.extents[k], &[]);
                    self.enter(k, loop_op);
                    inner.push(iv);
                    body = yield_op;
                }
                self.level(e + 1, body, &inner);
            } else {
                let (inner, body) = self.b.parallel(anchor, &self.extents[d..=e]);
                let loop_op = ir::parent_op(body).expect("the body of an scf.parallel");
                self.enter(d, loop_op);
                self.in_parallel = true;
                self.level(e + 1, body, &[ivs, &inner].concat());
                self.in_parallel = false;
            }
        }
    }

    /// The loop over dimension `d` as a parallel reduction ([`Plan::reduction`]): an
    /// `scf.parallel` whose `scf.reduce` combines the elements of the folds it carries with
    /// their combines, starting from their current accumulators.
    fn reduction_loop(&mut self, d: usize, anchor: Op, ivs: &[Val]) {
        let plan = self.plan;
        let carried = self.carried(d);
        let inits: Vec<Val> = carried.iter().map(|s| self.state[*s]).collect();
        let (loop_op, iv, placeholder) = self.b.parallel_reduction(anchor, self.extents[d], &inits);
        self.enter(d, loop_op);
        let iv = match self.last {
            Some(last) if d + 1 == plan.rank() => self.b.binary(placeholder, arith::subi, last, iv),
            _ => iv,
        };
        self.in_parallel = true;
        self.reducing = Some(d);
        self.level(d + 1, placeholder, &[ivs, &[iv]].concat());
        self.reducing = None;
        self.in_parallel = false;
        let parts: Vec<Val> = carried.iter().map(|s| self.state[*s]).collect();
        let fold_of = |slot: usize| plan.leaves.iter().find(|l| l.slots > 0 && l.slot == slot).expect("a fold").op;
        self.b.finish_reduction(placeholder, &parts, |k, lhs, rhs, at| {
            self.b.reduction_combine(fold_of(carried[k]), lhs, rhs, at)
        });
        for (s, r) in carried.iter().zip(ir::results(loop_op)) {
            self.state[*s] = r;
        }
    }

    /// The state slots the loop over dimension `d` carries: those of the leaves of rank
    /// `d + 1`.
    fn carried(&self, d: usize) -> Vec<usize> {
        if !self.plan.sequential[d] {
            return vec![];
        }
        self.plan.leaves.iter().filter(|l| l.rank == d + 1).flat_map(|l| l.slot..l.slot + l.slots).collect()
    }

    /// Records the outermost loop of the nest.
    fn enter(&mut self, d: usize, loop_op: Op) {
        if d == 0 {
            self.loop_root = loop_op;
        }
    }
}
