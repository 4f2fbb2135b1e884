"""Reading Keras 3's dialect of object configs as the Keras 2 one hikeras knows.

Keras 3 wraps every serialised object in bookkeeping keys (`module`,
`registered_name`, `build_config`, ...) and its newer releases add config
keys for features that are off by default (`quantization_config=None`,
`optional=False`, `use_gate=False`, ...). `normalize_config` drops the
bookkeeping and the keys that are at their "off" value, so constructors see
the arguments they know; a key that turns such a feature *on* is kept, and
the constructor rejects it by name. `DTypePolicy` dicts, `batch_shape` and
the dict form of `inbound_nodes` are understood by the layers and by
`functional_config` themselves. A function Keras 3 wrote as a dict becomes
its name, as Keras 2 and hikeras write it.
"""

_BOOKKEEPING_KEYS = ("module", "registered_name", "build_config", "compile_config",
                     "shared_object_id")
# Config keys newer Keras writes, with the value that means "not used".
_INERT_CONFIG_VALUES = {
    "quantization_config": None, "lora_rank": None, "lora_alpha": None, "optional": False,
    "input_axes": None, "output_axes": None, "use_gate": False, "sliding_window": None,
    "activity_regularizer": None, "gptq_unpacked_column_size": None,
}


def _is_function(value):
    return value.get("class_name") == "function" and isinstance(value.get("config"), str)


def _function_name(value):
    """Keras 3 writes a function as `{"class_name": "function", "config": name, ...}`;
    its `registered_name` (`"package>name"`) when registered, else its own name."""
    registered = value.get("registered_name")
    if isinstance(registered, str) and registered != "function":
        return registered
    return value["config"]


def normalize_config(value):
    """A copy of a Keras 2 or Keras 3 config tree in the form hikeras reads.

    >>> normalize_config({"module": "keras.layers", "class_name": "Dense",
    ...                   "config": {"units": 2, "quantization_config": None}})
    {'class_name': 'Dense', 'config': {'units': 2}}
    """
    if isinstance(value, list):
        return [normalize_config(v) for v in value]
    if not isinstance(value, dict):
        return value
    if _is_function(value):
        return _function_name(value)
    out = {}
    is_object = "class_name" in value and "config" in value
    for key, item in value.items():
        if is_object and key in _BOOKKEEPING_KEYS:
            continue
        out[key] = normalize_config(item)
    if is_object and isinstance(out.get("config"), dict):
        config = out["config"]
        for key, inert in _INERT_CONFIG_VALUES.items():
            if key in config and config[key] == inert:
                del config[key]
    return out
