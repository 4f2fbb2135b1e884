"""The registered backends as pytest parameters.

A backend whose dependency is not installed (numba without the `numba`
extra) is skipped with the reason, never failed: the default install must
pass the suite.
"""

import importlib.util

import pytest
from hikeras.backend import available_backends

# backend name -> the import it needs beyond the default install
REQUIRES = {"numba": "numba"}


def installed(name):
    """Whether backend `name`'s extra dependency (if any) can be imported."""
    module = REQUIRES.get(name)
    return module is None or importlib.util.find_spec(module) is not None


def backend_params(names=None):
    """`names` (default: every registered backend) as parameters, skipping uninstalled ones."""
    return [pytest.param(name, id=name, marks=() if installed(name) else pytest.mark.skip(
        reason=f"backend {name!r} needs `pip install \"hikeras[{name}]\"`"))
        for name in (names or available_backends())]
