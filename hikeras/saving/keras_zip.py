"""Loading Keras 3's `.keras` files: a zip of `config.json`, `metadata.json` and
`model.weights.h5` (Keras 3's weights layout, see `keras3_weights`). Writing
them is `keras_zip_writer`'s job.

The zip is inspected before anything is extracted: members must have sane
declared sizes, and the weights are copied to a temporary file no larger
than declared (a zip bomb stops there). Nothing in the archive is executed.

Weights load through each layer's `load_own_variables` (see `keras3_weights`).
Keras keeps some state out of the weights, as files under
`assets/<layer path>/` (an adapted lookup layer's `vocabulary.txt`): a layer
that defines Keras's `load_assets(dir_path)` then gets a temporary directory
holding its files, after its weights are loaded.
"""

import contextlib
import lzma
import os
import shutil
import zipfile
import zlib

from ..utils.free_space import check_free_space
from .config_checksums import check_keras_zip_config
from .file_errors import file_error
from .h5_attributes import parse_json
from .h5_open import open_h5
from .keras3_weights import layer_paths
from .model_config import deserialize_model
from .random_state import read_random_state
from .temp_dirs import make_temp_dir
from .training_config import compile_from_config

_MAX_CONFIG_BYTES = 64 * 2**20
_WEIGHTS = "model.weights.h5"
_MAX_WEIGHTS_BYTES = 1 << 40
# Saved weights are mostly random-looking floats; even all-zero layers stay under
# this ratio once a model is large enough to matter.
_MAX_COMPRESSION_RATIO = 200
_RATIO_CHECKED_ABOVE = 64 * 2**20
# What reading a damaged archive raises: bad headers, an unknown compression
# method (NotImplementedError), an "encrypted" flag (RuntimeError), bad
# compressed data (zlib/lzma errors; bz2's are OSErrors).
_ZIP_ERRORS = (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError,
               RuntimeError, zlib.error, lzma.LZMAError)


def is_keras_zip(filepath):
    """Whether `filepath` is a zip archive (by content, not suffix)."""
    return os.path.isfile(filepath) and zipfile.is_zipfile(filepath)


def _open_zip(filepath):
    try:
        return zipfile.ZipFile(filepath, "r")
    except _ZIP_ERRORS as e:
        raise file_error(filepath, f"is not a readable .keras (zip) file ({e})") from None


def _read_member(archive, name, source, limit):
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise file_error(source, f"has no '{name}' inside the archive") from None
    data = _read_bytes(archive, info, source, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise file_error(source, f"has a '{name}' that is not UTF-8 text") from None


def _read_bytes(archive, info, source, limit):
    name = info.filename
    if info.file_size > limit:
        raise file_error(source, f"declares a '{name}' of {info.file_size} bytes "
                                 f"(more than {limit})")
    try:
        with archive.open(info) as member:
            data = member.read(limit + 1)
    except _ZIP_ERRORS as e:
        raise file_error(source, f"has a corrupt '{name}' ({e})") from None
    if len(data) > limit:
        raise file_error(source, f"has a '{name}' larger than {limit} bytes")
    return data


def read_keras_zip_json(filepath, name):
    """A JSON member of the archive (`config.json`, `metadata.json`), checked and parsed."""
    source = str(filepath)
    with _open_zip(filepath) as archive:
        text = _read_member(archive, name, source, _MAX_CONFIG_BYTES)
    return parse_json(text, source, f"a {name}")


@contextlib.contextmanager
def open_keras_zip_weights(filepath):
    """Yields the archive's `model.weights.h5`, extracted to a temporary file, open."""
    source = str(filepath)
    with _open_zip(filepath) as archive:
        try:
            info = archive.getinfo(_WEIGHTS)
        except KeyError:
            raise file_error(source, f"has no '{_WEIGHTS}' inside the archive") from None
        _check_weights_member(info, source)
        directory = make_temp_dir("keras")
        try:
            check_free_space(directory, info.file_size, 0)
            path = os.path.join(directory, _WEIGHTS)
            try:
                with archive.open(info) as member, open(path, "wb") as out:
                    shutil.copyfileobj(member, out, length=2**22)
            except _ZIP_ERRORS as e:
                raise file_error(source, f"has a corrupt '{_WEIGHTS}' ({e})") from None
            with open_h5(path, f"{source}: {_WEIGHTS}") as h5file:
                yield h5file
        finally:
            shutil.rmtree(directory, ignore_errors=True)


def _check_weights_member(info, source):
    """Refuses a weights member whose declared size or compression ratio is absurd,
    before a byte is extracted (a zip bomb stops here)."""
    if info.file_size > _MAX_WEIGHTS_BYTES:
        raise file_error(source, f"declares a '{_WEIGHTS}' of {info.file_size} bytes (more "
                                 f"than the limit of {_MAX_WEIGHTS_BYTES})")
    ratio = info.file_size / max(1, info.compress_size)
    if info.file_size > _RATIO_CHECKED_ABOVE and ratio > _MAX_COMPRESSION_RATIO:
        raise file_error(source, f"has a '{_WEIGHTS}' that expands {ratio:.0f}-fold "
                                 f"({info.compress_size} to {info.file_size} bytes), more than "
                                 f"{_MAX_COMPRESSION_RATIO}-fold: a zip bomb, not weights")


def load_keras_zip(filepath, load_from_h5, custom_objects=None, compile=True):
    """A model from a `.keras` file: config, weights, and (if `compile`) its compile config.

    `load_from_h5(model, h5file, source, skip_mismatch, by_name, name_map)` loads the
    archive's weights file: `saving_api.load_from_h5`, passed in by `load_model`
    (`saving_api` imports this module, which therefore cannot import it).
    """
    source = str(filepath)
    with _open_zip(filepath) as archive:
        text = _read_member(archive, "config.json", source, _MAX_CONFIG_BYTES)
        names = set(archive.namelist())
        metadata = (_read_member(archive, "metadata.json", source, _MAX_CONFIG_BYTES)
                    if "metadata.json" in names else None)
        weights = next((i for i in archive.infolist() if i.filename == _WEIGHTS), None)
    if metadata is not None:
        check_keras_zip_config(parse_json(metadata, source, "a metadata.json"), text, source)
    config = parse_json(text, source, "a config.json")
    model = deserialize_model(config, custom_objects, source,
                              stored_bytes=weights.file_size if weights else 0,
                              standalone_layers=True)
    compile_config = config.get("compile_config")
    if compile and isinstance(compile_config, dict) and compile_config.get("optimizer"):
        compile_from_config(model, compile_config, custom_objects, source)
    with open_keras_zip_weights(filepath) as h5file:
        load_from_h5(model, h5file, source, skip_mismatch=False, by_name=False, name_map=None)
        read_random_state(h5file, model, source)
    with _open_zip(filepath) as archive:
        _load_assets(archive, model, source)
    return model


def _load_assets(archive, model, source):
    """Gives each layer that defines `load_assets(dir_path)` the files the archive
    keeps for it, `assets/<layer path>/<name>`, in a temporary directory."""
    by_folder = {}
    for info in archive.infolist():
        if info.filename.startswith("assets/") and not info.is_dir():
            folder, _, name = info.filename[len("assets/"):].rpartition("/")
            by_folder.setdefault(folder, []).append((name, info))
    if not by_folder:
        return
    for path, layer in layer_paths(model):
        files = by_folder.get(path)
        if not files or not callable(getattr(layer, "load_assets", None)):
            continue
        directory = make_temp_dir("assets")
        try:
            for name, info in files:
                if name in ("", ".", "..") or "\\" in name:
                    raise file_error(source, f"has an asset with an unusable name "
                                             f"{info.filename!r}")
                with open(os.path.join(directory, name), "wb") as out:
                    out.write(_read_bytes(archive, info, source, _MAX_CONFIG_BYTES))
            try:
                layer.load_assets(directory)
            except (ValueError, TypeError, OSError) as e:
                raise file_error(source, f"has assets for layer '{layer.name}' that do not "
                                         f"fit it ({type(e).__name__}: {e})") from None
        finally:
            shutil.rmtree(directory, ignore_errors=True)
