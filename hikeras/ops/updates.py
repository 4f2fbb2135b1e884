"""The update ops: optimizer steps and metric accumulations, written in place.

An optimizer's `update_step` and a built-in metric's `update_state` call
these; each is named as the op it runs, takes that kernel's arguments, and
its docstring names the module of `backend/numpy_backend/` where the kernel
is registered. Every function writes into the arrays it is given (a
variable's and its slots' `.value`, a metric's state) and returns None. The
ops are never differentiated and never recorded on a tape; a backend that
overrides them by name speeds up every optimizer and metric.

Arrays are inputs, scalars are keyword attributes (Python floats); `step` is
`iterations + 1`, the step number bias corrections use. Like `kernels`,
these are internal: they follow the kernels, not a Keras signature.

>>> import numpy as np
>>> w, velocity = np.array([1.0, 2.0]), np.zeros(2)
>>> sgd_momentum_update(w, np.array([1.0, -1.0]), velocity, learning_rate=0.1, momentum=0.9)
>>> w.tolist(), velocity.tolist()
([0.9, 2.1], [-0.1, 0.1])
"""

from .. import backend

_apply = backend.apply


# --- every optimizer: backend/numpy_backend/optimizer_updates.py -------------------------------

def weight_decay_update(variable, *, learning_rate, weight_decay):
    """`variable -= variable * weight_decay * learning_rate`.

    Kernel: `weight_decay_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("weight_decay_update", variable, learning_rate=learning_rate,
           weight_decay=weight_decay)


def ema_update(average, variable, *, momentum):
    """`average = momentum * average + (1 - momentum) * variable` (`use_ema`).

    Kernel: `ema_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("ema_update", average, variable, momentum=momentum)


# --- one rule each: backend/numpy_backend/optimizer_updates.py ---------------------------------

def sgd_update(variable, gradient, *, learning_rate):
    """Plain gradient descent.

    Kernel: `sgd_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("sgd_update", variable, gradient, learning_rate=learning_rate)


def sgd_momentum_update(variable, gradient, velocity, *, learning_rate, momentum,
                        nesterov=False):
    """Gradient descent with (Nesterov) momentum; `velocity` is SGD's `momentum` slot.

    Kernel: `sgd_momentum_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("sgd_momentum_update", variable, gradient, velocity, learning_rate=learning_rate,
           momentum=momentum, nesterov=nesterov)


def adam_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon):
    """Adam (and AdamW, after its weight decay).

    Kernel: `adam_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("adam_update", variable, gradient, m, v, learning_rate=learning_rate, step=step,
           beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)


def amsgrad_update(variable, gradient, m, v, v_hat, *, learning_rate, step, beta_1, beta_2,
                   epsilon):
    """Adam with `amsgrad=True`.

    Kernel: `amsgrad_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("amsgrad_update", variable, gradient, m, v, v_hat, learning_rate=learning_rate,
           step=step, beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)


def adamax_update(variable, gradient, m, u, *, learning_rate, step, beta_1, beta_2, epsilon):
    """Adamax.

    Kernel: `adamax_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("adamax_update", variable, gradient, m, u, learning_rate=learning_rate, step=step,
           beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)


def nadam_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon,
                 momentum, next_momentum, momentum_product):
    """Nadam, given the schedule's `u_t`, `u_{t+1}` and their running product `U_t`.

    Kernel: `nadam_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("nadam_update", variable, gradient, m, v, learning_rate=learning_rate, step=step,
           beta_1=beta_1, beta_2=beta_2, epsilon=epsilon, momentum=momentum,
           next_momentum=next_momentum, momentum_product=momentum_product)


def lamb_update(variable, gradient, m, v, *, learning_rate, step, beta_1, beta_2, epsilon):
    """LAMB.

    Kernel: `lamb_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("lamb_update", variable, gradient, m, v, learning_rate=learning_rate, step=step,
           beta_1=beta_1, beta_2=beta_2, epsilon=epsilon)


def schedule_free_adamw_update(variable, gradient, z, v, *, learning_rate, step, beta_2,
                               epsilon):
    """Schedule-Free AdamW; `learning_rate` includes the warmup factor.

    Kernel: `schedule_free_adamw_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("schedule_free_adamw_update", variable, gradient, z, v,
           learning_rate=learning_rate, step=step, beta_2=beta_2, epsilon=epsilon)


def rmsprop_update(variable, gradient, velocity, average_gradient, momentum_slot, *,
                   learning_rate, rho, momentum, epsilon):
    """RMSprop; `average_gradient` (centered) and `momentum_slot` may be None.

    Kernel: `rmsprop_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("rmsprop_update", variable, gradient, velocity, average_gradient, momentum_slot,
           learning_rate=learning_rate, rho=rho, momentum=momentum, epsilon=epsilon)


def adagrad_update(variable, gradient, accumulator, *, learning_rate, epsilon):
    """Adagrad.

    Kernel: `adagrad_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("adagrad_update", variable, gradient, accumulator, learning_rate=learning_rate,
           epsilon=epsilon)


def adadelta_update(variable, gradient, accumulated_grad, accumulated_delta, *, learning_rate,
                    rho, epsilon):
    """Adadelta.

    Kernel: `adadelta_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("adadelta_update", variable, gradient, accumulated_grad, accumulated_delta,
           learning_rate=learning_rate, rho=rho, epsilon=epsilon)


def lion_update(variable, gradient, momentum, *, learning_rate, beta_1, beta_2):
    """Lion.

    Kernel: `lion_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("lion_update", variable, gradient, momentum, learning_rate=learning_rate,
           beta_1=beta_1, beta_2=beta_2)


def muon_update(variable, gradient, m, *, learning_rate, momentum, nesterov, ns_steps,
                muon_a, muon_b, muon_c, rms_rate):
    """Muon's orthogonalised momentum step, for a matrix.

    Kernel: `muon_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("muon_update", variable, gradient, m, learning_rate=learning_rate,
           momentum=momentum, nesterov=nesterov, ns_steps=ns_steps, muon_a=muon_a,
           muon_b=muon_b, muon_c=muon_c, rms_rate=rms_rate)


def ftrl_update(variable, gradient, accumulator, linear, *, learning_rate, learning_rate_power,
                l1, l2, l2_shrinkage, beta):
    """FTRL-Proximal.

    Kernel: `ftrl_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("ftrl_update", variable, gradient, accumulator, linear, learning_rate=learning_rate,
           learning_rate_power=learning_rate_power, l1=l1, l2=l2, l2_shrinkage=l2_shrinkage,
           beta=beta)


def adafactor_update(variable, gradient, r, c, v, *, learning_rate, step, beta_2_decay,
                     epsilon_1, epsilon_2, clip_threshold):
    """Adafactor; `r` and `c` are None for variables of fewer than 2 dimensions.

    Kernel: `adafactor_update` in `backend/numpy_backend/optimizer_updates.py`.
    """
    _apply("adafactor_update", variable, gradient, r, c, v, learning_rate=learning_rate,
           step=step, beta_2_decay=beta_2_decay, epsilon_1=epsilon_1, epsilon_2=epsilon_2,
           clip_threshold=clip_threshold)


# --- metric state: backend/numpy_backend/metric_updates.py -------------------------------------

def mean_metric_update(total, count, values, sample_weight=None):
    """Adds the (weighted) per-sample means of `values` to `total`, their weights to `count`.

    `sample_weight`, when given, has at most `values`' rank and broadcasts
    against its leading axes (the caller checks it).

    Kernel: `mean_metric_update` in `backend/numpy_backend/metric_updates.py`.
    """
    _apply("mean_metric_update", total, count, values, sample_weight)


def sum_metric_update(total, values, sample_weight=None):
    """Adds the (weighted) sum of `values` to `total`.

    Kernel: `sum_metric_update` in `backend/numpy_backend/metric_updates.py`.
    """
    _apply("sum_metric_update", total, values, sample_weight)


def confusion_counts_update(true_positives, false_positives, true_negatives, false_negatives,
                            positive, y_pred, weights, thresholds, *, multi_label=False,
                            evenly_distributed=False):
    """Adds weighted confusion counts at each threshold; a count passed as None is skipped.

    Kernel: `confusion_counts_update` in `backend/numpy_backend/metric_updates.py`.
    """
    _apply("confusion_counts_update", true_positives, false_positives, true_negatives,
           false_negatives, positive, y_pred, weights, thresholds, multi_label=multi_label,
           evenly_distributed=evenly_distributed)


def confusion_matrix_update(total, labels, predictions, weights, *, ignore_class=None):
    """Adds each valid (label, prediction) pair's weight to the confusion matrix `total`.

    Kernel: `confusion_matrix_update` in `backend/numpy_backend/metric_updates.py`.
    """
    _apply("confusion_matrix_update", total, labels, predictions, weights,
           ignore_class=ignore_class)


__all__ = [
    "adadelta_update", "adafactor_update", "adagrad_update", "adam_update", "adamax_update",
    "amsgrad_update", "confusion_counts_update", "confusion_matrix_update", "ema_update",
    "ftrl_update", "lamb_update", "lion_update", "mean_metric_update", "muon_update", "nadam_update",
    "rmsprop_update", "schedule_free_adamw_update", "sgd_momentum_update", "sgd_update",
    "sum_metric_update", "weight_decay_update",
]
