"""Muon: momentum SGD with orthogonalised steps for matrices, AdamW for the rest."""

import re

import numpy as np

from ..ops import updates
from .optimizer import Optimizer


def _is_number(value):
    return not isinstance(value, bool) and isinstance(value, (int, float, np.number))


class Muon(Optimizer):
    """Muon (Jordan et al., 2024), with Keras 3's update rules and choice of rule.

    A variable is updated by the Muon step when it is exactly 2-D, its path
    does not contain "embedding" (with `exclude_embeddings`, case-insensitive)
    and no pattern of `exclude_layers` matches its path (`re.search`); every
    other variable (biases, scales, convolution kernels, embeddings, excluded
    layers) gets the AdamW step. As Keras advises, pass the name of the output
    layer in `exclude_layers`.

    The Muon step, per matrix `w` with gradient `g`:

    ```
    m = momentum * m + g
    d = g + momentum * m            (or d = m without nesterov)
    d = newton_schulz(d, ns_steps)  (about the orthogonal factor U V^T of d)
    w -= learning_rate * d * sqrt(max(rows, cols)) * rms_rate
    ```

    The AdamW step is Adam's with `adam_beta_1`, `adam_beta_2`, `epsilon` and
    a learning rate of `learning_rate * adam_lr_ratio`. Before either step,
    weights decay by `w -= w * decay * learning_rate`, with `weight_decay`
    for Muon variables and `adam_weight_decay` for AdamW ones (None skips it).

    Slots, per variable in order: a `momentum`, then a `velocity` for AdamW
    variables only: Keras 3's `variables`, so saved states move both ways.

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        adam_beta_1: AdamW's first-moment decay. Defaults to `0.9`.
        adam_beta_2: AdamW's second-moment decay. Defaults to `0.999`.
        adam_weight_decay: weight decay of the AdamW variables. Defaults to `0.004`.
        epsilon: AdamW's denominator constant. Defaults to `1e-7`.
        weight_decay: weight decay of the Muon variables. Defaults to `0.004`.
        exclude_layers: regular expressions; variables whose path matches one
            use AdamW. Defaults to None (none).
        exclude_embeddings: whether variables with "embedding" in their path
            use AdamW. Defaults to `True`.
        muon_a, muon_b, muon_c: the Newton-Schulz polynomial's coefficients.
            Default to `3.4445`, `-4.7750`, `2.0315`.
        adam_lr_ratio: AdamW's learning rate over `learning_rate`. Defaults to `1`.
        momentum: the Muon momentum. Defaults to `0.95`.
        ns_steps: Newton-Schulz iterations, an integer >= 0. Defaults to `5`.
        nesterov: whether the Muon step uses Nesterov momentum. Defaults to `True`.
        rms_rate: scales each Muon step by `sqrt(max(rows, cols)) * rms_rate`
            (Liu et al., 2025), so Muon can share AdamW's learning rate and
            decay; None leaves the step unscaled. Defaults to `0.2`.
        **kwargs: `clipnorm`, `clipvalue`, `global_clipnorm`, `use_ema`,
            `ema_momentum`, `ema_overwrite_frequency`, `loss_scale_factor`,
            `gradient_accumulation_steps`, `name` (see `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.zeros((2, 2)), path="dense/kernel")
    >>> b = Variable(np.zeros(2), path="dense/bias")
    >>> opt = Muon(learning_rate=0.1, weight_decay=None, rms_rate=None)
    >>> opt.apply([np.eye(2), np.ones(2)], [w, b])
    >>> np.round(w.value, 3).tolist()  # an orthogonal step: five Newton-Schulz steps give 1.108 I
    [[-0.111, 0.0], [0.0, -0.111]]
    >>> [v.name for v in opt.variables][2:]
    ['dense_kernel_momentum', 'dense_bias_momentum', 'dense_bias_velocity']
    """

    def __init__(self, learning_rate=0.001, adam_beta_1=0.9, adam_beta_2=0.999,
                 adam_weight_decay=0.004, epsilon=1e-7, weight_decay=0.004, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, exclude_layers=None,
                 exclude_embeddings=True, muon_a=3.4445, muon_b=-4.7750, muon_c=2.0315,
                 adam_lr_ratio=1, momentum=0.95, ns_steps=5, nesterov=True, rms_rate=0.2,
                 **kwargs):
        super().__init__(
            learning_rate=learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
            clipvalue=clipvalue, global_clipnorm=global_clipnorm, use_ema=use_ema,
            ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
            loss_scale_factor=loss_scale_factor,
            gradient_accumulation_steps=gradient_accumulation_steps, name=name or "muon",
            **kwargs)
        self._check_args(ns_steps, exclude_layers, rms_rate,
                         momentum=momentum, adam_lr_ratio=adam_lr_ratio, muon_a=muon_a,
                         muon_b=muon_b, muon_c=muon_c, adam_beta_1=adam_beta_1,
                         adam_beta_2=adam_beta_2, epsilon=epsilon)
        self.adam_beta_1 = adam_beta_1
        self.adam_beta_2 = adam_beta_2
        self.epsilon = epsilon
        self.muon_a = muon_a
        self.muon_b = muon_b
        self.muon_c = muon_c
        self.adam_lr_ratio = adam_lr_ratio
        self.momentum = momentum
        self.ns_steps = ns_steps
        self.nesterov = bool(nesterov)
        self.exclude_embeddings = bool(exclude_embeddings)
        self.exclude_layers = list(exclude_layers or [])
        self.adam_weight_decay = adam_weight_decay
        self.rms_rate = rms_rate

    @staticmethod
    def _check_args(ns_steps, exclude_layers, rms_rate, **numbers):
        if isinstance(ns_steps, bool) or not isinstance(ns_steps, (int, np.integer)) \
                or ns_steps < 0:
            raise ValueError("Muon needs `ns_steps`, an integer >= 0. "
                             f"Received: ns_steps={ns_steps!r}")
        if isinstance(exclude_layers, str) or not all(
                isinstance(p, str) for p in exclude_layers or []):
            raise ValueError("Muon needs `exclude_layers` as a list of regular expressions. "
                             f"Received: exclude_layers={exclude_layers!r}")
        if rms_rate is not None:
            numbers["rms_rate"] = rms_rate
        for key, value in numbers.items():
            if not _is_number(value):
                raise ValueError(f"Muon needs `{key}` as a number. Received: {key}={value!r}")

    def _should_use_adamw(self, variable):
        """Keras's choice: AdamW unless the variable is a 2-D, non-excluded matrix."""
        if variable.value.ndim != 2:
            return True
        path = variable.path or variable.name
        if self.exclude_embeddings and "embedding" in path.lower():
            return True
        return any(re.search(pattern, path) for pattern in self.exclude_layers)

    def build(self, var_list):
        """Creates a `momentum` slot per variable and a `velocity` for AdamW ones."""
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = [], []
        for variable in self._trainable_variables:
            self._momentums.append(self.add_variable_from_reference(variable, "momentum"))
            self._velocities.append(self.add_variable_from_reference(variable, "velocity")
                                    if self._should_use_adamw(variable) else None)

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        m = self._momentums[index].value
        velocity = self._velocities[index]
        if velocity is not None:
            updates.adam_update(
                variable.value, gradient, m, velocity.value,
                learning_rate=learning_rate * self.adam_lr_ratio, step=self._local_step(),
                beta_1=self.adam_beta_1, beta_2=self.adam_beta_2, epsilon=self.epsilon)
        else:
            updates.muon_update(
                variable.value, gradient, m, learning_rate=learning_rate,
                momentum=self.momentum, nesterov=self.nesterov, ns_steps=self.ns_steps,
                muon_a=self.muon_a, muon_b=self.muon_b, muon_c=self.muon_c,
                rms_rate=self.rms_rate)

    def _apply_weight_decay(self, variables, learning_rate):
        """Decays Muon variables by `weight_decay`, AdamW ones by `adam_weight_decay`."""
        for variable in variables:
            if not self._use_weight_decay(variable):
                continue
            decay = (self.adam_weight_decay if self._should_use_adamw(variable)
                     else self.weight_decay)
            if decay is not None:
                updates.weight_decay_update(variable.value, learning_rate=learning_rate,
                                            weight_decay=decay)

    def get_config(self):
        return {
            **super().get_config(), "adam_beta_1": self.adam_beta_1,
            "adam_beta_2": self.adam_beta_2, "epsilon": self.epsilon,
            "exclude_layers": list(self.exclude_layers), "muon_a": self.muon_a,
            "muon_b": self.muon_b, "muon_c": self.muon_c, "adam_lr_ratio": self.adam_lr_ratio,
            "momentum": self.momentum, "ns_steps": self.ns_steps, "nesterov": self.nesterov,
            "exclude_embeddings": self.exclude_embeddings,
            "adam_weight_decay": self.adam_weight_decay, "rms_rate": self.rms_rate,
        }
