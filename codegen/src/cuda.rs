//! Running the GPU kernels on an NVIDIA GPU (`fuse-opt --run --gpu`): the driver and MLIR's
//! GPU runtime functions come from the `fusion-gpu-runtime` crate; here they are registered
//! with the JIT that runs a host program of [`crate::gpu`].

pub use fusion_gpu_runtime::{Driver, driver, runtime_symbols, take_failure};

/// Registers [`runtime_symbols`] with `engine`, before anything of it is looked up.
pub fn register_runtime(engine: &melior::ExecutionEngine) {
    for (name, pointer) in runtime_symbols() {
        // SAFETY: each pointer is an `extern "C"` function with the signature the host
        // program declares for that name (MLIR's GPU runtime interface).
        unsafe { engine.register_symbol(name, pointer) };
    }
}
