"""ContrastLimitedAdaptiveHistogramEqualization: histogram equalisation per tile, blended."""

import numbers

import numpy as np

from .base_image_layer import _ImageLayer, _spatial_axes, _value_range

__all__ = ["ContrastLimitedAdaptiveHistogramEqualization"]

_LEVELS = 256  # the histograms count the integer levels 0..255


def _tile_grid(value):
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 1
                       for v in value)):
        raise ValueError("ContrastLimitedAdaptiveHistogramEqualization expects "
                         "`tile_grid_size` to be a pair of positive integers (rows, columns). "
                         f"Received: tile_grid_size={value!r}")
    return tuple(int(v) for v in value)


def _tile_mappings(tiles, clip_limit, tile_pixels):
    """Each tile's lookup table (levels -> [0, 255]) from its clipped histogram.

    `tiles` holds integer levels, shape `(..., tile_pixels)`; the result has
    shape `(..., 256)`. The counts above `clip_limit * tile_pixels / 256`
    are cut and spread evenly over all levels before the cumulative sum.
    """
    flat = tiles.reshape(-1, tile_pixels)
    offsets = np.arange(flat.shape[0])[:, None] * _LEVELS
    counts = np.bincount((flat + offsets).ravel(), minlength=flat.shape[0] * _LEVELS)
    histograms = counts.reshape(tiles.shape[:-1] + (_LEVELS,)).astype(np.float32)
    if clip_limit > 0:
        limit = np.float32(clip_limit * tile_pixels / 256.0)
        clipped = np.minimum(histograms, limit)
        excess = np.sum(histograms - clipped, axis=-1, keepdims=True)
        histograms = clipped + excess / np.float32(_LEVELS)
    cdf = np.cumsum(histograms, axis=-1, dtype=np.float32)
    cdf_min = cdf.min(axis=-1, keepdims=True)
    denominator = np.float32(tile_pixels) - cdf_min
    denominator = np.where(denominator == 0, np.float32(1), denominator)
    return np.clip((cdf - cdf_min) * np.float32(255.0) / denominator, 0, 255)


def _blend_weights(length, tile, grid):
    """For each pixel along one axis: the two neighbouring tiles and the second's weight.

    Tiles are indexed from 1 in a table padded by one copy of the edge tile on
    each side, so pixels before the first tile's centre (or after the last's)
    blend a tile with its own copy.
    """
    position = (np.arange(length, dtype=np.float32) - np.float32(tile / 2.0)) / np.float32(tile)
    position = position + np.float32(1.0)
    low = np.floor(position)
    weight = position - low
    first = np.clip(low, 0, grid + 1).astype(np.int64)
    second = np.clip(low + 1, 0, grid + 1).astype(np.int64)
    return first, second, weight


def clahe(images, clip_limit, tile_grid_size):
    """CLAHE of channels-last float32 images `(batch, height, width, channels)` on [0, 255].

    The image is padded at the bottom and right by reflection (edge pixel
    repeated) to whole tiles; each tile's mapping is computed from its
    histogram, and each pixel is mapped through the four nearest tiles'
    mappings, blended bilinearly by its distance to their centres.
    """
    batch, height, width, channels = images.shape
    grid_h, grid_w = tile_grid_size
    tile_h, tile_w = -(-height // grid_h), -(-width // grid_w)
    padded = np.pad(images, [(0, 0), (0, tile_h * grid_h - height),
                             (0, tile_w * grid_w - width), (0, 0)], mode="symmetric")
    levels = np.clip(padded.astype(np.int64), 0, _LEVELS - 1)
    tiles = levels.reshape(batch, grid_h, tile_h, grid_w, tile_w, channels)
    tiles = tiles.transpose(0, 1, 3, 5, 2, 4).reshape(batch, grid_h, grid_w, channels, -1)
    mappings = _tile_mappings(tiles, clip_limit, tile_h * tile_w)
    mappings = np.pad(mappings, [(0, 0), (1, 1), (1, 1), (0, 0), (0, 0)], mode="edge")

    rows = _blend_weights(tile_h * grid_h, tile_h, grid_h)
    cols = _blend_weights(tile_w * grid_w, tile_w, grid_w)
    b = np.arange(batch)[:, None, None, None]
    c = np.arange(channels)[None, None, None, :]

    def look_up(row, col):
        return mappings[b, row[None, :, None, None], col[None, None, :, None], c, levels]

    wy = rows[2][None, :, None, None]
    wx = cols[2][None, None, :, None]
    top = look_up(rows[0], cols[0]) * (1 - wx) + look_up(rows[0], cols[1]) * wx
    bottom = look_up(rows[1], cols[0]) * (1 - wx) + look_up(rows[1], cols[1]) * wx
    return (top * (1 - wy) + bottom * wy)[:, :height, :width, :]


class ContrastLimitedAdaptiveHistogramEqualization(_ImageLayer):
    """Raises local contrast by equalising the histogram of each tile of the image.

    Contrast Limited Adaptive Histogram Equalization (CLAHE), computed as
    Keras 3 computes it: each image is cut into a `tile_grid_size` grid of
    tiles (padded at the bottom and right by reflection to whole tiles);
    each tile and channel gets its own histogram of the integer levels
    0..255 (after rescaling `value_range` to [0, 255]), cut at
    `clip_limit * tile_pixels / 256` with the excess spread evenly over all
    levels, and turned into a lookup table by its cumulative sum. Each pixel
    is mapped through the tables of the four tiles nearest to it, blended
    bilinearly, so no tile edges show.

    The layer is not random: it applies in training and inference alike, as
    in Keras. It works on the pixel values (a histogram has no useful
    gradient), so no gradient flows through it. Outputs are floats in
    `value_range`; an integer image comes back in its own dtype, as in
    Keras.

    Args:
        value_range: the `(low, high)` range of the pixel values.
        clip_limit: how far a histogram bin may rise above the flat
            histogram's height before it is cut; `0` or less turns the
            limit off (plain adaptive equalisation).
        tile_grid_size: the number of tiles `(rows, columns)`.
        data_format: `"channels_last"` (default) or `"channels_first"`.

    >>> import numpy as np
    >>> x = np.array([[0.0, 0.0], [0.0, 255.0]]).reshape(1, 2, 2, 1)
    >>> layer = ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(1, 1))
    >>> layer(x).ravel().tolist()
    [0.0, 0.0, 0.0, 255.0]
    """

    def __init__(self, value_range=(0, 255), clip_limit=4.0, tile_grid_size=(8, 8),
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        name = "ContrastLimitedAdaptiveHistogramEqualization"
        self.value_range = _value_range(name, value_range)
        if not isinstance(clip_limit, numbers.Real) or isinstance(clip_limit, bool):
            raise TypeError(f"{name} expects `clip_limit` to be a number. "
                             f"Received: clip_limit={clip_limit!r}")
        self.clip_limit = clip_limit
        self.tile_grid_size = _tile_grid(tile_grid_size)

    _keeps_boxes = True  # pixel values change, not where they are

    def call(self, inputs, training=True):  # the same in training and inference
        if isinstance(inputs, dict):
            return self._call_data(inputs, training=training)
        _spatial_axes(self, inputs.shape)
        values = np.asarray(getattr(inputs, "value", inputs))
        images = values.astype(np.float32)
        if len(images.shape) == 3:
            images = images[None]
        if self.data_format == "channels_first":
            images = images.transpose(0, 2, 3, 1)
        low, high = (np.float32(v) for v in self.value_range)
        scaled = (low, high) != (0, 255)
        if scaled:
            images = (images - low) / (high - low) * np.float32(255.0)
        out = clahe(images, self.clip_limit, self.tile_grid_size)
        if scaled:
            out = out / np.float32(255.0) * (high - low) + low
        if self.data_format == "channels_first":
            out = out.transpose(0, 3, 1, 2)
        out = out.reshape(values.shape)
        if np.issubdtype(values.dtype, np.integer):
            return out.astype(values.dtype)
        return out.astype(self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "clip_limit": self.clip_limit,
                       "tile_grid_size": self.tile_grid_size})
        return config
