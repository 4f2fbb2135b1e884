"""Every built-in loss in one namespace, at Keras's `losses/losses.py` path.

The definitions live in one module per family (`regression.py`,
`probabilistic.py`, ...); this module gathers them so code written against
Keras's layout (`from ...losses.losses import mean_squared_error`) finds
them, and so the package `__init__` has one place to import from.
"""

from .loss import Loss, LossFunctionWrapper
from .probabilistic import (
    BinaryCrossentropy,
    CategoricalCrossentropy,
    SparseCategoricalCrossentropy,
    binary_crossentropy,
    categorical_crossentropy,
    sparse_categorical_crossentropy,
)
from .regression import (
    MeanAbsoluteError,
    MeanSquaredError,
    mean_absolute_error,
    mean_squared_error,
)

# Short names Keras accepts for the same functions.
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
bce = BCE = binary_crossentropy

LOSS_CLASSES = (
    Loss, LossFunctionWrapper, MeanSquaredError, MeanAbsoluteError, BinaryCrossentropy,
    CategoricalCrossentropy, SparseCategoricalCrossentropy,
)
LOSS_FUNCTIONS = (
    mean_squared_error, mean_absolute_error, binary_crossentropy, categorical_crossentropy,
    sparse_categorical_crossentropy,
)
ALIASES = {"mse": mse, "MSE": MSE, "mae": mae, "MAE": MAE, "bce": bce, "BCE": BCE}
