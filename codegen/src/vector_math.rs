//! Vectorised math functions on x86-64 Linux with glibc. LLVM's loop vectorizer can widen
//! a loop that calls a C math function only when the call has no memory effects and a
//! vector variant is known; otherwise every element calls the scalar function (or the
//! loop is not vectorised at all: a call of `erf` that may write memory stops it), and a
//! loop like Black–Scholes is bound by those calls however wide the rest of it is. LLVM's
//! own table of glibc's vector functions is read from a command-line option of `opt`,
//! which the JIT and the object-file path here do not use; so, after the lowering to the
//! LLVM dialect, [`prepare`]:
//!
//! 1. replaces the `llvm.intr.exp`, `log`, `sin`, … of `f64` by calls of the C functions
//!    (`calls_for_intrinsics`);
//! 2. declares the C math functions free of memory effects (`mark_math_functions_pure`:
//!    they may set `errno`, which compiled programs never read; `clang -fno-math-errno`);
//! 3. gives each one of one `f64` argument with a variant in glibc's `libmvec.so.1` the
//!    `vector-function-abi-variant` attribute naming its AVX2 variant (`_ZGVdN4v_erf`:
//!    4 doubles), which the vectorizer reads (`add_vector_variants`).
//!
//! [`status`] loads `libmvec.so.1` into the process, so that the JIT resolves the
//! variants; code from `--emit-object` links with `-lmvec`. Where the library or AVX2 is
//! missing (another C library, another architecture, an older CPU), steps 1 and 3 do
//! nothing and the scalar calls stay.
//!
//! Accuracy: glibc documents its vector functions to within 4 ulp of the exact result
//! (its scalar ones within 1 ulp), far inside the relative 1e-9 to which `check` compares
//! the compiled program's floats with the interpreter's (`lit/lowering/vector-math.mlir`).
//! `f32` functions keep their scalar calls: 4 ulp of an `f32` (about 5e-7) are not inside
//! that tolerance.

use std::sync::OnceLock;

unsafe extern "C" {
    fn dlopen(file: *const std::ffi::c_char, mode: i32) -> *mut std::ffi::c_void;
}

const RTLD_NOW: i32 = 2;
const RTLD_GLOBAL: i32 = 0x100;

/// Whether the vector functions are in use: `Ok` with the library's name, or why not.
pub fn status() -> &'static Result<&'static str, String> {
    static STATUS: OnceLock<Result<&'static str, String>> = OnceLock::new();
    STATUS.get_or_init(|| {
        if !cfg!(all(target_arch = "x86_64", target_os = "linux")) {
            return Err("glibc's libmvec is used on x86-64 Linux only".into());
        }
        if !avx2() {
            return Err("the CPU has no AVX2, which the vector variants used here need".into());
        }
        // SAFETY: a NUL-terminated name; the handle is kept for the process's lifetime.
        let handle = unsafe { dlopen(c"libmvec.so.1".as_ptr(), RTLD_NOW | RTLD_GLOBAL) };
        if handle.is_null() {
            return Err("libmvec.so.1 (glibc's vector math library) is not found".into());
        }
        Ok("libmvec.so.1")
    })
}

/// Loads the vector functions if this machine has them (idempotent), before any code that
/// calls them is compiled; see [`status`].
pub fn enable() {
    let _ = status();
}

/// Gives every C math function of one `f64` argument that the module declares (`erf`,
/// `tanh`, … from `convert-math-to-libm`; `exp`, `log`, … from [`calls_for_intrinsics`])
/// its glibc vector variant for AVX2, 4 doubles (`_ZGVdN4v_erf`), where the machine has
/// AVX2 and libmvec has the variant: the `vector-function-abi-variant` attribute that LLVM's
/// loop vectorizer reads, the variant's declaration, and a use of it in
/// `llvm.compiler.used` (without one, LLVM drops the unused declaration before the
/// vectorizer looks for it).
fn add_vector_variants(context: &melior::Context, module: &melior::ir::Module) -> Result<(), String> {
    use melior::ir::{
        Attribute, BlockLike, RegionLike, TypeLike,
        attribute::{StringAttribute, TypeAttribute},
        operation::{OperationLike, OperationMutLike},
    };
    if status().is_err() {
        return Ok(());
    }
    let mut variants: Vec<(String, &'static str, u32)> = Vec::new();
    let mut op = module.body().first_operation_mut();
    while let Some(mut f) = op {
        op = f.next_in_block_mut();
        if f.name().as_string_ref().as_str() != Ok("llvm.func") || f.region(0).is_ok_and(|r| r.first_block().is_some())
        {
            continue;
        }
        let Some(name) = f
            .inherent_attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .map(|a| a.value().to_owned())
        else {
            continue;
        };
        let Some(function_type) =
            f.inherent_attribute("function_type").ok().and_then(|a| TypeAttribute::try_from(a).ok()).map(|a| a.value())
        else {
            continue;
        };
        // SAFETY: a live LLVM function type: its result and its parameters.
        let is_f64 = unsafe {
            let t = function_type.to_raw();
            let result = mlir_sys::mlirLLVMFunctionTypeGetReturnType(t);
            let params = mlir_sys::mlirLLVMFunctionTypeGetNumInputs(t);
            let first = (params == 1).then(|| mlir_sys::mlirLLVMFunctionTypeGetInput(t, 0));
            let same = first.is_some_and(|p| mlir_sys::mlirTypeEqual(p, result));
            same && mlir_sys::mlirTypeIsAF64(result)
        };
        // `f64` only: glibc's vector functions are within 4 ulp, far inside the relative
        // 1e-9 of `check` in `f64`, but 4 ulp of an `f32` (about 5e-7) are not, and the
        // check compares `f32` results to the same 1e-9.
        if !is_f64 {
            continue;
        }
        let (vector_name, lanes, element) = (format!("_ZGVdN4v_{name}"), 4, "f64");
        if !has_symbol(&vector_name) || !is_math_function(&name) {
            continue;
        }
        let mapping = format!("_ZGV_LLVM_N{lanes}v_{name}({vector_name})");
        let passthrough = format!("[[\"vector-function-abi-variant\", \"{mapping}\"]]");
        let passthrough = Attribute::parse(context, &passthrough).ok_or("the passthrough attribute does not parse")?;
        f.set_inherent_attribute("passthrough", passthrough);
        variants.push((vector_name, element, lanes));
    }
    if variants.is_empty() {
        return Ok(());
    }
    let mut text = String::new();
    for (vector_name, element, lanes) in &variants {
        text += &format!("llvm.func @{vector_name}(vector<{lanes}x{element}>) -> vector<{lanes}x{element}>\n");
    }
    let n = variants.len();
    text += &format!(
        "llvm.mlir.global appending @llvm.compiler.used() {{section = \"llvm.metadata\"}} : !llvm.array<{n} x ptr> {{\n  %undef = llvm.mlir.undef : !llvm.array<{n} x ptr>\n"
    );
    let mut last = "%undef".to_owned();
    for (k, (vector_name, _, _)) in variants.iter().enumerate() {
        text += &format!(
            "  %a{k} = llvm.mlir.addressof @{vector_name} : !llvm.ptr\n  %v{k} = llvm.insertvalue %a{k}, {last}[{k}] : !llvm.array<{n} x ptr>\n"
        );
        last = format!("%v{k}");
    }
    text += &format!("  llvm.return {last} : !llvm.array<{n} x ptr>\n}}\n");
    append_parsed(context, module, &text)
}

/// Whether the host CPU has AVX2, which the `_ZGVd` variants need.
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the loaded libraries define `name`.
fn has_symbol(name: &str) -> bool {
    unsafe extern "C" {
        fn dlsym(handle: *mut std::ffi::c_void, symbol: *const std::ffi::c_char) -> *mut std::ffi::c_void;
    }
    let Ok(symbol) = std::ffi::CString::new(name) else { return false };
    // SAFETY: RTLD_DEFAULT (null) searches the process's global symbols, where `status`
    // loaded libmvec.
    unsafe { !dlsym(std::ptr::null_mut(), symbol.as_ptr()).is_null() }
}

/// Makes the C math calls of `module` (in the LLVM dialect) vectorisable: declared free
/// of memory effects (`mark_math_functions_pure`) and, where libmvec is in use, mapped to
/// their vector variants (`add_vector_variants`).
pub fn prepare(context: &melior::Context, module: &melior::ir::Module) -> Result<(), String> {
    calls_for_intrinsics(context, module)?;
    mark_math_functions_pure(context, module);
    add_vector_variants(context, module)
}

/// The LLVM intrinsics `convert-math-to-llvm` makes of `math` ops that glibc has vector
/// variants of: `llvm.intr.X` computes what the C function `X` does.
const MAPPED_INTRINSICS: &[&str] = &["exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan"];

/// Replaces each scalar `llvm.intr.exp` (`log`, …: [`MAPPED_INTRINSICS`]) of `f64` whose C
/// function has a vector variant by a call of that function (`exp`), so
/// that [`add_vector_variants`] maps it as it maps `erf`: LLVM's vectorizer widens the
/// intrinsics themselves into per-lane scalar calls, as its own table of glibc's
/// functions is not in use here (LLVM reads it from a command-line option of `opt`).
fn calls_for_intrinsics(context: &melior::Context, module: &melior::ir::Module) -> Result<(), String> {
    use melior::ir::{
        Attribute, BlockLike, Identifier, Location, TypeLike, ValueLike,
        attribute::FlatSymbolRefAttribute,
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
    };
    if status().is_err() {
        return Ok(());
    }
    // The intrinsic ops to replace, with the C function each becomes.
    let mut found: Vec<(mlir_sys::MlirOperation, String, bool)> = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_owned();
        if let Some(base) = name.strip_prefix("llvm.intr.").filter(|b| MAPPED_INTRINSICS.contains(b))
            && op.operand_count() == 1
            && op.result_count() == 1
        {
            // SAFETY: a live result type.
            let t = op.result(0).map(|r| r.r#type().to_raw());
            if let Ok(t) = t {
                // SAFETY: a live type.
                let (f64, f32) = unsafe { (mlir_sys::mlirTypeIsAF64(t), mlir_sys::mlirTypeIsAF32(t)) };
                // `f64` only, as in `add_vector_variants`.
                let function = base.to_owned();
                if f64 && !f32 && has_symbol(&format!("_ZGVdN4v_{function}")) {
                    found.push((op.to_raw(), function, f64));
                }
            }
        }
        WalkResult::Advance
    });
    let mut declared: Vec<String> = Vec::new();
    let mut op = module.body().first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        if o.name().as_string_ref().as_str() == Ok("llvm.func")
            && let Ok(name) = o.inherent_attribute("sym_name")
            && let Ok(name) = melior::ir::attribute::StringAttribute::try_from(name)
        {
            declared.push(name.value().to_owned());
        }
    }
    let mut declarations = String::new();
    for (raw, function, f64) in &found {
        // SAFETY: a live op found above, replaced and erased here once.
        unsafe {
            let intrinsic = melior::ir::OperationRef::from_raw(*raw);
            let operand = intrinsic.operand(0).map_err(|e| e.to_string())?;
            let result_type = intrinsic.result(0).map_err(|e| e.to_string())?.r#type();
            let fastmath = intrinsic
                .inherent_attribute("fastmathFlags")
                .unwrap_or_else(|_| Attribute::parse(context, "#llvm.fastmath<none>").expect("valid"));
            let attribute = |text: &str| Attribute::parse(context, text).expect("a valid llvm.call attribute");
            let call = OperationBuilder::new("llvm.call", Location::from_raw(mlir_sys::mlirOperationGetLocation(*raw)))
                .add_operands(&[operand])
                .add_results(&[result_type])
                .add_attributes(&[
                    (Identifier::new(context, "CConv"), attribute("#llvm.cconv<ccc>")),
                    (Identifier::new(context, "TailCallKind"), attribute("#llvm.tailcallkind<none>")),
                    (Identifier::new(context, "callee"), FlatSymbolRefAttribute::new(context, function).into()),
                    (Identifier::new(context, "fastmathFlags"), fastmath),
                    (Identifier::new(context, "op_bundle_sizes"), attribute("array<i32>")),
                    (Identifier::new(context, "operandSegmentSizes"), attribute("array<i32: 1, 0>")),
                ])
                .build()
                .map_err(|e| format!("a call of {function}: {e}"))?;
            let block = mlir_sys::mlirOperationGetBlock(*raw);
            let call = call.into_raw();
            mlir_sys::mlirBlockInsertOwnedOperationBefore(block, *raw, call);
            mlir_sys::mlirValueReplaceAllUsesOfWith(
                mlir_sys::mlirOperationGetResult(*raw, 0),
                mlir_sys::mlirOperationGetResult(call, 0),
            );
            mlir_sys::mlirOperationDestroy(*raw);
        }
        if !declared.contains(function) {
            let t = if *f64 { "f64" } else { "f32" };
            declarations += &format!("llvm.func @{function}({t}) -> {t}\n");
            declared.push(function.clone());
        }
    }
    append_parsed(context, module, &declarations)
}

/// Appends the ops of `text` (a module body) to `module`'s body.
fn append_parsed(context: &melior::Context, module: &melior::ir::Module, text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Ok(());
    }
    fusion_passes::ir::append_parsed(context, module.as_operation().to_raw(), text)
        .ok_or_else(|| format!("does not parse: {text}"))
}

/// Whether `name` is one of [`MATH_FUNCTIONS`] or its `float` variant.
fn is_math_function(name: &str) -> bool {
    MATH_FUNCTIONS.contains(&name) || name.strip_suffix('f').is_some_and(|b| MATH_FUNCTIONS.contains(&b))
}

/// The C math functions `convert-math-to-libm` calls (and their `f` variants), which
/// compute their result from their arguments alone.
const MATH_FUNCTIONS: &[&str] = &[
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "cbrt",
    "ceil",
    "copysign",
    "cos",
    "cosh",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "expm1",
    "fabs",
    "floor",
    "fma",
    "fmod",
    "log",
    "log10",
    "log1p",
    "log2",
    "pow",
    "rint",
    "round",
    "roundeven",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "trunc",
];

/// Declares the C math functions the module calls free of memory effects, as the `math`
/// ops they come from are (MLIR's `math` dialect calls them pure). In C they may set
/// `errno` and the floating-point status flags, which compiled programs never read, so
/// LLVM's default (a call that may write any memory) only stops it from vectorising a
/// loop that calls one, such as Black–Scholes's `erf` (the same as `clang
/// -fno-math-errno`).
fn mark_math_functions_pure(context: &melior::Context, module: &melior::ir::Module) {
    use melior::ir::{
        Attribute, BlockLike, RegionLike,
        attribute::StringAttribute,
        operation::{OperationLike, OperationMutLike},
    };
    let none = "none";
    let effects = format!(
        "#llvm.memory_effects<other = {none}, argMem = {none}, inaccessibleMem = {none}, errnoMem = {none}, targetMem0 = {none}, targetMem1 = {none}>"
    );
    let Some(effects) = Attribute::parse(context, &effects) else { return };
    let mut op = module.body().first_operation_mut();
    while let Some(mut f) = op {
        op = f.next_in_block_mut();
        if f.name().as_string_ref().as_str() != Ok("llvm.func") {
            continue;
        }
        let name = f
            .inherent_attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .map(|a| a.value().to_owned())
            .unwrap_or_default();
        let declaration = f.region(0).is_ok_and(|r| r.first_block().is_none());
        if declaration && is_math_function(&name) {
            f.set_inherent_attribute("memory_effects", effects);
            f.set_inherent_attribute("no_unwind", Attribute::unit(context));
            f.set_inherent_attribute("will_return", Attribute::unit(context));
        }
    }
}
