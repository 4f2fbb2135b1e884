"""`Operation` subclasses and `Function` graphs: eager, symbolic, in models, bad input."""

import numpy as np
import pytest

import hikeras
from hikeras import layers, ops


class Affine(hikeras.Operation):
    def __init__(self, scale=2.0, name=None):
        super().__init__(name=name)
        self.scale = scale

    def call(self, x):
        return ops.add(ops.multiply(x, self.scale), 1.0)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale}


class Split(hikeras.Operation):
    def call(self, x):
        return {"left": x[:, :1], "right": x[:, 1:]}


def test_an_operation_runs_eagerly_symbolically_and_in_a_functional_model():
    x = np.array([[1.0, 2.0]], "float32")
    np.testing.assert_allclose(Affine()(x), [[3.0, 5.0]])
    inputs = hikeras.Input((2,))
    outputs = layers.Dense(1, kernel_initializer="ones")(Affine(scale=3.0)(inputs))
    model = hikeras.Model(inputs, outputs)
    np.testing.assert_allclose(model(x), [[4.0 + 7.0]])
    spec = Affine().compute_output_spec(hikeras.backend.SymbolicTensor((None, 2)))
    assert spec.shape == (None, 2)


def test_a_model_with_an_operation_round_trips_through_its_config():
    hikeras.saving.register_keras_serializable(package="test")(Affine)
    inputs = hikeras.Input((2,))
    model = hikeras.Model(inputs, Affine(scale=0.5)(inputs))
    clone = hikeras.Model.from_config(model.get_config())
    x = np.array([[2.0, 4.0]], "float32")
    np.testing.assert_allclose(clone(x), [[2.0, 3.0]])


def test_a_function_follows_nested_structures_and_dict_outputs_of_operations():
    a = hikeras.Input((3,))
    parts = Split()(a)
    fn = hikeras.Function([a], (parts["right"], [parts["left"]]))
    right, (left,) = fn([np.array([[1.0, 2.0, 3.0]], "float32")])
    np.testing.assert_array_equal(right, [[2.0, 3.0]])
    np.testing.assert_array_equal(left, [[1.0]])
    assert [o.name for o in fn.operations] == ["input_layer", "split"]


def test_a_function_refuses_unconnected_outputs_wrong_inputs_and_non_tensors():
    a, b = hikeras.Input((2,)), hikeras.Input((2,))
    total = layers.Add()([a, b])
    with pytest.raises(ValueError, match="not connected to `inputs`"):
        hikeras.Function([a], total)
    with pytest.raises(ValueError, match="must be symbolic tensors.*Received"):
        hikeras.Function([a], np.ones(2))
    fn = hikeras.Function([a, b], total)
    with pytest.raises(ValueError, match="invalid input structure.*Received: inputs="):
        fn([np.ones((1, 2))])


def test_operation_names_and_bad_arguments():
    assert Affine().name == "affine"
    assert Affine(name="scale_up").name == "scale_up"
    with pytest.raises(ValueError, match="Received: name="):
        Affine(name="a/b")
    with pytest.raises(TypeError, match="Unrecognized keyword arguments.*Received"):
        hikeras.Operation(units=3)
    with pytest.raises(NotImplementedError, match="must implement `call`"):
        hikeras.Operation()(np.ones(2))
    assert isinstance(layers.Dense(1), hikeras.Operation)


def test_a_model_with_an_operation_exports_its_ops_to_onnx(tmp_path):
    pytest.importorskip("onnx")
    inputs = hikeras.Input((2,))
    model = hikeras.Model(inputs, Affine(scale=3.0)(inputs))
    path = str(tmp_path / "affine.onnx")
    model.export(path, format="onnx")
    import onnx

    op_types = [node.op_type for node in onnx.load(path).graph.node]
    assert "Mul" in op_types and "Add" in op_types
