"""Pooling ops: `max_pool` and `avg_pool` over `(batch, *spatial, channels)` inputs.

Both visit the window's taps one at a time: tap `t` of every window is one
strided view of the (padded) input, so a pool is a handful of whole-array
operations whatever its size. They do so chunk by chunk along the batch, on
all cores (`batch_threads`), each chunk small enough that its passes run in
cache. `max_pool`'s gradient goes to the first tap (in window order) that
holds the maximum, as TensorFlow's does; `avg_pool`'s "same" padding divides
by the number of real (unpadded) elements in each window, as Keras does.
"""

import itertools
import math

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._memo import memoized
from ._registry import define
from .batch_threads import batch_step, declares_batch_kernel, run_chunks

# Bytes of (padded) input per batch chunk.
CHUNK_BYTES = 2 << 20


def _window(op, shape, pool_size, strides, padding):
    """Validated `(pool_size, strides, pads, output spatial shape)` of a pooling."""
    rank = len(shape) - 2
    if rank < 1:
        raise ValueError(f"{op} needs an input of rank >= 3 (batch, *spatial, channels). "
                         f"Received: input shape {tuple(shape)}")
    sizes = []
    for name, value in (("pool_size", pool_size), ("strides", pool_size if strides is None
                                                   else strides)):
        values = (value,) * rank if isinstance(value, (int, np.integer)) else tuple(value)
        if len(values) != rank or not all(isinstance(v, (int, np.integer)) and v > 0
                                          for v in values):
            raise ValueError(f"{op}: {name} must be a positive integer or a sequence of {rank} "
                             f"of them. Received: {name}={value!r}")
        sizes.append(tuple(int(v) for v in values))
    pool, steps = sizes
    if padding not in ("valid", "same"):
        raise ValueError(f"{op}: padding must be 'valid' or 'same'. Received: padding={padding!r}")
    spatial = shape[1:-1]
    counts = tuple(rules.window_count(n, k, s, 1, padding)
                   for n, k, s in zip(spatial, pool, steps))
    if any(c is not None and c < 1 for c in counts):
        raise ValueError(
            f"{op}: the pool ({pool}) is larger than the input with padding='valid'. "
            f"Received: input shape {tuple(shape)}")
    pads = tuple((0, 0) if n is None else rules.window_padding(n, k, s, 1, padding)
                 for n, k, s in zip(spatial, pool, steps))
    return pool, steps, pads, counts


# `_window` for the kernels, whose shapes are concrete (the shape rules see unknown sizes).
_kernel_window = memoized(_window)


def _float_dtype(dtype):
    floating = np.issubdtype(dtype, np.floating) or np.dtype(dtype).name == "bfloat16"
    return dtype if floating else np.dtype("float32")


def _pool_shape(op, dtype_rule):
    def rule(x, pool_size, strides=None, padding="valid"):
        shape = rules.shape_of(x)
        counts = _window(op, shape, pool_size, strides, padding)[3]
        return SymbolicTensor((shape[0],) + counts + (shape[-1],),
                              dtype_rule(np.dtype(rules.dtype_of(x))))

    return rule


def _taps(pool, steps, counts):
    """Per window tap, the index of that tap of every window in the padded input."""
    for tap in itertools.product(*(range(k) for k in pool)):
        yield (slice(None),) + tuple(slice(t, t + (c - 1) * s + 1, s)
                                     for t, s, c in zip(tap, steps, counts))


def _padded_spatial(shape, pads):
    return tuple(n + lo + hi for n, (lo, hi) in zip(shape[1:-1], pads))


def _padded(x, pads, fill):
    if not any(lo or hi for lo, hi in pads):
        return x
    xp = np.full((x.shape[0],) + _padded_spatial(x.shape, pads) + x.shape[-1:], fill, x.dtype)
    xp[_interior(x.shape, pads)] = x
    return xp


def _interior(shape, pads):
    return (slice(None),) + tuple(slice(lo, lo + n) for n, (lo, _) in
                                  zip(shape[1:-1], pads)) + (slice(None),)


def _by_chunks(task, shape, pads, dtype):
    """Runs `task(start, stop)` over the batch of an input of `shape`, in parallel chunks."""
    image_bytes = math.prod(_padded_spatial(shape, pads)) * shape[-1] * np.dtype(dtype).itemsize
    run_chunks(task, shape[0], batch_step(shape[0], image_bytes, CHUNK_BYTES))


def _scatter(shape, pads, pool, steps, counts, dtype, route):
    """The input gradient, from `route(start, stop, targets, accumulate)`.

    For a batch slice, `route` writes (or, with `accumulate`, adds) the
    gradient each tap receives from every window into `targets`, strided
    views of the result's slice in tap order.
    """
    padded = _padded_spatial(shape, pads)
    # When the windows partition the input, each tap owns its elements outright.
    tiles = pool == steps and all(c * s == n for c, s, n in zip(counts, steps, padded))
    dx = np.empty(shape, dtype)
    unpadded = padded == tuple(shape[1:-1])

    def scatter(start, stop):
        dxp = dx[start:stop] if unpadded else np.empty((stop - start,) + padded + shape[-1:],
                                                       dtype)
        if not tiles:
            dxp.fill(0)
        route(start, stop, [dxp[index] for index in _taps(pool, steps, counts)], not tiles)
        if not unpadded:
            dx[start:stop] = dxp[_interior(shape, pads)]

    _by_chunks(scatter, shape, pads, dtype)
    return dx


def _lowest(dtype):
    return -np.inf if _float_dtype(dtype) == dtype else np.iinfo(dtype).min


@define("max_pool", shape=declares_batch_kernel(_pool_shape("max_pool", lambda dtype: dtype)),
        save_inputs=(0,), save_outputs=(0,))
def max_pool(x, pool_size, strides=None, padding="valid"):
    """Maximum over each window."""
    pool, steps, pads, counts = _kernel_window("max_pool", x.shape, pool_size, strides,
                                                padding)
    out = np.empty(x.shape[:1] + counts + x.shape[-1:], x.dtype)

    def forward(start, stop):
        _separable_max(_padded(x[start:stop], pads, _lowest(x.dtype)), pool, steps, counts,
                       out[start:stop])

    _by_chunks(forward, x.shape, pads, x.dtype)
    return out


def _separable_max(xp, pool, steps, counts, out):
    """Writes into `out` the maximum over each window of padded `xp`, one spatial axis
    at a time: a window's maximum is the maximum over its rows of their maxima. That
    takes `sum(pool) - rank` passes instead of `prod(pool) - 1` (2 instead of 3 for
    2x2 windows, 4 instead of 8 for 3x3), and the first axis's passes run along whole
    contiguous rows. Measured against one pass per window tap: 0.93x the time for
    one-sample 2x2 pooling of 24x24x64 (the same at batch 128), 0.83x for 3x3 windows
    with stride 2, 0.67x for 3-D 2x2x2. NaN propagates as through any order of
    `np.maximum`.
    """
    current = xp
    for axis, (size, step, count) in enumerate(zip(pool, steps, counts), start=1):
        before = (slice(None),) * axis
        taps = [current[before + (slice(t, t + (count - 1) * step + 1, step),)]
                for t in range(size)]
        if axis == len(pool):
            target = out
        else:
            target = np.empty(taps[0].shape, current.dtype)
        if size == 1:
            np.copyto(target, taps[0])
        else:
            np.maximum(taps[0], taps[1], out=target)
            for view in taps[2:]:
                np.maximum(target, view, out=target)
        current = target


@max_pool.defvjp
def _max_pool_vjp(node, g):
    """Routes each output's gradient to the first tap (in window order) holding the maximum.

    Finding the winners here rather than in the forward pass keeps inference
    to a chain of `np.maximum`; the comparisons cost about what recording
    the winners would have.
    """
    x, out = node.inputs[0], node.outputs[0]
    attrs = node.attrs
    pool, steps, pads, counts = _kernel_window("max_pool", x.shape, attrs["pool_size"],
                                               attrs.get("strides"), attrs.get("padding", "valid"))
    taps = list(_taps(pool, steps, counts))

    def route(start, stop, targets, accumulate):
        xp = _padded(x[start:stop], pads, _lowest(x.dtype))
        o, gs = out[start:stop], g[start:stop]
        hit = np.empty(o.shape, bool)  # this tap holds the maximum (and no earlier tap did)
        found = np.empty(o.shape, bool)  # some tap so far holds the maximum
        for number, (index, target) in enumerate(zip(taps, targets)):
            np.equal(xp[index], o, out=hit)
            if number:
                np.greater(hit, found, out=hit)  # hit and not found
            if accumulate:
                target += gs * hit
            else:
                np.multiply(gs, hit, out=target)
            if number == 0:
                np.copyto(found, hit)
            elif number < len(taps) - 1:
                np.logical_or(found, hit, out=found)

    return (_scatter(x.shape, pads, pool, steps, counts, g.dtype, route),)


def _window_sizes(shape, pool, steps, pads, counts):
    """How many real (unpadded) elements each window covers, shaped (1, *out, 1)."""
    sizes = np.ones((1,) * len(shape))
    for axis, (n, k, s, (lo, _), c) in enumerate(zip(shape[1:-1], pool, steps, pads, counts)):
        start = np.arange(c) * s - lo
        covered = np.minimum(start + k, n) - np.maximum(start, 0)
        sizes = sizes * covered.reshape((1,) * (axis + 1) + (c,) + (1,) * (len(shape) - axis - 2))
    return sizes


@define("avg_pool", shape=declares_batch_kernel(_pool_shape("avg_pool", _float_dtype)))
def avg_pool(x, pool_size, strides=None, padding="valid"):
    """Mean over each window's real elements ("same" padding is not counted)."""
    pool, steps, pads, counts = _kernel_window("avg_pool", x.shape, pool_size, strides,
                                                padding)
    out = np.empty(x.shape[:1] + counts + x.shape[-1:], _float_dtype(x.dtype))
    sizes = _window_sizes(x.shape, pool, steps, pads, counts).astype(out.dtype)

    def forward(start, stop):
        xp = _padded(x[start:stop], pads, 0)
        taps = _taps(pool, steps, counts)
        o = out[start:stop]
        np.copyto(o, xp[next(taps)])
        for index in taps:
            o += xp[index]
        o /= sizes

    _by_chunks(forward, x.shape, pads, x.dtype)
    return out


@avg_pool.defvjp
def _avg_pool_vjp(node, g):
    shape = node.input_shapes[0]
    attrs = node.attrs
    pool, steps, pads, counts = _kernel_window("avg_pool", shape, attrs["pool_size"],
                                               attrs.get("strides"), attrs.get("padding", "valid"))
    sizes = _window_sizes(shape, pool, steps, pads, counts).astype(g.dtype)

    def route(start, stop, targets, accumulate):
        share = g[start:stop] / sizes
        for target in targets:
            if accumulate:
                target += share
            else:
                target[...] = share

    return (_scatter(shape, pads, pool, steps, counts, g.dtype, route),)
