"""What `save()` tells the user about objects the file names but cannot rebuild alone.

A file records a custom layer, loss, metric, activation or `Lambda` function
by its registered name (or its class or function name), as Keras does, and is
always written. Loading then needs the object, through `custom_objects={...}`
or `@register_keras_serializable`, so `save()` warns, naming once each object
that is neither built in nor registered (a checkpoint saved every epoch repeats
the same warning, which Python then shows once); and it warns when an object
cannot be rebuilt from its config even with `custom_objects` (a `get_config()`
that leaves out constructor arguments). Only a config that cannot be written
at all (not JSON) stops the save, with the reason.
"""

import inspect
import json
import sys
import warnings

from ..layers.layer import Layer, auto_config_arguments
from ..layers.layer_table import deserialize
from ..models.functional import Functional
from ..models.sequential import Sequential
from ..serialization import custom_object_scope, get_registered_name
from ..serialization.object_registration import get_custom_objects
from ..utils import tree
from .layer_stores import sublayers


def _is_known(obj):
    """Built in (defined by hikeras) or registered: a file naming it loads anywhere."""
    module = getattr(obj, "__module__", "") or ""
    return module.startswith("hikeras.") or obj in get_custom_objects().values()


def _referenced_objects(layer):
    """The class and functions a layer's config names: `{name: object}`."""
    found = {get_registered_name(type(layer)): type(layer)}
    for value in vars(layer).values():
        if inspect.isfunction(value) or inspect.isclass(value):
            found[get_registered_name(value)] = value
    return found


def _json_check(model, layer, config):
    try:
        json.dumps(config)
    except (TypeError, ValueError) as e:
        raise ValueError(f"Cannot save model '{model.name}': the config of layer "
                         f"'{layer.name}' ({type(layer).__name__}) cannot be written as JSON "
                         f"({e}). Received: config={config!r}") from e


def _layer_problem(layer, config):
    """None if the layer rebuilds with its custom objects given, else the reason."""
    if isinstance(layer, (Functional, Sequential)):
        return None  # their sublayers are checked one by one; rebuilding would copy weights
    if type(layer).get_config is Layer.get_config:
        left_out = auto_config_arguments(layer)[1]
        if left_out:
            return (f"it has no get_config() and its constructor arguments {left_out} are "
                    "not plain values")
    try:
        with custom_object_scope(_referenced_objects(layer)):
            rebuilt = deserialize({"class_name": get_registered_name(type(layer)),
                                   "config": config})
    except Exception as e:  # noqa: BLE001 (any failure is reported, the file still written)
        return f"{type(e).__name__}: {e}"
    if type(rebuilt) is not type(layer):
        return f"its name resolves to {type(rebuilt).__name__}"
    return None


def _compiled_objects(model):
    """`{name: object}` of the compiled loss, metrics and optimizer that are not names."""
    args = getattr(model, "_compile_args", None) or {}
    found = {}
    leaves = tree.flatten([args.get("loss"), args.get("metrics"), args.get("weighted_metrics")])
    for leaf in [*leaves, getattr(model, "optimizer", None)]:
        if leaf is None or isinstance(leaf, (str, int, float)):
            continue
        obj = leaf if inspect.isfunction(leaf) or inspect.isclass(leaf) else type(leaf)
        found[get_registered_name(obj)] = obj
    return found


def _user_stacklevel():
    """The `stacklevel` of the first caller outside hikeras (`model.save` or `save_model`)."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_globals.get("__name__", "").startswith("hikeras"):
        frame, level = frame.f_back, level + 1
    return level


def warn_about_custom_objects(model):
    """Warns about what loading the file will need; raises only when a layer's config
    cannot be written at all."""
    needed, problems = {}, []
    for layer in reversed([model, *sublayers(model)]):  # innermost first: it names the culprit
        config = layer.get_config()
        _json_check(model, layer, config)
        needed.update({n: o for n, o in _referenced_objects(layer).items() if not _is_known(o)})
        problem = _layer_problem(layer, config)
        if problem is not None:
            problems.append(f"layer '{layer.name}' ({type(layer).__name__}): {problem}")
    if getattr(model, "compiled", False):
        needed.update({n: o for n, o in _compiled_objects(model).items() if not _is_known(o)})
    if needed:
        listed = ", ".join(f"'{name}': {name}" for name in needed)
        warnings.warn(
            f"Model '{model.name}' uses objects that are not registered: {sorted(needed)}. "
            "The file records them by name; to load it, pass "
            f"`custom_objects={{{listed}}}` or decorate them with "
            "`@hikeras.saving.register_keras_serializable()`.", stacklevel=_user_stacklevel())
    if problems:
        warnings.warn(
            f"Model '{model.name}' was saved, but these layers cannot be rebuilt from their "
            f"config even with `custom_objects`: {'; '.join(problems)}. Give each a "
            "`get_config()` that returns its constructor arguments.", stacklevel=_user_stacklevel())
