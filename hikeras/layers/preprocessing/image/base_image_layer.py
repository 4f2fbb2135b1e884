"""What the image preprocessing layers share: argument checks, axes, crops and the random-layer base."""

import numbers

import numpy as np

from .... import ops
from ....backend import SymbolicTensor
from ....ops import kernels
from ....utils import tree
from ....utils.bounding_boxes.formats import check_format
from ....utils.rng import make_generator
from ...convolutional.arguments import standardize_data_format
from ...layer import Layer
from . import bounding_box_inputs

_INTERPOLATIONS = ("bilinear", "nearest")


# ----------------------------------------------------------------- arguments
def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _one_of(layer_name, argument, value, options):
    """`value`, checked to be one of `options` (Keras's error names the argument otherwise)."""
    if value not in options:
        raise ValueError(f"{layer_name} expects `{argument}` to be one of {options}. "
                         f"Received: {argument}={value!r}")
    return value


def _number(layer_name, argument, value):
    """`value`, checked to be a real number (not a bool)."""
    if not _is_number(value):
        raise ValueError(f"{layer_name} expects `{argument}` to be a number. "
                         f"Received: {argument}={value!r}")
    return value


def _positive_int(layer_name, argument, value):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{layer_name} expects `{argument}` to be a positive integer. "
                         f"Received: {argument}={value!r}")
    return int(value)


def _factor_range(layer_name, factor, low, high):
    """Keras's reading of `factor`: a pair sorted, or a number `f` as `(max(-f, low), f)`."""
    message = (f"{layer_name} expects `factor` to be a number or a pair of numbers in "
               f"[{low}, {high}]. Received: factor={factor!r}")
    if isinstance(factor, (list, tuple)):
        if len(factor) != 2 or not all(_is_number(f) and low <= f <= high for f in factor):
            raise ValueError(message)
        return tuple(sorted(factor))
    if not _is_number(factor) or not low <= factor <= high:
        raise ValueError(message)
    return (max(-abs(factor), low), abs(factor))


def _value_range(layer_name, value_range):
    if (not isinstance(value_range, (list, tuple)) or len(value_range) != 2
            or not all(_is_number(v) for v in value_range)):
        raise ValueError(f"{layer_name} expects `value_range` to be a pair of numbers "
                         f"(low, high). Received: value_range={value_range!r}")
    return value_range


# -------------------------------------------------------------------- layout
def _spatial_axes(layer, shape):
    """The height and width axes of a single image or a batch of images."""
    if len(shape) not in (3, 4):
        raise ValueError(
            f"Layer '{layer.name}' ({type(layer).__name__}) expects a single image (rank 3) "
            f"or a batch of images (rank 4). Received: input_shape={tuple(shape)}")
    first = len(shape) - (2 if layer.data_format == "channels_first" else 3)
    return first, first + 1


def _with_size(shape, axes, size):
    shape = list(shape)
    for axis, length in zip(axes, size):
        shape[axis] = length
    return tuple(shape)


def _crop(images, axes, starts, size):
    key = [slice(None)] * len(images.shape)
    for axis, start, length in zip(axes, starts, size):
        key[axis] = slice(start, start + length)
    return kernels.getitem(images, tuple(key))


def _aspect_window(in_size, size, caster=float):
    """The centred window of the input with the target's aspect ratio, as Keras finds it.

    `in_size` and `size` are `(height, width)`; returns `(starts, lengths)`.
    Each side is `int(other_side * target_ratio)` clipped to `[1, side]`,
    computed in `caster`'s precision (Keras's resize uses float32).
    """
    (height, width), (target_h, target_w) = in_size, size
    crop_h = max(min(height, int(caster(width * target_h) / caster(target_w))), 1)
    crop_w = max(min(width, int(caster(height * target_w) / caster(target_h))), 1)
    starts = (int(caster(height - crop_h) / 2), int(caster(width - crop_w) / 2))
    return starts, (crop_h, crop_w)


def _aspect_padding(in_size, size):
    """Rows and columns Keras pads on each side to reach the target's aspect ratio.

    Keras pads `start` rows (or columns) on both sides, where `start` is half
    the missing length rounded down, so an odd difference leaves one short.
    """
    (height, width), (target_h, target_w) = in_size, size
    full_h = max(height, int(np.float32(width * target_h) / np.float32(target_w)))
    full_w = max(width, int(np.float32(height * target_w) / np.float32(target_h)))
    return (int(np.float32(full_h - height) / 2), int(np.float32(full_w - width) / 2))


def _pad_to_aspect(images, axes, size, fill_value):
    """Pads the short side evenly to the target's aspect ratio, as Keras does."""
    starts = _aspect_padding(tuple(images.shape[a] for a in axes), size)
    widths = [(0, 0)] * len(images.shape)
    for axis, start in zip(axes, starts):
        widths[axis] = (start, start)
    if all(w == (0, 0) for w in widths):
        return images
    return ops.pad(images, widths, constant_values=fill_value)


def _resize(images, axes, size, interpolation):
    resize = kernels.resize_nearest if interpolation == "nearest" else kernels.resize_bilinear
    return resize(images, tuple(size), axes=tuple(axes))


def _to_float(layer, images):
    """Images in the layer's float dtype (integer images become floats)."""
    if np.dtype(images.dtype) == np.dtype(layer.dtype):
        return images
    return ops.cast(images, layer.dtype)


def _per_image_shape(images):
    """One value per image, broadcast over its pixels and channels."""
    return (images.shape[0], 1, 1, 1) if len(images.shape) == 4 else (1, 1, 1)


class _ImageLayer(Layer):
    """Shared by the layers here: the data format, the rank check and Keras's dict inputs.

    A layer that moves pixels takes bounding boxes by providing Keras's
    `get_random_transformation` and `transform_images` and a
    `_move_pixels(images, transformation, interpolation)`, and either an affine
    `_box_matrices(transformation)` (see `bounding_box_inputs`) or its own
    `transform_bounding_boxes` (a perspective warp); one that only changes their
    values sets `_keeps_boxes`. Either then accepts `{"images": ...,
    "bounding_boxes": ..., "segmentation_masks": ...}` in eager calls.
    """

    # A layer that changes pixel values but not where they are sets this: bounding
    # boxes and segmentation masks then pass through it unchanged.
    _keeps_boxes = False

    def __init__(self, data_format=None, bounding_box_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        if bounding_box_format is not None:
            bounding_box_format = check_format(type(self).__name__, "bounding_box_format",
                                               bounding_box_format)
        self.bounding_box_format = bounding_box_format

    def compute_output_spec(self, inputs, training=None):
        if isinstance(inputs, dict):  # Keras's dict input: every entry keeps its shape
            bounding_box_inputs.check_keys(self, inputs)
            images = self.compute_output_spec(inputs["images"], training=training)
            return dict(tree.map_structure(lambda v: SymbolicTensor(v.shape, v.dtype), inputs),
                        images=images)
        _spatial_axes(self, inputs.shape)
        return SymbolicTensor(inputs.shape, self.dtype)

    def _call_data(self, data, training=True):
        """Keras's dict input: the images, their bounding boxes moved with them, labels kept."""
        batched = bounding_box_inputs.check_data(self, data)
        if "segmentation_masks" in data:
            bounding_box_inputs.check_masks(self, data["segmentation_masks"], data["images"])
        if not hasattr(self, "_move_pixels"):
            extras = sorted({"bounding_boxes", "segmentation_masks"} & set(data))
            if extras and not self._keeps_boxes:
                raise NotImplementedError(f"{type(self).__name__} does not transform {extras}. "
                                          f"Received: keys={sorted(data)}")
            if "bounding_boxes" in data:
                bounding_box_inputs.batched_boxes(self, data["bounding_boxes"], batched,
                                                  np.shape(data["images"])[0])
            return dict(data, images=self.call(data["images"], training=training))
        transformation = self.get_random_transformation(data, training=training)
        out = dict(data, images=self.transform_images(data["images"], transformation,
                                                      training=training))
        if "segmentation_masks" in data:
            out["segmentation_masks"] = self.transform_segmentation_masks(
                data["segmentation_masks"], transformation, training=training)
        if "bounding_boxes" in data:
            boxes = bounding_box_inputs.batched_boxes(
                self, data["bounding_boxes"], batched, np.shape(data["images"])[0])
            moved = self.transform_bounding_boxes(boxes, transformation, training=training)
            out["bounding_boxes"] = moved if batched else bounding_box_inputs.unbatched(moved)
        return out

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Moves a batch of boxes (`{"boxes": (batch, N, 4), "labels": (batch, N)}`, in
        `bounding_box_format`) as `transform_images` moves the images they belong to."""
        if transformation is None:  # a random layer outside training
            return bounding_boxes
        in_size = transformation["input_size"]
        return bounding_box_inputs.move_boxes(self, bounding_boxes,
                                              self._box_matrices(transformation), in_size,
                                              self._output_size(in_size))

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        """Moves masks (shaped as the images) as the images move, by nearest neighbour,
        keeping their dtype."""
        masks = np.asarray(segmentation_masks)
        if transformation is None:  # a random layer outside training
            return masks
        moved = self._move_pixels(masks.astype(self.dtype), transformation, "nearest")
        return np.asarray(moved).astype(masks.dtype)

    def _output_size(self, in_size):
        return in_size

    def _image_size(self, images):
        return tuple(int(np.shape(images)[a]) for a in _spatial_axes(self, np.shape(images)))

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config


class _FixedGeometryLayer(_ImageLayer):
    """A layer that moves pixels the same way whatever the call (`Resizing`, `CenterCrop`):
    its "random" transformation is only the input size, and `transform_images` does the rest."""

    def call(self, inputs):
        if isinstance(inputs, dict):
            return self._call_data(inputs)
        return self.transform_images(inputs, None)

    def get_random_transformation(self, data, training=True, seed=None):
        """`{"input_size": (h, w)}`: the change depends on the input size alone."""
        images = data["images"] if isinstance(data, dict) else data
        return {"input_size": self._image_size(images)}


# -------------------------------------------------------------------- random
class _RandomImageLayer(_ImageLayer):
    """A layer that augments unless `training=False`, drawing from its own generator."""

    def __init__(self, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.seed = seed
        self._rng = make_generator(seed)

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            return self._call_data(inputs, training=training)
        images = _to_float(self, inputs)
        _spatial_axes(self, images.shape)
        return self._augment(images) if training else self._infer(images)

    def _infer(self, images):
        return images

    def get_config(self):
        config = super().get_config()
        config["seed"] = self.seed
        return config
