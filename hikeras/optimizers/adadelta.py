"""Adadelta: step sizes from running averages of gradients and updates (Zeiler, 2012)."""

from ..ops import updates
from .optimizer import Optimizer


class Adadelta(Optimizer):
    """Adadelta, with Keras 3's update rule.

    ```
    a_g = rho * a_g + (1 - rho) * g**2
    delta = -sqrt(a_d + epsilon) * g / sqrt(a_g + epsilon)
    a_d = rho * a_d + (1 - rho) * delta**2
    w += learning_rate * delta
    ```

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`; the
            original paper corresponds to `1.0`.
        rho: decay rate of the running averages. Defaults to `0.95`.
        epsilon: added inside the square roots. Defaults to `1e-7`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0]))
    >>> Adadelta(learning_rate=1.0, rho=0.0, epsilon=1.0).apply([np.array([0.0])], [w])
    >>> float(w.value[0])
    1.0
    """

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="adadelta",
                 **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def build(self, var_list):
        """Creates `accumulated_grad` and `accumulated_delta_var` slots, interleaved."""
        if self.built:
            return
        super().build(var_list)
        self._accumulated_grads, self._accumulated_delta_vars = self.add_optimizer_variables(
            self._trainable_variables, ["accumulated_grad", "accumulated_delta_var"])

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        updates.adadelta_update(
            variable.value, gradient, self._accumulated_grads[index].value,
            self._accumulated_delta_vars[index].value, learning_rate=learning_rate,
            rho=self.rho, epsilon=self.epsilon)

    def get_config(self):
        return {**super().get_config(), "rho": self.rho, "epsilon": self.epsilon}
