//! The STREAM triad `a[i] = b[i] + s*c[i]` over `n` f64, the memory bandwidth reference
//! of the kernel benchmark, measured two ways in the benchmark's own process: as a plain
//! Rust loop into preallocated arrays (McCalpin's STREAM), and as an `array.map` program
//! compiled by our pipeline and called through the raw path (so it allocates its result
//! each call, as every compiled program does). Bandwidth uses STREAM's convention: 24 bytes
//! per iteration (two 8-byte reads and one 8-byte write; the write-allocate read of `a` is
//! not counted). Times: the median of the runs after two warm-up runs.

use crate::measure::median;
use fusion_codegen::{
    Variant,
    raw::{self, Arg, Buffer},
};
use fusion_interpreter::{ElemType, Type, Value};
use std::hint::black_box;
use std::time::Instant;

/// The triad as an `array` program.
pub const TRIAD_PROGRAM: &str = r#"func.func @triad(%b: tensor<?xf64>, %c: tensor<?xf64>, %s: f64) -> tensor<?xf64> {
  %a = array.map %b, %c : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64, %y: f64):
    %m = arith.mulf %s, %y : f64
    %r = arith.addf %x, %m : f64
    array.yield %r : f64
  }
  return %a : tensor<?xf64>
}
"#;

/// Runs before the timed ones, not counted: the first touch of fresh pages (and the
/// machine settling) makes them several times slower.
const WARM_UP: usize = 2;

/// STREAM's bytes per triad iteration.
pub const TRIAD_BYTES_PER_ELEMENT: f64 = 24.0;

/// GB/s (10^9 bytes per second) of moving `bytes` in `ms`.
pub fn gb_per_s(bytes: f64, ms: f64) -> f64 {
    bytes / (ms * 1e-3) / 1e9
}

/// A measured triad: median time of `reps` runs, and the bandwidth.
#[derive(Clone, Copy, Debug)]
pub struct Triad {
    pub ms: f64,
    pub gb_s: f64,
}

fn inputs(n: usize) -> (Vec<f64>, Vec<f64>) {
    ((0..n).map(|i| (i % 64) as f64 / 8.0).collect(), (0..n).map(|i| ((i * 7) % 64) as f64 / 8.0).collect())
}

/// The triad as a Rust loop over preallocated, already touched arrays.
pub fn rust_triad(n: usize, reps: usize) -> Triad {
    let (b, c) = inputs(n);
    let mut a = vec![0.0f64; n];
    let s = black_box(3.0f64);
    let mut times = Vec::new();
    for _ in 0..reps.max(1) + WARM_UP {
        let started = Instant::now();
        for ((a, b), c) in a.iter_mut().zip(&b).zip(&c) {
            *a = b + s * c;
        }
        black_box(&mut a);
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    assert!(a[n - 1] == b[n - 1] + s * c[n - 1]);
    let ms = median(&mut times[WARM_UP..]);
    Triad { ms, gb_s: gb_per_s(TRIAD_BYTES_PER_ELEMENT * n as f64, ms) }
}

/// The triad compiled from [`TRIAD_PROGRAM`] and called on raw buffers; checks one result.
pub fn jit_triad(n: usize, reps: usize) -> Result<Triad, String> {
    let path = std::env::temp_dir().join(format!("kernel-bench-triad-{}.mlir", std::process::id()));
    std::fs::write(&path, TRIAD_PROGRAM).map_err(|e| format!("{}: {e}", path.display()))?;
    let compiled = raw::compile_file(&path, Variant::Fused, None);
    let _ = std::fs::remove_file(&path);
    let compiled = compiled?;
    let (b, c) = inputs(n);
    let buffer = |v: &[f64]| -> Result<Buffer, String> {
        let mut out = Buffer::zeroed(ElemType::F64, vec![n])?;
        for (o, x) in out.bytes_mut().chunks_exact_mut(8).zip(v) {
            o.copy_from_slice(&x.to_le_bytes());
        }
        Ok(out)
    };
    let (mut bb, mut cb) = (buffer(&b)?, buffer(&c)?);
    let vector = Type::Tensor { elem: ElemType::F64, shape: vec![None] };
    let signature = [vector.clone(), vector.clone(), Type::Scalar(ElemType::F64)];
    let mut times = Vec::new();
    for _ in 0..reps.max(1) + WARM_UP {
        let mut args = [Arg::Tensor(&mut bb), Arg::Tensor(&mut cb), Arg::Scalar(Value::F64(3.0))];
        let (out, ms) = compiled.call("triad", &signature, std::slice::from_ref(&vector), &mut args)?;
        times.push(ms);
        if times.len() == 1
            && let Some(raw::Output::Tensor(t)) = out.first()
        {
            let last = t.to_buffer().to_f64s()[n - 1];
            if last != b[n - 1] + 3.0 * c[n - 1] {
                return Err(format!("the compiled triad computed {last}"));
            }
        }
    }
    let ms = median(&mut times[WARM_UP..]);
    Ok(Triad { ms, gb_s: gb_per_s(TRIAD_BYTES_PER_ELEMENT * n as f64, ms) })
}
