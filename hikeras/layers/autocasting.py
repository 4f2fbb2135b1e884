"""Mixed precision at the layer boundary: which dtype a layer's inputs and
weights are read in while it computes.

A layer with a mixed policy (`"mixed_float16"`) keeps float32 weights and
computes in float16, as Keras does: floating inputs are cast to the compute
dtype when the layer is called, and inside the call an `AutocastScope` makes
every op read the layer's float weights in that dtype (the tape carries each
gradient back through the cast to the float32 weight). A layer with
`autocast = False` (normalisation layers) sees its inputs and weights as they
are and chooses its own precision.
"""

import numpy as np

from ..backend import (
    AutocastScope,
    SymbolicTensor,
    Tensor,
    any_scope_open,
    autocast_dtype,
    bfloat16_dtype,
)
from ..dtype_policies import DTypePolicy, global_policy
from ..dtype_policies import get as get_policy
from .node import KerasTensor

_HALF = ("float16", "bfloat16")


def mixed_policy_of(dtype):
    """The `DTypePolicy` of a layer's `dtype` argument when it is mixed, else None.

    None stands for the global policy (`mixed_precision.set_global_policy`).
    """
    if dtype is None:
        dtype = global_policy()
    if isinstance(dtype, (str, dict, DTypePolicy)):
        try:
            policy = get_policy(dtype)
        except (ValueError, TypeError):
            return None
        if not policy.is_mixed:
            return None
        if policy.compute_dtype == "bfloat16":
            bfloat16_dtype()  # imports ml-dtypes, so numpy knows the name "bfloat16"
        return policy
    return None


# Answers of `is_float` by dtype (or name): a numpy dtype's `name` is computed
# in Python on every read, and each layer call asks once per input.
_float_answers = {}


def is_float(dtype):
    """Whether `dtype` (a numpy dtype or a name) is a float dtype, bfloat16 included."""
    try:
        return _float_answers[dtype]
    except (KeyError, TypeError):   # not seen yet, or unhashable
        pass
    name = getattr(dtype, "name", dtype)
    answer = name in _HALF or name in ("float32", "float64")
    if len(_float_answers) < 64:   # a program uses a handful of dtypes
        try:
            _float_answers[dtype] = answer
        except TypeError:
            pass
    return answer


def scope_for(layer):
    """The `AutocastScope` a call of `layer` runs in, or None to keep the current one.

    As Keras: a mixed layer opens a scope of its compute dtype; a layer nested
    in another's scope switches it to its own compute dtype, or off when the
    layer does not autocast or does not compute in floats.
    """
    if layer._dtype_policy is None and not any_scope_open():
        return None   # nothing mixed: the layer computes in its own dtype
    current = autocast_dtype()
    compute = layer.compute_dtype
    if current is None:
        if layer.autocast and compute != layer.dtype and is_float(compute):
            return AutocastScope(compute)
        return None
    if not layer.autocast or not is_float(compute):
        return AutocastScope(None)
    return AutocastScope(compute) if current.name != compute else None


def input_dtype(layer, value_dtype):
    """The dtype a floating input of `value_dtype` is cast to, or None to keep it.

    Plain arrays are cast to the layer's dtype as before; tensors and symbolic
    tensors only where mixed precision is involved (a mixed layer, or a half
    precision input reaching a full precision layer), so float32 models see no
    change.
    """
    if not is_float(value_dtype):
        return None
    target = layer.compute_dtype if layer.autocast else layer.dtype
    if value_dtype == target:
        return None
    return target


def convert_input(layer, x, cast):
    """`x` with a floating value cast to the layer's input dtype (see `input_dtype`).

    A `KerasTensor` stays as it is: it is a node of the graph being built (the
    layer's symbolic call converts its history-free copy).
    """
    if isinstance(x, KerasTensor):
        return x
    if isinstance(x, np.ndarray):
        target = input_dtype(layer, x.dtype)
        return x if target is None else cast(x, target)
    if isinstance(x, (Tensor, SymbolicTensor)):
        if layer._dtype_policy is None and getattr(x.dtype, "name", None) not in _HALF:
            return x
        target = input_dtype(layer, x.dtype)
        if target is None:
            return x
        if isinstance(x, SymbolicTensor):
            return SymbolicTensor(x.shape, target)
        return cast(x, target)
    return x
