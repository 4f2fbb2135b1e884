"""`Feature` and `Cross`: what one input column, or one crossing of columns, becomes.

Both are plain serialisable records, named as Keras names them in a
`FeatureSpace` config (`"class_name": "Feature"` / `"Cross"`).
"""

from ....serialization import serialize_keras_object
from ...layer_table import deserialize

__all__ = []  # reached through FeatureSpace.feature / FeatureSpace.cross

_FEATURE_MODES = ("int", "one_hot", "float")
_CROSS_MODES = ("int", "one_hot")


class Feature:
    """One input column: its `dtype`, the layer that `preprocessor`s it, and its `output_mode`.

    `output_mode` is `"float"` (the preprocessor's output is used as is),
    `"int"` (integer ids, left unencoded) or `"one_hot"` (the ids are
    one-hot encoded by the feature space).
    """

    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in _FEATURE_MODES:
            raise ValueError(f"A FeatureSpace feature's `output_mode` is one of {_FEATURE_MODES}. "
                             f"Received: output_mode={output_mode!r}")
        if isinstance(preprocessor, dict):
            preprocessor = deserialize(preprocessor)
        self.dtype = dtype
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        return {"dtype": self.dtype, "preprocessor": serialize_keras_object(self.preprocessor),
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Cross:
    """A crossing of `feature_names` hashed into `crossing_dim` bins (`HashedCrossing`)."""

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in _CROSS_MODES:
            raise ValueError(f"A FeatureSpace cross's `output_mode` is one of {_CROSS_MODES}. "
                             f"Received: output_mode={output_mode!r}")
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        """`"a_X_b"` for a cross of features `a` and `b`, as Keras names it."""
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
