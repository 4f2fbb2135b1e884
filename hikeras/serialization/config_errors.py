"""Errors that say what is wrong with a config, wherever it is turned into an object.

Rebuilding an object from a config (a layer, a model, an initializer, ...) runs
constructors, `build` methods and graph replays that were written for
well-formed arguments. Given a corrupt or hostile config they fail with
Python's own words (`list indices must be integers or slices, not float`,
`... got an unexpected keyword argument ...`, `Unable to allocate 64.0 TiB`),
which name neither the layer nor the config key. `rebuilding(cls, config)`
wraps the places where configs become objects and turns any such failure into
a `ConfigError` that names the object (its name and class), the config key,
the value found there and what was expected, keeping the original error as
its cause. An error raised while a model builds its layers is pinned on the
layer that was building, found in the traceback.
"""

import contextlib
import inspect
import re

from .limits import ResourceLimitError

# What constructors, `build` and graph replays raise on bad arguments.
_INTERNAL_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, MemoryError,
                    OverflowError, RecursionError, ZeroDivisionError, NotImplementedError)
_MISSING = re.compile(r"missing \d+ required (?:positional |keyword-only )?arguments?: (.*)")
_UNEXPECTED = re.compile(r"unexpected keyword argument '([^']+)'")
_VALUE_LIMIT = 80
_ABSENT = object()  # stands for a config key that is missing


class ConfigError(ValueError, TypeError):
    """A config that cannot be turned into an object; the message names the object
    (name and class), the config key, the value found and what was expected.

    It is a `ValueError` (a bad value in a file) and a `TypeError` (what Keras
    raises when `from_config` fails), so either `except` catches it.

    >>> str(config_error("layer", "d", "Dense", "key 'units' has the value -1; expected "
    ...                  "a positive integer"))
    "Cannot rebuild layer 'd' (Dense) from its config: key 'units' has the value -1; \
expected a positive integer."
    """

    def __init__(self, head, what, layer_named=False):
        super().__init__(f"{head} from its config: {what}.")
        self.head, self.what, self.layer_named = head, what, layer_named

    def inside(self, layer_head):
        """This error, located inside the layer `layer_head` names (once: the innermost)."""
        if self.layer_named:
            return self
        return ConfigError(f"{self.head} of {layer_head[len('Cannot rebuild '):]}",
                           self.what, layer_named=True)


def config_error(kind, name, class_name, what):
    """`ConfigError` for the object `name` (may be None) of class `class_name`."""
    head = _head(kind, name, class_name)
    return ConfigError(head, what, layer_named=kind in ("layer", "model"))


def _head(kind, name, class_name):
    if isinstance(name, str):
        return f"Cannot rebuild {kind} {name!r} ({class_name})"
    return f"Cannot rebuild {kind} {class_name}"


@contextlib.contextmanager
def rebuilding(cls, config, kind="object"):
    """Within it, a failure to rebuild `cls` from `config` raises a `ConfigError`.

    `kind` names the family in the message ("layer", "initializer", ...).
    A `ConfigError` raised deeper (a nested layer's) passes through unchanged.
    """
    try:
        yield
    except ConfigError as error:
        if kind != "layer" or error.layer_named:
            raise
        name = config.get("name") if isinstance(config, dict) else None
        raise error.inside(_head(kind, name, cls.__name__)) from error.__cause__
    except _INTERNAL_ERRORS as error:
        raise describe(cls, config, kind, error) from error


def describe(cls, config, kind, error):
    """The `ConfigError` for `error`, raised while rebuilding `cls` from `config`."""
    builder = _building_layer(error)
    if builder is not None and type(builder) is not cls:
        cls, config, kind = type(builder), _config_of(builder), "layer"
    name = config.get("name") if isinstance(config, dict) else None
    key, value, expected = _culprit(cls, config, error)
    if key is None and isinstance(error, ValueError):  # already says what is wrong
        return config_error(kind, name, cls.__name__, str(error).rstrip("."))
    if key is None:
        what = (f"the config {_short(config)} is not what {cls.__name__} accepts"
                if isinstance(config, dict) else f"the config {_short(config)} is not an object")
    elif value is _ABSENT:
        what = f"key {key!r} is missing; expected {expected}"
    else:
        what = f"key {key!r} has the value {_short(value)}; expected {expected}"
    return config_error(kind, name, cls.__name__,
                        f"{what} ({type(error).__name__}: {_short_text(error)})")


def _culprit(cls, config, error):
    """`(key, value, expected)` of the config entry behind `error`, or Nones."""
    if not isinstance(config, dict):
        return None, None, None
    if isinstance(error, ResourceLimitError):  # the config value that sized the weight
        sizes = [d for d in error.shape or () if d > 1]
        for key, value in config.items():
            if type(value) is int and value in sizes:
                return key, value, f"a size whose weights fit: {error}"
        return None, None, None
    text = str(error)
    found = _MISSING.search(text)
    if found:
        key = re.findall(r"'([^']+)'", found.group(1))[:1]
        if key:
            return key[0], _ABSENT, "a value: the argument is required"
    found = _UNEXPECTED.search(text)
    if isinstance(error, TypeError) and "Unrecognized keyword arguments" in text:
        found = re.search(r"\['([^']+)'", text)
    if found and found.group(1) in config:
        return found.group(1), config[found.group(1)], (
            f"one of {cls.__name__}'s arguments {_arguments(cls)}")
    if isinstance(error, KeyError) and error.args and isinstance(error.args[0], str):
        key = error.args[0]
        if key not in config:
            return key, _ABSENT, "a value: the config needs this key"
    if isinstance(error, (MemoryError, KeyError)):
        return None, None, None
    for key in sorted(config, key=len, reverse=True):  # 'units' before 'unit'
        if re.search(rf"(?<![\w]){re.escape(key)}(?:=|'|\b is\b| must\b)", text):
            return key, config[key], _expected_from_message(text)
    for key, value in config.items():
        expected = _expected_from_default(cls, key, value)
        if expected:
            return key, value, expected
    return None, None, None


def _expected_from_message(text):
    first = text.split(". Received")[0].strip().rstrip(".")
    return f"what the error says: {_short_text(first)}"


def _expected_from_default(cls, key, value):
    """What a constructor argument takes, judged by its default, when `value` differs."""
    try:
        parameter = inspect.signature(cls.__init__).parameters.get(key)
    except (TypeError, ValueError):
        return None
    if parameter is None or parameter.default in (None, inspect.Parameter.empty):
        return None
    default = parameter.default
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif isinstance(default, str):
        ok = isinstance(value, (str, dict))
    elif isinstance(default, (tuple, list)):
        ok = isinstance(value, (list, tuple, int))
    else:
        return None
    if ok:
        return None
    return f"a {type(default).__name__} like the default {default!r}"


def _arguments(cls):
    try:
        parameters = inspect.signature(cls.__init__).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in parameters if p.name != "self"
            and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _building_layer(error):
    """The innermost layer (`self` of a frame) in `error`'s traceback, if any: the one
    whose construction, `build` or call failed while a model was being rebuilt."""
    found = None
    tb = error.__traceback__
    while tb is not None:
        owner = tb.tb_frame.f_locals.get("self")
        if hasattr(owner, "_inbound_nodes") and hasattr(owner, "get_config"):
            found = owner
        tb = tb.tb_next
    return found


def _config_of(layer):
    try:
        config = layer.get_config()
    except Exception:  # noqa: BLE001  (a half-built layer; its name is enough)
        config = None
    if not isinstance(config, dict):
        config = {"name": getattr(layer, "_name", None)}
    return config


def _short(value):
    text = repr(value)
    return text if len(text) <= _VALUE_LIMIT else text[:_VALUE_LIMIT] + "..."


def _short_text(error):
    text = str(error)
    return text if len(text) <= 300 else text[:300] + "..."
