"""The 8x8 handwritten digits dataset, embedded in the package.

These are the 1,797 images of the UCI "Optical Recognition of Handwritten
Digits" test set (Alpaydin & Kaynak, 1998, CC BY 4.0), as distributed with
scikit-learn. Each image is an 8x8 grid of counts in 0..16; labels are 0..9.
See `data/DIGITS_LICENSE.txt` for attribution.
"""

import numbers
from importlib import resources

import numpy as np

_DATA_FILE = "digits.npz"


def _load_arrays():
    """Reads the embedded archive and returns `(images, labels)`."""
    resource = resources.files(__package__).joinpath("data").joinpath(_DATA_FILE)
    with resource.open("rb") as f:
        with np.load(f, allow_pickle=False) as archive:
            images = archive["images"]
            labels = archive["labels"]
    return images, labels


def load_data(test_split=0.2, seed=113):
    """Loads the digits dataset, shuffled and split into train and test parts.

    The samples are shuffled with `numpy.random.default_rng(seed)` before
    splitting, so the same `seed` always gives the same split. The first
    `int(n * (1 - test_split))` shuffled samples form the training part and
    the rest the test part.

    Args:
        test_split: Fraction of the 1,797 samples to put in the test part,
            a number in `[0, 1)`. Defaults to `0.2`.
        seed: Seed for the shuffle. Defaults to `113`; `None` gives a
            different shuffle on every call.

    Returns:
        A tuple `(x_train, y_train), (x_test, y_test)`. The `x` arrays are
        `uint8` images of shape `(num_samples, 8, 8)` with values in 0..16;
        the `y` arrays are `uint8` labels of shape `(num_samples,)` with
        values in 0..9.

    Raises:
        ValueError: If `test_split` is not a number in `[0, 1)`.

    Example:

    >>> from hikeras.datasets import digits
    >>> (x_train, y_train), (x_test, y_test) = digits.load_data()
    >>> x_train.shape, x_test.shape
    ((1437, 8, 8), (360, 8, 8))
    >>> int(x_train.max()), y_train.dtype
    (16, dtype('uint8'))
    """
    if (
        isinstance(test_split, bool)
        or not isinstance(test_split, numbers.Real)
        or not 0 <= test_split < 1
    ):
        raise ValueError(
            "Argument `test_split` must be a number in the range [0, 1). "
            f"Received: test_split={test_split!r}"
        )

    images, labels = _load_arrays()
    order = np.random.default_rng(seed).permutation(len(images))
    images = images[order]
    labels = labels[order]

    num_train = int(len(images) * (1 - test_split))
    x_train, x_test = images[:num_train], images[num_train:]
    y_train, y_test = labels[:num_train], labels[num_train:]
    return (x_train, y_train), (x_test, y_test)
