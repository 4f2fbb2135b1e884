"""What `compile` turns its `loss`, `loss_weights` and `metrics` into.

`CompileLoss` maps each model output to its loss (given once, as a list in
output order, or as a dict keyed by output name) and sums them with
`loss_weights`. `CompileMetrics` does the same for metrics and resolves
`"accuracy"`/`"acc"` the way Keras does, from the loss and the shapes of the
first batch, while logging it under the name the user wrote.
"""

import numpy as np

from .. import losses as losses_module
from .. import metrics as metrics_module
from ..utils import tree


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
    """The total training loss of a (possibly multi-output) model."""

    def __init__(self, loss, loss_weights, output_names):
        self.output_names = list(output_names)
        raw = _per_output(loss, self.output_names, "loss")
        self.losses = [None if l is None else _as_loss(l) for l in raw]
        self.names = [_loss_name(l) for l in raw]
        weights = _per_output(1.0 if loss_weights is None else loss_weights,
                              self.output_names, "loss_weights")
        self.loss_weights = [1.0 if w is None else float(w) for w in weights]
        if all(l is None for l in self.losses):
            raise ValueError(
                f"No loss to train with: `loss` gives none for outputs {self.output_names}. "
                f"Received: loss={loss!r}"
            )

    def __call__(self, y_true, y_pred, sample_weight=None):
        """Returns `(total, per_output)`; per_output holds each output's loss."""
        ys = flatten_targets(y_true, self.output_names)
        preds = tree.flatten(y_pred)
        weights = flatten_targets(sample_weight, self.output_names, "sample_weight")
        total, per_output = None, []
        for loss, w, yt, yp, sw in zip(self.losses, self.loss_weights, ys, preds, weights):
            if loss is None:
                per_output.append(None)
                continue
            if yt is None:
                raise ValueError("Training targets `y` are required to compute the loss.")
            value = loss(yt, yp, sample_weight=sw)
            per_output.append(value)
            term = value if w == 1.0 else value * w
            total = term if total is None else total + term
        return total, per_output


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
    """Stateful metrics per output, built lazily from the first batch's shapes."""

    def __init__(self, metrics, output_names, loss_names):
        self.output_names = list(output_names)
        self.loss_names = list(loss_names)
        self._spec = metrics
        self.metrics = None  # list per output of (log_name, Metric)

    def build(self, y_true, y_pred):
        ys = flatten_targets(y_true, self.output_names)
        preds = tree.flatten(y_pred)
        multi = len(self.output_names) > 1
        if isinstance(self._spec, dict) or (
                multi and isinstance(self._spec, (list, tuple)) and self._spec
                and all(isinstance(m, (list, tuple)) or m is None for m in self._spec)):
            per_output = _per_output(self._spec, self.output_names, "metrics")
        else:
            per_output = [self._spec] * len(self.output_names)
        self.metrics = []
        for out_name, loss_name, spec, yt, yp in zip(self.output_names, self.loss_names,
                                                     per_output, ys, preds):
            entries = []
            for identifier in ([] if spec is None else
                               spec if isinstance(spec, (list, tuple)) else [spec]):
                metric = _resolve_metric(identifier, yt, yp, loss_name)
                log_name = _metric_name(identifier, metric)
                entries.append((f"{out_name}_{log_name}" if multi else log_name, metric))
            self.metrics.append(entries)

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self.metrics is None:
            self.build(y_true, y_pred)
        ys = flatten_targets(y_true, self.output_names)
        preds = tree.flatten(y_pred)
        weights = flatten_targets(sample_weight, self.output_names, "sample_weight")
        for entries, yt, yp, sw in zip(self.metrics, ys, preds, weights):
            for _, metric in entries:
                metric.update_state(yt, np.asarray(yp), sample_weight=sw)

    def reset_state(self):
        for entries in self.metrics or []:
            for _, metric in entries:
                metric.reset_state()

    def result(self):
        return {name: float(metric.result())
                for entries in self.metrics or [] for name, metric in entries}

    @property
    def all_metrics(self):
        return [m for entries in self.metrics or [] for _, m in entries]


def _resolve_metric(identifier, y_true, y_pred, loss_name):
    if isinstance(identifier, str) and identifier.lower() in ("accuracy", "acc"):
        identifier = _accuracy_variant(y_true, y_pred, loss_name)
    elif isinstance(identifier, str) and identifier.lower() in ("crossentropy", "ce"):
        identifier = _crossentropy_variant(y_true, y_pred, loss_name)
    metric = metrics_module.get(identifier)
    if isinstance(metric, metrics_module.Metric):
        return metric
    return metrics_module.MeanMetricWrapper(metric, name=getattr(metric, "__name__", "metric"))


def _rank_and_last(a):
    shape = np.shape(a)
    return len(shape), (shape[-1] if shape else None)


def _accuracy_variant(y_true, y_pred, loss_name):
    """Keras's rule for what "accuracy" means for this loss and these shapes."""
    t_rank, t_last = _rank_and_last(y_true)
    p_rank, p_last = _rank_and_last(y_pred)
    if loss_name in ("binary_crossentropy", "BinaryCrossentropy") or p_last == 1:
        return "binary_accuracy"
    if t_rank < p_rank or (t_last == 1 and p_last != 1):
        return "sparse_categorical_accuracy"
    return "categorical_accuracy"


def _crossentropy_variant(y_true, y_pred, loss_name):
    accuracy = _accuracy_variant(y_true, y_pred, loss_name)
    return accuracy.replace("accuracy", "crossentropy")


def _metric_name(identifier, metric):
    if isinstance(identifier, str):
        return identifier
    return getattr(metric, "name", None) or getattr(identifier, "__name__", "metric")


__all__ = ["CompileLoss", "CompileMetrics", "flatten_targets"]
