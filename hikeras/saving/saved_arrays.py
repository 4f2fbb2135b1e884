"""Saved weights as the loaders see them: name, shape, dtype and a validated reader.

Every format's reader turns its file into `SavedEntry`s (one per saved layer,
holding `SavedArray`s) before anything in the model is touched. A
`SavedArray` over an HDF5 dataset is checked when it is made: a numeric
dtype, and data that lies inside the file (a truncated file is caught here,
not half-way through assigning). Contiguous, unfiltered datasets are later
read straight into the variable's own array (`read_direct`, no copy);
anything else (chunked, compressed) is read into a staging array up front,
so decoding errors also surface before the model changes. A layer's
`load_own_variables` gets `array()`: a read-only memory map of a contiguous
dataset (so its bytes are copied once, into the variable), or the staged array.
"""

import os

import h5py
import numpy as np

from .checksums import read_checksum
from .file_errors import file_error

_NUMERIC_KINDS = "biuf"


class SavedArray:
    """One saved weight.

    Args:
        name: its name in the file (e.g. `"dense/kernel:0"` or `"vars/0"`).
        shape, dtype: as stored.
        dataset: an `h5py.Dataset` to read from, or None with `value`.
        value: an in-memory array (already read and checked).
        source: the file, for error messages.
    """

    __slots__ = ("_dataset", "_staged", "_value", "checksum", "dtype", "name", "shape",
                 "source")

    def __init__(self, name, shape, dtype, dataset=None, value=None, source=""):
        self.name = name
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self._dataset = dataset
        self._value = value
        self._staged = None  # False: must be read by `stage()` before assigning
        self.source = source
        self.checksum = None  # the SHA-256 hikeras recorded, see `checksums`

    @classmethod
    def from_dataset(cls, dataset, name, source, file_size):
        """Checks an HDF5 dataset and wraps it; raises `SavedFileError` if it is unusable."""
        where = f"The file '{source}': weight '{name}'"
        if not isinstance(dataset, h5py.Dataset):
            raise file_error(where, "is not a dataset")
        dtype = dataset.dtype
        if dtype.kind not in _NUMERIC_KINDS or dtype.fields is not None:
            raise file_error(where, f"has non-numeric dtype {dtype}")
        shape = dataset.shape
        if shape is None:
            raise file_error(where, "has no shape (an empty dataspace)")
        plist = dataset.id.get_create_plist()
        layout = plist.get_layout()
        if layout not in (h5py.h5d.CONTIGUOUS, h5py.h5d.CHUNKED, h5py.h5d.COMPACT) or \
                plist.get_external_count() > 0:
            # Virtual and external datasets read other files: never follow them.
            raise file_error(where, "refers to data outside the file")
        array = cls(name, shape, dtype, dataset=dataset, source=source)
        array.checksum = read_checksum(dataset, where)
        nbytes = int(np.prod(shape, dtype=np.float64)) * dtype.itemsize
        if nbytes == 0:
            array._value = np.zeros(shape, dtype)
        elif layout == h5py.h5d.CONTIGUOUS and plist.get_nfilters() == 0:
            offset = dataset.id.get_offset()
            if offset is None:
                raise file_error(where, "has no data stored")
            if offset + nbytes > file_size:
                raise file_error(where, f"extends past the end of the file "
                                        f"({offset + nbytes} > {file_size} bytes): the file is "
                                        "truncated")
        else:
            array._staged = False  # chunked/compressed/compact: read up front, see `stage`
        return array

    def stage(self):
        """Reads data that cannot be read in place later (once its shape is known to fit)."""
        if self._staged is not False:
            return
        staged = np.empty(self.shape, self.dtype)
        try:
            self._dataset.read_direct(staged)
        except Exception as e:  # noqa: BLE001 (h5py raises many types on corrupt chunks)
            raise file_error(f"The file '{self.source}': weight '{self.name}'",
                             f"cannot be read ({type(e).__name__}: {e})") from None
        self._value = staged
        self._staged = True

    def read_into(self, out):
        """Writes the saved values into `out` (same shape), casting to its dtype."""
        if self._value is not None:
            out[...] = self._value
            return
        if out.dtype == self.dtype and out.flags.c_contiguous:
            self._dataset.read_direct(out)
        else:
            out[...] = self._dataset[()]

    def read(self):
        """The saved values as a new array."""
        out = np.empty(self.shape, self.dtype)
        self.read_into(out)
        return out

    def array(self):
        """The saved values as a read-only array: the staged values, or a memory map
        of the file's bytes (checked to lie inside the file when this was made)."""
        self.stage()
        if self._value is not None:
            view = self._value.view()
            view.flags.writeable = False
            return view
        try:
            mapped = np.memmap(self._dataset.file.filename, dtype=self.dtype, mode="r",
                               offset=self._dataset.id.get_offset(), shape=self.shape)
        except (OSError, ValueError, TypeError):  # no mappable file: read it instead
            return self.read()
        return mapped.view(np.ndarray)


def file_size_of(h5file):
    """The size in bytes of the file behind an open `h5py.File`."""
    return os.path.getsize(h5file.filename)


class SavedEntry:
    """The saved weights of one layer: `name` (its name or key) and `weights`.

    `extras` are `(Slot, SavedArray)` pairs of state the file holds for a
    layer (or sublayer) that reads it itself, beyond what it saves (see
    `keras3_weights`); they load with the layer unless matching `skipped` it.
    """

    __slots__ = ("extras", "name", "skipped", "weights")

    def __init__(self, name, weights, extras=()):
        self.name = name
        self.weights = list(weights)
        self.extras = list(extras)
        self.skipped = False

    def __repr__(self):
        return f"<SavedEntry {self.name}: {[w.name for w in self.weights]}>"
