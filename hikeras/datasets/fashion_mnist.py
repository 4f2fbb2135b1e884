"""Fashion-MNIST: 70,000 28x28 grayscale images of 10 kinds of clothing.

The four gzipped IDX files are downloaded on first use into
`$HIKERAS_HOME/datasets/fashion-mnist` (default `~/.hikeras/...`) and
verified by SHA-256; offline, copy them there by hand. Classes: 0
T-shirt/top, 1 Trouser, 2 Pullover, 3 Dress, 4 Coat, 5 Sandal, 6 Shirt,
7 Sneaker, 8 Bag, 9 Ankle boot. (c) Zalando SE, MIT license.
"""

import gzip
import os

import numpy as np

from ..utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
SHA256 = {
    "train-labels-idx1-ubyte.gz":
        "a04f17134ac03560a47e3764e11b92fc97de4d1bfaf8ba1a3aa29af54cc90845",
    "train-images-idx3-ubyte.gz":
        "3aede38d61863908ad78613f6a32ed271626dd12800ba2636569512369268a84",
    "t10k-labels-idx1-ubyte.gz":
        "67da17c76eaffca5446c3361aaab5c3cd6d1c2608764d35dfb1850b086bf8dd5",
    "t10k-images-idx3-ubyte.gz":
        "346e55b948d973a97e58d2351dde16a484bd415d4595297633bb08f03db6a073",
}


def read_idx(path):
    """A uint8 array from a gzipped IDX file (the MNIST format), checking its header."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[:2] != b"\x00\x00" or data[2] != 0x08:
        raise ValueError(f"{path} is not an IDX file of unsigned bytes. "
                         f"Received: header {data[:4]!r}")
    ndim = data[3]
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    offset = 4 + 4 * ndim
    if len(data) - offset != int(np.prod(shape)):
        raise ValueError(f"{path} holds {len(data) - offset} bytes of data but its header "
                         f"says shape {shape}. Received: a truncated or corrupted file")
    return np.frombuffer(data, np.uint8, offset=offset).reshape(shape)


def load_data():
    """Loads Fashion-MNIST as in Keras.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: uint8 images `(n, 28, 28)`
        and uint8 labels 0..9 of shape `(n,)`; n is 60,000 and 10,000.
    """
    paths = {name: get_file(name, origin=ORIGIN_FOLDER + name, file_hash=digest,
                            cache_subdir=os.path.join("datasets", "fashion-mnist"))
             for name, digest in SHA256.items()}
    x_train = read_idx(paths["train-images-idx3-ubyte.gz"])
    y_train = read_idx(paths["train-labels-idx1-ubyte.gz"])
    x_test = read_idx(paths["t10k-images-idx3-ubyte.gz"])
    y_test = read_idx(paths["t10k-labels-idx1-ubyte.gz"])
    return (x_train, y_train), (x_test, y_test)
