"""The graph executor: dependency-ordered scheduling and reverse-mode autodiff.

`kahn_order` schedules any DAG (op nodes here, layer calls in functional
models) by Kahn's algorithm over in-degrees. `backward` differentiates a graph
of recorded `Node`s: it visits only nodes that both depend on a source and
lead to the target, runs each registered VJP once all of the node's
consumers have contributed their gradients, and releases every saved array
and every consumed gradient as soon as it has been used.

With `create_graph=True` (a gradient computed under an outer tape) each node
runs its op's traced VJP, whose ops the recording tapes see, so the result
can be differentiated again. An op with a numpy-only VJP still yields its
first-order gradient there; a marker node records that its gradient cannot
be differentiated, and an outer backward pass that reaches it raises.
"""

from collections import deque

import numpy as np

from .dispatch import active_tapes
from .graph import Node
from .tensor import Tensor, new_ref


def kahn_order(nodes, parents):
    """Returns `nodes` in dependency order (parents before children).

    Args:
        nodes: the nodes to order (hashable).
        parents: `parents(node)` returns the nodes it depends on; parents not
            in `nodes` are ignored.

    Raises:
        ValueError: if the graph has a cycle.
    """
    nodes = list(nodes)
    members = set(nodes)
    children = {n: [] for n in nodes}
    in_degree = dict.fromkeys(nodes, 0)
    for n in nodes:
        for p in set(parents(n)):
            if p in members:
                children[p].append(n)
                in_degree[n] += 1
    ready = deque(n for n in nodes if in_degree[n] == 0)
    order = []
    while ready:
        n = ready.popleft()
        order.append(n)
        for c in children[n]:
            in_degree[c] -= 1
            if in_degree[c] == 0:
                ready.append(c)
    if len(order) != len(nodes):
        raise ValueError("The graph has a cycle; cannot schedule it.")
    return order


def backward(nodes, target_ref, target_grad, source_refs, retain=False,
             create_graph=False):
    """Reverse-mode differentiation of a recorded graph.

    Args:
        nodes: recorded `Node`s, in recording (hence topological) order.
        target_ref: reference number of the tensor being differentiated.
        target_grad: the gradient seeding the target (same shape as it).
        source_refs: reference numbers whose gradients are wanted.
        retain: keep saved arrays (persistent tapes differentiate again).
        create_graph: run traced VJPs so that the active tapes record the
            gradient computation (the caller chooses which tapes are active).

    Returns:
        A dict `ref -> gradient (array, or Tensor under create_graph) or
        None` for each source ref.
    """
    sources = set(source_refs)
    producer = {}
    depends_on_source = set(sources)
    relevant = set()
    for node in nodes:
        for r in node.output_refs:
            producer[r] = node
        if not depends_on_source.isdisjoint(node.input_refs):
            relevant.add(node)
            depends_on_source.update(node.output_refs)

    grads = {target_ref: target_grad}
    start = producer.get(target_ref)
    if start is None or start not in relevant:
        return {r: grads.get(r) for r in source_refs}

    def relevant_parents(node):
        return {producer.get(r) for r in node.input_refs} & relevant

    # Nodes on a path source -> target, and how many consumers each waits for.
    reach = {start}
    stack = [start]
    while stack:
        for p in relevant_parents(stack.pop()):
            if p not in reach:
                reach.add(p)
                stack.append(p)
    pending = dict.fromkeys(reach, 0)
    for node in reach:
        for p in relevant_parents(node):
            pending[p] += 1

    ready = [start]
    while ready:
        node = ready.pop()
        out_grads = [grads.get(r) if r in sources else grads.pop(r, None)
                     for r in node.output_refs]
        if any(g is not None for g in out_grads):
            _run_vjp(node, out_grads, grads, create_graph)
        if not retain:
            node.release()
        for p in relevant_parents(node):
            pending[p] -= 1
            if pending[p] == 0:
                ready.append(p)
    return {r: grads.get(r) for r in source_refs}


def _run_vjp(node, out_grads, grads, create_graph):
    for i, g in enumerate(out_grads):
        if g is None:
            out_grads[i] = np.zeros(node.output_shapes[i], node.output_dtypes[i])
    g = out_grads[0] if node.op.num_outputs == 1 else tuple(out_grads)
    if not create_graph:
        in_grads = node.op.vjp(node, g)
    elif node.op.traced_vjp is not None:
        in_grads = node.op.traced_vjp(node.traced(), g)
    else:
        in_grads = _first_order_only(node, out_grads)
    for r, gi in zip(node.input_refs, in_grads):
        if r is None or gi is None:
            continue
        prev = grads.get(r)
        grads[r] = gi if prev is None else prev + gi


class _FirstOrderOnly:
    """The op of a marker node: the gradient of `op_name` cannot be differentiated."""

    num_outputs = None

    def __init__(self, op_name):
        self.name = f"gradient of {op_name}"
        self.op_name = op_name

    def vjp(self, node, g):
        raise NotImplementedError(
            f"Cannot differentiate the gradient of op '{self.op_name}': its gradient "
            "is computed in numpy, not with recorded ops, so nested GradientTapes "
            "(second-order gradients) cannot pass through it. Ops with higher-order "
            "gradients are listed in docs/training.md; compute this gradient outside "
            "the outer tape if only its value is needed."
        )


def _first_order_only(node, out_grads):
    """The numpy VJP's gradients, tracked behind a marker node on the active tapes."""
    values = [g.value if isinstance(g, Tensor) else g for g in out_grads]
    in_grads = node.op.vjp(node, values[0] if node.op.num_outputs == 1 else tuple(values))
    refs = tuple(None if g is None else new_ref() for g in in_grads)
    if not any(refs):
        return in_grads
    upstream = node.input_refs + node.output_refs + tuple(
        g.ref for g in out_grads if isinstance(g, Tensor))
    kept = [(r, g) for r, g in zip(refs, in_grads) if r is not None]
    marker = Node(_FirstOrderOnly(node.op.name), {}, upstream,
                  tuple(r for r, _ in kept), (), (), None, (),
                  tuple(np.shape(g) for _, g in kept), tuple(g.dtype for _, g in kept))
    for tape in active_tapes():
        tape.record(marker)
    return tuple(None if r is None else Tensor(g, r) for g, r in zip(in_grads, refs))

