"""Layout helpers of the image ops: one batched, channels-last form to compute in.

>>> import numpy as np
>>> x, unbatched = channels_last_batch(np.zeros((3, 4, 5)), "channels_first", "example")
>>> x.shape, unbatched
((1, 4, 5, 3), True)
"""

from .. import backend
from .core import shape

_apply = backend.apply


def data_format_of(data_format):
    data_format = backend.image_data_format() if data_format is None else data_format
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(
            "data_format must be 'channels_last' or 'channels_first'. "
            f"Received: data_format={data_format!r}")
    return data_format


def channels_last_batch(x, data_format, op, ranks=(3, 4)):
    """`(x as (batch, *spatial, channels), whether it had no batch axis)`."""
    rank = len(shape(x))
    if rank not in ranks:
        raise ValueError(
            f"{op} needs images of rank {' or '.join(map(str, ranks))} "
            f"(one image or a batch). Received: images.shape={shape(x)}")
    unbatched = len(ranks) > 1 and rank == min(ranks)
    if unbatched:
        x = _apply("expand_dims", x, axis=0)
    if data_format == "channels_first":
        full = len(shape(x))
        x = _apply("transpose", x, axes=(0,) + tuple(range(2, full)) + (1,))
    return x, unbatched


def restore_layout(x, data_format, unbatched):
    """The inverse of `channels_last_batch` for a result of the same layout."""
    if data_format == "channels_first":
        full = len(shape(x))
        x = _apply("transpose", x, axes=(0, full - 1) + tuple(range(1, full - 1)))
    if unbatched:
        x = _apply("squeeze", x, axis=0)
    return x
