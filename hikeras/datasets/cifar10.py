"""CIFAR-10: 60,000 32x32 colour images in 10 classes.

Keras reads the *python* version of the archive, which is a set of
pickles; unpickling a downloaded file can execute code, so hikeras reads
the *binary* version instead (`cifar-10-binary.tar.gz`, same images and
labels): each record is one label byte followed by 3,072 pixel bytes (the
red, green and blue 32x32 planes). Members are read straight from the
tarball (`_cifar_binary`); nothing is extracted to disk. The archive is
downloaded on first use into `$HIKERAS_HOME/datasets` (default `~/.hikeras/datasets`) and
verified by SHA-256; offline, copy it there by hand. Classes: 0 airplane,
1 automobile, 2 bird, 3 cat, 4 deer, 5 dog, 6 frog, 7 horse, 8 ship, 9 truck.
"""

from .. import backend
from ..utils.file_utils import get_file
from ._cifar_binary import read_records

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz"
SHA256 = "c4a38c50a1bc5f3a1c5537f2155ab9d68f9f25eb1ed8d9ddda3db29a59bca1dd"
_FOLDER = "cifar-10-batches-bin"


def read_batches(archive_path, names):
    """`(images, labels)` from the named binary batch files inside the tarball.

    Images are uint8 `(n, 3, 32, 32)` (channels first, as stored); labels
    uint8 `(n,)`.
    """
    images, labels = read_records(archive_path, [f"{_FOLDER}/{name}" for name in names], 1,
                                  "CIFAR-10 binary version")
    return images, labels[:, 0]


def load_data():
    """Loads CIFAR-10 as in Keras.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: uint8 images of shape
        `(n, 32, 32, 3)` (or `(n, 3, 32, 32)` with the "channels_first"
        image data format) and uint8 labels of shape `(n, 1)`; n is 50,000
        and 10,000.
    """
    path = get_file(origin=ORIGIN, file_hash=SHA256)
    x_train, y_train = read_batches(path, [f"data_batch_{i}.bin" for i in range(1, 6)])
    x_test, y_test = read_batches(path, ["test_batch.bin"])
    if backend.image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train.reshape(-1, 1)), (x_test, y_test.reshape(-1, 1))
