"""Lion: sign updates from an interpolated momentum (Chen et al., 2023)."""

from ..ops import updates
from .optimizer import Optimizer


class Lion(Optimizer):
    """Lion, with Keras 3's update rule.

    ```
    w -= learning_rate * sign(beta_1 * m + (1 - beta_1) * g)
    m = beta_2 * m + (1 - beta_2) * g
    ```

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        beta_1: interpolation for the update direction, in `(0, 1]`.
            Defaults to `0.9`.
        beta_2: decay rate of the momentum. Defaults to `0.99`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0, 1.0]))
    >>> Lion(learning_rate=0.1).apply([np.array([3.0, -0.01])], [w])
    >>> w.value.tolist()
    [0.9, 1.1]
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, name="lion", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the (0, 1] range; otherwise the "
                             f"optimizer degenerates to SignSGD. Received: beta_1={beta_1}.")
        self.beta_1 = beta_1
        self.beta_2 = beta_2

    def build(self, var_list):
        """Creates one `momentum` slot per variable."""
        if self.built:
            return
        super().build(var_list)
        self._momentums = self.add_optimizer_variables(self._trainable_variables, "momentum")

    def update_step(self, gradient, variable, learning_rate):
        momentum = self._momentums[self._get_variable_index(variable)].value
        updates.lion_update(variable.value, gradient, momentum, learning_rate=learning_rate,
                            beta_1=self.beta_1, beta_2=self.beta_2)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2}
