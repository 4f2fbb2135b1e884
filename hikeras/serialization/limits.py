"""Limits on what a saved file or config may make hikeras spend, checked before spending.

A config is small; the model it describes need not be. Weight shapes come
straight from config values (`units`, `input_dim`, ...), so a 200-byte config
can ask for terabytes. While a model is rebuilt from a file or a JSON string,
`weight_budget` caps the bytes its layers may allocate for weights, and
`Layer.add_weight` calls `charge_weight` before its initializer allocates
anything. The cap is the smaller of the memory available now and, for a file
that stores the weights, what that file can hold (a model whose weights
could not be in the file cannot load from it anyway).

The fixed limits below are far above any real model. They are module
attributes, read at each check, so a user with a genuine need can raise one:
`hikeras.serialization.limits.MAX_LAYERS = 500_000`.
"""

import contextlib
import contextvars
import math
import os

import numpy as np

MAX_JSON_DEPTH = 100  # nesting of a JSON config (Keras's deepest configs reach about 12)
MAX_LAYERS = 100_000  # layers in one model config, nested ones included
MAX_STRING_BYTES = 16 * 2**20  # one string inside a JSON config
# A file storing W bytes of weights may rebuild a model of at most this many times W
# (float16 weights loaded into float64 variables grow 4-fold), plus the slack below for
# state that files do not store.
FILE_WEIGHT_FACTOR = 4
FILE_WEIGHT_SLACK_BYTES = 64 * 2**20

_budget = contextvars.ContextVar("hikeras_weight_budget", default=None)


class _Budget:
    def __init__(self, limit, why):
        self.limit, self.why, self.spent = limit, why, 0


class ResourceLimitError(ValueError):
    """A file or config asks for more than a limit allows; the message names the limit.

    `shape` is the declared shape that broke a weight budget (else None).
    """

    def __init__(self, message, shape=None):
        super().__init__(message)
        self.shape = shape


@contextlib.contextmanager
def weight_budget(stored_bytes=None):
    """Within it, layers may create at most this many bytes of weights in all.

    Args:
        stored_bytes: the bytes of weights the file being loaded stores, if it
            stores them (None for a bare config).
    """
    limit, why = available_memory(), "the memory available now"
    if stored_bytes is not None:
        cap = FILE_WEIGHT_FACTOR * int(stored_bytes) + FILE_WEIGHT_SLACK_BYTES
        if cap < limit:
            limit = cap
            why = (f"what a file storing {_size(stored_bytes)} of weights can hold "
                   f"({FILE_WEIGHT_FACTOR} x that + {_size(FILE_WEIGHT_SLACK_BYTES)}, "
                   "`hikeras.serialization.limits.FILE_WEIGHT_FACTOR` and "
                   "`FILE_WEIGHT_SLACK_BYTES`)")
    token = _budget.set(_Budget(limit, why))
    try:
        yield
    finally:
        _budget.reset(token)


def charge_weight(shape, dtype, layer_name, weight_name):
    """Counts a weight about to be created against the active budget, if any.

    Raises `ResourceLimitError` naming the layer, the weight, its shape and the
    limit, before anything is allocated.
    """
    budget = _budget.get()
    if budget is None:
        return
    size = math.prod(max(0, d) for d in shape) * np.dtype(dtype).itemsize
    budget.spent += size
    if budget.spent > budget.limit:
        raise ResourceLimitError(
            f"layer {layer_name!r} would create weight {weight_name!r} of shape "
            f"{tuple(shape)} ({np.dtype(dtype).name}, {_size(size)}), bringing the model's "
            f"weights to {_size(budget.spent)}, more than {_size(budget.limit)}: "
            f"{budget.why}", shape=tuple(shape))


def check_layer_count(config, where):
    """Raises `ResourceLimitError` when a model config holds more than `MAX_LAYERS` layers."""
    count, stack = 0, [config]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            layers = value.get("layers")
            if isinstance(layers, list):
                count += len(layers)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    if count > MAX_LAYERS:
        raise ResourceLimitError(
            f"{where} has {count} layers, more than the limit of {MAX_LAYERS} "
            "(`hikeras.serialization.limits.MAX_LAYERS`; raise it for a genuine model)")


def check_string_sizes(value, where):
    """Raises `ResourceLimitError` for a string in a parsed JSON value longer than
    `MAX_STRING_BYTES`."""
    stack = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and len(value) > MAX_STRING_BYTES // 4 and len(
                value.encode("utf-8", "surrogatepass")) > MAX_STRING_BYTES:
            raise ResourceLimitError(
                f"{where} holds a string of {len(value)} characters, more than the limit of "
                f"{MAX_STRING_BYTES} bytes (`hikeras.serialization.limits.MAX_STRING_BYTES`)")


def available_memory():
    """Bytes of memory available now (Linux's MemAvailable, else free pages), or a
    very large number when the platform does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 62


def _size(n):
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} bytes"
