//! The pieces of the kernel benchmark (`kernel-bench`): the bytes-moved model
//! ([`traffic`]), unfused against fused calls on raw buffers ([`measure`]) and the STREAM
//! triad ([`stream`]); the SVG plots ([`plot`]); the programs' graphs as the analysis sees
//! them ([`graphs`]); quiet ends into closed pipes ([`broken_pipe`]). The ILP solve-time benchmark
//! (`fusion-bench`) is `main.rs`, the strategies side by side `bin/strategy-bench.rs`.

pub mod broken_pipe;
pub mod graphs;
pub mod measure;
pub mod plot;
pub mod same_code;
pub mod stream;
pub mod traffic;
