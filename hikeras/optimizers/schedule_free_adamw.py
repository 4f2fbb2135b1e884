"""Schedule-Free AdamW: averaging in place of a learning-rate schedule (Defazio et al., 2024)."""

import numpy as np

from ..ops import updates
from .optimizer import Optimizer


def _is_number(value):
    return not isinstance(value, bool) and isinstance(value, (int, float, np.number))


class ScheduleFreeAdamW(Optimizer):
    """Schedule-Free AdamW, with the update Keras 3.15 computes on TensorFlow and PyTorch.

    Per variable `w`, with `t = iterations + 1` and the `momentum` slot `z`
    starting as a copy of `w`:

    ```
    lr_t = learning_rate * min(t / warmup_steps, 1)   (learning_rate without warmup)
    v += (g**2 - v) * (1 - beta_2)
    z -= lr_t * g / (sqrt(v / (1 - beta_2**t)) + epsilon)
    w = (1 - 1/t) * w + (1/t) * z
    ```

    `z` takes plain Adam-normalised gradient steps and the model's variable
    is the running mean of every `z` so far, which is what lets training run
    without a decaying schedule (and without choosing its length up front).
    Weight decay, when set, is applied to `w` first (decoupled).

    Keras writes the last line as the paper's interpolation, recovering
    `x = (w - (1 - beta_1) * z) / beta_1`, averaging `x` towards `z` and
    setting `w = (1 - beta_1) * z + beta_1 * x`; on TensorFlow and PyTorch it
    reads `z` after updating it, so `beta_1` cancels out and the result is
    the average above. That is the behaviour reproduced here: `beta_1` is
    validated and kept in the config but does not change the steps. (Keras on
    JAX reads the old `z` and follows the paper instead.)

    Slots are created interleaved, `momentum` and `velocity` per variable,
    as in Keras 3.

    Args:
        learning_rate: a float or a schedule. Defaults to `0.0025`.
        beta_1: the paper's interpolation weight, in `(0, 1]`; see above.
            Defaults to `0.9`.
        beta_2: decay rate of the second-moment estimates, in `[0, 1)`.
            Defaults to `0.999`.
        epsilon: added to the denominator, `>= 0`. Defaults to `1e-8`.
        warmup_steps: an int `>= 0`: the learning rate rises linearly over
            this many steps. Defaults to `0` (no warmup).
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    Raises:
        ValueError: for `beta_1` outside `(0, 1]`, `beta_2` outside `[0, 1)`,
            a negative `epsilon`, or a `warmup_steps` that is not an int
            `>= 0`.

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0, -2.0]))
    >>> opt = ScheduleFreeAdamW(learning_rate=0.1)
    >>> opt.apply([np.array([0.5, 0.25])], [w])  # step 1: w = z = w - lr * sign(g)
    >>> np.round(w.value, 4).tolist()
    [0.9, -2.1]
    >>> [v.name for v in opt.variables]
    ['iteration', 'learning_rate', 'variable_momentum', 'variable_velocity']
    """

    def __init__(self, learning_rate=0.0025, beta_1=0.9, beta_2=0.999, epsilon=1e-8,
                 warmup_steps=0, name="schedule_free_adam_w", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        checks = [
            ("beta_1", beta_1, "in (0, 1]", lambda x: 0 < x <= 1),
            ("beta_2", beta_2, "in [0, 1)", lambda x: 0 <= x < 1),
            ("epsilon", epsilon, ">= 0", lambda x: x >= 0),
        ]
        for arg, value, wanted, valid in checks:
            if not _is_number(value) or not valid(value):
                raise ValueError(f"ScheduleFreeAdamW needs `{arg}` {wanted}. "
                                 f"Received: {arg}={value!r}")
        if isinstance(warmup_steps, bool) or not isinstance(warmup_steps, (int, np.integer)) \
                or warmup_steps < 0:
            raise ValueError("ScheduleFreeAdamW needs an int `warmup_steps` >= 0. "
                             f"Received: warmup_steps={warmup_steps!r}")
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.warmup_steps = int(warmup_steps)

    def build(self, var_list):
        """Creates `momentum` (a copy of each variable) and `velocity` slots."""
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            self._trainable_variables, ["momentum", "velocity"])
        for momentum, variable in zip(self._momentums, self._trainable_variables):
            momentum.value[...] = variable.value

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        t = self._local_step()
        if self.warmup_steps > 0:
            learning_rate *= min(t / self.warmup_steps, 1.0)
        updates.schedule_free_adamw_update(
            variable.value, gradient, self._momentums[index].value,
            self._velocities[index].value, learning_rate=learning_rate, step=t,
            beta_2=self.beta_2, epsilon=self.epsilon)

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon, "warmup_steps": self.warmup_steps}
