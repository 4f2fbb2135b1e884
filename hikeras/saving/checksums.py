"""Per-array checksums in every HDF5 file hikeras writes, verified when loading.

Each weight dataset hikeras writes (Keras 2's `.h5` layout, Keras 3's
`.weights.h5` and the `model.weights.h5` inside a `.keras`, sharded
checkpoint shards) carries an attribute `hikeras_sha256`: the SHA-256 of the
array's dtype, shape and C-order bytes, as 64 hex digits. Keras's loaders
read datasets by name and never look at their attributes, so Keras loads
these files as before (tests/fixtures/make_keras_fixtures.py checks it with
real Keras 2 and 3).

Loading hashes every array it is about to assign that has a checksum, before
anything in the model changes, and refuses a mismatch naming the file, the
layer and the weight. Files without checksums (Keras's own) load as before.
A checksum detects damage (a flipped bit, a truncated or partly overwritten
file); it is not a signature: whoever can edit the file can recompute it.

SHA-256 because the CPU instructions most machines have make it the fastest
hash in `hashlib` (about 1.7 GB/s a core), and it releases the GIL, so
several arrays are hashed at once.
"""

import concurrent.futures
import hashlib
import os
import re

import numpy as np

from .file_errors import file_error

ATTRIBUTE = "hikeras_sha256"
_HEX = re.compile(r"[0-9a-f]{64}")
_BLOCK = 2**24  # bytes hashed at a time: large arrays are never copied whole


def digest(array):
    """The hex SHA-256 of `array`'s dtype, shape and C-order bytes."""
    array = np.asarray(array)
    sha = hashlib.sha256(f"{array.dtype.str}{array.shape}".encode())
    flat = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
    for start in range(0, flat.size, _BLOCK):
        sha.update(flat[start:start + _BLOCK])
    return sha.hexdigest()


def write_dataset(group, name, array):
    """Creates dataset `name` in `group` holding `array`, stamped with its checksum."""
    array = np.asarray(array)
    dataset = group.create_dataset(name, data=array)
    dataset.attrs[ATTRIBUTE] = np.bytes_(digest(array))
    return dataset


def read_checksum(dataset, where):
    """A dataset's recorded checksum, or None when it has none (a file Keras wrote)."""
    attrs = dataset.attrs
    if ATTRIBUTE not in attrs:
        return None
    attr_id = attrs.get_id(ATTRIBUTE)
    if attr_id.shape not in ((), None) or attr_id.dtype.itemsize > 256:
        raise file_error(where, f"has a malformed '{ATTRIBUTE}' attribute")
    value = attrs[ATTRIBUTE]
    if isinstance(value, (bytes, np.bytes_)):
        value = bytes(value).decode("ascii", "replace")
    if not isinstance(value, str) or not _HEX.fullmatch(value):
        raise file_error(where, f"has a malformed '{ATTRIBUTE}' attribute: {value!r:.80}")
    return value


def verify(plan, source):
    """Hashes every planned saved array that carries a checksum; raises on a mismatch.

    `plan` holds `(target, SavedArray)` pairs: a target is a layer's `Slot`
    or an optimizer's variable. Arrays are hashed in parallel threads.
    """
    targets = {}
    for target, saved in plan:
        if saved.checksum is not None:
            targets.setdefault(id(saved), (target, saved))
    if not targets:
        return

    def mismatch(pair):
        saved = pair[1]
        return pair if digest(saved.array()) != saved.checksum else None

    workers = min(4, os.cpu_count() or 1, len(targets))
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        bad = [pair for pair in pool.map(mismatch, targets.values()) if pair]
    if bad:
        names = [_describe(target, saved) for target, saved in bad]
        more = f" and {len(names) - 5} more" if len(names) > 5 else ""
        raise file_error(source, f"is corrupt: the data of {'; '.join(names[:5])}{more} "
                                 "does not match the checksum recorded when the file was "
                                 "written. Nothing was loaded")


def _describe(target, saved):
    layer = getattr(target, "layer", None)
    if layer is not None:
        return f"weight '{saved.name}' of layer '{layer.name}' ('{target.path}')"
    return f"optimizer weight '{saved.name}' ('{target.path}')"
