"""Every public member of Keras 3.15's `Layer`, `Dense`, `Model` and `Sequential` exists (#18).

The member lists come from `fixtures/keras_names/keras_members.json`, read
from instances of real Keras. Each is looked up on the same kind of hikeras
object: a method must be callable there, a property or attribute must be
readable. What is left out is listed with its reason; an excluded member
that hikeras has since gained fails the test, so the table only shrinks.
"""

import json
import pathlib

import pytest

import hikeras

_RECORD = (pathlib.Path(__file__).parent / "fixtures" / "keras_names" / "keras_members.json")

TF_DISTRIBUTE = "TensorFlow backend's tf.distribute reduction; hikeras distributes with MPI"
REMAT = "rematerialisation for compiled backends; excluded by #18 (see keras.remat)"
MIXED = "not yet built: mixed-precision compute (#18)"
QUANTIZATION = "quantization belongs to keras.quantizers, which #18 excludes"

_EVERY_LAYER = {
    "rematerialized_call": REMAT,
    "autocast": MIXED,
    "input_dtype": MIXED,
}
_EVERY_MODEL = {**_EVERY_LAYER, "distribute_reduction_method": TF_DISTRIBUTE}

EXCLUDED = {
    "Layer": _EVERY_LAYER,
    "Dense": {**_EVERY_LAYER, "quantization_config": QUANTIZATION,
              "variable_serialization_spec": QUANTIZATION},
    "Model": _EVERY_MODEL,
    "Sequential": _EVERY_MODEL,
}


def _objects():
    layers = hikeras.layers
    dense = layers.Dense(3)
    dense.build((None, 4))
    inputs = hikeras.Input((4,))
    functional = hikeras.Model(inputs, layers.Dense(2)(inputs))
    functional.compile(optimizer="adam", loss="mse", metrics=["mae"])
    sequential = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(2)])
    sequential.compile(optimizer="adam", loss="mse")
    return {"Layer": layers.Layer(), "Dense": dense, "Model": functional,
            "Sequential": sequential}


def _has(obj, name):
    """Whether `obj` has the member, counting properties that raise until the object is used.

    (`layer.input` raises AttributeError before a first call, in Keras too.)
    """
    return hasattr(obj, name) or any(name in vars(klass) for klass in type(obj).__mro__)


def _recorded():
    return json.loads(_RECORD.read_text())["objects"]


@pytest.mark.parametrize("label", sorted(EXCLUDED))
def test_every_keras_member_exists(label):
    obj, members, excluded = _objects()[label], _recorded()[label], EXCLUDED[label]
    assert all(str(why).strip() for why in excluded.values())
    unknown = sorted(set(excluded) - set(members))
    assert not unknown, f"excluded members Keras's {label} does not have: {unknown}"
    stale = sorted(n for n in excluded if _has(obj, n))
    assert not stale, f"excluded members that hikeras's {label} now has: {stale}"
    missing = sorted(n for n in members if n not in excluded and not _has(obj, n))
    assert not missing, f"hikeras's {label} lacks {missing}"
    not_callable = sorted(n for n, entry in members.items()
                          if entry["kind"] == "method" and n not in excluded
                          and not callable(getattr(obj, n)))
    assert not not_callable, f"hikeras's {label}: these are methods in Keras: {not_callable}"
