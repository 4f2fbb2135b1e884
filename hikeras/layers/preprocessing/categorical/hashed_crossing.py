"""HashedCrossing: the hash of a combination of categorical features, as Keras computes it."""

import numpy as np

from .... import backend
from ....backend import SymbolicTensor, Tensor
from ...layer import Layer
from .encoding import encode_categorical, encoded_shape
from .farmhash import fingerprint64, fingerprint_cat64
from .index_lookup import check_choice
from .string_hashing import as_bytes, hash_bytes, value_kind

__all__ = ["HashedCrossing"]

# TensorFlow's `sparse.cross_hashed` starts every row's chain from this key.
_DEFAULT_HASH_KEY = np.uint64(0xDECAFCAFFE)


class HashedCrossing(Layer):
    """Crosses two or more categorical features into `num_bins` buckets, as Keras does.

    Each sample's features are combined as TensorFlow's `sparse.cross_hashed`
    does: a string feature contributes its FarmHash Fingerprint64, an
    integer feature its own value, and the contributions are chained with
    `FingerprintCat64` from a fixed key. So the bucket of ("A", 101) is the
    one Keras gives it.

    Args:
        num_bins: the number of buckets.
        output_mode: `"int"` (default, the bucket numbers) or `"one_hot"`.
        sparse: must be False (hikeras has no sparse tensors).

    Call arguments:
        inputs: a list or tuple of at least two arrays of strings or integers,
            all of shape `()`, `(batch_size,)` or `(batch_size, 1)`.

    >>> import numpy as np
    >>> layer = HashedCrossing(num_bins=5)
    >>> layer((np.array(["A", "B", "A", "B", "A"]), np.array([101, 101, 101, 102, 102]))).tolist()
    [1, 4, 1, 1, 3]
    """

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None,
                 **kwargs):
        if dtype is None:
            dtype = "int64" if output_mode == "int" else backend.floatx()
        super().__init__(name=name, dtype=dtype, **kwargs)
        check_choice(self, "output_mode", output_mode, ("int", "one_hot"))
        if (not isinstance(num_bins, (int, np.integer)) or isinstance(num_bins, bool)
                or num_bins <= 0):
            raise ValueError(f"Layer '{self.name}' (HashedCrossing) needs `num_bins`, a positive "
                             f"integer. Received: num_bins={num_bins!r}")
        if sparse:
            raise ValueError(f"Layer '{self.name}' (HashedCrossing): hikeras has no sparse "
                             f"tensors, so `sparse` must be False. Received: sparse={sparse!r}")
        self.num_bins = int(num_bins)
        self.output_mode = output_mode
        self.sparse = False

    def _convert_inputs(self, inputs):
        return inputs  # hashed as given: no cast of floats to the layer's dtype (as Keras)

    def call(self, inputs):
        self._check_inputs(inputs)
        if any(isinstance(x, SymbolicTensor) for x in inputs):
            return self.compute_output_spec(inputs)
        features = [x.value if isinstance(x, Tensor) else np.asarray(x) for x in inputs]
        self._check_features(features)
        crossed = np.full(features[0].size, _DEFAULT_HASH_KEY, dtype=np.uint64)
        for feature in features:
            crossed = fingerprint_cat64(crossed, self._feature_hash(feature))
        bins = (crossed % np.uint64(self.num_bins)).astype(np.int64).reshape(features[0].shape)
        if self.output_mode == "int":
            return bins.astype(self.dtype)
        if bins.ndim == 0:  # one sample: a vector of num_bins, as Keras
            return encode_categorical(bins.reshape(1), "one_hot", self.num_bins, self.dtype)[0]
        return encode_categorical(bins, "one_hot", self.num_bins, self.dtype)

    @staticmethod
    def _feature_hash(feature):
        if value_kind(feature) == "string":
            return hash_bytes(as_bytes(feature, "string"), fingerprint64)
        return feature.reshape(-1).astype(np.int64).view(np.uint64)  # an integer is its own hash

    def _check_inputs(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(f"Layer '{self.name}' (HashedCrossing) is called on a list or tuple "
                             f"of at least two inputs. Received: inputs={inputs!r}")
        shapes = [tuple(x.shape) if hasattr(x, "shape") else np.shape(x) for x in inputs]
        first = shapes[0]
        if len(first) > 2 or (len(first) == 2 and first[-1] != 1):
            raise ValueError(f"Layer '{self.name}' (HashedCrossing) inputs must have shape (), "
                             f"(batch_size,) or (batch_size, 1). Received: shapes {shapes}")
        if any(shape != first for shape in shapes[1:]):
            raise ValueError(f"Layer '{self.name}' (HashedCrossing) inputs must all have the "
                             f"same shape. Received: shapes {shapes}")

    def _check_features(self, features):
        kinds = [value_kind(x) for x in features]
        if any(kind not in ("string", "integer") for kind in kinds):
            raise ValueError(f"Layer '{self.name}' (HashedCrossing) inputs must hold integers or "
                             "strings. Received: inputs of dtypes "
                             f"{[str(x.dtype) for x in features]}")

    def compute_output_spec(self, inputs):
        return SymbolicTensor(self.compute_output_shape([x.shape for x in inputs]), self.dtype)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape[0])
        if self.output_mode == "int":
            return shape
        return encoded_shape(shape, "one_hot", self.num_bins)

    def get_config(self):
        config = super().get_config()
        config.update({"num_bins": self.num_bins, "output_mode": self.output_mode,
                       "sparse": self.sparse})
        return config
