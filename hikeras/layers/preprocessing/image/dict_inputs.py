"""Keras's dict inputs for image layers that leave labels alone.

Keras's image preprocessing layers also take `{"images": ..., "labels": ...}`
(as a `tf.data` pipeline yields them) and return the dict with the images
transformed. For the layers here the labels pass through unchanged; bounding
boxes and segmentation masks are not supported and are refused by name.
"""

from ....backend import SymbolicTensor

_KEYS = ("images", "labels")


def _images(layer, inputs):
    unknown = sorted(set(inputs) - set(_KEYS))
    if "images" not in inputs or unknown:
        raise ValueError(
            f"{type(layer).__name__} takes images, or a dict with the key 'images' (and "
            f"optionally 'labels', passed through). Received: a dict with keys "
            f"{sorted(inputs)}")
    return inputs["images"]


class ImagesOrDict:
    """Mixin (before the layer's base class): `call` and the output spec accept a dict.

    The images go through `_call_images`, by default the base class's `call`.
    """

    def call(self, inputs, training=True):
        if not isinstance(inputs, dict):
            return self._call_images(inputs, training)
        return {**inputs, "images": self._call_images(_images(self, inputs), training)}

    def _call_images(self, images, training):
        return super().call(images, training=training)

    def compute_output_spec(self, inputs, training=None):
        if not isinstance(inputs, dict):
            return super().compute_output_spec(inputs, training=training)
        images = super().compute_output_spec(_images(self, inputs), training=training)
        return {**{k: SymbolicTensor(v.shape, v.dtype) for k, v in inputs.items()},
                "images": images}
