"""The optimizers' calls into the backend: one function per fused update op.

Each function writes the new values into the arrays it is given (the
variable's and its slots' `.value`) through the active backend's op of the
same name, and returns None. The numpy kernels, with each rule's formula,
are in `backend/numpy_backend/optimizer_updates.py`; a compiled backend
overrides them by name and every optimizer runs on its kernels unchanged.

Scalars are passed as Python floats; `step` is `iterations + 1`, the step
number bias corrections use.
"""

from ..backend import apply


def weight_decay_update(variable, *, learning_rate, weight_decay):
    """`variable -= variable * weight_decay * learning_rate`."""
    apply("weight_decay_update", variable, learning_rate=learning_rate,
          weight_decay=weight_decay)


def ema_update(average, variable, *, momentum):
    """`average = momentum * average + (1 - momentum) * variable`."""
    apply("ema_update", average, variable, momentum=momentum)


def sgd_update(variable, gradient, *, learning_rate):
    """Plain gradient descent."""
    apply("sgd_update", variable, gradient, learning_rate=learning_rate)


def sgd_momentum_update(variable, gradient, velocity, *, learning_rate, momentum, nesterov):
    """Gradient descent with (Nesterov) momentum; `velocity` is SGD's `momentum` slot."""
    apply("sgd_momentum_update", variable, gradient, velocity, learning_rate=learning_rate,
          momentum=momentum, nesterov=nesterov)


def adam_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon):
    """Adam (and AdamW, after its weight decay)."""
    apply("adam_update", variable, gradient, m, v, learning_rate=learning_rate, step=step,
          beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)


def amsgrad_update(variable, gradient, m, v, v_hat, *, learning_rate, step, beta_1, beta_2,
                   epsilon):
    """Adam with `amsgrad=True`."""
    apply("amsgrad_update", variable, gradient, m, v, v_hat, learning_rate=learning_rate,
          step=step, beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)


def adamax_update(variable, gradient, m, u, *, learning_rate, step, beta_1, beta_2, epsilon):
    """Adamax."""
    apply("adamax_update", variable, gradient, m, u, learning_rate=learning_rate, step=step,
          beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)


def nadam_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon,
                 momentum, next_momentum, momentum_product):
    """Nadam, given the schedule's `u_t`, `u_{t+1}` and the product `U_t`."""
    apply("nadam_update", variable, gradient, m, v, learning_rate=learning_rate, step=step,
          beta_1=beta_1, beta_2=beta_2, epsilon=epsilon, momentum=momentum,
          next_momentum=next_momentum, momentum_product=momentum_product)


def lamb_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon):
    """LAMB."""
    apply("lamb_update", variable, gradient, m, v, learning_rate=learning_rate, step=step,
          beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)


def schedule_free_adamw_update(variable, gradient, z, v, *, learning_rate, step, beta_2,
                               epsilon):
    """Schedule-Free AdamW; `learning_rate` includes the warmup factor."""
    apply("schedule_free_adamw_update", variable, gradient, z, v, learning_rate=learning_rate,
          step=step, beta_2=beta_2, epsilon=epsilon)


def rmsprop_update(variable, gradient, velocity, average_gradient, momentum_slot, *,
                   learning_rate, rho, momentum, epsilon):
    """RMSprop; `average_gradient` (centered) and `momentum_slot` may be None."""
    apply("rmsprop_update", variable, gradient, velocity, average_gradient, momentum_slot,
          learning_rate=learning_rate, rho=rho, momentum=momentum, epsilon=epsilon)


def adagrad_update(variable, gradient, accumulator, *, learning_rate, epsilon):
    """Adagrad."""
    apply("adagrad_update", variable, gradient, accumulator, learning_rate=learning_rate,
          epsilon=epsilon)


def adadelta_update(variable, gradient, accumulated_grad, accumulated_delta, *, learning_rate,
                    rho, epsilon):
    """Adadelta."""
    apply("adadelta_update", variable, gradient, accumulated_grad, accumulated_delta,
          learning_rate=learning_rate, rho=rho, epsilon=epsilon)


def lion_update(variable, gradient, momentum, *, learning_rate, beta_1, beta_2):
    """Lion."""
    apply("lion_update", variable, gradient, momentum, learning_rate=learning_rate,
          beta_1=beta_1, beta_2=beta_2)


def ftrl_update(variable, gradient, accumulator, linear, *, learning_rate, learning_rate_power,
                l1, l2, l2_shrinkage, beta):
    """FTRL-Proximal."""
    apply("ftrl_update", variable, gradient, accumulator, linear, learning_rate=learning_rate,
          learning_rate_power=learning_rate_power, l1=l1, l2=l2, l2_shrinkage=l2_shrinkage,
          beta=beta)


def adafactor_update(variable, gradient, r, c, v, *, learning_rate, step, beta_2_decay,
                     epsilon_1, epsilon_2, clip_threshold):
    """Adafactor; `r` and `c` are None for variables of fewer than 2 dimensions."""
    apply("adafactor_update", variable, gradient, r, c, v, learning_rate=learning_rate,
          step=step, beta_2_decay=beta_2_decay, epsilon_1=epsilon_1, epsilon_2=epsilon_2,
          clip_threshold=clip_threshold)
