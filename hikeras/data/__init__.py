"""`hikeras.data`: the `Dataset` input pipeline (a small `tf.data`)."""

from .dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset
from .parallel import AUTOTUNE
from .tfrecord_dataset import TFRecordDataset

__all__ = [
           "AUTOTUNE",
           "INFINITE_CARDINALITY",
           "UNKNOWN_CARDINALITY",
           "Dataset",
           "TFRecordDataset",
]
