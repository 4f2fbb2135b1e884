"""Generalized cross entropy (Zhang & Sabuncu, 2018), a loss robust to noisy labels.

With `p` the predicted probability of the true class, the loss is
`(1 - p ** q) / q`. As `q -> 0` it tends to the crossentropy `-log(p)`; at
`q = 1` it is `1 - p`, the mean absolute error against a one-hot label, which
gives mislabelled examples bounded influence. Labels are integer class
indices, as for `sparse_categorical_crossentropy`.
"""

import numpy as np

from .. import ops
from ..backend import Tensor
from .loss import Loss, LossFunctionWrapper, as_tensor_or_array


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """Per-sample generalized cross entropy `(1 - p ** q) / q`.

    Args:
        y_true: integer class indices, shape `(batch_size,)` or
            `(batch_size, 1)`.
        y_pred: class probabilities, shape `(batch_size, num_classes)`.
        q: the noise parameter in `(0, 1)`: near 0 behaves like crossentropy,
            near 1 like mean absolute error.

    Returns:
        Values of shape `(batch_size,)`. A label outside `[0, num_classes)`
        selects no class (`p = 0`), so its loss is `1 / q`, as in Keras.

    >>> import numpy as np
    >>> y_pred = np.array([[0.75, 0.25], [0.36, 0.64]])
    >>> np.round(categorical_generalized_cross_entropy(np.array([0, 1]), y_pred, 0.5), 4).tolist()
    [0.2679, 0.4]
    """
    y_pred = as_tensor_or_array(y_pred)
    labels = np.asarray(y_true.value if isinstance(y_true, Tensor) else y_true)
    # Keras one-hot encodes `(batch_size, 1)` labels to `(batch_size, 1, classes)`,
    # which then broadcasts against every sample; dropping the axis is what it means.
    if labels.ndim == len(y_pred.shape) and labels.ndim > 1 and labels.shape[-1] == 1:
        labels = labels.reshape(labels.shape[:-1])
    one_hot = ops.one_hot(labels.astype("int64"), y_pred.shape[-1], dtype=y_pred.dtype)
    p = ops.sum(ops.multiply(y_pred, one_hot), axis=-1)  # ops: traced for a watched array
    return (1.0 - ops.power(p, q)) / q


class CategoricalGeneralizedCrossEntropy(LossFunctionWrapper):
    """Generalized cross entropy for integer labels: `(1 - p ** q) / q`.

    Args:
        q: the noise parameter, in the open interval `(0, 1)`. Defaults to
            `0.5`.
        reduction: see `Loss`.
        name: defaults to `"categorical_generalized_cross_entropy"`.
        dtype: see `Loss`.

    Raises:
        ValueError: if `q` is not in `(0, 1)`.

    >>> import numpy as np
    >>> loss = CategoricalGeneralizedCrossEntropy(q=0.5)
    >>> round(float(loss(np.array([0, 1]), np.array([[0.75, 0.25], [0.36, 0.64]]))), 4)
    0.334
    """

    def __init__(self, q=0.5, reduction="sum_over_batch_size",
                 name="categorical_generalized_cross_entropy", dtype=None):
        if isinstance(q, bool) or not isinstance(q, (int, float, np.number)) or not 0 < q < 1:
            raise ValueError(
                "CategoricalGeneralizedCrossEntropy needs `q` in the open interval (0, 1). "
                f"Received: q={q!r}"
            )
        super().__init__(categorical_generalized_cross_entropy, name=name,
                         reduction=reduction, dtype=dtype, q=q)
        self.q = q

    def get_config(self):
        return {**Loss.get_config(self), "q": self.q}
