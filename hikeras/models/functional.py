"""`Functional`: a model defined by the graph between `Input`s and outputs.

On construction the layer calls between inputs and outputs are collected and
scheduled once (Kahn's algorithm, via the backend's `kahn_order`); running
the model walks that schedule, keeping each intermediate value only until its
last consumer has run.
"""

import warnings

import numpy as np

from .. import ops
from ..backend import kahn_order
from ..layers.layer import flat_masks
from ..layers.node import KerasTensor
from ..utils import tree
from .functional_config import functional_config, functional_from_config
from .graph_inputs import rooted_at_inputs
from .model import Model
from .naming import assign_unique_names


class Functional(Model):
    """A model built with the functional API: `Model(inputs, outputs)`.

    Args:
        inputs: a KerasTensor from `Input`, or a list/dict of them.
        outputs: a KerasTensor, or a list/dict of them.
        name: the model's name.
    """

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        if all(isinstance(t, KerasTensor) for t in tree.flatten(inputs)):
            inputs, outputs = rooted_at_inputs(inputs, outputs)
        self._inputs_struct = _sorted_if_dict(inputs)
        self._outputs_struct = _sorted_if_dict(outputs)
        self.inputs = tree.flatten(self._inputs_struct)
        self.outputs = tree.flatten(self._outputs_struct)
        for t in self.inputs + self.outputs:
            if not isinstance(t, KerasTensor):
                raise ValueError(
                    "Model inputs and outputs must be symbolic tensors from `hikeras.Input` "
                    f"and layer calls. Received: {t!r}"
                )
        self._build_graph()
        self.built = True

    def _build_graph(self):
        nodes, stack = set(), [self._node_of(t) for t in self.outputs]
        while stack:
            node = stack.pop()
            if node in nodes:
                continue
            nodes.add(node)
            stack.extend(node.parent_nodes)
        input_layers = [t._keras_history.layer for t in self.inputs]
        for node in nodes:
            if node.is_input and not any(node.layer is l for l in input_layers):
                raise ValueError(
                    "Graph disconnected: the output depends on input "
                    f"'{node.layer.name}', which is not among the model inputs "
                    f"{[l.name for l in input_layers]}. Pass it in `inputs`."
                )
        order = kahn_order(sorted(nodes, key=_creation_order), lambda n: n.parent_nodes)
        self._nodes_in_order = [n for n in order if not n.is_input]
        layers = _keras_layer_order([self._node_of(t) for t in self.outputs], input_layers)
        self._layers = layers
        assign_unique_names(layers)
        # After node i runs, the tensors whose last consumer it is can be released.
        last_use = {}
        for i, node in enumerate(self._nodes_in_order):
            for t in node.input_tensors:
                last_use[id(t)] = i
        keep = {id(t) for t in self.outputs}
        # Nodes whose input or output carries a mask run through the masked path.
        self._mask_nodes = [
            any(getattr(t, "_keras_mask", None) is not None
                for t in tree.flatten(node.call_args[0]) + node.output_tensors)
            or bool(node.layer._argument_masks(node.call_args, node.call_kwargs,
                                               lambda t: getattr(t, "_keras_mask", None)))
            for node in self._nodes_in_order]
        self._has_masks = any(self._mask_nodes)
        self._release_after = [[] for _ in self._nodes_in_order]
        for tid, i in last_use.items():
            if tid not in keep:
                self._release_after[i].append(tid)

    @staticmethod
    def _node_of(tensor):
        layer, node_index, _ = tensor._keras_history
        return layer._inbound_nodes[node_index]

    @property
    def operations(self):
        """The graph's operations in order, input layers included (Keras 3's name)."""
        return list(self.layers)

    @property
    def input_names(self):
        return [t._keras_history.layer.name for t in self.inputs]

    @property
    def output_names(self):
        return [t._keras_history.layer.name for t in self.outputs]

    def _flatten_inputs(self, inputs):
        """Model inputs as a flat list matching `self.inputs` (dicts matched by name)."""
        if isinstance(inputs, dict):
            names = self.input_names
            if isinstance(self._inputs_struct, dict):
                names = list(self._inputs_struct)
            missing = [n for n in names if n not in inputs]
            if missing:
                raise ValueError(
                    f"Model '{self.name}' expects inputs named {names}; missing {missing}. "
                    f"Received: keys={sorted(inputs)}"
                )
            return [inputs[n] for n in names]
        flat = tree.flatten(inputs)
        if len(flat) != len(self.inputs):
            raise ValueError(
                f"Model '{self.name}' expects {len(self.inputs)} input(s) "
                f"({self.input_names}), but received {len(flat)}. "
                f"Received: {len(flat)} input arrays"
            )
        return flat

    def call(self, inputs, training=None, mask=None):
        return self._run_graph(inputs, training, mask)[0]

    def _run_graph(self, inputs, training=None, mask=None):
        """Runs the layer calls in order; returns `(outputs, output masks)`.

        Masks travel beside the values, keyed like them by graph tensor: only
        the nodes that the graph marks as masked (or all, when the caller
        passes input masks) go through `Layer._call_with_mask`.
        """
        flat = self._flatten_inputs(inputs)
        values, masks = {}, {}
        for t, x in zip(self.inputs, flat):
            values[id(t)] = self._conform_input(t, x)
        if mask is not None:
            for t, m in zip(self.inputs, flat_masks(mask, len(self.inputs))):
                if m is not None:
                    masks[id(t)] = m
        masked = [True] * len(self._nodes_in_order) if masks else self._mask_nodes
        for node, release, with_mask in zip(self._nodes_in_order, self._release_after, masked):
            single = node.call_args[0] if len(node.call_args) == 1 else None
            if not with_mask and not node.call_kwargs and isinstance(single, KerasTensor):
                out = node.layer(values[id(single)])   # the common node, without tree walks
            elif with_mask:
                args, kwargs = self._node_arguments(node, values)
                in_mask = tree.map_structure(lambda a: masks.get(id(a)), node.call_args[0])
                if all(m is None for m in tree.flatten(in_mask)):
                    in_mask = None
                kwargs.update(node.layer._argument_masks(
                    node.call_args, node.call_kwargs,
                    lambda a: masks.get(id(a)) if isinstance(a, KerasTensor) else None))
                out, out_mask = node.layer._call_with_mask(args, kwargs, in_mask)
                count = len(node.output_tensors)
                for t, m in zip(node.output_tensors, flat_masks(out_mask, count)):
                    if m is not None:
                        masks[id(t)] = m
            else:
                args, kwargs = self._node_arguments(node, values)
                out = node.layer(*args, **kwargs)
            if type(out) is np.ndarray and len(node.output_tensors) == 1:
                values[id(node.output_tensors[0])] = out
            else:
                for t, v in zip(node.output_tensors, tree.flatten(out)):
                    values[id(t)] = v
            for tid in release:
                del values[tid]
        outputs = tree.pack_sequence_as(self._outputs_struct,
                                        [values[id(t)] for t in self.outputs])
        if not masks:
            return outputs, None
        return outputs, tree.pack_sequence_as(self._outputs_struct,
                                              [masks.get(id(t)) for t in self.outputs])

    @staticmethod
    def _node_arguments(node, values):
        """`(args, kwargs)` of a node's call, graph tensors replaced by their values."""
        args = tree.map_structure(lambda a: _lookup(values, a), list(node.call_args))
        return args, tree.map_structure(lambda a: _lookup(values, a), node.call_kwargs)

    def compute_mask(self, inputs, mask=None):
        """The output masks for `inputs` (runs the graph; None if it has no masks)."""
        if mask is None and not self._has_masks:
            return None
        return self._run_graph(inputs, None, mask)[1]

    def _call_with_mask(self, args, kwargs, mask):
        if mask is None and kwargs.get("mask") is None and not self._has_masks:
            return self(*args, **kwargs), None
        if kwargs.get("mask") is None:
            kwargs = dict(kwargs, mask=mask)
        return self._call_with_context(args, kwargs, call=self._run_graph)

    def _adjust_input_rank(self, spec, x):
        """Adds or removes a trailing axis of size 1, as Keras 3 does, with a warning
        (once per input): `(N, 28, 28)` feeds `Input(shape=(28, 28, 1))`."""
        expected, rank = spec.shape, len(x.shape)
        if rank == len(expected) - 1 and expected[-1] == 1:
            adjusted, how = ops.expand_dims(x, -1), "added"
        elif rank == len(expected) + 1 and x.shape[-1] == 1:
            adjusted, how = ops.squeeze(x, -1), "removed"
        else:
            return x
        name = spec._keras_history.layer.name
        warned = self.__dict__.setdefault("_rank_warned", set())
        if name not in warned:
            warned.add(name)
            warnings.warn(
                f"Input '{name}' of model '{self.name}' expects shape {expected}; the data of "
                f"shape {tuple(x.shape)} had a trailing axis of size 1 {how} to fit.",
                stacklevel=2)
        return adjusted

    def _conform_input(self, spec, x):
        """Checks a model input against its `Input` and casts floats to its dtype."""
        if isinstance(x, KerasTensor):
            return x
        if not hasattr(x, "shape"):
            x = np.asarray(x)
        x = self._adjust_input_rank(spec, x)
        shape = tuple(x.shape)
        expected = spec.shape
        if len(shape) != len(expected) or any(
                e is not None and s is not None and e != s for e, s in zip(expected, shape)):
            name = spec._keras_history.layer.name
            raise ValueError(
                f"Input '{name}' of model '{self.name}' expects shape {expected}, but received "
                f"an input of shape {(None,) + shape[1:] if shape else shape}. "
                f"Received: input shape {shape}"
            )
        if isinstance(x, np.ndarray) and x.dtype != spec.dtype and (
                np.issubdtype(spec.dtype, np.floating)):
            x = x.astype(spec.dtype)
        return x

    @property
    def input(self):
        """The model's symbolic inputs, as given to `Model(inputs, ...)` (Keras 3)."""
        return self._inputs_struct

    @property
    def output(self):
        """The model's symbolic outputs, as given to `Model(..., outputs)` (Keras 3)."""
        return self._outputs_struct

    @property
    def input_shape(self):
        return tree.map_structure(lambda t: t.shape, self._inputs_struct)

    @property
    def output_shape(self):
        return tree.map_structure(lambda t: t.shape, self._outputs_struct)

    def compute_output_spec(self, inputs, training=None, mask=None):
        return self.call(inputs, training=training, mask=mask)

    def get_config(self):
        return functional_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return functional_from_config(Functional, config, custom_objects)


Model._functional_class = Functional  # what `Model(inputs, outputs)` builds


def _keras_layer_order(output_nodes, input_layers):
    """`model.layers` in Keras's order, which topological weight loading depends on.

    Keras sorts layers by depth (the longest path to an output, deepest
    first) and breaks ties by the order a depth-first walk from the outputs
    first reaches them. Inputs unconnected to any output come last.
    """
    first_seen, finished, post_order = {}, set(), []
    for start in output_nodes:
        if start in finished:
            continue
        first_seen.setdefault(id(start.layer), len(first_seen))
        stack, in_progress = [(start, iter(start.parent_nodes))], {start}
        while stack:
            node, parents = stack[-1]
            for parent in parents:
                if parent not in finished and parent not in in_progress:
                    first_seen.setdefault(id(parent.layer), len(first_seen))
                    stack.append((parent, iter(parent.parent_nodes)))
                    in_progress.add(parent)
                    break
            else:
                stack.pop()
                in_progress.discard(node)
                finished.add(node)
                post_order.append(node)
    node_depth, layer_depth, layers = {}, {}, {}
    for node in reversed(post_order):
        depth = max(node_depth.setdefault(node, 0), layer_depth.get(id(node.layer), 0))
        layer_depth[id(node.layer)] = depth
        layers[id(node.layer)] = node.layer
        for parent in node.parent_nodes:
            node_depth[parent] = max(depth + 1, node_depth.get(parent, 0))
    for layer in input_layers:
        if id(layer) not in layers:
            layers[id(layer)] = layer
            layer_depth[id(layer)] = -1
            first_seen[id(layer)] = len(first_seen)
    return sorted(layers.values(), key=lambda l: (-layer_depth[id(l)], first_seen[id(l)]))


def _lookup(values, a):
    return values[id(a)] if isinstance(a, KerasTensor) else a


def _creation_order(node):
    return node.index


def _sorted_if_dict(structure):
    """A dict of inputs/outputs in key order: Keras 3 flattens dicts sorted by key, which
    fixes `model.outputs`, `output_names` and so the layer order its files rely on."""
    if isinstance(structure, dict):
        return {key: structure[key] for key in sorted(structure)}
    return structure
