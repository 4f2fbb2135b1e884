"""Masking, and mask propagation through models into losses and metrics."""

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.helpers.layer_test import run_layer_test

ids = np.array([[3, 4, 5, 0, 0], [6, 7, 8, 9, 1], [2, 0, 0, 0, 0]])
lengths = [3, 5, 1]


def test_masking_layer(rng):
    run_layer_test(layers.Masking, {"mask_value": 0.0}, input_shape=(2, 5, 3),
                   expected_output_shape=(2, 5, 3), expected_num_trainable_weights=0)
    x = rng.standard_normal((2, 4, 3)).astype("float32")
    x[0, 1] = 0.0
    x[1, 3] = -1.0
    layer = layers.Masking(mask_value=-1.0)
    np.testing.assert_array_equal(layer.compute_mask(x), [[True, True, True, True],
                                                         [True, True, True, False]])
    out = layer(x)
    np.testing.assert_array_equal(out[1, 3], 0.0)
    np.testing.assert_array_equal(out[0], x[0])    # a step is masked only if all features match


def _tagger(seed=0):
    hikeras.utils.set_random_seed(seed)
    inputs = hikeras.Input((None,), dtype="int32")
    x = layers.Embedding(12, 4, mask_zero=True)(inputs)
    x = layers.LSTM(6, return_sequences=True)(x)
    outputs = layers.TimeDistributed(layers.Dense(3))(x)
    return hikeras.Model(inputs, outputs)


def _log_softmax(z):
    z = z - z.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def test_padded_batch_gives_the_loss_of_the_unpadded_sequences(rng):
    model = _tagger()
    model.compile(loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer="sgd", metrics=["accuracy"])
    targets = rng.integers(0, 3, ids.shape)
    losses, hits = [], []
    for row, n in zip(range(3), lengths):
        logits = np.asarray(model(ids[row:row + 1, :n]))[0]
        losses.append(-_log_softmax(logits)[np.arange(n), targets[row, :n]])
        hits.append(logits.argmax(-1) == targets[row, :n])
    loss, accuracy = model.evaluate(ids, targets, batch_size=3, verbose=0)
    np.testing.assert_allclose(loss, np.concatenate(losses).mean(), rtol=1e-5)
    np.testing.assert_allclose(accuracy, np.concatenate(hits).mean(), rtol=1e-6)


def test_masked_targets_do_not_matter_and_sample_weights_apply(rng):
    model = _tagger()
    model.compile(loss=hikeras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer="sgd")
    targets = rng.integers(0, 3, ids.shape)
    other = np.where(ids == 0, (targets + 1) % 3, targets)
    assert model.evaluate(ids, targets, verbose=0) == model.evaluate(ids, other, verbose=0)
    weights = np.array([1.0, 0.0, 2.0])
    logits = np.asarray(model(ids))
    per_step = -np.take_along_axis(_log_softmax(logits), targets[..., None], -1)[..., 0]
    valid = ids != 0
    expected = (per_step * weights[:, None])[valid].sum() / valid.sum()
    got = model.evaluate(ids, targets, sample_weight=weights, verbose=0)
    np.testing.assert_allclose(got, expected, rtol=1e-5)


@pytest.mark.parametrize("padding", ["post", "pre"])
def test_masked_lstm_matches_the_unpadded_sequences(padding, rng):
    x = rng.standard_normal((2, 6, 3)).astype("float32")
    lengths_x = [4, 6]
    padded = x.copy()
    for row, n in enumerate(lengths_x):
        if padding == "post":
            padded[row, n:] = 0.0
        else:
            padded[row] = np.concatenate([np.zeros((6 - n, 3)), x[row, :n]])
    lstm = layers.LSTM(5)
    model = hikeras.Sequential([hikeras.Input((6, 3)), layers.Masking(), lstm])
    out = model(padded)
    for row, n in enumerate(lengths_x):
        np.testing.assert_allclose(out[row], lstm(x[row:row + 1, :n])[0], rtol=1e-5, atol=1e-6)


def test_models_track_masks_only_where_the_graph_has_them():
    plain = hikeras.Sequential([hikeras.Input((5,), dtype="int32"), layers.Embedding(12, 3),
                                layers.LSTM(2)])
    assert not plain._has_masks
    masked = _tagger()
    assert masked._has_masks and masked.outputs[0]._keras_mask is not None
    np.testing.assert_array_equal(masked.compute_mask(ids), ids != 0)
    last = hikeras.Sequential([hikeras.Input((5,), dtype="int32"),
                               layers.Embedding(12, 3, mask_zero=True), layers.LSTM(2)])
    assert last.compute_mask(ids) is None         # return_sequences=False ends the mask


def test_a_layer_without_masking_support_stops_the_mask():
    class Scale(layers.Layer):
        def call(self, inputs):
            return inputs * 2.0

    inputs = hikeras.Input((5,), dtype="int32")
    embedded = layers.Embedding(12, 3, mask_zero=True)(inputs)
    assert Scale()(embedded)._keras_mask is None
    assert layers.LSTM(2, return_sequences=True)(Scale()(embedded))._keras_mask is None


def test_call_receives_the_mask_and_compute_mask_overrides_support_masking():
    seen = []

    class Recorder(layers.Layer):
        def call(self, inputs, mask=None):
            seen.append(None if mask is None else np.asarray(mask).copy())
            return inputs

        def compute_mask(self, inputs, mask=None):
            return mask

    model = hikeras.Sequential([hikeras.Input((5,), dtype="int32"),
                                layers.Embedding(12, 3, mask_zero=True), Recorder()])
    assert model.layers[-1].supports_masking
    seen.clear()
    model(ids)
    np.testing.assert_array_equal(seen[-1], ids != 0)


def test_masks_cross_into_a_nested_model():
    inner_in = hikeras.Input((None, 3))
    inner = hikeras.Model(inner_in, layers.LSTM(4, return_sequences=True)(inner_in))
    outer_in = hikeras.Input((None,), dtype="int32")
    embedded = layers.Embedding(12, 3, mask_zero=True)(outer_in)
    out = layers.LSTM(2)(inner(embedded))
    model = hikeras.Model(outer_in, out)
    assert inner(embedded)._keras_mask is not None
    got = model(ids)
    for row, n in zip(range(3), lengths):
        np.testing.assert_allclose(got[row], model(ids[row:row + 1, :n])[0], rtol=1e-5,
                                   atol=1e-6)


def test_direct_layer_calls_take_an_explicit_mask():
    embedding = layers.Embedding(12, 3, mask_zero=True)
    lstm = layers.LSTM(4)
    vectors = embedding(ids)
    explicit = lstm(vectors, mask=embedding.compute_mask(ids))
    unmasked = lstm(vectors)
    np.testing.assert_allclose(explicit[0], lstm(vectors[:1, :3])[0], rtol=1e-5, atol=1e-6)
    assert not np.allclose(explicit[0], unmasked[0])


def test_mask_passes_through_dense_dropout_and_normalization():
    import numpy as np

    import hikeras
    from hikeras import layers

    ids = np.array([[3, 1, 0, 0], [2, 2, 2, 0]])
    inputs = hikeras.Input((4,), dtype="int32")
    x = layers.Embedding(5, 3, mask_zero=True)(inputs)
    x = layers.Dropout(0.1)(x)
    x = layers.Dense(3, activation="relu")(x)
    x = layers.LayerNormalization()(x)
    x = layers.BatchNormalization()(x)
    outputs = layers.LSTM(2)(x)
    model = hikeras.Model(inputs, outputs)
    assert x._keras_mask is not None
    # Padding does not change the LSTM's final output: the mask reached it.
    padded = np.array([[3, 1, 0, 0, 0, 0]])
    longer = hikeras.Input((6,), dtype="int32")
    y = longer
    for layer in model.layers[1:]:
        y = layer(y)
    np.testing.assert_allclose(hikeras.Model(longer, y)(padded), model(ids[:1]), rtol=1e-5)


def _two_masked_inputs():
    a, b = hikeras.Input((4,), dtype="int32"), hikeras.Input((4,), dtype="int32")
    return (a, b), (layers.Embedding(10, 3, mask_zero=True)(a),
                    layers.Embedding(10, 3, mask_zero=True)(b))


XA = np.array([[1, 2, 0, 0], [3, 0, 0, 0]])
XB = np.array([[1, 2, 3, 0], [0, 0, 0, 0]])
MASK_A, MASK_B = XA != 0, XB != 0


@pytest.mark.parametrize("merge", [layers.Add, layers.Subtract, layers.Multiply,
                                   layers.Average, layers.Maximum, layers.Minimum])
def test_elementwise_merges_or_their_masks_as_keras_3(merge):
    inputs, (ea, eb) = _two_masked_inputs()
    merged = merge()([ea, eb])
    assert merged._keras_mask.shape == (None, 4)
    mask = hikeras.Model(list(inputs), merged).compute_mask([XA, XB])
    np.testing.assert_array_equal(mask, MASK_A | MASK_B)
    unmasked = hikeras.Input((4, 3))
    assert merge()([ea, unmasked])._keras_mask is None  # any input without a mask: none


def test_concatenate_joins_masks_and_counts_unmasked_inputs_as_true():
    inputs, (ea, eb) = _two_masked_inputs()
    along_time = hikeras.Model(list(inputs), layers.Concatenate(axis=1)([ea, eb]))
    np.testing.assert_array_equal(along_time.compute_mask([XA, XB]),
                                  np.concatenate([MASK_A, MASK_B], axis=1))
    # Features: one entry per step, true where any part is (an unmasked part always is).
    features = hikeras.Input((4, 2))
    joined = layers.Concatenate()([ea, features])
    model = hikeras.Model([inputs[0], features], joined)
    np.testing.assert_array_equal(model.compute_mask([XA, np.zeros((2, 4, 2))]),
                                  np.ones((2, 4), bool))
    joined = layers.Concatenate()([ea, eb])
    np.testing.assert_array_equal(hikeras.Model(list(inputs), joined).compute_mask([XA, XB]),
                                  MASK_A | MASK_B)


def test_dot_ends_masks_and_a_wrong_mask_list_is_refused():
    _, (ea, eb) = _two_masked_inputs()
    assert layers.Dot(axes=2)([ea, eb])._keras_mask is None
    with pytest.raises(ValueError, match="one mask .* per input"):
        layers.Add().compute_mask([np.ones((2, 4, 3))] * 2, mask=[MASK_A])


def test_masked_lstms_merged_then_fed_to_an_lstm_ignore_padding():
    """Two masked branches concatenated keep the padding invisible downstream."""
    hikeras.utils.set_random_seed(0)
    tokens = hikeras.Input((None,), dtype="int32")
    embedded = layers.Embedding(10, 3, mask_zero=True)(tokens)
    out = layers.LSTM(2)(layers.Concatenate()([
        layers.LSTM(3, return_sequences=True)(embedded),
        layers.LSTM(4, return_sequences=True)(embedded)]))
    model = hikeras.Model(tokens, out)
    padded = np.array([[4, 5, 0, 0]])
    np.testing.assert_allclose(model.predict(padded, verbose=0),
                               model.predict(np.array([[4, 5, 0, 0]])[:, :2], verbose=0),
                               rtol=1e-6)


@pytest.mark.parametrize("merge, expected", [(layers.Maximum, [1.0, 2.0, 7.0]),
                                             (layers.Minimum, [1.0, 2.0, -4.0])])
def test_maximum_and_minimum_ignore_masked_entries_as_keras_3(merge, expected):
    a = np.array([1.0, 5.0, 7.0]).reshape(1, 3, 1)
    b = np.array([3.0, 2.0, -4.0]).reshape(1, 3, 1)
    masks = [np.array([[True, False, True]]), np.array([[False, True, True]])]
    # Step 0 has only a, step 1 only b; step 2 has both.
    np.testing.assert_allclose(merge()([a, b], mask=masks).ravel(), expected)
    unmasked = np.maximum(a, b) if merge is layers.Maximum else np.minimum(a, b)
    np.testing.assert_allclose(merge()([a, b]), unmasked)
    # An unmasked input takes part everywhere; a's masked step 1 takes b's value.
    np.testing.assert_allclose(merge()([a, b], mask=[masks[0], None]).ravel(),
                               [3.0, 2.0, 7.0] if merge is layers.Maximum else [1.0, 2.0, -4.0])
