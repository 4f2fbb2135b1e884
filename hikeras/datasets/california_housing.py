"""California housing prices: 20,640 census block groups of 8 features, target in $.

From the StatLib repository (Pace and Barry, 1997), as packaged by Keras.
Downloaded on first use into `$HIKERAS_HOME/datasets` (default
`~/.hikeras/datasets`) and verified by the SHA-256 Keras pins; offline, copy
`california_housing.npz` there by hand. The file holds plain numeric arrays,
read with `allow_pickle=False`.
"""

import numbers

import numpy as np

from ..utils.file_utils import get_file

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/california_housing.npz"
SHA256 = "1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f"
_SMALL = 600  # Keras's "small" version: the first 600 block groups


def load_data(version="large", path="california_housing.npz", test_split=0.2, seed=113):
    """Loads the California housing data, shuffled with `seed` and split as in Keras.

    Args:
        version: `"large"` (all 20,640 samples) or `"small"` (the first 600,
            taken before shuffling).
        path: file name in the cache directory (or an absolute path).
        test_split: fraction of samples for the test part, in [0, 1).
        seed: seed of the shuffle (`numpy.random.RandomState`, as Keras).

    Returns:
        `(x_train, y_train), (x_test, y_test)`: float arrays `(n, 8)` (longitude,
        latitude, median age, total rooms, total bedrooms, population,
        households, median income) and `(n,)` (median house value in dollars).
    """
    if version not in ("large", "small"):
        raise ValueError("Argument `version` must be one of 'small', 'large'. "
                         f"Received: version={version!r}")
    if isinstance(test_split, bool) or not isinstance(test_split, numbers.Real) or not (
            0 <= test_split < 1):
        raise ValueError("`test_split` must be a number in [0, 1). "
                         f"Received: test_split={test_split!r}")
    path = get_file(path, origin=ORIGIN, file_hash=SHA256)
    with np.load(path, allow_pickle=False) as archive:
        x, y = archive["x"], archive["y"]
    if version == "small":
        x, y = x[:_SMALL], y[:_SMALL]
    order = np.arange(len(x))
    np.random.RandomState(seed).shuffle(order)
    x, y = x[order], y[order]
    cut = int(len(x) * (1 - test_split))
    return (x[:cut], y[:cut]), (x[cut:], y[cut:])
