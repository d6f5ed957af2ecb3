//! Calls of compiled functions on raw buffers: tensor arguments are typed, word-aligned
//! byte buffers with a shape ([`Buffer`]), results come back as tensors that own their
//! memory ([`Tensor`]) and free it when dropped. This is the path for large inputs
//! (benchmarks at 10^7 elements), where marshalling interpreter [`Value`]s element by
//! element would dominate.
//! The calling convention is `jit.rs`'s (see its module header): `_mlir_ciface_<name>`
//! through the packed wrapper, memrefs as pointers to strided descriptors, several results
//! or a memref result through a pointer to a C struct that comes first.
//!
//! Ownership of results. The lowering runs MLIR's `buffer-deallocation-pipeline`
//! (ownership-based buffer deallocation). Its function boundary ABI
//! (`mlir/Dialect/Bufferization/Transforms/Passes.td`, `ownership-based-buffer-deallocation`):
//! "Returning a MemRef from a function always passes ownership to the caller", arguments
//! are never owned by the callee, and "a function must not return a MemRef with the same
//! allocated base buffer as one of its arguments (in this case a copy has to be created)".
//! Checked on MLIR 22: `return %arg` and `return` of a `memref.get_global` constant both
//! become `bufferization.clone`s (fresh `malloc`s after `finalize-memref-to-llvm`). The ABI
//! does *not* keep two results apart: `return %x, %x` returns one allocation twice. So a
//! result allocation is freed (with libc `free`, the allocator `finalize-memref-to-llvm`
//! calls) exactly once, when the last result tensor sharing it is dropped; and, defensively,
//! a result whose allocated pointer is that of an argument is copied out and never freed.
//!
//! Arguments. One-shot bufferization treats function arguments as writable, so compiled
//! code may write into a tensor argument (a `scatter` into an argument): arguments are
//! borrowed mutably, and a caller that repeats a call on the same inputs should pass fresh
//! copies where that matters.

use crate::jit::Compiled;
use crate::pipeline::Variant;
use fusion_interpreter::{ElemType, Type, Value};
use std::{path::Path, rc::Rc, time::Instant};

unsafe extern "C" {
    fn free(pointer: *mut std::ffi::c_void);
    fn madvise(address: *mut std::ffi::c_void, length: usize, advice: i32) -> i32;
}

/// Linux's `MADV_HUGEPAGE` (the same number on every architecture).
const MADV_HUGEPAGE: i32 = 14;

pub use crate::jit::elem_size;

/// Row-major strides of `shape`, in elements.
fn row_major(shape: &[usize]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * shape[k + 1] as i64;
    }
    strides
}

/// One element from `bytes` (`n` bytes), as a value of type `e` (the JIT's marshalling).
fn get(bytes: &[u8], e: ElemType, n: usize) -> Value {
    crate::jit::get(&bytes[..n], e)
}

/// A dense, row-major, contiguous tensor in a word-aligned buffer owned by Rust.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    pub elem: ElemType,
    pub shape: Vec<usize>,
    words: Vec<u64>,
}

impl Buffer {
    /// A buffer of zeros.
    pub fn zeroed(elem: ElemType, shape: Vec<usize>) -> Result<Buffer, String> {
        let bytes = elem_size(elem)? * shape.iter().product::<usize>();
        Ok(Buffer { elem, shape, words: vec![0u64; bytes.div_ceil(8).max(1)] })
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements' bytes (exactly `len() * elem_size` of them).
    pub fn bytes(&self) -> &[u8] {
        let n = self.len() * elem_size(self.elem).unwrap_or(8);
        // SAFETY: u64 storage viewed as bytes; `n` never exceeds the storage (see `zeroed`).
        unsafe { std::slice::from_raw_parts(self.words.as_ptr() as *const u8, n) }
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        let n = self.len() * elem_size(self.elem).unwrap_or(8);
        // SAFETY: as in `bytes`, uniquely borrowed.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr() as *mut u8, n) }
    }

    /// A copy whose storage, when it is at least `min_bytes` long, is advised for
    /// transparent huge pages before the elements are written into it: the memory the
    /// compiled program's own large buffers get (`array-huge-pages`) and NumPy's large
    /// arrays get too, so that a benchmark's inputs are backed like the arrays the program
    /// computes. Without huge pages (another OS, a kernel without them) it is a plain copy.
    pub fn copy_on_huge_pages(&self, min_bytes: usize) -> Buffer {
        let n = self.words.len();
        let mut words: Vec<u64> = Vec::with_capacity(n);
        let bytes = n * 8;
        if cfg!(target_os = "linux") && bytes >= min_bytes.max(8192) {
            // Whole pages inside the (not yet touched) allocation only.
            let address = words.as_mut_ptr() as usize;
            let start = (address + 4095) & !4095;
            let end = (address + bytes) & !4095;
            // SAFETY: advice on pages inside an allocation this function owns; it changes
            // neither contents nor permissions, and its result is ignored on purpose.
            unsafe { madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE) };
        }
        words.extend_from_slice(&self.words);
        Buffer { elem: self.elem, shape: self.shape.clone(), words }
    }

    /// The elements as `f64`s (floats and integers converted), for comparisons.
    pub fn to_f64s(&self) -> Vec<f64> {
        let n = elem_size(self.elem).unwrap_or(8);
        self.bytes()
            .chunks_exact(n)
            .flat_map(|c| match get(c, self.elem, n) {
                Value::F32(x) => vec![x as f64],
                Value::F64(x) => vec![x],
                Value::Complex { re, im } => vec![re, im],
                v => vec![v.as_i64().unwrap_or(0) as f64],
            })
            .collect()
    }

    /// The buffer of a tensor value.
    pub fn from_value(v: &Value) -> Result<Buffer, String> {
        let t = v.as_tensor().ok_or_else(|| format!("{v} is not a tensor"))?;
        let mut b = Buffer::zeroed(t.elem, t.shape.clone())?;
        let n = elem_size(t.elem)?;
        let bytes = b.bytes_mut();
        for (i, x) in t.elements.iter().enumerate() {
            crate::jit::put(&mut bytes[i * n..(i + 1) * n], x, t.elem)?;
        }
        Ok(b)
    }

    /// The tensor value of the buffer.
    pub fn to_value(&self) -> Value {
        let n = elem_size(self.elem).unwrap_or(8);
        let elements = self.bytes().chunks_exact(n).map(|c| get(c, self.elem, n)).collect();
        Value::tensor(self.elem, self.shape.clone(), elements)
    }
}

/// An argument: a scalar value, or a tensor in a buffer (borrowed mutably: see the module
/// header).
pub enum Arg<'a> {
    Scalar(Value),
    Tensor(&'a mut Buffer),
}

/// Memory the compiled code allocated and handed over; freed once, when dropped.
struct Allocation(*mut u8);

impl Drop for Allocation {
    fn drop(&mut self) {
        // SAFETY: a result's allocated pointer, owned by the caller under the ABI of the
        // module header, distinct from every argument, and shared through one `Rc`, so it
        // is freed exactly once; it came from `malloc` (finalize-memref-to-llvm's default).
        unsafe { free(self.0.cast()) }
    }
}

/// Where a result tensor's elements live.
enum Storage {
    /// Allocated by the compiled code and owned by the caller.
    /// Held for its `Drop`.
    Owned { _allocation: Rc<Allocation> },
    /// Copied out (a result that aliased an argument, which the ABI rules out).
    Copied(Buffer),
}

/// A tensor result of a compiled call: a strided view of memory the caller owns.
pub struct Tensor {
    pub elem: ElemType,
    pub shape: Vec<usize>,
    /// In elements, as in the memref descriptor.
    pub strides: Vec<i64>,
    offset: i64,
    aligned: *const u8,
    storage: Storage,
}

impl Tensor {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The address of the first element (for a caller that inspects the memory behind the
    /// result, as the huge-page test does).
    pub fn data_address(&self) -> usize {
        match &self.storage {
            Storage::Copied(b) => b.bytes().as_ptr() as usize,
            Storage::Owned { .. } => self.aligned as usize + self.offset as usize * elem_size(self.elem).unwrap_or(8),
        }
    }

    /// Whether the result allocation is owned (and will be freed) here, rather than copied.
    pub fn is_owned(&self) -> bool {
        matches!(self.storage, Storage::Owned { .. })
    }

    /// The elements as a dense row-major buffer (a copy).
    pub fn to_buffer(&self) -> Buffer {
        match &self.storage {
            Storage::Copied(b) => b.clone(),
            Storage::Owned { .. } => gather(self.elem, &self.shape, &self.strides, self.offset, self.aligned),
        }
    }

    /// The tensor as an interpreter value (a copy).
    pub fn to_value(&self) -> Value {
        self.to_buffer().to_value()
    }
}

/// Copies the strided view `(aligned, offset, shape, strides)` into a dense buffer.
fn gather(elem: ElemType, shape: &[usize], strides: &[i64], offset: i64, aligned: *const u8) -> Buffer {
    let n = elem_size(elem).unwrap_or(8);
    let mut out = Buffer::zeroed(elem, shape.to_vec()).expect("the element type was checked");
    let count = out.len();
    if count == 0 {
        return out;
    }
    if strides == row_major(shape) {
        // SAFETY: a contiguous run of `count` live elements, as the descriptor says.
        let src = unsafe { std::slice::from_raw_parts(aligned.offset(offset as isize * n as isize), count * n) };
        out.bytes_mut().copy_from_slice(src);
        return out;
    }
    let rank = shape.len();
    let mut index = vec![0usize; rank];
    let bytes = out.bytes_mut();
    for i in 0..count {
        let pos = offset + index.iter().zip(strides).map(|(&k, &s)| k as i64 * s).sum::<i64>();
        // SAFETY: the descriptor describes live elements at these positions.
        let src = unsafe { std::slice::from_raw_parts(aligned.offset(pos as isize * n as isize), n) };
        bytes[i * n..(i + 1) * n].copy_from_slice(src);
        for k in (0..rank).rev() {
            index[k] += 1;
            if index[k] < shape[k] {
                break;
            }
            index[k] = 0;
        }
    }
    out
}

/// A result of a compiled call.
pub enum Output {
    Scalar(Value),
    Tensor(Tensor),
}

impl Output {
    /// The result as an interpreter value (tensors copied).
    pub fn to_value(&self) -> Value {
        match self {
            Output::Scalar(v) => v.clone(),
            Output::Tensor(t) => t.to_value(),
        }
    }
}

/// A JIT-compiled module called through raw buffers.
pub struct RawCompiled {
    compiled: Compiled,
}

/// Compiles the file exactly as [`crate::jit::compile_file`] does (the same lowering;
/// `only`: keep just that function and its callees), for raw calls.
pub fn compile_file(path: &Path, variant: Variant, only: Option<&str>) -> Result<RawCompiled, String> {
    compile_file_with(path, variant, only, crate::Threads::Sequential)
}

/// [`compile_file`], with parallel loops run as `threads` says.
pub fn compile_file_with(
    path: &Path,
    variant: Variant,
    only: Option<&str>,
    threads: crate::Threads,
) -> Result<RawCompiled, String> {
    fusion_passes::register_all_passes();
    crate::jit::compile_file_with(path, variant, only, threads).map(|compiled| RawCompiled { compiled })
}

/// What a value of a type is in the C interface: a scalar, or a memref of some rank.
#[derive(Clone, Copy)]
enum Slot {
    Scalar(ElemType, usize),
    Memref(ElemType, usize),
}

fn slot(t: &Type) -> Result<Slot, String> {
    match t {
        Type::Scalar(e) => Ok(Slot::Scalar(*e, elem_size(*e)?)),
        Type::Tensor { elem, shape } => elem_size(*elem).map(|_| Slot::Memref(*elem, shape.len())),
        Type::Other(s) => Err(format!("type {s} is not supported by the raw calling path")),
    }
}

impl RawCompiled {
    /// Whether public `@name` was compiled.
    pub fn has(&self, name: &str) -> bool {
        !self.compiled.engine().lookup(&format!("_mlir__mlir_ciface_{name}")).is_null()
    }

    /// Calls public `@name` with signature `inputs -> results` on `args`: the results, and
    /// the time of the call itself in ms.
    pub fn call(
        &self,
        name: &str,
        inputs: &[Type],
        results: &[Type],
        args: &mut [Arg],
    ) -> Result<(Vec<Output>, f64), String> {
        if inputs.len() != args.len() {
            return Err(format!("@{name} takes {} arguments, got {}", inputs.len(), args.len()));
        }
        if !self.has(name) {
            return Err(format!("no compiled function @{name}"));
        }
        // The words the packed array points at: a scalar's bits, or a descriptor pointer.
        let mut descriptors: Vec<Vec<i64>> = Vec::new();
        let mut argument_bases: Vec<*const u8> = Vec::new();
        for (t, a) in inputs.iter().zip(args.iter_mut()) {
            match (slot(t)?, a) {
                (Slot::Memref(e, rank), Arg::Tensor(b)) => {
                    if b.elem != e || b.shape.len() != rank {
                        return Err(format!("a {} buffer of rank {} passed for {t:?}", b.elem, b.shape.len()));
                    }
                    let ptr = b.bytes_mut().as_mut_ptr();
                    argument_bases.push(ptr);
                    let mut d = vec![ptr as i64, ptr as i64, 0];
                    d.extend(b.shape.iter().map(|&x| x as i64));
                    d.extend(row_major(&b.shape));
                    descriptors.push(d);
                }
                (Slot::Scalar(e, n), Arg::Scalar(v)) => {
                    let mut words = vec![0i64; n.div_ceil(8)];
                    // SAFETY: i64 storage viewed as its bytes (at least `n` of them).
                    let bytes =
                        unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut u8, words.len() * 8) };
                    crate::jit::put(bytes, v, e)?;
                    descriptors.push(words);
                }
                _ => return Err(format!("argument of type {t:?} passed as the wrong kind (scalar/tensor)")),
            }
        }
        let mut pointers: Vec<Vec<i64>> = Vec::new();
        for (t, d) in inputs.iter().zip(descriptors.iter_mut()) {
            pointers.push(match slot(t)? {
                Slot::Memref(..) => vec![d.as_mut_ptr() as i64],
                // The packed array points at the scalar's words themselves.
                Slot::Scalar(..) => d.clone(),
            });
        }
        // One C struct of all results, fields at their natural alignment.
        let out_slots = results.iter().map(slot).collect::<Result<Vec<_>, _>>()?;
        let mut offsets = Vec::new();
        let mut size = 0usize;
        for s in &out_slots {
            let (n, a) = match *s {
                Slot::Scalar(e, n) => (n, crate::jit::elem_align(e)),
                Slot::Memref(_, rank) => (8 * (3 + 2 * rank), 8),
            };
            size = size.div_ceil(a) * a;
            offsets.push(size);
            size += n;
        }
        let mut result = vec![0u64; size.div_ceil(8).max(1)];
        let mut result_pointer = [result.as_mut_ptr() as u64];
        let by_pointer = out_slots.len() > 1 || matches!(out_slots.first(), Some(Slot::Memref(..)));
        let mut packed: Vec<*mut ()> = Vec::new();
        if by_pointer {
            packed.push(result_pointer.as_mut_ptr() as *mut ());
        }
        for p in pointers.iter_mut() {
            packed.push(p.as_mut_ptr() as *mut ());
        }
        if !by_pointer && !out_slots.is_empty() {
            packed.push(result.as_mut_ptr() as *mut ());
        }
        let started = Instant::now();
        // SAFETY: the packed array follows the C interface (module header of jit.rs); every
        // pointer points at live, word-aligned storage of the right size; tensor arguments
        // are uniquely borrowed for the call.
        unsafe { self.compiled.engine().invoke_packed(name, &mut packed) }
            .map_err(|e| format!("the call failed: {e}"))?;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        // SAFETY: plain words viewed as bytes.
        let bytes = unsafe { std::slice::from_raw_parts(result.as_ptr() as *const u8, result.len() * 8) };
        // SAFETY: the call filled the result struct as `out_slots` describe.
        let out = unsafe { read_outputs(bytes, &out_slots, &offsets, &argument_bases) };
        Ok((out, ms))
    }
}

/// The outputs of a call from the C struct `bytes` (laid out at `offsets` as `out_slots`
/// say). Tensor results sharing one allocation share its ownership; a result whose
/// allocation is an argument's buffer (`argument_bases`, ruled out by the ABI) is copied out.
///
/// # Safety
/// `bytes` must hold what the compiled function wrote: every memref descriptor in it
/// describes live elements of an allocation the caller now owns (or of an argument).
unsafe fn read_outputs(
    bytes: &[u8],
    out_slots: &[Slot],
    offsets: &[usize],
    argument_bases: &[*const u8],
) -> Vec<Output> {
    let mut allocations: Vec<Rc<Allocation>> = Vec::new();
    let mut out = Vec::new();
    for (s, &off) in out_slots.iter().zip(offsets) {
        match *s {
            Slot::Scalar(e, n) => out.push(Output::Scalar(get(&bytes[off..], e, n))),
            Slot::Memref(e, rank) => {
                let word = |k: usize| i64::from_le_bytes(bytes[off + 8 * k..off + 8 * k + 8].try_into().unwrap());
                let allocated = word(0) as *mut u8;
                let (shape, strides): (Vec<usize>, Vec<i64>) = (
                    (0..rank).map(|k| word(3 + k) as usize).collect(),
                    (0..rank).map(|k| word(3 + rank + k)).collect(),
                );
                let (offset, aligned) = (word(2), word(1) as *const u8);
                let tensor = if argument_bases.contains(&(allocated as *const u8)) {
                    // Ruled out by the ABI; never free an argument: copy it out.
                    let copy = gather(e, &shape, &strides, offset, aligned);
                    let (strides, aligned) = (row_major(&shape), copy.bytes().as_ptr());
                    Tensor { elem: e, shape, strides, offset: 0, aligned, storage: Storage::Copied(copy) }
                } else {
                    let shared = match allocations.iter().find(|a| a.0 == allocated) {
                        Some(a) => a.clone(),
                        None => {
                            let a = Rc::new(Allocation(allocated));
                            allocations.push(a.clone());
                            a
                        }
                    };
                    Tensor { elem: e, shape, strides, offset, aligned, storage: Storage::Owned { _allocation: shared } }
                };
                out.push(Output::Tensor(tensor));
            }
        }
    }
    out
}
