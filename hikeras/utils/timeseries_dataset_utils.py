"""`timeseries_dataset_from_array`: sliding windows over a time series as a `Dataset`."""

import numbers

import numpy as np

from ..data import Dataset
from .rng import make_generator


def _positive(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"`{name}` must be a positive integer. Received: {name}={value!r}")
    return int(value)


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False, seed=None,
                                  start_index=None, end_index=None):
    """Windows of `data` (with the target at each window's start) as a `Dataset`.

    Window `i` starts at `start_index + i * sequence_stride` and holds
    `sequence_length` rows taken every `sampling_rate` rows. Its target is
    `targets[start_index + i * sequence_stride]`, as in Keras (shift the
    targets yourself to predict the future).

    Args:
        data: array whose first axis is time.
        targets: array aligned with `data`, or None for windows only.
        sequence_length: rows per window.
        sequence_stride: offset between consecutive windows.
        sampling_rate: offset between rows inside a window.
        batch_size: windows per batch, or None for unbatched windows.
        shuffle: shuffle the order of the windows.
        seed: seed for the shuffle.
        start_index, end_index: only rows in `[start_index, end_index)`
            are used (defaults: the whole array).

    Returns:
        A `Dataset` of `(windows, targets)` batches, or of windows when
        `targets` is None.

    >>> import numpy as np
    >>> ds = timeseries_dataset_from_array(np.arange(6), np.arange(6) * 10,
    ...                                    sequence_length=3, batch_size=None)
    >>> [(w.tolist(), int(t)) for w, t in ds]
    [([0, 1, 2], 0), ([1, 2, 3], 10), ([2, 3, 4], 20), ([3, 4, 5], 30)]
    """
    data = np.asarray(data)
    sequence_length = _positive(sequence_length, "sequence_length")
    sequence_stride = _positive(sequence_stride, "sequence_stride")
    sampling_rate = _positive(sampling_rate, "sampling_rate")
    if batch_size is not None:
        _positive(batch_size, "batch_size")
    start_index = 0 if start_index is None else start_index
    end_index = len(data) if end_index is None else end_index
    if not 0 <= start_index < len(data):
        raise ValueError(f"`start_index` must lie in [0, {len(data)}). "
                         f"Received: start_index={start_index}")
    if not start_index < end_index <= len(data):
        raise ValueError(f"`end_index` must lie in ({start_index}, {len(data)}]. "
                         f"Received: end_index={end_index}")
    num_windows = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        targets = np.asarray(targets)
        num_windows = min(num_windows, len(targets) - start_index)
    if num_windows <= 0:
        raise ValueError(
            f"No window of {sequence_length} rows (sampling_rate={sampling_rate}) fits in "
            f"rows [{start_index}, {end_index}). Received: {len(data)} rows of data"
        )
    starts = start_index + np.arange(0, num_windows, sequence_stride)
    if shuffle:
        starts = make_generator(seed).permutation(starts)
    offsets = np.arange(sequence_length) * sampling_rate

    def windows(start_batch):
        return data[start_batch[..., None] + offsets]

    positions = Dataset.from_tensor_slices(starts)
    if batch_size is not None:
        positions = positions.batch(batch_size)
    if targets is None:
        return positions.map(windows)
    return positions.map(lambda s: (windows(s), targets[s]))
