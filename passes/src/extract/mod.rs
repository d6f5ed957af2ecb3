//! Building the dependence graph ([`Graph`]) of one block from IR.
//!
//! Nodes, in program order (seed 000 §4.1, seed 001 Fig. 1.10):
//! * one [`NodeKind::Input`] per array argument of the block, then one per array defined
//!   outside the block and used in it (when the block is nested: an `scf` body);
//! * one node per combinator: `map`, `generate`, `gather` (labels 2, 3, …: first the
//!   gathers that compute their indices, then those that load them, each group in
//!   program order; `Graph::computed_index_gathers`), `scatter`, `fold`, `scan` (`right` is backward), `filter`, `expand`; the
//!   sugar `reverse`, `backpermute` and `replicate` are gathers with their own label
//!   (generate + gather fused: they read their source in their own order), `permute`
//!   is a scatter (its index region runs over the source, the destination is consumed);
//! * one [`NodeKind::Barrier`] for every other op that produces or consumes arrays:
//!   `array.force` (seed 000: an infusible edge between its argument and its
//!   consumers), calls, `tensor` ops, array constants, and `scf` ops as a whole (their
//!   regions are separate problems, seed 000 §4.1 "Control flow").
//!
//! `array.size`/`array.dim` read no elements and `array.index` at block level reads
//! one element of a complete array: neither is a node. The index makes the array
//! escape (it must be manifest).
//!
//! Edges, one per (producer output, consumer, access):
//! * [`Access::InOutputOrder`] for element-wise inputs (map, fold, scan, filter and
//!   expand inputs, index arrays and values of gather/scatter, the source of `permute`);
//! * [`Access::GatherSource`] for the source of a gather (and of the gather sugar);
//! * [`Access::Unordered`] for free variables (an array used inside a combinator's
//!   regions, at any depth, by anything but `array.size`/`array.dim`), scatter
//!   destinations (seed 000 (8)), every use of a scatter's destination after the
//!   scatter, and every operand of a barrier (operands of ops nested in its regions
//!   included).
//! * Scalar dependencies (seed 001 Fig. 1.10 `fv(f)`): a scalar computed at block level
//!   from `array.index A[…]` depends on A being complete, and `array.size`/`array.dim`
//!   of an array whose size is only known once its producer has run (a filter, expand
//!   or barrier, possibly through size-preserving combinators) depends on that
//!   producer. Every node that uses such a scalar (as an operand, or inside its
//!   regions) gets an [`Access::Unordered`] edge from the producer of that array.
//!
//! An edge is fusible only if its access is ordered, both ends are combinators, the
//! producer is not a scatter (seed 000 Table 1: `scatter` produces its result in no
//! order), no other edge between the same two nodes is unordered (the consumer must
//! then wait for the producer to finish anyway), and the consumer requires no size
//! equality that [`sizes`] could not prove (the fusion rules would rely on it).
//!
//! Sizes come from [`sizes`]; iteration and output sizes follow seed 001
//! Fig. 1.6, with folds, filters and expands as transducers.

use array_dialect::types::element_bytes;
use fusion_analysis::graph::{Access, Edge, Graph, Node, NodeId, NodeKind, Order};
pub mod sizes;
mod support;

pub use self::support::{Names, op_name};

use self::sizes::{SizeError, Sizes};
use self::support::raw;
use array_dialect::view::{ArrayOp, OpKind, ScanDirection, is_array};
use melior::ir::{
    BlockLike, BlockRef, Module, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike, operation::OperationLike,
};
use mlir_sys::MlirOperation;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;

/// Why a block has no graph: an ill-sized program, or IR of an unexpected form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtractError {
    pub message: String,
    pub location: Option<(String, u32, u32)>,
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((file, line, col)) = &self.location {
            write!(f, "{file}:{line}:{col}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExtractError {}

impl From<SizeError> for ExtractError {
    fn from(e: SizeError) -> Self {
        ExtractError { message: e.message, location: e.location }
    }
}

// ---------------------------------------------------------------------------------
// IR helpers
// ---------------------------------------------------------------------------------

/// Elements assumed for each dynamic dimension by the `bytes` cost model: the real
/// extent is unknown at compile time, and the papers' programs run on arrays of
/// thousands to millions of elements; what matters is that an array of higher rank
/// weighs more (seed 000 §5: `large` in greedyBottomUpBad).
pub const DYNAMIC_EXTENT_ESTIMATE: u64 = 1024;

/// Bytes of an array of type `ty`: exact when its shape is static, else estimated with
/// [`DYNAMIC_EXTENT_ESTIMATE`] elements per dynamic dimension.
fn array_bytes(ty: Type) -> Option<u64> {
    let raw = ty.to_raw();
    // SAFETY: only reads a live type, checked to be a ranked tensor first.
    unsafe {
        if !mlir_sys::mlirTypeIsARankedTensor(raw) {
            return None;
        }
        let element = element_bytes(Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)))?;
        (0..mlir_sys::mlirShapedTypeGetRank(raw)).try_fold(element, |acc, d| {
            let extent = if mlir_sys::mlirShapedTypeIsDynamicDim(raw, d as isize) {
                DYNAMIC_EXTENT_ESTIMATE
            } else {
                mlir_sys::mlirShapedTypeGetDimSize(raw, d as isize) as u64
            };
            acc.checked_mul(extent)
        })
    }
}

/// `'i` for the i-th copy of a producer made by [`crate::recompute`] (which shares the
/// original's location, so its source name), else nothing.
fn copy_suffix(op: OperationRef) -> String {
    op.attribute(crate::recompute::COPY_ATTRIBUTE)
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map(|i| format!("'{}", i.value()))
        .unwrap_or_default()
}

/// Every op nested in `op`'s regions (not `op` itself), and the values they define.
fn nested<'c, 'a>(op: OperationRef<'c, 'a>, ops: &mut Vec<OperationRef<'c, 'a>>, defined: &mut HashSet<usize>) {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            for i in 0..b.argument_count() {
                if let Ok(a) = b.argument(i) {
                    defined.insert(raw(a));
                }
            }
            let mut inner = b.first_operation();
            while let Some(o) = inner {
                ops.push(o);
                for r in o.results() {
                    defined.insert(raw(r));
                }
                nested(o, ops, defined);
                inner = o.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}

/// Values used inside `op`'s regions but defined outside `op`, with the op using them,
/// in walk order.
fn captured<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<(Value<'c, 'a>, OperationRef<'c, 'a>)> {
    let mut ops = Vec::new();
    let mut defined = HashSet::new();
    nested(op, &mut ops, &mut defined);
    let mut uses = Vec::new();
    for user in ops {
        for v in user.operands() {
            if !defined.contains(&raw(v)) {
                uses.push((v, user));
            }
        }
    }
    uses
}

fn reads_no_elements(op: OperationRef) -> bool {
    matches!(OpKind::of(&op), Some(OpKind::Size | OpKind::Dim))
}

/// The node kind of a combinator (gathers get label 0 here; the builder numbers them).
fn combinator_kind(op: &ArrayOp) -> Option<NodeKind> {
    Some(match op {
        ArrayOp::Map { .. } => NodeKind::Map,
        ArrayOp::Generate { .. } => NodeKind::Generate,
        ArrayOp::Gather { .. } | ArrayOp::Reverse { .. } | ArrayOp::Backpermute { .. } | ArrayOp::Replicate { .. } => {
            NodeKind::Gather { label: 0 }
        }
        ArrayOp::Scatter { .. } | ArrayOp::Permute { .. } => NodeKind::Scatter,
        ArrayOp::Fold { body, .. } => NodeKind::Fold { commutes: array_dialect::view::combine_commutes(*body) },
        ArrayOp::Scan { direction, .. } => NodeKind::Scan { backward: *direction == ScanDirection::Right },
        ArrayOp::Filter { .. } => NodeKind::Filter,
        ArrayOp::Expand { .. } => NodeKind::Expand,
        _ => return None,
    })
}

/// The operands of combinator `op` in operand order, each with the access its node makes
/// (`None`: read as a whole, not element by element: the initial values of folds and
/// scans), and the scatter destination if there is one. `label` is a gather's label.
fn operand_accesses<'c, 'a>(
    op: &ArrayOp<'c, 'a>,
    all: &[Value<'c, 'a>],
    label: Order,
) -> (Vec<(Value<'c, 'a>, Option<Access>)>, Option<Value<'c, 'a>>) {
    let ordered = |values: &[Value<'c, 'a>]| values.iter().map(|v| (*v, Some(Access::InOutputOrder))).collect();
    let source = |v: Value<'c, 'a>| (v, Some(Access::GatherSource { label }));
    let destination = |v: Value<'c, 'a>| (v, Some(Access::ScatterDestination));
    match op {
        ArrayOp::Gather { source: s, indices } => (prepend(source(*s), ordered(indices)), None),
        ArrayOp::Backpermute { source: s, shape, .. } => (prepend(source(*s), ordered(shape)), None),
        ArrayOp::Reverse { input } => (vec![source(*input)], None),
        ArrayOp::Replicate { input, count } => (vec![source(*input), (*count, Some(Access::InOutputOrder))], None),
        ArrayOp::Scatter { dest, indices, keep, values, .. } => {
            let mut accesses = prepend(destination(*dest), ordered(indices));
            accesses.extend(keep.iter().map(|k| (*k, Some(Access::InOutputOrder))));
            accesses.push((*values, Some(Access::InOutputOrder)));
            (accesses, Some(*dest))
        }
        ArrayOp::Permute { source: s, dest, .. } => {
            (vec![(*s, Some(Access::InOutputOrder)), destination(*dest)], Some(*dest))
        }
        ArrayOp::Fold { inputs, inits, .. } | ArrayOp::Scan { inputs, inits, .. } => {
            let mut accesses: Vec<_> = ordered(inputs);
            accesses.extend(inits.iter().map(|v| (*v, None)));
            (accesses, None)
        }
        _ => (ordered(all), None),
    }
}

fn prepend<T>(first: T, mut rest: Vec<T>) -> Vec<T> {
    rest.insert(0, first);
    rest
}

/// Where the size of combinator `op`'s result comes from: arrays whose sizes it takes
/// and scalars that give its shape.
fn size_sources<'c, 'a>(op: &ArrayOp<'c, 'a>) -> (Vec<Value<'c, 'a>>, Vec<Value<'c, 'a>>) {
    match op {
        ArrayOp::Map { inputs, .. } | ArrayOp::Fold { inputs, .. } | ArrayOp::Scan { inputs, .. } => {
            (inputs.clone(), Vec::new())
        }
        ArrayOp::Generate { shape, .. } | ArrayOp::Backpermute { shape, .. } => (Vec::new(), shape.clone()),
        ArrayOp::Gather { indices, .. } => (indices.clone(), Vec::new()),
        ArrayOp::Reverse { input } => (vec![*input], Vec::new()),
        ArrayOp::Replicate { input, count } => (vec![*input], vec![*count]),
        ArrayOp::Scatter { dest, .. } | ArrayOp::Permute { dest, .. } => (vec![*dest], Vec::new()),
        _ => (Vec::new(), Vec::new()),
    }
}

// ---------------------------------------------------------------------------------
// The builder
// ---------------------------------------------------------------------------------

/// A dependency on one output of a node: (node, output, array name).
type Dep = (usize, usize, String);

struct Builder<'n, 's> {
    names: &'n Names<'s>,
    sizes: Sizes,
    graph: Graph,
    /// Raw array value → (node, output, array name).
    producers: HashMap<usize, (NodeId, usize, String)>,
    /// Raw block-level scalar → the node outputs it needs complete.
    scalar_deps: HashMap<usize, BTreeSet<Dep>>,
    /// Per node: the node outputs its result *size* needs complete.
    size_deps: Vec<BTreeSet<Dep>>,
    /// Raw array value → index of the op that consumed it as a scatter destination.
    consumed: HashMap<usize, usize>,
    edge_keys: HashSet<(NodeId, usize, NodeId, Access)>,
    next_label: Order,
    /// Per gather, in program order: its label and whether it computes its indices
    /// ([`Graph::computed_index_gathers`]); `finish` renumbers the labels from them.
    gathers: Vec<(Order, bool)>,
    /// The op of every node (`None` for inputs), so passes can annotate it.
    node_ops: Vec<Option<MlirOperation>>,
}

impl<'n, 's> Builder<'n, 's> {
    fn push_node(&mut self, node: Node, op: Option<MlirOperation>) -> NodeId {
        self.graph.nodes.push(node);
        self.node_ops.push(op);
        self.size_deps.push(BTreeSet::new());
        NodeId(self.graph.nodes.len() - 1)
    }

    fn add_input(&mut self, value: Value, name: String) {
        let node = Node {
            name: name.clone(),
            kind: NodeKind::Input,
            iteration: None,
            // The size of the array (not a transducer: inputs are never in size_parent).
            output_size: self.sizes.class_of(value),
            outputs: 1,
            output_bytes: vec![array_bytes(value.r#type())],
            escapes: false,
            escaping_outputs: Vec::new(),
        };
        let id = self.push_node(node, None);
        self.producers.insert(raw(value), (id, 0, name));
    }

    fn add_edge(&mut self, from: NodeId, output: usize, array: String, to: NodeId, access: Access) {
        if from == to || !self.edge_keys.insert((from, output, to, access)) {
            return;
        }
        self.graph.edges.push(Edge { from, to, output, array, access, fusible: false });
    }

    /// A use of array `value` by node `to` (op number `at` in the block).
    fn use_array(&mut self, value: Value, to: NodeId, access: Access, at: usize) {
        let Some((from, output, array)) = self.producers.get(&raw(value)).cloned() else { return };
        let access = match self.consumed.get(&raw(value)) {
            Some(scatter) if *scatter < at => Access::Unordered,
            _ => access,
        };
        if self.graph.nodes[to.0].kind == NodeKind::Barrier {
            self.mark_escaping(from, output);
        }
        self.add_edge(from, output, array, to, access);
    }

    fn deps_of_scalar(&self, value: Value) -> BTreeSet<Dep> {
        self.scalar_deps.get(&raw(value)).cloned().unwrap_or_default()
    }

    /// What must be complete before the size of array `value` is known.
    fn deps_of_size(&self, value: Value) -> BTreeSet<Dep> {
        match self.producers.get(&raw(value)) {
            None => BTreeSet::new(),
            Some((node, output, array)) => match self.graph.nodes[node.0].kind {
                NodeKind::Input => BTreeSet::new(),
                NodeKind::Filter | NodeKind::Expand | NodeKind::Barrier => {
                    BTreeSet::from([(node.0, *output, array.clone())])
                }
                _ => self.size_deps[node.0].clone(),
            },
        }
    }

    fn dep_edges(&mut self, deps: BTreeSet<Dep>, to: NodeId) {
        for (node, output, array) in deps {
            self.add_edge(NodeId(node), output, array, to, Access::Unordered);
        }
    }

    fn use_scalar(&mut self, value: Value, to: NodeId) {
        let deps = self.deps_of_scalar(value);
        self.dep_edges(deps, to);
    }

    fn escape(&mut self, value: Value) {
        if let Some((node, output, _)) = self.producers.get(&raw(value)).cloned() {
            self.mark_escaping(node, output);
        }
    }

    /// Output `output` of `node` is needed outside the block (or by a barrier).
    fn mark_escaping(&mut self, node: NodeId, output: usize) {
        let n = &mut self.graph.nodes[node.0];
        n.escapes = true;
        if n.escaping_outputs.len() < n.outputs {
            n.escaping_outputs.resize(n.outputs, false);
        }
        if let Some(flag) = n.escaping_outputs.get_mut(output) {
            *flag = true;
        }
    }

    fn node_name(&self, op: OperationRef, index: usize) -> String {
        let name = if let Some(groups) = self.names.result_groups(op)
            && let Some((name, _)) = groups.into_iter().next()
        {
            name
        } else {
            match self.names.location(op.location()) {
                Some((f, l, c)) => format!("{f}:{l}:{c}"),
                None => format!("{}#{index}", op_name(op)),
            }
        };
        format!("{name}{}", copy_suffix(op))
    }

    /// Registers the array results of `op`, produced by node `id`.
    fn register_results(&mut self, op: OperationRef, id: NodeId) {
        let arrays: Vec<(usize, Value)> =
            op.results().enumerate().filter(|(_, r)| is_array(*r)).map(|(i, r)| (i, r.into())).collect();
        let single = arrays.len() == 1;
        for (output, (index, value)) in arrays.into_iter().enumerate() {
            let name = match self.names.result_name(op, index) {
                Some(name) => format!("{name}{}", copy_suffix(op)),
                None => {
                    let node = &self.graph.nodes[id.0].name;
                    if single { node.clone() } else { format!("{node}#{output}") }
                }
            };
            self.producers.insert(raw(value), (id, output, name));
        }
    }

    fn new_node(&self, op: OperationRef, index: usize, kind: NodeKind) -> Node {
        let arrays: Vec<Value> = op.results().filter(|r| is_array(*r)).map(Value::from).collect();
        Node {
            name: self.node_name(op, index),
            kind,
            iteration: None,
            output_size: None,
            outputs: arrays.len(),
            output_bytes: arrays.iter().map(|v| array_bytes(v.r#type())).collect(),
            escapes: false,
            escaping_outputs: Vec::new(),
        }
    }

    fn combinator(
        &mut self,
        op: OperationRef,
        decoded: &ArrayOp,
        index: usize,
        kind: NodeKind,
    ) -> Result<(), ExtractError> {
        let operands: Vec<Value> = op.operands().collect();
        let results: Vec<Value> = op.results().map(Value::from).collect();
        let kind = match kind {
            NodeKind::Gather { .. } => {
                let label = self.next_label;
                self.next_label += 1;
                // The sugar computes its indices from the loop position; an `array.gather`
                // does when every index array is a `generate` of this block.
                let computed = match decoded {
                    ArrayOp::Gather { indices, .. } => indices.iter().all(|v| {
                        self.producers
                            .get(&raw(*v))
                            .is_some_and(|(n, _, _)| self.graph.nodes[n.0].kind == NodeKind::Generate)
                    }),
                    _ => true,
                };
                self.gathers.push((label, computed));
                NodeKind::Gather { label }
            }
            k => k,
        };
        let class = |v: Option<&Value>| v.and_then(|v| self.sizes.class_of(*v));
        let first_result = results.first();
        let (iteration, output_size) = match decoded {
            ArrayOp::Scatter { values, .. } => (class(Some(values)), class(first_result)),
            ArrayOp::Permute { source, .. } => (class(Some(source)), class(first_result)),
            ArrayOp::Fold { inputs, .. } | ArrayOp::Filter { inputs, .. } | ArrayOp::Expand { inputs, .. } => {
                (class(inputs.first()), class(first_result))
            }
            _ => (class(first_result), None),
        };
        let mut node = self.new_node(op, index, kind);
        node.iteration = iteration;
        node.output_size = output_size;
        let id = self.push_node(node, Some(op.to_raw()));

        let label = if let NodeKind::Gather { label } = kind { label } else { 0 };
        let (accesses, dest) = operand_accesses(decoded, &operands, label);
        for (v, access) in accesses {
            match access {
                Some(access) if is_array(v) => self.use_array(v, id, access, index),
                _ if is_array(v) => self.use_array(v, id, Access::Unordered, index),
                _ => self.use_scalar(v, id),
            }
        }
        // Free variables of the regions (seed 000 Table 1 `free f`).
        for (v, user) in captured(op) {
            if !is_array(v) {
                self.use_scalar(v, id);
            } else if reads_no_elements(user) {
                let deps = self.deps_of_size(v);
                self.dep_edges(deps, id);
            } else {
                self.use_array(v, id, Access::Unordered, index);
            }
        }
        if let Some(d) = dest {
            self.consumed.entry(raw(d)).or_insert(index);
        }

        // What the result size depends on.
        let (sized_by, shaped_by) = size_sources(decoded);
        let mut deps: BTreeSet<Dep> = sized_by.iter().flat_map(|v| self.deps_of_size(*v)).collect();
        deps.extend(shaped_by.iter().flat_map(|v| self.deps_of_scalar(*v)));
        self.size_deps[id.0] = deps;

        if results.iter().any(|r| !is_array(*r)) {
            return Err(ExtractError {
                message: format!("unexpected '{}': it has a result that is not a ranked tensor", decoded.kind().name()),
                location: self.names.location(op.location()),
            });
        }
        self.register_results(op, id);
        Ok(())
    }

    fn barrier(&mut self, op: OperationRef, index: usize) {
        let node = self.new_node(op, index, NodeKind::Barrier);
        let id = self.push_node(node, Some(op.to_raw()));
        for v in op.operands() {
            if is_array(v) {
                self.use_array(v, id, Access::Unordered, index);
            } else {
                self.use_scalar(v, id);
            }
        }
        for (v, _) in captured(op) {
            if is_array(v) {
                self.use_array(v, id, Access::Unordered, index);
            } else {
                self.use_scalar(v, id);
            }
        }
        self.register_results(op, id);
        // Scalar results need the barrier to have run. An edge must name an array
        // output, so the dependency is on its first array output, if it has one.
        let first_array = op.results().find(|r| is_array(*r)).map(raw);
        let dep = first_array.and_then(|r| self.producers.get(&r).cloned());
        for r in op.results().filter(|r| !is_array(*r)) {
            let deps = dep.iter().map(|(n, o, a)| (n.0, *o, a.clone())).collect();
            self.scalar_deps.insert(raw(r), deps);
        }
    }

    /// An op that is not a node: scalar computations (their results carry the
    /// dependencies of their operands).
    fn scalar_op(&mut self, op: OperationRef) {
        let mut deps = BTreeSet::new();
        for v in op.operands() {
            deps.extend(self.deps_of_scalar(v));
        }
        for (v, _) in captured(op) {
            deps.extend(self.deps_of_scalar(v));
        }
        if deps.is_empty() {
            return;
        }
        for r in op.results() {
            self.scalar_deps.insert(raw(r), deps.clone());
        }
    }

    fn op(&mut self, op: OperationRef, index: usize, terminator: bool) -> Result<(), ExtractError> {
        if terminator {
            for v in op.operands() {
                if is_array(v) {
                    self.escape(v);
                }
            }
            return Ok(());
        }
        let decoded = ArrayOp::decode(op)
            .transpose()
            .map_err(|e| ExtractError { message: e.to_string(), location: self.names.location(op.location()) })?;
        match &decoded {
            Some(ArrayOp::Size { input } | ArrayOp::Dim { input, .. }) => {
                let deps = self.deps_of_size(*input);
                for r in op.results() {
                    self.scalar_deps.insert(raw(r), deps.clone());
                }
            }
            Some(ArrayOp::Index { array, indices }) => {
                self.escape(*array);
                let mut deps: BTreeSet<Dep> = indices.iter().flat_map(|v| self.deps_of_scalar(*v)).collect();
                if let Some((node, output, name)) = self.producers.get(&raw(*array))
                    && self.graph.nodes[node.0].kind != NodeKind::Input
                {
                    deps.insert((node.0, *output, name.clone()));
                }
                for r in op.results() {
                    self.scalar_deps.insert(raw(r), deps.clone());
                }
            }
            _ => {
                if let Some((decoded, kind)) = decoded.as_ref().and_then(|d| Some((d, combinator_kind(d)?))) {
                    self.combinator(op, decoded, index, kind)?;
                } else if op.operands().any(is_array)
                    || op.results().any(is_array)
                    || captured(op).iter().any(|(v, _)| is_array(*v))
                {
                    self.barrier(op, index);
                } else {
                    self.scalar_op(op);
                }
            }
        }
        Ok(())
    }

    /// Renumbers the gather labels so that the gathers that compute their indices come
    /// first (`2, 3, …` in program order), then those that load them, and records how
    /// many compute ([`Graph::computed_index_gathers`]). Labels are names (seed 000
    /// §3.3: one per gather); only `gathered-folds` reads their numbering.
    fn label_computed_gathers_first(&mut self) {
        let computed: Vec<Order> = self.gathers.iter().filter(|g| g.1).map(|g| g.0).collect();
        let loaded = self.gathers.iter().filter(|g| !g.1).map(|g| g.0);
        let new_label: HashMap<Order, Order> =
            computed.iter().copied().chain(loaded).enumerate().map(|(i, old)| (old, 2 + i as Order)).collect();
        for node in &mut self.graph.nodes {
            if let NodeKind::Gather { label } = &mut node.kind {
                *label = new_label[label];
            }
        }
        for e in &mut self.graph.edges {
            if let Access::GatherSource { label } = &mut e.access {
                *label = new_label[label];
            }
        }
        self.graph.computed_index_gathers = computed.len() as Order;
    }

    fn finish(mut self) -> Extracted {
        self.label_computed_gathers_first();
        // Fusible: ordered access between two combinators, not out of a scatter, and
        // no unordered edge between the same two nodes.
        let mut blocked: HashSet<(NodeId, NodeId)> = HashSet::new();
        for e in &self.graph.edges {
            if !e.access.is_ordered() {
                blocked.insert((e.from, e.to));
            }
        }
        let nodes = &self.graph.nodes;
        for e in &mut self.graph.edges {
            let (from, to) = (nodes[e.from.0].kind, nodes[e.to.0].kind);
            e.fusible = e.access.is_ordered()
                && from.is_fusible_kind()
                && to.is_fusible_kind()
                && from != NodeKind::Scatter
                && !blocked.contains(&(e.from, e.to));
        }
        // An op whose size equality could not be proven (sizes.rs) runs only once its
        // operands are complete: fusing it with their producers would rely on the equality.
        let unprovable: HashSet<usize> = self.sizes.unprovable().iter().map(|u| u.op.ptr as usize).collect();
        let guarded: HashSet<NodeId> = (self.node_ops.iter().enumerate())
            .filter(|(_, op)| op.is_some_and(|op| unprovable.contains(&(op.ptr as usize))))
            .map(|(i, _)| NodeId(i))
            .collect();
        for e in &mut self.graph.edges {
            if guarded.contains(&e.to) {
                e.fusible = false;
            }
        }
        for (i, n) in self.graph.nodes.iter().enumerate() {
            // Scatters do not produce their output in an order derived from their
            // iteration (seed 000 Table 1), so they are no parent transducers.
            if matches!(n.kind, NodeKind::Fold { .. } | NodeKind::Filter | NodeKind::Expand)
                && let (Some(out), Some(iteration)) = (n.output_size, n.iteration)
                && out != iteration
            {
                self.graph.size_parent.push((out, NodeId(i)));
            }
        }
        self.graph.rigid_sizes = self.sizes.rigid_classes();
        let unprovable = self.sizes.unprovable().to_vec();
        Extracted { graph: self.graph, ops: self.node_ops, unprovable }
    }
}

/// A block's dependence graph together with the op of each node.
pub struct Extracted {
    pub graph: Graph,
    /// Indexed like `graph.nodes`; `None` for inputs.
    pub ops: Vec<Option<MlirOperation>>,
    /// The size equalities ops require that could not be proven; each such op's
    /// in-edges are infusible. The caller reports them.
    pub unprovable: Vec<sizes::UnprovableEquality>,
}

/// [`extract`], also giving the op behind every node.
pub fn extract_block(block: BlockRef, source_text: Option<&str>) -> Result<Extracted, ExtractError> {
    extract_block_with_names(block, &Names::new(source_text))
}

/// The dependence graph of `block` (its own ops; nested regions are separate
/// problems). `source_text` is the text the module was parsed from, for node names.
pub fn extract(block: BlockRef, source_text: Option<&str>) -> Result<Graph, ExtractError> {
    extract_with_names(block, &Names::new(source_text))
}

/// [`extract`] with names and locations from `names`.
pub fn extract_with_names(block: BlockRef, names: &Names) -> Result<Graph, ExtractError> {
    extract_block_with_names(block, names).map(|e| e.graph)
}

/// [`extract_block`] with names and locations from `names`.
pub fn extract_block_with_names(block: BlockRef, names: &Names) -> Result<Extracted, ExtractError> {
    let sizes = sizes::infer(block, names)?;
    let mut b = Builder {
        names,
        sizes,
        graph: Graph::default(),
        producers: HashMap::new(),
        scalar_deps: HashMap::new(),
        size_deps: Vec::new(),
        consumed: HashMap::new(),
        edge_keys: HashSet::new(),
        next_label: 2,
        gathers: Vec::new(),
        node_ops: Vec::new(),
    };
    // Inputs: the block's array arguments, then arrays defined outside the block.
    for i in 0..block.argument_count() {
        let Ok(argument) = block.argument(i) else { continue };
        if is_array(argument) {
            let name = names.argument_name(argument).unwrap_or_else(|| format!("arg{i}"));
            b.add_input(argument.into(), name);
        }
    }
    let mut defined: HashSet<usize> =
        (0..block.argument_count()).filter_map(|i| block.argument(i).ok()).map(raw).collect();
    let mut ops = Vec::new();
    let mut op = block.first_operation();
    while let Some(o) = op {
        for r in o.results() {
            defined.insert(raw(r));
        }
        let mut inner = Vec::new();
        nested(o, &mut inner, &mut defined);
        ops.push(o);
        ops.extend(inner);
        op = o.next_in_block();
    }
    let mut outside = 0;
    for o in &ops {
        for v in o.operands() {
            if is_array(v) && !defined.contains(&raw(v)) && !b.producers.contains_key(&raw(v)) {
                let name = names.value_name(v).unwrap_or_else(|| format!("outside{outside}"));
                outside += 1;
                b.add_input(v, name);
            }
        }
    }
    let mut index = 0;
    let mut op = block.first_operation();
    while let Some(o) = op {
        // The last op of a block with no results is its terminator (`func.return`,
        // `scf.yield`, `scf.condition`, …; `mlirBlockGetTerminator` does not see the
        // `IsTerminator` trait of every dialect's terminators through the C API).
        let is_terminator = o.next_in_block().is_none() && o.result_count() == 0;
        b.op(o, index, is_terminator)?;
        index += 1;
        op = o.next_in_block();
    }
    Ok(b.finish())
}

/// The graph of the body of a `func.func`.
pub fn extract_function(function: OperationRef, source_text: Option<&str>) -> Result<Graph, ExtractError> {
    extract_function_with_names(function, &Names::new(source_text))
}

/// [`extract_function`] with names and locations from `names`.
pub fn extract_function_with_names(function: OperationRef, names: &Names) -> Result<Graph, ExtractError> {
    extract_function_block_with_names(function, names).map(|e| e.graph)
}

/// [`extract_function_with_names`], also giving the op behind every node and the size
/// equalities that could not be proven.
pub fn extract_function_block_with_names(function: OperationRef, names: &Names) -> Result<Extracted, ExtractError> {
    let location = names.location(function.location());
    if op_name(function) != "func.func" {
        return Err(ExtractError {
            message: format!("expected a 'func.func', found '{}'", op_name(function)),
            location,
        });
    }
    let body = function.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| ExtractError {
        message: "the function is a declaration: it has no body".to_owned(),
        location: location.clone(),
    })?;
    if body.next_in_region().is_some() {
        return Err(ExtractError {
            message: "the function body has several blocks; the fusion analysis works on single blocks".to_owned(),
            location,
        });
    }
    extract_block_with_names(body, names)
}

/// The graphs of every `func.func` with a body in `module`, by function name, in order.
pub fn extract_module(module: &Module, source_text: Option<&str>) -> Vec<(String, Result<Graph, ExtractError>)> {
    extract_module_blocks(module, source_text).into_iter().map(|(name, e)| (name, e.map(|e| e.graph))).collect()
}

/// [`extract_module`], also giving each function's ops behind the nodes and the size
/// equalities that could not be proven.
pub fn extract_module_blocks(
    module: &Module,
    source_text: Option<&str>,
) -> Vec<(String, Result<Extracted, ExtractError>)> {
    let names = Names::new(source_text);
    let mut out = Vec::new();
    let mut op = module.body().first_operation();
    while let Some(function) = op {
        let has_body = function.region(0).ok().and_then(|r| r.first_block()).is_some();
        if op_name(function) == "func.func" && has_body {
            let name = function
                .attribute("sym_name")
                .ok()
                .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_owned())
                .unwrap_or_default();
            out.push((name, extract_function_block_with_names(function, &names)));
        }
        op = function.next_in_block();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fusion_analysis::graph::SizeClass;

    /// The graph (or error) of function `function` of `source`.
    fn extract_source(source: &str, function: &str) -> Result<Graph, ExtractError> {
        let context = array_dialect::context();
        let module = array_dialect::source::parse_source(&context, source, "test.mlir")
            .unwrap_or_else(|e| panic!("does not parse:\n{e}"));
        let all = extract_module(&module, Some(source));
        all.into_iter().find(|(n, _)| n == function).unwrap_or_else(|| panic!("no @{function}")).1
    }

    fn graph(source: &str, function: &str) -> Graph {
        extract_source(source, function).unwrap_or_else(|e| panic!("@{function}: {e}"))
    }

    /// The messages of the size equalities of `function` that could not be proven, and
    /// its graph.
    fn unprovable(source: &str, function: &str) -> (Vec<String>, Graph) {
        let context = array_dialect::context();
        let module = array_dialect::source::parse_source(&context, source, "test.mlir").unwrap();
        let mut op = module.body().first_operation();
        while let Some(f) = op {
            if f.attribute("sym_name").is_ok_and(|a| a.to_string() == format!("\"{function}\"")) {
                let body = f.region(0).unwrap().first_block().unwrap();
                let extracted = extract_block(body, Some(source)).unwrap_or_else(|e| panic!("@{function}: {e}"));
                let messages = extracted.unprovable.iter().map(|u| u.error.to_string()).collect();
                return (messages, extracted.graph);
            }
            op = f.next_in_block();
        }
        panic!("no @{function}")
    }

    fn error(source: &str, function: &str) -> String {
        match extract_source(source, function) {
            Ok(g) => panic!("@{function} extracted, but should not:\n{g}"),
            Err(e) => e.to_string(),
        }
    }

    fn node<'g>(g: &'g Graph, name: &str) -> (NodeId, &'g Node) {
        let id = g.find(name).unwrap_or_else(|| panic!("no node {name} in\n{g}"));
        (id, g.node(id))
    }

    fn edges<'g>(g: &'g Graph, from: &str, to: &str) -> Vec<&'g Edge> {
        let (a, b) = (node(g, from).0, node(g, to).0);
        g.edges.iter().filter(|e| e.from == a && e.to == b).collect()
    }

    fn edge<'g>(g: &'g Graph, from: &str, to: &str) -> &'g Edge {
        let es = edges(g, from, to);
        assert_eq!(es.len(), 1, "expected one edge {from} -> {to} in\n{g}{:#?}", g.edges);
        es[0]
    }

    const INC: &str = "^bb0(%x: i64):\n    %c1 = arith.constant 1 : i64\n    %y = arith.addi %x, %c1 : i64\n    array.yield %y : i64\n  }";
    const POSITIVE: &str = "^bb0(%x: i64):\n    %c0 = arith.constant 0 : i64\n    %p = arith.cmpi sgt, %x, %c0 : i64\n    array.yield %p : i1\n  }";

    fn map(result: &str, input: &str) -> String {
        format!("  {result} = array.map {input} : tensor<?xi64> -> tensor<?xi64> {{\n  {INC}\n")
    }

    fn filter(result: &str, input: &str) -> String {
        format!("  {result} = array.filter {input} : tensor<?xi64> -> tensor<?xi64> {{\n  {POSITIVE}\n")
    }

    #[test]
    fn names_come_from_the_source_text() {
        let source = format!(
            "func.func @f(%xs: tensor<?xi64>,\n    %ys: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {{\n{}{}  %a:2 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {{\n  ^bb0(%x: i64):\n    array.yield %x, %x : i64, i64\n  }}\n  %p, %q = array.map %a#1, %ys : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {{\n  ^bb0(%x: i64, %y: i64):\n    array.yield %x, %y : i64, i64\n  }}\n  return %p, %q : tensor<?xi64>, tensor<?xi64>\n}}\n",
            map("%m", "%xs"),
            map("%n", "%m"),
        );
        let g = graph(&source, "f");
        let names: Vec<&str> = g.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["xs", "ys", "m", "n", "a", "p"], "{g}");
        assert_eq!(edge(&g, "a", "p").array, "a#1");
        assert_eq!(edge(&g, "a", "p").output, 1);
        assert!(node(&g, "p").1.escapes);
        assert!(!node(&g, "n").1.escapes);
        // Without the source text: locations.
        let context = array_dialect::context();
        let module = array_dialect::source::parse_source(&context, &source, "test.mlir").unwrap();
        let (_, g) = extract_module(&module, None).pop().unwrap();
        let g = g.unwrap();
        assert_eq!(g.nodes[0].name, "arg0", "{g}");
        assert_eq!(g.nodes[2].name, "-:3:8", "{g}");
    }

    #[test]
    fn signature_names_are_a_fallback_for_arguments() {
        let source = "func.func @f(%first: tensor<?xi64>, %n: index,\n  %second: tensor<4x?xf32>) -> i1 {\n  %t = arith.constant true\n  return %t : i1\n}\n";
        let names = Names::new(Some(source));
        let context = array_dialect::context();
        let module = array_dialect::source::parse_source(&context, source, "test.mlir").unwrap();
        let function = module.body().first_operation().unwrap();
        assert_eq!(names.signature_names(function).unwrap(), ["first", "n", "second"]);
    }

    #[test]
    fn force_is_a_barrier_that_keeps_the_size() {
        let source = format!(
            "func.func @f(%xs: tensor<?xi64>) -> tensor<?xi64> {{\n{}  %f = array.force %m : tensor<?xi64>\n  %z = array.map %f, %xs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%a: i64, %b: i64):\n    array.yield %a : i64\n  }}\n  return %z : tensor<?xi64>\n}}\n",
            map("%m", "%xs")
        );
        let g = graph(&source, "f");
        let (_, f) = node(&g, "f");
        assert_eq!(f.kind, NodeKind::Barrier);
        assert_eq!(f.iteration, None);
        let e = edge(&g, "m", "f");
        assert!(!e.fusible && e.access == Access::Unordered, "{g}");
        assert!(node(&g, "m").1.escapes, "used by a barrier: {g}");
        assert!(!edge(&g, "f", "z").fusible, "{g}");
        assert_eq!(node(&g, "z").1.iteration, node(&g, "m").1.iteration, "{g}");
    }

    #[test]
    fn uses_of_a_scatter_destination_after_the_scatter_are_unordered() {
        let source = format!(
            "func.func @f(%xs: tensor<?xi64>, %is: tensor<?xindex>) -> (tensor<?xi64>, tensor<?xi64>) {{\n{}{}  %r = array.scatter %d[%is], %v : tensor<?xi64>[tensor<?xindex>], tensor<?xi64> combine {{\n  ^bb0(%o: i64, %n: i64):\n    array.yield %n : i64\n  }}\n{}{}  return %r, %after : tensor<?xi64>, tensor<?xi64>\n}}\n",
            map("%d", "%xs"),
            map("%v", "%xs"),
            map("%after", "%d"),
            map("%fromr", "%r"),
        );
        let g = graph(&source, "f");
        let e = edge(&g, "d", "r");
        assert!(!e.fusible && e.access == Access::ScatterDestination, "destination: {g}");
        let e = edge(&g, "v", "r");
        assert!(e.fusible && e.access == Access::InOutputOrder, "values: {g}");
        let e = edge(&g, "d", "after");
        assert!(!e.fusible && e.access == Access::Unordered, "use after the scatter: {g}");
        assert!(!edge(&g, "r", "fromr").fusible, "a scatter produces no order: {g}");
        let (r, scatter) = node(&g, "r");
        assert_eq!(scatter.kind, NodeKind::Scatter);
        assert_eq!(scatter.iteration, node(&g, "v").1.iteration);
        assert_eq!(scatter.output_size, node(&g, "d").1.iteration);
        assert!(g.size_parent.iter().all(|(_, n)| *n != r), "{g}");
    }

    #[test]
    fn gathers_are_labelled_computed_indices_first_then_in_program_order() {
        let source = "func.func @f(%xs: tensor<?xi64>, %is: tensor<?xindex>, %k: index) -> (tensor<?xi64>, tensor<?xi64>, tensor<?x?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %a = array.gather %xs[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  %b = array.reverse %a : tensor<?xi64>
  %c = array.replicate %b, %k : tensor<?xi64> -> tensor<?x?xi64>
  %n = array.size %xs : tensor<?xi64>
  %d = array.backpermute %b to (%n) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  %js = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  %e = array.gather %d[%js] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  return %a, %b, %c, %d, %e : tensor<?xi64>, tensor<?xi64>, tensor<?x?xi64>, tensor<?xi64>, tensor<?xi64>
}
";
        let g = graph(source, "f");
        let labels: Vec<(String, NodeKind)> =
            g.nodes.iter().skip(2).filter(|n| n.kind != NodeKind::Generate).map(|n| (n.name.clone(), n.kind)).collect();
        // The sugar and the gather at generated indices compute them: labels 2 to 5 in
        // program order; `a` loads `is`: the label after them.
        assert_eq!(
            labels,
            [
                ("a".to_owned(), NodeKind::Gather { label: 6 }),
                ("b".to_owned(), NodeKind::Gather { label: 2 }),
                ("c".to_owned(), NodeKind::Gather { label: 3 }),
                ("d".to_owned(), NodeKind::Gather { label: 4 }),
                ("e".to_owned(), NodeKind::Gather { label: 5 }),
            ],
            "{g}"
        );
        assert_eq!((g.computed_index_gathers, g.first_loaded_index_label()), (4, 6));
        assert_eq!(edge(&g, "a", "b").access, Access::GatherSource { label: 2 });
        assert!(edge(&g, "a", "b").fusible);
        assert_eq!(edge(&g, "is", "a").access, Access::InOutputOrder);
        assert_eq!(edge(&g, "xs", "a").access, Access::GatherSource { label: 6 });
        assert_eq!(edge(&g, "d", "e").access, Access::GatherSource { label: 5 });
        // reverse keeps the size; backpermute to (size xs) has the size of xs; the index
        // arrays of `a` have the size of `is`.
        assert_eq!(node(&g, "a").1.iteration, node(&g, "b").1.iteration);
        assert_eq!(node(&g, "d").1.iteration, Some(SizeClass(0)), "{g}");
        assert!(g.rigid_sizes.contains(&node(&g, "c").1.iteration.unwrap()), "{g}");
    }

    #[test]
    fn scans_folds_and_transducers() {
        let source = format!(
            "func.func @f(%xs: tensor<?xi64>, %m: tensor<?x?xi64>) -> (tensor<?xi64>, tensor<i64>, tensor<?xi64>, tensor<?xi64>) {{
  %z = arith.constant 0 : i64
  %s = array.scan right exclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {{
  ^bb0(%acc: i64, %x: i64):
    %r = arith.addi %acc, %x : i64
    array.yield %r : i64
  }}
{}  %t = array.fold %g init(%z : i64) : tensor<?xi64> -> tensor<i64> {{
  ^bb0(%acc: i64, %x: i64):
    %r = arith.addi %acc, %x : i64
    array.yield %r : i64
  }}
  %rows = array.fold %m init(%z : i64) : tensor<?x?xi64> -> tensor<?xi64> {{
  ^bb0(%acc: i64, %x: i64):
    %r = arith.addi %acc, %x : i64
    array.yield %r : i64
  }}
  %e = array.expand %g : tensor<?xi64> -> tensor<?xi64> count {{
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : index
    array.yield %c2 : index
  }} get {{
  ^bb0(%x: i64, %j: index):
    array.yield %x : i64
  }}
  return %s, %t, %rows, %e : tensor<?xi64>, tensor<i64>, tensor<?xi64>, tensor<?xi64>
}}
",
            filter("%g", "%xs")
        );
        let g = graph(&source, "f");
        let (_, s) = node(&g, "s");
        assert_eq!(s.kind, NodeKind::Scan { backward: true }, "{g}");
        assert_eq!(s.iteration, node(&g, "xs").1.output_size);
        assert_eq!(s.iteration, Some(SizeClass(0)));
        let (gid, gn) = node(&g, "g");
        let (tid, t) = node(&g, "t");
        let (eid, e) = node(&g, "e");
        assert_eq!(t.iteration, gn.output_size, "{g}");
        assert_eq!(e.iteration, gn.output_size, "{g}");
        assert!(g.rigid_sizes.contains(&gn.output_size.unwrap()) && g.rigid_sizes.contains(&e.output_size.unwrap()));
        assert_ne!(gn.output_size, e.output_size);
        for (n, id) in [(gn, gid), (t, tid), (e, eid)] {
            assert!(g.size_parent.contains(&(n.output_size.unwrap(), id)), "{g}");
        }
        // The rows of a 2-D argument: not rigid, one less dimension.
        let (_, rows) = node(&g, "rows");
        assert_ne!(rows.iteration, rows.output_size);
        assert!(!g.rigid_sizes.contains(&rows.output_size.unwrap()), "{g}");
        assert_eq!(t.output_bytes, [Some(8)]);
    }

    #[test]
    fn static_shapes_and_bytes() {
        let source = "func.func @f(%a: tensor<4xcomplex<f64>>, %b: tensor<4x3xi1>, %c: tensor<2xindex>, %d: tensor<5xf16>) -> tensor<4xcomplex<f64>> {
  return %a : tensor<4xcomplex<f64>>
}
";
        let g = graph(source, "f");
        let bytes: Vec<Option<u64>> = g.nodes.iter().map(|n| n.output_bytes[0]).collect();
        assert_eq!(bytes, [Some(64), Some(12), Some(16), Some(10)], "{g}");
        assert!(g.nodes[0].escapes && !g.nodes[1].escapes);
    }

    /// Seed 001 §1.3.4 rejects bad1 and bad2; here the map's equality is unprovable: it is
    /// listed, and only the map's in-edges become infusible.
    #[test]
    fn bad1_and_bad2_have_unprovable_equalities() {
        let bad1 = format!(
            "func.func @bad1(%xs: tensor<?xi64>) -> tensor<?xi64> {{\n{}  %ys = array.map %flt, %xs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%a: i64, %b: i64):\n    array.yield %a : i64\n  }}\n  return %ys : tensor<?xi64>\n}}\n",
            filter("%flt", "%xs")
        );
        let (messages, g) = unprovable(&bad1, "bad1");
        assert_eq!(
            messages,
            ["-:8:9: size equality not provable: 'array.map' requires its inputs to have the same size, but %flt \
              has a data-dependent size (from 'array.filter' at -:2:10) and %xs is a function argument"]
        );
        assert!(!edge(&g, "flt", "ys").fusible, "{g}");
        let bad2 = format!(
            "func.func @bad2(%xs: tensor<?xi64>) -> tensor<?xi64> {{\n{}{}  %ys = array.map %flt1, %flt2 : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%a: i64, %b: i64):\n    array.yield %a : i64\n  }}\n  return %ys : tensor<?xi64>\n}}\n",
            filter("%flt1", "%xs"),
            filter("%flt2", "%xs")
        );
        let (messages, g) = unprovable(&bad2, "bad2");
        assert_eq!(
            messages,
            ["-:14:9: size equality not provable: 'array.map' requires its inputs to have the same size, but \
              %flt1 has a data-dependent size (from 'array.filter' at -:2:11) and %flt2 has a different \
              data-dependent size (from 'array.filter' at -:8:11)"]
        );
        assert!(!edge(&g, "flt1", "ys").fusible && !edge(&g, "flt2", "ys").fusible, "{g}");
    }

    /// A fold of generate (n, m) has the size of generate (n): the outer shape operands
    /// are the same SSA values, so the zip of the two is proven, not unprovable.
    #[test]
    fn a_fold_of_a_generate_has_the_size_of_the_generate_of_its_outer_operands() {
        let source = "func.func @f(%n: index, %m: index) -> tensor<?xf64> {
  %g = array.generate (%n, %m) : tensor<?x?xf64> {
  ^bb0(%i: index, %j: index):
    %z = arith.constant 0.0 : f64
    array.yield %z : f64
  }
  %zero = arith.constant 0.0 : f64
  %s = array.fold %g init(%zero : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    array.yield %acc : f64
  }
  %h = array.generate (%n) : tensor<?xf64> {
  ^bb0(%i: index):
    %z = arith.constant 1.0 : f64
    array.yield %z : f64
  }
  %y = array.map %s, %h : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %b: f64):
    array.yield %a : f64
  }
  return %y : tensor<?xf64>
}
";
        let (messages, g) = unprovable(source, "f");
        assert!(messages.is_empty(), "{messages:?}");
        assert_eq!(node(&g, "s").1.output_size, node(&g, "h").1.iteration, "{g}");
        assert!(edge(&g, "s", "y").fusible && edge(&g, "h", "y").fusible, "{g}");
        // With another first operand the sizes are unrelated again.
        let other = source.replace("array.generate (%n) :", "array.generate (%m) :");
        let (messages, _) = unprovable(&other, "f");
        assert_eq!(messages.len(), 1, "{messages:?}");
    }

    #[test]
    fn more_unprovable_and_ill_sized_programs() {
        // A map of a map of a filter, zipped with the argument: the message names the
        // array whose size it is.
        let source = format!(
            "func.func @f(%xs: tensor<?xi64>) -> tensor<?xi64> {{\n{}{}  %ys = array.map %xs, %m : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {{\n  ^bb0(%a: i64, %b: i64):\n    array.yield %a : i64\n  }}\n  return %ys : tensor<?xi64>\n}}\n",
            filter("%flt", "%xs"),
            map("%m", "%flt")
        );
        let (messages, g) = unprovable(&source, "f");
        assert!(
            messages[0].contains(
                "%xs is a function argument and %m has the data-dependent size of %flt (from 'array.filter' at -:2:10)"
            ),
            "{messages:?}"
        );
        // Only the zip's in-edges: the map of the filter still fuses with it.
        assert!(edge(&g, "flt", "m").fusible && !edge(&g, "m", "ys").fusible, "{g}");
        // Two static shapes.
        let source = "func.func @f(%a: tensor<4xi64>, %b: tensor<?xi64>, %c: tensor<5xi64>) -> tensor<?xi64> {
  %r = array.map %a, %b : tensor<4xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    array.yield %x : i64
  }
  %s = array.map %r, %c : tensor<?xi64>, tensor<5xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    array.yield %x : i64
  }
  return %s : tensor<?xi64>
}
";
        let e = error(source, "f");
        assert!(
            e.starts_with("-:6:8: ill-sized program: 'array.map' requires its inputs to have the same size"),
            "{e}"
        );
        assert!(e.contains("%r has the static shape [4] and %c has the static shape [5]"), "{e}");
        // Data-dependent generates: equal shape operands give equal sizes, others do not.
        let generate = |name: &str, n: &str| {
            format!(
                "  {name} = array.generate ({n}) : tensor<?xi64> {{\n  ^bb0(%i: index):\n    %v = arith.index_cast %i : index to i64\n    array.yield %v : i64\n  }}\n"
            )
        };
        let zip = "  %z = array.map %p, %q : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {\n  ^bb0(%x: i64, %y: i64):\n    array.yield %x : i64\n  }\n  return %z : tensor<?xi64>\n}\n";
        let same = format!(
            "func.func @f(%n: index) -> tensor<?xi64> {{\n{}{}{zip}",
            generate("%p", "%n"),
            generate("%q", "%n")
        );
        let g = graph(&same, "f");
        assert_eq!(g.rigid_sizes.len(), 1, "{g}");
        let other = format!(
            "func.func @f(%n: index, %m: index) -> tensor<?xi64> {{\n{}{}{zip}",
            generate("%p", "%n"),
            generate("%q", "%m")
        );
        let (messages, _) = unprovable(&other, "f");
        assert!(
            messages[0]
                .contains("%p has a data-dependent size (from 'array.generate' at -:2:8) and %q has a different"),
            "{messages:?}"
        );
        // Constant shapes are static.
        let constant = format!(
            "func.func @f(%xs: tensor<3xi64>) -> tensor<?xi64> {{\n  %c3 = arith.constant 3 : index\n{}  %q = array.map %xs : tensor<3xi64> -> tensor<?xi64> {{\n  ^bb0(%x: i64):\n    array.yield %x : i64\n  }}\n{zip}",
            generate("%p", "%c3")
        );
        let g = graph(&constant, "f");
        assert!(g.rigid_sizes.is_empty(), "{g}");
        assert_eq!(node(&g, "p").1.iteration, node(&g, "q").1.iteration);
    }

    #[test]
    fn free_variables_and_scalar_dependencies() {
        let source = format!(
            "func.func @f(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {{
  %z = arith.constant 0 : i64
  %sum = array.fold %xs init(%z : i64) : tensor<?xi64> -> tensor<i64> {{
  ^bb0(%acc: i64, %x: i64):
    %r = arith.addi %acc, %x : i64
    array.yield %r : i64
  }}
{}  %s = array.index %sum[] : tensor<i64>
  %s2 = arith.addi %s, %s : i64
  %n = array.dim %flt, 0 : tensor<?xi64>
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {{
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : index
    %b = arith.cmpi eq, %x, %s2 : i64
    %y = scf.if %b -> (i64) {{
      %w = array.index %flt[%c0] : tensor<?xi64>
      scf.yield %w : i64
    }} else {{
      scf.yield %x : i64
    }}
    array.yield %y : i64
  }}
  %gen = array.generate (%n) : tensor<?xi64> {{
  ^bb0(%i: index):
    array.yield %z : i64
  }}
  return %ys, %gen : tensor<?xi64>, tensor<?xi64>
}}
",
            filter("%flt", "%xs")
        );
        let g = graph(&source, "f");
        let free = edge(&g, "flt", "ys");
        assert!(free.access == Access::Unordered && !free.fusible, "free variable under scf.if: {g}");
        let scalar = edge(&g, "sum", "ys");
        assert!(scalar.access == Access::Unordered && !scalar.fusible, "scalar read at block level: {g}");
        assert!(node(&g, "sum").1.escapes);
        let size = edge(&g, "flt", "gen");
        assert!(size.access == Access::Unordered, "the size of a filter result is known after it ran: {g}");
        assert_eq!(node(&g, "gen").1.iteration, node(&g, "flt").1.output_size, "{g}");
        assert_eq!(edges(&g, "xs", "gen").len(), 0, "{g}");
    }

    #[test]
    fn scf_ops_are_barriers_and_their_bodies_separate_graphs() {
        let source = format!(
            "func.func @f(%xs: tensor<?xi64>, %k: index) -> tensor<?xi64> {{
{}  %lb = arith.constant 0 : index
  %step = arith.constant 1 : index
  %r = scf.for %i = %lb to %k step %step iter_args(%acc = %m) -> (tensor<?xi64>) {{
    %s = array.map %acc, %xs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {{
    ^bb0(%a: i64, %b: i64):
      %y = arith.addi %a, %b : i64
      array.yield %y : i64
    }}
    scf.yield %s : tensor<?xi64>
  }}
{}  return %after : tensor<?xi64>
}}
",
            map("%m", "%xs"),
            map("%after", "%r")
        );
        let g = graph(&source, "f");
        let (_, r) = node(&g, "r");
        assert_eq!(r.kind, NodeKind::Barrier);
        assert!(edge(&g, "m", "r").access == Access::Unordered && edge(&g, "xs", "r").access == Access::Unordered);
        assert!(node(&g, "m").1.escapes);
        assert!(!edge(&g, "r", "after").fusible);
        // The loop body on its own: the iteration argument and the captured %xs are inputs.
        let context = array_dialect::context();
        let module = array_dialect::source::parse_source(&context, &source, "test.mlir").unwrap();
        let function = module.body().first_operation().unwrap();
        let body = function.region(0).unwrap().first_block().unwrap();
        let mut op = body.first_operation();
        while let Some(o) = op {
            if op_name(o) == "scf.for" {
                let inner = o.region(0).unwrap().first_block().unwrap();
                let g = extract(inner, Some(&source)).unwrap();
                let kinds: Vec<(&str, NodeKind)> = g.nodes.iter().map(|n| (n.name.as_str(), n.kind)).collect();
                assert_eq!(kinds, [("acc", NodeKind::Input), ("xs", NodeKind::Input), ("s", NodeKind::Map)], "{g}");
                assert!(g.nodes[2].escapes, "yielded: {g}");
                assert_eq!(g.nodes[2].iteration, Some(SizeClass(0)), "{g}");
                return;
            }
            op = o.next_in_block();
        }
        panic!("no scf.for");
    }

    #[test]
    fn errors_do_not_panic_on_declarations() {
        let source = "func.func private @ext(tensor<?xi64>) -> tensor<?xi64>\n";
        let context = array_dialect::context();
        let module = array_dialect::source::parse_source(&context, source, "test.mlir").unwrap();
        let function = module.body().first_operation().unwrap();
        let e = extract_function(function, Some(source)).unwrap_err();
        assert!(e.to_string().contains("declaration"), "{e}");
        assert!(extract_module(&module, None).is_empty());
    }

    /// Only the returned output of a multi-output op must be manifest: a map yielding
    /// two arrays, one returned and one fused into a consumer.
    #[test]
    fn escapes_are_per_output() {
        let source = "func.func @f(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %a, %b = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x, %x : i64, i64
  }
  %c = array.map %b : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64):
    array.yield %y : i64
  }
  %d = array.map %a, %c : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%u: i64, %v: i64):
    %s = arith.addi %u, %v : i64
    array.yield %s : i64
  }
  return %a : tensor<?xi64>
}
";
        let g = graph(source, "f");
        let a = &g.nodes[g.find("a").expect("node a").0];
        assert!(a.escapes && a.output_escapes(0) && !a.output_escapes(1), "{g}");
    }
}
