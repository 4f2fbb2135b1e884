"""The `>>>` examples in hikeras.ops's docstrings run (`hikeras.ops.kernels` included)."""

import doctest
import importlib
import pkgutil

import pytest

import hikeras.ops

MODULES = ["hikeras.ops"] + sorted(
    info.name for info in pkgutil.walk_packages(hikeras.ops.__path__, "hikeras.ops."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0, name
