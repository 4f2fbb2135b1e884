"""Sharded checkpoints: an index plus `<stem>.<token>.data-0000k-of-0000n` HDF5 shards.

`save_weights("ckpt/model.weights.json", max_shard_size="500MB")` writes

* shards `ckpt/model.weights.<token>.data-00000-of-00002`, ... (HDF5; datasets
  `t0`, `t1`, ...; a fresh `<token>` per save),
  each at most `max_shard_size` unless one tensor alone is larger;
* the index `ckpt/model.weights.json`: for every layer its tensor names (what
  it and its sublayers `save_own_variables`, in Keras's legacy order), for
  every tensor its shard, dataset, dtype, shape, byte size and SHA-256; the
  optimizer's tensors too when it is built;
* a pointer `ckpt/checkpoint` (`{"latest": "model.weights.json"}`), so
  `load_weights("ckpt")` finds the newest checkpoint.

Every file is written atomically, fresh shards first, the index next (the
commit point), pointer last, so a crash or a failed write leaves the previous
checkpoint loadable; see `save_sharded`. Loading verifies the
checksums of exactly the tensors it loads (several shards hashed in
parallel), can load a subset of layers, and assigns nothing until all of it
has been checked.
"""

import concurrent.futures
import contextlib
import hashlib
import json
import os
import re
import uuid

import h5py
import numpy as np

from ..utils.atomic import atomic_write, is_stale_temporary
from ..utils.free_space import check_free_space
from .checksums import write_dataset
from .file_errors import H5_ERRORS, SavedFileError, file_error
from .h5_attributes import parse_json
from .h5_open import check_regular_file, open_h5
from .layer_stores import legacy_slots
from .optimizer_state import plan_optimizer_state
from .saved_arrays import SavedArray, SavedEntry, file_size_of
from .weight_matching import assign, plan_by_name, plan_topological

FORMAT = "hikeras.sharded_weights"
POINTER = "checkpoint"
_INDEX_SUFFIXES = (".weights.json", ".json")
_SIZE_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "KIB": 2**10, "MIB": 2**20,
               "GIB": 2**30}
_SHARD_NAME = re.compile(r"^[^/\\]+\.data-\d{5}-of-\d{5}$")
_OWNED_SHARD = re.compile(r"^[0-9a-f]{12}\.data-\d{5}-of-\d{5}$")  # after the owner prefix
_HASH_BLOCK = 2**24
_MAX_INDEX_BYTES = 256 * 2**20


def parse_size(size):
    """Bytes from an int or a string such as `"500MB"`, `"2GiB"`."""
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool) and size > 0:
        return int(size)
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]?I?B)\s*", str(size).upper())
    if not match or float(match.group(1)) <= 0:
        raise ValueError("max_shard_size must be a positive number of bytes or a string like "
                         f"'500MB' or '2GiB'. Received: max_shard_size={size!r}")
    return int(float(match.group(1)) * _SIZE_UNITS[match.group(2)])


def _stem(index_path):
    for suffix in _INDEX_SUFFIXES:
        if index_path.endswith(suffix):
            return index_path[:-len(suffix)]
    raise ValueError("A sharded checkpoint's index must end in '.weights.json'. "
                     f"Received: filepath={index_path!r}")


def _sha256(dataset):
    digest = hashlib.sha256()
    flat = dataset.shape and int(np.prod(dataset.shape[1:], dtype=np.int64)) or 1
    rows = max(1, _HASH_BLOCK // max(1, flat * dataset.dtype.itemsize))
    if not dataset.shape:
        digest.update(np.ascontiguousarray(dataset[()]).tobytes())
        return digest.hexdigest()
    for start in range(0, dataset.shape[0], rows):
        digest.update(np.ascontiguousarray(dataset[start:start + rows]).data)
    return digest.hexdigest()


def _hash_array(value):
    return hashlib.sha256(np.ascontiguousarray(value).data).hexdigest()


def save_sharded(model, index_path, max_shard_size):
    """Writes fresh shards, commits them by replacing the index, then tidies up.

    Crash safety: shards get names no earlier save used (`<stem>.<token>.data-…`,
    where `<stem>` is the index's full name less `.json`, so `m.json` and
    `m.weights.json` never share a shard), each written atomically and fsynced.
    The atomic replacement of the index is the commit point: until it, the
    previous index and its shards are untouched; after it, the new ones are
    complete. Only then is the pointer updated and are the shards this
    checkpoint owns (named with its stem) and no longer uses deleted; a shard
    another index refers to (a copied index) is never touched. A failed save
    removes the shards it wrote and leaves the previous checkpoint as it was.
    """
    limit = parse_size(max_shard_size)
    stem = _stem(index_path)
    tensors, layers = [], []
    for layer in model.layers:
        slots = legacy_slots(layer)
        layers.append({"name": layer.name, "weights": [f"{layer.name}/{slot.path}"
                                                       for slot in slots]})
        tensors.extend((f"{layer.name}/{slot.path}", slot.array()) for slot in slots)
    optimizer = getattr(model, "optimizer", None)
    optimizer_names = []
    if optimizer is not None and optimizer.built:
        optimizer_names = [f"optimizer/{i}/{v.path}" for i, v in enumerate(optimizer.variables)]
        tensors.extend(zip(optimizer_names, (v.value for v in optimizer.variables)))
    check_free_space(index_path, sum(value.nbytes for _, value in tensors), len(tensors))
    shards, current, size = [], [], 0
    for name, value in tensors:
        if current and size + value.nbytes > limit:
            shards.append(current)
            current, size = [], 0
        current.append((name, value))
        size += value.nbytes
    shards.append(current)
    owner = _owner_prefix(index_path)
    token = uuid.uuid4().hex[:12]
    directory = os.path.dirname(os.path.abspath(index_path))
    index = {"format": FORMAT, "version": 1, "layers": layers, "optimizer": optimizer_names,
             "tensors": {}}
    written = []
    try:
        for k, shard in enumerate(shards):
            shard_name = f"{owner}{token}.data-{k:05d}-of-{len(shards):05d}"
            shard_path = os.path.join(directory, shard_name)
            with atomic_write(shard_path) as tmp, h5py.File(tmp, "w") as f:
                for i, (name, value) in enumerate(shard):
                    write_dataset(f, f"t{i}", value)
                    index["tensors"][name] = {
                        "shard": shard_name, "key": f"t{i}", "dtype": value.dtype.str,
                        "shape": list(value.shape), "nbytes": int(value.nbytes),
                        "sha256": _hash_array(value)}
            written.append(shard_path)
        old_shards = _shards_of(index_path)
        with atomic_write(index_path) as tmp, open(tmp, "w") as out:  # the commit point
            json.dump(index, out, indent=1)
    except BaseException:
        for path in written:
            with contextlib.suppress(OSError):
                os.remove(path)
        raise
    pointer = os.path.join(directory, POINTER)
    with atomic_write(pointer) as tmp, open(tmp, "w") as out:
        json.dump({"latest": os.path.basename(index_path)}, out)
    in_use = {t["shard"] for t in index["tensors"].values()}
    legacy = f"{os.path.basename(stem)}.data-"  # before shard names carried a token
    for name in os.listdir(directory):
        owned = _OWNED_SHARD.match(name[len(owner):]) if name.startswith(owner) else None
        stale = name.startswith(f".{owner}") and is_stale_temporary(name)  # a killed save's
        if stale or (name not in in_use and
                     (owned or (name in old_shards and name.startswith(legacy)))):
            with contextlib.suppress(OSError):
                os.remove(os.path.join(directory, name))


def _owner_prefix(index_path):
    """`<index name less .json>.`: the prefix of every shard this checkpoint owns."""
    return os.path.basename(index_path)[:-len(".json")] + "."


def _shards_of(index_path):
    """Shard names an existing (valid) index refers to; empty if there is none."""
    try:
        index = json.loads(_read_text(index_path))
        return {t["shard"] for t in index["tensors"].values() if _SHARD_NAME.match(t["shard"])}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return set()


def is_sharded(filepath):
    """A sharded checkpoint's index, or a directory with a `checkpoint` pointer."""
    if os.path.isdir(filepath):
        return os.path.isfile(os.path.join(filepath, POINTER))
    return filepath.endswith(_INDEX_SUFFIXES)


def _resolve_index(filepath):
    if not os.path.isdir(filepath):
        return filepath
    pointer = os.path.join(filepath, POINTER)
    latest = parse_json(_read_text(pointer), pointer, "a pointer").get("latest")
    if not isinstance(latest, str) or os.path.basename(latest) != latest:
        raise file_error(pointer, f"points to {latest!r}, not a file name in its directory")
    return os.path.join(filepath, latest)


def _read_text(path):
    """A small UTF-8 text file (index or pointer): regular files only, size-limited."""
    check_regular_file(path)
    with open(path, "rb") as f:
        data = f.read(_MAX_INDEX_BYTES + 1)
    if len(data) > _MAX_INDEX_BYTES:
        raise file_error(path, f"is larger than {_MAX_INDEX_BYTES} bytes: not an index")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise file_error(path, "is not UTF-8 text") from None


def _read_index(index_path):
    index = parse_json(_read_text(index_path), index_path, "an index")
    if index.get("format") != FORMAT or not isinstance(index.get("tensors"), dict) or \
            not isinstance(index.get("layers"), list):
        raise file_error(index_path, f"is not a hikeras sharded-checkpoint index "
                                     f"(format {index.get('format')!r})")
    for name, spec in index["tensors"].items():
        ok = (isinstance(spec, dict) and isinstance(spec.get("shard"), str)
              and _SHARD_NAME.match(spec["shard"]) and isinstance(spec.get("key"), str)
              and isinstance(spec.get("sha256"), str) and isinstance(spec.get("shape"), list)
              and all(isinstance(d, int) and d >= 0 for d in spec["shape"]))
        if not ok:
            raise file_error(index_path, f"has an invalid entry for tensor {name!r}")
    return index


def load_sharded(model, filepath, skip_mismatch, by_name, name_map, layer_names):
    """Loads (part of) a sharded checkpoint; see the module docstring."""
    index_path = _resolve_index(filepath)
    index = _read_index(index_path)
    directory = os.path.dirname(index_path)
    entries = []
    for layer in index["layers"]:
        if not isinstance(layer, dict) or not isinstance(layer.get("weights"), list):
            raise file_error(index_path, "has an invalid 'layers' list")
        if layer_names is None or layer.get("name") in layer_names:
            entries.append((layer.get("name"), layer["weights"]))
    files, checksums = {}, {}
    try:
        built = [SavedEntry(name, [_saved(index, t, directory, files, checksums, index_path)
                                   for t in weights]) for name, weights in entries]
        if layer_names is not None or by_name:
            plan, report = plan_by_name(model, built, index_path, skip_mismatch, name_map)
        else:
            plan, report = plan_topological(model, built, index_path, skip_mismatch)
        if layer_names is None and index.get("optimizer"):
            saved = [_saved(index, t, directory, files, checksums, index_path)
                     for t in index["optimizer"]]
            plan_optimizer_state(model, saved, index_path, plan, report)
        _verify(plan, checksums, index_path)
        assign(plan, index_path, report)
    finally:
        for f in files.values():
            f.close()
    return report


def _saved(index, tensor, directory, files, checksums, index_path):
    spec = index["tensors"].get(tensor) if isinstance(tensor, str) else None
    if spec is None:
        raise file_error(index_path, f"lists tensor {tensor!r} but does not describe it")
    shard = spec["shard"]
    if shard not in files:
        path = os.path.join(directory, shard)
        try:
            files[shard] = open_h5(path)
        except FileNotFoundError:
            raise file_error(path, "is missing: the checkpoint is incomplete") from None
    f = files[shard]
    try:
        dataset = f.get(spec["key"])
        array = SavedArray.from_dataset(dataset, tensor, f.filename, file_size_of(f))
    except SavedFileError:
        raise
    except H5_ERRORS as e:  # h5py's words for corrupt metadata (a looping link, ...)
        raise file_error(f.filename, f"is corrupt ({type(e).__name__}: {e})") from None
    if list(array.shape) != spec["shape"]:
        raise file_error(f.filename, f"holds tensor {tensor!r} with shape {array.shape}, "
                                     f"but the index says {tuple(spec['shape'])}")
    checksums[id(array)] = spec["sha256"]
    return array


def _verify(plan, checksums, index_path):
    """Checks the SHA-256 of every planned tensor, hashing shards in parallel."""
    def check(saved):
        try:
            if _sha256(saved._dataset) != checksums[id(saved)]:
                return saved.name
        except H5_ERRORS:  # data that cannot even be read does not match either
            return saved.name
        return None

    with concurrent.futures.ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        unique = list({id(saved): saved for _, saved in plan}.values())
        bad = [name for name in pool.map(check, unique) if name]
    if bad:
        raise file_error(index_path, f"has tensors whose data does not match their checksum "
                                     f"(corrupt or partly overwritten shards): {bad[:5]}")

