"""The graph executor: dependency-ordered scheduling and reverse-mode autodiff.

`kahn_order` schedules any DAG (op nodes here, layer calls in functional
models) by Kahn's algorithm over in-degrees. `backward` differentiates a graph
of recorded `Node`s: it visits only nodes that both depend on a source and
lead to the target, runs each registered VJP once all of the node's
consumers have contributed their gradients, and releases every saved array
and every consumed gradient as soon as it has been used.
"""

from collections import deque

import numpy as np


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


def backward(nodes, target_ref, target_grad, source_refs, retain=False):
    """Reverse-mode differentiation of a recorded graph.

    Args:
        nodes: recorded `Node`s, in recording (hence topological) order.
        target_ref: reference number of the tensor being differentiated.
        target_grad: the gradient seeding the target (same shape as it).
        source_refs: reference numbers whose gradients are wanted.
        retain: keep saved arrays (persistent tapes differentiate again).

    Returns:
        A dict `ref -> gradient array or None` for each source ref.
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
            _run_vjp(node, out_grads, grads)
        if not retain:
            node.release()
        for p in relevant_parents(node):
            pending[p] -= 1
            if pending[p] == 0:
                ready.append(p)
    return {r: grads.get(r) for r in source_refs}


def _run_vjp(node, out_grads, grads):
    for i, g in enumerate(out_grads):
        if g is None:
            out_grads[i] = np.zeros(node.output_shapes[i], node.output_dtypes[i])
    g = out_grads[0] if node.op.num_outputs == 1 else tuple(out_grads)
    in_grads = node.op.vjp(node, g)
    for r, gi in zip(node.input_refs, in_grads):
        if r is None or gi is None:
            continue
        prev = grads.get(r)
        grads[r] = gi if prev is None else prev + gi
