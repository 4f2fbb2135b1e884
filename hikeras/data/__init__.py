"""`hikeras.data`: the `Dataset` input pipeline (a small `tf.data`)."""

from .dataset import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset
from .parallel import AUTOTUNE

__all__ = ["AUTOTUNE", "Dataset", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY"]
