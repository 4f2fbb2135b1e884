"""Keras 3's public names, as recorded from real Keras, for name-coverage tests.

``tests/fixtures/keras_names/generate.py`` writes the record in the side
environment; tests read it here and never import Keras. A coverage test names a
Keras namespace, the hikeras module that answers for it, and an exclusion table
whose every entry carries its reason::

    missing = missing_names("keras.ops.linalg", hikeras.ops.linalg, EXCLUDED)
    assert not missing, missing
"""

import json
import pathlib

_RECORD = pathlib.Path(__file__).parent.parent / "fixtures" / "keras_names" / "keras_public_names.json"


def keras_namespaces():
    """Every Keras namespace the record holds (`"keras"`, `"keras.layers"`, ...)."""
    return sorted(json.loads(_RECORD.read_text())["namespaces"])


def keras_names(namespace):
    """``{name: {"kind": ..., "signature": ...}}`` for one Keras namespace."""
    record = json.loads(_RECORD.read_text())
    return record["namespaces"][namespace]


def missing_names(namespace, module, excluded):
    """Public Keras names of ``namespace`` that ``module`` lacks and ``excluded`` does not list.

    ``excluded`` maps a name to the reason it is left out; an empty reason is a
    defect, and so is an excluded name that the module does have (the table
    must shrink as the surface grows).
    """
    names = keras_names(namespace)
    blank = [n for n, why in excluded.items() if not str(why).strip()]
    assert not blank, f"exclusions without a reason: {blank}"
    stale = [n for n in excluded if hasattr(module, n)]
    assert not stale, f"excluded names that {module.__name__} now has: {stale}"
    unknown = [n for n in excluded if n not in names]
    assert not unknown, f"excluded names that {namespace} does not have: {unknown}"
    return sorted(n for n in names if n not in excluded and not hasattr(module, n))
