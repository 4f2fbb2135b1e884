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


def override_vjp(name, fallback=None):
    """Decorator: `fn(node, g)` becomes op `name`'s VJP.

    The numpy VJP is the fallback (or `fallback(node, g)` where given, for a
    compiled forward whose residual the numpy VJP cannot read as it is): `fn`
    returns NotImplemented for what it does not cover (a residual of the numpy
    kernel's, a dtype). An op whose forward kernel is not overridden gets a
    copy of its own here, so numpy's table keeps its VJP.
    """
    if ops[name] is numpy_ops[name]:
        ops.override(name)(numpy_ops[name].forward)
    op = ops[name]
    base = fallback or numpy_ops[name].vjp

    def decorator(fn):
        op.vjp = with_fallback(name + ".vjp", fn, base)
        return fn

    return decorator
