"""A layer called on plain numpy arrays (the eager inference path): input dtypes, losses, checks.

The path is kept short for one-sample calls (cached dtype answers, no
autocast scope lookups without mixed precision); these tests pin what it
must still do: cast floating inputs to the layer's dtype and leave other
inputs alone, honour mixed policies and open autocast scopes, reset
`add_loss` values per outermost call, and name the layer in input errors.
"""

import numpy as np
import pytest

from hikeras import backend, layers
from hikeras.layers import autocasting


def _dense(**kwargs):
    layer = layers.Dense(3, kernel_initializer="ones", **kwargs)
    layer.build((None, 2))
    return layer


@pytest.mark.parametrize("given", [np.float16, np.float32, np.float64])
def test_float_inputs_are_cast_to_the_layer_dtype(rng, given):
    x = rng.standard_normal((4, 2)).astype(given)
    for dtype in ("float32", "float64"):
        out = _dense(dtype=dtype)(x)
        assert out.dtype == dtype
        np.testing.assert_allclose(out, np.repeat(x.astype(dtype).sum(1, keepdims=True), 3, 1),
                                   rtol=1e-6)


def test_integer_inputs_are_not_cast():
    assert autocasting.input_dtype(_dense(), np.dtype("int32")) is None
    layer = layers.Lambda(lambda x: x)
    assert layer(np.arange(4, dtype=np.int32)).dtype == np.int32


def test_mixed_policy_and_open_scope_still_apply(rng):
    x = rng.standard_normal((4, 2)).astype(np.float32)
    assert _dense(dtype="mixed_float16")(x).dtype == np.float16
    with backend.AutocastScope("float16"):   # a float32 layer inside a float16 scope
        layer = _dense()
        assert autocasting.scope_for(layer) is not None
        assert layer(x).dtype == np.float32


def test_is_float_answers_dtypes_names_and_other_values():
    for dtype in (np.dtype("float16"), np.dtype("float32"), "float64", "bfloat16"):
        assert autocasting.is_float(dtype) and autocasting.is_float(dtype)   # (cached too)
    for other in (np.dtype("int8"), "int32", np.dtype("complex64"), np.dtype("longdouble"),
                  ["float32"], None):
        assert not autocasting.is_float(other)


def test_added_losses_belong_to_the_latest_outermost_call(rng):
    class Penalised(layers.Layer):
        def call(self, x, penalise=False):
            if penalise:
                self.add_loss(np.float32(2.0))
            return x

    inner = Penalised()
    outer = layers.Lambda(lambda x: inner(x, penalise=True))
    x = rng.standard_normal((2, 2)).astype(np.float32)
    outer(x)
    assert [float(v) for v in inner.losses] == [2.0]
    inner(x)   # an outermost call without a penalty clears the last one
    assert inner.losses == []


def test_input_spec_errors_name_the_layer():
    layer = layers.Conv2D(2, 3, name="first_conv")
    layer(np.zeros((1, 5, 5, 1), np.float32))
    with pytest.raises(ValueError, match=r"layer 'first_conv' \(Conv2D\).*expected ndim=4"):
        layer(np.zeros((5, 5, 1), np.float32))
    with pytest.raises(ValueError, match=r"layer 'first_conv'.*expected shape"):
        layer(np.zeros((1, 5, 5, 2), np.float32))
