"""Adafactor: Adam-like steps with factored second moments (Shazeer & Stern, 2018)."""

import numpy as np

from ..ops import updates
from .optimizer import Optimizer


def _is_number(value):
    return not isinstance(value, bool) and isinstance(value, (int, float, np.number))


class Adafactor(Optimizer):
    """Adafactor, with Keras 3's update rule.

    Per variable `w` with gradient `g`, at step `t = iterations + 1`:

    ```
    rho = min(learning_rate, 1 / sqrt(t))
    alpha = max(epsilon_2, rms(w)) * rho
    beta = 1 - t**beta_2_decay
    g2 = g**2 + epsilon_1
    # w with 2 or more dimensions: moving averages of g2's row and column means
    r = beta * r + (1 - beta) * mean(g2, axis=-1)
    c = beta * c + (1 - beta) * mean(g2, axis=-2)
    v = (r / mean(r, axis=-1))[..., None] * c[..., None, :]
    # w with fewer dimensions: a plain moving average
    v = beta * v + (1 - beta) * g2
    u = g / sqrt(v)
    w -= alpha * u / max(1, rms(u) / clip_threshold)
    ```

    Factoring the last two axes keeps one row and one column accumulator in
    place of a full second-moment matrix, so a `(n, m)` kernel's statistics
    cost `n + m` numbers. The step size is relative: it scales with the
    variable's own root-mean-square, capped below by `epsilon_2`.

    Slots follow Keras 3's order, variable by variable: for a variable of 2
    or more dimensions `r` (shape `w.shape[:-1]`) and `c` (shape
    `w.shape[:-2] + w.shape[-1:]`), both named after the variable, then
    `velocity`; for a smaller one only `velocity`. For factored variables
    `velocity` holds the last reconstructed `v`.

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        beta_2_decay: exponent of the step in the second-moment decay rate,
            `<= 0`. Defaults to `-0.8`.
        epsilon_1: added to the squared gradients, `>= 0`. Defaults to `1e-30`.
        epsilon_2: the smallest variable scale the step is relative to,
            `>= 0`. Defaults to `1e-3`.
        clip_threshold: the root-mean-square an update is clipped to, `> 0`.
            Independent of `clipnorm`, `clipvalue` and `global_clipnorm`.
            Defaults to `1.0`.
        relative_step: kept for Keras compatibility. In Keras 3 the learning
            rate is capped by `1 / sqrt(t)` whatever its value, and so it is
            here. Defaults to `True`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    Raises:
        ValueError: for a positive `beta_2_decay`, a negative `epsilon_1` or
            `epsilon_2`, a `clip_threshold` that is not positive, or a
            `relative_step` that is not a bool.

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([3.0, 4.0]))  # rms(w) = sqrt(12.5)
    >>> Adafactor(learning_rate=0.1).apply([np.array([0.5, -2.0])], [w])
    >>> np.round(w.value, 4).tolist()  # first step: u = sign(g), alpha = 0.1 * rms(w)
    [2.6464, 4.3536]
    >>> [v.name for v in Adafactor().variables]
    ['iteration', 'learning_rate']
    """

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3,
                 clip_threshold=1.0, relative_step=True, name="adafactor", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        checks = [
            ("beta_2_decay", beta_2_decay, "<= 0", lambda x: x <= 0),
            ("epsilon_1", epsilon_1, ">= 0", lambda x: x >= 0),
            ("epsilon_2", epsilon_2, ">= 0", lambda x: x >= 0),
            ("clip_threshold", clip_threshold, "> 0", lambda x: x > 0),
        ]
        for arg, value, wanted, valid in checks:
            if not _is_number(value) or not valid(value):
                raise ValueError(f"Adafactor needs a number `{arg}` {wanted}. "
                                 f"Received: {arg}={value!r}")
        if not isinstance(relative_step, (bool, np.bool_)):
            raise ValueError("Adafactor needs a bool `relative_step`. "
                             f"Received: relative_step={relative_step!r}")
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = bool(relative_step)

    def build(self, var_list):
        """Creates the `r`, `c` (factored variables only) and `velocity` slots."""
        if self.built:
            return
        super().build(var_list)
        self._r, self._c, self._v = [], [], []
        for variable in self._trainable_variables:
            shape, dtype = variable.value.shape, variable.value.dtype
            if len(shape) >= 2:
                self._r.append(self.add_variable(shape[:-1], dtype=dtype, name=variable.name))
                self._c.append(self.add_variable(shape[:-2] + shape[-1:], dtype=dtype,
                                                 name=variable.name))
            else:
                self._r.append(None)
                self._c.append(None)
            self._v.append(self.add_variable_from_reference(variable, "velocity"))

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        r, c = self._r[index], self._c[index]
        updates.adafactor_update(
            variable.value, gradient, None if r is None else r.value,
            None if c is None else c.value, self._v[index].value,
            learning_rate=learning_rate, step=self._local_step(),
            beta_2_decay=self.beta_2_decay, epsilon_1=self.epsilon_1,
            epsilon_2=self.epsilon_2, clip_threshold=self.clip_threshold)

    def get_config(self):
        return {**super().get_config(), "beta_2_decay": self.beta_2_decay,
                "epsilon_1": self.epsilon_1, "epsilon_2": self.epsilon_2,
                "clip_threshold": self.clip_threshold, "relative_step": self.relative_step}
