"""The `>>>` examples in the data and utils docstrings run and are right."""

import doctest

import pytest

from hikeras.data import dataset
from hikeras.io import tfrecord_writer
from hikeras.utils import (
    dataset_utils,
    file_utils,
    numerical_utils,
    sequence,
    sequence_utils,
    timeseries_dataset_utils,
)


@pytest.mark.parametrize("module", [dataset, dataset_utils, file_utils, numerical_utils,
                                    sequence, sequence_utils, timeseries_dataset_utils,
                                    tfrecord_writer])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
