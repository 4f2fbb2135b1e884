"""The `>>>` examples in the ground floor's docstrings run."""

import doctest
import importlib
import pkgutil

import pytest

import hikeras.serialization

_MODULES = sorted(info.name for info in pkgutil.walk_packages(
    hikeras.serialization.__path__, "hikeras.serialization."))


def test_every_module_is_found():
    assert {"hikeras.serialization.config_dialect", "hikeras.serialization.object_registration",
            "hikeras.serialization.serialization_lib"} <= set(_MODULES)


@pytest.mark.parametrize("name", _MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0, name
