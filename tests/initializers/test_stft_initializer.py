"""The STFT initializer against Keras's kernels (fixtures/keras_surface), names and errors."""

import json
import pathlib

import numpy as np
import pytest

from hikeras import initializers

CASES = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                    / "surface.json").read_text())["stft"]


@pytest.mark.parametrize("label", sorted(CASES))
def test_kernel_matches_keras(label):
    case = CASES[label]
    kernel = initializers.STFT(**case["kwargs"])((6, 1, 4), dtype="float64")
    np.testing.assert_allclose(kernel, case["kernel"], rtol=1e-12, atol=1e-12)


def test_names_config_and_dtype():
    assert initializers.STFTInitializer is initializers.STFT is initializers.stft
    assert isinstance(initializers.get("stft"), initializers.STFT)
    stft = initializers.STFT(side="imag", window=np.hanning(6), periodic=True)
    again = initializers.deserialize(initializers.serialize(stft))
    np.testing.assert_allclose(again((6, 1, 4)), stft((6, 1, 4)))
    assert initializers.STFT()((6, 1, 4)).dtype == np.float32


def test_bad_arguments():
    with pytest.raises(ValueError, match="Received: side='complex'"):
        initializers.STFT(side="complex")
    with pytest.raises(ValueError, match="Received: window='kaiser'"):
        initializers.STFT(window="kaiser")
    with pytest.raises(ValueError, match=r"Received: shape=\(6, 4\)"):
        initializers.STFT()((6, 4))
    with pytest.raises(ValueError, match=r"window shape=\(5,\), frame_length=6"):
        initializers.STFT(window=np.ones(5))((6, 1, 4))
