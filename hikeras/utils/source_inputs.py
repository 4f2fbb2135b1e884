"""`get_source_inputs`: the `Input` tensors a symbolic tensor was computed from."""

from ..backend import SymbolicTensor


def get_source_inputs(tensor):
    """The `Input` tensors at the root of `tensor`'s history, in discovery order.

    An `Input` tensor gives itself.
    """
    # Read through `_keras_history` only: `utils` sits below `layers`.
    if not isinstance(tensor, SymbolicTensor) or not hasattr(tensor, "_keras_history"):
        raise ValueError("get_source_inputs expects a symbolic tensor (from `Input` or a layer "
                         f"called on one). Received: tensor={tensor!r}")
    found, seen, stack = [], set(), [tensor]
    while stack:
        t = stack.pop()
        history = t._keras_history
        node = history.layer._inbound_nodes[history.node_index] if history else None
        if node is None or node.is_input:
            if id(t) not in seen:
                seen.add(id(t))
                found.append(t)
            continue
        stack.extend(reversed(node.input_tensors))
    return found
