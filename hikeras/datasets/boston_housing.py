"""Boston housing prices: 506 samples of 13 features, target in k$.

From the StatLib library (CMU). Warning, as in Keras: the dataset has an
ethical problem (feature "B" encodes an assumption about racial
self-segregation); prefer other data except to illustrate such issues.
Downloaded on first use into `$HIKERAS_HOME/datasets` (default
`~/.hikeras/datasets`) and verified by SHA-256; offline, copy
`boston_housing.npz` there by hand.
"""

import numbers

import numpy as np

from ..utils.file_utils import get_file
from ._object_arrays import load_npz_array

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/boston_housing.npz"
SHA256 = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """Loads the Boston housing data, shuffled with `seed` and split as in Keras.

    Args:
        path: file name in the cache directory (or an absolute path).
        test_split: fraction of samples for the test part, in [0, 1).
        seed: seed of the shuffle (`numpy.random.RandomState`, as Keras).

    Returns:
        `(x_train, y_train), (x_test, y_test)`: float arrays `(n, 13)` and `(n,)`.
    """
    if isinstance(test_split, bool) or not isinstance(test_split, numbers.Real) or not (
            0 <= test_split < 1):
        raise ValueError(f"`test_split` must be a number in [0, 1). "
                         f"Received: test_split={test_split!r}")
    path = get_file(path, origin=ORIGIN, file_hash=SHA256)
    x, y = load_npz_array(path, "x"), load_npz_array(path, "y")
    order = np.arange(len(x))
    np.random.RandomState(seed).shuffle(order)
    x, y = x[order], y[order]
    cut = int(len(x) * (1 - test_split))
    return (x[:cut], y[:cut]), (x[cut:], y[cut:])
