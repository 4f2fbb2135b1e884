"""Keeping metric states and layers' moving statistics global and identical on every rank.

Metric states are sums (totals, counts, confusion-matrix cells), so the
state of the whole global batch stream is the sum of the ranks' states.
`StepState` is taken before a step: it puts the (global, identical) metric
states aside and zeroes them, so that the step accumulates exactly this
rank's increments; `reduce` then sums the increments over the ranks and
adds them back. Every rank thus holds the global states after every step,
and `metric.result()`, the logs, early-stopping decisions and backups agree.

Layers' moving statistics (batch normalisation's moving mean and variance)
change in the forward pass from each rank's own shard. `reduce` replaces each
rank's change by the average of the ranks' changes, weighted by their share
of the batch, so those weights stay identical too; weights that did not
change (a frozen layer's, adapted preprocessing statistics) stay bit-exact.
"""

import numpy as np


def metric_variables(model):
    """The state variables of the model's loss tracker and compiled metrics."""
    return [v for metric in model.metrics for v in metric.variables]


def moving_state_variables(model):
    """Float non-trainable variables of trainable layers: what a training forward pass updates."""
    seen, found = set(), []
    for layer in [model, *model._flatten_layers()]:
        if not layer.trainable:
            continue
        for variable in layer._non_trainable_variables:
            if id(variable) not in seen and np.issubdtype(variable.value.dtype, np.floating):
                seen.add(id(variable))
                found.append(variable)
    return found


class StepState:
    """The global states put aside before one step; `reduce` makes them global again after it.

    Args:
        model: the model about to run a step.
    """

    def __init__(self, model):
        self._model = model
        self._metric_totals = {}
        for variable in metric_variables(model):
            self._metric_totals[id(variable)] = variable.value.copy()
            variable.value[...] = 0
        self._moving = moving_state_variables(model)
        self._moving_before = [v.value.copy() for v in self._moving]

    def reduce(self, collectives, shard):
        """Sums the metric increments and averages the moving-statistics changes over the ranks.

        Args:
            collectives: the strategy's `Collectives`.
            shard: this rank's `Shard`; a phantom shard contributes nothing.
        """
        metric_vars = metric_variables(self._model)  # the first step may have created some
        increments = [np.zeros_like(v.value) if shard.phantom else v.value for v in metric_vars]
        changes = [(v.value - before) * shard.weight if not shard.phantom else
                   np.zeros_like(before) for v, before in zip(self._moving, self._moving_before)]
        reduced = collectives.allreduce_sum(increments + changes, "state")
        for variable, total in zip(metric_vars, reduced):
            before = self._metric_totals.get(id(variable))
            variable.value[...] = total if before is None else before + total
        for variable, before, change in zip(self._moving, self._moving_before,
                                            reduced[len(metric_vars):]):
            variable.value[...] = before + change
