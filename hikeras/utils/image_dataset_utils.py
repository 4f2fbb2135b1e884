"""`image_dataset_from_directory`: a labelled image `Dataset` from a folder tree.

Images are decoded with Pillow, an optional dependency
(`pip install "hikeras[image]"`). Resizing uses Pillow's filters, which
smooth when shrinking; TensorFlow's `tf.image.resize` does not, so resized
pixels can differ slightly from Keras's (images already at `image_size`
are returned exactly).
"""

import numpy as np

from . import dataset_utils
from .rng import make_generator

ALLOWED_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_MODES = {"grayscale": "L", "rgb": "RGB", "rgba": "RGBA"}
_FILTERS = {"nearest": "NEAREST", "bilinear": "BILINEAR", "bicubic": "BICUBIC",
            "area": "BOX", "lanczos3": "LANCZOS", "lanczos5": "LANCZOS"}


def _pillow():
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError(
            "image_dataset_from_directory decodes images with Pillow, which is not "
            'installed. Install it with `pip install "hikeras[image]"` (or `pip install '
            'Pillow`).'
        ) from error
    return Image


def load_image(path, image_size, color_mode="rgb", interpolation="bilinear",
               crop_to_aspect_ratio=False, pad_to_aspect_ratio=False):
    """One image file as a float32 `(height, width, channels)` array in [0, 255]."""
    image_module = _pillow()
    height, width = image_size
    with image_module.open(path) as image:
        image = image.convert(_MODES[color_mode])
        if crop_to_aspect_ratio or pad_to_aspect_ratio:
            image = _fit_aspect_ratio(image_module, image, height, width, crop_to_aspect_ratio)
        if image.size != (width, height):
            resample = getattr(image_module.Resampling, _FILTERS[interpolation])
            image = image.resize((width, height), resample)
        array = np.asarray(image, dtype="float32")
    return array[..., None] if array.ndim == 2 else array


def _fit_aspect_ratio(image_module, image, height, width, crop):
    """Centre-crops (or zero-pads) `image` to the aspect ratio `width / height`."""
    w, h = image.size
    if crop:
        new_w, new_h = min(w, h * width // height), min(h, w * height // width)
        left, top = (w - new_w) // 2, (h - new_h) // 2
        return image.crop((left, top, left + new_w, top + new_h))
    new_w, new_h = max(w, -(-h * width // height)), max(h, -(-w * height // width))
    canvas = image_module.new(image.mode, (new_w, new_h))
    canvas.paste(image, ((new_w - w) // 2, (new_h - h) // 2))
    return canvas


def image_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, color_mode="rgb", batch_size=32,
                                 image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False,
                                 pad_to_aspect_ratio=False, data_format=None, verbose=True):
    """Images in `directory` (one subdirectory per class) as a `Dataset` of batches.

    Args:
        directory: the root folder; with `labels="inferred"` each
            subdirectory holds one class (alphanumeric order).
        labels: `"inferred"`, None (images only), or a list of integer
            labels, one per file in sorted path order.
        label_mode: `"int"` (int32), `"categorical"` (one-hot float32),
            `"binary"` (float32 of shape `(batch, 1)`, 2 classes) or None.
        class_names: explicit class order (subdirectory names).
        color_mode: `"grayscale"`, `"rgb"` or `"rgba"` (1, 3, 4 channels).
        batch_size: images per batch, or None for single images.
        image_size: `(height, width)` every image is resized to.
        shuffle: shuffle the files (and the batches' order on every pass).
        seed: seed for shuffling and the validation split.
        validation_split, subset: hold out the last fraction of the
            (shuffled) files; subset is `"training"`, `"validation"` or
            `"both"` (returns two datasets).
        interpolation: `"nearest"`, `"bilinear"`, `"bicubic"`, `"area"`,
            `"lanczos3"` or `"lanczos5"`.
        follow_links: follow symbolic links to subdirectories.
        crop_to_aspect_ratio, pad_to_aspect_ratio: centre-crop (or
            zero-pad) to `image_size`'s aspect ratio before resizing.
        data_format: `"channels_last"` (default) or `"channels_first"`.
        verbose: print how many files and classes were found.

    Returns:
        A `Dataset` of `(images, labels)` (or images) with attributes
        `class_names` and `file_paths`; a pair of them for `subset="both"`.

    Raises:
        ImportError: if Pillow is not installed.
    """
    _pillow()
    if color_mode not in _MODES:
        raise ValueError('`color_mode` must be "grayscale", "rgb" or "rgba". '
                         f"Received: color_mode={color_mode!r}")
    if interpolation not in _FILTERS:
        raise ValueError(f"`interpolation` must be one of {sorted(_FILTERS)}. "
                         f"Received: interpolation={interpolation!r}")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Set only one of `crop_to_aspect_ratio` and `pad_to_aspect_ratio`. "
                         "Received: both True")
    if data_format not in (None, "channels_last", "channels_first"):
        raise ValueError('`data_format` must be "channels_last" or "channels_first". '
                         f"Received: data_format={data_format!r}")
    image_size = tuple(int(s) for s in image_size)
    dataset_utils.check_validation_split(validation_split, subset, shuffle, seed)
    if seed is None and shuffle:
        seed = int(make_generator().integers(1_000_000))
    paths, found, class_names = dataset_utils.index_directory(
        directory, labels, ALLOWED_FORMATS, class_names=class_names, shuffle=shuffle,
        seed=seed, follow_links=follow_links, verbose=verbose)
    label_mode = dataset_utils.check_label_mode(label_mode, found, len(class_names or []))

    def load(path):
        image = load_image(path, image_size, color_mode, interpolation,
                           crop_to_aspect_ratio, pad_to_aspect_ratio)
        return np.moveaxis(image, -1, 0) if data_format == "channels_first" else image

    results = []
    for subset_paths, subset_labels in dataset_utils.validation_subsets(
            paths, found, validation_split, subset, verbose):
        if not subset_paths:
            raise ValueError(f"No images found in directory {directory}. Allowed formats: "
                             f"{ALLOWED_FORMATS}. Received: 0 files")
        dataset = dataset_utils.files_to_dataset(
            subset_paths, subset_labels, label_mode, len(class_names or []), load,
            batch_size, shuffle, seed)
        dataset.class_names = class_names
        dataset.file_paths = subset_paths
        results.append(dataset)
    return tuple(results) if subset == "both" else results[0]
