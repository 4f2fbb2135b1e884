"""Keras's automatic layer names, in the order Keras creates the layers.

Keras names an unnamed layer from a process-wide counter when the layer is
created (`conv2d`, `conv2d_1`, ...); hikeras names unnamed layers per model, in
the model's layer order. The two agree where a network's layers are listed in
the order they are created; where they are not (the Inception branches, built
branch by branch but listed by depth), the builder names those layers itself
with a `KerasNames`, so that the names, and loading by name, are Keras's.
"""


class KerasNames:
    """Hands out Keras's automatic names for one model build, in creation order.

    >>> names = KerasNames()
    >>> [names("conv2d"), names("conv2d"), names("activation")]
    ['conv2d', 'conv2d_1', 'activation']
    >>> print(KerasNames.given(None, "conv2d"))
    None
    """

    def __init__(self):
        self._counts = {}

    def __call__(self, base):
        count = self._counts.get(base, 0)
        self._counts[base] = count + 1
        return base if count == 0 else f"{base}_{count}"

    @staticmethod
    def given(names, base):
        """`names(base)`, or None (hikeras's own naming) when there is no `KerasNames`."""
        return None if names is None else names(base)
