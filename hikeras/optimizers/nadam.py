"""Nadam: Adam with Nesterov momentum (Dozat, 2016)."""

from ..ops import updates
from .optimizer import Optimizer


class Nadam(Optimizer):
    """Nadam, with Keras 3's update rule and momentum schedule.

    With `t = iterations + 1`, `u_t = beta_1 * (1 - 0.5 * 0.96**t)` and the
    running product `U_t = u_1 * ... * u_t` (the `u_product` variable):

    ```
    m += (g - m) * (1 - beta_1);  v += (g**2 - v) * (1 - beta_2)
    m_hat = u_{t+1} * m / (1 - U_t * u_{t+1}) + (1 - u_t) * g / (1 - U_t)
    w -= learning_rate * m_hat / (sqrt(v / (1 - beta_2**t)) + epsilon)
    ```

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        beta_1, beta_2, epsilon: as in `Adam`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0]))
    >>> Nadam(learning_rate=0.1).apply([np.array([0.5])], [w])
    >>> round(float(w.value[0]), 4)
    0.8937
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="nadam", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def build(self, var_list):
        """Creates `momentum` and `velocity` slots, then the `u_product` scalar."""
        if self.built:
            return
        super().build(var_list)
        variables = self._trainable_variables
        self._momentums, self._velocities = self.add_optimizer_variables(
            variables, ["momentum", "velocity"])
        dtype = variables[0].value.dtype if variables else None
        self._u_product = self.add_variable((), initializer="ones", dtype=dtype,
                                            name="u_product")

    def _momentum_at(self, step):
        return self.beta_1 * (1.0 - 0.5 * 0.96 ** step)

    def _update_variables(self, grads, variables, learning_rate):
        self._u_product.value *= self._momentum_at(self._local_step())
        super()._update_variables(grads, variables, learning_rate)

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        t = self._local_step()
        updates.nadam_update(
            variable.value, gradient, self._momentums[index].value,
            self._velocities[index].value, learning_rate=learning_rate, step=t,
            beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon,
            momentum=self._momentum_at(t), next_momentum=self._momentum_at(t + 1.0),
            momentum_product=float(self._u_product.value))

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}
