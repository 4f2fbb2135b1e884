"""`hikeras.testing.check_gradients` passes right gradients and catches wrong ones."""

import numpy as np
import pytest

from hikeras import ops
from hikeras.testing import check_gradients


def test_passes_a_correct_function(rng):
    check_gradients(lambda x, w: ops.sum(ops.tanh(ops.matmul(x, w)) * x[:, :2]),
                    [rng.standard_normal((3, 4)), rng.standard_normal((4, 2))])


def test_catches_a_gradient_cut_by_stop_gradient(rng):
    # d/dx [stop_gradient(x) * x] is x for the tape, 2x for the differences.
    with pytest.raises(AssertionError, match="gradient of input 0 is wrong"):
        check_gradients(lambda x: ops.stop_gradient(x) * x, [rng.uniform(1, 2, (5,))])


def test_only_checks_the_inputs_asked_for(rng):
    check_gradients(lambda x, y: ops.stop_gradient(x) * y, [rng.standard_normal(3),
                                                              rng.standard_normal(3)], wrt=[1])


def test_rejects_integer_inputs_in_wrt():
    with pytest.raises(ValueError, match=r"Received: wrt=\[0\]"):
        check_gradients(lambda i: i, [np.arange(3)], wrt=[0])
