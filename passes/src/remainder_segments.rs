//! `array-remainder-segments`: a remainder `(D·i + B) mod n` of a loop's induction variable
//! `i`, by a divisor `n` fixed for the loop, becomes affine in `i` on the segments of the
//! iteration space between its wrap-arounds.
//!
//! Why: seed 000's backpermute (§2.1) reads `xs[(2i) mod n]`. A remainder by a run-time
//! divisor costs a 64-bit division per element, or about nine vector instructions after
//! `array-invariant-division`; XLA compiles for static shapes and divides by a constant.
//! Between two wrap-arounds the remainder is `D·i + B − k·n` for one k, affine in i, so
//! the loads it indexes are strided and the loop vectorises like a copy.
//!
//! **The rewrite.** An `scf.parallel` without reductions whose body holds no loop, and in
//! it `arith.remui x, n` of `index` where `n` is fixed for the loop (defined outside it,
//! or a constant of at least D·C) and `x` is the induction variable `i` of its innermost
//! dimension, over `[lb, ub)` with step 1, followed by a chain of `arith.addi` with values
//! fixed for the loop and `arith.muli` with constants `c ≥ 1` (so `x(i) = D·i + B`, D the
//! product of the c), is rewritten, for chunks of `C` iterations (the `chunk` option),
//! into
//!
//! ```text
//! scf.if guard {
//!   scf.parallel over the outer dimensions as they were and the chunks k of this one:
//!     lo = lb + k·C;  hi = min(lo + C, ub);  r0 = x(lo) mod n
//!     mid = lo + min(hi − lo, ⌊(n − r0 − 1) / D⌋ + 1)
//!     scf.for i in [lo, mid):  the body, the remainder replaced by (r0 − D·lo) + D·i
//!     scf.for i in [mid, hi):  the body, the remainder replaced by (r0 − D·lo − n) + D·i
//! } else {
//!   the loop, unchanged
//! }
//! guard = 0 ≤ lb < ub,  no step of x(ub − 1) wraps around 2^64,  n ≥ D·C
//! ```
//!
//! **Why it computes the same values.**
//! 1. No step of the chain wraps at any iteration. Each step is non-decreasing in its chain
//!    operand (adding a fixed unsigned value, multiplying by c ≥ 1); the iterations are
//!    non-negative (`lb ≥ 0`), so as unsigned numbers they are at most `ub − 1`, and by
//!    induction over the steps each step's exact value at `i` is at most its exact value
//!    at `ub − 1`, which the guard checked is below 2^64. So the computed `x(i)` is the
//!    exact `D·i + B`, and `x(i) = x(lo) + D·(i − lo)`.
//! 2. In a chunk, `0 ≤ D·(i − lo) ≤ D·(C − 1) < n` (guard), so `r0 + D·(i − lo) < 2n`: the
//!    remainder is `r0 + D·(i − lo)` where that is below n, and `r0 + D·(i − lo) − n`
//!    elsewhere.
//! 3. `r0 + D·(i − lo) < n` ⟺ `D·(i − lo) ≤ n − r0 − 1` ⟺ `i − lo ≤ ⌊(n − r0 − 1) / D⌋`
//!    (`n − r0 ≥ 1` as `r0 < n`): exactly the iterations before `mid`. The replacement is
//!    evaluated in wrapping arithmetic, which is exact modulo 2^64, and the exact value
//!    lies in `[0, n)`.
//! 4. Every iteration runs once, in one of the two clones (the other dimensions' induction
//!    variables are the chunk loop's), and the chunks are as independent as the
//!    iterations of the `scf.parallel` were. When the guard fails
//!    (`n = 0` among others: `D·C ≥ 1`) the loop runs unchanged.
//!
//! Sequential loops (`scf.for`, the scatters of `array-to-loops`) are left alone:
//! `array-parallel-forms` runs some of them in parallel later and would then find the
//! two loops of every chunk instead of one nest.
//!
//! **When.** The guard's `n ≥ D·C` keeps at most one wrap-around per chunk, so a chunk
//! costs one remainder and two loop heads next to its C iterations. For smaller divisors
//! the loop runs unchanged (and `array-invariant-division`, after this pass in the CPU
//! pipelines, multiplies by the divisor's reciprocal). One remainder per loop is
//! rewritten, the first that qualifies; each further one would double the body again.

use crate::bridge::{PassDefinition, PassFailed, PassOption, PassOptions, emit_error};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::Builder;
use melior::{
    Context,
    dialect::arith::{self, CmpiPredicate},
    ir::{Location, OperationRef, attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType},
};
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-remainder-segments",
    description: "A remainder (D*i + B) mod n of an scf.parallel's induction variable i (index; D a product of constants, B and n fixed for the loop) becomes affine in i on the loop's segments between wrap-arounds: the loop runs in chunks of `chunk` iterations, each split at its one wrap-around into two loops without a remainder, where n >= D*chunk and no step of D*i + B wraps (checked at run time; else the loop runs unchanged)",
    anchor: Some("builtin.module"),
    dependent_dialects: &[mlirGetDialectHandle__arith__, mlirGetDialectHandle__scf__],
    options: &[PassOption {
        name: "chunk",
        description: "Iterations per chunk (the loop is split at run time only where the divisor is at least D times this)",
        default: || DEFAULT_CHUNK.to_string(),
    }],
    state: None,
    run,
};

/// Iterations per chunk by default: enough that a chunk's remainder and loop heads are a
/// few percent of its work, few enough that divisors from 2048 (D = 2) qualify.
const DEFAULT_CHUNK: i64 = 1024;

fn run<'c>(context: &'c Context, module: OperationRef<'c, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let chunk = options.get("chunk").trim().parse::<i64>().ok().filter(|c| (1..=1 << 30).contains(c));
    let Some(chunk) = chunk else {
        emit_error(
            module.location(),
            &format!(
                "array-remainder-segments: chunk must be an integer from 1 to 2^30, not '{}'",
                options.get("chunk")
            ),
        );
        return Err(PassFailed);
    };
    let remainders = ir::collect(module.to_raw(), |op| ir::op_name(op) == "arith.remui");
    let mut split: Vec<Op> = Vec::new();
    for remainder in remainders {
        let Some(segments) = Segments::of(remainder, chunk) else { continue };
        if split.iter().any(|l| ir::same_op(*l, segments.lp)) {
            continue; // one remainder per loop
        }
        segments.rewrite(context, remainder);
        split.push(segments.lp);
    }
    Ok(())
}

/// One step of the chain from the induction variable to the remainder's numerator.
#[derive(Clone, Copy)]
enum Step {
    /// `+ b`, b fixed for the loop.
    Add(Fixed),
    /// `· c`, a constant c ≥ 1.
    Multiply(i64),
}

/// A value fixed for the loop: an addend of the chain, or the divisor.
#[derive(Clone, Copy)]
enum Fixed {
    /// Defined outside the loop.
    Value(Val),
    /// A constant, possibly defined in the loop, so built again where it is used.
    Constant(i64),
}

impl Fixed {
    fn of(value: Val, lp: Op) -> Option<Fixed> {
        match ir::int_constant(value) {
            Some(c) => Some(Fixed::Constant(c)),
            None => ir::defined_outside(value, lp).then_some(Fixed::Value(value)),
        }
    }

    /// The value, before `anchor`.
    fn build(self, b: &Builder, anchor: Op) -> Val {
        match self {
            Fixed::Value(value) => value,
            Fixed::Constant(c) => b.constant_index(anchor, c),
        }
    }
}

impl Step {
    /// The step applied to `x`, before `anchor` (wrapping arithmetic), and the largest
    /// unsigned `x` for which it does not wrap: `2^64 − 1 − b` for `+ b`, `⌊(2^64 − 1) / c⌋`
    /// for `· c`.
    fn apply(self, b: &Builder, anchor: Op, x: Val) -> (Val, Val) {
        match self {
            Step::Add(addend) => {
                let addend = addend.build(b, anchor);
                let all_ones = b.constant_index(anchor, -1);
                (b.binary(anchor, arith::addi, x, addend), b.binary(anchor, arith::subi, all_ones, addend))
            }
            Step::Multiply(c) => {
                let bound = b.constant_index(anchor, (u64::MAX / c as u64) as i64);
                let c = b.constant_index(anchor, c);
                (b.binary(anchor, arith::muli, x, c), bound)
            }
        }
    }
}

/// A remainder the rewrite applies to: its loop, the chain, the divisor.
struct Segments {
    lp: Op,
    /// The dimension of the loop whose induction variable starts the chain (the innermost).
    dimension: usize,
    steps: Vec<Step>,
    divisor: Fixed,
    /// D · C, the least divisor the rewrite runs for.
    least_divisor: i64,
    /// D, the product of the multiplications.
    slope: i64,
    chunk: i64,
}

/// The bound on D · C, so that it cannot overflow (D ≤ 2^62 / C is checked as the chain
/// is read).
const LIMIT: i64 = 1 << 62;

const LOOPS: [&str; 4] = ["scf.for", "scf.parallel", "scf.while", "scf.forall"];

impl Segments {
    /// The rewrite's view of `remainder`, if it applies (the module doc's conditions).
    fn of(remainder: Op, chunk: i64) -> Option<Segments> {
        let [x, divisor] = <[Val; 2]>::try_from(ir::operands(remainder)).ok()?;
        // SAFETY: a live value's type.
        if !unsafe { mlirTypeIsAIndex(ir::value_type(x)) } {
            return None;
        }
        // The loop: the innermost around the remainder, which must hold no loop itself.
        let lp = std::iter::successors(ir::parent_op(remainder), |op| ir::parent_op(*op))
            .find(|op| LOOPS.contains(&ir::op_name(*op).as_str()))?;
        if ir::op_name(lp) != "scf.parallel" || !ir::results(lp).is_empty() {
            return None;
        }
        let operands = ir::operands(lp);
        if !operands.len().is_multiple_of(3) {
            return None; // reductions (none, as it has no results; kept for the reader)
        }
        if !ir::collect(lp, |op| !ir::same_op(op, lp) && LOOPS.contains(&ir::op_name(op).as_str())).is_empty() {
            return None;
        }
        let fixed = |v: Val| Fixed::of(v, lp).is_some();
        let divisor = Fixed::of(divisor, lp)?;
        // From the numerator back to an induction variable: at every step one operand
        // changes in the loop (the chain) and the other is fixed for it.
        let inductions = ir::block_arguments(ir::first_block(ir::region(lp, 0)));
        let mut steps = Vec::new();
        let mut slope: i64 = 1;
        let mut current = x;
        let dimension = loop {
            if let Some(d) = inductions.iter().position(|i| ir::same_value(*i, current)) {
                break d;
            }
            let op = ir::defining_op(current)?;
            let [a, b] = <[Val; 2]>::try_from(ir::operands(op)).ok()?;
            let (chain, other) = match (fixed(a), fixed(b)) {
                (false, true) => (a, b),
                (true, false) => (b, a),
                _ => return None,
            };
            match ir::op_name(op).as_str() {
                "arith.addi" => steps.push(Step::Add(Fixed::of(other, lp)?)),
                "arith.muli" => {
                    let c = ir::int_constant(other).filter(|c| *c >= 1)?;
                    slope = slope.checked_mul(c).filter(|d| *d <= LIMIT / chunk)?;
                    steps.push(Step::Multiply(c));
                }
                _ => return None,
            }
            current = chain;
        };
        // The innermost dimension only: the segment loops run inside the chunk loop, so
        // splitting an outer dimension would make the rows' elements run column by column.
        if dimension + 1 != inductions.len() || ir::int_constant(operands[2 * inductions.len() + dimension]) != Some(1)
        {
            return None;
        }
        // A constant divisor below D · C would fail the guard on every run.
        if matches!(divisor, Fixed::Constant(n) if (n as u64) < (slope * chunk) as u64) {
            return None;
        }
        steps.reverse(); // from the induction variable outwards
        Some(Segments { lp, dimension, steps, divisor, least_divisor: slope * chunk, slope, chunk })
    }

    /// `x` at the iteration `i`, before `anchor` (wrapping arithmetic).
    fn numerator(&self, b: &Builder, anchor: Op, i: Val) -> Val {
        self.steps.iter().fold(i, |x, step| step.apply(b, anchor, x).0)
    }

    /// Whether no step of `x` at the iteration `i` wraps around 2^64 (an `i1`), before
    /// `anchor`.
    fn exact(&self, b: &Builder, anchor: Op, i: Val) -> Val {
        let mut exact = b.put1(
            anchor,
            arith::constant(
                b.context,
                IntegerAttribute::new(IntegerType::new(b.context, 1).into(), 1).into(),
                b.location,
            ),
        );
        let mut x = i;
        for step in &self.steps {
            let (next, bound) = step.apply(b, anchor, x);
            let fits = self.compare(b, anchor, CmpiPredicate::Ule, x, bound);
            exact = b.binary(anchor, arith::andi, exact, fits);
            x = next;
        }
        exact
    }

    fn compare(&self, b: &Builder, anchor: Op, predicate: CmpiPredicate, lhs: Val, rhs: Val) -> Val {
        b.put1(anchor, arith::cmpi(b.context, predicate, v(lhs), v(rhs), b.location))
    }

    /// The rewrite of the module doc, for the remainder `remainder` of this loop.
    fn rewrite(&self, context: &Context, remainder: Op) {
        let lp = self.lp;
        // SAFETY: the location of a live op, owned by the context.
        let b = Builder { context, location: unsafe { Location::from_raw(ir::location(lp)) } };
        let bounds = ir::operands(lp);
        let rank = bounds.len() / 3;
        let (lowers, uppers, loop_steps) = (&bounds[..rank], &bounds[rank..2 * rank], &bounds[2 * rank..]);
        let d = self.dimension;
        let (lower, upper, one) = (lowers[d], uppers[d], loop_steps[d]);
        let zero = b.constant_index(lp, 0);
        let divisor = self.divisor.build(&b, lp);

        // The guard.
        let non_negative = self.compare(&b, lp, CmpiPredicate::Sge, lower, zero);
        let non_empty = self.compare(&b, lp, CmpiPredicate::Slt, lower, upper);
        let last = b.binary(lp, arith::subi, upper, one);
        let exact = self.exact(&b, lp, last);
        let least = b.constant_index(lp, self.least_divisor);
        let large = self.compare(&b, lp, CmpiPredicate::Uge, divisor, least);
        let mut guard = b.binary(lp, arith::andi, non_negative, non_empty);
        guard = b.binary(lp, arith::andi, guard, large);
        guard = b.binary(lp, arith::andi, guard, exact);
        let (_, then_yield, else_yield) = b.if_else(lp, guard, &[]);

        // The chunks.
        let span = b.binary(then_yield, arith::subi, upper, lower);
        let chunk = b.constant_index(then_yield, self.chunk);
        let chunks = {
            // ⌈span / C⌉ as ⌊(span − 1) / C⌋ + 1 (span ≥ 1 under the guard), which cannot wrap.
            let before = b.binary(then_yield, arith::subi, span, one);
            let full = b.binary(then_yield, arith::divui, before, chunk);
            b.binary(then_yield, arith::addi, full, one)
        };
        // The other dimensions as they were; this one over the chunks.
        let (mut chunk_lowers, mut chunk_uppers) = (lowers.to_vec(), uppers.to_vec());
        (chunk_lowers[d], chunk_uppers[d]) = (zero, chunks);
        let (_, ivs, chunk_end) = b.parallel_range(then_yield, &chunk_lowers, &chunk_uppers, loop_steps, &[]);
        let k = ivs[d];
        let offset = b.binary(chunk_end, arith::muli, k, chunk);
        let lo = b.binary(chunk_end, arith::addi, lower, offset);
        let lo_plus_chunk = b.binary(chunk_end, arith::addi, lo, chunk);
        let hi = b.binary(chunk_end, arith::minui, lo_plus_chunk, upper);
        let x0 = self.numerator(&b, chunk_end, lo);
        let r0 = b.binary(chunk_end, arith::remui, x0, divisor);
        let slope = b.constant_index(chunk_end, self.slope);
        let before_wrap = {
            let room = b.binary(chunk_end, arith::subi, divisor, r0);
            let room = b.binary(chunk_end, arith::subi, room, one);
            let steps = b.binary(chunk_end, arith::divui, room, slope);
            let steps = b.binary(chunk_end, arith::addi, steps, one);
            let length = b.binary(chunk_end, arith::subi, hi, lo);
            b.binary(chunk_end, arith::minui, length, steps)
        };
        let mid = b.binary(chunk_end, arith::addi, lo, before_wrap);
        let at_lo = b.binary(chunk_end, arith::muli, slope, lo);
        let base = b.binary(chunk_end, arith::subi, r0, at_lo);
        let wrapped_base = b.binary(chunk_end, arith::subi, base, divisor);

        // Where the remainder is in the body: its position in a pre-order walk, the same
        // in every clone.
        let position = ir::collect(lp, |_| true)
            .iter()
            .position(|op| ir::same_op(*op, remainder))
            .expect("the remainder is in its loop");
        for (from, to, base) in [(lo, mid, base), (mid, hi, wrapped_base)] {
            let (_, i, _, end) = b.for_range(chunk_end, [from, to, one], &[]);
            // SAFETY: a clone of a live op, linked right away before the new loop's end;
            // its body's ops are moved out below and the emptied clone erased.
            let clone = unsafe {
                let clone = mlirOperationClone(lp);
                mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(end), end, clone);
                clone
            };
            let cloned_remainder = ir::collect(clone, |_| true)[position];
            let body = ir::first_block(ir::region(clone, 0));
            for (e, argument) in ir::block_arguments(body).into_iter().enumerate() {
                ir::replace_uses_where(argument, if e == d { i } else { ivs[e] }, |_| true);
            }
            let ops = ir::block_ops(body);
            for op in &ops[..ops.len() - 1] {
                ir::move_before(*op, end);
            }
            let step = b.binary(cloned_remainder, arith::muli, slope, i);
            let replacement = b.binary(cloned_remainder, arith::addi, base, step);
            ir::replace_uses_where(ir::results(cloned_remainder)[0], replacement, |_| true);
            // SAFETY: the clone's body holds only its terminator, whose operands (none, or
            // none used elsewhere) die with it; the cloned remainder has no uses left.
            unsafe {
                ir::erase(cloned_remainder);
                ir::erase(clone);
            }
        }
        ir::move_before(lp, else_yield);
    }
}

fn v<'c>(raw: Val) -> melior::ir::Value<'c, 'static> {
    crate::to_loops::builder::v(raw)
}
