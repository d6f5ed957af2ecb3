//! The C API (`include/array-fusion.h`): the dialect handle, the passes, the lowering and
//! the reports, for C and C++ hosts that use MLIR's C API and do not load plugins.
//!
//! Conventions are MLIR's: handles are structs holding a pointer, strings go out through
//! `MlirStringCallback`, a failed creation returns a null handle and gives the reason to the
//! caller's error callback. No function unwinds: a panic becomes an error.

use crate::{Reports, register_passes};
use fusion_passes::bridge::{PassDefinition, create_pass};
use mlir_sys::{MlirDialectHandle, MlirLogicalResult, MlirOpPassManager, MlirPass, MlirStringCallback, MlirStringRef};
use std::ffi::{c_char, c_void};

/// `ArrayFusionReports`: a shared [`Reports`] sink.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ArrayFusionReports {
    pub ptr: *mut c_void,
}

fn send(text: &str, callback: MlirStringCallback, user_data: *mut c_void) {
    if let Some(callback) = callback {
        // SAFETY: the string lives during the call; the callback is the caller's.
        unsafe { callback(MlirStringRef { data: text.as_ptr() as *const c_char, length: text.len() }, user_data) };
    }
}

/// # Safety
/// `text` points at `length` readable bytes (or is empty).
unsafe fn string(text: MlirStringRef) -> String {
    if text.length == 0 {
        return String::new();
    }
    // SAFETY: as the caller promises.
    String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) }).into_owned()
}

fn guarded<T>(
    fallback: T,
    on_error: MlirStringCallback,
    user_data: *mut c_void,
    body: impl FnOnce() -> Result<T, String>,
) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(Ok(value)) => value,
        Ok(Err(message)) => {
            send(&message, on_error, user_data);
            fallback
        }
        Err(_) => {
            send("internal error in the array-fusion C API", on_error, user_data);
            fallback
        }
    }
}

const NULL_PASS: MlirPass = MlirPass { ptr: std::ptr::null_mut() };

fn logical(success: bool) -> MlirLogicalResult {
    MlirLogicalResult { value: success as i8 }
}

/// # Safety
/// `reports` is null or made by `arrayFusionReportsCreate` and not destroyed.
unsafe fn reports_of<'r>(reports: ArrayFusionReports) -> Option<&'r Reports> {
    // SAFETY: as the caller promises.
    (!reports.ptr.is_null()).then(|| unsafe { &*(reports.ptr as *const Reports) })
}

#[unsafe(no_mangle)]
pub extern "C" fn arrayFusionGetDialectHandle() -> MlirDialectHandle {
    array_dialect::dialect_handle().to_raw()
}

#[unsafe(no_mangle)]
pub extern "C" fn arrayFusionRegisterPasses() {
    let _ = std::panic::catch_unwind(register_passes);
}

fn plain_pass(definition: &'static PassDefinition) -> MlirPass {
    guarded(NULL_PASS, None, std::ptr::null_mut(), || {
        register_passes();
        create_pass(definition, "", None).map(|p| p.to_raw())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn arrayFusionCreateRotateWhilePass() -> MlirPass {
    plain_pass(&fusion_passes::rotate_while::DEFINITION)
}

#[unsafe(no_mangle)]
pub extern "C" fn arrayFusionCreateDesugarPass() -> MlirPass {
    plain_pass(&fusion_passes::desugar::DEFINITION)
}

#[unsafe(no_mangle)]
pub extern "C" fn arrayFusionCreateSimplifyGathersPass() -> MlirPass {
    plain_pass(&fusion_passes::simplify_gathers::DEFINITION)
}

#[unsafe(no_mangle)]
pub extern "C" fn arrayFusionCreateFusePass() -> MlirPass {
    plain_pass(&fusion_passes::fuse::DEFINITION)
}

#[unsafe(no_mangle)]
pub extern "C" fn arrayFusionCreateToLoopsPass() -> MlirPass {
    plain_pass(&fusion_passes::to_loops::DEFINITION)
}

/// The analysis pass with `options` in pipeline syntax, reporting into `reports` (may be null).
///
/// # Safety
/// `options` is a valid string reference; `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionCreateAnalysisPass(
    options: MlirStringRef,
    reports: ArrayFusionReports,
    on_error: MlirStringCallback,
    user_data: *mut c_void,
) -> MlirPass {
    // SAFETY: as the caller promises.
    let (options, reports) = unsafe { (string(options), reports_of(reports).cloned()) };
    guarded(NULL_PASS, on_error, user_data, || analysis_pass(&options, reports.as_ref()).map(|p| p.to_raw()))
}

fn analysis_pass(options: &str, reports: Option<&Reports>) -> Result<melior::pass::Pass, String> {
    register_passes();
    let sink = reports.map(|r| Box::new(r.sink()) as fusion_passes::bridge::PassState);
    create_pass(&fusion_passes::fusion_analysis::DEFINITION, options, sink)
}

/// Adds the `array-fusion` passes on every `func.func` under `pm` (a module's pass manager).
///
/// # Safety
/// `pm` is a live op pass manager; `options` and `reports` as for the analysis pass.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionAddFusionPasses(
    pm: MlirOpPassManager,
    options: MlirStringRef,
    reports: ArrayFusionReports,
    on_error: MlirStringCallback,
    user_data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: as the caller promises.
    let (options, reports) = unsafe { (string(options), reports_of(reports).cloned()) };
    guarded(logical(false), on_error, user_data, || {
        // Create the analysis first: a bad option then adds nothing.
        let analysis = analysis_pass(&options, reports.as_ref())?;
        // SAFETY: the caller's live pass manager, borrowed for this call.
        let functions = unsafe { melior::pass::OperationPassManager::from_raw(pm) }.nested_under("func.func");
        functions.add_pass(crate::passes::rotate_while());
        functions.add_pass(crate::passes::desugar());
        functions.add_pass(crate::passes::simplify_gathers());
        functions.add_pass(analysis);
        functions.add_pass(crate::passes::fuse());
        Ok(logical(true))
    })
}

/// Adds MLIR's lowering of the loop nests down to the LLVM dialect to `pm` (a module's pass
/// manager), with `scf.parallel` as OpenMP loops when `openmp` is true.
///
/// # Safety
/// `pm` is a live op pass manager.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionAddLoweringToLLVM(
    pm: MlirOpPassManager,
    openmp: bool,
    on_error: MlirStringCallback,
    user_data: *mut c_void,
) -> MlirLogicalResult {
    guarded(logical(false), on_error, user_data, || {
        let threads = if openmp { crate::Threads::OpenMp(Default::default()) } else { crate::Threads::Sequential };
        // SAFETY: the caller's live pass manager, borrowed for this call.
        crate::add_lowering_to_llvm_to(unsafe { melior::pass::OperationPassManager::from_raw(pm) }, threads)
            .map(|()| logical(true))
            .map_err(|e| e.0)
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn arrayFusionReportsCreate() -> ArrayFusionReports {
    ArrayFusionReports { ptr: Box::into_raw(Box::new(Reports::new())) as *mut c_void }
}

/// # Safety
/// `reports` is null or made by `arrayFusionReportsCreate` and not destroyed yet. Passes
/// given it keep their own share, so they may outlive it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsDestroy(reports: ArrayFusionReports) {
    if !reports.ptr.is_null() {
        // SAFETY: as the caller promises.
        drop(unsafe { Box::from_raw(reports.ptr as *mut Reports) });
    }
}

/// The report of analysed block `index`, if both exist.
///
/// # Safety
/// As for `reports_of`.
unsafe fn report(reports: ArrayFusionReports, index: isize) -> Option<crate::FunctionReport> {
    // SAFETY: as the caller promises.
    let reports = unsafe { reports_of(reports) }?;
    usize::try_from(index).ok().and_then(|i| reports.functions().into_iter().nth(i))
}

/// # Safety
/// `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsGetNumFunctions(reports: ArrayFusionReports) -> isize {
    // SAFETY: as the caller promises.
    unsafe { reports_of(reports) }.map_or(0, |r| r.functions().len() as isize)
}

/// # Safety
/// `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsGetFunctionName(
    reports: ArrayFusionReports,
    index: isize,
    callback: MlirStringCallback,
    user_data: *mut c_void,
) {
    // SAFETY: as the caller promises.
    if let Some(r) = unsafe { report(reports, index) } {
        send(&r.name, callback, user_data);
    }
}

/// # Safety
/// `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsGetStatus(
    reports: ArrayFusionReports,
    index: isize,
    callback: MlirStringCallback,
    user_data: *mut c_void,
) {
    // SAFETY: as the caller promises.
    if let Some(r) = unsafe { report(reports, index) } {
        send(r.status.as_str(), callback, user_data);
    }
}

/// # Safety
/// `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsGetObjective(reports: ArrayFusionReports, index: isize) -> f64 {
    // SAFETY: as the caller promises.
    unsafe { report(reports, index) }.map_or(f64::NAN, |r| r.objective)
}

/// # Safety
/// `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsGetBound(reports: ArrayFusionReports, index: isize) -> f64 {
    // SAFETY: as the caller promises.
    unsafe { report(reports, index) }.and_then(|r| r.bound).unwrap_or(f64::NAN)
}

/// # Safety
/// `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsGetNumClusters(reports: ArrayFusionReports, index: isize) -> isize {
    // SAFETY: as the caller promises.
    unsafe { report(reports, index) }.map_or(0, |r| r.clusters.len() as isize)
}

/// # Safety
/// `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsGetClusterSize(
    reports: ArrayFusionReports,
    index: isize,
    cluster: isize,
) -> isize {
    // SAFETY: as the caller promises.
    unsafe { report(reports, index) }
        .and_then(|r| usize::try_from(cluster).ok().and_then(|c| r.clusters.get(c).map(Vec::len)))
        .map_or(0, |n| n as isize)
}

/// # Safety
/// `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsGetClusterMember(
    reports: ArrayFusionReports,
    index: isize,
    cluster: isize,
    member: isize,
    callback: MlirStringCallback,
    user_data: *mut c_void,
) {
    // SAFETY: as the caller promises.
    let name = unsafe { report(reports, index) }.and_then(|r| {
        let c = usize::try_from(cluster).ok()?;
        let m = usize::try_from(member).ok()?;
        r.clusters.get(c)?.get(m).cloned()
    });
    if let Some(name) = name {
        send(&name, callback, user_data);
    }
}

/// # Safety
/// `reports` is null, or made by `arrayFusionReportsCreate` and not destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arrayFusionReportsPrintJson(
    reports: ArrayFusionReports,
    callback: MlirStringCallback,
    user_data: *mut c_void,
) {
    // SAFETY: as the caller promises.
    let json = unsafe { reports_of(reports) }.map_or_else(|| fusion_analysis::report::to_json(&[]), Reports::to_json);
    send(&json, callback, user_data);
}
