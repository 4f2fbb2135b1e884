"""Every public name of Keras 3.15's `keras.ops.nn`, `keras.ops.linalg` and
`keras.ops.image` exists in hikeras, with Keras's parameters; the math
group is reachable flat from `hikeras.ops`, as in Keras."""

import ast
import inspect

import pytest

import hikeras.ops
from hikeras.ops import image, linalg, nn
from tests.helpers.keras_names import keras_names, missing_names

NAMESPACES = {"keras.ops.nn": nn, "keras.ops.linalg": linalg, "keras.ops.image": image}

# keras.src.ops.math: exported flat in keras.ops.
MATH = [
    "segment_sum", "segment_max", "segment_min", "segment_prod", "top_k", "in_top_k",
    "logsumexp", "cdist", "extract_sequences", "fft", "fft2", "ifft2", "rfft", "irfft", "stft",
    "istft", "rsqrt", "erf", "erfc", "erfinv", "logdet", "view_as_complex", "view_as_real",
]


@pytest.mark.parametrize("namespace", sorted(NAMESPACES))
def test_every_keras_name_is_there(namespace):
    assert missing_names(namespace, NAMESPACES[namespace], {}) == []


def _parameters(signature_text):
    """`[(name, default or EMPTY)]` of a signature as `inspect` prints it."""
    args = ast.parse(f"def f{signature_text}: pass").body[0].args
    positional = args.args
    defaults = [EMPTY] * (len(positional) - len(args.defaults)) + [
        ast.literal_eval(d) for d in args.defaults]
    out = list(zip([a.arg for a in positional], defaults))
    out += [(a.arg, EMPTY if d is None else ast.literal_eval(d))
            for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    return out


EMPTY = inspect.Parameter.empty


@pytest.mark.parametrize("namespace", sorted(NAMESPACES))
def test_signatures_start_with_keras_parameters(namespace):
    """Keras's parameters and defaults, in Keras's order (hikeras may add extras after)."""
    wrong = []
    for name, entry in keras_names(namespace).items():
        parameters = inspect.signature(getattr(NAMESPACES[namespace], name)).parameters.values()
        ours = [(p.name, p.default) for p in parameters if p.kind is not p.VAR_KEYWORD]
        theirs = _parameters(entry["signature"])
        if ours[:len(theirs)] != theirs:
            wrong.append(f"{name}: {ours} vs Keras {theirs}")
    assert not wrong, wrong


def test_math_group_is_flat_in_hikeras_ops():
    flat = keras_names("keras.ops")
    assert all(name in flat for name in MATH)
    assert [name for name in MATH if not hasattr(hikeras.ops, name)] == []


@pytest.mark.parametrize("namespace", ["keras.ops.linalg", "keras.ops.nn"])
def test_linalg_and_nn_names_are_flat_in_hikeras_ops_too(namespace):
    """As in Keras, where `keras.ops` holds every name of these two namespaces."""
    flat = keras_names("keras.ops")
    assert all(n in flat for n in keras_names(namespace))
    assert [n for n in keras_names(namespace) if not hasattr(hikeras.ops, n)] == []
    assert all(getattr(hikeras.ops, n) is getattr(NAMESPACES[namespace], n)
               for n in keras_names(namespace))
