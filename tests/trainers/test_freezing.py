"""Transfer-learning behaviour: frozen weights stay bit-identical through fit."""

import numpy as np
import pytest

import hikeras
from hikeras import layers


def _setup():
    hikeras.utils.set_random_seed(3)
    model = hikeras.Sequential([hikeras.Input((5,)), layers.Dense(8, activation="relu"),
                                layers.Dense(8, activation="relu"), layers.Dense(1)])
    rng = np.random.default_rng(0)
    return model, rng.standard_normal((64, 5)).astype("float32"), rng.standard_normal((64, 1))


@pytest.mark.parametrize("when", ["before_compile", "after_compile", "after_compile_recompile"])
def test_frozen_layer_weights_bit_identical(when):
    model, x, y = _setup()
    base = model.layers[0]
    if when == "before_compile":
        base.trainable = False
    model.compile(optimizer="adam", loss="mse")
    if when != "before_compile":
        model.fit(x, y, epochs=1, verbose=0)
        base.trainable = False
        if when == "after_compile_recompile":
            model.compile(optimizer="adam", loss="mse")
    frozen = [w.copy() for w in base.get_weights()]
    others = [w.copy() for w in model.layers[1].get_weights()]
    model.fit(x, y, epochs=2, verbose=0)
    for before, after in zip(frozen, base.get_weights()):
        assert np.array_equal(before, after)
    assert not all(np.array_equal(b, a) for b, a in zip(others, model.layers[1].get_weights()))


def test_model_trainable_false_freezes_every_descendant():
    model, x, y = _setup()
    inputs = hikeras.Input((5,))
    outer = hikeras.Model(inputs, layers.Dense(1)(model(inputs)))
    model.trainable = False
    assert all(not l.trainable for l in model.layers)
    outer.compile(optimizer="sgd", loss="mse")
    before = model.get_weights()
    outer.fit(x, y, epochs=1, verbose=0)
    assert all(np.array_equal(b, a) for b, a in zip(before, model.get_weights()))
    assert len(outer.trainable_weights) == 2


def test_trainable_count_matches_what_the_optimizer_updates():
    model, x, y = _setup()
    model.layers[1].trainable = False
    lines = []
    model.summary(print_fn=lines.append)
    trainable = int([l for l in lines if l.startswith("Trainable params")][0]
                    .split(":")[1].replace(",", ""))
    model.compile(optimizer="sgd", loss="mse")
    before = model.get_weights()
    model.fit(x, y, epochs=1, verbose=0)
    changed = sum(int(np.sum(b != a)) for b, a in zip(before, model.get_weights()))
    assert changed == trainable == 5 * 8 + 8 + 8 + 1


def test_get_weights_order_unchanged_by_freezing():
    model, _, _ = _setup()
    shapes = [w.shape for w in model.get_weights()]
    model.layers[0].trainable = False
    assert [w.shape for w in model.get_weights()] == shapes
