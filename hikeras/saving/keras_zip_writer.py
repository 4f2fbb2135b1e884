"""Writing Keras 3's `.keras` files (`model.save("m.keras")`), which Keras 3 loads.

The archive holds, uncompressed and in Keras's order, `metadata.json`
(`keras_version`, `date_saved`), `config.json` (the model's config with its
`compile_config`) and `model.weights.h5` (Keras 3's weights layout, with the
optimizer's variables under `optimizer/vars`, see `keras3_weights`), then the
files that layers defining Keras's `save_assets(dir_path)` write, under
`assets/<layer path>/` (no built-in layer has any: lookup vocabularies
travel in the config).

The config is the Keras 2 dialect hikeras writes everywhere, with two Keras 3
touches that its `.keras` loader needs: functional nodes in Keras 3's form
(`models.functional_config.keras3_nodes`: nested models number their calls from 0)
and `module` hints on the compiled optimizer, losses and metrics.
"""

import datetime
import json
import os
import shutil
import zipfile

import h5py

from ..models.functional_config import keras3_nodes
from ..utils.atomic import atomic_write
from ..utils.free_space import check_free_space, model_arrays
from ..version import __version__
from .config_checksums import keras_zip_metadata
from .keras3_weights import layer_paths, write_keras3_weights
from .model_config import model_to_config, standalone_build_config
from .random_state import write_random_state
from .temp_dirs import make_temp_dir
from .training_config import keras3_compile_config

_KERAS3_VERSION = "3.15.1"  # the Keras 3 release whose `.keras` loader these files are checked with


def _model_config(model, include_optimizer=True):
    """`config.json`'s content: the model's config, plus `compile_config` if compiled."""
    with keras3_nodes():
        config = model_to_config(model)
    config.update(standalone_build_config(model))
    compile_config = keras3_compile_config(model) if include_optimizer else None
    if compile_config is not None:
        config["compile_config"] = compile_config
    return config


def _metadata():
    return {"keras_version": _KERAS3_VERSION,
            "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S"),
            "hikeras_version": __version__}


def save_keras_zip(model, filepath, include_optimizer=True):
    """Writes `model` to the `.keras` archive `filepath`, atomically.

    The weights go to a temporary HDF5 file first (h5py needs a seekable
    file), then are streamed into the archive.
    """
    config = json.dumps(_model_config(model, include_optimizer))
    array_bytes, count = model_arrays(model, include_optimizer)
    check_free_space(filepath, array_bytes, count, len(config))
    directory = make_temp_dir("keras")
    try:
        check_free_space(directory, array_bytes, count)
        weights = os.path.join(directory, "model.weights.h5")
        with h5py.File(weights, "w") as f:
            write_keras3_weights(f, model, include_optimizer=include_optimizer)
            write_random_state(f, model)
        assets = _save_assets(model, os.path.join(directory, "assets"))
        with atomic_write(filepath) as tmp, zipfile.ZipFile(tmp, "w") as archive:
            archive.writestr("metadata.json",
                             json.dumps({**_metadata(), **keras_zip_metadata(config)}))
            archive.writestr("config.json", config)
            archive.write(weights, "model.weights.h5")
            for path, name in assets:
                archive.write(path, name)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _save_assets(model, directory):
    """`[(file, archive name)]`: what each layer's `save_assets(dir_path)` writes.

    A layer writes files (not folders) into an empty directory of its own;
    they go to `assets/<layer path>/<name>`, where `load_assets` finds them.
    """
    out = []
    for i, (path, layer) in enumerate(layer_paths(model)):
        save = getattr(layer, "save_assets", None)
        if not callable(save):
            continue
        folder = os.path.join(directory, str(i))
        os.makedirs(folder)
        save(folder)
        for name in sorted(os.listdir(folder)):
            if not os.path.isfile(os.path.join(folder, name)) or "\\" in name:
                raise ValueError(f"Layer '{layer.name}' ({type(layer).__name__}).save_assets "
                                 f"may only write plain files into its directory. Received: "
                                 f"{name!r}")
            out.append((os.path.join(folder, name),
                        f"assets/{path}/{name}" if path else f"assets/{name}"))
    return out
