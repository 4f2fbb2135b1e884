"""Every layer module's docstring examples run and pass."""

import doctest
import importlib
import pkgutil

import pytest

import hikeras.layers

_MODULES = sorted(info.name for info in pkgutil.walk_packages(hikeras.layers.__path__,
                                                               "hikeras.layers."))


@pytest.mark.parametrize("name", _MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0, name


def test_the_layers_have_examples_to_run():
    # Counted, not run again: running them twice would register their examples'
    # custom objects twice.
    finder = doctest.DocTestFinder()
    examples = sum(len(test.examples) for name in _MODULES
                   for test in finder.find(importlib.import_module(name)))
    assert examples > 100
