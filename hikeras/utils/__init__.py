"""Utilities users call as `hikeras.utils.*`."""

from .batch_utils import pack_x_y_sample_weight, unpack_x_y_sample_weight
from .dataset_utils import split_dataset
from .file_utils import get_file
from .image_dataset_utils import image_dataset_from_directory
from .numerical_utils import normalize, to_categorical
from .plot import model_to_dot, plot_history, plot_model
from .profiler import Profiler, ProfileReport, profile
from .rng import set_random_seed
from .sequence import PyDataset, Sequence
from .sequence_utils import pad_sequences
from .text_dataset_utils import text_dataset_from_directory
from .timeseries_dataset_utils import timeseries_dataset_from_array

__all__ = [
    "ProfileReport", "Profiler", "PyDataset", "Sequence", "get_file",
    "image_dataset_from_directory", "model_to_dot", "normalize", "pack_x_y_sample_weight",
    "pad_sequences",
    "plot_history", "plot_model", "profile", "set_random_seed", "split_dataset",
    "text_dataset_from_directory", "timeseries_dataset_from_array", "to_categorical",
    "unpack_x_y_sample_weight",
]
