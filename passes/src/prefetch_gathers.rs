//! `array-prefetch-gathers`: a loop that reads a buffer at indices it loads from memory
//! (a gather, fused or not) prefetches what a later iteration will read: a gathered
//! element [`DISTANCE`] iterations ahead, a gathered row (a fold fused into a gather:
//! `bs[i] = Σ_j xs[is[i], j]`) one iteration ahead, while it reads the current one.
//!
//! Why: a random gather over an array larger than the caches is bound by memory latency,
//! and how many misses are in flight at once is what the out-of-order window finds.
//! Measured on this project's 2-core EPYC guest (10^7 `i64`, an 80 MB source): the loop
//! `out[i] = xs[is[i]]·2 + 1` took 104–166 ms over repeated runs and, prefetching
//! `xs[is[i + 32]]`, 102–111 ms; the fused gather then no longer lost to the unfused
//! pair, whose own gather reads an array the map has just written. A fused row gather
//! starts every row cold, where the unfused fold streams its matrix once in order: with
//! 3162 rows of 3162 `i64`, prefetching the next row as below made the fused loop about
//! 7 % faster. LLVM does not prefetch for x86 on its own (`LoopDataPrefetch` runs for a
//! few other targets), and these addresses are data-dependent, so the prefetches are
//! placed here, where the loop nest still says which values are loaded indices.
//!
//! **What is rewritten.** A `memref.load %X[x_1, …, x_k]` of a buffer `X` defined
//! outside a loop O (`scf.for`, or a one-dimensional `scf.parallel`) with induction
//! variable `i` and step `s`, where at least one `x_m` is computed in O's body from a
//! `memref.load` (the gathered index), and every `x_m` computed in O's body comes from
//! `i` and values defined outside O through *slice ops* of O's body: `memref.load`s of
//! buffers defined outside O whose indices depend on no other load, and the `arith` ops
//! that cannot trap (no division or remainder) and make no poison without their overflow
//! flags (no shifts). Two shapes:
//!
//! - *Element*: the load is directly in O's body. Before it:
//!
//!   ```text
//!   n = i + D·s;  later = (n > i && n < ub(O)) ? n : i     // D = DISTANCE
//!   x'_m = the slice ops cloned with i := later (overflow flags dropped), clamped:
//!          minui(x'_m, dim(X, m) − 1)
//!   memref.prefetch X[x'_1, …, x'_k], read, locality<3>, data
//!   ```
//!
//! - *Row*: the load is directly in the body of an `scf.for` F over `j` with step 1, F
//!   is directly in O's body, `x_k = j`, and `x_1 … x_{k−1}` (at least one, the row) are
//!   defined outside F. The row at `later` (D = 1) is computed as above before F, and F
//!   runs in blocks:
//!
//!   ```text
//!   scf.for jb = lb(F) to ub(F) step B iter_args(F's initial values) {
//!     c = lb(F) + (jb − lb(F)) / 8
//!     memref.prefetch X[x'_1, …, x'_{k−1}, minui(c + p·L, dim(X, k) − 1)] for p = 0 … 7
//!     F with lb := jb, ub := min(jb + B, ub(F)), its initial values := the carried ones
//!   }
//!   ```
//!
//!   with `B` the elements of 4 KiB and `L` those of a 64-byte cache line: per 4 KiB of
//!   the current row, 512 bytes of the next one, so the prefetches run an eighth of a row
//!   ahead. Measured in C on the 3162 × 3162 case (medians of 21, two runs: 6.9 ms
//!   without a prefetch, 5.1 ms for the unfused pair): this spread 5.3 ms; the next row's
//!   first 32 lines at the start of each row 5.7–6.0 ms; the whole next row spread over
//!   the current one 6.2–6.4 ms, its prefetches competing with the current row's
//!   stream. In the compiled loop a quarter of a row ahead measured slower than an
//!   eighth, and 256 bytes per 4 KiB no better.
//!
//! **Small sources.** A buffer that fits in the caches gains nothing from a prefetch and
//! pays for it: the prefetch and its index computation in every iteration, and LLVM no
//! longer vectorises the loop. Measured (`out[i] = t[is[i] & (2^k − 1)]·2 + 1` over 10^7
//! indices, fused, `kernel-bench --reps 11`, alternating runs with and without the pass):
//! a table of 32 KiB took 12–18 ms with prefetches against 10–13 ms without; 256 KiB
//! 14.0–16.6 against 14.9–15.1 ms; 1 MiB 17.1–21.0 against 17.4–20.0 ms; 4 MiB 20.5–23.8
//! against 20.7–25.9 ms; 16 MiB 62–71 against 92–97 ms. So a buffer of
//! fewer than [`MIN_SOURCE_BYTES`] (1 MiB) is not prefetched: one of static shape is left
//! alone, and a loop O that prefetches buffers of dynamic size (and none of static size
//! 1 MiB or more) is *versioned*: `scf.if (some such buffer has 1 MiB or more) { O with
//! its prefetches } else { O as it was }`, each branch yielding O's results. The
//! condition is loop-invariant and computed once before O; the plain copy is made before
//! any prefetch goes into O, outer loops before the loops inside them. Both branches run
//! O's ops on the same values, so the version taken changes only the time.
//!
//! **Why the results do not change.** A prefetch has no effect on any value (it is a
//! hint; LLVM's `llvm.prefetch` may be dropped). The blocks `[jb, min(jb + B, ub))` for
//! `jb = lb, lb + B, …` cover `[lb, ub)` in order, each once, so F's iterations run in
//! their order with its carried values passed from block to block: the same ops on the
//! same values (the end `jb + B` is taken only when it does not wrap). The cloned slice
//! reads and computes only: its ops cannot trap nor make poison, and its loads are those
//! O's body makes, unconditionally, at iteration `later`, which runs (it is `i` itself
//! or an iteration after it below the bound), with the same indices, as those indices
//! depend on no loaded value; so they are in bounds whenever the program's are. A loaded
//! value may differ from the one the program reads at `later` (O may store into the
//! index buffer meanwhile): then a wrong address is prefetched, which costs time only.
//! Every prefetched index is clamped to its dimension, and a prefetch runs only where the
//! program reads `X` (right before the element's load; inside a block, where F reads `X`
//! at least once), so every dimension of `X` is at least 1 and the address is in the
//! buffer.
//!
//! Each load and each F is rewritten once. The pass runs in the CPU pipelines after
//! `array-reuse-buffers` (whose checks want the loops as `array-to-loops` built them);
//! the GPU pipelines leave the loops alone.

use crate::bridge::{PassDefinition, PassFailed, PassOptions};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::{Builder, static_dim, ty, v, vs};
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
    argument: "array-prefetch-gathers",
    description: "A loop that reads a buffer at indices it loads from memory (a gather) prefetches what a later iteration reads: a gathered element 32 iterations ahead; a gathered row (an scf.for over the row's last index, a fold fused into a gather) one iteration ahead, the row loop running in blocks of 4 KiB that each prefetch 512 bytes of the next row. Buffers under 1 MiB are not prefetched; a loop over buffers of dynamic size is versioned on their size",
    anchor: Some("func.func"),
    dependent_dialects: &[mlirGetDialectHandle__arith__, mlirGetDialectHandle__scf__, mlirGetDialectHandle__memref__],
    options: &[],
    state: None,
    run,
};

/// How many iterations ahead a gathered element is prefetched: a DRAM latency is a few
/// hundred cycles and a gather iteration a few cycles, so an element 32 iterations on is
/// far enough to arrive in time and near enough to be in the cache still when it is
/// read (measured: 32 and 64 alike, both well ahead of none).
pub const DISTANCE: i64 = 32;

/// The fewest bytes a prefetched buffer has: smaller ones are read without prefetches
/// (module doc, *Small sources*).
pub const MIN_SOURCE_BYTES: i64 = 1 << 20;

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
    prefetch_gathers(context, function.to_raw());
    Ok(())
}

/// What the rewrite did in a function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prefetched {
    /// Loads of gathered elements now preceded by a prefetch.
    pub elements: usize,
    /// Row loops now prefetching the next row.
    pub rows: usize,
}

/// Applies the rewrite of the module doc in `function`.
pub fn prefetch_gathers(context: &Context, function: Op) -> Prefetched {
    let loads = ir::collect(function, |op| ir::op_name(op) == "memref.load");
    let mut elements: Vec<GatheredElement> = Vec::new();
    let mut rows: Vec<GatheredRow> = Vec::new();
    for load in loads {
        if let Some(element) = GatheredElement::of(load) {
            if source_size(element.buffer) != SourceSize::Small {
                elements.push(element);
            }
        } else if let Some(row) = GatheredRow::of(load)
            && !rows.iter().any(|r| ir::same_op(r.row_loop, row.row_loop))
            && source_size(row.buffer) != SourceSize::Small
        {
            rows.push(row);
        }
    }
    // The loops to version, outer ones first (a pre-order walk), each with the buffers
    // it prefetches: an outer loop's plain copy is then made before any loop inside it
    // is rewritten, so it holds none of the prefetches.
    let mut outers: Vec<(Op, Vec<Val>)> = Vec::new();
    let prefetched =
        elements.iter().map(|e| (e.ahead.outer, e.buffer)).chain(rows.iter().map(|r| (r.ahead.outer, r.buffer)));
    for (outer, buffer) in prefetched {
        match outers.iter_mut().find(|(o, _)| ir::same_op(*o, outer)) {
            Some((_, buffers)) => buffers.push(buffer),
            None => outers.push((outer, vec![buffer])),
        }
    }
    let order: Vec<Op> = ir::collect(function, |op| outers.iter().any(|(o, _)| ir::same_op(*o, op)));
    for outer in order {
        let (_, buffers) = outers.iter().find(|(o, _)| ir::same_op(*o, outer)).expect("collected above");
        if !buffers.iter().any(|b| source_size(*b) == SourceSize::Large) {
            version(context, outer, buffers);
        }
    }
    for element in &elements {
        element.rewrite(context);
    }
    for row in &rows {
        row.rewrite(context);
    }
    Prefetched { elements: elements.len(), rows: rows.len() }
}

/// Whether a prefetched buffer is at least [`MIN_SOURCE_BYTES`] large, as far as its
/// type says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SourceSize {
    Small,
    Large,
    /// A dynamic dimension: decided at run time ([`version`]).
    Dynamic,
}

/// The bytes [`source_size`] and [`version`] count an element of `buffer` as: 8 where
/// [`element_bytes`] does not know the type (complex numbers), which only moves the
/// threshold for such buffers.
fn guard_element_bytes(buffer: Val) -> i64 {
    element_bytes(ir::value_type(buffer)).unwrap_or(8)
}

fn source_size(buffer: Val) -> SourceSize {
    let t = ir::value_type(buffer);
    // SAFETY: a live memref type.
    let rank = unsafe { mlirShapedTypeGetRank(t) } as usize;
    let mut bytes = guard_element_bytes(buffer);
    for d in 0..rank {
        match static_dim(t, d) {
            Some(n) => bytes = bytes.saturating_mul(n),
            None => return SourceSize::Dynamic,
        }
    }
    if bytes >= MIN_SOURCE_BYTES { SourceSize::Large } else { SourceSize::Small }
}

/// Versions `outer` on the sizes of `buffers` (module doc, *Small sources*):
/// `scf.if (any buffer has MIN_SOURCE_BYTES or more) { outer } else { a copy of outer }`,
/// the copy made now, before the prefetches go into `outer`. The element count of a
/// buffer, the product of its dimensions, does not wrap: the buffer exists, so its
/// bytes fit in the address space.
fn version(context: &Context, outer: Op, buffers: &[Val]) {
    let b = builder_at(context, outer);
    let mut large: Option<Val> = None;
    for &buffer in buffers {
        // SAFETY: a live memref type.
        let rank = unsafe { mlirShapedTypeGetRank(ir::value_type(buffer)) } as usize;
        let mut count = b.constant_index(outer, 1);
        for d in 0..rank {
            let dim = b.memref_dim(outer, buffer, d);
            count = b.binary(outer, arith::muli, count, dim);
        }
        let element = guard_element_bytes(buffer);
        let least = b.constant_index(outer, (MIN_SOURCE_BYTES + element - 1) / element);
        let this = b.put1(outer, arith::cmpi(context, CmpiPredicate::Uge, v(count), v(least), b.location));
        large = Some(match large {
            None => this,
            Some(other) => b.binary(outer, arith::ori, other, this),
        });
    }
    let large = large.expect("a versioned loop prefetches some buffer");
    let types: Vec<_> = ir::results(outer).into_iter().map(|r| ty(ir::value_type(r))).collect();
    let (if_op, then_yield, else_yield) = b.if_else(outer, large, &types);
    for (old, new) in ir::results(outer).into_iter().zip(ir::results(if_op)) {
        ir::replace_uses_where(old, new, |_| true);
    }
    // SAFETY: a clone of a live op, linked at once into the else branch; its operands are
    // defined before `outer`, which the branch follows.
    let plain = unsafe {
        let plain = mlirOperationClone(outer);
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(else_yield), else_yield, plain);
        plain
    };
    ir::move_before(outer, then_yield);
    ir::set_operands(then_yield, &ir::results(outer));
    ir::set_operands(else_yield, &ir::results(plain));
}

/// A loop O whose body computes some indices of an access from loaded values: how to
/// compute those indices for a later iteration.
struct Ahead {
    outer: Op,
    induction: Val,
    upper: Val,
    step: Val,
    unsigned_compare: bool,
    /// The slice ops of O's body that compute the indices, in block order.
    slice: Vec<Op>,
    /// The most loads on a path from a load to an index (1: the indices are loaded
    /// values, 2: loaded at loaded indices, …).
    depth: usize,
}

impl Ahead {
    /// `indices` seen from `outer`: `None` unless each is computed from O's induction
    /// variable and values defined outside O by slice ops, and at least one from a load.
    fn of(outer: Op, indices: &[Val]) -> Option<Ahead> {
        let body = ir::first_block(ir::region(outer, 0));
        let bounds = ir::operands(outer);
        let (induction, upper, step) = match ir::op_name(outer).as_str() {
            "scf.for" => (ir::block_arguments(body)[0], bounds[1], bounds[2]),
            "scf.parallel" if ir::block_arguments(body).len() == 1 => {
                (ir::block_arguments(body)[0], bounds[1], bounds[2])
            }
            _ => return None,
        };
        let mut slice = Vec::new();
        let mut depth = 0;
        let ops = Slice { outer, body, induction, unchanged: unchanged_buffers(outer) };
        for &index in indices {
            depth = depth.max(ops.collect(index, &mut slice)?);
        }
        if depth == 0 {
            return None; // accesses in the loop's own order: the hardware prefetcher streams them
        }
        let position = |op: &Op| ir::block_ops(body).iter().position(|o| ir::same_op(*o, *op));
        slice.sort_by_key(position);
        Some(Ahead {
            outer,
            induction,
            upper,
            step,
            unsigned_compare: ir::op_name(outer) == "scf.for" && ir::has_inherent_attribute(outer, "unsignedCmp"),
            slice,
            depth,
        })
    }

    fn compare(&self, b: &Builder, anchor: Op, strict_greater: bool, lhs: Val, rhs: Val) -> Val {
        let predicate = match (strict_greater, self.unsigned_compare) {
            (true, false) => CmpiPredicate::Sgt,
            (true, true) => CmpiPredicate::Ugt,
            (false, false) => CmpiPredicate::Slt,
            (false, true) => CmpiPredicate::Ult,
        };
        b.put1(anchor, arith::cmpi(b.context, predicate, v(lhs), v(rhs), b.location))
    }

    /// Before `anchor`: `indices` at the iteration `distance` steps on (this one when
    /// that is past the loop's end), each clamped to `last` (unsigned).
    fn indices_at(&self, b: &Builder, anchor: Op, distance: i64, indices: &[Val], last: &[Val]) -> Vec<Val> {
        let stride = if distance == 1 {
            self.step
        } else {
            let d = b.constant_index(anchor, distance);
            b.binary(anchor, arith::muli, self.step, d)
        };
        let later = b.binary(anchor, arith::addi, self.induction, stride);
        let no_wrap = self.compare(b, anchor, true, later, self.induction);
        let inside = self.compare(b, anchor, false, later, self.upper);
        let valid = b.binary(anchor, arith::andi, no_wrap, inside);
        let later = b.put1(anchor, arith::select(v(valid), v(later), v(self.induction), b.location));
        let mut renamed: Vec<(Val, Val)> = vec![(self.induction, later)];
        for op in &self.slice {
            // SAFETY: a clone of a live op of O's body, linked at once before `anchor`
            // (in O's body too); its operands are renamed below to values defined before.
            let clone = unsafe {
                let clone = mlirOperationClone(*op);
                mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor), anchor, clone);
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
        indices
            .iter()
            .zip(last)
            .map(|(x, last)| {
                let x = renamed.iter().find(|(from, _)| ir::same_value(*from, *x)).map_or(*x, |(_, to)| *to);
                b.binary(anchor, arith::minui, x, *last)
            })
            .collect()
    }
}

/// The last index of every dimension of `buffer`, before `anchor`.
fn last_indices(b: &Builder, anchor: Op, buffer: Val) -> Vec<Val> {
    // SAFETY: a live memref type.
    let rank = unsafe { mlirShapedTypeGetRank(ir::value_type(buffer)) } as usize;
    let one = b.constant_index(anchor, 1);
    (0..rank)
        .map(|d| {
            let dim = b.memref_dim(anchor, buffer, d);
            b.binary(anchor, arith::subi, dim, one)
        })
        .collect()
}

/// `memref.prefetch buffer[at], read, locality<3>, data` before `anchor`.
fn prefetch(b: &Builder, anchor: Op, buffer: Val, at: &[Val]) {
    let mut operands = vec![buffer];
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

fn builder_at(context: &Context, op: Op) -> Builder<'_> {
    // SAFETY: the location of a live op, owned by the context.
    Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } }
}

/// A load of a gathered element (module doc, *Element*).
struct GatheredElement {
    load: Op,
    buffer: Val,
    indices: Vec<Val>,
    ahead: Ahead,
}

impl GatheredElement {
    fn of(load: Op) -> Option<GatheredElement> {
        let operands = ir::operands(load);
        let (&buffer, indices) = operands.split_first()?;
        let outer = ir::parent_op(load)?;
        if indices.is_empty() || !ir::defined_outside(buffer, outer) {
            return None;
        }
        let ahead = Ahead::of(outer, indices)?;
        Some(GatheredElement { load, buffer, indices: indices.to_vec(), ahead })
    }

    fn rewrite(&self, context: &Context) {
        let b = builder_at(context, self.load);
        let last = last_indices(&b, self.ahead.outer, self.buffer);
        // A chain of loads is prefetched in stages: the first index DISTANCE iterations
        // ahead (the element at it too, by its own prefetch), the element at a loaded
        // index DISTANCE / 2 ahead, whose index line the first prefetch brought, …
        let distance = (DISTANCE / self.ahead.depth as i64).max(1);
        let at = self.ahead.indices_at(&b, self.load, distance, &self.indices, &last);
        prefetch(&b, self.load, self.buffer, &at);
    }
}

/// A load of a gathered row (module doc, *Row*).
struct GatheredRow {
    buffer: Val,
    /// The load's indices but the last (the row).
    row: Vec<Val>,
    /// F, the loop over the row's elements.
    row_loop: Op,
    ahead: Ahead,
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
        if ir::int_constant(ir::operands(row_loop)[2]) != Some(1)
            || !ir::same_value(column, ir::block_arguments(ir::first_block(ir::region(row_loop, 0)))[0])
            || !row.iter().all(|r| ir::defined_outside(*r, row_loop))
        {
            return None;
        }
        let outer = ir::parent_op(row_loop)?;
        if !ir::defined_outside(buffer, outer) {
            return None;
        }
        let element_bytes = element_bytes(ir::value_type(buffer))?;
        let ahead = Ahead::of(outer, row)?;
        Some(GatheredRow { buffer, row: row.to_vec(), row_loop, ahead, element_bytes })
    }

    fn rewrite(&self, context: &Context) {
        let f = self.row_loop;
        let b = builder_at(context, f);
        let select = |anchor: Op, condition: Val, yes: Val, no: Val| {
            b.put1(anchor, arith::select(v(condition), v(yes), v(no), b.location))
        };
        let last = last_indices(&b, self.ahead.outer, self.buffer);
        let (last_column, last_row) = last.split_last().expect("rank 2 or more");
        let next_row = self.ahead.indices_at(&b, f, 1, &self.row, last_row);

        // F in blocks of BLOCK_BYTES.
        let bounds = ir::operands(f);
        let (lower, upper, unit) = (bounds[0], bounds[1], bounds[2]);
        let inits = &bounds[3..];
        let block = b.constant_index(f, (BLOCK_BYTES / self.element_bytes).max(1));
        let (blocks, start, carried, block_yield) = b.for_range(f, [lower, upper, block], inits);
        let end = {
            let sum = b.binary(block_yield, arith::addi, start, block);
            let no_wrap = self.ahead.compare(&b, block_yield, true, sum, start);
            let below = self.ahead.compare(&b, block_yield, false, sum, upper);
            let short = b.binary(block_yield, arith::andi, no_wrap, below);
            select(block_yield, short, sum, upper)
        };
        let first_column = {
            let done = b.binary(block_yield, arith::subi, start, lower);
            let eight = b.constant_index(block_yield, BLOCK_BYTES / (LINE_BYTES * LINES_PER_BLOCK));
            let part = b.binary(block_yield, arith::divui, done, eight);
            b.binary(block_yield, arith::addi, lower, part)
        };
        let line = (LINE_BYTES / self.element_bytes).max(1);
        for p in 0..LINES_PER_BLOCK {
            let offset = b.constant_index(block_yield, p * line);
            let column = b.binary(block_yield, arith::addi, first_column, offset);
            let column = b.binary(block_yield, arith::minui, column, *last_column);
            let mut at = next_row.clone();
            at.push(column);
            prefetch(&b, block_yield, self.buffer, &at);
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
}

/// The ops of O's body that compute an access's indices (module doc).
struct Slice {
    outer: Op,
    body: MlirBlock,
    induction: Val,
    /// Buffers O never writes and no other name of which it writes, if it writes only
    /// fresh allocations ([`unchanged_buffers`]).
    unchanged: Option<Vec<Val>>,
}

impl Slice {
    /// Adds the slice ops `value` needs to `ops`; the most loads on a path from a load to
    /// `value` (0: it depends on none); `None` when it is not computed by slice ops from
    /// `i` and values defined outside O.
    fn collect(&self, value: Val, ops: &mut Vec<Op>) -> Option<usize> {
        if ir::same_value(value, self.induction) || ir::defined_outside(value, self.outer) {
            return Some(0);
        }
        let op = ir::defining_op(value).filter(|op| ir::in_block(*op, self.body))?;
        let name = ir::op_name(op);
        let operands = ir::operands(op);
        let depth = if name == "memref.load" {
            let (&source, indices) = operands.split_first()?;
            if !ir::defined_outside(source, self.outer) {
                return None;
            }
            let mut deepest = 0;
            for &index in indices {
                deepest = deepest.max(self.collect(index, ops)?);
            }
            // A load at a loaded index reads, early, what the program reads later only
            // when O cannot change the buffers its index was loaded from meanwhile.
            if deepest > 0 && !self.loads_unchanged(indices) {
                return None;
            }
            deepest + 1
        } else if NON_TRAPPING.contains(&name.as_str()) {
            let mut deepest = 0;
            for operand in operands {
                deepest = deepest.max(self.collect(operand, ops)?);
            }
            deepest
        } else {
            return None;
        };
        if !ops.iter().any(|o| ir::same_op(*o, op)) {
            ops.push(op);
        }
        Some(depth)
    }

    /// Whether every load among the slice ops computing `values` reads a buffer O leaves
    /// unchanged.
    fn loads_unchanged(&self, values: &[Val]) -> bool {
        let Some(unchanged) = &self.unchanged else { return false };
        let mut pending = values.to_vec();
        while let Some(value) = pending.pop() {
            let Some(op) = ir::defining_op(value).filter(|op| ir::in_block(*op, self.body)) else { continue };
            let operands = ir::operands(op);
            if ir::op_name(op) == "memref.load" && !unchanged.iter().any(|u| ir::same_value(*u, operands[0])) {
                return false;
            }
            pending.extend(operands);
        }
        true
    }
}

/// The ops a loop may hold for [`unchanged_buffers`]: none writes memory but the stores
/// into fresh allocations that function checks (a prefetch is declared a write only to
/// keep it in place).
const READING: &[&str] = &[
    "memref.load",
    "memref.dim",
    "memref.prefetch",
    "scf.for",
    "scf.parallel",
    "scf.if",
    "scf.yield",
    "scf.reduce",
    "scf.reduce.return",
];

/// When every write inside `outer` is a `memref.store` into the result of a
/// `memref.alloc` of the function, and nothing else inside it writes memory: the buffers
/// read inside it that it leaves unchanged, those that are function arguments or
/// allocations it does not store into. (An allocation is memory no other buffer
/// overlaps; a store into one cannot reach an argument or another allocation.) `None`
/// otherwise.
fn unchanged_buffers(outer: Op) -> Option<Vec<Val>> {
    let mut stored: Vec<Val> = Vec::new();
    let mut read: Vec<Val> = Vec::new();
    for op in ir::collect(outer, |_| true) {
        let name = ir::op_name(op);
        let operands = ir::operands(op);
        match name.as_str() {
            "memref.store" => {
                let target = operands[1];
                ir::defining_op(target).filter(|d| ir::op_name(*d) == "memref.alloc")?;
                stored.push(target);
            }
            "memref.load" => read.push(operands[0]),
            _ if READING.contains(&name.as_str()) || name.starts_with("arith.") || name.starts_with("math.") => {}
            _ => return None,
        }
    }
    let fresh_or_argument = |buffer: Val| match ir::defining_op(buffer) {
        Some(d) => ir::op_name(d) == "memref.alloc",
        // SAFETY: a block argument of a live block.
        None => unsafe {
            let owner = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(buffer));
            !owner.ptr.is_null() && ir::op_name(owner) == "func.func"
        },
    };
    read.retain(|buffer| fresh_or_argument(*buffer) && !stored.iter().any(|s| ir::same_value(*s, *buffer)));
    Some(read)
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
