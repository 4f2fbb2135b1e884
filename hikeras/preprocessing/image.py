"""Keras's `keras.preprocessing.image`: Pillow helpers and `smart_resize`."""

from ..layers import Resizing
from ..utils import array_to_img, img_to_array, load_img, save_img


def smart_resize(x, size, interpolation="bilinear", data_format="channels_last", **kwargs):
    """Resizes an image (or a batch) to `size` without distorting it.

    The largest centred window with the target's aspect ratio is cropped
    first, then resized to `(height, width)`.

    Args:
        x: a `(height, width, channels)` image or a batch of them (channels
            first with `data_format="channels_first"`).
        size: `(height, width)`.
        interpolation: `"bilinear"` or `"nearest"`.
    """
    if kwargs:
        raise TypeError(f"smart_resize got unexpected keyword arguments. Received: {kwargs}")
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise ValueError(f"smart_resize expects size=(height, width). Received: size={size!r}")
    ndim = getattr(x, "ndim", None)
    if ndim not in (3, 4):
        raise ValueError("smart_resize expects an image of rank 3 or a batch of rank 4. "
                         f"Received: x.shape={getattr(x, 'shape', None)}")
    layer = Resizing(size[0], size[1], interpolation=interpolation, crop_to_aspect_ratio=True,
                     data_format=data_format, dtype=str(x.dtype) if x.dtype.kind == "f" else None)
    if ndim == 3:
        return layer(x[None])[0]
    return layer(x)


__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "smart_resize"]
