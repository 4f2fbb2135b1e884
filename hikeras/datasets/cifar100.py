"""CIFAR-100: 60,000 32x32 colour images in 100 classes, grouped into 20 superclasses.

As for CIFAR-10, Keras reads the *python* version of the archive (pickles);
hikeras reads the *binary* version (`cifar-100-binary.tar.gz`, same images
and labels) without unpickling: each record of `train.bin` and `test.bin` is
the coarse label byte, the fine label byte, then 3,072 pixel bytes (the red,
green and blue 32x32 planes). Members are read straight from the tarball;
nothing is extracted to disk. The archive is downloaded on first use into
`$HIKERAS_HOME/datasets` (default `~/.hikeras/datasets`) and verified by
SHA-256; offline, copy it there by hand.

The SHA-256 is the one pinned for this file by independent loaders (Julia's
MLDatasets, torch.rb); the publisher's page lists only its MD5,
`03b5dce01913d631647c71ecec9e9cb8`. Keras pins the python version instead.
"""

from .. import backend
from ..utils.file_utils import get_file
from ._cifar_binary import read_records

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-binary.tar.gz"
SHA256 = "58a81ae192c23a4be8b1804d68e518ed807d710a4eb253b1f2a199162a40d8ec"
_FOLDER = "cifar-100-binary"
_LABEL_COLUMN = {"coarse": 0, "fine": 1}


def load_data(label_mode="fine"):
    """Loads CIFAR-100 as in Keras.

    Args:
        label_mode: `"fine"` (the 100 classes) or `"coarse"` (the 20
            superclasses).

    Returns:
        `(x_train, y_train), (x_test, y_test)`: uint8 images of shape
        `(n, 32, 32, 3)` (or `(n, 3, 32, 32)` with the "channels_first"
        image data format) and uint8 labels of shape `(n, 1)`; n is 50,000
        and 10,000.
    """
    if label_mode not in _LABEL_COLUMN:
        raise ValueError('`label_mode` must be one of `"fine"`, `"coarse"`. '
                         f"Received: label_mode={label_mode!r}")
    path = get_file(origin=ORIGIN, file_hash=SHA256)
    column = _LABEL_COLUMN[label_mode]
    parts = []
    for name in ("train.bin", "test.bin"):
        images, labels = read_records(path, [f"{_FOLDER}/{name}"], 2,
                                      "CIFAR-100 binary version")
        if backend.image_data_format() == "channels_last":
            images = images.transpose(0, 2, 3, 1)
        parts.append((images, labels[:, column:column + 1]))
    return tuple(parts)
