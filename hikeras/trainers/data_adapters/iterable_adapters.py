"""Adapters for Python generators/iterators and for `hikeras.data.Dataset`."""

from ...data import INFINITE_CARDINALITY, Dataset
from .data_adapter import DataAdapter


class GeneratorDataAdapter(DataAdapter):
    """A Python generator or iterator of batches: `x`, `(x, y)` or `(x, y, sample_weight)`.

    A generator can be consumed only once, so every pass continues the
    same iterator; the caller must say how many steps to take.
    """

    reiterable = False

    def __init__(self, iterator):
        self.iterator = iterator

    def iter_pass(self):
        return self.iterator


class DatasetAdapter(DataAdapter):
    """A `hikeras.data.Dataset` whose elements are batches."""

    def __init__(self, dataset):
        if not isinstance(dataset, Dataset):
            raise TypeError(f"Expected a hikeras.data.Dataset. Received: {dataset!r}")
        self.dataset = dataset
        count = dataset.cardinality()
        self.infinite = count == INFINITE_CARDINALITY
        self.num_batches = count if count >= 0 else None

    def iter_pass(self):
        return iter(self.dataset)
