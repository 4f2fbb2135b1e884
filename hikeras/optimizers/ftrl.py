"""FTRL-Proximal: follow-the-regularized-leader, for wide sparse models (McMahan et al., 2013)."""

from .. import initializers
from ..ops import updates
from .optimizer import Optimizer


class Ftrl(Optimizer):
    """FTRL-Proximal with L1, L2 and L2-shrinkage regularisation, as Keras 3 computes it.

    With `p = -learning_rate_power`, `l2 = l2_regularization_strength +
    beta / (2 * learning_rate)` and `g' = g + 2 * l2_shrinkage * w`:

    ```
    n_new = n + g**2
    z += g' - (n_new**p - n**p) / learning_rate * w
    w = (clip(z, -l1, l1) - z) / (n_new**p / learning_rate + 2 * l2)
    n = n_new
    ```

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        learning_rate_power: `<= 0`; `-0.5` (default) is the usual Adagrad-like decay.
        initial_accumulator_value: starting `n`, `>= 0`. Defaults to `0.1`.
        l1_regularization_strength: `>= 0`. Defaults to `0.0`.
        l2_regularization_strength: `>= 0`. Defaults to `0.0`.
        l2_shrinkage_regularization_strength: `>= 0`, a magnitude penalty
            applied through the gradient. Defaults to `0.0`.
        beta: as in the paper. Defaults to `0.0`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([0.0]))
    >>> Ftrl(learning_rate=1.0, l1_regularization_strength=1.0).apply([np.array([0.5])], [w])
    >>> float(w.value[0])  # |z| below the L1 strength: the weight stays exactly 0
    0.0
    """

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, name="ftrl", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        for arg, value in (("initial_accumulator_value", initial_accumulator_value),
                           ("l1_regularization_strength", l1_regularization_strength),
                           ("l2_regularization_strength", l2_regularization_strength),
                           ("l2_shrinkage_regularization_strength",
                            l2_shrinkage_regularization_strength)):
            if value < 0.0:
                raise ValueError(f"`{arg}` needs to be positive or zero. "
                                 f"Received: {arg}={value}.")
        if learning_rate_power > 0.0:
            raise ValueError("`learning_rate_power` needs to be negative or zero. "
                             f"Received: learning_rate_power={learning_rate_power}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def build(self, var_list):
        """Creates `accumulator` (filled with the initial value) and `linear` slots."""
        if self.built:
            return
        super().build(var_list)
        accumulators, linears = [], []
        initial = initializers.Constant(self.initial_accumulator_value)
        for variable in self._trainable_variables:  # Keras's order: interleaved
            accumulators.append(self.add_variable_from_reference(variable, "accumulator",
                                                                 initial))
            linears.append(self.add_variable_from_reference(variable, "linear"))
        self._accumulators, self._linears = accumulators, linears

    def update_step(self, gradient, variable, learning_rate):
        index = self._get_variable_index(variable)
        updates.ftrl_update(
            variable.value, gradient, self._accumulators[index].value,
            self._linears[index].value, learning_rate=learning_rate,
            learning_rate_power=self.learning_rate_power,
            l1=self.l1_regularization_strength, l2=self.l2_regularization_strength,
            l2_shrinkage=self.l2_shrinkage_regularization_strength, beta=self.beta)

    def get_config(self):
        return {**super().get_config(), "learning_rate_power": self.learning_rate_power,
                "initial_accumulator_value": self.initial_accumulator_value,
                "l1_regularization_strength": self.l1_regularization_strength,
                "l2_regularization_strength": self.l2_regularization_strength,
                "l2_shrinkage_regularization_strength":
                    self.l2_shrinkage_regularization_strength,
                "beta": self.beta}
