"""The `>>>` examples in hikeras.applications' docstrings run (small inputs only)."""

import doctest
import importlib

import pytest

MODULES = ["__init__", "_naming", "convnext", "imagenet_utils", "inception_resnet_v2",
           "mobilenet", "mobilenet_v2", "vgg16", "vgg19"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module("hikeras.applications" if name == "__init__"
                                     else f"hikeras.applications.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
