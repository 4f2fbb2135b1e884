import numpy as np

import hikeras
from hikeras import layers


def _capture(model, **kwargs):
    lines = []
    model.summary(print_fn=lines.append, **kwargs)
    return "\n".join(lines)


def test_sequential_summary_table():
    model = hikeras.Sequential([hikeras.Input((64,)), layers.Dense(128, activation="relu"),
                                layers.Dropout(0.2), layers.Dense(10, activation="softmax")])
    text = _capture(model)
    assert 'Model: "sequential"' in text
    assert "dense (Dense)" in text and "(None, 128)" in text and "8,320" in text
    assert "dropout (Dropout)" in text
    assert "Total params: 9,610" in text
    assert "Trainable params: 9,610" in text
    assert "Non-trainable params: 0" in text


def test_summary_counts_frozen_layers_as_non_trainable():
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3), layers.Dense(2)])
    model.layers[0].trainable = False
    text = _capture(model)
    assert "Total params: 23" in text
    assert "Trainable params: 8" in text
    assert "Non-trainable params: 15" in text
    assert sum(np.prod(w.shape) for w in model.trainable_weights) == 8


def test_functional_summary_has_connected_to():
    a = hikeras.Input((4,), name="a")
    shared = layers.Dense(4, name="shared")
    out = layers.Dense(1, name="head")(shared(shared(a)))
    text = _capture(hikeras.Model(a, out))
    assert "Connected to" in text
    assert "a[0][0]" in text and "shared[0][0]" in text
    assert "multiple" in text  # a layer called twice


def test_expand_nested_lists_inner_layers_indented():
    inner = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, name="inner_dense")],
                               name="inner")
    deeper = hikeras.Sequential([hikeras.Input((4,)), inner], name="deeper")
    inputs = hikeras.Input((4,))
    model = hikeras.Model(inputs, layers.Dense(2, name="head")(deeper(inputs)))
    lines = []
    model.summary(print_fn=lines.append, expand_nested=True, show_trainable=True)
    assert any(line.startswith("  inner (Sequential)") for line in lines)
    assert any(line.startswith("    inner_dense (Dense)") for line in lines)
    flat = []
    model.summary(print_fn=flat.append)
    assert not any("inner" in line for line in flat)
