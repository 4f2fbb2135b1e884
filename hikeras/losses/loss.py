"""The `Loss` base class, sample weighting and reduction.

A loss object turns `(y_true, y_pred)` into one number the optimizer
minimises, in three steps that Keras 3 fixes and we copy exactly:

1. `call(y_true, y_pred)` gives per-sample values (usually one per sample,
   or one per timestep/pixel);
2. `sample_weight`, if given, multiplies them (see `align_sample_weight`);
3. the reduction sums them (`"sum"`), or sums and divides by the *number of
   values*, zero-weighted ones included (`"sum_over_batch_size"`, the
   default), or leaves them alone (`"none"`).

Everything here runs under a `GradientTape`, so predictions are only ever
touched through `hikeras.ops`; labels and weights are plain numpy.
"""

import math
import re

import numpy as np

from .. import ops
from ..backend import Tensor
from ..serialization import resolve, serialize_keras_object
from ..utils.dtype_utils import standardize_dtype

# The built-in losses by name ("mse", "Huber", ...), the table behind `hikeras.losses.get`.
# `hikeras.losses` fills it once every module defining a loss has loaded (they all import
# this one); `LossFunctionWrapper.from_config` resolves a saved function name through it.
ALL_OBJECTS_DICT = {}

# Keras 3's names, plus Keras 2's "auto" which meant "sum_over_batch_size".
_REDUCTIONS = ("sum_over_batch_size", "sum", "none", "mean", "mean_with_sample_weight")
_REDUCTION_ALIASES = {None: "none", "auto": "sum_over_batch_size"}


def standardize_reduction(reduction):
    """Validates `reduction`, mapping `None` to `"none"` and `"auto"` to the default."""
    reduction = _REDUCTION_ALIASES.get(reduction, reduction)
    if reduction not in _REDUCTIONS:
        raise ValueError(
            f"Invalid value for argument `reduction`. Expected one of {list(_REDUCTIONS)} "
            f"(or None, or Keras 2's 'auto'). Received: reduction={reduction!r}"
        )
    return reduction


def to_snake_case(name):
    """`"MeanSquaredError"` -> `"mean_squared_error"`."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def as_tensor_or_array(x, dtype=None):
    """`x` as a numpy array, or unchanged if it is already a hikeras `Tensor`.

    Tensors are cast through `ops.cast` (differentiable); arrays with numpy.
    """
    if isinstance(x, Tensor):
        if dtype is not None and x.dtype != np.dtype(dtype):
            return ops.cast(x, dtype)
        return x
    x = np.asarray(x)
    if dtype is not None and x.dtype != np.dtype(dtype):
        x = x.astype(dtype)
    return x


class Loss:
    """Base class of losses: `call` computes, `__call__` weights and reduces.

    Args:
        name: name of the loss instance; defaults to the class name in
            snake_case.
        reduction: `"sum_over_batch_size"` (default: sum of the weighted
            values divided by how many values there are), `"sum"`, `"none"` /
            `None` (return the weighted values), `"mean"` (same as the default)
            or `"mean_with_sample_weight"` (divide by the sum of the weights,
            broadcast to the values).
            Keras 2's `"auto"` is accepted and means the default.
        dtype: float dtype predictions are cast to; `None` means `floatx()`.

    Subclasses implement `call(y_true, y_pred)` returning per-sample values.

    >>> import numpy as np
    >>> class AbsoluteError(Loss):
    ...     def call(self, y_true, y_pred):
    ...         return ops.mean(ops.abs(y_pred - y_true), axis=-1)
    >>> loss = AbsoluteError()
    >>> float(loss(np.array([[0.0], [1.0]]), np.array([[1.0], [3.0]])))
    1.5
    >>> loss.get_config()
    {'name': 'absolute_error', 'reduction': 'sum_over_batch_size'}
    """

    _cast_labels = True  # False for losses taking integer class indices

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or to_snake_case(type(self).__name__)
        self.reduction = standardize_reduction(reduction)
        self._dtype = standardize_dtype(dtype)

    @property
    def dtype(self):
        """Name of the dtype the loss computes in."""
        return self._dtype

    def __call__(self, y_true, y_pred, sample_weight=None):
        """The weighted, reduced loss of a batch.

        Args:
            y_true: labels (numpy array, list or tensor).
            y_pred: predictions; a `Tensor` under a tape.
            sample_weight: optional weights, e.g. shape `(batch,)` for one
                weight per sample, or the shape of the per-sample values.

        Returns:
            A scalar (or the per-sample values for reduction `"none"`).
        """
        y_pred = as_tensor_or_array(y_pred, self._dtype)
        # Like Keras, labels compute in the loss dtype (int labels times float32
        # predictions would otherwise promote to float64); sparse losses opt out.
        y_true = as_tensor_or_array(y_true, self._dtype if self._cast_labels else None)
        values = self.call(y_true, y_pred)
        mask = self._loss_mask(y_true, y_pred)
        return reduce_weighted_values(values, sample_weight, mask, self.reduction)

    def call(self, y_true, y_pred):
        """Per-sample loss values; implemented by subclasses."""
        raise NotImplementedError(
            f"Loss subclass {type(self).__name__} must implement `call(y_true, y_pred)`."
        )

    def _loss_mask(self, y_true, y_pred):
        """Boolean numpy mask of the values that count, or None (all count)."""
        return None

    def get_config(self):
        """The constructor arguments, as a JSON-able dict."""
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        """Rebuilds a loss from the output of `get_config`."""
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name} reduction={self.reduction}>"


class LossFunctionWrapper(Loss):
    """A `Loss` around a plain function `fn(y_true, y_pred, **fn_kwargs)`.

    Before calling `fn`, labels and predictions whose ranks differ by one
    with a trailing 1 are brought to the same rank (`(N,)` labels against
    `(N, 1)` predictions), as Keras does.

    Args:
        fn: the per-sample loss function.
        name: defaults to `fn`'s name.
        reduction: see `Loss`.
        dtype: see `Loss`.
        **fn_kwargs: passed on to `fn` on every call (and saved in the config).

    >>> import numpy as np
    >>> def squared(y_true, y_pred):
    ...     return ops.mean(ops.square(y_pred - y_true), axis=-1)
    >>> loss = LossFunctionWrapper(squared, reduction="sum")
    >>> float(loss(np.array([1.0, 2.0]), np.array([[2.0], [4.0]])))
    5.0
    """

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None,
                 **fn_kwargs):
        if not callable(fn):
            raise TypeError(f"`fn` must be callable. Received: fn={fn!r}")
        super().__init__(name=name or getattr(fn, "__name__", None), reduction=reduction,
                         dtype=dtype)
        self.fn = fn
        self._fn_kwargs = fn_kwargs

    def call(self, y_true, y_pred):
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = super().get_config()
        config["fn"] = serialize_keras_object(self.fn)
        config.update(self._fn_kwargs)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if "fn" in config:
            config["fn"] = resolve(config["fn"], ALL_OBJECTS_DICT, "loss")
        return cls(**config)

    def __repr__(self):
        return f"<LossFunctionWrapper({getattr(self.fn, '__name__', self.fn)}, " \
               f"kwargs={self._fn_kwargs})>"


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """Keras's rank fix-up: when ranks differ by one and the longer ends in 1.

    The rank-1 side is expanded (`(N,)` vs `(N, 1)` becomes `(N, 1)` and
    `(N, 1)`), otherwise the trailing 1 is squeezed. Other shapes pass through.
    """
    r1, r2 = len(x1.shape), len(x2.shape)
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = ops.expand_dims(x2, axis=-1)
        else:
            x1 = ops.squeeze(x1, axis=-1)
    elif r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = ops.expand_dims(x1, axis=-1)
        else:
            x2 = ops.squeeze(x2, axis=-1)
    return x1, x2


def align_sample_weight(sample_weight, values_shape):
    """Reshapes numpy `sample_weight` so it broadcasts against `values_shape`.

    Weights never change the shape of the values: extra trailing axes of
    size 1 are squeezed (`(N, 1)` against `(N,)`), and weights of lower rank
    get trailing axes, so `(N,)` weights scale every value of a sample
    (`(N, T)` per-timestep losses, `(N, H, W)` per-pixel losses).
    """
    sample_weight = np.asarray(sample_weight)
    shape = tuple(values_shape)
    while sample_weight.ndim > len(shape) and sample_weight.shape[-1] == 1:
        sample_weight = sample_weight.reshape(sample_weight.shape[:-1])
    if 0 < sample_weight.ndim < len(shape):
        sample_weight = sample_weight.reshape(
            sample_weight.shape + (1,) * (len(shape) - sample_weight.ndim))
    try:
        ok = np.broadcast_shapes(sample_weight.shape, shape) == shape
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            "`sample_weight` must broadcast against the per-sample loss values: give one "
            "weight per sample, shape (batch_size,), or one per value. "
            f"Received: sample_weight.shape={np.shape(sample_weight)}, "
            f"loss values shape={shape}"
        )
    return sample_weight


def reduce_weighted_values(values, sample_weight=None, mask=None,
                           reduction="sum_over_batch_size"):
    """Applies `sample_weight` and a boolean `mask` to `values`, then reduces.

    A mask (e.g. from `ignore_class`) drops values and, under the mean
    reductions, divides by the number of values kept instead of all values,
    as Keras does.
    """
    reduction = standardize_reduction(reduction)
    shape = tuple(values.shape)
    dtype = values.dtype
    weight = None
    if sample_weight is not None:
        if isinstance(sample_weight, Tensor):
            sample_weight = sample_weight.value
        sample_weight = np.asarray(sample_weight, dtype=dtype)
        if shape == () and sample_weight.ndim:
            # One value for the whole batch (Dice with axis=None): like Keras, it is
            # repeated once per weight, so the default mean scales it by mean(w).
            shape = tuple(sample_weight.shape)
            values = values * np.ones(shape, dtype=dtype)
        weight = align_sample_weight(sample_weight, shape)
    if mask is not None:
        mask = align_sample_weight(np.asarray(mask, dtype=dtype), shape)
        if reduction in ("sum_over_batch_size", "mean"):
            mask = mask * _divide_no_nan(float(math.prod(shape)), float(mask.sum()))
        weight = mask if weight is None else weight * mask
    if weight is not None:
        values = values * weight.astype(dtype, copy=False)
    if reduction == "none" or shape == ():
        return values
    total = ops.sum(values)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and weight is not None:
        divisor = float(np.broadcast_to(weight, shape).sum())
    else:
        divisor = float(math.prod(shape))
    if divisor == 0.0:
        return total * 0.0  # no values (or all weights zero): 0 with a zero gradient
    return total / np.asarray(divisor, dtype=dtype)


def _divide_no_nan(a, b):
    return a / b if b else 0.0
