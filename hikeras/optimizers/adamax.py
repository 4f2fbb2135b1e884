"""Adamax: Adam with the infinity norm in place of the second moment."""

from ..ops import updates
from .optimizer import Optimizer


class Adamax(Optimizer):
    """Adamax, with Keras 3's update rule.

    Per variable, with `t = iterations + 1`:

    ```
    m += (g - m) * (1 - beta_1)
    u = maximum(beta_2 * u, abs(g))
    w -= learning_rate * m / ((1 - beta_1**t) * (u + epsilon))
    ```

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        beta_1: decay rate of the first moment. Defaults to `0.9`.
        beta_2: decay rate of the infinity norm. Defaults to `0.999`.
        epsilon: added to the denominator. Defaults to `1e-7`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0]))
    >>> Adamax(learning_rate=0.1).apply([np.array([0.5])], [w])
    >>> round(float(w.value[0]), 4)
    0.9
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="adamax", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def build(self, var_list):
        """Creates `momentum` and `norm` slots, interleaved per variable."""
        if self.built:
            return
        super().build(var_list)
        self._m, self._u = self.add_optimizer_variables(self._trainable_variables,
                                                        ["momentum", "norm"])

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        updates.adamax_update(
            variable.value, gradient, self._m[index].value, self._u[index].value,
            learning_rate=learning_rate, step=self._local_step(), beta_1=self.beta_1,
            beta_2=self.beta_2, epsilon=self.epsilon)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}
