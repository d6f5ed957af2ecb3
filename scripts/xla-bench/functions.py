"""JAX (XLA) and NumPy versions of the example functions that kernel-bench times.

Each is written from the semantics of the `.mlir` function (README "The `array` dialect",
docs/design.md, dialects/array/td/ArrayOps.td and the example's own comments), with the
same element types (i64 stays int64, `index` is int64, f32/f64/complex<f64> stay float32,
float64, complex128) and the same results: a filter returns only the kept elements, folds
start from their initial values, `arith.divsi` truncates, `arith.floordivsi` floors,
`arith.remui` is unsigned, integer sums wrap as i64 does.

`FUNCTIONS[(stem, function)] = (jax_fn, numpy_fn)`; `None` where a version is missing,
with the reason in a comment there and in `MISSING[(stem, function, "XLA" or "NumPy")]`
(run.py prints it). Every function kernel-bench times has both versions at present.

Calling convention (run.py): the arguments are the dumped inputs in order
(`<function>.in<i>.npy`). A NumPy version gets them as NumPy arrays (0-d for scalars). A
JAX version gets the arrays of rank >= 1 as `jax.Array`s already on the CPU device and the
0-d ones as NumPy 0-d arrays (so that an `index` scalar, a shape, can be a static argument
of `jax.jit` without a device round trip). Both return a tuple, one entry per result of
the MLIR function (a rank-0 tensor or a scalar result is a 0-d array).

JAX versions are `jax.jit`-compiled. Where a result size depends on the data (a filter
whose result is returned, the four quadrants of the quadtree), the jitted part returns the
kept elements packed into a full-size array (cumulative sum and scatter) with their
counts, and the wrapper slices them off on the host (XLA needs static shapes). The
quadtree's recursion, whose guards depend on the data, runs on the host around one jitted
call per level (`go_jax`); the BFS loop is a `lax.while_loop` inside one jitted call.
"""

from functools import partial

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from scipy.special import erf as _scipy_erf  # noqa: E402  (NumPy has no erf ufunc)

I64 = np.int64
F64 = np.float64
THIRD = 0.3333333333333333  # the literal of seed000_multigrid (== 1/3 as a double)


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def _take(xs, idx):
    """`array.gather` of a rank-1 source in JAX. The indices of valid inputs are in range
    (out of range is undefined in the dialect), so XLA may skip clamping."""
    return xs.at[idx].get(mode="promise_in_bounds")


def _compact(mask, *arrays):
    """Inside jit: the elements of each array where `mask` holds, packed at the front of
    an array of the same size (stable: in source order), and their count."""
    n = mask.shape[0]
    # int32 positions where they fit: XLA's scatter is markedly faster with them.
    pos = jnp.cumsum(mask.astype(_position_type(n))) - 1
    target = jnp.where(mask, pos, n)  # n: out of range, dropped
    packed = tuple(
        jnp.zeros_like(a).at[target].set(a, mode="drop", unique_indices=True) for a in arrays
    )
    count = jnp.sum(mask, dtype=jnp.int64)
    return packed, count


def _position_type(n):
    return jnp.int32 if n < 2**31 - 1 else jnp.int64


def _unpack(packed, count):
    """On the host: the first `count` elements of a packed array (one small sliced copy)."""
    return packed[: int(count)]


def _trunc_div_np(a, b):
    """`arith.divsi` (rounds toward zero) on int64, from NumPy's floor division."""
    q = np.floor_divide(a, b)
    r = a - q * b
    return q + ((r != 0) & ((a < 0) != (b < 0))).astype(a.dtype)


def _trunc_div_jax(a, b):
    """`arith.divsi`: `lax.div` rounds integer quotients toward zero (C semantics)."""
    return jax.lax.div(a, jnp.broadcast_to(jnp.asarray(b, a.dtype), a.shape))


def _scalar(x, dtype):
    """A rank-0 result as a 0-d array."""
    return np.asarray(x, dtype=dtype).reshape(())


def _wrap_i64(x):
    """A Python int wrapped to i64 (two's complement), as `arith.muli`/`addi` on i64."""
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= 1 << 63 else x


# --------------------------------------------------------------------------------------
# seed000_backpermute: ys[i] = xs[(2 i) remui n], n = size xs, i < sz
# --------------------------------------------------------------------------------------


@partial(jax.jit, static_argnums=0)
def _backpermute_jit(sz, xs):
    n = xs.shape[0]
    # 2 i and n are non-negative, so remui is the ordinary remainder.
    j = (jnp.arange(sz, dtype=jnp.int64) * 2) % n
    return (_take(xs, j),)


def backpermute_jax(sz, xs):
    return _backpermute_jit(int(sz), xs)


def backpermute_np(sz, xs):
    j = (np.arange(int(sz), dtype=I64) * 2) % xs.shape[0]
    return (xs[j],)


@jax.jit
def _gather_via_backpermute_jit(is_, xs):
    return (_take(xs, is_),)


def gather_via_backpermute_np(is_, xs):
    return (xs[is_],)


# --------------------------------------------------------------------------------------
# seed000_greedy @greedyTopDownBad: sum of (2a + 1) + (i + 2 as[0])
# --------------------------------------------------------------------------------------


@jax.jit
def _greedy_top_down_jit(as_):
    n = as_.shape[0]
    bs = as_ * 2
    cs = bs + 1
    ds = jnp.arange(n, dtype=jnp.int64) + bs[0]
    return (jnp.sum(cs + ds, dtype=jnp.int64),)


def greedy_top_down_np(as_):
    bs = as_ * 2
    cs = bs + 1
    ds = np.arange(as_.shape[0], dtype=I64) + bs[0]
    return (_scalar(np.sum(cs + ds, dtype=I64), I64),)


# --------------------------------------------------------------------------------------
# seed000_histogram: counts of (x remui n) over 0..n-1 (scatter-add into zeros)
# --------------------------------------------------------------------------------------


@jax.jit
def _histogram_jit(xs):
    n = xs.shape[0]
    bins = (xs.astype(jnp.uint64) % jnp.uint64(n)).astype(jnp.int64)  # remui
    ones = jnp.ones_like(xs)
    return (jax.ops.segment_sum(ones, bins, num_segments=n, indices_are_sorted=False),)


def histogram_np(xs):
    n = xs.shape[0]
    bins = (xs.astype(np.uint64) % np.uint64(n)).astype(I64)  # remui
    return (np.bincount(bins, minlength=n).astype(I64),)


@jax.jit
def _byte_histogram_jit(xs):
    bins = jnp.bitwise_and(xs, 255)  # x remui 256: the low byte of the two's complement
    return (jax.ops.segment_sum(jnp.ones_like(xs), bins, num_segments=256, indices_are_sorted=False),)


def byte_histogram_np(xs):
    return (np.bincount(np.bitwise_and(xs, 255), minlength=256).astype(I64),)


# --------------------------------------------------------------------------------------
# seed000_intro: f(x) = 2x + 1, g(x) = x*x
# --------------------------------------------------------------------------------------


def vertical_np(xs):
    ys = xs * xs
    return (ys * 2 + 1,)


def horizontal_np(xs):
    return (xs * 2 + 1, xs * xs)


def merge_np(x):
    y = x * 2 + 1
    return (x + y,)


_vertical_jit = jax.jit(lambda xs: ((xs * xs) * 2 + 1,))
_horizontal_jit = jax.jit(lambda xs: (xs * 2 + 1, xs * xs))
_merge_jit = jax.jit(lambda x: (x + (x * 2 + 1),))


# --------------------------------------------------------------------------------------
# seed000_multigrid @vcycle: two-grid V-cycle for -u'' = f (see the example's header)
# --------------------------------------------------------------------------------------


def _vcycle(xp, u, f):
    """One V-cycle, with xp = numpy or jax.numpy. Neighbours are the clamped shifts
    u[max(i,1)-1] and u[min(i+1,n-1)], weighted 0 at the boundary, as in the example;
    the arithmetic is in the example's order, so results agree to the last bit."""
    n = u.shape[0]
    nc = n // 2

    def left(v):
        return xp.concatenate([v[:1], v[:-1]])

    def right(v):
        return xp.concatenate([v[1:], v[-1:]])

    def weights(m):
        i = xp.arange(m)
        return xp.where(i > 0, 1.0, 0.0), xp.where(i < m - 1, 1.0, 0.0)

    def residual(x, b, wl, wr):
        return (wl * left(x) + wr * right(x)) + b - 2.0 * x

    def sweep(x, b, wl, wr):
        return x + THIRD * residual(x, b, wl, wr)

    fwl, fwr = weights(n)
    u1 = sweep(u, f, fwl, fwr)
    res = residual(u1, f, fwl, fwr)
    rc = 2.0 * (res[0 : 2 * nc : 2] + res[1 : 2 * nc : 2])
    cwl, cwr = weights(nc)
    e0 = xp.zeros(nc, dtype=u.dtype)
    e1 = sweep(e0, rc, cwl, cwr)
    e2 = sweep(e1, rc, cwl, cwr)
    # e[i] = e2[min(i/2, nc-1)]: each coarse value twice, an odd last point the last one.
    corr = xp.repeat(e2, 2)
    if n % 2 == 1:
        corr = xp.concatenate([corr, e2[-1:]])
    u2 = u1 + corr
    return (sweep(u2, f, fwl, fwr),)


_vcycle_jit = jax.jit(partial(_vcycle, jnp))


def vcycle_np(u, f):
    return _vcycle(np, u, f)


# --------------------------------------------------------------------------------------
# seed000_reverse
# --------------------------------------------------------------------------------------

_reverse_jit = jax.jit(lambda xs: (jnp.flip(xs, axis=0),))


def reverse_np(xs):
    # A copy: `xs[::-1]` alone is a view, which would time nothing; ours and XLA's
    # results are new arrays.
    return (xs[::-1].copy(),)


# --------------------------------------------------------------------------------------
# seed000_row_softmax: exp(S - rowmax) / rowsum
# --------------------------------------------------------------------------------------


def _row_softmax(xp, scores):
    row_max = xp.max(scores, axis=1, keepdims=True, initial=-np.inf)
    shifted = xp.exp(scores - row_max)
    row_sum = xp.sum(shifted, axis=1, keepdims=True)
    return (shifted / row_sum,)


_row_softmax_jit = jax.jit(partial(_row_softmax, jnp))


def row_softmax_np(scores):
    return _row_softmax(np, scores)


# --------------------------------------------------------------------------------------
# seed000_simple: f(x) = 2x + 1, g(x) = x*x, h(a, b) = a - b
# --------------------------------------------------------------------------------------


@jax.jit
def _simple1_jit(is_, xs):
    return (_take(xs * 2 + 1, is_),)


def simple1_np(is_, xs):
    return ((xs * 2 + 1)[is_],)


@jax.jit
def _simple2_jit(is1, is2, xs):
    return (_take(_take(xs, is1), is2),)


def simple2_np(is1, is2, xs):
    return (xs[is1][is2],)


@jax.jit
def _simple3_jit(is_, xs):
    as_ = xs * 2 + 1
    return (as_, _take(as_, is_))


def simple3_np(is_, xs):
    as_ = xs * 2 + 1
    return (as_, as_[is_])


@jax.jit
def _simple4_jit(is_, xs):
    return (_take(jnp.sum(xs, axis=1, dtype=jnp.int64), is_),)


def simple4_np(is_, xs):
    return (np.sum(xs, axis=1, dtype=I64)[is_],)


@jax.jit
def _simple5_jit(is_, xs):
    return (xs * xs - _take(xs, is_),)


def simple5_np(is_, xs):
    return (xs * xs - xs[is_],)


# --------------------------------------------------------------------------------------
# seed000_single_loop: reverse(as) + c + c*c, c = 2a + 1
# --------------------------------------------------------------------------------------


def _single_loop(xp, as_):
    bs = xp.flip(as_, axis=0)
    cs = as_ * 2 + 1
    ds = cs * cs
    return ((bs + cs) + ds,)


_single_loop_jit = jax.jit(partial(_single_loop, jnp))


def single_loop_np(as_):
    return _single_loop(np, as_)


# --------------------------------------------------------------------------------------
# seed001_cycle: ys = x + 1; zs = ys + sum(ys)
# --------------------------------------------------------------------------------------


def _cycle(xp, xs):
    ys = xs + 1
    return (ys + xp.sum(ys, dtype=xp.int64),)


_cycle_jit = jax.jit(partial(_cycle, jnp))


def cycle_np(xs):
    return _cycle(np, xs)


# --------------------------------------------------------------------------------------
# seed001_filter_left: (x + 1, filter even x)
# --------------------------------------------------------------------------------------


@jax.jit
def _filter_left_jit(xs):
    (evens,), count = _compact(xs % 2 == 0, xs)
    return xs + 1, evens, count


def filter_left_jax(xs):
    ys1, evens, count = _filter_left_jit(xs)
    return (ys1, _unpack(evens, count))


def filter_left_np(xs):
    return (xs + 1, xs[xs % 2 == 0])


# --------------------------------------------------------------------------------------
# seed001_normalize2: (x divsi sum xs, x divsi sum (filter (> 0) xs))
# --------------------------------------------------------------------------------------


@jax.jit
def _normalize2_jit(xs):
    sum1 = jnp.sum(xs, dtype=jnp.int64)
    # The filter's result is only summed: the sum of the positive elements.
    sum2 = jnp.sum(jnp.where(xs > 0, xs, 0), dtype=jnp.int64)
    return (_trunc_div_jax(xs, sum1), _trunc_div_jax(xs, sum2))


def normalize2_np(xs):
    sum1 = np.sum(xs, dtype=I64)
    sum2 = np.sum(xs[xs > 0], dtype=I64)
    return (_trunc_div_np(xs, sum1), _trunc_div_np(xs, sum2))


# --------------------------------------------------------------------------------------
# seed001_normalize_inc: (x + 1) divsi sum xs
# --------------------------------------------------------------------------------------


@jax.jit
def _normalize_inc_jit(xs):
    return (_trunc_div_jax(xs + 1, jnp.sum(xs, dtype=jnp.int64)),)


def normalize_inc_np(xs):
    return (_trunc_div_np(xs + 1, np.sum(xs, dtype=I64)),)


# --------------------------------------------------------------------------------------
# seed001_quadtree: points are complex<f64> (x = re, y = im), a box is (x1, y1, x2, y2)
# --------------------------------------------------------------------------------------


def _initial_bounds(xp, pts):
    xs, ys = xp.real(pts), xp.imag(pts)
    # Folds from +inf / -inf (minimumf / maximumf, NaN-propagating as NumPy's min/max).
    return (
        xp.min(xs, initial=np.inf),
        xp.min(ys, initial=np.inf),
        xp.max(xs, initial=-np.inf),
        xp.max(ys, initial=-np.inf),
    )


_initial_bounds_jit = jax.jit(partial(_initial_bounds, jnp))


def initial_bounds_np(pts):
    return tuple(_scalar(b, F64) for b in _initial_bounds(np, pts))


def _split_box(box):
    """@splitbox, in Python floats (IEEE doubles, as the f64 arithmetic of the example)."""
    x1, y1, x2, y2 = box
    mx = (x1 + x2) * 0.5
    my = (y1 + y2) * 0.5
    return [(x1, y1, mx, my), (mx, y1, x2, my), (x1, my, mx, y2), (mx, my, x2, y2)]


def _small_box(box):
    x1, y1, x2, y2 = box
    return (x2 - x1) <= 1.0 and (y2 - y1) <= 1.0  # cmpf ole: false for NaN, as in Python


def _tree(a, b, c, d):
    return _wrap_i64(4 * (((a * 31 + b) * 31 + c) * 31 + d) + 3)


def _go_np(ins, box):
    n = ins.shape[0]
    if n == 0:
        return 1  # @nil
    if _small_box(box):
        return 4 * n + 2  # @leafArray
    xs, ys = ins.real, ins.imag
    quadrants = []
    for b in _split_box(box):
        inside = (xs >= b[0]) & (xs < b[2]) & (ys >= b[1]) & (ys < b[3])
        quadrants.append((ins[inside], b))
    return _tree(*(_go_np(p, b) for p, b in quadrants))


def go_np(ins, box):
    return (_scalar(_go_np(ins, tuple(float(v) for v in box)), I64),)


def quadtree_np(pts):
    box = tuple(float(b) for b in _initial_bounds(np, pts))
    return (_scalar(_go_np(pts, box), I64),)


@jax.jit
def _quadrants_jit(ins, boxes):
    """The four filters of @go at once, as one partition: the points of quadrant k packed
    (in source order) at starts[k] of one array, in one scatter, and the counts. The
    quadrants of a split are disjoint (half-open boxes), so a point is in at most one; the
    tests are the filters' own (`oge`/`olt`), so NaN and degenerate boxes behave alike."""
    n = ins.shape[0]
    xs, ys = jnp.real(ins), jnp.imag(ins)
    which = jnp.full(n, 4, dtype=jnp.int32)  # 4: in no quadrant
    for k in reversed(range(4)):
        b = boxes[k]
        inside = (xs >= b[0]) & (xs < b[2]) & (ys >= b[1]) & (ys < b[3])
        which = jnp.where(inside, k, which)
    t = _position_type(n)
    ranks = jnp.cumsum((which[:, None] == jnp.arange(4, dtype=jnp.int32)[None, :]).astype(t), axis=0)
    counts = ranks[-1] if n > 0 else jnp.zeros(4, t)
    starts = jnp.cumsum(counts) - counts
    k = jnp.minimum(which, 3)
    rank = jnp.take_along_axis(ranks, k[:, None], axis=1)[:, 0] - 1
    target = jnp.where(which < 4, starts[k] + rank, n)  # n: dropped
    packed = jnp.zeros_like(ins).at[target].set(ins, mode="drop", unique_indices=True)
    return packed, counts


def _go_jax(ins, n, box):
    # The recursion and its guards depend on the data (the length of each quadrant, the
    # box): they run on the host; each level's four filters are one jitted XLA call.
    if n == 0:
        return 1
    if _small_box(box):
        return 4 * n + 2
    boxes = _split_box(box)
    packed, counts = _quadrants_jit(ins, jnp.asarray(boxes, dtype=jnp.float64))
    counts = [int(c) for c in np.asarray(counts)]
    results, start = [], 0
    for b, c in zip(boxes, counts):
        # A quadrant that will not be split again needs only its length.
        sub = packed[start : start + c] if c > 0 and not _small_box(b) else None
        results.append(_go_jax(sub, c, b))
        start += c
    return _tree(*results)


def go_jax(ins, box):
    return (_scalar(_go_jax(ins, ins.shape[0], tuple(float(v) for v in box)), I64),)


def quadtree_jax(pts):
    box = tuple(float(b) for b in _initial_bounds_jit(pts))
    return (_scalar(_go_jax(pts, pts.shape[0], box), I64),)


# --------------------------------------------------------------------------------------
# seed001_quickhull @filterMax: (point of largest distance (last of equal maxima),
#                                 points of distance > 0)
# --------------------------------------------------------------------------------------


def _distance(xp, la, lb, pts):
    ax, ay, bx, by = xp.real(la), xp.imag(la), xp.real(lb), xp.imag(lb)
    px, py = xp.real(pts), xp.imag(pts)
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax)


@jax.jit
def _filter_max_jit(la, lb, pts):
    d = _distance(jnp, la, lb, pts)
    n = pts.shape[0]
    # The fold keeps its accumulator only when strictly larger: the last maximum wins.
    last = n - 1 - jnp.argmax(d[::-1])
    (above,), count = _compact(d > 0, pts)
    return pts[last], above, count


def filter_max_jax(la, lb, pts):
    if pts.shape[0] == 0:
        return (_scalar(0j, np.complex128), np.zeros(0, np.complex128))  # the fold's start
    best, above, count = _filter_max_jit(la, lb, pts)
    return (best, _unpack(above, count))


def filter_max_np(la, lb, pts):
    d = _distance(np, la, lb, pts)
    n = pts.shape[0]
    best = pts[n - 1 - np.argmax(d[::-1])] if n > 0 else 0j
    return (_scalar(best, np.complex128), pts[d > 0])


# --------------------------------------------------------------------------------------
# seed002_diagonal: f(y) = 2y + 1, g(x) = x*x, h(y) = y - 3
# --------------------------------------------------------------------------------------

_map_fusion_jit = jax.jit(lambda xs: ((xs * xs) * 2 + 1,))
_diagonal_jit = jax.jit(lambda xs: (xs * xs, xs * xs - 3))


def map_fusion_np(xs):
    return ((xs * xs) * 2 + 1,)


def diagonal_np(xs):
    ys = xs * xs
    return (ys, ys - 3)


# --------------------------------------------------------------------------------------
# seed002_normalise2: (x floordiv sum xs, x floordiv sum (inclusive prefix sums of xs))
# --------------------------------------------------------------------------------------


def _normalise2(xp, xs):
    sum1 = xp.sum(xs, dtype=xp.int64)
    scn = xp.cumsum(xs, dtype=xp.int64)  # scan left inclusive (+) from 0
    sum2 = xp.sum(scn, dtype=xp.int64)
    return (xp.floor_divide(xs, sum1), xp.floor_divide(xs, sum2))  # floordivsi


def _normalise2_extended(xp, ys):
    return _normalise2(xp, ys * 2 + 1)


_normalise2_jit = jax.jit(partial(_normalise2, jnp))
_normalise2_extended_jit = jax.jit(partial(_normalise2_extended, jnp))


def normalise2_np(xs):
    return _normalise2(np, xs)


def normalise2_extended_np(ys):
    return _normalise2_extended(np, ys)


# --------------------------------------------------------------------------------------
# seed003_black_scholes: call and put prices, in the example's order of operations
# --------------------------------------------------------------------------------------


def _black_scholes(xp, erf, s, x, t, r, v):
    sqrt_t = xp.sqrt(t)
    v_sqrt_t = v * sqrt_t
    drift_t = (r + (v * v) * 0.5) * t
    discounted = x * xp.exp(-(r * t))
    d1 = (xp.log(s / x) + drift_t) / v_sqrt_t
    d2 = d1 - v_sqrt_t
    inv_sqrt2 = 0.7071067811865476
    nd1 = (erf(d1 * inv_sqrt2) + 1.0) * 0.5
    nd2 = (erf(d2 * inv_sqrt2) + 1.0) * 0.5
    call = s * nd1 - discounted * nd2
    put = discounted * (1.0 - nd2) - s * (1.0 - nd1)
    return (call, put)


_black_scholes_jit = jax.jit(partial(_black_scholes, jnp, jax.lax.erf))


def black_scholes_np(s, x, t, r, v):
    with np.errstate(all="ignore"):  # random prices: logarithms of negative numbers
        return _black_scholes(np, _scipy_erf, s, x, t, r, v)


# --------------------------------------------------------------------------------------
# seed003_heat_equation @heatStep: one Jacobi step with a fixed border, and sum |new - g|
# --------------------------------------------------------------------------------------


def _heat_step(xp, g):
    n, m = g.shape
    up = xp.concatenate([g[:1], g[:-1]], axis=0)  # g[max(i,1)-1, j]
    down = xp.concatenate([g[1:], g[-1:]], axis=0)  # g[min(i+1,n-1), j]
    left = xp.concatenate([g[:, :1], g[:, :-1]], axis=1)
    right = xp.concatenate([g[:, 1:], g[:, -1:]], axis=1)
    i = xp.arange(n)[:, None]
    j = xp.arange(m)[None, :]
    inside = (i > 0) & (i < n - 1) & (j > 0) & (j < m - 1)
    avg = ((((g + up) + down) + left) + right) * 0.2
    nxt = xp.where(inside, g + (avg - g), g)
    delta = xp.sum(xp.sum(xp.abs(nxt - g), axis=1))
    return (nxt, delta)


_heat_step_jit = jax.jit(partial(_heat_step, jnp))


def heat_step_np(g):
    nxt, delta = _heat_step(np, g)
    return (nxt, _scalar(delta, F64))


# --------------------------------------------------------------------------------------
# seed003_leibniz_pi: 4 * sum_{k<n} (-1)^k / (2k + 1)
# --------------------------------------------------------------------------------------


def _leibniz(xp, n):
    k = xp.arange(n, dtype=xp.int64)
    sign = 1 - 2 * (k & 1)
    odd = 2 * k + 1
    terms = sign.astype(xp.float64) / odd.astype(xp.float64)
    return xp.sum(terms) * 4.0


_leibniz_jit = jax.jit(partial(_leibniz, jnp), static_argnums=0)


def leibniz_jax(n):
    return (_leibniz_jit(int(n)),)


def leibniz_np(n):
    return (_scalar(_leibniz(np, int(n)), F64),)


# --------------------------------------------------------------------------------------
# seed004_bfs @bfs: breadth-first search from src over a CSR graph (offsets, edges);
# parents are i64 with -1 for Nothing; a node's parent is the first known node (in node
# order) that lists it as a neighbour (permute with `old <|> new`, in source order).
# --------------------------------------------------------------------------------------


def _bfs_step_np(parents, offsets, edges):
    known = np.flatnonzero(parents != -1)  # filter of (flags, iota), afst
    starts = offsets[known]
    counts = offsets[known + 1] - starts  # expand: count region
    total = int(counts.sum())
    # expand: get region, segments concatenated in input order.
    seg_start = np.cumsum(counts) - counts
    pos = np.repeat(starts - seg_start, counts) + np.arange(total, dtype=I64)
    neighbours = edges[pos]
    new_parents = np.repeat(known, counts)
    # permute into a copy of parents: drop Nothing targets; old <|> new in source order,
    # so a node without a parent takes the first value sent to it.
    keep = neighbours != -1
    targets, values = neighbours[keep], new_parents[keep]
    p = parents.copy()
    first_targets, first = np.unique(targets, return_index=True)
    empty = p[first_targets] == -1
    p[first_targets[empty]] = values[first[empty]]
    return p


def bfs_np(src, total_nodes, offsets, edges):
    src = I64(src)
    n = int(total_nodes)
    parents = np.where(np.arange(n, dtype=I64) == src, src, I64(-1))
    old = np.full(n, -1, dtype=I64)
    while not np.all(parents == old):
        parents, old = _bfs_step_np(parents, offsets, edges), parents
    return (parents,)


@partial(jax.jit, static_argnums=1)
def _bfs_jit(src, n, offsets, edges):
    # The expand's size is data-dependent, so the step is written for XLA over all edge
    # positions at once: position e belongs to node owner(e), the last node whose segment
    # starts at or before e (the offsets of a CSR graph are non-decreasing); it is sent iff
    # its owner is known and its neighbour is not Nothing. The first value a target receives
    # in source order is the smallest known owner sending to it (sources are in node order).
    n_edges = edges.shape[0]
    sentinel = jnp.iinfo(jnp.int64).max

    def search(state):
        # owner(e) = #{k : offsets[k] <= e} - 1, once per search (a histogram of the
        # offsets and its prefix sums), not in the loop.
        starts = jnp.zeros(n_edges + 1, jnp.int64).at[jnp.clip(offsets, 0, n_edges)].add(1)
        owner = jnp.cumsum(starts)[:n_edges] - 1
        in_graph = (owner >= 0) & (owner < min(n, offsets.shape[0] - 1))
        owner_c = jnp.clip(owner, 0, max(n - 1, 0))

        def step(parents):
            sent = in_graph & (_take(parents, owner_c) != -1) & (edges != -1)
            target = jnp.where(sent, edges, n)  # n: dropped
            first = jax.ops.segment_min(jnp.where(sent, owner, sentinel), target, num_segments=n + 1)[:n]
            return jnp.where(parents != -1, parents, jnp.where(first != sentinel, first, -1))

        return jax.lax.while_loop(changed, lambda s: (step(s[0]), s[0]), state)

    def changed(state):  # map not $ and $ zipWith (==)
        parents, old = state
        return jnp.logical_not(jnp.all(parents == old))

    iota = jnp.arange(n, dtype=jnp.int64)
    state = (jnp.where(iota == src, src, -1), jnp.full(n, -1, dtype=jnp.int64))
    # awhile tests its condition first; the search's set-up runs only if it loops at all.
    parents, _ = jax.lax.cond(changed(state), search, lambda s: s, state)
    return (parents,)


def bfs_jax(src, total_nodes, offsets, edges):
    return _bfs_jit(src, int(total_nodes), offsets, edges)


# --------------------------------------------------------------------------------------
# seed004_sum_of_squares: sum_{k=1..n} k*k, wrapping as i64
# --------------------------------------------------------------------------------------


def _sum_squares(xp, n):
    k = xp.arange(1, n + 1, dtype=xp.int64)
    return xp.sum(k * k, dtype=xp.int64)


_sum_squares_jit = jax.jit(partial(_sum_squares, jnp), static_argnums=0)


def sum_squares_jax(n):
    return (_sum_squares_jit(int(n)),)


def sum_squares_np(n):
    return (_scalar(_sum_squares(np, int(n)), I64),)


# --------------------------------------------------------------------------------------


FUNCTIONS = {
    ("seed000_backpermute", "backpermute"): (backpermute_jax, backpermute_np),
    ("seed000_backpermute", "backpermuteSugar"): (backpermute_jax, backpermute_np),
    ("seed000_backpermute", "gatherViaBackpermute"): (_gather_via_backpermute_jit, gather_via_backpermute_np),
    ("seed000_greedy", "greedyTopDownBad"): (_greedy_top_down_jit, greedy_top_down_np),
    ("seed000_histogram", "histogram"): (_histogram_jit, histogram_np),
    ("seed000_histogram", "byteHistogram"): (_byte_histogram_jit, byte_histogram_np),
    ("seed000_intro", "verticalExample"): (_vertical_jit, vertical_np),
    ("seed000_intro", "horizontalExample"): (_horizontal_jit, horizontal_np),
    ("seed000_intro", "mergeExample"): (_merge_jit, merge_np),
    ("seed000_multigrid", "vcycle"): (_vcycle_jit, vcycle_np),
    ("seed000_reverse", "reverse"): (_reverse_jit, reverse_np),
    ("seed000_reverse", "reverseSugar"): (_reverse_jit, reverse_np),
    ("seed000_row_softmax", "rowSoftmax"): (_row_softmax_jit, row_softmax_np),
    ("seed000_simple", "simple1"): (_simple1_jit, simple1_np),
    ("seed000_simple", "simple2"): (_simple2_jit, simple2_np),
    ("seed000_simple", "simple3"): (_simple3_jit, simple3_np),
    ("seed000_simple", "simple4"): (_simple4_jit, simple4_np),
    ("seed000_simple", "simple5"): (_simple5_jit, simple5_np),
    ("seed000_single_loop", "singleLoop"): (_single_loop_jit, single_loop_np),
    ("seed001_cycle", "cycle"): (_cycle_jit, cycle_np),
    ("seed001_filter_left", "filterLeft"): (filter_left_jax, filter_left_np),
    ("seed001_normalize2", "normalize2"): (_normalize2_jit, normalize2_np),
    ("seed001_normalize_inc", "normalizeInc"): (_normalize_inc_jit, normalize_inc_np),
    ("seed001_quadtree", "quadtree"): (quadtree_jax, quadtree_np),
    ("seed001_quadtree", "initialBounds"): (_initial_bounds_jit, initial_bounds_np),
    ("seed001_quadtree", "go"): (go_jax, go_np),
    ("seed001_quickhull", "filterMax"): (filter_max_jax, filter_max_np),
    ("seed002_diagonal", "mapFusion"): (_map_fusion_jit, map_fusion_np),
    ("seed002_diagonal", "diagonalExample"): (_diagonal_jit, diagonal_np),
    ("seed002_normalise2", "normalise2"): (_normalise2_jit, normalise2_np),
    ("seed002_normalise2", "normalise2Extended"): (_normalise2_extended_jit, normalise2_extended_np),
    ("seed003_black_scholes", "blackScholes"): (_black_scholes_jit, black_scholes_np),
    ("seed003_heat_equation", "heatStep"): (_heat_step_jit, heat_step_np),
    ("seed003_leibniz_pi", "leibnizPi"): (leibniz_jax, leibniz_np),
    ("seed004_bfs", "bfs"): (bfs_jax, bfs_np),
    ("seed004_sum_of_squares", "sumSquares"): (sum_squares_jax, sum_squares_np),
}

# Why a version is None in FUNCTIONS: (stem, function, "XLA" | "NumPy") -> reason.
MISSING = {}
