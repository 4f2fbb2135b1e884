"""Dtype policies: Keras's names, dtypes and serialised form (mixed compute: test_mixed_precision.py)."""

import pytest

import hikeras
from hikeras import dtype_policies, layers, mixed_precision

KERAS_FORM = {"module": "keras", "class_name": "DTypePolicy",
              "config": {"name": "mixed_float16"}, "registered_name": None}


def test_dtypes_of_each_policy():
    assert (dtype_policies.DTypePolicy("mixed_float16").variable_dtype,
            dtype_policies.DTypePolicy("mixed_float16").compute_dtype) == ("float32", "float16")
    assert dtype_policies.DTypePolicy("mixed_bfloat16").compute_dtype == "bfloat16"
    assert dtype_policies.DTypePolicy("float64").compute_dtype == "float64"
    assert dtype_policies.DTypePolicy().name == "float32"
    assert repr(dtype_policies.FloatDTypePolicy("float64")) == '<DTypePolicy "float64">'


def test_serialised_as_keras_writes_it():
    policy = dtype_policies.DTypePolicy("mixed_float16")
    assert dtype_policies.serialize(policy) == KERAS_FORM
    assert dtype_policies.deserialize(KERAS_FORM) == policy
    assert dtype_policies.get("float64") == dtype_policies.DTypePolicy("float64")


def test_bad_policies():
    with pytest.raises(ValueError, match="Received: name='foo'"):
        dtype_policies.DTypePolicy("foo")
    with pytest.raises(TypeError, match="Received: name=3"):
        dtype_policies.DTypePolicy(3)
    with pytest.raises(ValueError, match="Received: identifier=1.5"):
        dtype_policies.get(1.5)


def test_layers_take_float_and_mixed_policies():
    assert layers.Dense(2, dtype=hikeras.DTypePolicy("float64")).dtype == "float64"
    assert layers.Dense(2, dtype={"class_name": "DTypePolicy",
                                  "config": {"name": "float64"}}).dtype == "float64"
    mixed = layers.Dense(2, dtype="mixed_float16")
    assert (mixed.dtype, mixed.compute_dtype) == ("float32", "float16")
    assert layers.Dense(2, dtype=KERAS_FORM).dtype_policy == mixed.dtype_policy
    with pytest.raises(ValueError, match="Received: name='mixed_float32'"):
        layers.Dense(2, dtype=hikeras.DTypePolicy("mixed_float32"))


def test_mixed_precision_names():
    assert mixed_precision.Policy is dtype_policies.DTypePolicy
    mixed_precision.set_global_policy("float64")
    try:
        assert mixed_precision.global_policy().name == "float64"
        assert hikeras.config.dtype_policy().name == "float64"
    finally:
        mixed_precision.set_global_policy(None)
    assert mixed_precision.global_policy().name == "float32"


def test_policy_map_lookup_and_round_trip():
    policies = dtype_policies.DTypePolicyMap(
        "float32", {"encoder/dense": "float64", "decoder/.*": "mixed_bfloat16"})
    assert policies["encoder/dense"].name == "float64"
    assert policies["decoder/attention/query"].name == "mixed_bfloat16"
    assert policies["head"].name == "float32"
    assert (policies.name, policies.compute_dtype) == ("map_float32", "float32")
    again = dtype_policies.deserialize(dtype_policies.serialize(policies))
    assert isinstance(again, dtype_policies.DTypePolicyMap) and again == policies
    policies["d.*"] = "float64"
    with pytest.raises(ValueError, match="matches multiple"):
        policies["decoder/x"]
    with pytest.raises(ValueError, match="already exists"):
        policies["head"] = "float32"
        policies["head"] = "float64"
    with pytest.raises(ValueError, match="cannot be a `DTypePolicyMap`"):
        dtype_policies.DTypePolicyMap(policies)
    assert dtype_policies.DTypePolicyMap().default_policy.name == "float32"
