"""Keras's `keras.preprocessing` names: dataset builders and the `image`/`sequence` helpers.

Everything here is also in `hikeras.utils`; the namespace exists so that
scripts written against `keras.preprocessing` run unchanged.
"""

from ..utils import (
    image_dataset_from_directory,
    text_dataset_from_directory,
    timeseries_dataset_from_array,
)
from . import image, sequence

__all__ = ["image", "image_dataset_from_directory", "sequence", "text_dataset_from_directory",
           "timeseries_dataset_from_array"]
