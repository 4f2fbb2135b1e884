"""Attention layers called on several graph tensors: functional models and their configs."""

import json

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.models import Functional


def data(rng, *shape):
    return rng.standard_normal(shape).astype("float32")


def rebuilt(model):
    """The model rebuilt from its JSON config, with the original's weights."""
    clone = Functional.from_config(json.loads(json.dumps(model.get_config())))
    clone.set_weights(model.get_weights())
    return clone


def test_cross_attention_model_trains_and_survives_a_config_round_trip(rng):
    query, value = hikeras.Input((4, 6)), hikeras.Input((5, 6))
    attended = layers.MultiHeadAttention(num_heads=2, key_dim=3)(query, value)
    output = layers.Dense(1)(attended)
    model = hikeras.Model([query, value], output)
    x = [data(rng, 8, 4, 6), data(rng, 8, 5, 6)]
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(x, data(rng, 8, 4, 1), epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    clone = rebuilt(model)
    np.testing.assert_allclose(clone.predict(x, verbose=0), model.predict(x, verbose=0),
                               rtol=1e-6, atol=1e-6)


def test_config_spells_extra_tensor_arguments_as_tf_keras_does(rng):
    query, value = hikeras.Input((4, 6)), hikeras.Input((5, 6))
    key, mask = hikeras.Input((5, 6)), hikeras.Input((4, 5))
    out = layers.MultiHeadAttention(num_heads=2, key_dim=3, name="mha")(
        query, value, key=key, attention_mask=mask, use_causal_mask=True)
    model = hikeras.Model([query, value, key, mask], out)
    config = model.get_config()
    (node,) = [entry for entry in config["layers"] if entry["name"] == "mha"][0]["inbound_nodes"]
    names = [t[0] for t in config["input_layers"]]
    assert node == [[names[0], 0, 0, {
        "value": [names[1], 0, 0], "key": [names[2], 0, 0],
        "attention_mask": [names[3], 0, 0], "use_causal_mask": True}]]
    x = [data(rng, 3, 4, 6), data(rng, 3, 5, 6), data(rng, 3, 5, 6),
         (rng.random((3, 4, 5)) > 0.3) * 1.0]
    np.testing.assert_allclose(rebuilt(model).predict(x, verbose=0),
                               model.predict(x, verbose=0), rtol=1e-6, atol=1e-6)


def test_self_attention_on_one_tensor(rng):
    tokens = hikeras.Input((5, 4))
    out = layers.MultiHeadAttention(num_heads=2, key_dim=2)(tokens, tokens)
    model = hikeras.Model(tokens, out)
    x = data(rng, 2, 5, 4)
    np.testing.assert_allclose(model.predict(x, verbose=0), model.layers[1](x, x), rtol=1e-6)
    np.testing.assert_allclose(rebuilt(model).predict(x, verbose=0),
                               model.predict(x, verbose=0), rtol=1e-6, atol=1e-6)


def test_reads_a_tf_keras_style_config(rng):
    config = {
        "name": "model", "trainable": True,
        "layers": [
            {"class_name": "InputLayer", "name": "q",
             "config": {"batch_input_shape": [None, 3, 4], "dtype": "float32", "name": "q"},
             "inbound_nodes": []},
            {"class_name": "InputLayer", "name": "v",
             "config": {"batch_input_shape": [None, 6, 4], "dtype": "float32", "name": "v"},
             "inbound_nodes": []},
            {"class_name": "MultiHeadAttention", "name": "mha",
             "config": {"name": "mha", "trainable": True, "dtype": "float32", "num_heads": 2,
                        "key_dim": 5, "value_dim": 5, "dropout": 0.0, "use_bias": True,
                        "output_shape": None, "attention_axes": [1]},
             "inbound_nodes": [[["q", 0, 0, {"value": ["v", 0, 0]}]]]},
        ],
        "input_layers": [["q", 0, 0], ["v", 0, 0]],
        "output_layers": [["mha", 0, 0]],
    }
    model = Functional.from_config(config)
    assert [w.shape for w in model.weights][:2] == [(4, 2, 5), (2, 5)]
    assert model.predict([data(rng, 2, 3, 4), data(rng, 2, 6, 4)], verbose=0).shape == (2, 3, 4)


def test_attention_with_graph_masks(rng):
    query, value = hikeras.Input((3, 4)), hikeras.Input((5, 4))
    query_mask, value_mask = hikeras.Input((3,), dtype="bool"), hikeras.Input((5,), dtype="bool")
    out, scores = layers.Attention(use_scale=True)(
        [query, value], mask=[query_mask, value_mask], return_attention_scores=True)
    model = hikeras.Model([query, value, query_mask, value_mask], [out, scores])
    value_keep = np.array([[1, 1, 0, 1, 0], [0, 1, 1, 1, 1]], bool)
    x = [data(rng, 2, 3, 4), data(rng, 2, 5, 4), np.array([[1, 1, 0], [1, 1, 1]], bool), value_keep]
    out_value, scores_value = model.predict(x, verbose=0)
    assert np.all(out_value[0, 2] == 0)  # masked query
    assert np.all(np.swapaxes(scores_value, 1, 2)[~value_keep] == 0)  # masked values
    for a, b in zip(rebuilt(model).predict(x, verbose=0), (out_value, scores_value)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


def _padded_tokens(rng):
    tokens = rng.integers(1, 9, size=(3, 6))
    tokens[0, 4:] = 0
    tokens[2, 2:] = 0
    return tokens


def test_self_attention_uses_the_mask_an_embedding_carries(rng):
    tokens = hikeras.Input((6,), dtype="int32")
    embedded = layers.Embedding(9, 4, mask_zero=True)(tokens)
    attended = layers.MultiHeadAttention(num_heads=2, key_dim=2)(embedded, embedded)
    assert attended._keras_mask is not None  # the query's mask is passed on
    model = hikeras.Model(tokens, attended)
    x = _padded_tokens(rng)
    keep = x != 0
    embedding, mha = model.layers[1], model.layers[2]
    vectors = embedding(x)
    expected = mha(vectors, vectors, query_mask=keep, value_mask=keep)
    unmasked = mha(vectors, vectors)
    got = model.predict(x, verbose=0)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    assert not np.allclose(got[0, :4], unmasked[0, :4])


def test_attention_uses_the_masks_of_query_and_value(rng):
    query_tokens, value_tokens = hikeras.Input((6,), dtype="int32"), hikeras.Input((6,),
                                                                                 dtype="int32")
    embedding = layers.Embedding(9, 4, mask_zero=True)
    out = layers.Attention()([embedding(query_tokens), embedding(value_tokens)])
    assert out._keras_mask is not None
    model = hikeras.Model([query_tokens, value_tokens], out)
    q, v = _padded_tokens(rng), _padded_tokens(rng)[::-1].copy()
    expected = model.layers[-1]([embedding(q), embedding(v)], mask=[q != 0, v != 0])
    got = model.predict([q, v], verbose=0)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    assert np.all(got[q == 0] == 0)  # padded queries give zeros


@pytest.mark.parametrize("layer", [
    lambda: layers.MultiHeadAttention(num_heads=2, key_dim=2),
    lambda: layers.GroupQueryAttention(head_dim=2, num_query_heads=2, num_key_value_heads=1),
])
def test_cross_attention_uses_the_mask_each_argument_carries(layer, rng):
    """As Keras 3: a model gives `call` each tensor argument's mask as `<name>_mask`."""
    query_tokens, value_tokens = hikeras.Input((6,), dtype="int32"), hikeras.Input(
        (6,), dtype="int32")
    embed_query, embed_value = (layers.Embedding(9, 4, mask_zero=True) for _ in range(2))
    attention = layer()
    out, scores = attention(embed_query(query_tokens), embed_value(value_tokens),
                            return_attention_scores=True)
    model = hikeras.Model([query_tokens, value_tokens], [out, scores])
    q, v = _padded_tokens(rng), _padded_tokens(rng)[::-1].copy()
    got, got_scores = model.predict([q, v], verbose=0)
    expected, _ = attention(embed_query(q), embed_value(v), query_mask=q != 0,
                            value_mask=v != 0, return_attention_scores=True)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    # Real queries give padded keys no weight (a padded query attends uniformly).
    padded_keys = (q != 0)[:, None, :, None] & (v == 0)[:, None, None, :]
    assert np.all(got_scores[np.broadcast_to(padded_keys, got_scores.shape)] == 0)


def _keras3_tensor(layer_name, shape):
    return {"class_name": "__keras_tensor__",
            "config": {"shape": shape, "dtype": "float32", "keras_history": [layer_name, 0, 0]}}


def test_reads_a_keras3_config_with_positional_tensor_arguments(rng):
    mha_config = {"name": "mha", "trainable": True, "dtype": "float32", "num_heads": 2,
                  "key_dim": 5, "value_dim": 5, "dropout": 0.0, "use_bias": True,
                  "output_shape": None, "attention_axes": [1], "seed": None}
    config = {
        "name": "model", "trainable": True,
        "layers": [
            {"class_name": "InputLayer", "name": "q", "inbound_nodes": [],
             "config": {"batch_shape": [None, 3, 4], "dtype": "float32", "name": "q"}},
            {"class_name": "InputLayer", "name": "v", "inbound_nodes": [],
             "config": {"batch_shape": [None, 6, 4], "dtype": "float32", "name": "v"}},
            {"class_name": "MultiHeadAttention", "name": "mha", "config": mha_config,
             "inbound_nodes": [{"args": [_keras3_tensor("q", [None, 3, 4]),
                                         _keras3_tensor("v", [None, 6, 4])],
                                "kwargs": {"use_causal_mask": True}}]},
        ],
        "input_layers": [["q", 0, 0], ["v", 0, 0]],
        "output_layers": [["mha", 0, 0]],
    }
    model = Functional.from_config(config)
    query, value = data(rng, 2, 3, 4), data(rng, 2, 6, 4)
    mha = model.get_layer("mha")
    np.testing.assert_allclose(model.predict([query, value], verbose=0),
                               mha(query, value, use_causal_mask=True), rtol=1e-6)
