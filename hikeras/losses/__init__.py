"""Loss functions and classes, by Keras's names.

A loss is either a function `fn(y_true, y_pred) -> per-sample values` or a
`Loss` object that also weights and reduces them to one number. `get` turns
whatever was given to `compile(loss=...)` into one of these: a snake_case name
or alias gives the function (`"mse"` -> `mean_squared_error`), a class name
gives an instance (`"MeanSquaredError"` -> `MeanSquaredError()`), as in Keras 3.

>>> get("mse").__name__
'mean_squared_error'
>>> get("CategoricalCrossentropy").get_config()["from_logits"]
False
"""

from ..serialization import deserialize_keras_object, resolve, serialize_keras_object
from .circle import Circle, circle
from .loss import (
    ALL_OBJECTS_DICT,
    Loss,
    LossFunctionWrapper,
    reduce_weighted_values,
    standardize_reduction,
)
from .losses import (
    ALIASES,
    BCE,
    CTC,
    KLD,
    LOSS_CLASSES,
    LOSS_FUNCTIONS,
    MAE,
    MAPE,
    MSE,
    MSLE,
    BinaryCrossentropy,
    BinaryFocalCrossentropy,
    CategoricalCrossentropy,
    CategoricalFocalCrossentropy,
    CategoricalGeneralizedCrossEntropy,
    CategoricalHinge,
    CosineSimilarity,
    Dice,
    Hinge,
    Huber,
    KLDivergence,
    LogCosh,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    Poisson,
    SparseCategoricalCrossentropy,
    SquaredHinge,
    Tversky,
    bce,
    binary_crossentropy,
    binary_focal_crossentropy,
    categorical_crossentropy,
    categorical_focal_crossentropy,
    categorical_generalized_cross_entropy,
    categorical_hinge,
    cosine_similarity,
    ctc,
    dice,
    hinge,
    huber,
    kl_divergence,
    kld,
    kullback_leibler_divergence,
    log_cosh,
    logcosh,
    mae,
    mape,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
    mse,
    msle,
    poisson,
    sparse_categorical_crossentropy,
    squared_hinge,
    tversky,
)

ALL_OBJECTS_DICT.update({cls.__name__: cls for cls in LOSS_CLASSES})
ALL_OBJECTS_DICT.update({"Circle": Circle, "circle": circle})
ALL_OBJECTS_DICT.update({fn.__name__: fn for fn in LOSS_FUNCTIONS})
ALL_OBJECTS_DICT.update(ALIASES)


def serialize(loss):
    """A JSON-able description: a name for functions, a class/config dict for objects."""
    return serialize_keras_object(loss)


def deserialize(config, custom_objects=None):
    """Rebuilds a loss function or `Loss` object from `serialize`'s output."""
    return deserialize_keras_object(config, ALL_OBJECTS_DICT, custom_objects, "loss")


def get(identifier):
    """Resolves a loss identifier: None, a name, a config dict, a class or a callable.

    Raises:
        ValueError: for an unknown name (the message lists the valid ones).
    """
    return resolve(identifier, ALL_OBJECTS_DICT, "loss")


__all__ = [
    "BCE", "BinaryCrossentropy", "BinaryFocalCrossentropy", "CategoricalCrossentropy",
    "CategoricalFocalCrossentropy", "CategoricalGeneralizedCrossEntropy", "CategoricalHinge",
    "CTC", "Circle", "CosineSimilarity", "Dice", "Hinge", "Huber",
    "KLD", "KLDivergence", "LogCosh", "Loss", "LossFunctionWrapper", "MAE", "MAPE", "MSE",
    "MSLE", "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredError",
    "MeanSquaredLogarithmicError", "Poisson", "SparseCategoricalCrossentropy", "SquaredHinge",
    "Tversky", "bce", "binary_crossentropy", "binary_focal_crossentropy",
    "categorical_crossentropy", "categorical_focal_crossentropy",
    "categorical_generalized_cross_entropy", "categorical_hinge", "circle", "cosine_similarity", "ctc",
    "deserialize", "dice",
    "get", "hinge", "huber", "kl_divergence", "kld", "kullback_leibler_divergence", "log_cosh",
    "logcosh", "mae", "mape", "mean_absolute_error", "mean_absolute_percentage_error",
    "mean_squared_error", "mean_squared_logarithmic_error", "mse", "msle", "poisson",
    "reduce_weighted_values", "serialize", "sparse_categorical_crossentropy", "squared_hinge",
    "standardize_reduction", "tversky",
]
