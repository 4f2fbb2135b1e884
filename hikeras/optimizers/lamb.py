"""LAMB: Adam directions rescaled per variable by a trust ratio (You et al., 2019)."""

import numpy as np

from ..ops import updates
from .optimizer import Optimizer


def _check_unit_interval(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or \
            not 0 <= value < 1:
        raise ValueError(f"Lamb needs `{name}` in [0, 1). Received: {name}={value!r}")


class Lamb(Optimizer):
    """LAMB, with Keras 3's update rule.

    Per variable, with `t = iterations + 1`:

    ```
    m += (g - m) * (1 - beta_1)
    v += (g**2 - v) * (1 - beta_2)
    update = (m / (1 - beta_1**t)) / (sqrt(v / (1 - beta_2**t)) + epsilon)
    ratio = norm(w) / norm(update)   (1 if either norm is 0)
    w -= learning_rate * ratio * update
    ```

    The trust ratio makes every variable (a layer's kernel, its bias) move by
    about `learning_rate` times its own norm, whatever its gradients' scale,
    which is what lets LAMB train with very large batches. Norms are taken
    over the whole variable. Slots are created interleaved, `momentum` and
    `velocity` per variable, as in Keras 3.

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        beta_1: decay rate of the first-moment estimates, in `[0, 1)`.
            Defaults to `0.9`.
        beta_2: decay rate of the second-moment estimates, in `[0, 1)`.
            Defaults to `0.999`.
        epsilon: added to the denominator, `>= 0`. Defaults to `1e-7`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    Raises:
        ValueError: for `beta_1` or `beta_2` outside `[0, 1)`, or a negative
            `epsilon`.

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([3.0, 4.0]))  # norm 5
    >>> opt = Lamb(learning_rate=0.1)
    >>> opt.apply([np.array([0.5, -2.0])], [w])
    >>> np.round(w.value, 4).tolist()  # the update has norm lr * 5 = 0.5
    [2.6464, 4.3536]
    >>> [v.name for v in opt.variables]
    ['iteration', 'learning_rate', 'variable_momentum', 'variable_velocity']
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="lamb", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        _check_unit_interval("beta_1", beta_1)
        _check_unit_interval("beta_2", beta_2)
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.number)) or \
                not epsilon >= 0:
            raise ValueError(f"Lamb needs `epsilon` >= 0. Received: epsilon={epsilon!r}")
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def build(self, var_list):
        """Creates `momentum` and `velocity` slots."""
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            self._trainable_variables, ["momentum", "velocity"])

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        updates.lamb_update(
            variable.value, gradient, self._momentums[index].value,
            self._velocities[index].value, learning_rate=learning_rate,
            step=self._local_step(), beta_1=self.beta_1, beta_2=self.beta_2,
            epsilon=self.epsilon)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}
