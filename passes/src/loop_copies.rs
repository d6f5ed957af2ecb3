//! `array-elide-loop-copies`: removes the whole-array copies that one-shot bufferization
//! puts before an `scf.condition`, where no array the loop carries is ever written once
//! it is carried.
//!
//! Why the copies are there: MLIR's one-shot bufferization lets the i-th result of an
//! `scf.while` alias only its i-th init, so when the `do` region yields anything but
//! buffers equivalent to its own i-th arguments, it copies every carried array into a
//! new buffer before each `scf.condition`. A loop that keeps its previous iterate, `(x,
//! old) → (step(x), x)` (seed 004's BFS, Listing 11, and its sieve), yields `x` in
//! the second position, so both arrays are copied on every test of the condition: two
//! extra passes over memory per iteration, and two when the loop does not run at all.
//!
//! When removing a copy is exact: a copy and its source differ only if one of them is
//! written while the other's contents are still needed. The pass removes the copies of a
//! loop only when no buffer the loop carries can be written from the time it is carried
//! on, which it proves from these conditions (each checked conservatively; any doubt
//! keeps the copies, with a remark saying which condition failed):
//!
//! 1. Inside the loop (both regions and, transitively, every function they call),
//!    every write goes to a buffer allocated inside the loop (`memref.alloc`/`alloca`
//!    nested in the `scf.while`) or inside the called function. Such a buffer is new in
//!    the region execution that writes it; it is carried only once that execution
//!    yields it (a yield ends the region), and from then on, by this same condition,
//!    nothing writes it. Writes through region arguments, loop results, call results
//!    or any other buffer whose allocation the analysis cannot see count as writes to
//!    anything.
//! 2. Every buffer the loop carries is one the function allocates: every init is a
//!    `memref.alloc` of the function (not an argument, which the caller may read or own,
//!    and not a constant global), and every value the regions pass on (`scf.condition`,
//!    `scf.yield`) is a buffer allocated inside the loop, one of the loop's own region
//!    arguments, or the result of a call that returns a new buffer or one of those
//!    (per callee: which of its results are new, which are its arguments). So the
//!    loop's results, which may now be those very buffers, stay within the function's
//!    own allocations (the deallocation pipeline then frees each once), and no buffer
//!    reachable otherwise (an argument, an array the function computed before the loop)
//!    is ever carried.
//! 3. After the loop, nothing writes an init, a result of the loop, or a buffer whose
//!    allocation the analysis cannot see. The loop must be in the function's top-level
//!    block or in a branch of an `scf.if` there (or of one in a branch of one there, …):
//!    a branch runs at most once, so what runs after the loop is what follows it in its
//!    block and each enclosing `scf.if` in its own. (A loop inside another loop would see
//!    its own earlier ops run again.)
//! 4. At most one result of the loop is used by anything but reads, likewise of each
//!    enclosing `scf.if` (a branch's yield may pass the loop's result on), and no init is
//!    used after the loop by anything but reads: results may now share a buffer with each
//!    other and with an init, and two of them returned would hand the caller one buffer
//!    twice. (An `scf.if` result that the other branch takes from an init is that init
//!    only on the path where the loop never ran.)
//!
//! Then every buffer holds the same values from the time it is carried until it is
//! freed, and a copy of it cannot be told apart from it. The pass runs between
//! `one-shot-bufferize` and `buffer-deallocation-pipeline` (`fusion_codegen`'s
//! pipelines), whose ownership analysis places the deallocations for the aliasing that
//! results.

use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_remark};
use crate::ir::{self, Op, Val};
use crate::parallel_forms::accesses::root;
use melior::{
    Context,
    ir::{Location, OperationRef},
};
use mlir_sys::*;
use std::collections::HashMap;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-elide-loop-copies",
    description: "After one-shot-bufferize: remove the copies of carried arrays it puts before an scf.condition when no buffer the loop carries is ever written once carried (inside the loop, its callees or after it); a loop whose copies stay gets a remark with the reason",
    anchor: Some("builtin.module"),
    dependent_dialects: &[],
    options: &[],
    state: None,
    run,
};

fn run<'c>(_: &'c Context, module: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let module = module.to_raw();
    let functions: Vec<Op> = ir::block_ops(ir::first_block(ir::region(module, 0)))
        .into_iter()
        .filter(|op| ir::op_name(*op) == "func.func")
        .collect();
    let mut summaries = Summaries { functions: &functions, known: HashMap::new() };
    for function in &functions {
        if !ir::has_body(*function) {
            continue;
        }
        for while_op in ir::collect(*function, |op| ir::op_name(op) == "scf.while") {
            let copies = copies_before_condition(while_op);
            if copies.is_empty() {
                continue;
            }
            // SAFETY: a live op of the module.
            let location = unsafe { Location::from_raw(ir::location(while_op)) };
            match removable(while_op, *function, &mut summaries) {
                Ok(()) => {
                    for copy in &copies {
                        copy.remove();
                    }
                }
                Err(reason) => emit_remark(
                    location,
                    &format!(
                        "array-elide-loop-copies: {} {} of carried arrays before 'scf.condition' stay: {reason}",
                        copies.len(),
                        if copies.len() == 1 { "copy" } else { "copies" }
                    ),
                ),
            }
        }
    }
    Ok(())
}

/// One operand of an `scf.condition` that is a copy made for it: `%dst = memref.alloc`,
/// `memref.copy %src, %dst`, `scf.condition(…) …, %dst, …`, all in the `before` block,
/// `%dst` used by nothing else.
struct ConditionCopy {
    condition: Op,
    operand: isize,
    alloc: Op,
    copy: Op,
    source: Val,
}

impl ConditionCopy {
    /// Passes the source on instead and erases the copy and its buffer.
    fn remove(&self) {
        // SAFETY: live ops; the condition operand is replaced first, so the buffer's only
        // remaining use is the copy, erased before the alloc.
        unsafe {
            mlirOperationSetOperand(self.condition, self.operand, self.source);
            ir::erase(self.copy);
            ir::erase(self.alloc);
        }
    }
}

fn copies_before_condition(while_op: Op) -> Vec<ConditionCopy> {
    let before = ir::first_block(ir::region(while_op, 0));
    let condition = ir::terminator(before);
    let mut found = Vec::new();
    for (index, value) in ir::operands(condition).into_iter().enumerate() {
        let Some(alloc) = ir::defining_op(value) else { continue };
        if ir::op_name(alloc) != "memref.alloc" || !ir::in_block(alloc, before) {
            continue;
        }
        let uses = ir::uses(value);
        let copy = uses.iter().find(|(user, at)| ir::op_name(*user) == "memref.copy" && *at == 1).map(|(u, _)| *u);
        let Some(copy) = copy else { continue };
        let only_these =
            uses.len() == 2 && uses.iter().any(|(user, at)| ir::same_op(*user, condition) && *at == index as isize);
        let source = ir::operands(copy)[0];
        if only_these && ir::in_block(copy, before) && ir::same_type(ir::value_type(source), ir::value_type(value)) {
            found.push(ConditionCopy { condition, operand: index as isize, alloc, copy, source });
        }
    }
    found
}

/// Why the copies of `while_op` must stay, if they must (conditions 1–4 of the module doc).
fn removable(while_op: Op, function: Op, summaries: &mut Summaries) -> Result<(), String> {
    let body = ir::first_block(ir::region(function, 0));
    // The loop and the `scf.if`s it is nested in, up to the function's top-level block.
    let mut chain = vec![while_op];
    let mut current = while_op;
    while !ir::in_block(current, body) {
        match ir::parent_op(current) {
            Some(parent) if ir::op_name(parent) == "scf.if" => {
                chain.push(parent);
                current = parent;
            }
            _ => {
                return Err(
                    "the loop is neither in its function's top-level block nor in a branch of an 'scf.if' there".into(),
                );
            }
        }
    }
    // 1. Inside the loop: only buffers allocated inside it are written.
    for op in ir::collect(while_op, |op| !ir::same_op(op, while_op)) {
        for target in summaries.written_by(op) {
            let inside = match target {
                Target::Buffer(Origin::Alloc(alloc)) => ir::is_within(alloc, while_op),
                _ => false,
            };
            if !inside {
                return Err(format!("'{}' inside the loop may write a buffer allocated outside it", ir::op_name(op)));
            }
        }
    }
    // 2. Every init is allocated by the function, and every value passed on comes from
    //    inside the loop.
    let mut inits = Vec::new();
    for init in ir::operands(while_op).into_iter().filter(|v| ir::is_memref(*v)) {
        match origin(init) {
            Origin::Alloc(alloc) => inits.push(alloc),
            _ => return Err("an init of the loop is not a buffer the function allocates".into()),
        }
    }
    for r in 0..2 {
        let terminator = ir::terminator(ir::first_block(ir::region(while_op, r)));
        for value in ir::operands(terminator).into_iter().filter(|v| ir::is_memref(*v)) {
            if !summaries.comes_from_inside(value, while_op) {
                return Err(format!(
                    "'{}' passes on a buffer that may come from outside the loop",
                    ir::op_name(terminator)
                ));
            }
        }
    }
    // 3. After the loop: no write to an init, a result, or a buffer of unknown origin.
    //    A branch of an `scf.if` runs at most once, so what runs after the loop is what
    //    follows it in its block and what follows each enclosing `scf.if` in its block.
    let after: Vec<Op> = chain
        .iter()
        .flat_map(|op| {
            // SAFETY: a live op.
            let block = unsafe { mlirOperationGetBlock(*op) };
            ir::block_ops(block).into_iter().skip_while(|other| !ir::same_op(*other, *op)).skip(1)
        })
        .collect();
    for op in after.iter().flat_map(|top| ir::collect(*top, |_| true)) {
        for target in summaries.written_by(op) {
            let harmless = match target {
                Target::Buffer(Origin::Alloc(alloc)) => !inits.iter().any(|i| ir::same_op(*i, alloc)),
                Target::Buffer(Origin::Argument(_)) => true,
                _ => false,
            };
            if !harmless {
                return Err(format!("'{}' after the loop may write an array the loop carried", ir::op_name(op)));
            }
        }
    }
    // 4. At most one result leaves through anything but reads: of the loop, and of each
    //    enclosing `scf.if`, whose results its branches' yields may take from the loop's.
    for op in &chain {
        let escaping = ir::results(*op)
            .into_iter()
            .filter(|r| {
                ir::is_memref(*r) && ir::uses(*r).iter().any(|(user, _)| !READS.contains(&ir::op_name(*user).as_str()))
            })
            .count();
        if escaping > 1 {
            let what = if ir::same_op(*op, while_op) { "the loop" } else { "an 'scf.if' around the loop" };
            return Err(format!("{escaping} results of {what} are used by more than reads"));
        }
    }
    let after_loop = |user: Op| after.iter().any(|top| ir::is_within(user, *top));
    for alloc in &inits {
        let used_after = ir::results(*alloc)
            .into_iter()
            .flat_map(ir::uses)
            .any(|(user, _)| after_loop(user) && !READS.contains(&ir::op_name(user).as_str()));
        if used_after {
            return Err("an init of the loop is used after it by more than reads".into());
        }
    }
    Ok(())
}

/// Where a buffer comes from, as far as a walk back through views sees.
#[derive(Clone, Copy)]
enum Origin {
    /// A `memref.alloc` or `memref.alloca` (the op).
    Alloc(Op),
    /// Argument i of the function's entry block.
    Argument(usize),
    /// Anything else: a region argument, a loop or call result, a global.
    Unknown,
}

fn origin(buffer: Val) -> Origin {
    let base = root(buffer);
    if let Some(op) = ir::defining_op(base) {
        return match ir::op_name(op).as_str() {
            "memref.alloc" | "memref.alloca" => Origin::Alloc(op),
            _ => Origin::Unknown,
        };
    }
    // SAFETY: a block argument of a live block.
    let (block, owner) = unsafe {
        let block = mlirBlockArgumentGetOwner(base);
        (block, mlirBlockGetParentOperation(block))
    };
    let entry_of_function = !owner.ptr.is_null()
        && ir::op_name(owner) == "func.func"
        && ir::same_block(block, ir::first_block(ir::region(owner, 0)));
    if entry_of_function {
        // SAFETY: a block argument.
        Origin::Argument(unsafe { mlirBlockArgumentGetArgNumber(base) } as usize)
    } else {
        Origin::Unknown
    }
}

/// What an op may write.
#[derive(Clone, Copy)]
enum Target {
    Buffer(Origin),
    /// Memory the analysis cannot name (an unknown callee, a write inside a callee to
    /// something it did not allocate and was not passed).
    Anything,
}

/// Uses that only read a buffer, or only its shape or address.
const READS: &[&str] = &[
    "memref.load",
    "memref.dim",
    "memref.extract_strided_metadata",
    "memref.extract_aligned_pointer_as_index",
    "vector.load",
    "vector.transfer_read",
    "vector.maskedload",
    "vector.gather",
];

/// Ops that pass a buffer on without touching it (besides the views, `ir::VIEW_OPS`):
/// whatever they pass it to is a region argument or a result, whose writes count as
/// writes of unknown origin.
const FORWARDS: &[&str] = &[
    "scf.yield",
    "scf.condition",
    "scf.for",
    "scf.while",
    "scf.if",
    "scf.parallel",
    "scf.reduce",
    "scf.execute_region",
    "func.return",
];

/// Per function: which of its arguments it may write (directly or through its calls),
/// and whether it may write anything else it did not allocate.
struct Summaries<'f> {
    functions: &'f [Op],
    known: HashMap<String, Option<Summary>>,
}

#[derive(Clone)]
struct Summary {
    /// The arguments it may write.
    arguments: Vec<usize>,
    /// Whether it may write anything else it did not allocate.
    anything: bool,
    /// Per result: `Returned::New` (a buffer it allocated), `Returned::Argument(i)` (its
    /// argument i, through views at most) or `Returned::Unknown`.
    returns: Vec<Returned>,
}

#[derive(Clone, Copy, PartialEq)]
enum Returned {
    New,
    Argument(usize),
    Unknown,
}

impl Summaries<'_> {
    /// The buffers `op` itself may write (not counting ops nested in it; a call counts
    /// its callee's writes).
    fn written_by(&mut self, op: Op) -> Vec<Target> {
        let name = ir::op_name(op);
        let operands = ir::operands(op);
        if name == "func.call" {
            let summary = self.summary(&ir::callee(op));
            if summary.anything {
                return vec![Target::Anything];
            }
            return summary
                .arguments
                .iter()
                .filter_map(|i| operands.get(*i))
                .map(|v| Target::Buffer(origin(*v)))
                .collect();
        }
        if name.starts_with("func.call") || name == "llvm.call" {
            return vec![Target::Anything];
        }
        if READS.contains(&name.as_str()) || FORWARDS.contains(&name.as_str()) || ir::VIEW_OPS.contains(&name.as_str())
        {
            return Vec::new();
        }
        let copy_source = |index: usize| name == "memref.copy" && index == 0;
        operands
            .iter()
            .enumerate()
            .filter(|(index, v)| ir::is_memref(**v) && !copy_source(*index))
            .map(|(_, v)| Target::Buffer(origin(*v)))
            .collect()
    }

    /// The summary of function `symbol`; a function without a body, not in the module, or
    /// reached again while its own summary is being made (recursion) may write anything.
    fn summary(&mut self, symbol: &str) -> Summary {
        let anything = Summary { arguments: Vec::new(), anything: true, returns: Vec::new() };
        match self.known.get(symbol) {
            Some(Some(done)) => return done.clone(),
            Some(None) => return anything,
            None => {}
        }
        let Some(function) = self
            .functions
            .iter()
            .copied()
            .find(|f| ir::string_attribute_inherent(*f, "sym_name").as_deref() == Some(symbol))
        else {
            return anything;
        };
        if !ir::has_body(function) {
            return anything;
        }
        self.known.insert(symbol.to_owned(), None);
        let mut summary = Summary { arguments: Vec::new(), anything: false, returns: Vec::new() };
        for op in ir::collect(function, |op| !ir::same_op(op, function)) {
            for target in self.written_by(op) {
                match target {
                    Target::Buffer(Origin::Alloc(_)) => {}
                    Target::Buffer(Origin::Argument(i)) => {
                        if !summary.arguments.contains(&i) {
                            summary.arguments.push(i)
                        }
                    }
                    Target::Buffer(Origin::Unknown) | Target::Anything => summary.anything = true,
                }
            }
        }
        let returns = ir::collect(function, |op| ir::op_name(op) == "func.return");
        if let [exit] = returns[..] {
            summary.returns = ir::operands(exit)
                .into_iter()
                .map(|v| match origin(v) {
                    Origin::Alloc(alloc) if ir::op_name(alloc) == "memref.alloc" => Returned::New,
                    Origin::Argument(i) => Returned::Argument(i),
                    _ => Returned::Unknown,
                })
                .collect();
        }
        self.known.insert(symbol.to_owned(), Some(summary.clone()));
        summary
    }

    /// Whether buffer `value`, used inside `while_op`, is one allocated inside it, one of
    /// its region arguments, or the result of a call inside it that returns a new buffer
    /// or one of its operands that is such a buffer (condition 2 of the module doc).
    fn comes_from_inside(&mut self, value: Val, while_op: Op) -> bool {
        let base = root(value);
        match ir::defining_op(base) {
            Some(op) if ir::op_name(op) == "memref.alloc" => ir::is_within(op, while_op),
            Some(op) if ir::op_name(op) == "func.call" && ir::is_within(op, while_op) => {
                let index = ir::results(op).iter().position(|r| ir::same_value(*r, base)).expect("a result of op");
                let summary = self.summary(&ir::callee(op));
                match summary.returns.get(index) {
                    Some(Returned::New) => true,
                    Some(Returned::Argument(i)) => {
                        ir::operands(op).get(*i).is_some_and(|operand| self.comes_from_inside(*operand, while_op))
                    }
                    _ => false,
                }
            }
            Some(_) => false,
            None => {
                // SAFETY: a block argument of a live block.
                let owner = unsafe { mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(base)) };
                !owner.ptr.is_null() && ir::same_op(owner, while_op)
            }
        }
    }
}
