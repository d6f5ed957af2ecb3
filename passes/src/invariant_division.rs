//! `array-invariant-division`: an integer division or remainder inside a loop whose divisor
//! does not change in the loop becomes a multiplication by a precomputed reciprocal.
//!
//! Why: a 64-bit `div` costs tens of cycles, and LLVM replaces it by a multiplication only
//! when the divisor is a constant. Programs with dynamic shapes divide by values known
//! only at run time but fixed for a whole loop nest: `2i mod n` over an array of length n
//! (seed 000's backpermute), bins `x mod m` (the histogram), `x / Σxs` (seed 001's and 002's
//! normalise). XLA compiles for static shapes, so its divisors there are constants.
//!
//! The method is Granlund and Montgomery's (*Division by invariant integers using
//! multiplication*, PLDI 1994, Fig. 4.1), for unsigned N = 64-bit words: with
//! `l = ⌈log2 d⌉`, `m = ⌊2^64 (2^l − d) / d⌋ + 1`, `sh1 = min(l, 1)`, `sh2 = max(l − 1, 0)`,
//! for every `0 ≤ n < 2^64`:
//!
//! ```text
//! t = ⌊m n / 2^64⌋ (the high word of the product);  n / d = (t + ((n − t) >> sh1)) >> sh2
//! ```
//!
//! `m` fits in 64 bits (`2^l − d < d`, and the floor stays below `2^64 − 1`, so adding one
//! does not wrap). The remainder is `n − (n / d) d`. The signed forms go through the
//! unsigned quotient of the magnitudes: `divsi` is that quotient negated when the signs
//! differ (truncation towards zero), `remsi` is `x − (x divsi d) d`, and `floordivsi`
//! subtracts one from `divsi` when the remainder is non-zero and its sign differs from d's.
//!
//! `m`, `sh1` and `sh2` are computed once, before the outermost loop the divisor is defined
//! outside of, by the module's `@_fusion_division_magic` (one 128-bit division). That
//! computation never traps: a zero divisor is replaced by one there, and a loop that does
//! divide by zero has undefined behaviour in MLIR's `arith` semantics either way (the
//! reference interpreter reports it as an error).
//!
//! Rewritten: `arith.divui`, `remui`, `divsi`, `remsi` and `floordivsi` of scalar `i64` or
//! `index` (64 bits on the CPU targets, where the pass runs) whose divisor is not a
//! constant, inside `scf.for`, `scf.parallel`, `scf.forall` or `scf.while`. A divisor the
//! loop body computes from values defined outside it by casts and `dim`s (an array's
//! size asked for inside a combinator's body, as in the histogram) is first moved out of
//! the loop (`hoist_divisor`): the histogram's fused loop went from 58–61 ms to 24–27 ms
//! (`kernel-bench examples/seed000_histogram.mlir --elements 10000000 --fresh-pages`).
//! `tests/src/lowering.rs` compares the compiled results with Rust's own division on the
//! edge cases (divisors 1, powers of two, 2^63 ± 1, 2^64 − 1, negative ones, numerators at
//! the ends of the range).

use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_error};
use crate::ir::{self, Op, Val};
use melior::{
    Context,
    ir::{
        Identifier, Operation, OperationRef, Type,
        attribute::{FlatSymbolRefAttribute, IntegerAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
    },
};
use mlir_sys::*;
use std::collections::HashMap;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-invariant-division",
    description: "Integer divisions and remainders (divui, remui, divsi, remsi, floordivsi of i64 or index) inside loops, by a divisor that is not a constant but does not change in the loop, become multiplications by a reciprocal computed once before the loop (Granlund and Montgomery 1994)",
    anchor: Some("builtin.module"),
    dependent_dialects: &[mlirGetDialectHandle__arith__, mlirGetDialectHandle__math__, mlirGetDialectHandle__func__],
    options: &[],
    state: None,
    run,
};

/// The module function that computes `(m, sh1, sh2)` of a divisor.
const MAGIC: &str = "_fusion_division_magic";

const DIVISIONS: [&str; 5] = ["arith.divui", "arith.remui", "arith.divsi", "arith.remsi", "arith.floordivsi"];
const LOOPS: [&str; 4] = ["scf.for", "scf.parallel", "scf.forall", "scf.while"];

fn run<'c>(context: &'c Context, module: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let divisions = ir::collect(module.to_raw(), |op| DIVISIONS.contains(&ir::op_name(op).as_str()));
    let mut rewritten = 0;
    // One reciprocal per divisor and loop it is hoisted before.
    let mut magic: HashMap<(usize, usize, bool), Magic> = HashMap::new();
    for division in divisions {
        let name = ir::op_name(division);
        let operands = ir::operands(division);
        let (x, d) = (operands[0], operands[1]);
        let Some(word) = Word::of(ir::value_type(d)) else { continue };
        if ir::int_constant(d).is_some() {
            continue; // LLVM divides by constants with multiplications already.
        }
        hoist_divisor(division, d);
        let Some(before) = hoisting_point(division, d) else { continue };
        let signed = name != "arith.divui" && name != "arith.remui";
        let b = Builder::new(context, division);
        let m = *magic.entry((before.ptr as usize, d.ptr as usize, signed)).or_insert_with(|| {
            let hb = Builder::new(context, before);
            let d64 = hb.to_i64(before, d, word, signed);
            let magnitude = if signed { hb.magnitude(before, d64) } else { d64 };
            let call = hb.put(
                before,
                OperationBuilder::new("func.call", hb.location())
                    .add_operands(&[v(magnitude)])
                    .add_results(&[hb.i64(), hb.i64(), hb.i64()])
                    .add_attributes(&[(
                        Identifier::new(context, "callee"),
                        FlatSymbolRefAttribute::new(context, MAGIC).into(),
                    )])
                    .build()
                    .expect("valid func.call"),
            );
            let r = ir::results(call);
            Magic { divisor: d64, magnitude, m: r[0], sh1: r[1], sh2: r[2] }
        });
        let x64 = b.to_i64(division, x, word, signed);
        let result = if signed {
            let ux = b.magnitude(division, x64);
            let uq = b.quotient(division, ux, &m);
            let zero = b.constant(division, 0);
            let differ = b.binary(division, "arith.xori", x64, m.divisor);
            let negative = b.compare(division, 2, differ, zero); // slt
            let negated = b.binary(division, "arith.subi", zero, uq);
            let q = b.select(division, negative, negated, uq);
            let qd = b.binary(division, "arith.muli", q, m.divisor);
            let r = b.binary(division, "arith.subi", x64, qd);
            match name.as_str() {
                "arith.divsi" => q,
                "arith.remsi" => r,
                _ => {
                    // floordivsi: one less where the remainder is non-zero and its sign
                    // differs from the divisor's.
                    let nonzero = b.compare(division, 1, r, zero); // ne
                    let signs = b.binary(division, "arith.xori", r, m.divisor);
                    let opposite = b.compare(division, 2, signs, zero);
                    let adjust = b.binary(division, "arith.andi", nonzero, opposite);
                    let one = b.constant(division, 1);
                    let less = b.binary(division, "arith.subi", q, one);
                    b.select(division, adjust, less, q)
                }
            }
        } else {
            let q = b.quotient(division, x64, &m);
            if name == "arith.divui" {
                q
            } else {
                let qd = b.binary(division, "arith.muli", q, m.magnitude);
                b.binary(division, "arith.subi", x64, qd)
            }
        };
        let result = b.cast_from_i64(division, result, word, ir::value_type(ir::results(division)[0]));
        ir::replace_uses_where(ir::results(division)[0], result, |_| true);
        // SAFETY: the division's only result has no uses left.
        unsafe { ir::erase(division) };
        rewritten += 1;
    }
    if rewritten > 0 { define_magic(context, module) } else { Ok(()) }
}

/// The reciprocal of one divisor (`divisor` as i64, `magnitude` its absolute value for the
/// signed forms, the divisor itself for the unsigned ones).
#[derive(Clone, Copy)]
struct Magic {
    divisor: Val,
    magnitude: Val,
    m: Val,
    sh1: Val,
    sh2: Val,
}

#[derive(Clone, Copy, PartialEq)]
enum Word {
    I64,
    Index,
}

impl Word {
    fn of(t: MlirType) -> Option<Word> {
        // SAFETY: a live type.
        unsafe {
            if mlirTypeIsAIndex(t) {
                Some(Word::Index)
            } else if mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64 {
                Some(Word::I64)
            } else {
                None
            }
        }
    }
}

/// The ops a divisor computed inside a loop may be moved out of it through: each computes
/// the same value wherever it runs, from its operands alone, and cannot trap (a `dim` only
/// with a constant index below its operand's rank, see [`movable`]).
const MOVABLE: [&str; 8] = [
    "arith.constant",
    "arith.index_cast",
    "arith.index_castui",
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "tensor.dim",
    "memref.dim",
];

/// Moves the ops computing `divisor` out of the loops around `division`, innermost first,
/// as far as they are [`MOVABLE`] with operands from outside the loop: a divisor such as
/// `index_cast(tensor.dim %xs, 0)`, which `array-to-loops` computes in the body where a
/// combinator asks for its argument's size (the histogram's `x mod size(xs)`), is then
/// defined outside the loop, and the division is rewritten.
///
/// Why this changes no value: each moved op computes the same result from the same
/// operands wherever it runs, and none can trap or has an effect, so computing it once
/// before the loop, where it dominates every former use, is the same as computing it in
/// every iteration (also when the loop runs no iteration).
fn hoist_divisor(division: Op, divisor: Val) {
    let mut current = ir::parent_op(division);
    while let Some(op) = current {
        let name = ir::op_name(op);
        if name == "func.func" || name == "builtin.module" {
            return;
        }
        if LOOPS.contains(&name.as_str()) {
            let mut chain = Vec::new();
            if !movable(divisor, op, &mut chain) {
                return;
            }
            for moved in chain {
                ir::move_before(moved, op);
            }
        }
        current = ir::parent_op(op);
    }
}

/// Whether `value` is defined outside `lp` or by [`MOVABLE`] ops whose operands are; the
/// ops to move, operands before users, are added to `chain`.
fn movable(value: Val, lp: Op, chain: &mut Vec<Op>) -> bool {
    if ir::defined_outside(value, lp) {
        return true;
    }
    let Some(op) = ir::defining_op(value) else { return false };
    let name = ir::op_name(op);
    if !MOVABLE.contains(&name.as_str()) {
        return false;
    }
    let operands = ir::operands(op);
    if name.ends_with(".dim") {
        // SAFETY: a live value's type.
        let rank = unsafe {
            let t = ir::value_type(operands[0]);
            if !mlirTypeIsARankedTensor(t) && !mlirTypeIsAMemRef(t) {
                return false;
            }
            mlirShapedTypeGetRank(t)
        };
        if !ir::int_constant(operands[1]).is_some_and(|k| (0..rank).contains(&k)) {
            return false;
        }
    }
    if !operands.into_iter().all(|o| movable(o, lp, chain)) {
        return false;
    }
    if !chain.iter().any(|c| ir::same_op(*c, op)) {
        chain.push(op);
    }
    true
}

/// The outermost loop around `division` that `divisor` is defined outside of, if any.
fn hoisting_point(division: Op, divisor: Val) -> Option<Op> {
    let mut found = None;
    let mut current = ir::parent_op(division);
    while let Some(op) = current {
        let name = ir::op_name(op);
        if name == "func.func" || name == "builtin.module" {
            break;
        }
        if LOOPS.contains(&name.as_str()) {
            if !ir::defined_outside(divisor, op) {
                break;
            }
            found = Some(op);
        }
        current = ir::parent_op(op);
    }
    found
}

fn v(x: Val) -> melior::ir::Value<'static, 'static> {
    // SAFETY: a live value of the module being rewritten.
    unsafe { melior::ir::Value::from_raw(x) }
}

struct Builder<'c> {
    context: &'c Context,
    location: MlirLocation,
}

impl<'c> Builder<'c> {
    fn new(context: &'c Context, at: Op) -> Self {
        Builder { context, location: ir::location(at) }
    }

    fn location(&self) -> melior::ir::Location<'c> {
        // SAFETY: the location of a live op, owned by the context.
        unsafe { melior::ir::Location::from_raw(self.location) }
    }

    fn i64(&self) -> Type<'c> {
        IntegerType::new(self.context, 64).into()
    }

    fn put(&self, anchor: Op, op: Operation<'c>) -> Op {
        let raw = op.into_raw();
        // SAFETY: `anchor` is live and in a block; ownership of `raw` passes to the block.
        unsafe { mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor), anchor, raw) };
        raw
    }

    fn put1(&self, anchor: Op, op: Operation<'c>) -> Val {
        ir::results(self.put(anchor, op))[0]
    }

    fn constant(&self, anchor: Op, value: i64) -> Val {
        self.put1(
            anchor,
            OperationBuilder::new("arith.constant", self.location())
                .add_attributes(&[(
                    Identifier::new(self.context, "value"),
                    IntegerAttribute::new(self.i64(), value).into(),
                )])
                .add_results(&[self.i64()])
                .build()
                .expect("valid arith.constant"),
        )
    }

    fn binary(&self, anchor: Op, name: &str, a: Val, b: Val) -> Val {
        // SAFETY: a live value's type.
        let t = unsafe { Type::from_raw(ir::value_type(a)) };
        self.put1(
            anchor,
            OperationBuilder::new(name, self.location())
                .add_operands(&[v(a), v(b)])
                .add_results(&[t])
                .build()
                .expect("valid binary arith op"),
        )
    }

    /// `arith.cmpi` with MLIR's predicate number (1 ne, 2 slt).
    fn compare(&self, anchor: Op, predicate: i64, a: Val, b: Val) -> Val {
        let i1: Type = IntegerType::new(self.context, 1).into();
        let i64t = self.i64();
        self.put1(
            anchor,
            OperationBuilder::new("arith.cmpi", self.location())
                .add_operands(&[v(a), v(b)])
                .add_attributes(&[(
                    Identifier::new(self.context, "predicate"),
                    IntegerAttribute::new(i64t, predicate).into(),
                )])
                .add_results(&[i1])
                .build()
                .expect("valid arith.cmpi"),
        )
    }

    fn select(&self, anchor: Op, condition: Val, a: Val, b: Val) -> Val {
        // SAFETY: a live value's type.
        let t = unsafe { Type::from_raw(ir::value_type(a)) };
        self.put1(
            anchor,
            OperationBuilder::new("arith.select", self.location())
                .add_operands(&[v(condition), v(a), v(b)])
                .add_results(&[t])
                .build()
                .expect("valid arith.select"),
        )
    }

    /// |x| as an unsigned word (|−2^63| = 2^63).
    fn magnitude(&self, anchor: Op, x: Val) -> Val {
        let zero = self.constant(anchor, 0);
        let negative = self.compare(anchor, 2, x, zero);
        let negated = self.binary(anchor, "arith.subi", zero, x);
        self.select(anchor, negative, negated, x)
    }

    /// ⌊a b / 2^64⌋ for unsigned words a and b, from their 32-bit halves:
    /// with a = 2^32 a₁ + a₀ and b = 2^32 b₁ + b₀, every partial product aᵢ bⱼ is below
    /// 2^64, `mid` = ⌊a₀b₀ / 2^32⌋ + (a₀b₁ mod 2^32) + (a₁b₀ mod 2^32) < 3 · 2^32 does
    /// not wrap, and ⌊ab / 2^64⌋ = a₁b₁ + ⌊a₀b₁ / 2^32⌋ + ⌊a₁b₀ / 2^32⌋ + ⌊mid / 2^32⌋
    /// (the low 32 bits of ab are those of a₀b₀; the next 32 are those of `mid`).
    ///
    /// Why not `arith.mului_extended`: LLVM turns that into a 128-bit multiplication,
    /// which AVX2 has no vector form of, so a loop that divides stayed scalar (seed 000's
    /// backpermute, `2i mod n`, ran at about 2.7 ns an element). Multiplications of 32-bit
    /// halves in 64-bit lanes are `vpmuludq`, so the loop vectorises.
    fn high_word(&self, anchor: Op, a: Val, b: Val) -> Val {
        let low_mask = self.constant(anchor, 0xffff_ffff);
        let thirty_two = self.constant(anchor, 32);
        let halves = |x: Val| {
            (self.binary(anchor, "arith.andi", x, low_mask), self.binary(anchor, "arith.shrui", x, thirty_two))
        };
        let ((a0, a1), (b0, b1)) = (halves(a), halves(b));
        let product = |x: Val, y: Val| self.binary(anchor, "arith.muli", x, y);
        let (p00, p01, p10, p11) = (product(a0, b0), product(a0, b1), product(a1, b0), product(a1, b1));
        let (p00_high, p01_low, p01_high) = (
            self.binary(anchor, "arith.shrui", p00, thirty_two),
            self.binary(anchor, "arith.andi", p01, low_mask),
            self.binary(anchor, "arith.shrui", p01, thirty_two),
        );
        let (p10_low, p10_high) =
            (self.binary(anchor, "arith.andi", p10, low_mask), self.binary(anchor, "arith.shrui", p10, thirty_two));
        let mid = self.binary(anchor, "arith.addi", p00_high, p01_low);
        let mid = self.binary(anchor, "arith.addi", mid, p10_low);
        let mid_high = self.binary(anchor, "arith.shrui", mid, thirty_two);
        let high = self.binary(anchor, "arith.addi", p11, p01_high);
        let high = self.binary(anchor, "arith.addi", high, p10_high);
        self.binary(anchor, "arith.addi", high, mid_high)
    }

    /// ⌊n / d⌋ for unsigned n, from d's reciprocal.
    fn quotient(&self, anchor: Op, n: Val, m: &Magic) -> Val {
        let t = self.high_word(anchor, m.m, n);
        let rest = self.binary(anchor, "arith.subi", n, t);
        let half = self.binary(anchor, "arith.shrui", rest, m.sh1);
        let sum = self.binary(anchor, "arith.addi", t, half);
        self.binary(anchor, "arith.shrui", sum, m.sh2)
    }

    fn cast(&self, anchor: Op, name: &str, x: Val, to: Type<'c>) -> Val {
        self.put1(
            anchor,
            OperationBuilder::new(name, self.location())
                .add_operands(&[v(x)])
                .add_results(&[to])
                .build()
                .expect("valid cast"),
        )
    }

    fn to_i64(&self, anchor: Op, x: Val, word: Word, signed: bool) -> Val {
        match word {
            Word::I64 => x,
            Word::Index => {
                self.cast(anchor, if signed { "arith.index_cast" } else { "arith.index_castui" }, x, self.i64())
            }
        }
    }

    fn cast_from_i64(&self, anchor: Op, x: Val, word: Word, t: MlirType) -> Val {
        match word {
            Word::I64 => x,
            // SAFETY: the live result type of the division.
            Word::Index => self.cast(anchor, "arith.index_cast", x, unsafe { Type::from_raw(t) }),
        }
    }
}

/// Appends `@_fusion_division_magic` to the module (once).
fn define_magic<'c>(context: &'c Context, module: OperationRef<'c, '_>) -> Result<(), PassFailed> {
    if ir::module_symbols(module.to_raw()).iter().any(|s| s == MAGIC) {
        return Ok(());
    }
    ir::append_parsed(context, module.to_raw(), MAGIC_FUNCTION).ok_or_else(|| {
        emit_error(
            module.location(),
            "array-invariant-division: internal error: the reciprocal function does not parse",
        );
        PassFailed
    })
}

/// `(m, sh1, sh2)` of an unsigned divisor d (see the module doc); d = 0 is treated as 1.
const MAGIC_FUNCTION: &str = r#"func.func private @_fusion_division_magic(%divisor: i64) -> (i64, i64, i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %zero = arith.cmpi eq, %divisor, %c0 : i64
  %d = arith.select %zero, %c1, %divisor : i64
  %d_less_one = arith.subi %d, %c1 : i64
  %leading = math.ctlz %d_less_one : i64
  %l = arith.subi %c64, %leading : i64
  %positive = arith.cmpi ugt, %l, %c0 : i64
  %l_less_one = arith.subi %l, %c1 : i64
  %sh2 = arith.select %positive, %l_less_one, %c0 : i64
  %sh1 = arith.select %positive, %c1, %c0 : i64
  %half = arith.shli %c1, %sh2 : i64
  %below = arith.subi %half, %d : i64
  %a_wrapped = arith.addi %below, %half : i64
  %a = arith.select %positive, %a_wrapped, %c0 : i64
  %a_wide = arith.extui %a : i64 to i128
  %c64_wide = arith.constant 64 : i128
  %numerator = arith.shli %a_wide, %c64_wide : i128
  %d_wide = arith.extui %d : i64 to i128
  %quotient = arith.divui %numerator, %d_wide : i128
  %floor = arith.trunci %quotient : i128 to i64
  %m = arith.addi %floor, %c1 : i64
  return %m, %sh1, %sh2 : i64, i64, i64
}
"#;
