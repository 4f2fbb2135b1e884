"""The `>>>` examples in the docstrings of `hikeras.scopes` and `hikeras.distillation` run."""

import doctest
import importlib

import pytest

MODULES = ["hikeras.scopes.name_scope", "hikeras.scopes.stateless_scope",
           "hikeras.scopes.symbolic_scope", "hikeras.distillation.distillation_loss",
           "hikeras.distillation.distiller"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0, name
