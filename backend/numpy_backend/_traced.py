"""Building blocks for traced VJPs: VJPs written with registered ops.

A traced VJP must work on plain arrays (first-order gradients, where it runs
unrecorded) and on tracked `Tensor`s (a gradient being differentiated again,
where every op it runs is recorded). Python operators already dispatch on
both; `ops.<name>(...)` runs any other registered op the same way. What a VJP
computes from values alone (masks, signs, counts) goes through `constant`,
which makes plain numpy safe to use on it: such values have no gradient.
"""

import functools

from ..dispatch import apply
from ..tensor import Tensor


class _Ops:
    """`ops.name(*inputs, **attrs)` is `apply("name", *inputs, **attrs)`."""

    def __getattr__(self, name):
        return functools.partial(apply, name)


ops = _Ops()


def constant(x):
    """The array behind `x`, for computations the gradient must not flow through."""
    return x.value if isinstance(x, Tensor) else x
