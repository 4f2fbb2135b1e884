"""Stochastic gradient descent, with optional (Nesterov) momentum."""

import numpy as np

from ..ops import updates
from .optimizer import Optimizer


class SGD(Optimizer):
    """Gradient descent with optional momentum, with Keras 3's update rule.

    Without momentum: `w -= learning_rate * g`. With momentum, a velocity slot
    `m` per variable: `m = momentum * m - learning_rate * g`, then `w += m`;
    with `nesterov=True` the step is `w += momentum * m - learning_rate * g`
    (using the updated `m`).

    Args:
        learning_rate: a float or a schedule. Defaults to `0.01`.
        momentum: a float in `[0, 1]`; `0` is plain gradient descent and
            creates no slots. Defaults to `0.0`.
        nesterov: whether to use Nesterov momentum. Defaults to `False`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0, 2.0]))
    >>> opt = SGD(learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     opt.apply([np.array([1.0, -1.0])], [w])
    >>> np.round(w.value, 4).tolist()
    [0.71, 2.29]
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD",
                 **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        if (isinstance(momentum, bool) or not isinstance(momentum, (int, float, np.floating))
                or not 0 <= momentum <= 1):
            raise ValueError(f"`momentum` must be a float between [0, 1]. "
                             f"Received: momentum={momentum!r}")
        self.momentum = float(momentum)
        self.nesterov = bool(nesterov)

    def build(self, var_list):
        """Creates one `momentum` slot per variable, only when `momentum != 0`."""
        if self.built:
            return
        super().build(var_list)
        self.momentums = []
        if self.momentum != 0:
            self.momentums = self.add_optimizer_variables(self._trainable_variables, "momentum")

    def update_step(self, gradient, variable, learning_rate):
        if self.momentum == 0:
            updates.sgd_update(variable.value, gradient, learning_rate=learning_rate)
            return
        velocity = self.momentums[self._get_variable_index(variable)].value
        updates.sgd_momentum_update(variable.value, gradient, velocity,
                                    learning_rate=learning_rate, momentum=self.momentum,
                                    nesterov=self.nesterov)

    def get_config(self):
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config
