"""Adam: adaptive moment estimation, with the optional AMSGrad variant."""

from ..ops import updates
from .optimizer import Optimizer


class Adam(Optimizer):
    """Adam, with Keras 3's update rule.

    Per variable, with `t = iterations + 1`:

    ```
    alpha = learning_rate * sqrt(1 - beta_2**t) / (1 - beta_1**t)
    m += (g - m) * (1 - beta_1)
    v += (g**2 - v) * (1 - beta_2)
    w -= alpha * m / (sqrt(v) + epsilon)
    ```

    With `amsgrad=True`, `v_hat = maximum(v_hat, v)` replaces `v` in the last line.
    Slots are created interleaved, `momentum` and `velocity` per variable, then
    the `velocity_hat`s (AMSGrad only): Keras 3's order of `variables`.

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        beta_1: decay rate of the first-moment estimates. Defaults to `0.9`.
        beta_2: decay rate of the second-moment estimates. Defaults to `0.999`.
        epsilon: added to the denominator ("epsilon hat" of the paper).
            Defaults to `1e-7`.
        amsgrad: whether to use AMSGrad. Defaults to `False`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0]))
    >>> opt = Adam(learning_rate=0.1)
    >>> opt.apply([np.array([0.5])], [w])
    >>> round(float(w.value[0]), 4)  # the first Adam step moves by about lr
    0.9
    >>> [v.name for v in opt.variables]
    ['iteration', 'learning_rate', 'variable_momentum', 'variable_velocity']
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name="adam", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = bool(amsgrad)

    def build(self, var_list):
        """Creates `momentum` and `velocity` slots (and `velocity_hat` for AMSGrad)."""
        if self.built:
            return
        super().build(var_list)
        variables = self._trainable_variables
        self._momentums, self._velocities = self.add_optimizer_variables(
            variables, ["momentum", "velocity"])
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(variables, "velocity_hat")

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        m = self._momentums[index].value
        v = self._velocities[index].value
        hyper = {"learning_rate": learning_rate, "step": self._local_step(),
                 "beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon}
        if self.amsgrad:
            updates.amsgrad_update(variable.value, gradient, m, v,
                                   self._velocity_hats[index].value, **hyper)
        else:
            updates.adam_update(variable.value, gradient, m, v, **hyper)

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "amsgrad": self.amsgrad})
        return config
