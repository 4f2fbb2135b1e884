"""The `>>>` examples in hikeras.saving's docstrings run."""

import doctest
import importlib

import pytest

MODULES = ["atomic", "config_dialect", "file_errors", "model_config", "object_registration", "weight_matching"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"hikeras.saving.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
