"""Every architecture loads Keras's own weight files: a tf_keras (Keras 2) `.h5` by topology,
as the published files are loaded, and a Keras 3 `.weights.h5`.

The files are about 2 GB together, so they are not in the repository: write them with
`generate_fixtures.py full_files DIR` and set `HIKERAS_KERAS_APPLICATION_FILES=DIR`;
without it these tests are skipped. (The two small files kept in fixtures/ are checked
always, by test_numerics.py.)
"""

import json
import os
from pathlib import Path

import numpy as np
import pytest

from hikeras import applications
from tests.applications.keras_fixtures import constructor_kwargs
from tests.applications.seeded_weights import seeded_images

FOLDER = os.environ.get("HIKERAS_KERAS_APPLICATION_FILES")
pytestmark = pytest.mark.skipif(not FOLDER, reason="HIKERAS_KERAS_APPLICATION_FILES is not set")


def _cases():
    if not FOLDER:
        return []
    with open(Path(FOLDER) / "cases.json", encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    return [(arch, case, file) for arch, case in sorted(cases.items()) for file in case["files"]]


@pytest.mark.parametrize("arch, case, file", _cases(), ids=[c[2] for c in _cases()])
def test_keras_file_loads(arch, case, file):
    model = getattr(applications, arch)(weights=str(Path(FOLDER) / file),
                                        **constructor_kwargs(case["kwargs"]))
    x = seeded_images([2, *case["kwargs"]["input_shape"]], *case["input_range"])
    with np.load(Path(FOLDER) / "outputs.npz") as expected:
        reference = expected[arch]
    np.testing.assert_allclose(model.predict(x, verbose=0), reference, rtol=1e-4,
                               atol=1e-5 * max(1.0, float(np.abs(reference).max())))
