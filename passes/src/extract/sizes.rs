//! Size inference over one block (seed 001 §1.3): which arrays are statically known to
//! have the same shape, and which shapes are *rigid* (existential, seed 001 §1.3.4).
//!
//! Every array value of the block gets a size variable; combinators generate equality
//! constraints between them, solved by unification (union-find). Sizes are whole-array
//! shapes, so rank-2 arrays never share a class with rank-1 arrays.
//!
//! * Arrays that exist before the block (function arguments, block arguments, values
//!   defined outside the block) get fresh *universal* variables: they unify with each
//!   other and with static shapes, never with rigid sizes (seed 001 §1.3.4: "we do not
//!   permit the arguments of an operator graph to have existentially quantified
//!   sizes", program `bad1`).
//! * Arrays whose tensor type is fully static share the class of that static shape.
//! * `map`: inputs and results unify. `scan`: results are the inputs' size.
//! * `generate` (also the shape of `backpermute` and `replicate`): results unify. When
//!   the shape operands are all constants, the results have that static shape; when
//!   they spell the shape of one array A dimension by dimension from facts (operand i
//!   is `array.dim A, i`, a constant equal to A's static extent i, or `array.dim F, i`
//!   of an F whose size is A's without innermost dimensions, such as a fold of A), the
//!   results have A's size; otherwise a *rigid* size (data-dependent generate, seed 001
//!   §1.3.4), shared by generates with the very same shape operands (same SSA values).
//!   The shape without its innermost operand is matched the same way, so a fold of the
//!   generate has a known size even when the generate's own size is rigid; when the
//!   outer operands spell no known class, the fold has the rigid size of a generate
//!   with exactly those shape operands (the same SSA values, so the same extents).
//! * `gather`: the result has the size of the index arrays (which unify). `reverse`:
//!   the result has the size of the input.
//! * `scatter`/`permute`: index arrays and values unify; the result has the size of the
//!   destination.
//! * `fold`: the results have the derived size "input without its innermost
//!   dimension", one derived class per input class, kept congruent when input classes
//!   merge (two equal inputs give equal results).
//! * `filter`/`expand`: all results of one op share one fresh rigid size.
//! * `force`: the result has the size of its input (it returns its input).
//! * Any other op producing arrays (calls, `scf`, `tensor` ops, …): each non-static
//!   result gets a fresh rigid (unknown) size.
//!
//! Two different static shapes cannot be equal: the program is *ill-sized* and [`infer`]
//! returns a [`SizeError`] naming the op that required the equality and both arrays.
//!
//! An equality between two different rigid sizes (`bad2`), a rigid size and the size of
//! an array that exists before the block (`bad1`), or a rigid size and a static shape is
//! *unprovable*: it holds in some runs and not in others. Seed 001 §1.3.4 rejects such
//! programs, because its fusion rules need the equality. Here the equality becomes a
//! precondition of the op at run time, like the equality of two function arguments a map
//! zips. The interpreter checks it, and `fuse-opt --run` runs compiled code only after
//! the interpreter succeeds. The inference does not assume it: the classes stay apart, the
//! solver is left as it was before the equality was asked for, and the equality is listed
//! in [`Sizes::unprovable`]. The graph builder then makes every edge into that op
//! infusible, so fusion never relies on the equality, and the rest of the block still
//! fuses.

use super::support::{Names, integer_attribute, op_name, raw};
use array_dialect::view::{ArrayOp, is_array};
use fusion_analysis::graph::SizeClass;
use melior::ir::{BlockLike, BlockRef, OperationRef, TypeLike, Value, ValueLike, operation::OperationLike};
use mlir_sys::MlirOperation;
use std::collections::HashMap;
use std::fmt;

/// An ill-sized program (or an op whose operands do not have the expected form).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError {
    /// The whole message, starting with `ill-sized program:`.
    pub message: String,
    /// Where the op that required the equality is.
    pub location: Option<(String, u32, u32)>,
    /// The op that required the equality, e.g. `array.map`.
    pub op: String,
    /// The two arrays whose sizes could not be made equal (`%name` where known).
    pub arrays: Box<[String; 2]>,
    /// `true` when one of the two sizes is rigid: the equality may hold in a run but
    /// cannot be proven (the message starts with `size equality not provable:`);
    /// `false` when it is refuted (two different static shapes) or the op is malformed.
    pub unprovable: bool,
}

/// A size equality that an op requires and the inference can neither prove nor refute
/// (one of the two sizes is rigid). The op stays, with the equality as its precondition
/// at run time, and is never fused with the producers of its operands.
#[derive(Clone, Debug)]
pub struct UnprovableEquality {
    /// The op that requires the equality.
    pub op: MlirOperation,
    /// What was required, of which arrays, and where.
    pub error: SizeError,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((file, line, col)) = &self.location {
            write!(f, "{file}:{line}:{col}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for SizeError {}

/// What is known about a size class after solving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeKind {
    /// A plain unification variable that nothing constrained further.
    Flexible,
    /// The size of an array that exists before the block runs (universally
    /// quantified), or `outer` innermost dimensions less than one (fold results).
    Argument {
        /// `%name` of the array.
        array: String,
        /// `function argument`, `block argument` or `array defined outside the block`.
        what: &'static str,
        outer: usize,
    },
    /// A fully static shape.
    Static(Vec<u64>),
    /// An existential size: produced by `op` at `at`, first array `array`.
    Rigid {
        op: String,
        at: String,
        array: String,
        /// `true` for filter, expand and data-dependent generates; `false` for results
        /// of ops the analysis knows nothing about (calls, `scf`, …).
        data_dependent: bool,
        /// Innermost dimensions dropped (fold over a rigid array).
        outer: usize,
    },
}

impl SizeKind {
    fn dropped(&self) -> SizeKind {
        match self {
            SizeKind::Flexible => SizeKind::Flexible,
            SizeKind::Argument { array, what, outer } => {
                SizeKind::Argument { array: array.clone(), what, outer: outer + 1 }
            }
            SizeKind::Static(s) => SizeKind::Static(s[..s.len().saturating_sub(1)].to_vec()),
            SizeKind::Rigid { op, at, array, data_dependent, outer } => SizeKind::Rigid {
                op: op.clone(),
                at: at.clone(),
                array: array.clone(),
                data_dependent: *data_dependent,
                outer: outer + 1,
            },
        }
    }
}

/// The solved sizes of one block.
#[derive(Clone, Debug, Default)]
pub struct Sizes {
    /// Raw value pointer → class.
    classes: HashMap<usize, SizeClass>,
    kinds: Vec<SizeKind>,
    inner: HashMap<SizeClass, SizeClass>,
    unprovable: Vec<UnprovableEquality>,
}

impl Sizes {
    /// The size class of an array value of the block (`None` for scalars and values the
    /// inference never saw).
    pub fn class_of<'c>(&self, value: impl ValueLike<'c>) -> Option<SizeClass> {
        self.classes.get(&(value.to_raw().ptr as usize)).copied()
    }

    /// What is known about a class.
    pub fn kind(&self, class: SizeClass) -> &SizeKind {
        &self.kinds[class.0]
    }

    pub fn is_rigid(&self, class: SizeClass) -> bool {
        matches!(self.kinds.get(class.0), Some(SizeKind::Rigid { .. }))
    }

    /// The rigid (existential) classes, in class order.
    pub fn rigid_classes(&self) -> Vec<SizeClass> {
        (0..self.kinds.len()).map(SizeClass).filter(|c| self.is_rigid(*c)).collect()
    }

    /// The class "`class` without its innermost dimension", when a fold needed it.
    pub fn inner(&self, class: SizeClass) -> Option<SizeClass> {
        self.inner.get(&class).copied()
    }

    /// The equalities that ops require and the inference could not prove, in program
    /// order.
    pub fn unprovable(&self) -> &[UnprovableEquality] {
        &self.unprovable
    }
}

/// Who required an equality: for error messages.
struct Blame {
    op: String,
    location: Option<(String, u32, u32)>,
    requirement: &'static str,
}

/// A shape operand of a generate-like op, up to SSA identity.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Term {
    Const(i64),
    /// Dimension `d` of the array with this raw value pointer.
    Dim(usize, usize),
    Value(usize),
}

/// Union-find over size variables with kinds and derived ("minus innermost") classes.
#[derive(Clone, Default)]
struct Solver {
    parent: Vec<usize>,
    kind: Vec<SizeKind>,
    /// Rank of the arrays of each variable (`None`: not known).
    rank: Vec<Option<usize>>,
    derived: Vec<Option<usize>>,
    statics: HashMap<Vec<u64>, usize>,
}

fn shape_text(shape: &[u64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(", "))
}

fn without_innermost(outer: usize) -> String {
    match outer {
        1 => " without its innermost dimension".to_owned(),
        n => format!(" without its {n} innermost dimensions"),
    }
}

/// `%x has a data-dependent size (from 'array.filter' at f:1:2)`, …
fn describe(name: &str, kind: &SizeKind, other: Option<&SizeKind>) -> String {
    match kind {
        SizeKind::Flexible => format!("{name} has an unconstrained size"),
        SizeKind::Argument { array, what, outer: 0 } if array == name => format!("{name} is a {what}"),
        SizeKind::Argument { array, what, outer: 0 } => format!("{name} has the size of {what} {array}"),
        SizeKind::Argument { array, what, outer } => {
            format!("{name} has the size of {what} {array}{}", without_innermost(*outer))
        }
        SizeKind::Static(shape) => format!("{name} has the static shape {}", shape_text(shape)),
        SizeKind::Rigid { op, at, array, data_dependent, outer } => {
            let size = if *data_dependent { "data-dependent size" } else { "unknown size" };
            let different = matches!(other, Some(SizeKind::Rigid { data_dependent: d, .. }) if d == data_dependent);
            let article = if different { "a different" } else { "a" };
            match outer {
                0 if array == name => format!("{name} has {article} {size} (from '{op}' at {at})"),
                0 => format!("{name} has the {size} of {array} (from '{op}' at {at})"),
                n => format!(
                    "{name} has {article} {size} (that of {array}{}, from '{op}' at {at})",
                    without_innermost(*n)
                ),
            }
        }
    }
}

/// The kind of the union of two classes, `None` when they cannot be equal.
fn merge_kinds(a: &SizeKind, b: &SizeKind) -> Option<SizeKind> {
    match (a, b) {
        (SizeKind::Flexible, x) | (x, SizeKind::Flexible) => Some(x.clone()),
        (SizeKind::Rigid { .. }, _) | (_, SizeKind::Rigid { .. }) => None,
        (SizeKind::Argument { .. }, SizeKind::Argument { .. }) => Some(a.clone()),
        (SizeKind::Argument { .. }, SizeKind::Static(s)) | (SizeKind::Static(s), SizeKind::Argument { .. }) => {
            Some(SizeKind::Static(s.clone()))
        }
        (SizeKind::Static(s), SizeKind::Static(t)) => (s == t).then(|| a.clone()),
    }
}

impl Solver {
    fn fresh(&mut self, kind: SizeKind, rank: Option<usize>) -> usize {
        self.parent.push(self.parent.len());
        self.kind.push(kind);
        self.rank.push(rank);
        self.derived.push(None);
        self.parent.len() - 1
    }

    fn find(&mut self, v: usize) -> usize {
        let mut root = v;
        while self.parent[root] != root {
            root = self.parent[root];
        }
        let mut v = v;
        while self.parent[v] != root {
            let next = self.parent[v];
            self.parent[v] = root;
            v = next;
        }
        root
    }

    fn static_var(&mut self, shape: &[u64]) -> usize {
        if let Some(v) = self.statics.get(shape) {
            return *v;
        }
        let v = self.fresh(SizeKind::Static(shape.to_vec()), Some(shape.len()));
        self.statics.insert(shape.to_vec(), v);
        v
    }

    /// The class of "`v` without its `k` innermost dimensions", if some op made it
    /// known (creates nothing).
    fn outer_class(&mut self, v: usize, k: usize) -> Option<usize> {
        let mut c = self.find(v);
        for _ in 0..k {
            c = self.find(self.derived[c]?);
        }
        Some(c)
    }

    /// The class of "`v` without its innermost dimension".
    fn derived_of(&mut self, v: usize) -> usize {
        let r = self.find(v);
        if let Some(d) = self.derived[r] {
            return d;
        }
        let rank = self.rank[r].map(|n| n.saturating_sub(1));
        let d = match self.kind[r].clone() {
            SizeKind::Static(s) if !s.is_empty() => self.static_var(&s[..s.len() - 1]),
            // The outer shape of any vector is the rank-0 shape.
            _ if rank == Some(0) => self.static_var(&[]),
            SizeKind::Static(_) => self.fresh(SizeKind::Flexible, rank),
            kind => self.fresh(kind.dropped(), rank),
        };
        self.derived[r] = Some(d);
        d
    }

    /// Records that "`v` without its innermost dimension" is `d`.
    fn set_derived(&mut self, v: usize, d: usize, blame: &Blame, names: (String, String)) -> Result<(), SizeError> {
        let r = self.find(v);
        match self.derived[r] {
            Some(existing) => self.unify(existing, d, blame, names),
            None => {
                self.derived[r] = Some(d);
                Ok(())
            }
        }
    }

    /// Makes `d` (a derived class) carry `kind` if nothing constrained it yet, and
    /// likewise down the chain of derived classes.
    fn settle_derived(&mut self, d: usize, kind: SizeKind) {
        let mut d = d;
        let mut kind = kind;
        loop {
            let r = self.find(d);
            if self.kind[r] != SizeKind::Flexible {
                return;
            }
            self.kind[r] = kind.clone();
            match self.derived[r] {
                Some(next) => {
                    d = next;
                    kind = kind.dropped();
                }
                None => return,
            }
        }
    }

    fn unify(&mut self, a: usize, b: usize, blame: &Blame, names: (String, String)) -> Result<(), SizeError> {
        let mut work = vec![(a, b, names)];
        while let Some((a, b, (na, nb))) = work.pop() {
            let (ra, rb) = (self.find(a), self.find(b));
            if ra == rb {
                continue;
            }
            let Some(merged) = merge_kinds(&self.kind[ra], &self.kind[rb]) else {
                let da = describe(&na, &self.kind[ra], None);
                let db = describe(&nb, &self.kind[rb], Some(&self.kind[ra]));
                // merge_kinds fails only with a rigid side or two different static shapes.
                let unprovable = [ra, rb].iter().any(|r| matches!(self.kind[*r], SizeKind::Rigid { .. }));
                let what = if unprovable { "size equality not provable" } else { "ill-sized program" };
                return Err(SizeError {
                    message: format!("{what}: {} {}, but {da} and {db}", blame.op, blame.requirement),
                    location: blame.location.clone(),
                    op: blame.op.trim_matches('\'').to_owned(),
                    arrays: Box::new([na, nb]),
                    unprovable,
                });
            };
            self.parent[rb] = ra;
            self.kind[ra] = merged.clone();
            if self.rank[ra].is_none() {
                self.rank[ra] = self.rank[rb];
            }
            let (da, db) = (self.derived[ra], self.derived[rb].take());
            let inner = |n: &str| format!("{n}{}", without_innermost(1));
            match (da, db) {
                (Some(x), Some(y)) => work.push((x, y, (inner(&na), inner(&nb)))),
                (None, Some(y)) => self.derived[ra] = Some(y),
                _ => {}
            }
            if let Some(d) = self.derived[ra] {
                match &merged {
                    SizeKind::Static(s) if !s.is_empty() => {
                        let t = self.static_var(&s[..s.len() - 1]);
                        work.push((d, t, (inner(&na), inner(&nb))));
                    }
                    SizeKind::Argument { .. } | SizeKind::Rigid { .. } => self.settle_derived(d, merged.dropped()),
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// The static shape of a ranked tensor type with no dynamic dimension.
pub(crate) fn static_shape(ty: melior::ir::Type) -> Option<Vec<u64>> {
    use mlir_sys::*;
    let raw = ty.to_raw();
    // SAFETY: plain queries on a live type.
    unsafe {
        if !mlirTypeIsARankedTensor(raw) {
            return None;
        }
        let rank = mlirShapedTypeGetRank(raw);
        let mut shape = Vec::with_capacity(rank.max(0) as usize);
        for i in 0..rank {
            let d = mlirShapedTypeGetDimSize(raw, i as isize);
            if mlirShapedTypeIsDynamicSize(d) || d < 0 {
                return None;
            }
            shape.push(d as u64);
        }
        Some(shape)
    }
}

/// Extent `i` of a ranked tensor type, when static.
fn static_extent(ty: melior::ir::Type, i: usize) -> Option<u64> {
    use mlir_sys::*;
    let raw = ty.to_raw();
    // SAFETY: plain queries on a live type; `i` is checked against the rank.
    unsafe {
        if !mlirTypeIsARankedTensor(raw) || i as i64 >= mlirShapedTypeGetRank(raw) {
            return None;
        }
        let d = mlirShapedTypeGetDimSize(raw, i as isize);
        (!mlirShapedTypeIsDynamicSize(d) && d >= 0).then_some(d as u64)
    }
}

/// The shape spelled by terms that are all non-negative constants.
fn constant_shape(terms: &[Term]) -> Option<Vec<u64>> {
    terms.iter().map(|t| if let Term::Const(c) = t { u64::try_from(*c).ok() } else { None }).collect()
}

/// The rank of an array value.
pub(crate) fn rank<'c>(value: impl ValueLike<'c>) -> usize {
    // SAFETY: only called on ranked tensors.
    unsafe { mlir_sys::mlirShapedTypeGetRank(value.r#type().to_raw()).max(0) as usize }
}

struct Inference<'n, 's> {
    names: &'n Names<'s>,
    solver: Solver,
    /// Raw value → variable, and the values in the order they got one.
    vars: HashMap<usize, usize>,
    order: Vec<usize>,
    /// Shape operand terms of block-level index values.
    terms: HashMap<usize, Term>,
    /// Rigid classes of data-dependent generates, by their shape operands.
    generated: HashMap<Vec<Term>, usize>,
    /// Whether the block is the body of a function (for messages).
    function_body: bool,
    /// The equalities asked for that could not be proven, in program order.
    unprovable: Vec<UnprovableEquality>,
}

impl<'n, 's> Inference<'n, 's> {
    fn label(&self, v: Value) -> String {
        self.names.value_label(v)
    }

    fn set(&mut self, v: Value, var: usize) {
        let key = raw(v);
        if !self.vars.contains_key(&key) {
            self.order.push(key);
        }
        self.vars.insert(key, var);
    }

    /// The variable of an array that exists before the block.
    fn outside(&mut self, v: Value, what: &'static str) -> usize {
        let var = match static_shape(v.r#type()) {
            Some(shape) => self.solver.static_var(&shape),
            None => self.solver.fresh(SizeKind::Argument { array: self.label(v), what, outer: 0 }, Some(rank(v))),
        };
        self.set(v, var);
        var
    }

    /// The variable of an operand: defined earlier in the block, or outside it.
    fn var(&mut self, v: Value) -> usize {
        match self.vars.get(&raw(v)) {
            Some(var) => *var,
            None => self.outside(v, "array defined outside the block"),
        }
    }

    /// A result's initial variable: its static shape, or a fresh unification variable.
    fn result_var(&mut self, v: Value) -> usize {
        let var = match static_shape(v.r#type()) {
            Some(shape) => self.solver.static_var(&shape),
            None => self.solver.fresh(SizeKind::Flexible, Some(rank(v))),
        };
        self.set(v, var);
        var
    }

    fn blame(&self, op: OperationRef, requirement: &'static str) -> Blame {
        Blame { op: format!("'{}'", op_name(op)), location: self.names.location(op.location()), requirement }
    }

    /// Adds the equalities `require` asks the solver for, as one step: when they
    /// cannot be proven (a rigid size is involved) the solver is restored to its state
    /// before the step and the equality is recorded as unprovable; when they are refuted
    /// (two different static shapes) the program is ill-sized.
    fn require(
        &mut self,
        op: OperationRef,
        require: impl FnOnce(&mut Solver) -> Result<(), SizeError>,
    ) -> Result<(), SizeError> {
        // A failing step may have merged classes before it met the conflict (the
        // derived classes are unified after their parents), so it works on a copy.
        let mut solver = self.solver.clone();
        let result = require(&mut solver);
        if result.is_ok() {
            self.solver = solver;
        }
        self.record_unprovable(op, result)
    }

    /// An unprovable equality of `op` is listed and not an error; anything else is
    /// returned as it is.
    fn record_unprovable(&mut self, op: OperationRef, result: Result<(), SizeError>) -> Result<(), SizeError> {
        match result {
            Err(error) if error.unprovable => {
                self.unprovable.push(UnprovableEquality { op: op.to_raw(), error });
                Ok(())
            }
            result => result,
        }
    }

    /// Requires that variables `a` and `b` (of arrays named `names`) be equal.
    fn require_equal(
        &mut self,
        op: OperationRef,
        (a, b): (usize, usize),
        requirement: &'static str,
        names: (String, String),
    ) -> Result<(), SizeError> {
        let blame = self.blame(op, requirement);
        let (ra, rb) = (self.solver.find(a), self.solver.find(b));
        if self.solver.derived[ra].is_none() && self.solver.derived[rb].is_none() {
            // Without derived classes `unify` merges one pair at most, and fails before
            // changing anything: no copy to restore is needed.
            let result = self.solver.unify(a, b, &blame, names);
            return self.record_unprovable(op, result);
        }
        self.require(op, |solver| solver.unify(a, b, &blame, names))
    }

    fn unify_values(
        &mut self,
        op: OperationRef,
        a: Value,
        b: Value,
        requirement: &'static str,
    ) -> Result<(), SizeError> {
        let vars = (self.var(a), self.var(b));
        let names = (self.label(a), self.label(b));
        self.require_equal(op, vars, requirement, names)
    }

    /// Unifies every value of `values` with the first.
    fn unify_all(&mut self, op: OperationRef, values: &[Value], requirement: &'static str) -> Result<(), SizeError> {
        for v in values.iter().skip(1) {
            self.unify_values(op, values[0], *v, requirement)?;
        }
        Ok(())
    }

    fn rigid(&mut self, op: OperationRef, first: Value, data_dependent: bool) -> usize {
        let rank = Some(rank(first));
        let kind = SizeKind::Rigid {
            op: op_name(op),
            at: self.names.at(op.location()),
            array: self.label(first),
            data_dependent,
            outer: 0,
        };
        self.solver.fresh(kind, rank)
    }

    fn term(&self, v: Value) -> Term {
        self.terms.get(&raw(v)).cloned().unwrap_or(Term::Value(raw(v)))
    }

    /// The class a generate-like op's shape operands give its result, and the array
    /// whose dimensions the shape repeats plus one more (replicate), if any.
    fn shape_class<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        shape: &[Value<'c, 'a>],
        result: Value<'c, 'a>,
        arrays: &HashMap<usize, Value<'c, 'a>>,
    ) -> (Option<usize>, Option<usize>) {
        let terms: Vec<Term> = shape.iter().map(|v| self.term(*v)).collect();
        if let Some(class) = self.spelled_class(&terms, arrays) {
            return (Some(class), None);
        }
        let prefix_var = if terms.len() >= 2 { self.spelled_class(&terms[..terms.len() - 1], arrays) } else { None };
        if let Some(shape) = constant_shape(&terms) {
            return (Some(self.solver.static_var(&shape)), prefix_var);
        }
        if static_shape(result.r#type()).is_some() {
            // The type asserts a static shape; it already has that class.
            return (None, prefix_var);
        }
        let var = match self.generated.get(&terms) {
            Some(v) => *v,
            None => {
                let v = self.rigid(op, result, true);
                self.generated.insert(terms.clone(), v);
                v
            }
        };
        // The outer dimensions are spelled by the same SSA values as the shape of a
        // generate of one dimension less: that generate's size in every run (a fold of
        // this generate zips with it).
        let prefix_var = prefix_var.or_else(|| {
            let prefix = &terms[..terms.len().checked_sub(1).filter(|n| *n > 0)?];
            Some(match self.generated.get(prefix) {
                Some(v) => *v,
                None => {
                    let v = self.rigid(op, result, true);
                    self.solver.kind[v] = self.solver.kind[v].dropped();
                    self.solver.rank[v] = Some(prefix.len());
                    self.generated.insert(prefix.to_vec(), v);
                    v
                }
            })
        });
        (Some(var), prefix_var)
    }

    /// The class of the shape that `terms` spell dimension by dimension, when it is a
    /// known class: all constants (a static shape), or the shape of one array B of rank
    /// `terms.len()` where every term i is a fact about B's dimension i:
    ///
    /// * `array.dim B, i` (or `array.size B` for i = 0);
    /// * a constant equal to B's static extent i (its tensor type);
    /// * `array.dim A, i` of an array A whose class is B's class without its
    ///   rank(B) − rank(A) innermost dimensions (a fold of B, or of an array of B's size).
    ///
    /// Each is an equality of extents that holds in every run, so the result has B's
    /// size exactly. Anything else (a loaded index, a sum) is left to the caller.
    fn spelled_class<'c, 'a>(&mut self, terms: &[Term], arrays: &HashMap<usize, Value<'c, 'a>>) -> Option<usize> {
        if let Some(shape) = constant_shape(terms) {
            return Some(self.solver.static_var(&shape));
        }
        let mut candidates: Vec<usize> = Vec::new();
        for t in terms {
            if let Term::Dim(b, _) = t
                && !candidates.contains(b)
                && arrays.get(b).is_some_and(|v| rank(*v) == terms.len())
            {
                candidates.push(*b);
            }
        }
        candidates
            .into_iter()
            .find_map(|b| {
                let array_b = arrays[&b];
                let class_b = self.var(array_b);
                let spelled = terms.iter().enumerate().all(|(i, t)| match t {
                    Term::Dim(a, d) if *a == b => *d == i,
                    Term::Const(c) => static_extent(array_b.r#type(), i).is_some_and(|e| i64::try_from(e) == Ok(*c)),
                    Term::Dim(a, d) => {
                        let Some(array_a) = arrays.get(a).copied() else { return false };
                        let rank_a = rank(array_a);
                        let class_a = self.var(array_a);
                        *d == i && i < rank_a && rank_a < terms.len() && {
                            let outer = self.solver.outer_class(class_b, terms.len() - rank_a);
                            outer.is_some_and(|o| self.solver.find(o) == self.solver.find(class_a))
                        }
                    }
                    Term::Value(_) => false,
                });
                spelled.then_some(class_b)
            })
            .or_else(|| self.spelled_outer_class(terms, arrays))
    }

    /// The class of a shape spelled as the outer dimensions of one array `b` of higher
    /// rank (`(array.dim b,0, array.dim b,1)` for a rank-3 `b`, static extents allowed):
    /// the size of `b` without its innermost dimensions, the size of a fold of a fold of
    /// `b`.
    fn spelled_outer_class<'c, 'a>(&mut self, terms: &[Term], arrays: &HashMap<usize, Value<'c, 'a>>) -> Option<usize> {
        let b = terms.iter().find_map(|t| match t {
            Term::Dim(b, _) => Some(*b),
            _ => None,
        })?;
        let array_b = *arrays.get(&b)?;
        let rank_b = rank(array_b);
        let spelled = rank_b > terms.len()
            && terms.iter().enumerate().all(|(i, t)| match t {
                Term::Dim(a, d) => *a == b && *d == i,
                Term::Const(c) => static_extent(array_b.r#type(), i).is_some_and(|e| i64::try_from(e) == Ok(*c)),
                Term::Value(_) => false,
            });
        if !spelled {
            return None;
        }
        let mut class = self.var(array_b);
        for _ in terms.len()..rank_b {
            class = self.solver.derived_of(class);
        }
        Some(class)
    }

    fn op<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        arrays: &mut HashMap<usize, Value<'c, 'a>>,
    ) -> Result<(), SizeError> {
        let decoded = ArrayOp::decode(op).transpose().map_err(|e| SizeError {
            message: e.to_string(),
            location: self.names.location(op.location()),
            op: e.kind.name().to_owned(),
            arrays: Box::default(),
            unprovable: false,
        })?;
        let operands: Vec<Value> = op.operands().collect();
        let results: Vec<Value> = op.results().map(Value::from).collect();
        let array_results: Vec<Value> = results.iter().copied().filter(|v| is_array(*v)).collect();
        // Index values that describe sizes: for generate shapes.
        match &decoded {
            Some(ArrayOp::Size { input }) => {
                arrays.insert(raw(*input), *input);
                for (d, r) in results.iter().enumerate() {
                    self.terms.insert(raw(*r), Term::Dim(raw(*input), d));
                }
                return Ok(());
            }
            Some(ArrayOp::Dim { input, dimension }) => {
                if let Some(r) = results.first() {
                    arrays.insert(raw(*input), *input);
                    self.terms.insert(raw(*r), Term::Dim(raw(*input), (*dimension).max(0) as usize));
                }
                return Ok(());
            }
            None if op_name(op) == "arith.constant" => {
                if let (Some(r), Some(c)) = (results.first(), integer_attribute(op, "value")) {
                    self.terms.insert(raw(*r), Term::Const(c));
                }
            }
            _ => {}
        }
        if array_results.is_empty() && decoded.is_none() {
            // Consumes arrays at most: constrains no size.
            return Ok(());
        }
        for r in &array_results {
            self.result_var(*r);
            arrays.insert(raw(*r), *r);
        }
        for o in &operands {
            if is_array(*o) {
                self.var(*o);
                arrays.insert(raw(*o), *o);
            }
        }
        match &decoded {
            Some(decoded) => self.constrain(op, decoded, &results, arrays),
            None => {
                self.unknown_sizes(op, &array_results);
                Ok(())
            }
        }
    }

    /// Each non-static array result of an op the inference does not know (calls, `scf`,
    /// `tensor` ops, …) has an unknown size of its own.
    fn unknown_sizes(&mut self, op: OperationRef, array_results: &[Value]) {
        for r in array_results {
            if static_shape(r.r#type()).is_none() {
                let rigid = self.rigid(op, *r, false);
                self.set(*r, rigid);
            }
        }
    }

    /// The size equalities `array` op `decoded` requires.
    fn constrain<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        decoded: &ArrayOp<'c, 'a>,
        results: &[Value<'c, 'a>],
        arrays: &mut HashMap<usize, Value<'c, 'a>>,
    ) -> Result<(), SizeError> {
        let arrays_among = |values: &[Value<'c, 'a>]| -> Vec<Value<'c, 'a>> {
            values.iter().copied().filter(|v| is_array(*v)).collect()
        };
        match decoded {
            ArrayOp::Map { inputs, .. } => {
                let inputs = arrays_among(inputs);
                self.unify_all(op, &inputs, "requires its inputs to have the same size")?;
                self.unify_all(op, results, "requires its results to have the same size")?;
                if let (Some(i), Some(r)) = (inputs.first(), results.first()) {
                    self.unify_values(op, *i, *r, "requires its results to have the size of its inputs")?;
                }
            }
            ArrayOp::Generate { shape, .. } | ArrayOp::Backpermute { shape, .. } => {
                self.unify_all(op, results, "requires its results to have the same size")?;
                if let Some(r) = results.first() {
                    self.generated_shape(op, shape, *r, arrays)?;
                }
            }
            ArrayOp::Replicate { input, count } => {
                if let Some(r) = results.first() {
                    // The shape of the result is (dims of input..., count).
                    let mut terms: Vec<Term> = (0..rank(*input)).map(|d| Term::Dim(raw(*input), d)).collect();
                    terms.push(self.term(*count));
                    self.replicated_shape(op, *input, terms, *r, arrays)?;
                }
            }
            ArrayOp::Gather { indices, .. } => {
                self.unify_all(op, indices, "requires its index arrays to have the same size")?;
                if let (Some(i), Some(r)) = (indices.first(), results.first()) {
                    self.unify_values(op, *i, *r, "requires its result to have the size of its index arrays")?;
                }
            }
            ArrayOp::Reverse { input } | ArrayOp::Force { input } => {
                if let Some(r) = results.first() {
                    self.unify_values(op, *input, *r, "requires its result to have the size of its input")?;
                }
            }
            ArrayOp::Scatter { dest, indices, keep, values, .. } => {
                let mut rest = indices.clone();
                rest.extend(keep);
                rest.push(*values);
                self.unify_all(op, &rest, "requires its index arrays, keep flags and values to have the same size")?;
                if let Some(r) = results.first() {
                    self.unify_values(op, *dest, *r, "requires its result to have the size of its destination")?;
                }
            }
            ArrayOp::Permute { dest, .. } => {
                if let Some(r) = results.first() {
                    self.unify_values(op, *dest, *r, "requires its result to have the size of its destination")?;
                }
            }
            ArrayOp::Fold { inputs, .. } => self.fold(op, inputs, results)?,
            ArrayOp::Scan { inputs, .. } => {
                self.unify_all(op, inputs, "requires its inputs to have the same size")?;
                self.unify_all(op, results, "requires its results to have the same size")?;
                if let (Some(i), Some(r)) = (inputs.first(), results.first()) {
                    self.unify_values(op, *i, *r, "requires its results to have the size of its inputs")?;
                }
            }
            ArrayOp::Filter { inputs, .. } | ArrayOp::Expand { inputs, .. } => {
                self.unify_all(op, &arrays_among(inputs), "requires its inputs to have the same size")?;
                if let Some(first) = results.first() {
                    let rigid = self.rigid(op, *first, true);
                    for r in results {
                        let vr = self.var(*r);
                        let names = (self.label(*first), self.label(*r));
                        self.require_equal(op, (rigid, vr), "gives all its results one data-dependent size", names)?;
                    }
                }
            }
            ArrayOp::Index { .. } | ArrayOp::Yield { .. } => {}
            _ => {
                let array_results = arrays_among(results);
                self.unknown_sizes(op, &array_results);
            }
        }
        Ok(())
    }

    /// `fold`: the results have the size of the inputs without their innermost dimension.
    fn fold(&mut self, op: OperationRef, inputs: &[Value], results: &[Value]) -> Result<(), SizeError> {
        self.unify_all(op, inputs, "requires its inputs to have the same size")?;
        self.unify_all(op, results, "requires its results to have the same size")?;
        if let (Some(i), Some(r)) = (inputs.first(), results.first()) {
            let vi = self.var(*i);
            let d = self.solver.derived_of(vi);
            let vr = self.var(*r);
            let names = (format!("{}{}", self.label(*i), without_innermost(1)), self.label(*r));
            let requirement = "requires its results to have the size of its inputs without the innermost dimension";
            self.require_equal(op, (d, vr), requirement, names)?;
        }
        Ok(())
    }

    fn generated_shape<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        shape: &[Value<'c, 'a>],
        result: Value<'c, 'a>,
        arrays: &HashMap<usize, Value<'c, 'a>>,
    ) -> Result<(), SizeError> {
        let (class, prefix) = self.shape_class(op, shape, result, arrays);
        self.bind_shape(op, result, class, prefix)
    }

    fn replicated_shape<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        input: Value<'c, 'a>,
        terms: Vec<Term>,
        result: Value<'c, 'a>,
        arrays: &mut HashMap<usize, Value<'c, 'a>>,
    ) -> Result<(), SizeError> {
        arrays.insert(raw(input), input);
        let input_var = self.var(input);
        let root = self.solver.find(input_var);
        let input_static = match &self.solver.kind[root] {
            SizeKind::Static(s) => Some(s.clone()),
            _ => None,
        };
        let class = if let Some(class) = self.spelled_class(&terms, arrays) {
            Some(class)
        } else if static_shape(result.r#type()).is_some() {
            None
        } else if let (Some(mut shape), Some(Term::Const(c))) = (input_static, terms.last()) {
            // Static input and constant count: a static shape.
            shape.push((*c).max(0) as u64);
            Some(self.solver.static_var(&shape))
        } else {
            let var = match self.generated.get(&terms) {
                Some(v) => *v,
                None => {
                    let v = self.rigid(op, result, true);
                    self.generated.insert(terms, v);
                    v
                }
            };
            Some(var)
        };
        self.bind_shape(op, result, class, Some(input_var))
    }

    /// Gives `result` the shape class `class`, and records that the shape without its
    /// innermost dimension is `prefix` (generate (dims of A..., m): A's size).
    fn bind_shape(
        &mut self,
        op: OperationRef,
        result: Value,
        class: Option<usize>,
        prefix: Option<usize>,
    ) -> Result<(), SizeError> {
        let vr = self.var(result);
        let label = self.label(result);
        let requirement = "requires its results to have the shape given by its shape operands";
        if let Some(class) = class {
            let names = (format!("the shape operands of {label}"), label.clone());
            self.require_equal(op, (class, vr), requirement, names)?;
        }
        if let Some(prefix) = prefix {
            let blame = self.blame(op, requirement);
            let names = (format!("{label}{}", without_innermost(1)), format!("the outer dimensions of {label}"));
            self.require(op, |solver| solver.set_derived(vr, prefix, &blame, names))?;
        }
        Ok(())
    }

    fn finish(mut self) -> Sizes {
        let mut dense: HashMap<usize, SizeClass> = HashMap::new();
        let mut kinds = Vec::new();
        let mut roots = Vec::new();
        let mut number =
            |root: usize, solver: &Solver, dense: &mut HashMap<usize, SizeClass>, roots: &mut Vec<usize>| {
                if let Some(c) = dense.get(&root) {
                    return *c;
                }
                let c = SizeClass(kinds.len());
                kinds.push(solver.kind[root].clone());
                dense.insert(root, c);
                roots.push(root);
                c
            };
        let mut classes = HashMap::new();
        for key in self.order.clone() {
            let root = self.solver.find(self.vars[&key]);
            let c = number(root, &self.solver, &mut dense, &mut roots);
            classes.insert(key, c);
        }
        // Derived classes of the classes seen so far (and theirs).
        let mut inner = HashMap::new();
        let mut i = 0;
        while i < roots.len() {
            let root = roots[i];
            if let Some(d) = self.solver.derived[root] {
                let dr = self.solver.find(d);
                let dc = number(dr, &self.solver, &mut dense, &mut roots);
                inner.insert(dense[&root], dc);
            }
            i += 1;
        }
        Sizes { classes, kinds, inner, unprovable: self.unprovable }
    }
}

/// Infers the sizes of the arrays of `block` (its arguments and the results of its
/// ops; nested regions are separate problems).
pub fn infer(block: BlockRef, names: &Names) -> Result<Sizes, SizeError> {
    let function_body = block.parent_operation().is_some_and(|p| op_name(p) == "func.func");
    let mut inference = Inference {
        names,
        solver: Solver::default(),
        vars: HashMap::new(),
        order: Vec::new(),
        terms: HashMap::new(),
        generated: HashMap::new(),
        function_body,
        unprovable: Vec::new(),
    };
    let what = if inference.function_body { "function argument" } else { "block argument" };
    let mut arrays = HashMap::new();
    for i in 0..block.argument_count() {
        let Ok(argument) = block.argument(i) else { continue };
        let v: Value = argument.into();
        if is_array(v) {
            inference.outside(v, what);
            arrays.insert(raw(v), v);
        }
    }
    let mut op = block.first_operation();
    while let Some(o) = op {
        inference.op(o, &mut arrays)?;
        op = o.next_in_block();
    }
    Ok(inference.finish())
}
