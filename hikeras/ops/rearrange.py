"""`rearrange`: einops-style axis patterns, as Keras 3's `keras.ops.rearrange`.

A pattern such as `"b (h w) c -> b h (w c)"` names the elementary axes on
each side; parentheses group axes that share one dimension. The input is
reshaped into its elementary axes, transposed into the output's order and
reshaped into the output groups, so the result has gradients and runs
symbolically (one unknown dimension at most, as `reshape` allows).

>>> import numpy as np
>>> rearrange(np.zeros((2, 6, 3)), "b (h w) c -> b h (w c)", h=2).shape
(2, 2, 9)
"""

import math
import re

from .core import shape, tensor_operand
from .numpy import reshape, transpose

_TOKEN = re.compile(r"\(|\)|[A-Za-z_][A-Za-z0-9_]*")


def _groups(side, pattern):
    """The axis groups of one side of a pattern: a list of lists of names."""
    groups, current = [], None
    for token in _TOKEN.findall(side):
        if token == "(":
            if current is not None:
                raise ValueError(f"rearrange: nested parentheses. Received: pattern={pattern!r}")
            current = []
        elif token == ")":
            if current is None:
                raise ValueError(f"rearrange: unbalanced ')'. Received: pattern={pattern!r}")
            groups.append(current)
            current = None
        elif current is not None:
            current.append(token)
        else:
            groups.append([token])
    if current is not None:
        raise ValueError(f"rearrange: unbalanced '('. Received: pattern={pattern!r}")
    if re.sub(r"[\s()A-Za-z0-9_]", "", side):
        raise ValueError(f"rearrange supports names and parentheses only. Received: "
                         f"pattern={pattern!r}")
    return groups


def _lengths(left, dims, axes_lengths, pattern):
    """Each elementary axis's length (None where unknown)."""
    lengths = {}
    for group, dim in zip(left, dims):
        known = [axes_lengths[n] for n in group if n in axes_lengths]
        unknown = [n for n in group if n not in axes_lengths]
        if len(unknown) > 1:
            raise ValueError(f"rearrange cannot split {group} without the lengths of all but "
                             f"one axis. Received: pattern={pattern!r}, "
                             f"axes_lengths={axes_lengths}")
        for name in group:
            if name in axes_lengths:
                lengths[name] = int(axes_lengths[name])
        if unknown:
            product = math.prod(known)
            if dim is not None and dim % product:
                raise ValueError(f"rearrange: dimension {dim} does not split into {group}. "
                                 f"Received: pattern={pattern!r}, axes_lengths={axes_lengths}")
            lengths[unknown[0]] = None if dim is None else dim // product
        elif dim is not None and math.prod(known) != dim:
            raise ValueError(f"rearrange: {group} does not match dimension {dim}. "
                             f"Received: pattern={pattern!r}, axes_lengths={axes_lengths}")
    return lengths


def _sizes(groups, lengths):
    sizes = []
    for group in groups:
        parts = [lengths[n] for n in group]
        sizes.append(-1 if None in parts else math.prod(parts))
    return tuple(sizes)


def rearrange(tensor, pattern, **axes_lengths):
    """Reorders, splits and merges axes by an einops pattern, e.g. `"b h w c -> b c h w"`."""
    x = tensor_operand(tensor)
    if pattern.count("->") != 1:
        raise ValueError(f"rearrange needs one '->' in its pattern. Received: pattern={pattern!r}")
    left_side, right_side = pattern.split("->")
    left, right = _groups(left_side, pattern), _groups(right_side, pattern)
    left_names = [n for g in left for n in g]
    right_names = [n for g in right for n in g]
    if sorted(left_names) != sorted(right_names) or len(set(left_names)) != len(left_names):
        raise ValueError("rearrange needs the same axis names, each once, on both sides. "
                         f"Received: pattern={pattern!r}")
    dims = shape(x)
    if len(dims) != len(left):
        raise ValueError(f"rearrange: the pattern's input has {len(left)} axes. Received: "
                         f"pattern={pattern!r}, tensor.shape={dims}")
    lengths = _lengths(left, dims, axes_lengths, pattern)
    elementary = [-1 if lengths[n] is None else lengths[n] for n in left_names]
    if elementary.count(-1) > 1:
        raise ValueError(f"rearrange handles one unknown axis at most. Received: "
                         f"tensor.shape={dims}, pattern={pattern!r}")
    x = reshape(x, elementary)
    x = transpose(x, [left_names.index(n) for n in right_names])
    return reshape(x, _sizes(right, lengths))
