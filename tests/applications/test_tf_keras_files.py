"""Every architecture loads a Keras 2 (tf_keras) `.h5` by topology, as published files are loaded.

The files are about 1 GB together, so they are not in the repository: write them with
`generate_fixtures.py tf_keras_files DIR` and set `HIKERAS_TF_KERAS_FILES=DIR`; without
it these tests are skipped. (The small MobileNet file kept in fixtures/ is checked always.)
"""

import json
import os
from pathlib import Path

import numpy as np
import pytest

from hikeras import applications
from tests.applications.keras_fixtures import constructor_kwargs
from tests.applications.seeded_weights import seeded_images

FOLDER = os.environ.get("HIKERAS_TF_KERAS_FILES")
pytestmark = pytest.mark.skipif(not FOLDER, reason="HIKERAS_TF_KERAS_FILES is not set")


def _cases():
    if not FOLDER:
        return []
    with open(Path(FOLDER) / "cases.json", encoding="utf-8") as f:
        return sorted(json.load(f)["cases"].items())


@pytest.mark.parametrize("arch, case", _cases(), ids=[arch for arch, _ in _cases()])
def test_tf_keras_file_loads_by_topology(arch, case):
    model = getattr(applications, arch)(weights=str(Path(FOLDER) / case["file"]),
                                        **constructor_kwargs(case["kwargs"]))
    x = seeded_images([2, *case["kwargs"]["input_shape"]], *case["input_range"])
    with np.load(Path(FOLDER) / "outputs.npz") as expected:
        reference = expected[arch]
    np.testing.assert_allclose(model.predict(x, verbose=0), reference, rtol=1e-4,
                               atol=1e-5 * max(1.0, float(np.abs(reference).max())))
