//! The reference interpreter of the `array` dialect: the oracle of differential tests
//! (interpreter vs. compiled unfused vs. compiled fused).
//!
//! It runs `func.func` bodies of a parsed and verified module directly from the ops'
//! semantics as `dialects/array/td/ArrayOps.td` documents them (not from any lowering),
//! together with the parts of `func`, `scf`, `cf` (branches), `arith`, `math`, `complex` and
//! `tensor` that the programs use. Fusion trees (`array.cluster`, `vertical`, `horizontal`,
//! `diagonal`) are run by running their regions, so a fused program and its unfused
//! equivalent give the same values.
//!
//! ```no_run
//! use fusion_interpreter::{Value, run_function};
//! let context = array_dialect::context();
//! let module = array_dialect::source::load_file(&context, "examples/seed001_normalize2.mlir".as_ref()).unwrap();
//! let results = run_function(&module, "normalize2", vec![Value::vector_i64(&[1, -2, 3])]).unwrap();
//! ```
//!
//! Errors never panic: undefined behaviour (division by zero, an index out of bounds,
//! poison of `arith` such as signed division overflow, shifts by the width or more,
//! out-of-range `fptosi`, negative sizes) stops the run with an [`InterpError`] naming the op
//! and its `file:line:col`, so a differential test can tell "no defined result" from a value.
//! Integers are two's complement at their width (`index` is 64 bits); floats are IEEE.
//!
//! # Semantics of the `array` ops
//!
//! Where the op descriptions leave room, the interpreter chooses (and its tests pin):
//!
//! * Element order: every combinator visits positions in row-major order of its iteration
//!   space, and region bodies are pure, so only `scatter`/`permute` can observe it: their
//!   `combine` is applied **sequentially in row-major source order**, each time to the
//!   destination's current element (`dest[t] = f(dest[t], values[s])`). For a
//!   non-commutative or non-associative combine the result is this sequential one; a
//!   parallel lowering may legitimately differ when several sources hit one target.
//! * `gather`/`scatter`/`backpermute`/`permute` index values may be `index` or any
//!   signless integer; they are read as **signed** numbers (an i8 index of 200 is -56,
//!   out of bounds). Any index outside its dimension is [`InterpError::OutOfBounds`].
//! * `permute`: the `index` region yields one destination index per destination
//!   dimension, optionally followed by an `i1` keep flag; an element whose flag is false
//!   is dropped *before* its target is checked (a dropped target may be anything).
//! * `fold`/`scan` reduce the innermost dimension for any rank >= 1; the body receives
//!   the accumulators then one element of each input. `scan exclusive`: element i is the
//!   combination of the initial value with the inputs strictly before i (`left`) or
//!   strictly after i (`right`); the first (`left`) or last (`right`) element is the
//!   initial value. `scan right` still passes (accumulator, element).
//! * `filter`: inputs must be vectors (rank 1) of one length; results keep input order.
//! * `expand`: the inputs (vectors of one length, as the verifier requires) are visited in
//!   order; segment lengths come from `count` (a negative count is undefined), segments are
//!   concatenated in input order; `count` runs before the `get`s of each element.
//! * `map`/`zipWith` inputs, gather index arrays, and scatter index/value arrays must
//!   have one shape ([`InterpError::ShapeMismatch`] otherwise, no truncation to the
//!   shortest as in seed 000's `zipWith` loop).
//! * Fusion trees: `cluster` runs its body; `vertical` runs the producer, binds the
//!   producer's yielded values to the consumer's block arguments and yields the consumer's
//!   values; `horizontal` yields left's then right's; `diagonal` yields the producer's
//!   then the consumer's. Values defined outside are read directly. (A producer runs to
//!   completion before its consumer: the values are those of the unfused program; the
//!   verifier guarantees a bound array is only streamed.)
//!
//! # Other dialects
//!
//! `func.call` (of defined functions, recursion bounded by a depth limit, or of
//! declarations with a registered [`Interpreter::with_external`] implementation) and
//! `func.return`; `scf.if`/`for`/`while`/`execute_region` with `scf.yield`/`scf.condition`;
//! `cf.br`/`cf.cond_br` between blocks; every `arith` op on integers, indices and floats
//! except the extended/carry ops (tensor operands are computed elementwise); the common
//! `math` functions (not `erf`); `complex` create/re/im/add/sub/mul/div/neg/conj/abs/exp/
//! log/sqrt/eq/neq/constant; `tensor.from_elements`/`extract`/`insert`/`empty`/`splat`/
//! `cast`/`dim`. Anything else is [`InterpError::Unsupported`].

mod array;
mod error;
mod exec;
mod fail;
mod ir;
mod scalar;
mod value;

pub use error::InterpError;
pub use ir::Ty as Type;
pub use value::{ElemType, Tensor, Value};

use melior::ir::Module;
use std::{collections::HashMap, marker::PhantomData};

/// A Rust implementation of a function declared without a body.
pub type ExternalFn = Box<dyn Fn(&[Value]) -> Result<Vec<Value>, InterpError>>;

/// A function of the module: its name, visibility, whether it has a body, and its type.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionInfo {
    pub name: String,
    /// Not `private`.
    pub public: bool,
    /// Has a body (else it is an external declaration).
    pub defined: bool,
    pub inputs: Vec<Type>,
    pub results: Vec<Type>,
}

/// The interpreter of one module, with its registered externals and limits.
pub struct Interpreter<'m> {
    functions: HashMap<String, ir::Op>,
    order: Vec<String>,
    externals: HashMap<String, ExternalFn>,
    max_call_depth: usize,
    max_loop_iterations: u64,
    max_elements: usize,
    /// The most elements of one array (or rows of a fold or scan) any run has made so
    /// far: what [`Interpreter::run_measuring`] reports.
    largest_array: std::sync::atomic::AtomicUsize,
    stack_size: Option<usize>,
    _module: PhantomData<&'m ()>,
}

impl<'m> Interpreter<'m> {
    /// Default limit of nested calls.
    pub const DEFAULT_MAX_CALL_DEPTH: usize = 256;
    /// Default limit of iterations of one loop (one `scf.while`/`scf.for` run, or block
    /// branches of one region run).
    pub const DEFAULT_MAX_LOOP_ITERATIONS: u64 = 10_000_000;
    /// Default limit of the number of elements of one array the program makes.
    pub const DEFAULT_MAX_ELEMENTS: usize = 1 << 26;
    /// Default stack of the thread that [`Interpreter::run`] interprets on (at least
    /// [`Interpreter::STACK_PER_CALL`] per allowed call level).
    pub const DEFAULT_STACK_SIZE: usize = 256 << 20;
    /// Stack reserved per call level when the call depth limit is raised (a call level
    /// takes about 16 KiB in debug builds, less with optimizations).
    pub const STACK_PER_CALL: usize = 64 << 10;

    pub fn new(module: &'m Module<'_>) -> Self {
        let found = ir::module_functions(module.to_raw());
        let order = found.iter().map(|(n, _)| n.clone()).collect();
        Interpreter {
            functions: found.into_iter().collect(),
            order,
            externals: HashMap::new(),
            max_call_depth: Self::DEFAULT_MAX_CALL_DEPTH,
            max_loop_iterations: Self::DEFAULT_MAX_LOOP_ITERATIONS,
            max_elements: Self::DEFAULT_MAX_ELEMENTS,
            largest_array: Default::default(),
            stack_size: None,
            _module: PhantomData,
        }
    }

    /// Registers the implementation of `name`, used when the module declares `name`
    /// without a body (a function with a body always runs its body). The implementation
    /// receives the call's arguments and returns its results; its errors are passed on
    /// (wrap messages in [`InterpError::ExternalFailed`]).
    pub fn with_external(
        mut self,
        name: impl Into<String>,
        implementation: impl Fn(&[Value]) -> Result<Vec<Value>, InterpError> + 'static,
    ) -> Self {
        self.externals.insert(name.into(), Box::new(implementation));
        self
    }

    /// Sets the limit of nested calls (exceeding it is [`InterpError::CallDepthExceeded`]).
    pub fn with_max_call_depth(mut self, depth: usize) -> Self {
        self.max_call_depth = depth;
        self
    }

    /// Sets the limit of iterations of one loop ([`InterpError::LoopLimitExceeded`]).
    pub fn with_max_loop_iterations(mut self, iterations: u64) -> Self {
        self.max_loop_iterations = iterations;
        self
    }

    /// Sets the largest number of elements of one array (and of rows of a fold or scan);
    /// a larger one is [`InterpError::TooLarge`] instead of exhausting memory.
    pub fn with_max_elements(mut self, elements: usize) -> Self {
        self.max_elements = elements;
        self
    }

    /// Sets the stack size of the interpreting thread (by default the larger of
    /// [`Interpreter::DEFAULT_STACK_SIZE`] and [`Interpreter::STACK_PER_CALL`] times the call
    /// depth limit).
    pub fn with_stack_size(mut self, bytes: usize) -> Self {
        self.stack_size = Some(bytes);
        self
    }

    fn effective_stack_size(&self) -> usize {
        self.stack_size
            .unwrap_or_else(|| Self::DEFAULT_STACK_SIZE.max(self.max_call_depth.saturating_mul(Self::STACK_PER_CALL)))
    }

    /// The `func.func`s of the module in order.
    pub fn functions(&self) -> Vec<FunctionInfo> {
        self.order.iter().filter_map(|n| self.function(n)).collect()
    }

    /// The function `name`, if the module has it.
    pub fn function(&self, name: &str) -> Option<FunctionInfo> {
        let &op = self.functions.get(name)?;
        let (inputs, results) = ir::function_type(op).unwrap_or_default();
        Some(FunctionInfo {
            name: name.to_owned(),
            public: ir::string_attribute(op, "sym_visibility").as_deref() != Some("private"),
            defined: ir::has_body(op),
            inputs: inputs.into_iter().map(ir::ty).collect(),
            results: results.into_iter().map(ir::ty).collect(),
        })
    }

    /// Runs function `name` on `args` and returns its results.
    ///
    /// The interpretation runs on a thread of its own with a large stack (see
    /// [`Interpreter::with_stack_size`]) while the caller waits, so deep recursion in the
    /// program does not overflow the caller's stack; externals are called on that thread.
    /// A panic of the interpreter (a bug) comes back as [`InterpError::Internal`].
    pub fn run(&self, name: &str, args: Vec<Value>) -> Result<Vec<Value>, InterpError> {
        /// The interpreter and the IR it borrows are only used by the spawned thread while
        /// the calling thread is blocked in `join`: never by two threads at once.
        struct Handover<'a, 'm>(&'a Interpreter<'m>);
        // SAFETY: see above; the MLIR context is only read, never concurrently.
        unsafe impl Send for Handover<'_, '_> {}
        impl<'a, 'm> Handover<'a, 'm> {
            fn get(&self) -> &'a Interpreter<'m> {
                self.0
            }
        }
        let handover = Handover(self);
        let fallback_args = args.clone(); // cheap: tensors are shared
        std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new()
                .name("array-interpreter".into())
                .stack_size(self.effective_stack_size())
                .spawn_scoped(scope, move || handover.get().run_on_current_thread(name, args));
            match spawned {
                Ok(handle) => handle.join().unwrap_or_else(|panic| {
                    let message = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "a panic".into());
                    Err(InterpError::Internal(message))
                }),
                // No thread with that stack (e.g. strict overcommit): run here instead.
                Err(_) => self.run_on_current_thread(name, fallback_args),
            }
        })
    }

    /// Like [`Interpreter::run`], also returning the most elements of one array the run
    /// made (every array the program creates, intermediates included). Benchmarks use it
    /// to tell, from small inputs, whether a program's arrays fit in memory at large ones.
    pub fn run_measuring(&self, name: &str, args: Vec<Value>) -> Result<(Vec<Value>, usize), InterpError> {
        use std::sync::atomic::Ordering;
        self.largest_array.store(0, Ordering::Relaxed);
        let results = self.run(name, args)?;
        Ok((results, self.largest_array.load(Ordering::Relaxed)))
    }

    /// Records an array of `elements` made by a run (see [`Interpreter::run_measuring`]).
    pub(crate) fn note_array(&self, elements: usize) {
        self.largest_array.fetch_max(elements, std::sync::atomic::Ordering::Relaxed);
    }

    /// Like [`Interpreter::run`], on the caller's thread and stack.
    pub fn run_on_current_thread(&self, name: &str, args: Vec<Value>) -> Result<Vec<Value>, InterpError> {
        exec::Machine::new(self).call_entry(name, args)
    }
}

/// Runs function `name` of `module` on `args` with no externals and the default limits.
pub fn run_function(module: &Module, name: &str, args: Vec<Value>) -> Result<Vec<Value>, InterpError> {
    Interpreter::new(module).run(name, args)
}
