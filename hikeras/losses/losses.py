"""Every built-in loss in one namespace, at Keras's `losses/losses.py` path.

The definitions live in one module per family (`regression.py`,
`probabilistic.py`, `focal.py`, `hinge_losses.py`, `distribution.py`, `overlap.py`,
`generalized_crossentropy.py`, `ctc.py`); this module
gathers them so code written against Keras's layout (`from
...losses.losses import mean_squared_error`) finds them, and so the package
`__init__` has one place to import from.
"""

from .ctc import CTC, ctc
from .distribution import KLDivergence, Poisson, kl_divergence, poisson
from .focal import (
    BinaryFocalCrossentropy,
    CategoricalFocalCrossentropy,
    binary_focal_crossentropy,
    categorical_focal_crossentropy,
)
from .generalized_crossentropy import (
    CategoricalGeneralizedCrossEntropy,
    categorical_generalized_cross_entropy,
)
from .hinge_losses import CategoricalHinge, Hinge, SquaredHinge, categorical_hinge, hinge, squared_hinge
from .loss import Loss, LossFunctionWrapper
from .overlap import Dice, Tversky, dice, tversky
from .probabilistic import (
    BinaryCrossentropy,
    CategoricalCrossentropy,
    SparseCategoricalCrossentropy,
    binary_crossentropy,
    categorical_crossentropy,
    sparse_categorical_crossentropy,
)
from .regression import (
    CosineSimilarity,
    Huber,
    LogCosh,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MeanSquaredLogarithmicError,
    cosine_similarity,
    huber,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
)

# Short names Keras accepts for the same functions.
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
bce = BCE = binary_crossentropy
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh

LOSS_CLASSES = (
    Loss, LossFunctionWrapper, MeanSquaredError, MeanAbsoluteError,
    MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity, Huber, LogCosh,
    Hinge, SquaredHinge, CategoricalHinge, KLDivergence, Poisson, BinaryCrossentropy,
    BinaryFocalCrossentropy, CategoricalCrossentropy, CategoricalFocalCrossentropy,
    SparseCategoricalCrossentropy, Dice, Tversky, CategoricalGeneralizedCrossEntropy, CTC,
)
LOSS_FUNCTIONS = (
    mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
    mean_squared_logarithmic_error, cosine_similarity, huber, log_cosh, hinge, squared_hinge,
    categorical_hinge, kl_divergence, poisson, binary_crossentropy, binary_focal_crossentropy,
    categorical_crossentropy, categorical_focal_crossentropy, sparse_categorical_crossentropy,
    dice, tversky, categorical_generalized_cross_entropy, ctc,
)
ALIASES = {
    "mse": mse, "MSE": MSE, "mae": mae, "MAE": MAE, "mape": mape, "MAPE": MAPE, "msle": msle,
    "MSLE": MSLE, "bce": bce, "BCE": BCE, "kld": kld, "KLD": KLD,
    "kullback_leibler_divergence": kl_divergence, "logcosh": log_cosh,
}
