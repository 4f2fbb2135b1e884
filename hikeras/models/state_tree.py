"""A model's whole state as nested dicts keyed by variable path (Keras 3's state tree).

`get_state_tree` groups the variables as Keras does (trainable,
non-trainable, optimizer, metrics) and nests each group by the parts of its
variables' paths, so `"dense/kernel"` becomes `tree["dense"]["kernel"]`.
`set_state_tree` assigns such a tree back, checking names and shapes first so
that a wrong tree changes nothing.
"""

import numpy as np

_FORMATS = ("backend_tensor", "numpy_array")


def state_groups(model):
    """`{group name: variables}` in Keras's order; groups without variables are kept."""
    optimizer = getattr(model, "optimizer", None)
    return {
        "trainable_variables": model.trainable_variables,
        "non_trainable_variables": model.non_trainable_variables,
        "optimizer_variables": list(optimizer.variables) if optimizer is not None else [],
        "metrics_variables": model.metrics_variables,
    }


def get_state_tree(model, value_format="backend_tensor"):
    """The model's state; values are copies (numpy arrays are hikeras's tensors)."""
    if value_format not in _FORMATS:
        raise ValueError(f"`value_format` must be one of {list(_FORMATS)}. "
                         f"Received: value_format={value_format!r}")
    tree = {}
    for group, variables in state_groups(model).items():
        nested = tree.setdefault(group, {})
        for variable in variables:
            *parents, leaf = variable.path.split("/")
            node = nested
            for part in parents:
                node = node.setdefault(part, {})
            node[leaf] = np.array(variable.value)
    return tree


def set_state_tree(model, state_tree):
    """Assigns the values of `state_tree` (as `get_state_tree` returns) to the model's variables.

    Groups and variables the tree leaves out keep their values; a path the
    model does not have, or a value of the wrong shape, raises before any
    assignment.
    """
    if not isinstance(state_tree, dict):
        raise TypeError("`state_tree` must be a dict as returned by `get_state_tree()`. "
                         f"Received: {type(state_tree).__name__}")
    groups = state_groups(model)
    plan = []
    for group, subtree in state_tree.items():
        if group not in groups:
            raise ValueError(f"Unknown group in `state_tree`: {group!r}. Expected some of "
                             f"{list(groups)}")
        by_path = {v.path: v for v in groups[group]}
        for path, value in _leaves(subtree):
            variable = by_path.get(path)
            if variable is None:
                raise ValueError(f"Model '{model.name}' has no {group} entry at path "
                                 f"{path!r}. Received: state_tree[{group!r}]")
            value = np.asarray(value)
            if value.shape != tuple(variable.shape):
                raise ValueError(f"Shape mismatch for {group} {path!r} of model "
                                 f"'{model.name}': expected {tuple(variable.shape)}. "
                                 f"Received: shape {value.shape}")
            plan.append((variable, value))
    for variable, value in plan:
        variable.assign(value)


def _leaves(subtree, prefix=""):
    for key, value in subtree.items():
        path = f"{prefix}/{key}" if prefix else str(key)
        if isinstance(value, dict):
            yield from _leaves(value, path)
        else:
            yield path, value
