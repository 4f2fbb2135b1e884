"""Merging layers: elementwise merges, Concatenate, Dot and the functional forms."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.multi_input_layer_test import call_with_list, run_multi_input_layer_test


@pytest.mark.parametrize("layer_cls", [layers.Add, layers.Multiply, layers.Average,
                                       layers.Maximum, layers.Minimum])
def test_elementwise_merge_harness(layer_cls, rng):
    run_multi_input_layer_test(layer_cls, {}, _xs(rng, (2, 4, 5), (2, 4, 5), (2, 4, 5)),
                               call=call_with_list, expected_output_shape=(2, 4, 5),
                               expected_num_trainable_weights=0)


@pytest.mark.parametrize("layer_cls, kwargs, shapes, expected", [
    (layers.Subtract, {}, [(3, 4)] * 2, (3, 4)),
    (layers.Concatenate, {}, [(3, 4, 5)] * 2, (3, 4, 10)),
    (layers.Concatenate, {"axis": 1}, [(3, 4, 5)] * 3, (3, 12, 5)),
    (layers.Dot, {"axes": 1}, [(3, 4)] * 2, (3, 1)),
    (layers.Dot, {"axes": [2, 1]}, [(3, 4, 4)] * 2, (3, 4, 4)),
    (layers.Dot, {"axes": -1, "normalize": True}, [(3, 4, 5)] * 2, (3, 4, 4)),
])
def test_other_merge_harness(layer_cls, kwargs, shapes, expected, rng):
    run_multi_input_layer_test(layer_cls, kwargs, _xs(rng, *shapes), call=call_with_list,
                               expected_output_shape=expected, expected_num_trainable_weights=0)


def _xs(rng, *shapes):
    return [rng.normal(size=s).astype("float32") for s in shapes]


@pytest.mark.parametrize("layer_cls, reference", [
    (layers.Add, lambda a, b, c: a + b + c),
    (layers.Multiply, lambda a, b, c: a * b * c),
    (layers.Average, lambda a, b, c: (a + b + c) / 3),
    (layers.Maximum, lambda a, b, c: np.maximum(np.maximum(a, b), c)),
    (layers.Minimum, lambda a, b, c: np.minimum(np.minimum(a, b), c)),
])
def test_elementwise_values_with_keras_broadcasting(layer_cls, reference, rng):
    # (N, 4) lines up with the last axis of (N, 3, 4): it gains an axis after the batch.
    a, b, c = _xs(rng, (2, 3, 4), (2, 4), (2, 1, 4))
    out = layer_cls()([a, b, c])
    np.testing.assert_allclose(out, reference(a, b[:, None, :], c), rtol=1e-6)
    assert out.shape == (2, 3, 4)


def test_subtract_needs_exactly_two_inputs(rng):
    a, b = _xs(rng, (2, 3), (2, 3))
    np.testing.assert_allclose(layers.Subtract()([a, b]), a - b)
    with pytest.raises(ValueError, match=r"'sub'.*exactly 2 inputs"):
        layers.Subtract(name="sub")([a, b, a])


def test_concatenate_and_dot_values(rng):
    a, b = _xs(rng, (2, 3, 4), (2, 3, 2))
    np.testing.assert_array_equal(layers.Concatenate()([a, b]), np.concatenate([a, b], -1))
    x, y = _xs(rng, (2, 3, 4), (2, 5, 3))
    out = layers.Dot(axes=(1, 2))([x, y])
    expected = np.stack([x[n].T @ y[n].T for n in range(2)])  # sum_k x[n,k,i] y[n,j,k]
    np.testing.assert_allclose(out, expected, rtol=1e-5)
    assert out.shape == (2, 4, 5)


def test_dot_normalize_gives_cosine_similarity(rng):
    x, y = _xs(rng, (4, 6), (4, 6))
    out = layers.Dot(axes=-1, normalize=True)([x, y])
    cosine = np.sum(x * y, 1) / (np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1))
    np.testing.assert_allclose(out[:, 0], cosine, rtol=1e-5)


@pytest.mark.parametrize("layer_cls, shapes", [
    (layers.Add, [(2, 3), (2, 4)]),
    (layers.Multiply, [(2, 3, 4), (2, 5, 4)]),
    (layers.Maximum, [(2, 3), (5, 3)]),
    (layers.Concatenate, [(2, 3, 4), (2, 5, 6)]),
    (layers.Concatenate, [(2, 3), (2, 3, 1)]),
    (layers.Dot, [(2, 3), (2, 4)]),
])
def test_mismatched_shapes_name_the_layer_and_every_shape(layer_cls, shapes):
    inputs = [np.zeros(s, "float32") for s in shapes]
    kwargs = {"axes": 1} if layer_cls is layers.Dot else {}
    with pytest.raises(ValueError) as info:
        layer_cls(name="merger", **kwargs)(inputs)
    message = str(info.value)
    assert "'merger'" in message and layer_cls.__name__ in message
    for shape in shapes:
        assert str((None,) + shape[1:]) in message or str(shape) in message


def test_mismatch_in_a_functional_model_is_reported_when_building_the_graph():
    a, b = hikeras.Input((3,)), hikeras.Input((4,))
    with pytest.raises(ValueError, match=r"one rank.*\(None, 3\), \(None, 3, 1\)"):
        layers.concatenate([a, hikeras.Input((3, 1))])
    with pytest.raises(ValueError, match=r"\(None, 3\), \(None, 4\)"):
        layers.add([a, b])


def test_merge_layers_reject_a_single_tensor():
    with pytest.raises(ValueError, match="list"):
        layers.Add()(np.zeros((2, 3), "float32"))


def test_functional_forms_build_a_trainable_model(rng):
    a, b = hikeras.Input((4,)), hikeras.Input((4,))
    da, db = layers.Dense(4)(a), layers.Dense(4)(b)
    merged = layers.concatenate([layers.add([da, db]), layers.subtract([da, db]),
                                 layers.multiply([da, db]), layers.average([da, db]),
                                 layers.maximum([da, db]), layers.minimum([da, db]),
                                 layers.dot([da, db], axes=1)])
    assert merged.shape == (None, 25)
    model = hikeras.Model([a, b], layers.Dense(1)(merged))
    x = _xs(rng, (8, 4), (8, 4))
    model.compile(optimizer="sgd", loss="mse")
    before = model.get_weights()
    model.fit(x, np.ones((8, 1), "float32"), epochs=1, verbose=0)
    assert not all(np.array_equal(p, q) for p, q in zip(before, model.get_weights()))
    restored = hikeras.models.Functional.from_config(model.get_config())
    restored.set_weights(model.get_weights())
    np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0),
                               rtol=1e-6)


def test_configs_round_trip():
    for layer in (layers.Concatenate(axis=1), layers.Dot(axes=[1, 2], normalize=True),
                  layers.Add(name="a")):
        clone = layers.deserialize(layers.serialize(layer))
        assert type(clone) is type(layer) and clone.get_config() == layer.get_config()


