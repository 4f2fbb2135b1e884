"""Metrics, by Keras's names.

A metric is either a function `fn(y_true, y_pred) -> per-sample values` or a
stateful `Metric` object accumulating over an epoch. `get` resolves what was
given to `compile(metrics=[...])`: a snake_case name or alias gives the
function (`"mae"` -> `mean_absolute_error`, `"accuracy"` -> the exact-match
`accuracy`), which the trainer wraps in a `MeanMetricWrapper`; a class name
gives an instance (`"CategoricalAccuracy"` -> `CategoricalAccuracy()`). The
trainer itself decides what `"accuracy"`/`"acc"` mean for a given loss.

>>> get("mae").__name__
'mean_absolute_error'
>>> get("SparseCategoricalAccuracy").name
'sparse_categorical_accuracy'
"""

from ..losses.probabilistic import (
    binary_crossentropy,
    categorical_crossentropy,
    sparse_categorical_crossentropy,
)
from ..saving.serialization import deserialize_keras_object, resolve, serialize_keras_object
from .accuracy_metrics import (
    Accuracy,
    BinaryAccuracy,
    CategoricalAccuracy,
    SparseCategoricalAccuracy,
    SparseTopKCategoricalAccuracy,
    TopKCategoricalAccuracy,
    accuracy,
    binary_accuracy,
    categorical_accuracy,
    sparse_categorical_accuracy,
    sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy,
)
from .metric import Metric
from .reduction_metrics import Mean, MeanMetricWrapper, Sum
from .regression_metrics import (
    MAE,
    MSE,
    MeanAbsoluteError,
    MeanSquaredError,
    mae,
    mean_absolute_error,
    mean_squared_error,
    mse,
)

METRIC_CLASSES = (
    Metric, Mean, Sum, MeanMetricWrapper, Accuracy, BinaryAccuracy, CategoricalAccuracy,
    SparseCategoricalAccuracy, TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy,
    MeanSquaredError, MeanAbsoluteError,
)
METRIC_FUNCTIONS = (
    accuracy, binary_accuracy, categorical_accuracy, sparse_categorical_accuracy,
    top_k_categorical_accuracy, sparse_top_k_categorical_accuracy, mean_squared_error,
    mean_absolute_error, binary_crossentropy, categorical_crossentropy,
    sparse_categorical_crossentropy,
)

ALL_OBJECTS_DICT = {cls.__name__: cls for cls in METRIC_CLASSES}
ALL_OBJECTS_DICT.update({fn.__name__: fn for fn in METRIC_FUNCTIONS})
ALL_OBJECTS_DICT.update({"mse": mse, "MSE": MSE, "mae": mae, "MAE": MAE})


def serialize(metric):
    """A JSON-able description: a name for functions, a class/config dict for metrics."""
    return serialize_keras_object(metric)


def deserialize(config, custom_objects=None):
    """Rebuilds a metric function or `Metric` object from `serialize`'s output."""
    return deserialize_keras_object(config, ALL_OBJECTS_DICT, custom_objects, "metric")


def get(identifier):
    """Resolves a metric identifier: None, a name, a config dict, a class or a callable.

    Raises:
        ValueError: for an unknown name (the message lists the valid ones).
    """
    return resolve(identifier, ALL_OBJECTS_DICT, "metric")


__all__ = [
    "Accuracy", "BinaryAccuracy", "CategoricalAccuracy", "MAE", "MSE", "Mean",
    "MeanAbsoluteError", "MeanMetricWrapper", "MeanSquaredError", "Metric",
    "SparseCategoricalAccuracy", "SparseTopKCategoricalAccuracy", "Sum",
    "TopKCategoricalAccuracy", "accuracy", "binary_accuracy", "binary_crossentropy",
    "categorical_accuracy", "categorical_crossentropy", "deserialize", "get", "mae",
    "mean_absolute_error", "mean_squared_error", "mse", "serialize",
    "sparse_categorical_accuracy", "sparse_categorical_crossentropy",
    "sparse_top_k_categorical_accuracy", "top_k_categorical_accuracy",
]
