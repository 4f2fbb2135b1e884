"""Turning whatever `fit`/`evaluate`/`predict` receive into a `DataAdapter`.

Accepted inputs: numpy arrays (and lists/dicts of them), a
`hikeras.utils.Sequence`, a `hikeras.data.Dataset`, or a Python
generator/iterator of batches.
"""

from ...data import Dataset
from ...utils.sequence import Sequence
from .array_adapter import ArrayDataAdapter
from .array_utils import (
    apply_class_weight,
    class_weight_to_sample_weight,
    split_validation,
    unpack_x_y_sample_weight,
)
from .data_adapter import DataAdapter
from .iterable_adapters import DatasetAdapter, GeneratorDataAdapter
from .sequence_adapter import SequenceDataAdapter

__all__ = [
    "ArrayDataAdapter", "DataAdapter", "DatasetAdapter", "GeneratorDataAdapter",
    "SequenceDataAdapter", "apply_class_weight", "class_weight_to_sample_weight",
    "get_data_adapter", "is_array_like", "split_validation", "unpack_x_y_sample_weight",
]


def _kind(x):
    if isinstance(x, Dataset):
        return "a Dataset"
    if isinstance(x, Sequence):
        return "a Sequence"
    if hasattr(x, "__next__"):
        return "a generator"
    return None


def is_array_like(x):
    """Whether `x` is in-memory data (arrays, lists/dicts of them), not a stream."""
    return _kind(x) is None


def get_data_adapter(x, y=None, sample_weight=None, batch_size=None, shuffle=False,
                     rng=None, workers=None, use_multiprocessing=None, max_queue_size=None):
    """The adapter for `x`; streams (`Dataset`, `Sequence`, generators) bring their own batches.

    Raises:
        ValueError: if `y`, `sample_weight` or `batch_size` is given with a
            stream, whose elements already carry targets and weights.
    """
    kind = _kind(x)
    if kind is None:
        return ArrayDataAdapter(x, y, sample_weight,
                                batch_size=32 if batch_size is None else batch_size,
                                shuffle=shuffle, rng=rng)
    for name, value in (("y", y), ("sample_weight", sample_weight),
                        ("batch_size", batch_size)):
        if value is not None:
            raise ValueError(
                f"Do not pass `{name}` when `x` is {kind}: its batches already carry "
                f"their targets and sample weights. Received: {name}={_short(value)}"
            )
    if isinstance(x, Dataset):
        return DatasetAdapter(x)
    if isinstance(x, Sequence):
        return SequenceDataAdapter(x, shuffle=shuffle, rng=rng, workers=workers,
                                   use_multiprocessing=use_multiprocessing,
                                   max_queue_size=max_queue_size)
    return GeneratorDataAdapter(x)


def _short(value):
    shape = getattr(value, "shape", None)
    return f"an array of shape {shape}" if shape is not None else repr(value)
