"""AdditiveAttention: Bahdanau-style additive attention."""

from ... import ops
from .attention import Attention

__all__ = ["AdditiveAttention"]


class AdditiveAttention(Attention):
    """Additive attention, a.k.a. Bahdanau-style attention.

    As `Attention`, with scores `sum(scale * tanh(query + key), axis=-1)`,
    where `scale` is a learned vector of size `dim` (`use_scale=True`) or 1.

    >>> import numpy as np
    >>> query, value = np.ones((2, 3, 4), "float32"), np.ones((2, 5, 4), "float32")
    >>> layer = AdditiveAttention()
    >>> layer([query, value]).shape, layer.weights[0].shape
    ((2, 3, 4), (4,))
    """

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        self._validate_inputs(input_shape)
        self.scale = None
        if self.use_scale:
            self.scale = self.add_weight(shape=(input_shape[0][-1],),
                                         initializer="glorot_uniform", name="scale")

    def _scores(self, query, key):
        pairs = ops.tanh(ops.add(ops.expand_dims(query, -2), ops.expand_dims(key, -3)))
        if self.scale is not None:
            pairs = ops.multiply(self.scale, pairs)
        return ops.sum(pairs, axis=-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config
