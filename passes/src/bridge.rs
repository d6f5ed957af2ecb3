//! Registering passes written in Rust in MLIR's pass registry, with options.
//!
//! `cpp/RustPassBridge.cpp` defines a generic `mlir::Pass` that takes its name,
//! description and string options from a [`PassDefinition`] and calls back into Rust.
//! Registered passes appear in `fuse-opt --help`, can be named in `--pass-pipeline`
//! strings with options (`array-fusion-analysis{cost=reads}`), and are available to any
//! MLIR compiler that calls [`register_all_passes`](crate::register_all_passes).

use melior::{
    Context, ContextRef,
    ir::{Location, OperationRef, operation::OperationLike},
};
use std::any::Any;
use std::ffi::{CStr, CString, c_char, c_int, c_void};

/// A dialect a pass creates entities of, as the C API names it
/// (`mlir_sys::mlirGetDialectHandle__arith__`).
pub type DialectHandleFn = unsafe extern "C" fn() -> mlir_sys::MlirDialectHandle;

/// The body of a pass: runs on one anchor op in the context it belongs to.
pub type RunFn = for<'c, 'a> fn(&'c Context, OperationRef<'c, 'a>, &PassOptions) -> Result<(), PassFailed>;

/// One string option of a pass.
#[derive(Debug)]
pub struct PassOption {
    pub name: &'static str,
    pub description: &'static str,
    /// The value when the option is not given, computed once at registration, so that
    /// it can come from the type the option configures (`Limits::default()`).
    pub default: fn() -> String,
}

/// The state of one pass instance, shared with the copies the pass manager makes of it to
/// run on several ops in parallel (so it must be `Sync`): what the runs of one pipeline
/// have in common, such as the reports of every function for one output file.
pub type PassState = Box<dyn Any + Send + Sync>;

/// What one run of a pass is given besides its op: the option values, by name, and
/// the state of the pass instance.
pub struct PassOptions<'s> {
    values: Vec<(&'static str, String)>,
    state: Option<&'s (dyn Any + Send + Sync)>,
}

impl PassOptions<'_> {
    /// The state of this pass instance ([`PassDefinition::state`]), if it is a `T`.
    pub fn state<T: Any>(&self) -> Option<&T> {
        self.state?.downcast_ref()
    }

    /// The value of option `name` (its default when not given).
    pub fn get(&self, name: &str) -> &str {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("pass option `{name}` is not declared"))
    }
}

/// A pass failed; the pass has already emitted an error diagnostic saying why.
#[derive(Debug)]
pub struct PassFailed;

/// What a Rust pass is: its pipeline name, help text, anchor op and options.
pub struct PassDefinition {
    pub argument: &'static str,
    pub description: &'static str,
    /// The op the pass is scheduled on (`Some("func.func")`), or any op.
    pub anchor: Option<&'static str>,
    /// The dialects whose ops, types or attributes the pass creates (other than those
    /// of its input): the pass manager loads them before any pass runs, so passes never
    /// load dialects themselves (which is unsafe while functions run in parallel).
    pub dependent_dialects: &'static [DialectHandleFn],
    pub options: &'static [PassOption],
    /// Creates the state of a new pass instance (see [`PassState`]).
    pub state: Option<fn() -> PassState>,
    pub run: RunFn,
}

#[repr(C)]
struct FusionRustPassInfo {
    argument: *const c_char,
    description: *const c_char,
    anchor: *const c_char,
    num_dependent_dialects: c_int,
    dependent_dialects: *const DialectHandleFn,
    num_options: c_int,
    option_names: *const *const c_char,
    option_descriptions: *const *const c_char,
    option_defaults: *const *const c_char,
    user_data: *mut c_void,
    new_state: unsafe extern "C" fn(*mut c_void) -> *mut c_void,
    drop_state: unsafe extern "C" fn(*mut c_void),
    run: unsafe extern "C" fn(
        *mut c_void,
        *mut c_void,
        mlir_sys::MlirContext,
        mlir_sys::MlirOperation,
        *const *const c_char,
    ) -> c_int,
}

/// A pipeline alias: passes run in order on every `anchor` op, one of which takes the
/// alias's options (`array-fusion{cost=reads}` gives `cost=reads` to the analysis).
pub struct PipelineDefinition {
    pub argument: &'static str,
    pub description: &'static str,
    /// The op the passes run on; when the alias is added to a pass manager on another op
    /// (`fuse-opt --array-fusion` on the module), the passes are nested under it.
    pub anchor: &'static str,
    /// Registered passes, in order.
    pub passes: &'static [&'static PassDefinition],
    /// The pass of `passes` that receives the alias's options (and whose options
    /// `--help` lists under the alias).
    pub options_of: &'static PassDefinition,
}

#[repr(C)]
struct FusionRustPipelineInfo {
    argument: *const c_char,
    description: *const c_char,
    anchor: *const c_char,
    num_passes: c_int,
    passes: *const *const c_char,
    options_pass: c_int,
    options_info: *const FusionRustPassInfo,
}

unsafe extern "C" {
    fn fusionRegisterRustPass(info: *const FusionRustPassInfo);
    fn fusionRegisterRustPipeline(info: *const FusionRustPipelineInfo);
    fn fusionCreateRustPass(
        info: *const FusionRustPassInfo,
        state: *mut c_void,
        options: *const c_char,
        on_error: unsafe extern "C" fn(*const c_char, *mut c_void),
        user_data: *mut c_void,
    ) -> mlir_sys::MlirPass;
    fn fusionEmitWarning(location: mlir_sys::MlirLocation, message: *const c_char);
    fn fusionEmitRemark(location: mlir_sys::MlirLocation, message: *const c_char);
}

fn leak(s: &str) -> *const c_char {
    CString::new(s).expect("pass strings contain no NUL").into_raw()
}

fn leak_all(items: impl Iterator<Item = *const c_char>) -> *const *const c_char {
    Box::leak(items.collect::<Vec<_>>().into_boxed_slice()).as_ptr()
}

unsafe extern "C" fn new_state_trampoline(user_data: *mut c_void) -> *mut c_void {
    // SAFETY: user_data is the &'static PassDefinition given at registration.
    let definition = unsafe { &*(user_data as *const PassDefinition) };
    match definition.state {
        Some(new) => Box::into_raw(Box::new(new())) as *mut c_void,
        None => std::ptr::null_mut(),
    }
}

unsafe extern "C" fn drop_state_trampoline(state: *mut c_void) {
    if !state.is_null() {
        // SAFETY: made by new_state_trampoline; the pass instances sharing it are gone.
        drop(unsafe { Box::from_raw(state as *mut PassState) });
    }
}

unsafe extern "C" fn run_trampoline(
    user_data: *mut c_void,
    state: *mut c_void,
    context: mlir_sys::MlirContext,
    op: mlir_sys::MlirOperation,
    values: *const *const c_char,
) -> c_int {
    // SAFETY: user_data is the &'static PassDefinition given at registration; `values`
    // holds one NUL-terminated string per declared option; `state` is the instance's; `context` is the context the
    // pass runs in and `op` an op of it, both live during the call.
    let definition = unsafe { &*(user_data as *const PassDefinition) };
    let options = PassOptions {
        values: definition
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let value = unsafe { CStr::from_ptr(*values.add(i)) };
                (o.name, value.to_string_lossy().into_owned())
            })
            .collect(),
        // SAFETY: made by new_state_trampoline; the pass instance keeps it alive.
        state: (!state.is_null()).then(|| unsafe { &**(state as *const PassState) }),
    };
    let context = unsafe { ContextRef::from_raw(context) };
    // SAFETY: the reference lives in this frame only: `run` is generic over the context's
    // lifetime, so nothing it creates from the context or the op can outlive the call.
    let context: &Context = unsafe { context.to_ref() };
    let operation = unsafe { OperationRef::from_raw(op) };
    // A function declaration (an external function, such as a runtime function the
    // module calls) has no body for a function pass to work on.
    if definition.anchor == Some("func.func") && !crate::ir::has_body(op) {
        return 1;
    }
    // A panic must not unwind into C++: turn it into an error diagnostic.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (definition.run)(context, operation, &options))) {
        Ok(Ok(())) => 1,
        Ok(Err(PassFailed)) => 0,
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            emit_error(operation.location(), &format!("internal error in pass '{}': {message}", definition.argument));
            0
        }
    }
}

/// The addresses of the registered passes' descriptors, by the address of their
/// definition, for [`create_pass`] (addresses: the descriptors hold raw pointers, which
/// are not `Sync`, and are leaked, so an address stays valid).
fn registered() -> &'static std::sync::Mutex<Vec<(usize, usize)>> {
    static REGISTERED: std::sync::Mutex<Vec<(usize, usize)>> = std::sync::Mutex::new(Vec::new());
    &REGISTERED
}

/// Adds `definition` to MLIR's global pass registry.
pub fn register(definition: &'static PassDefinition) {
    let info = descriptor(definition);
    registered()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((definition as *const _ as usize, info as *const _ as usize));
    // SAFETY: the descriptor and everything it points to are leaked, so live forever.
    unsafe { fusionRegisterRustPass(info) };
}

/// A new instance of the registered pass `definition`, to add to a pass manager directly
/// (`PassManager::add_pass`), with `options` written as in a pipeline string
/// (`cost=reads time-limit=5`) and the instance state `state` (the definition's own fresh
/// state when `None`). Errors: the pass is not registered, or an option is unknown or bad.
pub fn create_pass(
    definition: &'static PassDefinition,
    options: &str,
    state: Option<PassState>,
) -> Result<melior::pass::Pass, String> {
    let address = definition as *const _ as usize;
    let info = registered()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(a, _)| *a == address)
        .map(|(_, info)| *info as *const FusionRustPassInfo)
        .ok_or_else(|| format!("pass '{}' is not registered", definition.argument))?;
    unsafe extern "C" fn on_error(message: *const c_char, user_data: *mut c_void) {
        // SAFETY: user_data is the `String` below, message a NUL-terminated string, both
        // live during the call.
        let errors = unsafe { &mut *(user_data as *mut String) };
        if !errors.is_empty() {
            errors.push_str("; ");
        }
        errors.push_str(&unsafe { CStr::from_ptr(message) }.to_string_lossy());
    }
    let options = CString::new(options).map_err(|_| "pass options contain a NUL byte".to_owned())?;
    let state = state.map(|s| Box::into_raw(Box::new(s)) as *mut c_void).unwrap_or(std::ptr::null_mut());
    let mut errors = String::new();
    // SAFETY: `info` is a registered, leaked descriptor; `state` (made like
    // new_state_trampoline makes it) is handed over to the pass, which drops it with
    // drop_state_trampoline; the callback and its data live during the call.
    let pass = unsafe {
        fusionCreateRustPass(info, state, options.as_ptr(), on_error, &mut errors as *mut String as *mut c_void)
    };
    if pass.ptr.is_null() {
        return Err(if errors.is_empty() {
            format!("{}: the pass could not be created", definition.argument)
        } else {
            errors
        });
    }
    // SAFETY: a new pass, owned by the caller until it is added to a pass manager.
    Ok(unsafe { melior::pass::Pass::from_raw(pass) })
}

/// The C descriptor of `definition` (leaked: the registry keeps it for the process).
fn descriptor(definition: &'static PassDefinition) -> &'static FusionRustPassInfo {
    Box::leak(Box::new(FusionRustPassInfo {
        argument: leak(definition.argument),
        description: leak(definition.description),
        anchor: definition.anchor.map(leak).unwrap_or(std::ptr::null()),
        num_dependent_dialects: definition.dependent_dialects.len() as c_int,
        dependent_dialects: definition.dependent_dialects.as_ptr(),
        num_options: definition.options.len() as c_int,
        option_names: leak_all(definition.options.iter().map(|o| leak(o.name))),
        option_descriptions: leak_all(definition.options.iter().map(|o| leak(o.description))),
        option_defaults: leak_all(definition.options.iter().map(|o| leak(&(o.default)()))),
        user_data: definition as *const PassDefinition as *mut c_void,
        new_state: new_state_trampoline,
        drop_state: drop_state_trampoline,
        run: run_trampoline,
    }))
}

fn c_message(message: &str) -> CString {
    CString::new(message.replace('\0', " ")).expect("NULs were replaced")
}

/// Emits an error diagnostic at `location`.
pub fn emit_error(location: Location, message: &str) {
    let m = c_message(message);
    // SAFETY: valid location and NUL-terminated message.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), m.as_ptr()) };
}

/// Emits a warning diagnostic at `location`.
pub fn emit_warning(location: Location, message: &str) {
    let m = c_message(message);
    // SAFETY: as above.
    unsafe { fusionEmitWarning(location.to_raw(), m.as_ptr()) };
}

/// Emits a remark diagnostic at `location`.
pub fn emit_remark(location: Location, message: &str) {
    let m = c_message(message);
    // SAFETY: as above.
    unsafe { fusionEmitRemark(location.to_raw(), m.as_ptr()) };
}

/// Adds the pipeline alias `definition` to MLIR's registry. Its passes are looked up
/// in the registry when the alias is used, so they may be registered before or after
/// it; a pipeline that cannot be built (a pass not registered, a bad option) is an
/// error of the pass manager that builds it.
pub fn register_pipeline(definition: &'static PipelineDefinition) {
    let options_pass = definition
        .passes
        .iter()
        .position(|p| std::ptr::eq(*p, definition.options_of))
        .expect("the pass taking the pipeline's options is one of its passes");
    let info = Box::leak(Box::new(FusionRustPipelineInfo {
        argument: leak(definition.argument),
        description: leak(definition.description),
        anchor: leak(definition.anchor),
        num_passes: definition.passes.len() as c_int,
        passes: leak_all(definition.passes.iter().map(|p| leak(p.argument))),
        options_pass: options_pass as c_int,
        options_info: descriptor(definition.options_of),
    }));
    // SAFETY: the descriptor and everything it points to are leaked, so live forever.
    unsafe { fusionRegisterRustPipeline(info) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::pass::PassManager;
    use melior::utility::parse_pass_pipeline;

    static NEVER_REGISTERED: PassDefinition = PassDefinition {
        argument: "test-bridge-never-registered",
        description: "A pass that is not in the registry",
        anchor: Some("func.func"),
        dependent_dialects: &[],
        options: &[],
        state: None,
        run: |_, _, _| Ok(()),
    };

    static BROKEN: PipelineDefinition = PipelineDefinition {
        argument: "test-bridge-broken-pipeline",
        description: "A pipeline naming a pass that is not registered",
        anchor: "func.func",
        passes: &[&NEVER_REGISTERED],
        options_of: &NEVER_REGISTERED,
    };

    fn parses(pipeline: &str) -> bool {
        let context = array_dialect::context();
        let pm = PassManager::new(&context);
        parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).is_ok()
    }

    #[test]
    fn a_pipeline_that_cannot_be_built_is_an_error() {
        crate::register_all_passes();
        register_pipeline(&BROKEN);
        assert!(!parses("builtin.module(func.func(test-bridge-broken-pipeline))"));
        assert!(!parses("builtin.module(func.func(array-fusion{no-such-option=1}))"));
        assert!(parses("builtin.module(func.func(array-fusion{cost=reads dump-ilp='a b.lp'}))"));
        // On the module, the alias's passes are nested under func.func.
        assert!(parses("builtin.module(array-fusion)"));
    }
}
