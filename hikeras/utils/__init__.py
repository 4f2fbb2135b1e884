"""Utilities users call as `hikeras.utils.*`."""

from .. import backend as _backend
from .. import config as _config
from ..serialization import (
    CustomObjectScope,
    custom_object_scope,
    deserialize_keras_object,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
    serialize_keras_object,
)
from . import bounding_boxes
from .batch_utils import pack_x_y_sample_weight, unpack_x_y_sample_weight
from .config import Config
from .dataset_utils import split_dataset
from .file_utils import get_file
from .image_dataset_utils import image_dataset_from_directory
from .image_utils import array_to_img, img_to_array, load_img, save_img
from .numerical_utils import normalize, to_categorical
from .plot import model_to_dot, plot_history, plot_model
from .profiler import Profiler, ProfileReport, profile
from .progbar import Progbar
from .rng import set_random_seed
from .sequence import PyDataset, Sequence
from .sequence_utils import pad_sequences
from .source_inputs import get_source_inputs
from .text_dataset_utils import text_dataset_from_directory
from .timeseries_dataset_utils import timeseries_dataset_from_array

clear_session = _backend.clear_session
is_keras_tensor = _backend.is_keras_tensor
standardize_dtype = _backend.standardize_dtype
enable_interactive_logging = _config.enable_interactive_logging
disable_interactive_logging = _config.disable_interactive_logging
is_interactive_logging_enabled = _config.is_interactive_logging_enabled

__all__ = [
    "Config",
    "CustomObjectScope",
    "ProfileReport",
    "Profiler",
    "Progbar",
    "PyDataset",
    "Sequence",
    "array_to_img",
    "bounding_boxes",
    "clear_session",
    "custom_object_scope",
    "deserialize_keras_object",
    "disable_interactive_logging",
    "enable_interactive_logging",
    "get_custom_objects",
    "get_file",
    "get_registered_name",
    "get_registered_object",
    "get_source_inputs",
    "image_dataset_from_directory",
    "img_to_array",
    "is_interactive_logging_enabled",
    "is_keras_tensor",
    "load_img",
    "model_to_dot",
    "normalize",
    "pack_x_y_sample_weight",
    "pad_sequences",
    "plot_history",
    "plot_model",
    "profile",
    "register_keras_serializable",
    "save_img",
    "serialize_keras_object",
    "set_random_seed",
    "split_dataset",
    "standardize_dtype",
    "text_dataset_from_directory",
    "timeseries_dataset_from_array",
    "to_categorical",
    "unpack_x_y_sample_weight",
]
