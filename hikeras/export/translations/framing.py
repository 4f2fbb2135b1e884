"""`frame` and `overlap_add`: windows of the last axis, and frames summed back.

`frame` gathers a constant `(frames, length)` table of sample indices;
`overlap_add` scatters every frame's samples, with `ScatterND`'s "add", into
a zero signal. Both need the lengths they index with at export time.
"""

import numpy as np

from .registry import translates


@translates("frame")
def _frame(g, op):
    x = op.inputs[0]
    length, stride = int(op.attrs["length"]), int(op.attrs["stride"])
    frames = op.outputs[0].shape[-2]
    if frames is None:
        raise g.error("framing a last axis of unknown length")
    table = np.arange(frames)[:, None] * stride + np.arange(length)[None, :]
    return g.node("Gather", [g.value(x), g.constant(table.astype(np.int64), hint="samples")],
                  axis=len(x.shape) - 1)


@translates("overlap_add")
def _overlap_add(g, op):
    frames = op.inputs[0]
    rank = len(frames.shape)
    count, length = frames.shape[-2:]
    total = op.outputs[0].shape[-1]
    if count is None or length is None:
        raise g.error("overlap_add of frames of unknown count or length")
    stride = int(op.attrs["stride"])
    dtype = np.dtype(op.outputs[0].dtype)
    # (..., n, L) -> (n * L, ...): ScatterND writes along the leading axis.
    perm = [rank - 2, rank - 1] + list(range(rank - 2))
    moved = g.node("Transpose", [g.value(frames, dtype)], perm=perm)
    rest = g.node("Slice", [g.node("Shape", [moved]), g.ints([2], "starts"),
                            g.ints([np.iinfo(np.int64).max], "ends")])
    flat = g.node("Reshape", [moved, g.node("Concat", [g.ints([count * length], "n"), rest],
                                            axis=0)])
    positions = np.arange(count)[:, None] * stride + np.arange(length)[None, :]
    fill = g.onnx.numpy_helper.from_array(np.zeros(1, dtype))
    zeros = g.node("ConstantOfShape", [g.node("Concat", [g.ints([total], "total"), rest],
                                              axis=0)], value=fill)
    signal = g.node("ScatterND", [zeros, g.constant(positions.reshape(-1, 1).astype(np.int64),
                                                    hint="positions"), flat], reduction="add")
    return g.node("Transpose", [signal], perm=list(range(1, rank - 1)) + [0])
