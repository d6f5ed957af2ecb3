#!/usr/bin/env python3
"""Our fused programs against JAX (XLA's CPU backend) and NumPy, one core each, on the
same inputs, with their results checked against ours.

    .venv-bench/bin/python scripts/xla-bench/run.py [FILE.mlir]... [--elements N] [--reps R]
                                          [--rounds K] [--csv FILE] [--fresh-pages] [--kernel-bench PATH]

For each example file (default: every examples/*.mlir; a folder stands for its .mlir
files), runs `target/release/kernel-bench FILE --elements N --reps R --dump TMPDIR`
(N default 10^7, R default 5), which times our unfused and fused programs and writes, for
every function it times, the generated inputs, the results of our fused program and the
times (see its --dump). Then, for every dumped function, the JAX version of
scripts/xla-bench/functions.py (jitted; one warm-up call, which compiles it and whose
results are checked; then the median of R timed calls, each ending with
`block_until_ready()`) and the NumPy version (one untimed call, whose results are checked;
then the median of R timed calls) on the same inputs. That is one round; each file gets K
rounds (default 3) in a row, and every time in the table is the median of a side's K
round medians: on a shared machine the memory bandwidth drifts over minutes, and a
single round compares ours at one moment with XLA's at another. Checks: integers and booleans
exactly, floats with `np.allclose(rtol=1e-9, atol=1e-12, equal_nan=True)` (NaN where ours
is NaN agrees, as in kernel-bench's own comparison), same shapes and dtypes. TMPDIR is
deleted after each file (the arrays are large).

One core each: the script re-executes itself under `taskset -c 0` unless it is already
pinned to one core, and sets XLA_FLAGS="--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=1", OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS=1
before importing JAX and NumPy; kernel-bench inherits the pinning (and is started under
`taskset -c <the same core>` as well).

Output (stdout): a Markdown table | example | function | ours fused ms | XLA ms | NumPy ms
| ours/XLA | ours/NumPy | check |, the medians of the two ratios, the number of functions
where ours is more than 1.2x XLA's time, the date (UTC), the machine and the versions;
functions without a JAX or NumPy version show `-` and are listed after the table with the
reason. kernel-bench's own output goes to stderr. `--csv FILE` writes the rows as CSV too.

Memory: kernel-bench by default reuses freed memory for results (see its --fresh-pages),
while XLA's CPU allocator hands out freshly mapped pages for large results (measured here:
a minor page fault per 4 KiB page of a 10^7-element result, on every call) and NumPy's large arrays
(above glibc's mmap threshold, 32 MiB at most) are fresh too. At 10^7 elements this cost is
part of the XLA and NumPy times but not of ours; `--fresh-pages` passes kernel-bench's
option of that name, so that ours pays it as well.

Huge pages: our compiled programs advise their buffers of 4 MiB or more for transparent
huge pages (`array-huge-pages`, `passes/src/huge_pages.rs`), as NumPy does with its own
large arrays, and kernel-bench advises its input copies the same way. XLA's CPU runtime
allocates with the C library's `malloc` and does not. So that the times compare the code
and not the page size, the script re-executes itself with
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (glibc 2.35 or later): glibc then advises every
block it maps, XLA's buffers included, and kernel-bench inherits the setting.
Exit status 1 when a check fails or kernel-bench fails.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
XLA_FLAGS = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"


HUGE_PAGES_TUNABLE = "glibc.malloc.hugetlb=1"


def _pin_to_one_core():
    """Re-executes under `taskset -c 0` unless this process may run on one core only, and
    with glibc's allocator advising transparent huge pages (see the module doc) unless it
    already does."""
    try:
        cores = os.sched_getaffinity(0)
    except AttributeError:  # not Linux
        return
    pinned = len(cores) == 1 or os.environ.get("XLA_BENCH_PINNED") == "1"
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    if pinned and HUGE_PAGES_TUNABLE in tunables:
        return
    os.environ["XLA_BENCH_PINNED"] = "1"
    os.environ["GLIBC_TUNABLES"] = f"{tunables}:{HUGE_PAGES_TUNABLE}" if tunables else HUGE_PAGES_TUNABLE
    prefix = [] if pinned else ["taskset", "-c", "0"]
    argv = [*prefix, sys.executable, os.path.abspath(__file__), *sys.argv[1:]]
    try:
        os.execvp(argv[0], argv)
    except OSError as e:
        sys.exit(f"run.py: cannot re-execute under taskset ({e}); install util-linux")


# Before JAX or NumPy is imported (their thread pools read these once).
os.environ["XLA_FLAGS"] = XLA_FLAGS
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"
os.environ.setdefault("JAX_PLATFORMS", "cpu")
if __name__ == "__main__":
    _pin_to_one_core()

import argparse  # noqa: E402
import csv  # noqa: E402
import datetime  # noqa: E402
import platform  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

import jax  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402
import scipy  # noqa: E402

sys.path.insert(0, HERE)
from functions import FUNCTIONS, MISSING  # noqa: E402

RTOL, ATOL = 1e-9, 1e-12
SLOWER = 1.2  # "above 1.2x XLA": ours takes more than 1.2 times XLA's time


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") or line.startswith("Model"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def as_tuple(results):
    return tuple(results) if isinstance(results, (tuple, list)) else (results,)


def block(results):
    for r in results:
        if isinstance(r, jax.Array):
            r.block_until_ready()
    return results


def compare(ours, theirs):
    """None when `theirs` (a tuple of results) agrees with `ours` (arrays), else why not."""
    if len(ours) != len(theirs):
        return f"{len(theirs)} results, ours has {len(ours)}"
    for i, (a, b) in enumerate(zip(ours, theirs)):
        b = np.asarray(b)
        if a.shape != b.shape:
            return f"result {i}: shape {b.shape}, ours {a.shape}"
        if a.dtype != b.dtype:
            return f"result {i}: dtype {b.dtype}, ours {a.dtype}"
        if a.dtype.kind in "fc":
            with np.errstate(all="ignore"):
                close = np.isclose(b, a, rtol=RTOL, atol=ATOL, equal_nan=True)
        else:
            close = a == b
        if not np.all(close):
            bad = np.argwhere(~np.asarray(close))
            k = tuple(bad[0]) if bad.size else ()
            return f"result {i}: {len(bad)} of {a.size} elements differ, first at {k}: {b[k]!r}, ours {a[k]!r}"
    return None


def time_calls(fn, args, reps, sync):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        out = fn(*args)
        if sync:
            block(as_tuple(out))
        times.append((time.perf_counter() - start) * 1e3)
        del out
    return median(times)


def run_version(kind, fn, inputs, ours, reps):
    """(median ms or None, check message or None) of one version."""
    if kind == "XLA":
        args = [jax.device_put(a) if a.ndim > 0 else a for a in inputs]
        for a in args:
            if isinstance(a, jax.Array):
                a.block_until_ready()
    else:
        args = inputs
    first = block(as_tuple(fn(*args)))  # JAX: compiles; both: the results checked
    problem = compare(ours, first)
    del first
    ms = time_calls(fn, args, reps, sync=(kind == "XLA"))
    return ms, problem


def load_function(folder, name):
    def arrays(suffix):
        out = []
        while os.path.exists(path := os.path.join(folder, f"{name}.{suffix}{len(out)}.npy")):
            out.append(np.load(path))
        return out

    return arrays("in"), arrays("out")


def fmt(x, digits=3):
    return "-" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return None if a is None or b is None or b <= 0 else a / b


def example_files(paths):
    if not paths:
        paths = [os.path.join(ROOT, "examples")]
    files = []
    for p in paths:
        if os.path.isdir(p):
            files.extend(sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".mlir")))
        else:
            files.append(p)
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="example .mlir files or folders (default: examples/)")
    parser.add_argument("--elements", type=int, default=10_000_000, help="kernel-bench --elements (default 10^7)")
    parser.add_argument("--reps", type=int, default=5, help="timed calls per version (default 5)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="rounds per file, each timing ours (kernel-bench) and then XLA and NumPy; the table shows the medians "
        "over the rounds (default 3)",
    )
    parser.add_argument("--csv", help="also write the rows to this CSV file")
    parser.add_argument(
        "--fresh-pages",
        action="store_true",
        help="pass --fresh-pages to kernel-bench: ours then gets fresh (page-faulting) memory for every large "
        "result, as XLA's allocator gives it (and NumPy's above glibc's mmap threshold); by default "
        "kernel-bench reuses freed memory",
    )
    parser.add_argument(
        "--kernel-bench", default=os.path.join(ROOT, "target", "release", "kernel-bench"), help="the binary"
    )
    opts = parser.parse_args()
    if opts.rounds < 1 or opts.reps < 1:
        sys.exit("run.py: --rounds and --reps must be at least 1")
    if not os.access(opts.kernel_bench, os.X_OK):
        sys.exit(f"run.py: {opts.kernel_bench} not found: cargo build --release -p fusion-bench")
    core = str(min(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else "0"

    rows, missing, failures = [], [], 0
    for path in example_files(opts.files):
        stem = os.path.splitext(os.path.basename(path))[0]
        # Per function, in the order kernel-bench timed them: the times of every round.
        timed = {}
        for round_ in range(opts.rounds):
            tmp = tempfile.mkdtemp(prefix=f"xla-bench-{stem}-")
            try:
                print(f"== {stem} (round {round_ + 1} of {opts.rounds}): kernel-bench --elements {opts.elements} "
                      f"--reps {opts.reps}", file=sys.stderr, flush=True)
                command = ["taskset", "-c", core, opts.kernel_bench, path, "--elements", str(opts.elements)]
                command += ["--reps", str(opts.reps), "--dump", tmp] + (["--fresh-pages"] if opts.fresh_pages else [])
                done = subprocess.run(command, stdout=sys.stderr, stderr=sys.stderr)
                if done.returncode != 0:
                    print(f"run.py: kernel-bench failed on {path} (exit {done.returncode})", file=sys.stderr)
                    failures += 1
                times = os.path.join(tmp, "times.csv")
                if not os.path.exists(times):
                    break
                with open(times) as f:
                    this_round = list(csv.DictReader(f))
                for t in this_round:
                    key = (t["example"], t["function"])
                    entry = timed.setdefault(key, {"extent": int(t["extent"]), "unfused_ms": [], "fused_ms": [],
                                                   "xla_ms": [], "numpy_ms": [], "checks": [], "has": set()})
                    entry["unfused_ms"].append(float(t["unfused_ms"]))
                    entry["fused_ms"].append(float(t["fused_ms"]))
                    inputs, ours = load_function(os.path.join(tmp, t["example"]), t["function"])
                    jax_fn, np_fn = FUNCTIONS.get(key, (None, None))
                    last = {"xla_ms": None, "numpy_ms": None}
                    for kind, fn, column in (("XLA", jax_fn, "xla_ms"), ("NumPy", np_fn, "numpy_ms")):
                        if fn is None:
                            if round_ == 0:
                                reason = "no entry in functions.py" if key not in FUNCTIONS else None
                                missing.append((*key, kind, reason))
                            continue
                        entry["has"].add(kind)
                        try:
                            ms, problem = run_version(kind, fn, inputs, ours, opts.reps)
                        except Exception:
                            traceback.print_exc()
                            ms, problem = None, "raised an exception (see above)"
                        if ms is not None:
                            entry[column].append(ms)
                        last[column] = ms
                        if problem:
                            print(f"MISMATCH {key[0]} @{key[1]} {kind}: {problem}", file=sys.stderr, flush=True)
                            if f"MISMATCH {kind}" not in entry["checks"]:
                                entry["checks"].append(f"MISMATCH {kind}")
                            failures += 1
                    print(
                        f"   @{key[1]}: ours {entry['fused_ms'][-1]:.3f} ms, XLA {fmt(last['xla_ms'])} ms, "
                        f"NumPy {fmt(last['numpy_ms'])} ms",
                        file=sys.stderr,
                        flush=True,
                    )
                    del inputs, ours
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        for (example, name), entry in timed.items():
            row = {"example": example, "function": name, "extent": entry["extent"]}
            for column in ("unfused_ms", "fused_ms", "xla_ms", "numpy_ms"):
                row[column] = median(entry[column]) if entry[column] else None
            if entry["checks"]:
                row["check"] = ", ".join(entry["checks"])
            else:
                row["check"] = "ok" if entry["has"] else "-"
            row["ours_over_xla"] = ratio(row["fused_ms"], row["xla_ms"])
            row["ours_over_numpy"] = ratio(row["fused_ms"], row["numpy_ms"])
            rows.append(row)

    pages = " --fresh-pages" if opts.fresh_pages else ""
    print(f"\nOurs (fused, compiled) against JAX/XLA and NumPy, one core each; --elements {opts.elements} "
          f"--reps {opts.reps} --rounds {opts.rounds}{pages} (medians of {opts.rounds} rounds of medians; "
          f"ratios < 1: ours is faster).\n")
    print("| example | function | ours fused ms | XLA ms | NumPy ms | ours/XLA | ours/NumPy | check |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print(
            f"| {r['example']} | {r['function']} | {r['fused_ms']:.3f} | {fmt(r['xla_ms'])} | {fmt(r['numpy_ms'])} "
            f"| {fmt(r['ours_over_xla'], 2)} | {fmt(r['ours_over_numpy'], 2)} | {r['check']} |"
        )
    over_xla = [r["ours_over_xla"] for r in rows if r["ours_over_xla"] is not None]
    over_np = [r["ours_over_numpy"] for r in rows if r["ours_over_numpy"] is not None]
    slower = [f"{r['function']} ({r['ours_over_xla']:.2f})" for r in rows
              if r["ours_over_xla"] is not None and r["ours_over_xla"] > SLOWER]
    print()
    print(f"- median ours/XLA: {fmt(median(over_xla) if over_xla else None, 2)} over {len(over_xla)} functions")
    print(f"- median ours/NumPy: {fmt(median(over_np) if over_np else None, 2)} over {len(over_np)} functions")
    print(f"- functions above {SLOWER}x XLA: {len(slower)}" + (f" ({', '.join(slower)})" if slower else ""))
    agree = sum(1 for r in rows if r["check"] == "ok")
    checked = sum(1 for r in rows if r["check"] != "-")
    print(f"- checks: the results of {agree} of {checked} functions with a version agree with ours")
    print(f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}")
    print(f"- machine: {platform.machine()}, {cpu_model()}, pinned to core {core}")
    print(
        f"- versions: jax {jax.__version__}, jaxlib {jaxlib.__version__}, numpy {np.__version__}, "
        f"scipy {scipy.__version__}, Python {platform.python_version()}"
    )
    if missing:
        print("\nFunctions without a version:\n")
        for example, name, kind, reason in missing:
            why = reason or MISSING.get((example, name, kind), "see functions.py")
            print(f"- {example} @{name}: no {kind} version: {why}")

    if opts.csv:
        fields = ["example", "function", "extent", "unfused_ms", "fused_ms", "xla_ms", "numpy_ms",
                  "ours_over_xla", "ours_over_numpy", "check"]
        with open(opts.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            for r in rows:
                w.writerow({k: ("" if r[k] is None else r[k]) for k in fields})
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
