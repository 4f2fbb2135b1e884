"""`standardize_dtype`, `result_type` & co. against Keras's own table (fixtures/keras_surface)."""

import json
import pathlib

import numpy as np
import pytest

import hikeras
from hikeras import backend

TABLE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                    / "surface.json").read_text())["result_type"]
PYTHON = {"python_float": float, "python_int": int}


@pytest.mark.parametrize("pair", sorted(TABLE))
def test_result_type_matches_keras(pair):
    dtypes = [PYTHON.get(name, name) for name in pair.split(",")]
    assert backend.result_type(*dtypes) == TABLE[pair]


def test_result_type_edges():
    assert backend.result_type() == "float32"
    assert backend.result_type(int, float) == "float32"
    assert backend.result_type(bool, int) == "int32"
    with pytest.raises(ValueError, match="Invalid dtype: foo"):
        backend.result_type("int8", "foo")


def test_standardize_and_kinds():
    assert backend.standardize_dtype(None) == "float32"
    assert backend.standardize_dtype(int) == "int64"
    assert backend.standardize_dtype(np.float32) == "float32"
    assert backend.standardize_dtype(np.dtype("int8")) == "int8"
    assert backend.standardize_dtype("bfloat16") == "bfloat16"
    with pytest.raises(ValueError, match="Received: dtype='x'"):
        backend.standardize_dtype("x")
    assert [backend.is_float_dtype(d) for d in ("float16", "bfloat16", "int8", None, "bool")] \
        == [True, True, False, True, False]
    assert [backend.is_int_dtype(d) for d in ("float16", "uint8", "int8", "bool")] \
        == [False, True, True, False]


def test_uids_and_clear_session():
    backend.clear_session()
    assert [backend.get_uid("a"), backend.get_uid("a"), backend.get_uid(), backend.get_uid("b")] \
        == [1, 2, 1, 1]
    backend.clear_session(free_memory=False)
    assert backend.get_uid("a") == 1


def test_is_keras_tensor():
    x = hikeras.Input((3,))
    assert backend.is_keras_tensor(x)
    assert backend.is_keras_tensor(hikeras.layers.Dense(2)(x))
    assert not backend.is_keras_tensor(np.ones(3))
