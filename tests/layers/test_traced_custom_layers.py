"""Custom layers whose `call` computes with shapes build functional models.

A layer without `compute_output_shape` gets its output spec by tracing `call`
on symbolic inputs: `ops.shape(x)` then gives `SymbolicDim`s for unknown
dimensions, which Python arithmetic, `ops.reshape`, slicing and the creation
ops accept. The models are then run on data of several sizes and compared
with the same computation written in numpy.
"""

import sys

import numpy as np
import pytest

import hikeras
from hikeras import layers, ops
from hikeras.backend import SymbolicDim


class SplitHeads(layers.Layer):
    """`(batch, steps, heads * depth)` -> `(batch, heads, steps, depth)`, through shapes."""

    def __init__(self, heads, **kwargs):
        super().__init__(**kwargs)
        self.heads = heads

    def call(self, x):
        batch, steps = ops.shape(x)[0], ops.shape(x)[1]
        depth = ops.shape(x)[2] // self.heads
        x = ops.reshape(x, (batch, steps, self.heads, depth))
        return ops.transpose(x, (0, 2, 1, 3))


class Patches(layers.Layer):
    """Non-overlapping patches of length 2 along time, flattened with -1."""

    def call(self, x):
        features = ops.shape(x)[-1]
        return ops.reshape(x, (-1, ops.shape(x)[1] // 2, 2 * features))


class DropLast(layers.Layer):
    """Slices with bounds computed from the unknown length."""

    def call(self, x):
        steps = ops.shape(x)[1]
        return x[:, : steps - 1] - x[:, 1:]


class CountDown(layers.Layer):
    """Builds a tensor from an unknown batch size with the creation ops."""

    def call(self, x):
        batch = ops.shape(x)[0]
        return ops.concatenate([x, ops.ones((batch, 1)), ops.zeros((batch, 2))], axis=-1)


class PositionEmbedding(layers.Layer):
    """Keras's token-and-position idiom: `arange` over the unknown length, then `take`."""

    def build(self, input_shape):
        self.table = self.add_weight(shape=(16, input_shape[-1]), name="table")

    def call(self, x):
        positions = ops.arange(0, ops.shape(x)[1], 1)
        return x + ops.take(self.table, positions, axis=0)


class TileBatch(layers.Layer):
    """Tiles a learned row over the unknown batch."""

    def build(self, input_shape):
        self.row = self.add_weight(shape=(1, 3), name="row")

    def call(self, x):
        return ops.concatenate([x, ops.tile(self.row, (ops.shape(x)[0], 1))], axis=-1)


def _model(layer, shape):
    inputs = hikeras.Input(shape)
    return hikeras.Model(inputs, layer(inputs))


def test_shape_arithmetic_and_reshape(rng):
    model = _model(SplitHeads(2), (None, 6))
    assert model.outputs[0].shape == (None, 2, None, 3)
    for batch, steps in ((1, 4), (3, 7)):
        x = rng.standard_normal((batch, steps, 6)).astype("float32")
        expected = x.reshape(batch, steps, 2, 3).transpose(0, 2, 1, 3)
        np.testing.assert_array_equal(model(x), expected)


def test_reshape_with_minus_one(rng):
    model = _model(Patches(), (None, 3))
    assert model.outputs[0].shape == (None, None, 6)
    x = rng.standard_normal((2, 8, 3)).astype("float32")
    np.testing.assert_array_equal(model(x), x.reshape(2, 4, 6))


def test_slicing_with_computed_bounds(rng):
    model = _model(DropLast(), (None, 2))
    assert model.outputs[0].shape == (None, None, 2)
    x = rng.standard_normal((3, 5, 2)).astype("float32")
    np.testing.assert_array_equal(model(x), x[:, :4] - x[:, 1:])


def test_creation_ops_with_an_unknown_size(rng):
    model = _model(CountDown(), (2,))
    assert model.outputs[0].shape == (None, 5)
    x = rng.standard_normal((4, 2)).astype("float32")
    expected = np.concatenate([x, np.ones((4, 1)), np.zeros((4, 2))], axis=-1)
    np.testing.assert_array_equal(model(x), expected)


def test_arange_over_an_unknown_length(rng):
    layer = PositionEmbedding()
    model = _model(layer, (None, 4))
    assert model.outputs[0].shape == (None, None, 4)
    x = rng.standard_normal((2, 5, 4)).astype("float32")
    np.testing.assert_allclose(model(x), x + layer.table.value[:5], rtol=1e-6)


def test_tile_over_an_unknown_batch(rng):
    layer = TileBatch()
    model = _model(layer, (2,))
    assert model.outputs[0].shape == (None, 5)
    x = rng.standard_normal((3, 2)).astype("float32")
    expected = np.concatenate([x, np.repeat(layer.row.value, 3, axis=0)], axis=-1)
    np.testing.assert_array_equal(model(x), expected)


def test_iterating_over_an_unknown_axis_is_an_error_not_a_hang():
    class Rows(layers.Layer):
        def call(self, x):
            return ops.stack(list(x), axis=0)

    with pytest.raises(TypeError, match=r"Cannot iterate.*Received: shape=\(None, 3\)"):
        Rows()(hikeras.Input((3,)))


def test_a_traced_layer_inside_a_sequential_block_trains(rng):
    block = hikeras.Sequential([SplitHeads(2), layers.Reshape((-1, 6)), layers.Dense(1)])
    inputs = hikeras.Input((4, 6))
    model = hikeras.Model(inputs, block(inputs))
    assert model.outputs[0].shape == (None, 4, 1)
    model.compile(optimizer="sgd", loss="mse")
    x = rng.standard_normal((8, 4, 6)).astype("float32")
    history = model.fit(x, np.zeros((8, 4, 1), "float32"), epochs=2, verbose=0)
    assert np.all(np.isfinite(history.history["loss"]))


def test_compute_output_shape_answers_when_call_cannot_be_traced():
    class Framewise(layers.Layer):
        """Loops in Python over the frames, so only data can run it."""

        def call(self, x):
            return ops.stack([x[:, i] * i for i in range(x.shape[1])], axis=1)

        def compute_output_shape(self, input_shape):
            return input_shape

    inputs = hikeras.Input((None, 3))
    outputs = Framewise()(inputs)
    assert outputs.shape == (None, None, 3)
    model = hikeras.Model(inputs, outputs)
    x = np.ones((2, 4, 3), "float32")
    np.testing.assert_array_equal(model(x), x * np.arange(4)[None, :, None])


def test_an_unknown_dimension_is_not_a_python_number():
    class Loops(layers.Layer):
        def call(self, x):
            return ops.stack([x[:, i] for i in range(ops.shape(x)[1])], axis=1)

    with pytest.raises(TypeError, match=r"unknown while the layer is traced symbolically") as info:
        Loops(name="loops")(hikeras.Input((None, 3)))
    if sys.version_info >= (3, 11):  # exception notes name the layer being traced
        assert any("layer 'loops' (Loops)" in note and "(None, None, 3)" in note
                   for note in info.value.__notes__)


def test_graph_tensors_keep_none_in_their_shape():
    inputs = hikeras.Input((None, 3))
    assert ops.shape(inputs) == (None, None, 3)


def test_symbolic_dim_arithmetic_stays_unknown():
    dim = SymbolicDim()
    for value in (dim + 1, 2 * dim, dim - dim, dim // 2, 7 % dim, -dim):
        assert isinstance(value, SymbolicDim)
    assert (dim * 1.5).shape == ()  # with a float it is an op on a 0-d symbolic tensor
    assert dim == None and dim != 3 and dim != SymbolicDim()


def test_augmentation_block_on_unknown_image_sizes(rng):
    # The report of issue 17: random layers in a Sequential block applied to `Input`.
    augment = hikeras.Sequential([layers.RandomFlip("horizontal"), layers.RandomRotation(0.1)])
    inputs = hikeras.Input((None, None, 3))
    x = augment(inputs)
    outputs = layers.GlobalAveragePooling2D()(layers.Conv2D(2, 3, padding="same")(x))
    model = hikeras.Model(inputs, outputs)
    assert augment.output_shape == (None, None, None, 3)
    images = rng.uniform(0, 1, (2, 6, 5, 3)).astype("float32")
    assert model(images).shape == (2, 2)
    # Outside training the augmentation is the identity.
    np.testing.assert_array_equal(augment(images, training=False), images)
