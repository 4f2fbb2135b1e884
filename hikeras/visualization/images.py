"""What the visualization helpers share: batch checks, layouts and value ranges."""

import numpy as np

from .. import config


def batched_images(function, images):
    """`images` as an array, which must be a batch (rank 4)."""
    images = np.asarray(images)
    if images.ndim != 4:
        raise ValueError(f"{function}() expects `images` to be a batch of images (rank 4). "
                         f"Received: images.shape={images.shape}")
    return images


def data_format_of(function, data_format):
    data_format = data_format or config.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"{function}() expects `data_format` to be 'channels_last' or "
                         f"'channels_first'. Received: data_format={data_format!r}")
    return data_format


def to_channels_last(images, data_format):
    return images.transpose(0, 2, 3, 1) if data_format == "channels_first" else images


def to_value_range(images, value_range, target=(0, 255)):
    """Images rescaled linearly from `value_range` to `target`, in float32."""
    if tuple(value_range) == tuple(target):
        return images
    low, high = (np.float32(v) for v in value_range)
    images = images.astype("float32")
    return (images - low) / (high - low) * np.float32(target[1] - target[0]) + target[0]
