//! `array-prefetch-rows`: a loop that reads whole rows of a buffer at row indices it loads
//! from memory (a fold fused into a gather: `bs[i] = Σ_j xs[is[i], j]`) prefetches the
//! next iteration's row while it reads the current one.
//!
//! Why: unfused, the fold streams its matrix once in storage order and the gather reads
//! a small array; fused (seed 000 §3.3, `simple4`), the loop reads the same rows in the
//! gather's random order. Within a row the hardware prefetcher streams, but every row
//! starts cold: a DRAM latency (and, on a virtual machine, a nested page walk) per row
//! that the unfused program pays once per stream. Measured on this project's 2-core EPYC
//! guest with 3162 rows of 3162 `i64`: the fused loop took 15–30 % longer than the
//! unfused pair, the same loop prefetching the next row as below took as long as the
//! unfused pair. LLVM does not prefetch for x86 on its own (`LoopDataPrefetch` runs for
//! a few other targets), and the row's address is data-dependent, so the prefetch is
//! placed here, where the loop nest still says which value is the row index.
//!
//! **The rewrite.** A `memref.load %X[r_1, …, r_k, j]` (rank ≥ 2) directly in the body of
//! an `scf.for` F over `j` with step 1, where F is directly in the body of a loop O
//! (`scf.for`, or a one-dimensional `scf.parallel`) with induction variable `i` and step
//! `s`, `X` is defined outside O, every `r_m` is defined outside F, and at least one `r_m`
//! is computed in O's body from a `memref.load` (the gathered row). Each `r_m` computed in
//! O's body must come from `i` and values defined outside O through *slice ops* of O's
//! body: `memref.load`s of buffers defined outside O whose indices depend on no other
//! load, and the `arith` ops that cannot trap (no division or remainder) and make no
//! poison without their overflow flags (no shifts). Then, before
//! F:
//!
//! ```text
//! n = i + s;  next = (n > i && n < ub(O)) ? n : i      // the next iteration, or this one
//! r'_m = the slice ops cloned with i := next (overflow flags dropped), clamped:
//!        minui(r'_m, dim(X, m) − 1)
//! scf.for jb = lb(F) to ub(F) step B iter_args(F's initial values) {
//!   c = lb(F) + (jb − lb(F)) / 8
//!   memref.prefetch X[r'_1, …, r'_k, minui(c + p·L, dim(X, k+1) − 1)], read, locality<3>
//!       for p = 0 … 7
//!   F with lb := jb, ub := min(jb + B, ub(F)), its initial values := the carried ones
//! }
//! ```
//!
//! with `B` the elements of 4 KiB and `L` those of a 64-byte cache line: per 4 KiB of the
//! current row, 512 bytes of the next one, so the prefetches run an eighth of a row ahead
//! and never more than the row loop reads. Spread out like this the next row's first
//! lines arrive while the current row is summed; prefetching a whole row at once (or
//! one line per element) measured slower than no prefetch at all, as the prefetches then
//! compete with the current row's stream.
//!
//! **Why the results do not change.** A prefetch has no effect on any value (it is a hint;
//! LLVM's `llvm.prefetch` may be dropped). The blocks `[jb, min(jb + B, ub))` for
//! `jb = lb, lb + B, …` cover `[lb, ub)` in order, each once, so F's iterations run in
//! their order with its carried values passed from block to block: the same ops on the
//! same values (the end `jb + B` is taken only when it does not wrap). The cloned slice
//! reads and computes only: its ops cannot trap nor make poison, and its loads are those
//! O's body makes,
//! unconditionally, at iteration `next`, which runs (it is `i` itself or the iteration
//! after it), with the same indices, as those indices depend on no loaded value; so they
//! are in bounds whenever the program's are. A loaded value may differ from the one the
//! program reads at `next` (O may store into the index buffer meanwhile): then a wrong row
//! is prefetched, which costs time only. Every prefetched index is clamped to its
//! dimension, and a prefetch runs only inside a block, where F reads `X` at least once,
//! so every dimension of `X` is at least 1 and the address is in the buffer.
//!
//! Each F is rewritten once (for its first load that qualifies). The pass runs in the CPU
//! pipelines after `array-reuse-buffers` (whose checks want the loops as `array-to-loops`
//! built them); the GPU pipelines leave the loops alone.

use crate::bridge::{PassDefinition, PassFailed, PassOptions};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::{Builder, v, vs};
use array_dialect::raw::string_ref;
use melior::{
    Context,
    dialect::arith::{self, CmpiPredicate},
    ir::{
        Identifier, Location, OperationRef,
        attribute::{BoolAttribute, IntegerAttribute},
        r#type::IntegerType,
    },
};
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-prefetch-rows",
    description: "A row loop (scf.for over the last index of a buffer) inside a loop whose iterations load the row index from memory (a fold fused into a gather) prefetches the next iteration's row while it reads the current one: the row loop runs in blocks of 4 KiB, each prefetching 512 bytes of the next row",
    anchor: Some("func.func"),
    dependent_dialects: &[mlirGetDialectHandle__arith__, mlirGetDialectHandle__scf__, mlirGetDialectHandle__memref__],
    options: &[],
    state: None,
    run,
};

/// The bytes of the current row per block, and of the next row prefetched per block.
const BLOCK_BYTES: i64 = 4096;
const LINE_BYTES: i64 = 64;
const LINES_PER_BLOCK: i64 = 8;

/// The `arith` ops a slice may hold: none of them traps, whatever its operands, and none
/// makes poison once its overflow flags are dropped (shifts do, by too large an amount).
const NON_TRAPPING: &[&str] = &[
    "arith.constant",
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.minui",
    "arith.maxui",
    "arith.minsi",
    "arith.maxsi",
    "arith.select",
    "arith.cmpi",
    "arith.index_cast",
    "arith.index_castui",
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
];

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    prefetch_rows(context, function.to_raw());
    Ok(())
}

/// Applies the rewrite of the module doc in `function`; returns how many row loops now
/// prefetch.
pub fn prefetch_rows(context: &Context, function: Op) -> usize {
    let loads = ir::collect(function, |op| ir::op_name(op) == "memref.load");
    let mut rewritten: Vec<Op> = Vec::new();
    for load in loads {
        let Some(row) = GatheredRow::of(load) else { continue };
        if rewritten.iter().any(|f| ir::same_op(*f, row.row_loop)) {
            continue;
        }
        row.rewrite(context);
        rewritten.push(row.row_loop);
    }
    rewritten.len()
}

/// A load of a gathered row, as the module doc requires it.
struct GatheredRow {
    buffer: Val,
    /// The load's indices but the last (the row).
    row: Vec<Val>,
    /// F, the loop over the row's elements.
    row_loop: Op,
    /// O, the loop around F, its induction variable, upper bound and step.
    outer: Op,
    induction: Val,
    upper: Val,
    step: Val,
    unsigned_compare: bool,
    /// The slice ops of O's body that compute `row`, in block order.
    slice: Vec<Op>,
    element_bytes: i64,
}

impl GatheredRow {
    fn of(load: Op) -> Option<GatheredRow> {
        let operands = ir::operands(load);
        let (&buffer, indices) = operands.split_first()?;
        let (&column, row) = indices.split_last()?;
        if row.is_empty() {
            return None;
        }
        let row_loop = ir::parent_op(load).filter(|f| ir::op_name(*f) == "scf.for")?;
        let bounds = ir::operands(row_loop);
        if ir::int_constant(bounds[2]) != Some(1) {
            return None;
        }
        if !ir::same_value(column, ir::block_arguments(ir::first_block(ir::region(row_loop, 0)))[0]) {
            return None;
        }
        let outer = ir::parent_op(row_loop)?;
        let outer_body = ir::first_block(ir::region(outer, 0));
        let outer_bounds = ir::operands(outer);
        let (induction, upper, step) = match ir::op_name(outer).as_str() {
            "scf.for" => (ir::block_arguments(outer_body)[0], outer_bounds[1], outer_bounds[2]),
            "scf.parallel" if ir::block_arguments(outer_body).len() == 1 => {
                (ir::block_arguments(outer_body)[0], outer_bounds[1], outer_bounds[2])
            }
            _ => return None,
        };
        if !ir::defined_outside(buffer, outer) {
            return None;
        }
        let element_bytes = element_bytes(ir::value_type(buffer))?;
        let mut slice = Vec::new();
        let mut gathered = false;
        for &r in row {
            if !ir::defined_outside(r, row_loop) {
                return None;
            }
            gathered |= Slice { outer, body: outer_body, induction }.collect(r, &mut slice)?;
        }
        if !gathered {
            return None; // rows in the loop's own order: the hardware prefetcher streams them
        }
        let position = |op: &Op| ir::block_ops(outer_body).iter().position(|o| ir::same_op(*o, *op));
        slice.sort_by_key(position);
        Some(GatheredRow {
            buffer,
            row: row.to_vec(),
            row_loop,
            outer,
            induction,
            upper,
            step,
            unsigned_compare: ir::op_name(outer) == "scf.for" && ir::has_inherent_attribute(outer, "unsignedCmp"),
            slice,
            element_bytes,
        })
    }

    fn rewrite(&self, context: &Context) {
        let f = self.row_loop;
        // SAFETY: the location of a live op, owned by the context.
        let b = Builder { context, location: unsafe { Location::from_raw(ir::location(f)) } };
        let compare = |anchor: Op, signed: CmpiPredicate, unsigned: CmpiPredicate, lhs: Val, rhs: Val| {
            let predicate = if self.unsigned_compare { unsigned } else { signed };
            b.put1(anchor, arith::cmpi(context, predicate, v(lhs), v(rhs), b.location))
        };
        let select = |anchor: Op, condition: Val, yes: Val, no: Val| {
            b.put1(anchor, arith::select(v(condition), v(yes), v(no), b.location))
        };

        // Loop-invariant: the last index of every dimension, before O.
        let rank = self.row.len() + 1;
        let one = b.constant_index(self.outer, 1);
        let last: Vec<Val> = (0..rank)
            .map(|d| {
                let dim = b.memref_dim(self.outer, self.buffer, d);
                b.binary(self.outer, arith::subi, dim, one)
            })
            .collect();

        // The next iteration of O (this one at the last), and the row it reads.
        let following = b.binary(f, arith::addi, self.induction, self.step);
        let no_wrap = compare(f, CmpiPredicate::Sgt, CmpiPredicate::Ugt, following, self.induction);
        let inside = compare(f, CmpiPredicate::Slt, CmpiPredicate::Ult, following, self.upper);
        let valid = b.binary(f, arith::andi, no_wrap, inside);
        let next = select(f, valid, following, self.induction);
        let mut renamed: Vec<(Val, Val)> = vec![(self.induction, next)];
        for op in &self.slice {
            // SAFETY: a clone of a live op of O's body, linked at once before F; its
            // operands are renamed below to values that dominate F.
            let clone = unsafe {
                let clone = mlirOperationClone(*op);
                mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(f), f, clone);
                clone
            };
            // Wrapping arithmetic: a clone computes what its op computes where that is not
            // poison, and is never poison.
            if ir::has_inherent_attribute(clone, "overflowFlags") {
                // SAFETY: a live op; the attribute is parsed in its context.
                unsafe {
                    let none =
                        mlirAttributeParseGet(mlirOperationGetContext(clone), string_ref("#arith.overflow<none>"));
                    mlirOperationSetInherentAttributeByName(clone, string_ref("overflowFlags"), none);
                }
            }
            for (k, operand) in ir::operands(clone).into_iter().enumerate() {
                if let Some((_, to)) = renamed.iter().find(|(from, _)| ir::same_value(*from, operand)) {
                    // SAFETY: live op, an existing operand number.
                    unsafe { mlirOperationSetOperand(clone, k as isize, *to) };
                }
            }
            renamed.extend(ir::results(*op).into_iter().zip(ir::results(clone)));
        }
        let next_row: Vec<Val> = self
            .row
            .iter()
            .zip(&last)
            .map(|(r, last)| {
                let r = renamed.iter().find(|(from, _)| ir::same_value(*from, *r)).map_or(*r, |(_, to)| *to);
                b.binary(f, arith::minui, r, *last)
            })
            .collect();

        // F in blocks of BLOCK_BYTES.
        let bounds = ir::operands(f);
        let (lower, upper, unit) = (bounds[0], bounds[1], bounds[2]);
        let inits = &bounds[3..];
        let block = b.constant_index(f, (BLOCK_BYTES / self.element_bytes).max(1));
        let (blocks, start, carried, block_yield) = b.for_range(f, [lower, upper, block], inits);
        let end = {
            let sum = b.binary(block_yield, arith::addi, start, block);
            let no_wrap = compare(block_yield, CmpiPredicate::Sgt, CmpiPredicate::Ugt, sum, start);
            let below = compare(block_yield, CmpiPredicate::Slt, CmpiPredicate::Ult, sum, upper);
            let short = b.binary(block_yield, arith::andi, no_wrap, below);
            select(block_yield, short, sum, upper)
        };
        let ahead = {
            let done = b.binary(block_yield, arith::subi, start, lower);
            let eight = b.constant_index(block_yield, BLOCK_BYTES / (LINE_BYTES * LINES_PER_BLOCK));
            let part = b.binary(block_yield, arith::divui, done, eight);
            b.binary(block_yield, arith::addi, lower, part)
        };
        let line = (LINE_BYTES / self.element_bytes).max(1);
        for p in 0..LINES_PER_BLOCK {
            let offset = b.constant_index(block_yield, p * line);
            let column = b.binary(block_yield, arith::addi, ahead, offset);
            let column = b.binary(block_yield, arith::minui, column, last[rank - 1]);
            let mut at = next_row.clone();
            at.push(column);
            self.prefetch(&b, block_yield, &at);
        }
        for (old, new) in ir::results(f).into_iter().zip(ir::results(blocks)) {
            ir::replace_uses_where(old, new, |_| true);
        }
        ir::move_before(f, block_yield);
        let mut operands = vec![start, end, unit];
        operands.extend(carried);
        ir::set_operands(f, &operands);
        ir::set_operands(block_yield, &ir::results(f));
    }

    /// `memref.prefetch buffer[at], read, locality<3>, data` before `anchor`.
    fn prefetch(&self, b: &Builder, anchor: Op, at: &[Val]) {
        let mut operands = vec![self.buffer];
        operands.extend_from_slice(at);
        let i32 = IntegerType::new(b.context, 32).into();
        b.put(
            anchor,
            b.op("memref.prefetch")
                .add_operands(&vs(&operands))
                .add_attributes(&[
                    (Identifier::new(b.context, "isWrite"), BoolAttribute::new(b.context, false).into()),
                    (Identifier::new(b.context, "localityHint"), IntegerAttribute::new(i32, 3).into()),
                    (Identifier::new(b.context, "isDataCache"), BoolAttribute::new(b.context, true).into()),
                ])
                .build()
                .expect("valid memref.prefetch"),
        );
    }
}

/// The ops of O's body that compute a row index (module doc).
struct Slice {
    outer: Op,
    body: MlirBlock,
    induction: Val,
}

impl Slice {
    /// Adds the slice ops `value` needs to `ops`; whether it depends on a load; `None` when
    /// it is not computed by slice ops from `i` and values defined outside O.
    fn collect(&self, value: Val, ops: &mut Vec<Op>) -> Option<bool> {
        if ir::same_value(value, self.induction) || ir::defined_outside(value, self.outer) {
            return Some(false);
        }
        let op = ir::defining_op(value).filter(|op| ir::in_block(*op, self.body))?;
        let name = ir::op_name(op);
        let operands = ir::operands(op);
        let loaded = if name == "memref.load" {
            let (&source, indices) = operands.split_first()?;
            if !ir::defined_outside(source, self.outer) {
                return None;
            }
            for &index in indices {
                if self.collect(index, ops)? {
                    return None; // an index loaded meanwhile may be out of bounds early
                }
            }
            true
        } else if NON_TRAPPING.contains(&name.as_str()) {
            let mut loaded = false;
            for operand in operands {
                loaded |= self.collect(operand, ops)?;
            }
            loaded
        } else {
            return None;
        };
        if !ops.iter().any(|o| ir::same_op(*o, op)) {
            ops.push(op);
        }
        Some(loaded)
    }
}

/// The bytes of an element of a memref of integers, floats or indices (64-bit targets).
fn element_bytes(memref: MlirType) -> Option<i64> {
    // SAFETY: a live type, checked before reading.
    unsafe {
        let element = mlirShapedTypeGetElementType(memref);
        let bits = if mlirTypeIsAIndex(element) {
            64
        } else if mlirTypeIsAInteger(element) {
            mlirIntegerTypeGetWidth(element) as i64
        } else if mlirTypeIsAFloat(element) {
            mlirFloatTypeGetWidth(element) as i64
        } else {
            return None;
        };
        Some(((bits + 7) / 8).clamp(1, LINE_BYTES))
    }
}
