//! Compiled execution: a module is lowered (`array-desugar` or the whole `array-fusion`
//! pipeline first, then `array-to-loops` and MLIR 22's upstream pipeline to the LLVM
//! dialect), JIT-compiled with melior's `ExecutionEngine`, and its public functions are
//! called on interpreter [`Value`]s.
//!
//! Calling convention. Every public function is marked `llvm.emit_c_interface`, so
//! `convert-func-to-llvm` emits `_mlir_ciface_<name>`, and the execution engine wraps it as
//! `_mlir__mlir_ciface_<name>(void **args)`, reached with `invoke_packed("_mlir_ciface_<name>")`.
//! In the C interface a ranked memref argument is a *pointer* to its strided descriptor
//! `{ allocated, aligned, offset, sizes[N], strides[N] }` (all 8-byte words here), so the
//! packed array holds a pointer to that pointer; a scalar argument is passed by value, so
//! the packed array holds a pointer to the value. Results: a single scalar result is
//! returned by value and the packed wrapper stores it through one extra, last pointer;
//! a memref result or several results are returned through a pointer to a C struct of
//! them (the descriptors in order, scalars with their natural alignment) that comes
//! FIRST in the C argument list.
//!
//! Memory. Input tensors are copied into buffers owned here; the compiled code never frees
//! its arguments (bufferization treats them as not owned). Result buffers belong to the
//! caller under the function-boundary ABI of ownership-based buffer deallocation (the
//! argument and the guarantees are spelled out in `raw.rs`'s module header): their
//! elements are copied into interpreter values and each distinct allocation is then freed
//! once; one whose allocated pointer is an argument's buffer (ruled out by the ABI) is
//! never freed.

use crate::pipeline::{Threads, Variant, lower_to_llvm_with, runtime_libraries_for};

unsafe extern "C" {
    fn free(pointer: *mut std::ffi::c_void);
}
use fusion_interpreter::{ElemType, Type, Value};
use melior::{
    Context, ExecutionEngine,
    ir::{
        Attribute, BlockLike, RegionLike,
        attribute::{FlatSymbolRefAttribute, StringAttribute},
        operation::{OperationLike, OperationMutLike, WalkOrder, WalkResult},
    },
};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// A JIT-compiled module. The engine holds its own LLVM module; the MLIR context is kept
/// alive beside it for good measure (dropped after the engine).
pub struct Compiled {
    engine: ExecutionEngine,
    _context: Context,
    /// The warnings and remarks of the lowering (`pipeline::lower_to_llvm_with`).
    diagnostics: Vec<String>,
    /// The accesses `array-gpu-emulate` checks, by the number its fault record gives
    /// (empty when the module has no emulated kernels).
    checked_accesses: Vec<String>,
}

fn sym_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<String> {
    op.attribute("sym_name").ok().and_then(|a| StringAttribute::try_from(a).ok()).map(|s| s.value().to_owned())
}

fn is_private<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    op.attribute("sym_visibility")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .is_some_and(|s| s.value() == "private")
}

/// The functions `func.call`ed (directly) from inside `op`.
fn callees<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Vec<String> {
    let mut found = Vec::new();
    op.walk(WalkOrder::PreOrder, |inner| {
        if inner.name().as_string_ref().as_str() == Ok("func.call")
            && let Some(callee) = inner.attribute("callee").ok().and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
        {
            found.push(callee.value().to_owned());
        }
        WalkResult::Advance
    });
    found
}

/// Compiles the file. `only`: keep just that function and the functions it calls,
/// transitively (made private, so they get no C interface); the others are erased first, so
/// that one function that cannot be lowered yet does not keep the others from compiling.
pub fn compile_file(path: &Path, variant: Variant, only: Option<&str>) -> Result<Compiled, String> {
    compile_file_with(path, variant, only, Threads::Sequential)
}

/// [`compile_file`], with parallel loops run as `threads` says.
pub fn compile_file_with(
    path: &Path,
    variant: Variant,
    only: Option<&str>,
    threads: Threads,
) -> Result<Compiled, String> {
    if let Threads::Gpu(_) = threads {
        crate::cuda::driver()?;
    }
    let gpu = matches!(threads, Threads::Gpu(_));
    compile(path, only, runtime_libraries_for(threads), gpu, |context, module| {
        lower_to_llvm_with(context, module, variant, threads)
    })
}

/// Compiles the file's programs for NVIDIA `chip`: the kernels as PTX, the host program
/// JIT-compiled with the GPU runtime functions of [`crate::cuda`] (which need the CUDA
/// driver only when called). `Threads::Gpu` does this for the driver's device.
pub fn compile_file_for_gpu(
    path: &Path,
    variant: Variant,
    only: Option<&str>,
    chip: &str,
    expand: crate::gpu::ExpandStrategy,
) -> Result<Compiled, String> {
    compile(path, only, runtime_libraries_for(Threads::Sequential), true, |context, module| {
        let mut diagnostics = crate::pipeline::run_pipeline_with_diagnostics(
            context,
            module,
            &format!("builtin.module({}, array-to-loops)", variant.prefix()),
        )?;
        diagnostics.extend(crate::pipeline::kernels_and_host_to_llvm(context, module, chip, expand)?);
        Ok(diagnostics)
    })
}

/// Compiles a file of hand-written `gpu.launch` kernels on buffers (already bufferized),
/// emulated on the CPU with every access checked (`array-gpu-emulate`): a call reports
/// the first out-of-bounds access or data race as an error.
pub fn compile_emulated_kernels_file(path: &Path, only: Option<&str>) -> Result<Compiled, String> {
    compile(path, only, runtime_libraries_for(Threads::Sequential), false, |context, module| {
        crate::pipeline::run_pipeline_with_diagnostics(
            context,
            module,
            &format!("builtin.module({})", crate::pipeline::emulated_kernels_to_llvm()),
        )
    })
}

/// Loads the file, keeps `only` and its callees (see [`compile_file`]), lowers the module
/// to the LLVM dialect with `lower`, and JIT-compiles it with the `runtime` libraries
/// (and, for `gpu`, the GPU runtime functions of [`crate::cuda`]).
fn compile(
    path: &Path,
    only: Option<&str>,
    runtime: Vec<String>,
    gpu: bool,
    lower: impl FnOnce(&Context, &mut melior::ir::Module) -> Result<Vec<String>, String>,
) -> Result<Compiled, String> {
    fusion_passes::register_all_passes();
    crate::vector_math::enable();
    let context = array_dialect::context();
    let checked_accesses;
    let diagnostics;
    let engine = {
        let mut module = array_dialect::source::load_file(&context, path).map_err(|e| format!("does not load: {e}"))?;
        // The call graph, to keep `only` and its callees.
        let mut calls: HashMap<String, Vec<String>> = HashMap::new();
        let mut op = module.body().first_operation();
        while let Some(f) = op {
            op = f.next_in_block();
            if f.name().as_string_ref().as_str() == Ok("func.func") {
                calls.insert(sym_name(&f).unwrap_or_default(), callees(&f));
            }
        }
        let mut keep: HashSet<String> = HashSet::new();
        let mut work: Vec<String> = only.map(str::to_owned).into_iter().collect();
        while let Some(name) = work.pop() {
            if keep.insert(name.clone()) {
                work.extend(calls.get(&name).into_iter().flatten().cloned());
            }
        }
        // Mark public functions; erase the others when compiling one function alone.
        let mut op = module.body().first_operation_mut();
        while let Some(mut f) = op {
            op = f.next_in_block_mut();
            if f.name().as_string_ref().as_str() != Ok("func.func") {
                continue;
            }
            let name = sym_name(&f).unwrap_or_default();
            if let Some(only) = only {
                if !keep.contains(&name) {
                    f.remove_from_parent();
                    // SAFETY: unlinked above, so this is now the only owner; dropping destroys it.
                    drop(unsafe { melior::ir::Operation::from_raw(f.to_raw()) });
                    continue;
                }
                if name != only {
                    f.set_inherent_attribute("sym_visibility", StringAttribute::new(&context, "private").into());
                }
            }
            if !is_private(&f) && f.region(0).is_ok_and(|r| r.first_block().is_some()) {
                f.set_discardable_attribute("llvm.emit_c_interface", Attribute::unit(&context));
            }
        }
        if !module.as_operation().verify() {
            return Err("the module does not verify after the other functions are erased".into());
        }
        diagnostics = lower(&context, &mut module)?;
        checked_accesses = take_checked_accesses(&mut module);
        // The C API may read the paths as C strings: keep a NUL right after each slice.
        let runtime: Vec<String> = runtime.into_iter().map(|p| p + "\0").collect();
        let libraries: Vec<&str> = runtime.iter().map(|p| &p[..p.len() - 1]).collect();
        let engine = ExecutionEngine::new(&module, 2, &libraries, false, false);
        // The GPU runtime functions of a host program, over the driver that
        // `compile_file_with` loaded.
        if gpu {
            crate::cuda::register_runtime(&engine);
        }
        engine
    };
    Ok(Compiled { engine, _context: context, diagnostics, checked_accesses })
}

/// The table of accesses checked by `array-gpu-emulate` (the module attribute), removed
/// from the module: the LLVM IR translation has no use for it.
fn take_checked_accesses(module: &mut melior::ir::Module) -> Vec<String> {
    let mut op = module.as_operation_mut();
    let Some(table) = op
        .attribute(fusion_passes::to_gpu::emulate::ACCESSES_ATTRIBUTE)
        .ok()
        .and_then(|a| melior::ir::attribute::ArrayAttribute::try_from(a).ok())
    else {
        return Vec::new();
    };
    let accesses = (0..table.len())
        .filter_map(|k| table.element(k).ok())
        .map(|a| StringAttribute::try_from(a).map(|s| s.value().to_owned()).unwrap_or_else(|_| a.to_string()))
        .collect();
    let _ = op.remove_discardable_attribute(fusion_passes::to_gpu::emulate::ACCESSES_ATTRIBUTE);
    accesses
}

/// The storage of a call's arguments: element buffers, descriptors, and the values the
/// packed array points at (a descriptor pointer for memrefs, the value itself for
/// scalars). The pointers inside stay valid while this lives (vectors are not resized).
struct Arguments {
    data: Vec<Vec<u64>>,
    descriptors: Vec<Vec<i64>>,
    values: Vec<Vec<u64>>,
}

fn marshal_arguments(in_slots: &[Slot], args: &[Value]) -> Result<Arguments, String> {
    let mut data: Vec<Vec<u64>> = Vec::new();
    let mut descriptors: Vec<Vec<i64>> = Vec::new();
    let mut values: Vec<Vec<u64>> = Vec::new();
    for (s, v) in in_slots.iter().zip(args) {
        match *s {
            Slot::Scalar(e) => {
                let mut w = words(elem_size(e)?);
                put(as_bytes(&mut w), v, e)?;
                values.push(w);
            }
            Slot::Memref(e, rank) => {
                let t = v.as_tensor().ok_or_else(|| format!("argument {v} is not a tensor"))?;
                if t.rank() != rank || t.elem != e {
                    return Err(format!("argument {v} does not have the declared type"));
                }
                let n = elem_size(e)?;
                let mut buffer = words(n * t.len());
                {
                    let bytes = as_bytes(&mut buffer);
                    for (i, x) in t.elements.iter().enumerate() {
                        put(&mut bytes[i * n..], x, e)?;
                    }
                }
                let ptr = buffer.as_mut_ptr() as i64;
                let mut d = vec![ptr, ptr, 0];
                d.extend(t.shape.iter().map(|&x| x as i64));
                let mut strides = vec![1i64; rank];
                for k in (0..rank.saturating_sub(1)).rev() {
                    strides[k] = strides[k + 1] * t.shape[k + 1] as i64;
                }
                d.extend(strides);
                data.push(buffer);
                descriptors.push(d);
                let mut w = words(8);
                w[0] = descriptors.last_mut().unwrap().as_mut_ptr() as u64;
                values.push(w);
            }
        }
    }
    Ok(Arguments { data, descriptors, values })
}

/// The results of a call from the C struct `bytes` (laid out at `offsets` as `out_slots`
/// say); then frees each distinct result allocation that is not an argument's buffer in
/// `arguments` (see the module header).
///
/// # Safety
/// `bytes` must hold what the compiled function wrote: every memref descriptor in it
/// describes live elements of the compiled code's allocations, owned by the caller.
unsafe fn read_results(
    bytes: &[u8],
    out_slots: &[Slot],
    offsets: &[usize],
    arguments: &[Vec<u64>],
) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    let mut allocations = std::collections::BTreeSet::new();
    for (s, &off) in out_slots.iter().zip(offsets) {
        match *s {
            Slot::Scalar(e) => out.push(get(&bytes[off..], e)),
            Slot::Memref(e, rank) => {
                let word = |k: usize| i64::from_le_bytes(bytes[off + 8 * k..off + 8 * k + 8].try_into().unwrap());
                allocations.insert(word(0));
                let aligned = word(1) as *const u8;
                let offset = word(2);
                let sizes: Vec<usize> = (0..rank).map(|k| word(3 + k) as usize).collect();
                let strides: Vec<i64> = (0..rank).map(|k| word(3 + rank + k)).collect();
                let n = elem_size(e)?;
                let count: usize = sizes.iter().product();
                let mut elements = Vec::with_capacity(count);
                let mut index = vec![0usize; rank];
                for _ in 0..count {
                    let pos = offset + index.iter().zip(&strides).map(|(&i, &s)| i as i64 * s).sum::<i64>();
                    // SAFETY: the descriptor comes from the compiled code and describes
                    // `count` live elements at these positions.
                    let element = unsafe { std::slice::from_raw_parts(aligned.offset(pos as isize * n as isize), n) };
                    elements.push(get(element, e));
                    for k in (0..rank).rev() {
                        index[k] += 1;
                        if index[k] < sizes[k] {
                            break;
                        }
                        index[k] = 0;
                    }
                }
                out.push(Value::tensor(e, sizes, elements));
            }
        }
    }
    for buffer in arguments {
        allocations.remove(&(buffer.as_ptr() as i64));
    }
    for allocation in allocations {
        // SAFETY: a result allocation the compiled code handed over (the caller owns it
        // under the ABI above), not an argument's buffer, freed once (the set holds each
        // allocation once) after its elements were copied out; it came from `malloc`,
        // the allocator `finalize-memref-to-llvm` calls.
        unsafe { free(allocation as *mut std::ffi::c_void) }
    }
    Ok(out)
}

/// What a value of type `t` is in the C interface.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Scalar(ElemType),
    Memref(ElemType, usize),
}

/// Bytes of one element in memory (LLVM's alloc size on x86-64).
pub fn elem_size(e: ElemType) -> Result<usize, String> {
    Ok(match e {
        ElemType::Int(w) if w <= 8 => 1,
        ElemType::Int(w) if w <= 16 => 2,
        ElemType::Int(w) if w <= 32 => 4,
        ElemType::Int(_) | ElemType::Index | ElemType::F64 => 8,
        ElemType::F32 => 4,
        // `complex<T>` is the LLVM struct `{T, T}`.
        ElemType::Complex32 => 8,
        ElemType::Complex64 => 16,
        other => return Err(format!("element type {other} is not supported by the marshalling")),
    })
}

/// Alignment of one element: a complex number aligns as its parts.
pub(crate) fn elem_align(e: ElemType) -> usize {
    match e {
        ElemType::Complex32 => 4,
        ElemType::Complex64 => 8,
        other => elem_size(other).unwrap_or(8),
    }
}

fn slot(t: &Type) -> Result<Slot, String> {
    match t {
        Type::Scalar(e) => elem_size(*e).map(|_| Slot::Scalar(*e)),
        Type::Tensor { elem, shape } => elem_size(*elem).map(|_| Slot::Memref(*elem, shape.len())),
        Type::Other(s) => Err(format!("type {s} is not supported by the marshalling")),
    }
}

/// Size and alignment of a slot in a C struct.
fn size_align(s: Slot) -> (usize, usize) {
    match s {
        Slot::Scalar(e) => (elem_size(e).unwrap_or(8), elem_align(e)),
        Slot::Memref(_, rank) => (8 * (3 + 2 * rank), 8),
    }
}

/// Writes one element (little-endian, `n` bytes).
pub(crate) fn put(bytes: &mut [u8], v: &Value, e: ElemType) -> Result<(), String> {
    let n = elem_size(e)?;
    if let (ElemType::Complex32 | ElemType::Complex64, Value::Complex { re, im }) = (e, v) {
        let part = if e == ElemType::Complex32 { ElemType::F32 } else { ElemType::F64 };
        let value = |x: f64| if part == ElemType::F32 { Value::F32(x as f32) } else { Value::F64(x) };
        put(bytes, &value(*re), part)?;
        return put(&mut bytes[n / 2..], &value(*im), part);
    }
    let bits: u64 = match (e, v) {
        (ElemType::F32, Value::F32(x)) => x.to_bits() as u64,
        (ElemType::F64, Value::F64(x)) => x.to_bits(),
        (ElemType::Index, Value::Index(i)) => *i as u64,
        (ElemType::Int(_), Value::Int { bits, .. }) => *bits,
        _ => return Err(format!("value {v} is not of type {e}")),
    };
    bytes[..n].copy_from_slice(&bits.to_le_bytes()[..n]);
    Ok(())
}

/// Reads one element.
pub(crate) fn get(bytes: &[u8], e: ElemType) -> Value {
    let n = elem_size(e).unwrap_or(8);
    if matches!(e, ElemType::Complex32 | ElemType::Complex64) {
        let part = if e == ElemType::Complex32 { ElemType::F32 } else { ElemType::F64 };
        let float = |v: Value| match v {
            Value::F32(x) => x as f64,
            Value::F64(x) => x,
            _ => f64::NAN,
        };
        return Value::complex(float(get(bytes, part)), float(get(&bytes[n / 2..], part)));
    }
    let mut b = [0u8; 8];
    b[..n].copy_from_slice(&bytes[..n]);
    let bits = u64::from_le_bytes(b);
    match e {
        ElemType::F32 => Value::F32(f32::from_bits(bits as u32)),
        ElemType::F64 => Value::F64(f64::from_bits(bits)),
        ElemType::Index => Value::Index(bits as i64),
        ElemType::Int(1) => Value::i1(bits & 1 == 1),
        ElemType::Int(w) => {
            let x = if w >= 64 { bits as i64 } else { ((bits << (64 - w)) as i64) >> (64 - w) };
            Value::int(w, x)
        }
        _ => Value::Opaque(0),
    }
}

/// A word-aligned byte buffer.
fn words(bytes: usize) -> Vec<u64> {
    vec![0u64; bytes.div_ceil(8).max(1)]
}

fn as_bytes(w: &mut [u64]) -> &mut [u8] {
    // SAFETY: u64 storage viewed as bytes; same length in bytes, alignment only decreases.
    unsafe { std::slice::from_raw_parts_mut(w.as_mut_ptr() as *mut u8, w.len() * 8) }
}

impl Compiled {
    /// After a call: the first fault the checks of `array-gpu-emulate` recorded, as an
    /// error naming the access, the threads and the element; the record is cleared.
    fn emulated_gpu_faults(&self) -> Result<(), String> {
        if self.checked_accesses.is_empty() {
            return Ok(());
        }
        let record = self.engine.lookup(fusion_passes::to_gpu::emulate::FAULT_RECORD) as *mut i64;
        if record.is_null() {
            return Err("the emulated GPU kernels' fault record is missing from the compiled module".into());
        }
        // SAFETY: the record is the module's global `memref<10xi64>`, laid out as an array
        // of 10 i64 (emulation_checks.mlir); the call that wrote it has returned.
        let fault: Vec<i64> = unsafe {
            let fault = std::slice::from_raw_parts_mut(record, 10);
            let copy = fault.to_vec();
            fault.fill(0);
            copy
        };
        if fault[0] == 0 {
            return Ok(());
        }
        let access = usize::try_from(fault[2])
            .ok()
            .and_then(|k| self.checked_accesses.get(k))
            .map_or_else(|| format!("access {}", fault[2]), |a| a.clone());
        let (me, other) =
            (format!("block {} thread {}", fault[3], fault[4]), format!("block {} thread {}", fault[5], fault[6]));
        let what = match fault[1] {
            1 => format!(
                "{me} uses index {} in dimension {}, whose extent is {} (out of bounds; the access was skipped)",
                fault[8], fault[7], fault[9]
            ),
            2 => format!(
                "{me} writes element {} after {other} wrote it, with no barrier between (a data race)",
                fault[7]
            ),
            3 => format!("{me} reads element {}, which {other} wrote with no barrier between (a data race)", fault[7]),
            4 => format!(
                "{me} writes element {}, which {other} read or updated atomically with no barrier between (a data race)",
                fault[7]
            ),
            5 => format!(
                "{me} updates element {} atomically, which {other} wrote with no barrier between (a data race)",
                fault[7]
            ),
            kind => format!("fault of unknown kind {kind}"),
        };
        let more = if fault[0] > 1 { format!(" ({} faults in all; the first:)", fault[0]) } else { String::new() };
        Err(format!("the emulated GPU kernels faulted{more}: {access}: {what}"))
    }

    /// The execution engine, for other calling conventions of the same code (`raw.rs`).
    /// The warnings and remarks of the lowering of this module.
    pub fn diagnostics(&self) -> &[String] {
        &self.diagnostics
    }

    pub(crate) fn engine(&self) -> &ExecutionEngine {
        &self.engine
    }

    /// Whether public `@name` was compiled and linked (its C interface resolves: every
    /// function it calls, runtime functions included, was found).
    pub fn has_function(&self, name: &str) -> bool {
        !self.engine.lookup(&format!("_mlir__mlir_ciface_{name}")).is_null()
    }

    /// Calls public `@name` with signature `inputs -> results` on `args`.
    /// Also returns the time of the call itself in ms (after JIT materialization).
    pub fn call(
        &self,
        name: &str,
        inputs: &[Type],
        results: &[Type],
        args: &[Value],
    ) -> Result<(Vec<Value>, f64), String> {
        if inputs.len() != args.len() {
            return Err(format!("@{name} takes {} arguments, got {}", inputs.len(), args.len()));
        }
        let in_slots = inputs.iter().map(slot).collect::<Result<Vec<_>, _>>()?;
        let out_slots = results.iter().map(slot).collect::<Result<Vec<_>, _>>()?;
        let Arguments { data, descriptors, mut values } = marshal_arguments(&in_slots, args)?;
        // Result storage: one C struct of all results (offsets with natural alignment).
        let mut offsets = Vec::new();
        let mut size = 0usize;
        for s in &out_slots {
            let (n, a) = size_align(*s);
            size = size.div_ceil(a) * a;
            offsets.push(size);
            size += n;
        }
        let mut result = words(size);
        let by_pointer = out_slots.len() > 1 || matches!(out_slots.first(), Some(Slot::Memref(..)));
        let mut result_pointer = words(8);
        result_pointer[0] = result.as_mut_ptr() as u64;
        let mut packed: Vec<*mut ()> = Vec::new();
        if by_pointer {
            packed.push(result_pointer.as_mut_ptr() as *mut ());
        }
        for v in values.iter_mut() {
            packed.push(v.as_mut_ptr() as *mut ());
        }
        if !by_pointer && !out_slots.is_empty() {
            packed.push(result.as_mut_ptr() as *mut ());
        }
        // melior's `invoke_packed(name)` calls MLIR's C API, which prefixes `_mlir_ciface_`
        // and then calls that function's packed wrapper `_mlir__mlir_ciface_<name>`.
        if self.engine.lookup(&format!("_mlir__mlir_ciface_{name}")).is_null() {
            return Err(format!("no compiled function @{name}"));
        }
        // SAFETY: the packed array follows the C interface described in the module header;
        // every pointer points at live, word-aligned storage of the right size.
        let started = std::time::Instant::now();
        unsafe { self.engine.invoke_packed(name, &mut packed) }.map_err(|e| format!("the call failed: {e}"))?;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        if let Some(failure) = crate::cuda::take_failure() {
            return Err(format!("the GPU run failed: {failure}"));
        }
        self.emulated_gpu_faults()?;
        // Read the results back, then free their allocations (see the module header).
        // SAFETY: the call filled the result struct as `out_slots` describe.
        let out = unsafe { read_results(as_bytes(&mut result), &out_slots, &offsets, &data) }?;
        drop((data, descriptors));
        Ok((out, ms))
    }
}
