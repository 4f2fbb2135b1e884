"""Scenarios of Keras 3's graph API, written once for `keras` and for `hikeras`.

Each scenario takes the framework module `k` and returns plain JSON values.
`keras_graph_api.py` runs them with real Keras and records the answers in
`keras_graph_api.json`; `test_graph_api_keras.py` runs them with hikeras and
compares. Only names the two share are used.
"""

import numpy as np


def _np(k, x):
    return np.asarray(k.ops.convert_to_numpy(x)).tolist()


def name_scope_paths(k):
    with k.name_scope("outer"):
        v = k.Variable(np.ones(2, "float32"), name="v")
        with k.name_scope("inner"):
            w = k.Variable(np.ones(2, "float32"), name="w")
        built = k.layers.Dense(2, name="d")
        built.build((None, 3))
    called = k.layers.Dense(2, name="d3")
    with k.name_scope("s"):
        called(np.ones((1, 3), "float32"))
    outside = k.Variable(np.ones(2, "float32"), name="plain")
    return {"v": v.path, "w": w.path, "built": [x.path for x in built.weights],
            "called": [x.path for x in called.weights], "outside": outside.path,
            "layer_name": built.name}


def stateless_reads_and_writes(k):
    v = k.Variable(np.array([1.0, 2.0], "float32"), name="a")
    u = k.Variable(np.array([5.0], "float32"), name="u")
    with k.StatelessScope(state_mapping=[(v, np.array([10.0, 20.0], "float32"))]) as scope:
        mapped = _np(k, v.value)
        v.assign(np.array([3.0, 4.0], "float32"))
        u.assign_add(np.array([2.0], "float32"))
        after_assign = [_np(k, v.value), _np(k, u.value)]
    return {"mapped": mapped, "after_assign": after_assign,
            "outside": [_np(k, v.value), _np(k, u.value)],
            "current": [_np(k, scope.get_current_value(v)),
                        _np(k, scope.get_current_value(u))]}


def stateless_collected_losses(k):
    class Penalty(k.layers.Layer):
        def call(self, x):
            self.add_loss(k.ops.sum(x))
            return x

    with k.StatelessScope(collect_losses=True) as scope:
        Penalty()(np.full((2, 2), 0.5, "float32"))
    return {"losses": [float(_np(k, x)) for x in scope.losses]}


def _dense(k, units, kernel, bias, name):
    layer = k.layers.Dense(units, name=name)
    layer.build((None, np.shape(kernel)[0]))
    layer.set_weights([np.asarray(kernel, "float32"), np.asarray(bias, "float32")])
    return layer


def function_on_nested_inputs(k):
    class ScaledSum(k.Operation):
        def call(self, x, y):
            return k.ops.add(k.ops.multiply(x, 2.0), y)

    a, b = k.Input((3,), name="a"), k.Input((3,), name="b")
    dense = _dense(k, 2, [[1, 0], [0, 1], [1, 1]], [0.5, -0.5], "proj")
    mixed = ScaledSum()(a, b)
    projected = dense(mixed)
    fn = k.Function({"b": b, "a": a}, {"proj": projected, "mixed": mixed})
    x = {"a": np.array([[1.0, 2.0, 3.0]], "float32"), "b": np.array([[0.5, 0.0, -1.0]], "float32")}
    out = fn(x)
    spec = fn({"a": k.KerasTensor((None, 3)), "b": k.KerasTensor((None, 3))})
    tail = k.Function(mixed, projected)
    return {"outputs": {key: _np(k, value) for key, value in out.items()},
            "spec_shapes": {key: list(value.shape) for key, value in spec.items()},
            "inputs": len(fn.inputs), "outputs_count": len(fn.outputs),
            "operations": [type(o).__name__ for o in fn.operations],
            "from_intermediate": _np(k, tail(np.array([[1.0, 1.0, 1.0]], "float32")))}


def operation_default_spec(k):
    class RowSum(k.Operation):
        def call(self, x):
            return k.ops.sum(x, axis=-1)

    op = RowSum()
    spec = op(k.Input((4, 3)))
    return {"shape": list(spec.shape), "eager": _np(k, op(np.ones((2, 3), "float32"))),
            "name": op.name.rstrip("_0123456789"),
            "layer_is_operation": isinstance(k.layers.Dense(1), k.Operation)}


def stateless_call_batch_norm(k):
    layer = k.layers.BatchNormalization(momentum=0.5)
    layer.build((None, 2))
    trainable = [np.array([2.0, 1.0], "float32"), np.array([0.0, 1.0], "float32")]
    non_trainable = [np.array([1.0, -1.0], "float32"), np.array([4.0, 2.0], "float32")]
    x = np.array([[1.0, 2.0], [3.0, 6.0]], "float32")
    out, new_non_trainable = layer.stateless_call(trainable, non_trainable, x, training=True)
    inference, _ = layer.stateless_call(trainable, non_trainable, x, training=False)
    return {"training": _np(k, out), "inference": _np(k, inference),
            "moving": [_np(k, v) for v in new_non_trainable],
            "untouched": [_np(k, v) for v in layer.weights]}


SCENARIOS = {f.__name__: f for f in (
    name_scope_paths, stateless_reads_and_writes, stateless_collected_losses,
    function_on_nested_inputs, operation_default_spec, stateless_call_batch_norm)}
