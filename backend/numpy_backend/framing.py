"""Cutting a signal's last axis into overlapping frames, and adding frames back.

`frame` reads windows of `length` samples every `stride` samples (a strided
view, copied); `overlap_add` is its adjoint, summing frames into a signal
where they overlap. Each is the other's VJP. They are the building blocks
of `extract_sequences`, `stft` and `istft`; their VJPs run as recorded ops,
so gradients of any order are available.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define
from ._traced import ops


def _frame_count(samples, length, stride):
    if samples is None:
        return None
    return max((samples - length) // stride + 1, 0)


def _check(op, length, stride):
    if int(length) < 1 or int(stride) < 1:
        raise ValueError(
            f"{op}: sequence_length and sequence_stride must be positive integers. "
            f"Received: sequence_length={length}, sequence_stride={stride}")


def _frame_shape(x, length, stride):
    _check("extract_sequences", length, stride)
    shape = rules.shape_of(x)
    if not shape:
        raise ValueError(f"extract_sequences needs an input of rank >= 1. Received: x.shape={shape}")
    if shape[-1] is not None and shape[-1] < length:
        raise ValueError(
            "extract_sequences: the last axis is shorter than one sequence. "
            f"Received: x.shape={shape}, sequence_length={length}")
    out = shape[:-1] + (_frame_count(shape[-1], length, stride), length)
    return SymbolicTensor(out, rules.dtype_of(x))


@define("frame", shape=_frame_shape)
def frame(x, length, stride):
    """`(..., frames, length)`: the windows of `x`'s last axis, `stride` apart."""
    x = np.asarray(x)
    windows = np.lib.stride_tricks.sliding_window_view(x, length, axis=-1)
    return np.ascontiguousarray(windows[..., ::stride, :])


def overlap_add_values(frames, stride):
    """The signal that `frames` (`(..., n, length)`) sum to at `stride` samples apart."""
    frames = np.asarray(frames)
    count, length = frames.shape[-2], frames.shape[-1]
    if count == 0:
        return np.zeros(frames.shape[:-2] + (0,), frames.dtype)
    chunks = -(-length // stride)
    # Frame k's j-th chunk of `stride` samples lands at (k + j) * stride: one
    # vectorised add per chunk index, over all frames at once.
    padded = np.zeros(frames.shape[:-1] + (chunks * stride,), frames.dtype)
    padded[..., :length] = frames
    out = np.zeros(frames.shape[:-2] + ((count + chunks) * stride,), frames.dtype)
    for j in range(chunks):
        window = out[..., j * stride:(j + count) * stride]
        window.reshape(window.shape[:-1] + (count, stride))[...] += \
            padded[..., j * stride:(j + 1) * stride]
    return out[..., :(count - 1) * stride + length]


@frame.defvjp(traceable=True)
def _frame_vjp(node, g):
    added = ops.overlap_add(g, stride=node.attrs["stride"])
    missing = node.input_shapes[0][-1] - added.shape[-1]  # samples no frame reached
    return (ops.pad(added, pad_width=((0, 0),) * (len(added.shape) - 1) + ((0, missing),)),)


def _overlap_add_shape(frames, stride):
    shape = rules.shape_of(frames)
    if len(shape) < 2:
        raise ValueError(f"overlap_add needs frames of rank >= 2. Received: frames.shape={shape}")
    count, length = shape[-2], shape[-1]
    total = None if count is None or length is None else (count - 1) * stride + length
    return SymbolicTensor(shape[:-2] + (total,), rules.dtype_of(frames))


@define("overlap_add", shape=_overlap_add_shape)
def overlap_add(frames, stride):
    """Frames `(..., n, length)` summed into one signal, `stride` samples apart."""
    return overlap_add_values(frames, stride)


@overlap_add.defvjp(traceable=True)
def _overlap_add_vjp(node, g):
    return (ops.frame(g, length=node.input_shapes[0][-1], stride=node.attrs["stride"]),)
