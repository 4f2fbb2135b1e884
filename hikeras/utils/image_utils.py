"""Images as Pillow images and as arrays: `load_img`, `save_img`, `img_to_array`, ...

Pillow is an optional dependency (`pip install "hikeras[image]"`), imported
when one of these functions runs.
"""

import numpy as np

from .. import backend

_MODES = {"grayscale": "L", "rgb": "RGB", "rgba": "RGBA"}
_FILTERS = {"nearest": "NEAREST", "bilinear": "BILINEAR", "bicubic": "BICUBIC",
            "hamming": "HAMMING", "box": "BOX", "lanczos": "LANCZOS"}


def _pillow(function):
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError(f"{function} needs Pillow, which is not installed. Install it with "
                          '`pip install "hikeras[image]"`.') from error
    return Image


def _data_format(data_format):
    data_format = data_format or backend.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("data_format must be 'channels_last' or 'channels_first'. "
                         f"Received: data_format={data_format!r}")
    return data_format


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A Pillow image from a `(height, width, channels)` array (1, 3 or 4 channels).

    With `scale`, values are shifted and stretched to fill `[0, 255]`.
    """
    image_module = _pillow("array_to_img")
    data_format = _data_format(data_format)
    x = np.asarray(x, dtype=dtype or backend.floatx())
    if x.ndim != 3:
        raise ValueError("Expected image array to have rank 3 (single image). "
                         f"Received: x.shape={x.shape}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        peak = np.max(x)
        if peak != 0:
            x = x / peak
        x = x * 255
    channels = x.shape[2]
    if channels == 4:
        return image_module.fromarray(x.astype("uint8"), "RGBA")
    if channels == 3:
        return image_module.fromarray(x.astype("uint8"), "RGB")
    if channels == 1:
        if np.max(x) > 255:  # 32-bit signed integer grayscale
            return image_module.fromarray(x[:, :, 0].astype("int32"), "I")
        return image_module.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}. Received: x.shape={x.shape}")


def img_to_array(img, data_format=None, dtype=None):
    """A `(height, width, channels)` array (channels first if asked) from a Pillow image."""
    data_format = _data_format(data_format)
    x = np.asarray(img, dtype=dtype or backend.floatx())
    if x.ndim == 2:
        x = x[..., None]
    elif x.ndim != 3:
        raise ValueError(f"Unsupported image shape: {x.shape}")
    return x.transpose(2, 0, 1) if data_format == "channels_first" else x


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Writes the image array `x` to `path` (format from `file_format` or the extension)."""
    image = array_to_img(x, data_format=data_format, scale=scale)
    suffix = str(path).lower().rsplit(".", 1)[-1]
    if image.mode == "RGBA" and (file_format == "jpg" or suffix in ("jpg", "jpeg")):
        image = image.convert("RGB")  # JPEG has no alpha channel
    image.save(path, format=file_format, **kwargs)


def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest",
             keep_aspect_ratio=False):
    """Reads an image file as a Pillow image, converted to `color_mode`.

    Args:
        path: the file.
        color_mode: `"grayscale"`, `"rgb"` or `"rgba"`.
        target_size: `(height, width)` to resize to, or None.
        interpolation: Pillow filter: `"nearest"`, `"bilinear"`, `"bicubic"`,
            `"hamming"`, `"box"` or `"lanczos"`.
        keep_aspect_ratio: centre-crop to the target's aspect ratio before resizing.
    """
    image_module = _pillow("load_img")
    if color_mode not in _MODES:
        raise ValueError(f"color_mode must be one of {sorted(_MODES)}. "
                         f"Received: color_mode={color_mode!r}")
    if interpolation not in _FILTERS:
        raise ValueError(f"interpolation must be one of {sorted(_FILTERS)}. "
                         f"Received: interpolation={interpolation!r}")
    with open(path, "rb") as f:
        image = image_module.open(f)
        image.load()
    image = image.convert(_MODES[color_mode])
    if target_size is not None:
        height, width = target_size
        if keep_aspect_ratio:
            w, h = image.size
            crop_w, crop_h = min(w, h * width // height), min(h, w * height // width)
            left, top = (w - crop_w) // 2, (h - crop_h) // 2
            image = image.crop((left, top, left + crop_w, top + crop_h))
        if image.size != (width, height):
            image = image.resize((width, height),
                                 getattr(image_module.Resampling, _FILTERS[interpolation]))
    return image
