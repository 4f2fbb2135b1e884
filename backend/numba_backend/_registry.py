"""The numba backend's op table: the numpy backend's, with the hot kernels replaced.

`override(name)` registers a compiled kernel for op `name` wrapped in
`with_fallback`, so that it runs the numpy kernel whenever numba cannot
compile it (or the kernel declines the inputs by returning NotImplemented).
"""

from ..numpy_backend import ops as numpy_ops
from ..registry import OpRegistry
from ._jit import with_fallback

ops = OpRegistry.inheriting(numpy_ops)


def override(name):
    """Decorator: `fn` becomes op `name`'s forward kernel, numpy's kernel its fallback."""

    def decorator(fn):
        return ops.override(name)(with_fallback(name, fn, numpy_ops[name].forward))

    return decorator


def override_vjp(name):
    """Decorator: `fn(node, g)` becomes op `name`'s VJP (already overridden with `override`).

    The numpy VJP is the fallback: `fn` returns NotImplemented for what it
    does not cover.
    """
    op = ops[name]
    if op is numpy_ops[name]:
        raise ValueError(f"Op '{name}': override its forward kernel before its VJP.")
    base = numpy_ops[name].vjp

    def decorator(fn):
        op.vjp = with_fallback(name + ".vjp", fn, base)
        return fn

    return decorator
