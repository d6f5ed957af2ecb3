//! Running GPU kernels on an NVIDIA GPU: the CUDA driver API, loaded at run time from
//! `libcuda.so.1` (nothing of CUDA is needed to build), and the few host functions of MLIR's
//! GPU runtime interface that the host programs of `fusion_codegen::gpu` call
//! (`mgpuMemAlloc`, `mgpuMemcpy`, `mgpuModuleLoadJIT`, `mgpuLaunchKernel`, …; Debian's MLIR
//! ships no CUDA runtime wrappers), written over the driver.
//!
//! Two users: `fuse-opt --run --gpu` registers [`runtime_symbols`] with its JIT
//! (`fusion_codegen::cuda::register_runtime`), and this crate is also built as the shared
//! library `libfusion_gpu_runtime.so`, which exports the same functions under their C names
//! for a host program written by `fuse-opt --emit-gpu` (`host.ll`) and compiled ahead of
//! time (`scripts/gpu-hardware/`). [`fusionGpuTakeFailure`] gives such a caller what
//! [`take_failure`] gives the JIT.
//!
//! The driver is `libcuda.so.1`, or the library `FUSION_CUDA_DRIVER` names. Where none is
//! found, [`driver`] says so, and `--gpu` ends with that message and
//! exit code 1 before anything is compiled. MLIR's own wrappers print a failing driver
//! call and go on; these record the first failure ([`take_failure`]), which the caller
//! turns into an error after the call, so a failed launch never passes for a result.

// The runtime functions keep the C names MLIR's host programs call.
#![allow(non_snake_case)]

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::sync::{Mutex, OnceLock};

type CuResult = c_int;
type Device = c_int;
type Context = *mut c_void;
type Module = *mut c_void;
type Function = *mut c_void;
type Stream = *mut c_void;
type DevicePtr = u64;

/// The driver entry points used here (names and signatures of `cuda.h`, API version 2
/// where one exists).
struct Api {
    init: unsafe extern "C" fn(c_uint) -> CuResult,
    device_get: unsafe extern "C" fn(*mut Device, c_int) -> CuResult,
    device_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, Device) -> CuResult,
    device_get_name: unsafe extern "C" fn(*mut c_char, c_int, Device) -> CuResult,
    primary_ctx_retain: unsafe extern "C" fn(*mut Context, Device) -> CuResult,
    ctx_set_current: unsafe extern "C" fn(Context) -> CuResult,
    get_error_name: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
    stream_create: unsafe extern "C" fn(*mut Stream, c_uint) -> CuResult,
    stream_synchronize: unsafe extern "C" fn(Stream) -> CuResult,
    stream_destroy: unsafe extern "C" fn(Stream) -> CuResult,
    mem_alloc: unsafe extern "C" fn(*mut DevicePtr, usize) -> CuResult,
    mem_alloc_managed: unsafe extern "C" fn(*mut DevicePtr, usize, c_uint) -> CuResult,
    mem_free: unsafe extern "C" fn(DevicePtr) -> CuResult,
    memcpy_async: unsafe extern "C" fn(DevicePtr, DevicePtr, usize, Stream) -> CuResult,
    module_load_data_ex:
        unsafe extern "C" fn(*mut Module, *const c_void, c_uint, *mut c_int, *mut *mut c_void) -> CuResult,
    module_unload: unsafe extern "C" fn(Module) -> CuResult,
    module_get_function: unsafe extern "C" fn(*mut Function, Module, *const c_char) -> CuResult,
    launch_kernel: unsafe extern "C" fn(
        Function,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        Stream,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> CuResult,
}

/// The loaded driver, its first device and that device's primary context.
pub struct Driver {
    api: Api,
    context: Context,
    /// `sm_XY` of the device (its compute capability).
    pub chip: String,
    /// The device's name, as the driver gives it.
    pub name: String,
    _library: libloading::Library,
}

// SAFETY: the driver API is thread-safe; the context handle is only passed to it.
unsafe impl Send for Driver {}
unsafe impl Sync for Driver {}

/// The driver, loaded and initialised once; or why there is none.
pub fn driver() -> Result<&'static Driver, String> {
    static DRIVER: OnceLock<Result<Driver, String>> = OnceLock::new();
    DRIVER.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn load() -> Result<Driver, String> {
    // `FUSION_CUDA_DRIVER` names another library (a driver outside the loader's path).
    let path = std::env::var("FUSION_CUDA_DRIVER").unwrap_or_else(|_| "libcuda.so.1".into());
    // SAFETY: loading the system's CUDA driver library runs its initialisers, as any
    // CUDA program does.
    let library = unsafe { libloading::Library::new(&path) }
        .map_err(|e| format!("no CUDA driver: {path} cannot be loaded ({e})"))?;
    macro_rules! symbol {
        ($name:literal) => {
            // SAFETY: the symbol has the signature of `cuda.h` declared in `Api`.
            *unsafe { library.get($name) }.map_err(|e| {
                format!("the CUDA driver lacks {}: {e}", String::from_utf8_lossy(&$name[..$name.len() - 1]))
            })?
        };
    }
    let api = Api {
        init: symbol!(b"cuInit\0"),
        device_get: symbol!(b"cuDeviceGet\0"),
        device_get_attribute: symbol!(b"cuDeviceGetAttribute\0"),
        device_get_name: symbol!(b"cuDeviceGetName\0"),
        primary_ctx_retain: symbol!(b"cuDevicePrimaryCtxRetain\0"),
        ctx_set_current: symbol!(b"cuCtxSetCurrent\0"),
        get_error_name: symbol!(b"cuGetErrorName\0"),
        stream_create: symbol!(b"cuStreamCreate\0"),
        stream_synchronize: symbol!(b"cuStreamSynchronize\0"),
        stream_destroy: symbol!(b"cuStreamDestroy_v2\0"),
        mem_alloc: symbol!(b"cuMemAlloc_v2\0"),
        mem_alloc_managed: symbol!(b"cuMemAllocManaged\0"),
        mem_free: symbol!(b"cuMemFree_v2\0"),
        memcpy_async: symbol!(b"cuMemcpyAsync\0"),
        module_load_data_ex: symbol!(b"cuModuleLoadDataEx\0"),
        module_unload: symbol!(b"cuModuleUnload\0"),
        module_get_function: symbol!(b"cuModuleGetFunction\0"),
        launch_kernel: symbol!(b"cuLaunchKernel\0"),
    };
    let check = |what: &str, r: CuResult| -> Result<(), String> {
        if r == 0 { Ok(()) } else { Err(format!("{what} failed: {}", error_name(&api, r))) }
    };
    // SAFETY: calls of the driver API with valid out-pointers.
    unsafe {
        check("cuInit", (api.init)(0))?;
        let mut device: Device = 0;
        check("cuDeviceGet (no CUDA device?)", (api.device_get)(&mut device, 0))?;
        let (mut major, mut minor) = (0, 0);
        // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR.
        check("cuDeviceGetAttribute", (api.device_get_attribute)(&mut major, 75, device))?;
        check("cuDeviceGetAttribute", (api.device_get_attribute)(&mut minor, 76, device))?;
        let mut name = [0 as c_char; 256];
        check("cuDeviceGetName", (api.device_get_name)(name.as_mut_ptr(), 256, device))?;
        let mut context: Context = std::ptr::null_mut();
        check("cuDevicePrimaryCtxRetain", (api.primary_ctx_retain)(&mut context, device))?;
        check("cuCtxSetCurrent", (api.ctx_set_current)(context))?;
        Ok(Driver {
            api,
            context,
            chip: format!("sm_{major}{minor}"),
            name: CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned(),
            _library: library,
        })
    }
}

fn error_name(api: &Api, r: CuResult) -> String {
    let mut name: *const c_char = std::ptr::null();
    // SAFETY: the driver writes a static string's address.
    if unsafe { (api.get_error_name)(r, &mut name) } == 0 && !name.is_null() {
        format!("{} ({r})", unsafe { CStr::from_ptr(name) }.to_string_lossy())
    } else {
        format!("CUDA error {r}")
    }
}

/// The first driver call that failed since the last [`take_failure`].
static FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// The first failure of a runtime function since the last call, if any (cleared).
pub fn take_failure() -> Option<String> {
    FAILURE.lock().map(|mut f| f.take()).unwrap_or(None)
}

/// Records `r` of driver call `what` if it failed (the first failure is kept).
fn note(what: &str, r: CuResult) {
    if r == 0 {
        return;
    }
    let message = match driver() {
        Ok(d) => format!("{what} failed: {}", error_name(&d.api, r)),
        Err(e) => format!("{what}: {e}"),
    };
    if let Ok(mut failure) = FAILURE.lock()
        && failure.is_none()
    {
        *failure = Some(message);
    }
}

/// The driver for a runtime function, its context current on the calling thread; without
/// one the failure is recorded and the function does nothing (it must not unwind into
/// the JIT-compiled caller).
fn api() -> Option<&'static Api> {
    match driver() {
        Ok(d) => {
            // SAFETY: a context of this driver; the JIT may call from another thread
            // than the one that loaded the driver.
            unsafe { (d.api.ctx_set_current)(d.context) };
            Some(&d.api)
        }
        Err(why) => {
            if let Ok(mut failure) = FAILURE.lock()
                && failure.is_none()
            {
                *failure = Some(format!("the GPU runtime was called without a driver: {why}"));
            }
            None
        }
    }
}

/// [`take_failure`] for C callers: the first failure since the last call, written into
/// `buffer` (at most `capacity` bytes, NUL-terminated, cut short if longer); returns the
/// message's full length, 0 when nothing failed (the failure is cleared either way).
///
/// # Safety
/// `buffer` is null or points to `capacity` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fusionGpuTakeFailure(buffer: *mut c_char, capacity: usize) -> usize {
    let Some(message) = take_failure() else { return 0 };
    if !buffer.is_null() && capacity > 0 {
        let n = message.len().min(capacity - 1);
        // SAFETY: `n + 1 <= capacity` bytes of the caller's buffer.
        unsafe {
            std::ptr::copy_nonoverlapping(message.as_ptr(), buffer.cast::<u8>(), n);
            *buffer.add(n) = 0;
        }
    }
    message.len()
}

// --- MLIR's GPU runtime interface (CudaRuntimeWrappers.cpp), over the driver ----------
// Exported under MLIR's names, for host programs compiled ahead of time.

#[unsafe(no_mangle)]
pub extern "C" fn mgpuStreamCreate() -> Stream {
    let mut stream: Stream = std::ptr::null_mut();
    if let Some(api) = api() {
        // CU_STREAM_NON_BLOCKING.
        note("cuStreamCreate", unsafe { (api.stream_create)(&mut stream, 1) });
    }
    stream
}

/// # Safety
/// Called by generated code (MLIR's GPU runtime ABI): `stream` is null or a stream of `mgpuStreamCreate` not yet destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuStreamSynchronize(stream: Stream) {
    if let Some(api) = api() {
        note("cuStreamSynchronize", unsafe { (api.stream_synchronize)(stream) });
    }
}

/// # Safety
/// Called by generated code (MLIR's GPU runtime ABI): `stream` is null or a stream of `mgpuStreamCreate` not yet destroyed; it is not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuStreamDestroy(stream: Stream) {
    if let Some(api) = api() {
        note("cuStreamDestroy", unsafe { (api.stream_destroy)(stream) });
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn mgpuMemAlloc(size: u64, _stream: Stream, host_shared: u8) -> *mut c_void {
    if size == 0 {
        return std::ptr::null_mut();
    }
    let mut pointer: DevicePtr = 0;
    let Some(api) = api() else { return std::ptr::null_mut() };
    if host_shared != 0 {
        // CU_MEM_ATTACH_GLOBAL: the host reaches it too.
        note("cuMemAllocManaged", unsafe { (api.mem_alloc_managed)(&mut pointer, size as usize, 1) });
    } else {
        note("cuMemAlloc", unsafe { (api.mem_alloc)(&mut pointer, size as usize) });
    }
    pointer as *mut c_void
}

#[unsafe(no_mangle)]
pub extern "C" fn mgpuMemFree(pointer: *mut c_void, _stream: Stream) {
    if !pointer.is_null()
        && let Some(api) = api()
    {
        note("cuMemFree", unsafe { (api.mem_free)(pointer as DevicePtr) });
    }
}

/// # Safety
/// Called by generated code (MLIR's GPU runtime ABI): `target` and `source` address `size` bytes each (device, managed or host memory the driver can reach), and `stream` is as for `mgpuStreamSynchronize`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemcpy(target: *mut c_void, source: *mut c_void, size: u64, stream: Stream) {
    if size > 0
        && let Some(api) = api()
    {
        note("cuMemcpyAsync", unsafe {
            (api.memcpy_async)(target as DevicePtr, source as DevicePtr, size as usize, stream)
        });
    }
}

/// # Safety
/// Called by generated code (MLIR's GPU runtime ABI): `ptx` points to a NUL-terminated PTX text.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuModuleLoadJIT(ptx: *mut c_void, optimisation: c_int) -> Module {
    let mut module: Module = std::ptr::null_mut();
    let Some(api) = api() else { return module };
    // CU_JIT_OPTIMIZATION_LEVEL (7), its value passed in the pointer-sized slot.
    let mut options = [7 as c_int];
    let mut values = [optimisation as isize as *mut c_void];
    note("cuModuleLoadDataEx", unsafe {
        (api.module_load_data_ex)(&mut module, ptx, 1, options.as_mut_ptr(), values.as_mut_ptr())
    });
    module
}

/// # Safety
/// Called by generated code (MLIR's GPU runtime ABI): `module` is null or a module of `mgpuModuleLoadJIT` not yet unloaded; it is not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuModuleUnload(module: Module) {
    if !module.is_null()
        && let Some(api) = api()
    {
        note("cuModuleUnload", unsafe { (api.module_unload)(module) });
    }
}

/// # Safety
/// Called by generated code (MLIR's GPU runtime ABI): `module` is a module of `mgpuModuleLoadJIT` not yet unloaded and `name` a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuModuleGetFunction(module: Module, name: *const c_char) -> Function {
    let mut function: Function = std::ptr::null_mut();
    if let Some(api) = api() {
        note("cuModuleGetFunction", unsafe { (api.module_get_function)(&mut function, module, name) });
    }
    function
}

/// # Safety
/// Called by generated code (MLIR's GPU runtime ABI): `function` comes from `mgpuModuleGetFunction` of a loaded module, `parameters` points to one pointer per kernel parameter, each to a value of that parameter's type, `extra` is null, and `stream` is as for `mgpuStreamSynchronize`.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuLaunchKernel(
    function: Function,
    grid_x: u64,
    grid_y: u64,
    grid_z: u64,
    block_x: u64,
    block_y: u64,
    block_z: u64,
    shared_bytes: i32,
    stream: Stream,
    parameters: *mut *mut c_void,
    extra: *mut *mut c_void,
    _parameter_count: u64,
) {
    let too_big = [grid_x, grid_y, grid_z, block_x, block_y, block_z].iter().any(|d| *d > u32::MAX as u64);
    if too_big {
        note("cuLaunchKernel (a grid or block dimension above 2^32 - 1)", 1);
        return;
    }
    let Some(api) = api() else { return };
    note("cuLaunchKernel", unsafe {
        (api.launch_kernel)(
            function,
            grid_x as c_uint,
            grid_y as c_uint,
            grid_z as c_uint,
            block_x as c_uint,
            block_y as c_uint,
            block_z as c_uint,
            shared_bytes as c_uint,
            stream,
            parameters,
            extra,
        )
    });
}

/// The runtime functions the host program calls, by name, for the JIT.
pub fn runtime_symbols() -> Vec<(&'static str, *mut ())> {
    vec![
        ("mgpuStreamCreate", mgpuStreamCreate as *mut ()),
        ("mgpuStreamSynchronize", mgpuStreamSynchronize as *mut ()),
        ("mgpuStreamDestroy", mgpuStreamDestroy as *mut ()),
        ("mgpuMemAlloc", mgpuMemAlloc as *mut ()),
        ("mgpuMemFree", mgpuMemFree as *mut ()),
        ("mgpuMemcpy", mgpuMemcpy as *mut ()),
        ("mgpuModuleLoadJIT", mgpuModuleLoadJIT as *mut ()),
        ("mgpuModuleUnload", mgpuModuleUnload as *mut ()),
        ("mgpuModuleGetFunction", mgpuModuleGetFunction as *mut ()),
        ("mgpuLaunchKernel", mgpuLaunchKernel as *mut ()),
    ]
}
