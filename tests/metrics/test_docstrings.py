"""The `>>>` examples in hikeras.metrics's docstrings run."""

import doctest
import importlib

import pytest

MODULES = ["__init__", "accuracy_metrics", "auc", "confusion_metrics", "correlation_metrics",
           "f_score_metrics", "iou_metrics", "metric", "probabilistic_metrics",
           "reduction_metrics", "regression_metrics", "sensitivity_specificity_metrics"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    path = "hikeras.metrics" if name == "__init__" else f"hikeras.metrics.{name}"
    result = doctest.testmod(importlib.import_module(path))
    assert result.failed == 0 and result.attempted > 0
