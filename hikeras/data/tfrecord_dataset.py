"""`TFRecordDataset`: the records of TFRecord files as a `Dataset` of bytes."""

import itertools
import os

import numpy as np

from ..io import compression, crc32c
from ..io.tfrecord_reader import DEFAULT_BUFFER_SIZE, read_records
from .dataset import UNKNOWN_CARDINALITY, Dataset
from .parallel import close_iterator, prefetch, resolve_parallelism

_READ_AHEAD = 64  # records each reading thread may run ahead of the consumer


def _filenames(filenames):
    if isinstance(filenames, Dataset):
        filenames = list(filenames)
    if isinstance(filenames, (str, bytes, os.PathLike)) or (
            isinstance(filenames, np.ndarray) and filenames.ndim == 0):
        filenames = [filenames]
    names = []
    for name in filenames:
        name = name[()] if isinstance(name, np.ndarray) else name
        name = os.fsdecode(name) if isinstance(name, (bytes, os.PathLike)) else name
        if not isinstance(name, str):
            raise TypeError("TFRecordDataset takes a file name, a list of them or a Dataset "
                            f"of them. Received: a {type(name).__name__} ({name!r})")
        names.append(name)
    if not names:
        raise ValueError("TFRecordDataset needs at least one file name. Received: filenames=[]")
    return names


def _record_element(data):
    """A 0-d object array holding the bytes (a bytes 'S' array would drop trailing zeros)."""
    element = np.empty((), dtype=object)
    element[()] = data
    return element


def _interleave(paths, cycle_length, open_records):
    """Records of `cycle_length` files at a time, one from each in turn.

    The order is TensorFlow's deterministic interleave with block length 1:
    slots are visited round robin; a file that ends frees its slot, which
    the next file takes when the turn comes back to it.
    """
    pending = iter(paths)
    slots = [None] * cycle_length
    index, exhausted = 0, False
    try:
        while not exhausted or any(slot is not None for slot in slots):
            if slots[index] is None:
                path = None if exhausted else next(pending, None)
                if path is not None:
                    slots[index] = open_records(path)
                    continue
                exhausted = True
            else:
                try:
                    yield next(slots[index])
                except StopIteration:
                    slots[index] = None
            index = (index + 1) % cycle_length
    finally:
        for slot in slots:
            if slot is not None:
                close_iterator(slot)


class TFRecordDataset(Dataset):
    """A `Dataset` whose elements are the records of one or more TFRecord files.

    Each element is one record's bytes (in a 0-d object array), usually
    parsed with `map(lambda r: hikeras.io.parse_single_example(r, spec))`,
    or batched first and parsed with `parse_example`.

    Args:
        filenames: a path, a list of paths or a `Dataset` of paths.
        compression_type: None or "" (plain), "GZIP" or "ZLIB".
        buffer_size: bytes of read buffer per file (default 256 KiB).
        num_parallel_reads: None reads the files one after another. An
            integer (or `AUTOTUNE`) reads that many files at once, each in
            a background thread, and interleaves their records one by one
            in a fixed order, as TensorFlow's deterministic reader does.
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        del name
        crc32c.require()
        paths = _filenames(filenames)
        compression_type = compression.normalize(compression_type)
        if buffer_size is None:
            buffer_size = DEFAULT_BUFFER_SIZE
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int) or buffer_size <= 0:
            raise ValueError("`buffer_size` must be a positive number of bytes or None. "
                             f"Received: buffer_size={buffer_size!r}")
        for path in paths:
            if not os.path.isfile(path):
                raise FileNotFoundError(f"TFRecordDataset: no such file '{path}'.")
        parallel = None if num_parallel_reads is None else resolve_parallelism(
            num_parallel_reads, "num_parallel_reads")

        def records(path):
            return (_record_element(data) for data in read_records(
                path, compression_type, buffer_size))

        def iterate():
            if parallel is None:
                return itertools.chain.from_iterable(records(path) for path in paths)
            return _interleave(paths, parallel,
                               lambda path: prefetch(records(path), _READ_AHEAD))

        super().__init__(iterate, UNKNOWN_CARDINALITY)
