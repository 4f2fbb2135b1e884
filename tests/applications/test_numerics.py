"""Outputs against Keras 3 on seeded weights and fixed images (fixtures from generate_fixtures.py).

Both sides set the same weights from `seeded_weights.py`, so no large weight
file is committed. Batch-norm moving statistics are perturbed, so every weight
matters. For the small models in `FILE_CASES`, the weights come from the files
Keras wrote instead (a tf_keras `.h5` and a Keras 3 `.weights.h5`), loaded by
topology and by name.
"""

import numpy as np
import pytest

from tests.applications.keras_fixtures import FIXTURES, build, numerics, outputs
from tests.applications.seeded_weights import seed_model, seeded_images

CASES = sorted(numerics()["cases"])


def _inputs(case):
    spec = numerics()["cases"][case]
    shape = outputs()[f"{case}/output"].shape  # batch size only
    kwargs = spec["kwargs"]
    low, high = spec["input_range"]
    return seeded_images([shape[0], *kwargs["input_shape"]], low, high)


def _assert_close(actual, expected, case):
    scale = float(np.abs(expected).max())
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5 * max(scale, 1.0),
                               err_msg=case)


@pytest.mark.parametrize("case", CASES)
def test_seeded_outputs_match_keras(case):
    spec = numerics()["cases"][case]
    model = build(spec["arch"], spec["kwargs"])
    seed_model(model)
    y = model.predict(_inputs(case), verbose=0)
    _assert_close(y, outputs()[f"{case}/output"], case)


FILE_CASES = [(case, file) for case in CASES for file in numerics()["cases"][case].get("files", ())]
# tf_keras names MobileNetV3's layers differently (as in Keras's published files): by
# topology only, as Keras 3 loads them.
BY_NAME = [(case, file) for case, file in FILE_CASES if not case.startswith("mobilenetv3")]


@pytest.mark.parametrize("case, file", FILE_CASES + BY_NAME,
                         ids=[f for _, f in FILE_CASES] + [f"{f}-by_name" for _, f in BY_NAME])
def test_weights_written_by_keras_load(case, file, request):
    by_name = request.node.callspec.id.endswith("-by_name")
    spec = numerics()["cases"][case]
    model = build(spec["arch"], spec["kwargs"])
    report = model.load_weights(FIXTURES / file, by_name=by_name)
    assert not report.missing and not report.unexpected
    _assert_close(model.predict(_inputs(case), verbose=0), outputs()[f"{case}/output"], case)


@pytest.mark.parametrize("case, file", FILE_CASES, ids=[f for _, f in FILE_CASES])
def test_weights_argument_takes_a_keras_file(case, file):
    spec = numerics()["cases"][case]
    from hikeras import applications
    from tests.applications.keras_fixtures import constructor_kwargs

    constructor = getattr(applications, spec["arch"])
    model = constructor(weights=str(FIXTURES / file), **constructor_kwargs(spec["kwargs"]))
    _assert_close(model.predict(_inputs(case), verbose=0), outputs()[f"{case}/output"], case)
