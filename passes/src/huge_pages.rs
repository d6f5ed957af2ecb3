//! `array-huge-pages`: large buffers of the compiled program are advised for transparent
//! huge pages (Linux `madvise(MADV_HUGEPAGE)`), as NumPy does with its own large arrays.
//!
//! Why: a fused loop nest streams its arrays at memory bandwidth, but an array in fresh
//! memory first takes one page fault per 4 KiB page. On this project's benchmark machine
//! (a KVM guest with transparent huge pages in `madvise` mode), writing and reading a
//! fresh 80 MB array took about 85 ms with 4 KiB pages and about 23 ms once the range
//! was advised: 2 MiB pages take 512 times fewer faults, and random gathers over such an
//! array miss the TLB far less. The README's benchmark section gives the measurements
//! of whole programs.
//!
//! How: the pass defines, in the module, the three functions that
//! `finalize-memref-to-llvm{use-generic-functions=true}` calls instead of `malloc`,
//! `aligned_alloc` and `free`: `_mlir_memref_to_llvm_alloc`, `_mlir_memref_to_llvm_aligned_alloc`
//! and `_mlir_memref_to_llvm_free`. A block below `min-bytes` comes from the C library's
//! function as before. A block of at least `min-bytes` comes from `aligned_alloc` at a
//! 2 MiB boundary with its size rounded up to whole 2 MiB pages, and the whole block is
//! advised, so that no partial huge page at either end faults in 4 KiB at a time (see
//! `definitions`). The third calls `free`. The functions have internal linkage, so an
//! object file needs nothing beyond the C library, and a buffer the program returns is
//! freed by its caller with `free` as before (glibc's `free` takes `aligned_alloc`'s
//! blocks).
//!
//! Why this is safe: `madvise` with `MADV_HUGEPAGE` changes no contents and no
//! permissions, only how the kernel backs the range; it is applied only to the block the
//! program owns (the whole rounded block `aligned_alloc` returned), and its result is
//! ignored (a kernel without transparent huge pages says `EINVAL`, and the memory stays
//! as it was). The rounding gives the program more memory than it asked for, never less.
//! The cost is the one every user of `MADV_HUGEPAGE` accepts: with the kernel's `defrag`
//! setting at its default (`madvise`), a fault in an advised range may compact memory to
//! find a free 2 MiB page (the first 80 MB array of a process took 0.4 s here), and the
//! rounding adds less than 2 MiB to each large block. `min-bytes`
//! (default 4 MiB) keeps small buffers out of it; a pipeline without the pass (and
//! without `use-generic-functions`) allocates with `malloc` as before. `MADV_HUGEPAGE` is 14 on every Linux architecture; the pass is meant for Linux
//! targets.
//!
//! A module that already defines one of the three functions keeps its own allocator: the
//! pass then adds nothing and says so in a warning.

use crate::bridge::{PassDefinition, PassFailed, PassOption, PassOptions, emit_error, emit_warning};
use melior::{
    Context,
    ir::{OperationRef, operation::OperationLike},
};

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-huge-pages",
    description: "Before finalize-memref-to-llvm{use-generic-functions=true}: define its allocation functions so that every buffer of at least min-bytes is advised for transparent huge pages (madvise MADV_HUGEPAGE, Linux); a module with its own allocation functions is left alone, with a warning",
    anchor: Some("builtin.module"),
    dependent_dialects: &[mlir_sys::mlirGetDialectHandle__llvm__],
    options: &[PassOption {
        name: "min-bytes",
        description: "Smallest buffer advised for huge pages, in bytes (at least 8192; default 4 MiB)",
        default: || DEFAULT_MIN_BYTES.to_string(),
    }],
    state: None,
    run,
};

/// Buffers from this size on are advised and aligned: two 2 MiB pages, so that the
/// rounding to whole huge pages adds at most half again to a block.
pub const DEFAULT_MIN_BYTES: u64 = 4 << 20;

/// The allocation functions `finalize-memref-to-llvm{use-generic-functions=true}` calls.
pub const ALLOCATION_FUNCTIONS: [&str; 3] =
    ["_mlir_memref_to_llvm_alloc", "_mlir_memref_to_llvm_aligned_alloc", "_mlir_memref_to_llvm_free"];

/// The C library functions the definitions call, with their LLVM dialect signatures.
const C_FUNCTIONS: [(&str, &str); 4] = [
    ("malloc", "(i64) -> !llvm.ptr"),
    ("aligned_alloc", "(i64, i64) -> !llvm.ptr"),
    ("free", "(!llvm.ptr)"),
    ("madvise", "(!llvm.ptr, i64, i32) -> i32"),
];

fn run<'c>(context: &'c Context, module: OperationRef<'c, '_>, options: &PassOptions) -> Result<(), PassFailed> {
    let min_bytes = options.get("min-bytes").trim().parse::<u64>().ok().filter(|n| (8192..=1 << 62).contains(n));
    let Some(min_bytes) = min_bytes else {
        emit_error(
            module.location(),
            &format!(
                "array-huge-pages: min-bytes must be an integer from 8192 to 2^62, not '{}'",
                options.get("min-bytes")
            ),
        );
        return Err(PassFailed);
    };
    let defined = crate::ir::module_symbols(module.to_raw());
    if let Some(own) = ALLOCATION_FUNCTIONS.iter().find(|f| defined.iter().any(|d| d == *f)) {
        emit_warning(
            module.location(),
            &format!("array-huge-pages: the module defines its own @{own}; its allocations are left as they are"),
        );
        return Ok(());
    }
    let mut text = String::new();
    for (name, signature) in C_FUNCTIONS {
        // A declaration the module already has (the C library's own function) is used as
        // it is.
        if !defined.iter().any(|d| d == name) {
            text += &format!("llvm.func @{name}{signature}\n");
        }
    }
    text += &definitions(min_bytes);
    crate::ir::append_parsed(context, module.to_raw(), &text).ok_or_else(|| {
        emit_error(module.location(), "array-huge-pages: internal error: the allocation functions do not parse");
        PassFailed
    })
}

/// The three allocation functions and their two helpers, in the LLVM dialect.
///
/// A block of at least `min_bytes` (and at most 2^62 bytes, so that no size below wraps)
/// is allocated by `_fusion_allocate_huge`: `aligned_alloc` at a 2 MiB boundary (or the
/// requested alignment, when larger: both are powers of two), its size rounded up to a
/// multiple of that alignment, then the whole block advised. Every 2 MiB page of the
/// block then lies inside it, so the kernel can back all of it with huge pages; a
/// block from plain `malloc` starts wherever the C library's mapping puts it (16 bytes
/// past a 4 KiB page for glibc), and its partial huge pages at both ends fault in
/// 4 KiB at a time (a fresh 40 MB result written once: 568 faults unaligned, 22
/// aligned; the README's benchmark section gives the times). The rounding costs at most
/// one 2 MiB page of memory beyond the block, which the program never touches but
/// whose fault zeroes it all. The caller still frees the block with `free`.
fn definitions(min_bytes: u64) -> String {
    format!(
        r#"llvm.func internal @_mlir_memref_to_llvm_alloc(%size: i64) -> !llvm.ptr {{
  %large = llvm.call @_fusion_is_large(%size) : (i64) -> i1
  llvm.cond_br %large, ^huge, ^small
^small:
  %p = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
  llvm.return %p : !llvm.ptr
^huge:
  %huge_page = llvm.mlir.constant(2097152 : i64) : i64
  %q = llvm.call @_fusion_allocate_huge(%huge_page, %size) : (i64, i64) -> !llvm.ptr
  llvm.return %q : !llvm.ptr
}}
llvm.func internal @_mlir_memref_to_llvm_aligned_alloc(%alignment: i64, %size: i64) -> !llvm.ptr {{
  %large = llvm.call @_fusion_is_large(%size) : (i64) -> i1
  llvm.cond_br %large, ^huge, ^small
^small:
  %p = llvm.call @aligned_alloc(%alignment, %size) : (i64, i64) -> !llvm.ptr
  llvm.return %p : !llvm.ptr
^huge:
  %huge_page = llvm.mlir.constant(2097152 : i64) : i64
  %wider = llvm.icmp "ugt" %alignment, %huge_page : i64
  %boundary = llvm.select %wider, %alignment, %huge_page : i1, i64
  %q = llvm.call @_fusion_allocate_huge(%boundary, %size) : (i64, i64) -> !llvm.ptr
  llvm.return %q : !llvm.ptr
}}
llvm.func internal @_mlir_memref_to_llvm_free(%p: !llvm.ptr) {{
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  llvm.return
}}
llvm.func internal @_fusion_is_large(%size: i64) -> i1 {{
  %min = llvm.mlir.constant({min_bytes} : i64) : i64
  %max = llvm.mlir.constant(4611686018427387904 : i64) : i64
  %above = llvm.icmp "uge" %size, %min : i64
  %below = llvm.icmp "ule" %size, %max : i64
  %large = llvm.and %above, %below : i1
  llvm.return %large : i1
}}
llvm.func internal @_fusion_allocate_huge(%boundary: i64, %size: i64) -> !llvm.ptr {{
  %one = llvm.mlir.constant(1 : i64) : i64
  %minus_one = llvm.mlir.constant(-1 : i64) : i64
  %zero = llvm.mlir.constant(0 : i64) : i64
  %hugepage = llvm.mlir.constant(14 : i32) : i32
  %less_one = llvm.sub %boundary, %one : i64
  %up = llvm.add %size, %less_one : i64
  %mask = llvm.xor %less_one, %minus_one : i64
  %rounded = llvm.and %up, %mask : i64
  %p = llvm.call @aligned_alloc(%boundary, %rounded) : (i64, i64) -> !llvm.ptr
  %address = llvm.ptrtoint %p : !llvm.ptr to i64
  %allocated = llvm.icmp "ne" %address, %zero : i64
  llvm.cond_br %allocated, ^advise, ^done
^advise:
  %ignored = llvm.call @madvise(%p, %rounded, %hugepage) : (!llvm.ptr, i64, i32) -> i32
  llvm.br ^done
^done:
  llvm.return %p : !llvm.ptr
}}
"#
    )
}
