#!/usr/bin/env python3
"""Runs the host programs that scripts/gpu-hardware/prepare.sh compiled, on the NVIDIA GPU of
this machine, and compares every result with the fused CPU program's (exact for integers and
booleans; floats within RTOL, since reductions and scans run reassociated on a GPU and the
math functions are libdevice's, not glibc's).

Needs Python 3 with NumPy and the CUDA driver (libcuda.so.1); nothing of MLIR, Rust or the
CUDA toolkit. Each host program `build/<variant>/<stem>/host.so` exports MLIR's C interface
`_mlir_ciface_<f>` for every public function `@f` of `host.mlir`: memref arguments as
pointers to strided descriptors, scalars by value, the results through a pointer to their
struct (first argument) unless there is one scalar result.

Usage: run.py [DIR [VARIANT...]]  (default .gpu-hardware, every variant; a VARIANT may be a
glob such as 'expand-*'); prints one line per (variant, function) and a summary; exit code 1
when any result differs or any call fails.
"""
import ctypes
import pathlib
import re
import sys
import time

import numpy as np

RTOL = {np.dtype("float64"): 1e-9, np.dtype("float32"): 1e-4,
        np.dtype("complex128"): 1e-9, np.dtype("complex64"): 1e-4}
SCALARS = {
    "i1": (ctypes.c_bool, np.bool_), "i8": (ctypes.c_int8, np.int8), "i16": (ctypes.c_int16, np.int16),
    "i32": (ctypes.c_int32, np.int32), "i64": (ctypes.c_int64, np.int64), "index": (ctypes.c_int64, np.int64),
    "f32": (ctypes.c_float, np.float32), "f64": (ctypes.c_double, np.float64),
}


class Complex64(ctypes.Structure):
    _fields_ = [("re", ctypes.c_float), ("im", ctypes.c_float)]


class Complex128(ctypes.Structure):
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


COMPLEX = {"complex<f32>": (Complex64, np.complex64), "complex<f64>": (Complex128, np.complex128)}


def split_top(text):
    """Splits at the commas outside <>, [], () and {}."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<[({":
            depth += 1
        elif c in ">])}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


class Type:
    """A memref (rank, element) or a scalar of a host function's signature."""

    def __init__(self, text):
        text = text.strip()
        self.text = text
        m = re.fullmatch(r"memref<(.*)>", text)
        if m:
            shape_and_element = split_top(m.group(1))[0]  # drops a layout or memory space
            dims = shape_and_element.split("x")
            # `complex<f64>` holds no `x`; a static or dynamic dim is `?` or digits.
            rank = 0
            while rank < len(dims) - 1 and re.fullmatch(r"\?|\d+", dims[rank]):
                rank += 1
            self.rank, self.element = rank, "x".join(dims[rank:])
        else:
            self.rank, self.element = None, text
        if self.element in SCALARS:
            self.ctype, self.dtype = SCALARS[self.element]
        elif self.element in COMPLEX:
            self.ctype, self.dtype = COMPLEX[self.element]
        else:
            raise ValueError(f"type {text} is not supported by this harness")
        self.dtype = np.dtype(self.dtype)

    @property
    def is_memref(self):
        return self.rank is not None

    def descriptor(self):
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p), ("offset", ctypes.c_int64)]
        if self.rank:
            fields += [("sizes", ctypes.c_int64 * self.rank), ("strides", ctypes.c_int64 * self.rank)]
        return type(f"Memref{self.rank}", (ctypes.Structure,), {"_fields_": fields})

    def field(self):
        return self.descriptor() if self.is_memref else self.ctype


def signatures(host_mlir):
    """(name, [argument Type], [result Type]) of every public function of host.mlir."""
    out = []
    for line in host_mlir.read_text().splitlines():
        m = re.match(r"\s*func\.func @([\w$.]+)\((.*?)\)(?: -> (.*?))?(?: attributes \{.*\})? \{$", line)
        if not m:
            continue
        args = [Type(a.split(":", 1)[1]) for a in split_top(m.group(2))]
        results_text = (m.group(3) or "").strip()
        if results_text.startswith("(") and results_text.endswith(")"):
            results_text = results_text[1:-1]
        out.append((m.group(1), args, [Type(r) for r in split_top(results_text)]))
    return out


def to_argument(t, value, keep):
    if not t.is_memref:
        if t.element in COMPLEX:
            v = complex(value)
            return t.ctype(v.real, v.imag)
        return t.ctype(value.item())
    array = np.ascontiguousarray(value, dtype=t.dtype)
    keep.append(array)
    d = t.descriptor()()
    address = array.ctypes.data
    d.allocated = d.aligned = address
    d.offset = 0
    stride = 1
    for i in reversed(range(t.rank)):
        d.sizes[i] = array.shape[i]
        d.strides[i] = stride
        stride *= array.shape[i]
    keep.append(d)
    return ctypes.byref(d)


def from_result(t, value):
    if not t.is_memref:
        if t.element in COMPLEX:
            return np.array(complex(value.re, value.im), dtype=t.dtype)
        return np.array(value, dtype=t.dtype)
    sizes = [value.sizes[i] for i in range(t.rank)] if t.rank else []
    strides = [value.strides[i] for i in range(t.rank)] if t.rank else []
    count = int(np.prod(sizes)) if sizes else 1
    if count == 0:
        return np.zeros(sizes, dtype=t.dtype)
    span = 1 + sum((s - 1) * abs(st) for s, st in zip(sizes, strides))
    base = ctypes.cast(value.aligned, ctypes.c_void_p).value + value.offset * t.dtype.itemsize
    flat = np.frombuffer((ctypes.c_char * (span * t.dtype.itemsize)).from_address(base), dtype=t.dtype)
    view = np.lib.stride_tricks.as_strided(flat, shape=sizes, strides=[st * t.dtype.itemsize for st in strides])
    return np.array(view)  # a copy: the host program's memory is the caller's to free (leaked here)


def compare(got, want):
    """None when they agree, else the first difference."""
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    if want.dtype in RTOL:
        rtol = RTOL[want.dtype]
        close = np.isclose(got, want, rtol=rtol, atol=rtol, equal_nan=True)
    else:
        close = got == want
    if close.all():
        return None
    i = tuple(int(k) for k in np.argwhere(~close)[0])
    return f"{int((~close).sum())} of {want.size} differ, first at {i}: {got[i]!r} != {want[i]!r}"


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".gpu-hardware")
    variants = sys.argv[2:] or ["*"]
    runtime = ctypes.CDLL(str(root / "libfusion_gpu_runtime.so"), mode=ctypes.RTLD_GLOBAL)
    runtime.fusionGpuTakeFailure.restype = ctypes.c_size_t
    runtime.fusionGpuTakeFailure.argtypes = [ctypes.c_char_p, ctypes.c_size_t]

    def failure():
        buffer = ctypes.create_string_buffer(1024)
        return buffer.value.decode() if runtime.fusionGpuTakeFailure(buffer, 1024) else None

    counts = {"match": 0, "differ": 0, "failed": 0, "no data": 0}
    hosts = sorted({h for v in variants for h in root.glob(f"build/{v}/*/host.so")})
    if not hosts:
        print(f"no host programs under {root}/build/{{{','.join(variants)}}}: run scripts/gpu-hardware/prepare.sh")
        return 1
    for host in hosts:
        variant, stem = host.parent.parent.name, host.parent.name
        try:
            library = ctypes.CDLL(str(host))
        except OSError as e:
            print(f"{variant:26} {stem:28} FAILED to load: {e}")
            counts["failed"] += 1
            continue
        why = failure()  # the kernels are loaded by the library's constructors
        if why:
            print(f"{variant:26} {stem:28} FAILED loading its kernels: {why}")
            counts["failed"] += 1
            continue
        for name, args, results in signatures(host.parent / "host.mlir"):
            label = f"{variant:26} {stem + ' @' + name:40}"
            data = root / "data" / stem
            inputs = [data / f"{name}.in{i}.npy" for i in range(len(args))]
            outputs = [data / f"{name}.out{i}.npy" for i in range(len(results))]
            if not all(p.exists() for p in inputs + outputs):
                counts["no data"] += 1
                continue
            keep = []
            call_args = [to_argument(t, np.load(p), keep) for t, p in zip(args, inputs)]
            function = getattr(library, f"_mlir_ciface_{name}")
            single_scalar = len(results) == 1 and not results[0].is_memref
            if single_scalar:
                function.restype = results[0].field()
                result_struct = None
            elif results:
                function.restype = None
                fields = [(f"r{i}", t.field()) for i, t in enumerate(results)]
                result_struct = type("Results", (ctypes.Structure,), {"_fields_": fields})()
                call_args = [ctypes.byref(result_struct)] + call_args
            else:
                function.restype = None
                result_struct = None
            times = []
            for _ in range(3):
                start = time.perf_counter()
                returned = function(*call_args)
                times.append(time.perf_counter() - start)
            why = failure()
            if why:
                print(f"{label} FAILED: {why}")
                counts["failed"] += 1
                continue
            if single_scalar:
                got = [from_result(results[0], returned)]
            else:
                got = [from_result(t, getattr(result_struct, f"r{i}")) for i, t in enumerate(results)]
            problems = [f"result {i}: {d}" for i, (g, p) in enumerate(zip(got, outputs))
                        if (d := compare(g, np.load(p))) is not None]
            extent = max((np.load(p).size for p in inputs), default=0)
            timing = f"{min(times) * 1e3:8.3f} ms (best of 3, copies included; largest input {extent})"
            if problems:
                print(f"{label} DIFFER  {timing}: {'; '.join(problems)}")
                counts["differ"] += 1
            else:
                print(f"{label} match   {timing}")
                counts["match"] += 1
    print("summary: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 1 if counts["differ"] or counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
