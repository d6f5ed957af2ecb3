//! Ahead-of-time output: a program of the `array` dialect lowered (unfused or fused,
//! sequential or OpenMP) and written as LLVM IR text or as a native object file, for a
//! user's own build. Every public function with a body keeps its plain symbol and also
//! gets MLIR's C interface `_mlir_ciface_<name>` (memref arguments as pointers to strided
//! descriptors), which is what a C or Rust caller links against.
//!
//! The object file is made the way `clang -O2 -fPIC -march=native -c` would: the module is
//! translated to LLVM IR, optimized with LLVM's `default<O2>` pipeline and compiled by a
//! position-independent target machine for the host CPU (LLVM's C API; the JIT's own object
//! dump would use the large code model and need text relocations).

use crate::pipeline::{Threads, Variant, lower_to_llvm_with};
use melior::{
    Context,
    ir::{
        Attribute, BlockLike, Module, RegionLike,
        attribute::StringAttribute,
        operation::{OperationLike, OperationMutLike},
    },
};
use std::{
    ffi::{CStr, CString, c_char, c_void},
    path::Path,
    ptr::null_mut,
};

/// What to write.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// LLVM IR text (`.ll`).
    LlvmIr,
    /// A relocatable object file (`.o`) for the host.
    Object,
}

/// The public functions with a body, after marking each with `llvm.emit_c_interface`.
pub fn mark_c_interface(context: &Context, module: &Module) -> Vec<String> {
    let mut names = Vec::new();
    let mut op = module.body().first_operation_mut();
    while let Some(mut f) = op {
        op = f.next_in_block_mut();
        if f.name().as_string_ref().as_str() != Ok("func.func") {
            continue;
        }
        let string = |name: &str| f.attribute(name).ok().and_then(|a| StringAttribute::try_from(a).ok());
        let private = string("sym_visibility").is_some_and(|s| s.value() == "private");
        let name = string("sym_name").map(|s| s.value().to_owned()).unwrap_or_default();
        if !private && f.region(0).is_ok_and(|r| r.first_block().is_some()) {
            f.set_discardable_attribute("llvm.emit_c_interface", Attribute::unit(context));
            names.push(name);
        }
    }
    names
}

/// LLVM IR text of a module already in the LLVM dialect.
pub fn translate_to_llvm_ir(module: &Module) -> Result<String, String> {
    // SAFETY: the module is a live operation; the C API returns a malloc'ed, NUL-terminated
    // string (LLVMPrintModuleToString) or null when the translation fails.
    let text = unsafe { mlir_sys::mlirTranslateModuleToLLVMIRToString(module.as_operation().to_raw()) };
    if text.is_null() {
        return Err("the translation to LLVM IR failed".into());
    }
    // SAFETY: non-null, NUL-terminated (see above); freed exactly once, after the copy.
    let owned = unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned();
    unsafe { free(text.cast()) };
    Ok(owned)
}

unsafe extern "C" {
    fn free(pointer: *mut c_void);
}

/// The parts of LLVM's C API used here (llvm-c/{Core,Target,TargetMachine,Error,
/// Transforms/PassBuilder}.h of LLVM 22); libLLVM is loaded with libMLIR anyway.
mod llvm_c {
    use std::ffi::{c_char, c_int, c_void};
    pub type Opaque = *mut c_void;
    pub const OPT_DEFAULT: c_int = 2; // LLVMCodeGenLevelDefault (-O2)
    pub const RELOC_PIC: c_int = 2; // LLVMRelocPIC
    pub const CODE_MODEL_DEFAULT: c_int = 0; // LLVMCodeModelDefault
    pub const OBJECT_FILE: c_int = 1; // LLVMObjectFile
    #[link(name = "LLVM")]
    unsafe extern "C" {
        pub fn LLVMContextCreate() -> Opaque;
        pub fn LLVMContextDispose(context: Opaque);
        pub fn LLVMDisposeModule(module: Opaque);
        pub fn LLVMDisposeMessage(message: *mut c_char);
        pub fn LLVMSetTarget(module: Opaque, triple: *const c_char);
        pub fn LLVMSetModuleDataLayout(module: Opaque, layout: Opaque);
        pub fn LLVMInitializeX86TargetInfo();
        pub fn LLVMInitializeX86Target();
        pub fn LLVMInitializeX86TargetMC();
        pub fn LLVMInitializeX86AsmPrinter();
        pub fn LLVMGetDefaultTargetTriple() -> *mut c_char;
        pub fn LLVMGetHostCPUName() -> *mut c_char;
        pub fn LLVMGetHostCPUFeatures() -> *mut c_char;
        pub fn LLVMGetTargetFromTriple(triple: *const c_char, target: *mut Opaque, error: *mut *mut c_char) -> c_int;
        pub fn LLVMCreateTargetMachine(
            target: Opaque,
            triple: *const c_char,
            cpu: *const c_char,
            features: *const c_char,
            level: c_int,
            reloc: c_int,
            code_model: c_int,
        ) -> Opaque;
        pub fn LLVMDisposeTargetMachine(machine: Opaque);
        pub fn LLVMCreateTargetDataLayout(machine: Opaque) -> Opaque;
        pub fn LLVMDisposeTargetData(layout: Opaque);
        pub fn LLVMTargetMachineEmitToFile(
            machine: Opaque,
            module: Opaque,
            file: *const c_char,
            kind: c_int,
            error: *mut *mut c_char,
        ) -> c_int;
        pub fn LLVMCreatePassBuilderOptions() -> Opaque;
        pub fn LLVMDisposePassBuilderOptions(options: Opaque);
        pub fn LLVMRunPasses(module: Opaque, passes: *const c_char, machine: Opaque, options: Opaque) -> Opaque;
        pub fn LLVMGetErrorMessage(error: Opaque) -> *mut c_char;
        pub fn LLVMDisposeErrorMessage(message: *mut c_char);
    }
}

/// Takes an LLVM-allocated message (disposed here).
unsafe fn take_message(message: *mut c_char) -> String {
    if message.is_null() {
        return String::new();
    }
    // SAFETY: LLVM returns NUL-terminated messages it allocated; disposed exactly once.
    let text = unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned();
    unsafe { llvm_c::LLVMDisposeMessage(message) };
    text
}

/// Compiles a module in the LLVM dialect to a host object file at `output`.
pub fn write_object_file(module: &Module, output: &Path) -> Result<(), String> {
    use llvm_c::*;
    if !cfg!(target_arch = "x86_64") {
        return Err("object output is implemented for x86-64 hosts only".into());
    }
    let file = CString::new(output.as_os_str().as_encoded_bytes())
        .map_err(|_| format!("{}: the path contains NUL", output.display()))?;
    crate::vector_math::enable();
    // SAFETY: plain LLVM C API use; every object created here is disposed on every path
    // below, and the LLVM module is owned (mlirTranslateModuleToLLVMIR hands it over).
    unsafe {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86Target();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86AsmPrinter();
        let context = LLVMContextCreate();
        let llvm_module =
            mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), context.cast()) as Opaque;
        if llvm_module.is_null() {
            LLVMContextDispose(context);
            return Err("the translation to LLVM IR failed".into());
        }
        let triple = LLVMGetDefaultTargetTriple();
        let mut target: Opaque = null_mut();
        let mut error: *mut c_char = null_mut();
        let result = if LLVMGetTargetFromTriple(triple, &mut target, &mut error) != 0 {
            Err(format!("no LLVM target for the host: {}", take_message(error)))
        } else {
            let cpu = LLVMGetHostCPUName();
            let features = LLVMGetHostCPUFeatures();
            let machine =
                LLVMCreateTargetMachine(target, triple, cpu, features, OPT_DEFAULT, RELOC_PIC, CODE_MODEL_DEFAULT);
            LLVMDisposeMessage(cpu);
            LLVMDisposeMessage(features);
            LLVMSetTarget(llvm_module, triple);
            let layout = LLVMCreateTargetDataLayout(machine);
            LLVMSetModuleDataLayout(llvm_module, layout);
            LLVMDisposeTargetData(layout);
            let options = LLVMCreatePassBuilderOptions();
            let failure = LLVMRunPasses(llvm_module, c"default<O2>".as_ptr(), machine, options);
            LLVMDisposePassBuilderOptions(options);
            let result = if !failure.is_null() {
                let message = LLVMGetErrorMessage(failure);
                let text = CStr::from_ptr(message).to_string_lossy().into_owned();
                LLVMDisposeErrorMessage(message);
                Err(format!("LLVM's optimization pipeline failed: {text}"))
            } else if LLVMTargetMachineEmitToFile(machine, llvm_module, file.as_ptr(), OBJECT_FILE, &mut error) != 0 {
                Err(format!("cannot write {}: {}", output.display(), take_message(error)))
            } else {
                Ok(())
            };
            LLVMDisposeTargetMachine(machine);
            result
        };
        LLVMDisposeMessage(triple);
        LLVMDisposeModule(llvm_module);
        LLVMContextDispose(context);
        result
    }
}

/// Lowers the program in `input` and writes it to `output` in `format`.
pub fn emit_file(
    input: &Path,
    output: &Path,
    variant: Variant,
    threads: Threads,
    format: Format,
) -> Result<Vec<String>, String> {
    let context = array_dialect::context();
    let (module, diagnostics) = lowered(&context, input, variant, threads)?;
    match format {
        Format::LlvmIr => {
            let text = translate_to_llvm_ir(&module)?;
            std::fs::write(output, text).map_err(|e| format!("cannot write {}: {e}", output.display()))?
        }
        Format::Object => write_object_file(&module, output)?,
    }
    Ok(diagnostics)
}

/// The program in `input` lowered as [`emit_file`] lowers it, as LLVM IR text (before
/// LLVM's own optimizations), with the diagnostics of the lowering.
pub fn llvm_ir_of_file(input: &Path, variant: Variant, threads: Threads) -> Result<(String, Vec<String>), String> {
    let context = array_dialect::context();
    let (module, diagnostics) = lowered(&context, input, variant, threads)?;
    Ok((translate_to_llvm_ir(&module)?, diagnostics))
}

/// `input` loaded, its public functions marked for the C interface and lowered to the
/// LLVM dialect; the lowering's diagnostics.
fn lowered<'c>(
    context: &'c Context,
    input: &Path,
    variant: Variant,
    threads: Threads,
) -> Result<(Module<'c>, Vec<String>), String> {
    let mut module = array_dialect::source::load_file(context, input).map_err(|e| format!("does not load: {e}"))?;
    mark_c_interface(context, &module);
    let diagnostics = lower_to_llvm_with(context, &mut module, variant, threads)?;
    Ok((module, diagnostics))
}
