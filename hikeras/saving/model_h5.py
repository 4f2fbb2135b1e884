"""Whole models in Keras's legacy HDF5 layout (`model.save("m.h5")`, `load_model`).

Root attributes `keras_version`, `backend`, `model_config` (JSON, Keras 2
dialect) and, for compiled models, `training_config`; the weights in
`model_weights` (see `legacy_h5`); the optimizer's variables in
`optimizer_weights`, so training resumes exactly where it stopped.
"""

import json
import os
import warnings

import h5py

from ..utils.atomic import atomic_write
from ..utils.free_space import check_free_space, model_arrays
from ..version import __version__
from .config_checksums import check, stamp
from .file_errors import SavedFileError, file_error
from .h5_attributes import parse_json, read_string
from .h5_open import open_h5
from .legacy_h5 import (
    BACKEND,
    KERAS_VERSION,
    read_optimizer_group,
    read_weights_group,
    write_optimizer_group,
    write_weights_group,
)
from .model_config import deserialize_model, model_to_config
from .optimizer_state import plan_optimizer
from .random_state import read_random_state, write_random_state
from .training_config import compile_from_config, training_config
from .weight_matching import assign, plan_topological


def save_model_h5(model, filepath, include_optimizer=True):
    """Writes `model` to `filepath` atomically."""
    config = json.dumps(model_to_config(model))
    train = training_config(model) if include_optimizer else None
    train = None if train is None else json.dumps(train)
    optimizer = getattr(model, "optimizer", None)
    check_free_space(filepath, *model_arrays(model, include_optimizer), extra_bytes=len(config))
    with atomic_write(filepath) as tmp, h5py.File(tmp, "w") as f:
        f.attrs["keras_version"] = KERAS_VERSION
        f.attrs["backend"] = BACKEND
        f.attrs["hikeras_version"] = __version__
        f.attrs["model_config"] = config
        stamp(f.attrs, "model_config", config)
        if train is not None:
            f.attrs["training_config"] = train
            stamp(f.attrs, "training_config", train)
        write_weights_group(f.create_group("model_weights"), model)
        write_random_state(f, model)
        if train is not None and optimizer is not None and optimizer.built:
            write_optimizer_group(f, optimizer)


def load_model_h5(filepath, custom_objects=None, compile=True):
    """Rebuilds, loads and (if `compile`) compiles a model saved by `save_model_h5`."""
    source = str(filepath)
    with open_h5(filepath) as f:
        try:
            return _load(f, source, custom_objects, compile, os.path.getsize(filepath))
        except SavedFileError:
            raise
        except (KeyError, TypeError, ValueError, OSError, RuntimeError, AttributeError) as e:
            # h5py reports corrupt metadata in many ways; all of them mean a bad file.
            raise file_error(source, f"is corrupt ({type(e).__name__}: {e})") from None


def _load(f, source, custom_objects, compile, file_bytes):
    text = read_string(f.attrs, "model_config", source)
    if text is None:
        raise file_error(source, "has no 'model_config' attribute: it holds weights only; "
                                 "build the model and call `load_weights` instead")
    check(f.attrs, "model_config", text, source)
    model = deserialize_model(parse_json(text, source, "a model_config"), custom_objects,
                              source, stored_bytes=file_bytes)
    group = f.get("model_weights")
    if not isinstance(group, h5py.Group):
        raise file_error(source, "has no 'model_weights' group")
    plan, _ = plan_topological(model, read_weights_group(group, source), source)
    optimizer_plan = []
    train_text = read_string(f.attrs, "training_config", source) if compile else None
    if train_text is not None:
        check(f.attrs, "training_config", train_text, source)
        compile_from_config(model, parse_json(train_text, source, "a training_config"),
                            custom_objects, source)
        saved = read_optimizer_group(f, source)
        if saved:
            model.optimizer.build(model.trainable_weights)
            try:
                optimizer_plan = plan_optimizer(model.optimizer, saved, source)
            except SavedFileError as e:
                warnings.warn(f"{e} The optimizer starts from a fresh state.", stacklevel=3)
    assign(plan + optimizer_plan, source)
    read_random_state(f, model, source)
    return model
