"""RMSprop: gradients divided by a running root mean square (Hinton, 2012)."""

from ..ops import updates
from .optimizer import Optimizer


class RMSprop(Optimizer):
    """RMSprop, with Keras 3's update rule.

    ```
    v = rho * v + (1 - rho) * g**2
    denominator = v + epsilon                       (centered: v - a**2 + epsilon,
                                                     a = rho * a + (1 - rho) * g)
    step = learning_rate * g / sqrt(denominator)
    w -= step                                       (momentum: m = momentum * m + step; w -= m)
    ```

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        rho: discount of the squared-gradient average. Defaults to `0.9`.
        momentum: in `[0, 1)`; 0 creates no momentum slots. Defaults to `0.0`.
        epsilon: added inside the square root. Defaults to `1e-7`.
        centered: divide by the estimated variance of the gradient rather
            than its second moment. Defaults to `False`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0]))
    >>> RMSprop(learning_rate=0.1, rho=0.0).apply([np.array([2.0])], [w])
    >>> round(float(w.value[0]), 4)  # with rho=0 the step is lr * sign(g)
    0.9
    """

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name="rmsprop", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = bool(centered)

    def build(self, var_list):
        """Creates `velocity` slots, then `momentum` and `average_gradient` ones if used."""
        if self.built:
            return
        super().build(var_list)
        variables = self._trainable_variables
        self._velocities = self.add_optimizer_variables(variables, "velocity")
        self._momentums = []
        if self.momentum > 0:
            self._momentums = self.add_optimizer_variables(variables, "momentum")
        self._average_gradients = []
        if self.centered:
            self._average_gradients = self.add_optimizer_variables(variables,
                                                                   "average_gradient")

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        average = self._average_gradients[index].value if self.centered else None
        momentum = self._momentums[index].value if self.momentum > 0 else None
        updates.rmsprop_update(
            variable.value, gradient, self._velocities[index].value, average, momentum,
            learning_rate=learning_rate, rho=self.rho, momentum=self.momentum,
            epsilon=self.epsilon)

    def get_config(self):
        return {**super().get_config(), "rho": self.rho, "momentum": self.momentum,
                "epsilon": self.epsilon, "centered": self.centered}
