"""Restoring an optimizer's saved variables, whichever Keras wrote them.

Three layouts exist for the same state (Adam shown):

* Keras 3 and hikeras: `[iteration, learning_rate, m0, v0, m1, v1, ...]`;
* Keras 2.11+ (`iteration:0`, `Adam/m/dense/kernel:0`, ...): the same without
  the learning rate, which then comes from the optimizer's config;
* Keras 2 before 2.11 (`Adam/iter:0`, `Adam/dense/kernel/m:0`, ...): slots
  grouped by kind, `[iter, m0, m1, ..., v0, v1, ...]`.

`plan_optimizer` recognises the layout from the count and the names, checks
every shape, and returns `(variable, SavedArray)` pairs, or raises.
"""

import re

from ..backend import Variable
from .file_errors import SavedFileError, file_error
from .value_checks import dtype_problem


def _positions(optimizer, saved):
    """For each optimizer variable, the index of its saved array (or None)."""
    variables = optimizer.variables
    n_vars, n_saved = len(variables), len(saved)
    has_lr = isinstance(optimizer._learning_rate, Variable)
    if n_saved == n_vars:
        return list(range(n_vars))
    if has_lr and n_saved == n_vars - 1:
        n_slots_total = n_vars - 2
        n_model_vars = len(optimizer._trainable_variables) or 1
        slots = n_slots_total // n_model_vars
        if slots > 1 and re.search(r"(^|/)iter:0$", saved[0].name):
            # Pre-2.11: grouped by slot kind; ours interleave per variable.
            order = [0, None]
            for i in range(n_model_vars):
                order.extend(1 + j * n_model_vars + i for j in range(slots))
            return order
        return [0, None] + list(range(1, n_saved))
    return None


def plan_optimizer(optimizer, saved, source):
    """Pairs `optimizer.variables` with saved arrays; the optimizer must be built."""
    variables = optimizer.variables
    positions = _positions(optimizer, saved)
    if positions is None:
        raise file_error(
            source, f"has {len(saved)} optimizer weights ({[s.name for s in saved[:4]]}...), "
                    f"which do not fit optimizer '{optimizer.name}' with {len(variables)} "
                    f"variables ({[v.path for v in variables[:4]]}...)")
    plan = []
    for var, index in zip(variables, positions):
        if index is None:
            continue
        array = saved[index]
        if tuple(var.shape) != array.shape:
            raise file_error(source, f"has optimizer weight '{array.name}' of shape "
                                     f"{array.shape} for '{var.path}' of shape {tuple(var.shape)}")
        problem = dtype_problem(f"optimizer weight '{array.name}' for '{var.path}'",
                                var.value.dtype, array.dtype)
        if problem:
            raise file_error(source, problem)
        plan.append((var, array))
    return plan


def plan_optimizer_state(model, saved, source, plan, report):
    """Adds the optimizer's state to the plan when both sides have one; else reports it."""
    if not saved:
        return
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None:
        report.skipped.append(("optimizer state", "the model is not compiled"))
        return
    if not optimizer.built:
        optimizer.build(model.trainable_weights)
    try:
        plan.extend(plan_optimizer(optimizer, saved, source))
    except SavedFileError as e:
        report.skipped.append(("optimizer state", str(e)))
