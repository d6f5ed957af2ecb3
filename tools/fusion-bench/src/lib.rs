//! The pieces of the kernel benchmark (`kernel-bench`): the bytes-moved model
//! ([`traffic`]), unfused against fused calls on raw buffers ([`measure`]) and the STREAM
//! triad ([`stream`]). The ILP solve-time benchmark (`fusion-bench`) is `main.rs`.

pub mod measure;
pub mod stream;
pub mod traffic;
