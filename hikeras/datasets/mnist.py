"""MNIST handwritten digits: 60,000 training and 10,000 test images of 28x28 pixels.

Downloaded on first use into the cache (`$HIKERAS_HOME/datasets`, default
`~/.hikeras/datasets`) and verified by SHA-256; offline, copy `mnist.npz`
there by hand.
"""

import numpy as np

from ..utils.file_utils import get_file

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"
SHA256 = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"


def load_data(path="mnist.npz"):
    """Loads MNIST as in Keras.

    Args:
        path: file name in the cache directory (or an absolute path).

    Returns:
        `(x_train, y_train), (x_test, y_test)`: uint8 images of shape
        `(n, 28, 28)` with values 0..255 and uint8 labels 0..9 of shape `(n,)`.
    """
    path = get_file(path, origin=ORIGIN, file_hash=SHA256)
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
