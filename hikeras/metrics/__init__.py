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

from ..losses.distribution import kl_divergence, poisson
from ..losses.focal import binary_focal_crossentropy, categorical_focal_crossentropy
from ..losses.hinge_losses import categorical_hinge, hinge, squared_hinge
from ..losses.loss import to_snake_case
from ..losses.probabilistic import (
    binary_crossentropy,
    categorical_crossentropy,
    sparse_categorical_crossentropy,
)
from ..losses.regression import huber, log_cosh
from ..serialization import deserialize_keras_object, resolve, serialize_keras_object
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
from .auc import AUC
from .confusion_metrics import (
    FalseNegatives,
    FalsePositives,
    Precision,
    Recall,
    TrueNegatives,
    TruePositives,
)
from .correlation_metrics import (
    ConcordanceCorrelation,
    PearsonCorrelation,
    concordance_correlation,
    pearson_correlation,
)
from .f_score_metrics import F1Score, FBetaScore
from .iou_metrics import IoU, BinaryIoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from .metric import ALL_OBJECTS_DICT, Metric
from .probabilistic_metrics import (
    BinaryCrossentropy,
    CategoricalCrossentropy,
    CategoricalHinge,
    Hinge,
    KLDivergence,
    Poisson,
    SparseCategoricalCrossentropy,
    SquaredHinge,
)
from .reduction_metrics import Mean, MeanMetricWrapper, Sum
from .regression_metrics import (
    MAE,
    MAPE,
    MSE,
    MSLE,
    CosineSimilarity,
    LogCoshError,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    R2Score,
    RootMeanSquaredError,
    cosine_similarity,
    logcosh,
    mae,
    mape,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
    mse,
    msle,
)
from .sensitivity_specificity_metrics import (
    PrecisionAtRecall,
    RecallAtPrecision,
    SensitivityAtSpecificity,
    SpecificityAtSensitivity,
)

kld = KLD = kl_divergence

METRIC_CLASSES = (
    Metric, Mean, Sum, MeanMetricWrapper, Accuracy, BinaryAccuracy, CategoricalAccuracy,
    SparseCategoricalAccuracy, TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy,
    MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError, RootMeanSquaredError, CosineSimilarity, LogCoshError,
    R2Score, TruePositives, FalsePositives, TrueNegatives, FalseNegatives, Precision, Recall,
    SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision,
    AUC, PearsonCorrelation, ConcordanceCorrelation, F1Score, FBetaScore, IoU, BinaryIoU,
    MeanIoU, OneHotIoU, OneHotMeanIoU,
    BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy, KLDivergence,
    Poisson, Hinge, SquaredHinge, CategoricalHinge,
)
METRIC_FUNCTIONS = (
    accuracy, binary_accuracy, categorical_accuracy, sparse_categorical_accuracy,
    top_k_categorical_accuracy, sparse_top_k_categorical_accuracy, mean_squared_error,
    mean_absolute_error, mean_absolute_percentage_error, mean_squared_logarithmic_error,
    cosine_similarity, log_cosh, binary_crossentropy, binary_focal_crossentropy,
    categorical_crossentropy, categorical_focal_crossentropy, sparse_categorical_crossentropy,
    hinge, squared_hinge, categorical_hinge, huber, kl_divergence, poisson,
    pearson_correlation, concordance_correlation,
)

# Class names, then snake_case class names ("precision", "auc", "f1_score"), then
# functions (which win where both exist: the trainer wraps them in a Mean, which for
# "pearson_correlation" and the like computes what the class would).
ALL_OBJECTS_DICT.update({cls.__name__: cls for cls in METRIC_CLASSES})
ALL_OBJECTS_DICT.update({to_snake_case(cls.__name__): cls for cls in METRIC_CLASSES[4:]})
ALL_OBJECTS_DICT.update({fn.__name__: fn for fn in METRIC_FUNCTIONS})
ALL_OBJECTS_DICT.update({
    "mse": mse, "MSE": MSE, "mae": mae, "MAE": MAE, "mape": mape, "MAPE": MAPE, "msle": msle,
    "MSLE": MSLE, "kld": kld, "KLD": KLD, "logcosh": log_cosh, "mean_iou": MeanIoU,
    "auc": AUC, "iou": IoU, "rmse": RootMeanSquaredError,
})


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
    "AUC", "Accuracy", "BinaryAccuracy", "BinaryCrossentropy", "BinaryIoU",
    "CategoricalAccuracy", "CategoricalCrossentropy", "CategoricalHinge",
    "ConcordanceCorrelation", "CosineSimilarity", "F1Score", "FBetaScore", "FalseNegatives",
    "FalsePositives", "Hinge", "IoU", "KLD", "KLDivergence", "LogCoshError", "MAE", "MAPE",
    "MSE", "MSLE", "Mean", "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanIoU",
    "MeanMetricWrapper", "MeanSquaredError", "MeanSquaredLogarithmicError", "Metric",
    "OneHotIoU", "OneHotMeanIoU", "PearsonCorrelation", "Poisson", "Precision",
    "PrecisionAtRecall", "R2Score", "Recall", "RecallAtPrecision", "RootMeanSquaredError",
    "SensitivityAtSpecificity", "SparseCategoricalAccuracy", "SparseCategoricalCrossentropy",
    "SparseTopKCategoricalAccuracy", "SpecificityAtSensitivity", "SquaredHinge", "Sum",
    "TopKCategoricalAccuracy", "TrueNegatives", "TruePositives", "accuracy", "binary_accuracy",
    "binary_crossentropy", "binary_focal_crossentropy", "categorical_accuracy",
    "categorical_crossentropy", "categorical_focal_crossentropy", "categorical_hinge",
    "concordance_correlation", "cosine_similarity", "deserialize", "get", "hinge", "huber",
    "kl_divergence", "kld", "log_cosh", "logcosh", "mae", "mape", "mean_absolute_error",
    "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error",
    "mse", "msle", "pearson_correlation", "poisson", "serialize",
    "sparse_categorical_accuracy", "sparse_categorical_crossentropy",
    "sparse_top_k_categorical_accuracy", "squared_hinge", "top_k_categorical_accuracy",
]
