//! Scatter nests as parallel loops with atomic updates.
//!
//! `array-to-loops` lowers a scatter (seed 000 §2, `scatter` with a combine) to a
//! sequential `scf.for` nest over the source positions whose body loads the old element
//! of the destination, combines it with the new value and stores the result back: in
//! sequential order, because two positions may carry the same index. When the combine is
//! commutative and associative, the order does not change the final value of an element
//! (each element ends as its initial value combined with every value sent to it, in some
//! order), so the nest may run in parallel as long as each read-modify-write is atomic:
//! `memref.atomic_rmw`, which the NVVM and ROCDL lowerings make hardware atomics (or a
//! compare-and-swap loop where the hardware has none). Integers give the same result
//! exactly; a float sum is reassociated, as a parallel reduction's is. A combine that
//! keeps the new value is order-independent too when every value sent is one constant
//! (a scatter of flags, seed 004's sieve): an atomic exchange (`assign`).
//!
//! [`parallel_updates`] makes that rewrite for a nest whose iterations provably interact
//! only through such updates ([`Nest::independent`] states the conditions and why each
//! is needed); any other nest is left alone (it then runs as a one-thread kernel, which
//! `array-gpu-kernels` reports).

use super::accesses::{Accesses, load_indices, store_indices};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::{Builder, ty, vs};
use melior::ir::{Identifier, attribute::IntegerAttribute, r#type::IntegerType};
use mlir_sys::*;

/// An `scf.for` nest: the loops from the outermost in, each without loop-carried values,
/// every loop but the innermost holding only the next one.
pub(crate) struct Nest {
    pub(crate) loops: Vec<Op>,
    ivs: Vec<Val>,
    pub(crate) lower: Vec<Val>,
    pub(crate) upper: Vec<Val>,
    pub(crate) step: Vec<Val>,
}

/// A read-modify-write of one element that becomes one `memref.atomic_rmw`: a combine
/// of the old element with a value, or an overwrite with a constant (`assign`).
pub(crate) struct Update {
    /// The load of the old element (`None`: an overwrite whose load is gone).
    pub(crate) load: Option<Op>,
    /// The combine (`None`: an overwrite).
    pub(crate) combine: Option<Op>,
    pub(crate) store: Op,
    kind: AtomicKind,
    /// The value combined in (the combine's operand that is not the old element), or
    /// the constant an overwrite stores.
    value: Val,
}

/// The kinds of `memref.atomic_rmw` used here: the `arith` combines that are commutative
/// and associative (so the order of updates does not matter) and that the LLVM lowering of
/// `memref.atomic_rmw` supports (`atomicrmw add/and/or/xor/max/min/umax/umin/fadd/fmax/
/// fmin/fmaximum/fminimum`; there is no atomic multiply). The value is the
/// `arith::AtomicRMWKind` enumerator.
#[derive(Clone, Copy)]
struct AtomicKind(i64);

fn atomic_kind(combine: &str) -> Option<AtomicKind> {
    let kind = match combine {
        "arith.addf" => 0,
        "arith.addi" => 1,
        "arith.andi" => 2,
        "arith.maximumf" => 4,
        "arith.maxnumf" => 5,
        "arith.maxsi" => 6,
        "arith.maxui" => 7,
        "arith.minimumf" => 8,
        "arith.minnumf" => 9,
        "arith.minsi" => 10,
        "arith.minui" => 11,
        "arith.ori" => 14,
        "arith.xori" => 15,
        _ => return None,
    };
    Some(AtomicKind(kind))
}

/// Rewrites the `scf.for` nest `op` as an `scf.parallel` whose read-modify-writes are
/// `memref.atomic_rmw`s, when its iterations interact only through such updates; returns
/// the new loop, or why not (and changes nothing).
pub(crate) fn parallel_updates(b: &Builder, op: Op) -> Result<Op, String> {
    let (nest, updates) = analyse(op)?;
    let (parallel, ivs, end) = b.parallel_range(op, &nest.lower, &nest.upper, &nest.step, &[]);
    let innermost = *nest.loops.last().expect("a nest has a loop");
    let body = ir::first_block(ir::region(innermost, 0));
    for (formal, actual) in nest.ivs.iter().zip(&ivs) {
        ir::replace_uses_where(*formal, *actual, |_| true);
    }
    let ops = ir::block_ops(body);
    for o in &ops[..ops.len() - 1] {
        ir::move_before(*o, end);
    }
    for update in updates {
        make_atomic(b, update);
    }
    // SAFETY: the nest has no results and its body was moved out.
    unsafe { ir::erase(op) };
    Ok(parallel)
}

/// Replaces the read-modify-write `update` by one `memref.atomic_rmw` at its store.
pub(crate) fn make_atomic(b: &Builder, update: Update) {
    let store_operands = ir::operands(update.store);
    let (memref, indices) = (store_operands[1], &store_operands[2..]);
    let element = ir::value_type(update.value);
    let mut operands = vec![update.value, memref];
    operands.extend_from_slice(indices);
    b.put(
        update.store,
        b.op("memref.atomic_rmw")
            .add_operands(&vs(&operands))
            .add_results(&[ty(element)])
            .add_attributes(&[(
                Identifier::new(b.context, "kind"),
                IntegerAttribute::new(IntegerType::new(b.context, 64).into(), update.kind.0).into(),
            )])
            .build()
            .expect("valid memref.atomic_rmw"),
    );
    // SAFETY: the store has no results; the combine's only use was the store, the
    // load's only use the combine (an overwrite's load has no use).
    unsafe {
        ir::erase(update.store);
        if let Some(combine) = update.combine {
            ir::erase(combine);
        }
        if let Some(load) = update.load {
            ir::erase(load);
        }
    }
}

/// `memref.atomic_rmw assign`: the `arith::AtomicRMWKind` enumerator of an exchange.
const ASSIGN: AtomicKind = AtomicKind(3);

/// A store of a constant to a buffer it is the only store to, the buffer's only load (if
/// any) unused, as an [`Update`] that exchanges the element for the constant.
///
/// **Why any order gives the sequential result.** The sequential nest leaves every
/// element it stores to holding the value of the last store, and every store writes the
/// same constant; elements no iteration stores to keep their value in both. A scatter
/// whose combine keeps the new value (`permute const`, seed 004's sieve) of a constant
/// lowers to this. The exchange (rather than a plain store) keeps concurrent writes of
/// one element from being a data race.
fn constant_overwrite(loads: &[Op], store: Op) -> Option<Update> {
    let load = match loads {
        [] => None,
        [load] if ir::uses(ir::results(*load)[0]).is_empty() => Some(*load),
        _ => return None,
    };
    let value = ir::operands(store)[0];
    let constant = ir::defining_op(value).is_some_and(|op| ir::op_name(op) == "arith.constant");
    (constant && atomic_type(ir::value_type(value))).then_some(Update {
        load,
        combine: None,
        store,
        kind: ASSIGN,
        value,
    })
}

/// The update of a buffer whose accesses in the nest are `loads` (none or one) and the
/// one `store`, if they are a read-modify-write with an atomic combine or a constant
/// overwrite.
fn update_of(loads: &[Op], store: Op) -> Option<Update> {
    match loads {
        [load] => read_modify_write(*load, store).or_else(|| constant_overwrite(loads, store)),
        _ => constant_overwrite(loads, store),
    }
}

/// Whether LLVM's `atomicrmw` takes elements of type `element`: integers of 8 to 64 bits
/// (a power of two; not i1) and floats; f32 and f64 are the ones every GPU target handles.
fn atomic_type(element: MlirType) -> bool {
    // SAFETY: live type.
    unsafe {
        (mlirTypeIsAInteger(element) && [8, 16, 32, 64].contains(&mlirIntegerTypeGetWidth(element)))
            || mlirTypeIsAF32(element)
            || mlirTypeIsAF64(element)
    }
}

/// The read-modify-writes of `body` (a loop's block, nested ops included) if every buffer
/// it stores to is changed only by one atomic update ([`Nest::independent`], conditions
/// 1 to 3, without the case of elements at the loop's own induction variables): then any
/// number of copies of the body may run at once, in any order, and leave every element
/// as the sequential runs do. Used for the segment loops of an expand (`to_gpu::segments`).
pub(crate) fn updates_of(body: MlirBlock) -> Result<(Vec<Update>, Vec<Val>), String> {
    let accesses = Accesses::of(body)?;
    let mut updates = Vec::new();
    let written = accesses.written();
    for buffer in &written {
        if !accesses.isolated(*buffer) {
            return Err("it writes a buffer that is not a fresh allocation accessed directly".into());
        }
        match (&accesses.loads_of(*buffer)[..], &accesses.stores_of(*buffer)[..]) {
            (loads @ ([] | [_]), [store]) => updates.push(update_of(loads, *store).ok_or(
                "its read-modify-write is not an atomic update (a commutative, associative combine of 8 to 64 bits, or an overwrite with a constant)",
            )?),
            _ => return Err("it writes a buffer other than by one read-modify-write".into()),
        }
    }
    Ok((updates, written))
}

/// The nest `op` heads and its updates, if its iterations interact only through them
/// ([`Nest::independent`]) and it has at least one.
pub(crate) fn analyse(op: Op) -> Result<(Nest, Vec<Update>), String> {
    let nest = Nest::of(op)?;
    let updates = nest.independent()?;
    if updates.is_empty() {
        // Nothing to make atomic: such a nest is not a scatter, and the sequential loops
        // that carry no value are `array-to-loops`' choice for a reason this does not see.
        return Err("it has no read-modify-write to make atomic".into());
    }
    Ok((nest, updates))
}

impl Nest {
    fn of(op: Op) -> Result<Nest, String> {
        let mut nest = Nest { loops: vec![], ivs: vec![], lower: vec![], upper: vec![], step: vec![] };
        let mut current = op;
        loop {
            if ir::op_name(current) != "scf.for"
                || !ir::results(current).is_empty()
                || ir::int_attribute(current, "unsignedCmp").is_some()
            {
                return Err("it is not a nest of scf.for loops without carried values".into());
            }
            let operands = ir::operands(current);
            // The bounds of every loop are computed outside the nest (an inner loop whose
            // bounds depend on an outer index is not a rectangular iteration space, which
            // `scf.parallel` requires).
            if !operands.iter().all(|o| ir::defined_outside(*o, op)) {
                return Err("an inner loop's bounds depend on an outer loop".into());
            }
            let body = ir::first_block(ir::region(current, 0));
            nest.loops.push(current);
            nest.ivs.push(ir::block_arguments(body)[0]);
            nest.lower.push(operands[0]);
            nest.upper.push(operands[1]);
            nest.step.push(operands[2]);
            let ops = ir::block_ops(body);
            match ops[..] {
                [inner, _] if ir::op_name(inner) == "scf.for" => current = inner,
                _ => return Ok(nest),
            }
        }
    }

    /// The updates to make atomic, if the iterations of the nest are independent but for
    /// them. The conditions, each needed for the parallel nest to compute what the
    /// sequential one does:
    ///
    /// 1. Every op of the body is pure, a load, or a store ([`Accesses::of`]): a call or any other
    ///    effect could order the iterations in a way this does not see.
    /// 2. Every buffer stored to is a `memref.alloc` of the function accessed through that
    ///    value only, never through a view ([`Accesses::isolated`]):
    ///    so no other buffer of the body aliases it (an argument could alias another one).
    /// 3. Each buffer stored to is either
    ///    * written at the nest's own induction variables (every load and store of it
    ///      indexed by exactly the induction variables, in order): distinct iterations
    ///      touch distinct elements; or
    ///    * updated by exactly one read-modify-write `store(combine(load(B[I]), x), B[I])`
    ///      (same index values, one block, the load and the combine used once, no other
    ///      access to B), whose combine is commutative and associative with an atomic form
    ///      ([`atomic_kind`]): any order of the updates of an element gives its sequential
    ///      value, and an atomic update cannot lose another; or
    ///    * stored to by exactly one store of a constant, its only load (if any) unused
    ///      (`constant_overwrite`): every order leaves the constant in every element
    ///      stored to.
    fn independent(&self) -> Result<Vec<Update>, String> {
        let innermost = *self.loops.last().expect("a nest has a loop");
        let accesses = Accesses::of(ir::first_block(ir::region(innermost, 0)))?;
        let mut updates = Vec::new();
        for buffer in accesses.written() {
            if !accesses.isolated(buffer) {
                return Err("it writes a buffer that is not a fresh allocation accessed directly".into());
            }
            let its_loads = accesses.loads_of(buffer);
            let its_stores = accesses.stores_of(buffer);
            let at_ivs = |indices: &[Val]| {
                indices.len() == self.ivs.len() && indices.iter().zip(&self.ivs).all(|(a, b)| ir::same_value(*a, *b))
            };
            let own_elements = its_loads.iter().all(|l| at_ivs(&load_indices(*l)))
                && its_stores.iter().all(|s| at_ivs(&store_indices(*s)));
            if own_elements {
                continue;
            }
            match (&its_loads[..], &its_stores[..]) {
                (loads @ ([] | [_]), [store]) => updates.push(update_of(loads, *store).ok_or(
                    "its read-modify-write is not an atomic update (a commutative, associative combine of 8 to 64 bits, or an overwrite with a constant)",
                )?),
                _ => return Err("it writes a buffer at positions shared by iterations, not as one read-modify-write".into()),
            }
        }
        Ok(updates)
    }
}

/// `store(combine(load(B[I]), x), B[I])` as an [`Update`], if it is one (see
/// [`Nest::independent`], condition 3).
fn read_modify_write(load: Op, store: Op) -> Option<Update> {
    let old = ir::results(load)[0];
    let load_indices = ir::operands(load)[1..].to_vec();
    let store_operands = ir::operands(store);
    let (stored, store_indices) = (store_operands[0], &store_operands[2..]);
    let same_indices = load_indices.len() == store_indices.len()
        && load_indices.iter().zip(store_indices).all(|(a, b)| ir::same_value(*a, *b));
    let combine = ir::defining_op(stored)?;
    let kind = atomic_kind(&ir::op_name(combine))?;
    let operands = ir::operands(combine);
    let value = match operands[..] {
        [a, x] if ir::same_value(a, old) && !ir::same_value(x, old) => x,
        [x, a] if ir::same_value(a, old) && !ir::same_value(x, old) => x,
        _ => return None,
    };
    let one_block = |a: Op, b: Op| unsafe { mlirOperationGetBlock(a).ptr == mlirOperationGetBlock(b).ptr };
    (same_indices
        && atomic_type(ir::value_type(old))
        && ir::uses(old).len() == 1
        && ir::uses(stored).len() == 1
        && one_block(load, combine)
        && one_block(combine, store))
    .then_some(Update { load: Some(load), combine: Some(combine), store, kind, value })
}
