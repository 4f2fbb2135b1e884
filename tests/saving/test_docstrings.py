"""The `>>>` examples in hikeras.saving's docstrings run."""

import doctest
import importlib

import pytest

# The registry and config dialect moved to the ground floor (tests/serialization/);
# `atomic_write`, which every format writes through, to hikeras.utils.
MODULES = ["hikeras.saving.file_errors", "hikeras.saving.model_config",
           "hikeras.saving.weight_matching", "hikeras.utils.atomic"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
