"""`parse_weight_options` / `serialize_weight_options`: the per-weight options in one place."""

import pytest

from hikeras import constraints, initializers, layers, regularizers
from hikeras.layers.layer import Layer
from hikeras.layers.weight_options import parse_weight_options, serialize_weight_options


def _arguments(weights, **given):
    arguments = {f"{w}_{kind}": None for w in weights
                 for kind in ("initializer", "regularizer", "constraint")}
    arguments["activity_regularizer"] = None
    arguments.update(given)
    return arguments


def test_parses_each_option_through_its_get_helper():
    layer = Layer()
    parse_weight_options(layer, ("kernel", "recurrent", "bias"), _arguments(
        ("kernel", "recurrent", "bias"), kernel_initializer="ones",
        recurrent_initializer={"class_name": "Constant", "config": {"value": 2.0}},
        bias_regularizer="l2", activity_regularizer=regularizers.L1(0.5),
        recurrent_constraint="non_neg"))
    assert isinstance(layer.kernel_initializer, initializers.Ones)
    assert layer.recurrent_initializer.get_config()["value"] == 2.0
    assert layer.bias_initializer is None
    assert isinstance(layer.bias_regularizer, regularizers.L2)
    assert layer.kernel_regularizer is None and layer.recurrent_regularizer is None
    assert isinstance(layer.activity_regularizer, regularizers.L1)
    assert isinstance(layer.recurrent_constraint, constraints.NonNeg)
    assert layer.kernel_constraint is None and layer.bias_constraint is None


def test_the_activity_regularizer_can_go_elsewhere_or_nowhere():
    layer = Layer()
    parse_weight_options(layer, ("kernel",), _arguments(("kernel",), activity_regularizer="l2"),
                         activity_regularizer="_activity_regularizer")
    assert isinstance(layer._activity_regularizer, regularizers.L2)
    assert layer.activity_regularizer is None
    config = serialize_weight_options(layer, ("kernel",),
                                      activity_regularizer="_activity_regularizer")
    assert config["activity_regularizer"] == regularizers.serialize(layer._activity_regularizer)

    cell = Layer()
    parse_weight_options(cell, ("alpha",), {"alpha_initializer": "zeros",
                                            "alpha_regularizer": None,
                                            "alpha_constraint": None},
                         activity_regularizer=None)  # no "activity_regularizer" key needed
    assert "activity_regularizer" not in serialize_weight_options(cell, ("alpha",),
                                                                  activity_regularizer=None)


def test_invalid_options_raise_the_get_helpers_errors_in_keras_order():
    # Initializers are parsed before regularizers, regularizers before constraints.
    arguments = _arguments(("kernel", "bias"), bias_initializer="bogus_init",
                           kernel_regularizer="bogus_reg", kernel_constraint="bogus_con")
    with pytest.raises(ValueError, match="bogus_init"):
        parse_weight_options(Layer(), ("kernel", "bias"), arguments)
    arguments["bias_initializer"] = None
    with pytest.raises(ValueError, match="bogus_reg"):
        parse_weight_options(Layer(), ("kernel", "bias"), arguments)
    arguments["kernel_regularizer"] = None
    with pytest.raises(ValueError, match="bogus_con"):
        parse_weight_options(Layer(), ("kernel", "bias"), arguments)


def test_serialize_writes_keras_key_order_and_round_trips():
    dense = layers.Dense(2, kernel_initializer="ones", bias_regularizer="l1",
                         kernel_constraint="max_norm")
    config = serialize_weight_options(dense)
    assert list(config) == ["kernel_initializer", "bias_initializer", "kernel_regularizer",
                            "bias_regularizer", "activity_regularizer", "kernel_constraint",
                            "bias_constraint"]
    again = Layer()
    parse_weight_options(again, ("kernel", "bias"), config)
    assert serialize_weight_options(again) == config


@pytest.mark.parametrize("make, weights", [
    (lambda: layers.Dense(2), ("kernel", "bias")),
    (lambda: layers.Conv2D(2, 3), ("kernel", "bias")),
    (lambda: layers.DepthwiseConv2D(3), ("depthwise", "bias")),
    (lambda: layers.EinsumDense("ab,bc->ac", 2), ("kernel", "bias")),
    (lambda: layers.LSTMCell(2), ("kernel", "recurrent", "bias")),
    (lambda: layers.ConvLSTM2D(2, 3).cell, ("kernel", "recurrent", "bias")),
    (lambda: layers.MultiHeadAttention(2, 4), ("kernel", "bias")),
])
def test_the_layers_keep_their_defaults(make, weights):
    layer = make()
    defaults = {"kernel": "GlorotUniform", "depthwise": "GlorotUniform",
                "recurrent": "Orthogonal", "bias": "Zeros"}
    for weight in weights:
        assert type(getattr(layer, f"{weight}_initializer")).__name__ == defaults[weight]
        assert getattr(layer, f"{weight}_regularizer") is None
        assert getattr(layer, f"{weight}_constraint") is None
