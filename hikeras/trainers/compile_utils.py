"""What `compile` turns its `loss`, `loss_weights` and `metrics` into.

`CompileLoss` maps each model output to its loss (given once, as a list in
output order, or as a dict keyed by output name) and sums them with
`loss_weights`. `CompileMetrics` does the same for metrics and resolves
`"accuracy"`/`"acc"` the way Keras 3 does, from the shapes of the first batch,
while logging it under the name the user wrote. `check_gradients` turns a
non-differentiable loss into an error at the first step; `CompiledLoss` and
`CompiledMetrics` are the Keras 2 helpers `train_step` overrides still use.
"""

import warnings

import numpy as np

from .. import losses as losses_module
from .. import metrics as metrics_module
from ..utils import tree
from ..utils.remembered_logits import as_array_keeping_logits


def _per_output(spec, output_names, what):
    """Expands a compile argument to a list aligned with the outputs."""
    n = len(output_names)
    if isinstance(spec, dict):
        unknown = sorted(set(spec) - set(output_names))
        if unknown:
            raise ValueError(
                f"Unknown output names in `{what}`: {unknown}. The model's outputs are "
                f"{output_names}. Received: {what} keys={sorted(spec)}"
            )
        return [spec.get(name) for name in output_names]
    if isinstance(spec, (list, tuple)):
        if len(spec) != n:
            raise ValueError(
                f"`{what}` has {len(spec)} entries but the model has {n} outputs "
                f"{output_names}. Received: {what}={spec}"
            )
        return list(spec)
    return [spec] * n


def flatten_targets(y, output_names, what="y"):
    """Targets (array, list or dict by output name) as a list in output order."""
    if y is None:
        return [None] * len(output_names)
    if isinstance(y, dict):
        missing = [n for n in output_names if n not in y]
        extra = sorted(set(y) - set(output_names))
        if extra:
            raise ValueError(
                f"`{what}` has keys {extra} that are not model outputs {output_names}. "
                f"Received: {what} keys={sorted(y)}"
            )
        return [y.get(n) for n in output_names] if missing else [y[n] for n in output_names]
    flat = tree.flatten(y)
    if len(flat) == len(output_names):
        return flat
    if what == "sample_weight" and len(flat) == 1:
        return flat * len(output_names)  # one weight array applies to every output
    raise ValueError(
        f"The model has {len(output_names)} outputs {output_names} but `{what}` provides "
        f"{len(flat)} arrays. Pass a list in output order or a dict keyed by output name. "
        f"Received: {len(flat)} arrays"
    )


class CompileLoss:
    """The total training loss of a (possibly multi-output) model.

    Losses are resolved on the first batch, when shapes are known: `"crossentropy"`
    (or `"ce"`) picks the binary, sparse or categorical form as `"accuracy"` does,
    a categorical crossentropy on a one-unit output raises (its value is always
    0), and `from_logits=True` on predictions that look like probabilities warns.
    """

    def __init__(self, loss, loss_weights, output_names):
        self.output_names = list(output_names)
        self._raw = _per_output(loss, self.output_names, "loss")
        self.losses = None
        self.names = [_loss_name(l) for l in self._raw]
        weights = _per_output(1.0 if loss_weights is None else loss_weights,
                              self.output_names, "loss_weights")
        self.loss_weights = [1.0 if w is None else float(w) for w in weights]
        if all(l is None for l in self._raw):
            raise ValueError(
                f"No loss to train with: `loss` gives none for outputs {self.output_names}. "
                f"Received: loss={loss!r}"
            )
        # Keras logs each output's own (unweighted) loss as `<output>_loss` when the
        # model has several outputs with a loss.
        with_loss = [name for name, l in zip(self.output_names, self._raw) if l is not None]
        self.trackers = {name: metrics_module.Mean(name=f"{name}_loss")
                         for name in with_loss} if len(self.output_names) > 1 else {}

    def _build(self, ys, preds):
        self.losses = []
        for identifier, yt, yp in zip(self._raw, ys, preds):
            if identifier is None:
                self.losses.append(None)
                continue
            if isinstance(identifier, str) and identifier.lower() in ("crossentropy", "ce"):
                identifier = _crossentropy_variant(yt, yp)
            loss = _as_loss(identifier)
            _check_loss_fits_output(loss, yp)
            self.losses.append(loss)

    def __call__(self, y_true, y_pred, sample_weight=None):
        """Returns `(total, per_output)`; per_output holds each output's loss."""
        ys = flatten_targets(y_true, self.output_names)
        preds = tree.flatten(y_pred)
        weights = flatten_targets(sample_weight, self.output_names, "sample_weight")
        if self.losses is None:
            self._build(ys, preds)
        total, per_output = None, []
        for name, loss, w, yt, yp, sw in zip(self.output_names, self.losses, self.loss_weights,
                                             ys, preds, weights):
            if loss is None:
                per_output.append(None)
                continue
            if yt is None:
                raise ValueError("Training targets `y` are required to compute the loss.")
            value = loss(yt, yp, sample_weight=sw)
            per_output.append(value)
            self._track(name, value, yp)
            term = value if w == 1.0 else value * w
            total = term if total is None else total + term
        return total, per_output

    def _track(self, name, value, y_pred):
        tracker = self.trackers.get(name)
        if tracker is not None:
            tracker.update_state(float(np.asarray(value)), sample_weight=np.shape(y_pred)[0])

    def result(self):
        """`{"<output>_loss": mean so far}` for each output (empty for one output)."""
        return {t.name: float(t.result()) for t in self.trackers.values()}


_CATEGORICAL = ("categorical_crossentropy", "sparse_categorical_crossentropy",
                "categorical_focal_crossentropy")


def _check_loss_fits_output(loss, y_pred):
    """First-batch checks of a loss against the output it is applied to."""
    fn = getattr(loss, "fn", None)
    fn_name = getattr(fn, "__name__", "")
    shape = np.shape(y_pred)
    axis = getattr(loss, "axis", -1)
    if fn_name in _CATEGORICAL and shape and shape[axis] == 1:
        raise ValueError(
            f"Loss '{loss.name}' needs one output unit per class, but the model's output has "
            f"1 unit, so the loss would always be 0 and nothing would train. For a binary "
            "problem use loss='binary_crossentropy' with a sigmoid output (or 2 softmax "
            f"units). Received: y_pred.shape={shape}")
    if getattr(loss, "from_logits", False):
        values = np.asarray(y_pred)
        looks_like_probabilities = values.size and values.min() >= 0.0 and values.max() <= 1.0
        if looks_like_probabilities and fn_name in _CATEGORICAL:
            looks_like_probabilities = np.allclose(values.sum(axis=axis), 1.0, atol=1e-3)
        if looks_like_probabilities:
            warnings.warn(
                f"Loss '{loss.name}' was given from_logits=True, but the predictions look like "
                "probabilities (all in [0, 1]" + (", summing to 1" if fn_name in _CATEGORICAL
                                                  else "") + "), as produced by a softmax or "
                "sigmoid output layer. Either remove that activation (preferred: the fused "
                "logits form is more stable) or use from_logits=False.", stacklevel=5)


def _as_loss(identifier):
    loss = losses_module.get(identifier)
    if isinstance(loss, losses_module.Loss):
        return loss
    name = getattr(loss, "__name__", "loss")
    return losses_module.LossFunctionWrapper(loss, name=name)


def _loss_name(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        return identifier
    return getattr(identifier, "name", None) or getattr(identifier, "__name__", "loss")


class CompileMetrics:
    """Stateful metrics per output, built lazily from the first batch's shapes.

    `metrics` are updated without sample weights and `weighted_metrics` with
    them, as in Keras 3. A weighted metric whose log name collides with an
    unweighted one is logged as `weighted_<name>`.
    """

    def __init__(self, metrics, output_names, loss_names, weighted_metrics=None):
        self.output_names = list(output_names)
        self.loss_names = list(loss_names)
        self._spec = metrics
        self._weighted_spec = weighted_metrics
        self.metrics = None  # list per output of (log_name, Metric, weighted)

    @property
    def built(self):
        return self.metrics is not None

    def _per_output_specs(self, spec, what):
        multi = len(self.output_names) > 1
        if isinstance(spec, dict) or (
                multi and isinstance(spec, (list, tuple)) and spec
                and all(isinstance(m, (list, tuple)) or m is None for m in spec)):
            return _per_output(spec, self.output_names, what)
        return [spec] * len(self.output_names)

    def build(self, y_true, y_pred):
        ys = flatten_targets(y_true, self.output_names)
        preds = tree.flatten(y_pred)
        multi = len(self.output_names) > 1
        plain = self._per_output_specs(self._spec, "metrics")
        weighted = self._per_output_specs(self._weighted_spec, "weighted_metrics")
        self.metrics = []
        for out_name, loss_name, spec, wspec, yt, yp in zip(
                self.output_names, self.loss_names, plain, weighted, ys, preds):
            entries, seen = [], set()
            for is_weighted, group in ((False, spec), (True, wspec)):
                for identifier in _as_list(group):
                    metric = _resolve_metric(identifier, yt, yp, loss_name)
                    name = _metric_name(identifier, metric)
                    if name in seen:
                        name = f"weighted_{name}"
                    seen.add(name)
                    metric.name = name
                    entries.append((f"{out_name}_{name}" if multi else name, metric,
                                    is_weighted))
            self.metrics.append(entries)

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self.metrics is None:
            self.build(y_true, y_pred)
        ys = flatten_targets(y_true, self.output_names)
        preds = tree.flatten(y_pred)
        weights = flatten_targets(sample_weight, self.output_names, "sample_weight")
        for entries, yt, yp, sw in zip(self.metrics, ys, preds, weights):
            yp = as_array_keeping_logits(yp)
            for _, metric, is_weighted in entries:
                metric.update_state(yt, yp, sample_weight=sw if is_weighted else None)

    def reset_state(self):
        for entries in self.metrics or []:
            for _, metric, _ in entries:
                metric.reset_state()

    def result(self):
        return {name: _log_value(metric.result())
                for entries in self.metrics or [] for name, metric, _ in entries}

    @property
    def all_metrics(self):
        return [m for entries in self.metrics or [] for _, m, _ in entries]


def _as_list(spec):
    if spec is None:
        return []
    return list(spec) if isinstance(spec, (list, tuple)) else [spec]


def _log_value(value):
    """A metric result for the logs: a float, or an array for per-class/threshold results."""
    value = np.asarray(value)
    return float(value) if value.size == 1 else value


def _resolve_metric(identifier, y_true, y_pred, loss_name):
    if isinstance(identifier, str) and identifier.lower() in ("accuracy", "acc"):
        identifier = _accuracy_variant(y_true, y_pred, loss_name)
    elif isinstance(identifier, str) and identifier.lower() in ("crossentropy", "ce"):
        identifier = _crossentropy_variant(y_true, y_pred)
    metric = metrics_module.get(identifier)
    if isinstance(metric, metrics_module.Metric):
        return metric
    return metrics_module.MeanMetricWrapper(metric, name=getattr(metric, "__name__", "metric"))


def _rank_and_last(a):
    shape = np.shape(a)
    return len(shape), (shape[-1] if shape else None)


def _is_binary_or_sparse(y_true, y_pred):
    """Keras 3's test, from shapes only: binary if one output unit, sparse if labels lack
    the class axis (or it has size 1 against several units)."""
    t_rank, t_last = _rank_and_last(y_true)
    p_rank, p_last = _rank_and_last(y_pred)
    is_binary = p_last == 1
    is_sparse = t_rank < p_rank or (t_last == 1 and p_last is not None and p_last > 1)
    return is_binary, is_sparse


def _accuracy_variant(y_true, y_pred, loss_name):
    """What `"accuracy"` means for these shapes (Keras 3's rule, see docs/training.md)."""
    is_binary, is_sparse = _is_binary_or_sparse(y_true, y_pred)
    if is_binary:
        return "binary_accuracy"
    if is_sparse:
        return "sparse_categorical_accuracy"
    if loss_name in ("binary_crossentropy", "BinaryCrossentropy", "bce", "BCE"):
        warnings.warn(
            "metrics=['accuracy'] with a binary_crossentropy loss on an output of "
            f"{np.shape(y_pred)[-1]} units resolves to categorical_accuracy (Keras 3's rule "
            "looks at shapes only). For multi-label outputs pass metrics=['binary_accuracy'].",
            stacklevel=4)
    return "categorical_accuracy"


def _crossentropy_variant(y_true, y_pred):
    is_binary, is_sparse = _is_binary_or_sparse(y_true, y_pred)
    if is_binary:
        return "binary_crossentropy"
    return "sparse_categorical_crossentropy" if is_sparse else "categorical_crossentropy"


def _metric_name(identifier, metric):
    if isinstance(identifier, str):
        return identifier
    return getattr(metric, "name", None) or getattr(identifier, "__name__", "metric")


def check_gradients(grads, variables, model_name):
    """Raises when the loss reached none of the trainable weights.

    That happens when the loss is computed through non-differentiable ops
    (`argmax`, `round`, comparisons, integer casts) or outside `hikeras.ops`
    (plain numpy), and would otherwise train nothing, silently.
    """
    if variables and all(g is None for g in grads):
        raise ValueError(
            f"The loss of model '{model_name}' is not differentiable with respect to any of "
            f"its {len(variables)} trainable weights, so training would change nothing. A "
            "custom loss must be written with differentiable `hikeras.ops` on y_pred: ops "
            "such as argmax, round, sign, comparisons or casts to integers (and plain numpy) "
            "cut the gradient. Use such functions as metrics instead. "
            f"Received: trainable weights {[v.path for v in variables[:5]]}"
            f"{' ...' if len(variables) > 5 else ''} all with gradient None"
        )


class CompiledLoss:
    """Keras 2's `model.compiled_loss(y, y_pred, sample_weight, regularization_losses)`.

    For `train_step` overrides written for tf.keras: returns the compiled
    loss plus the given regularisation losses, and (as Keras 2 did) records
    the total in the model's `"loss"` tracker.
    """

    def __init__(self, model):
        self._model = model

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        model = self._model
        model._ensure_compiled_built(y_true, y_pred)
        total = None
        if model._compile_loss is not None:
            total, _ = model._compile_loss(y_true, y_pred, sample_weight)
        for extra in regularization_losses or ():
            total = extra if total is None else total + extra
        if total is None:
            raise ValueError("No loss to compute: pass `loss=` to compile(). Received: "
                             "loss=None and no regularization_losses")
        model._loss_tracker.update_state(float(np.asarray(total)),
                                         sample_weight=np.shape(tree.flatten(y_pred)[0])[0])
        return total


class CompiledMetrics:
    """Keras 2's `model.compiled_metrics`: `update_state(y, y_pred, sample_weight)`."""

    def __init__(self, model):
        self._model = model

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._model._ensure_compiled_built(y_true, y_pred)
        self._model._compile_metrics.update_state(y_true, y_pred, sample_weight)

    def reset_state(self):
        if self._model._compile_metrics is not None:
            self._model._compile_metrics.reset_state()

    def result(self):
        metrics = self._model._compile_metrics
        return metrics.result() if metrics is not None else {}

    @property
    def metrics(self):
        metrics = self._model._compile_metrics
        return metrics.all_metrics if metrics is not None else []


__all__ = ["CompileLoss", "CompileMetrics", "CompiledLoss", "CompiledMetrics", "check_gradients",
           "flatten_targets"]
