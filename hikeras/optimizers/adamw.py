"""AdamW: Adam with decoupled weight decay (Loshchilov & Hutter, 2019)."""

from .adam import Adam


class AdamW(Adam):
    """Adam whose weights also decay: `w -= learning_rate * weight_decay * w` each step.

    The decay is applied to the weights before the Adam update, never through
    the gradient, so it is not rescaled by the adaptive denominators.

    Args:
        learning_rate: a float or a schedule. Defaults to `0.001`.
        weight_decay: the decay rate (required). Defaults to `0.004`.
        beta_1, beta_2, epsilon, amsgrad: as in `Adam`.
        **kwargs: `weight_decay`, `clipnorm`, `clipvalue`, `global_clipnorm`,
            `use_ema`, `ema_momentum`, `ema_overwrite_frequency`,
            `loss_scale_factor`, `gradient_accumulation_steps`, `name` (see
            `Optimizer`).

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> w = Variable(np.array([1.0]))
    >>> AdamW(learning_rate=0.1, weight_decay=0.5).apply([np.array([0.0])], [w])
    >>> float(w.value[0])  # decayed by 0.1 * 0.5; a zero gradient moves nothing
    0.95
    """

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name="adamw", **kwargs):
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. "
                             "Received: weight_decay=None")
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, amsgrad=amsgrad, weight_decay=weight_decay,
                         name=name, **kwargs)
