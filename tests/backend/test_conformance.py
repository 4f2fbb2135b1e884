"""The conformance suite every registered backend must pass.

For each backend it checks the required attributes, that every op of the
numpy backend exists there with a VJP, and runs the first `check_op` case
of each op (values against numpy references, gradients against finite
differences, shape rules) with that backend active. A backend whose extra is
not installed is skipped.
"""

import pathlib

import numpy as np
import pytest
from hikeras.backend import REQUIRED_ATTRIBUTES, numpy_backend

from hikeras import backend
from tests.helpers.backends import backend_params
from tests.helpers.check_op import load_cases

_FIRST_CASE = {}
for _case in load_cases(pathlib.Path(__file__).parent):
    if not _case.marks:
        _FIRST_CASE.setdefault(_case.name, _case)


@pytest.fixture(params=backend_params())
def active(request):
    previous = backend.backend()
    module = backend.set_backend(request.param)
    yield module
    backend.set_backend(previous)


def test_backend_provides_required_attributes(active):
    for attribute in REQUIRED_ATTRIBUTES:
        assert hasattr(active, attribute), attribute
    assert backend.backend() == active.name
    assert active.xp.asarray([1, 2]).shape == (2,)


def test_backend_implements_every_numpy_op_with_a_vjp(active):
    reference = numpy_backend.ops.names()
    assert set(reference) <= set(active.ops.names())
    assert active.ops.missing_vjps() == []


@pytest.mark.parametrize("op_case", list(_FIRST_CASE.values()), ids=str)
def test_op_conforms(active, op_case):
    op_case.run()


def test_training_step_end_to_end(active):
    # A tiny softmax regression: forward, fused loss, backward, in-place update.
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    labels = (x[:, 0] > 0).astype(np.int64)
    kernel = backend.Variable(np.zeros((4, 2), np.float32))
    bias = backend.Variable(np.zeros(2, np.float32))
    losses = []
    for _ in range(30):
        with backend.GradientTape() as tape:
            logits = backend.apply("dense", x, kernel, bias)
            loss = backend.apply("mean", backend.apply("sparse_softmax_cross_entropy",
                                                       logits, labels))
        g_kernel, g_bias = tape.gradient(loss, [kernel, bias])
        assert g_kernel.dtype == np.float32
        kernel.assign_sub(0.5 * g_kernel)
        bias.assign_sub(0.5 * g_bias)
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
