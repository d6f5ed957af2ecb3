//! Code generation for `array` programs. CPU: the lowering pipeline (`array-to-loops`, then
//! MLIR's upstream passes down to the LLVM dialect), JIT compilation through melior's
//! `ExecutionEngine`, and calls of the compiled functions on the reference interpreter's
//! values, so that the interpreter, the unfused and the fused compiled program can be
//! compared on the same inputs: [`check`] compares, [`inputs`] makes the inputs
//! (generated from a seed, or read from [`npy`] files). GPU: [`gpu`] compiles one kernel
//! per loop nest to PTX or AMDGPU assembly; [`cuda`] runs them on an NVIDIA GPU through
//! the CUDA driver, loaded at run time.

pub mod aot;
pub mod check;
pub mod cuda;
pub mod gpu;
pub mod inputs;
pub mod jit;
pub mod npy;
pub mod pipeline;
pub mod raw;
pub mod vector_math;

pub use check::{CheckOutcome, check_file, check_function};
pub use jit::{Compiled, compile_emulated_kernels_file, compile_file, compile_file_with};
pub use pipeline::{LaunchShape, ScatterForm, Threads, Variant, lower_to_llvm, lower_to_llvm_with};
