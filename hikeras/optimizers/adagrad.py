"""Adagrad: per-coordinate learning rates from the sum of squared gradients."""

from .. import initializers
from ..ops import updates
from .optimizer import Optimizer


class Adagrad(Optimizer):
    """Adagrad, with Keras 3's update rule.

    ```
    accumulator += g**2
    w -= learning_rate * g / sqrt(accumulator + epsilon)
    ```

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        initial_accumulator_value: starting value of the accumulators.
            Defaults to `0.1`.
        epsilon: added inside the square root. Defaults to `1e-7`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0]))
    >>> Adagrad(learning_rate=0.1, initial_accumulator_value=0.0).apply([np.array([3.0])], [w])
    >>> round(float(w.value[0]), 4)
    0.9
    """

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="adagrad", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def build(self, var_list):
        """Creates one `accumulator` slot per variable, filled with the initial value."""
        if self.built:
            return
        super().build(var_list)
        initializer = initializers.Constant(self.initial_accumulator_value)
        self._accumulators = self.add_optimizer_variables(
            self._trainable_variables, "accumulator", initializer=initializer)

    def update_step(self, gradient, variable, learning_rate):
        accumulator = self._accumulators[self._get_variable_index(variable)].value
        updates.adagrad_update(variable.value, gradient, accumulator,
                               learning_rate=learning_rate, epsilon=self.epsilon)

    def get_config(self):
        return {**super().get_config(),
                "initial_accumulator_value": self.initial_accumulator_value,
                "epsilon": self.epsilon}
