"""Reading the records of the CIFAR *binary* archives, straight from the tarball.

Both CIFAR archives come in a binary version: files of fixed-size records,
label bytes followed by the 3,072 pixel bytes of one image (the red, green and
blue 32x32 planes). Reading those needs no unpickling, unlike the *python*
version Keras downloads. Members are read from the tarball in memory; nothing
is extracted to disk, and a member that is not a regular file is refused.
"""

import tarfile

import numpy as np

IMAGE_BYTES = 3 * 32 * 32


def read_records(archive_path, members, label_bytes, version_name):
    """`(images, labels)` from the named members of a CIFAR binary tarball.

    Args:
        archive_path: the `.tar.gz` file.
        members: member paths inside the archive, read in order.
        label_bytes: label bytes at the start of each record (1 for CIFAR-10,
            2 for CIFAR-100: coarse, then fine).
        version_name: the archive's name for error messages.

    Returns:
        uint8 images `(n, 3, 32, 32)` (channels first, as stored) and uint8
        labels `(n, label_bytes)`.
    """
    record = label_bytes + IMAGE_BYTES
    images, labels = [], []
    with tarfile.open(archive_path, "r:gz") as archive:
        for member in members:
            try:
                info = archive.getmember(member)
            except KeyError:
                raise ValueError(f"{archive_path} has no member {member}; is it the "
                                 f"{version_name}? Received: a different archive") from None
            if not info.isfile():
                raise ValueError(f"{member} in {archive_path} is not a regular file. "
                                 f"Received: member type {info.type!r}")
            data = archive.extractfile(info).read()
            if len(data) % record:
                raise ValueError(f"{member} holds {len(data)} bytes, not a whole number of "
                                 f"{record}-byte records. Received: a corrupted archive")
            records = np.frombuffer(data, np.uint8).reshape(-1, record)
            labels.append(records[:, :label_bytes])
            images.append(records[:, label_bytes:].reshape(-1, 3, 32, 32))
    return np.concatenate(images), np.concatenate(labels)
