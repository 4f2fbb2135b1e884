"""FeatureSpace: one object that preprocesses, crosses and encodes a dict of tabular columns."""

import numpy as np

from .... import backend
from ....backend import Tensor
from ....data import Dataset
from ....serialization import deserialize_keras_object, serialize_keras_object
from ...input_layer import Input
from ...layer import Layer
from ...layer_table import register_layer_classes
from ..categorical.category_encoding import CategoryEncoding
from ..categorical.discretization import Discretization
from ..categorical.hashed_crossing import HashedCrossing
from ..categorical.hashing import Hashing
from ..categorical.integer_lookup import IntegerLookup
from ..categorical.string_lookup import StringLookup
from ..normalization import Normalization
from ..rescaling import Rescaling
from ..text.text_vectorization import TextVectorization
from .data_layers import TFDConcat, TFDIdentity
from .specs import Cross, Feature

__all__ = []  # public as hikeras.utils.FeatureSpace; registered below for deserialisation

_SPECS = {"Feature": Feature, "Cross": Cross}
_ADAPT_BATCH_SIZE = 32  # Keras batches unbatched samples by 32 before adapting


class FeatureSpace(Layer):
    """Preprocesses and encodes a dict of features (Keras's `keras.utils.FeatureSpace`).

    Each named feature is declared by a string (`"float"`, `"float_normalized"`,
    `"float_rescaled"`, `"float_discretized"`, `"integer_categorical"`,
    `"string_categorical"`, `"integer_hashed"`, `"string_hashed"`) or by a
    class method of the same name for non-default options
    (`FeatureSpace.string_categorical(max_tokens=10)`), or `FeatureSpace.feature`
    for any preprocessing layer. `crosses` hash combinations of features into
    `crossing_dim` bins. `adapt` learns the vocabularies and statistics;
    calling the feature space on a dict of arrays returns one concatenated
    float array (`output_mode="concat"`) or a dict of encoded features, in
    the order Keras uses: features sorted by name, then crosses sorted by name.
    `get_inputs()` and `get_encoded_features()` give the symbolic inputs and
    outputs, to build a model that takes raw features.

    >>> import numpy as np
    >>> space = FeatureSpace({"size": "float", "colour": "string_categorical"})
    >>> space.adapt({"size": np.array([1.0, 2.0]), "colour": np.array(["red", "blue"])})
    >>> space({"size": np.array([3.0]), "colour": np.array(["red"])}).tolist()
    [[0.0, 1.0, 0.0, 3.0]]
    """

    # ------------------------------------------------------ feature factories
    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        return Feature("float32", TFDIdentity(dtype="float32", name=_named(name)), "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        return Feature("float32", Rescaling(scale=scale, offset=offset, name=_named(name)),
                       "float")

    @classmethod
    def float_normalized(cls, name=None):
        return Feature("float32", Normalization(axis=-1, name=_named(name)), "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        layer = Discretization(num_bins=num_bins, bin_boundaries=bin_boundaries,
                               name=_named(name))
        return Feature("float32", layer, output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                            name=None):
        layer = IntegerLookup(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                              name=_named(name))
        return Feature("int32", layer, output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                           name=None):
        layer = StringLookup(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                             name=_named(name))
        return Feature("string", layer, output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        return Feature("string", Hashing(num_bins=num_bins, name=_named(name)), output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        return Feature("int32", Hashing(num_bins=num_bins, name=_named(name)), output_mode)

    # ------------------------------------------------------------ construction
    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32,
                 hashing_dim=32, num_discretization_bins=32, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if not features or not isinstance(features, dict):
            raise ValueError("FeatureSpace needs `features`, a non-empty dict of feature name to "
                             f"feature. Received: features={features!r}")
        if output_mode not in ("concat", "dict"):
            raise ValueError("FeatureSpace's `output_mode` is 'concat' or 'dict'. "
                             f"Received: output_mode={output_mode!r}")
        self.crossing_dim = crossing_dim
        self.hashing_dim = hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.output_mode = output_mode
        self.features = {key: self._standardize_feature(key, value)
                         for key, value in features.items()}
        self.crosses = [self._standardize_cross(cross, features) for cross in crosses or ()]
        self.crosses_by_name = {cross.name: cross for cross in self.crosses}
        self.inputs = {key: Input(shape=(1,), dtype=feature.dtype, name=key)
                       for key, feature in self.features.items()}
        self.preprocessors = {key: feature.preprocessor for key, feature in self.features.items()}
        self.crossers = {cross.name: HashedCrossing(cross.crossing_dim, name=cross.name)
                         for cross in self.crosses}
        self.one_hot_encoders = {}
        self.concat = None
        self.encoded_features = None
        self._is_adapted = False

    def _standardize_feature(self, key, feature):
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            return deserialize_keras_object(feature, _SPECS, printable_module_name="feature")
        makers = {
            "float": lambda: self.float(name=key),
            "float_normalized": lambda: self.float_normalized(name=key),
            "float_rescaled": lambda: self.float_rescaled(name=key),
            "float_discretized": lambda: self.float_discretized(
                num_bins=self.num_discretization_bins, name=key),
            "integer_categorical": lambda: self.integer_categorical(name=key),
            "string_categorical": lambda: self.string_categorical(name=key),
            "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=key),
            "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=key),
        }
        if not isinstance(feature, str) or feature not in makers:
            raise ValueError(f"FeatureSpace feature '{key}' must be a Feature or one of "
                             f"{sorted(makers)}. Received: {feature!r}")
        return makers[feature]()

    def _standardize_cross(self, cross, features):
        if isinstance(cross, dict):
            cross = deserialize_keras_object(cross, _SPECS, printable_module_name="cross")
        if isinstance(cross, Cross):
            return cross
        if not self.crossing_dim:
            raise ValueError("FeatureSpace `crosses` given as names need `crossing_dim`. "
                             f"Received: crossing_dim={self.crossing_dim!r}")
        unknown = [key for key in cross if key not in features]
        if unknown:
            raise ValueError("Every feature a FeatureSpace cross names must be in `features`. "
                             f"Received: unknown features {unknown} in cross {tuple(cross)}")
        return Cross(cross, crossing_dim=self.crossing_dim)

    # ------------------------------------------------------------------- adapt
    def _adaptable(self):
        names = []
        for key, layer in self.preprocessors.items():
            if isinstance(layer, Normalization) and layer.input_mean is not None:
                continue
            if isinstance(layer, TextVectorization) and layer._lookup_layer._given_vocabulary:
                continue  # a vocabulary given to the constructor is kept, as in Keras
            if isinstance(layer, Discretization) and layer.num_bins is None:
                continue
            if hasattr(layer, "adapt"):
                names.append(key)
        return names

    def adapt(self, dataset):
        """Adapts every adaptable preprocessor to its column of `dataset`.

        Args:
            dataset: a dict of arrays or lists (one sample per row), or a
                `hikeras.data.Dataset` whose elements are such dicts (batched,
                or single samples, which are batched by 32 as Keras does).
        """
        names = self._adaptable()
        for key, batches in _column_batches(dataset, names).items():
            self.preprocessors[key].adapt(iter(batches))  # an iterator: batches, not one array
        self._is_adapted = True
        self.get_encoded_features()  # finishes building: creates the encoders
        self.built = True

    def _check_if_adapted(self):
        if not self._is_adapted:
            if self._adaptable():
                raise ValueError("You need to call `.adapt(dataset)` on the FeatureSpace before "
                                 "you can start using it. Received: a feature space never "
                                 "adapted")
            self._is_adapted = True

    # --------------------------------------------------------------- symbolic
    def get_inputs(self):
        """`{name: Input}`: one symbolic input of shape `(None, 1)` per feature."""
        self.get_encoded_features()
        return self.inputs

    def get_encoded_features(self):
        """The symbolic encoding of `get_inputs()` (a tensor, or a dict in "dict" mode)."""
        self._check_if_adapted()
        if self.encoded_features is None:
            preprocessed = self._preprocess(self.inputs)
            self.encoded_features = self._merge(preprocessed, self._cross(preprocessed))
        return self.encoded_features

    # ------------------------------------------------------------------- call
    def __call__(self, data):
        self.get_encoded_features()
        if not isinstance(data, dict):
            raise ValueError("A FeatureSpace is called on a dict of features. "  # noqa: TRY004 (Keras's type)
                             f"Received: data of type {type(data).__name__}")
        missing = sorted(set(self.features) - set(data))
        if missing:
            raise ValueError(f"FeatureSpace got no value for features {missing}. "
                             f"Received: data with keys {sorted(data)}")
        columns, single = {}, False
        for key in self.features:
            value = data[key]
            value = value.value if isinstance(value, Tensor) else np.asarray(value)
            if value.ndim == 0:
                value, single = value.reshape(1, 1), True
            elif value.ndim == 1:
                value = value[:, None]
            columns[key] = value
        preprocessed = self._preprocess(columns)
        merged = self._merge(preprocessed, self._cross(preprocessed))
        if single:
            if self.output_mode == "concat":
                return merged[0]
            return {k: v[0] if np.ndim(v) == 2 and np.shape(v)[0] == 1 else v
                    for k, v in merged.items()}
        return merged

    def _preprocess(self, columns):
        return {key: self.preprocessors[key](columns[key]) for key in self.features}

    def _cross(self, preprocessed):
        return {cross.name: self.crossers[cross.name]([preprocessed[k]
                                                       for k in cross.feature_names])
                for cross in self.crosses}

    def _merge(self, preprocessed, crossed):
        names = sorted(preprocessed) + sorted(crossed)
        values = {**preprocessed, **crossed}
        if not self.one_hot_encoders and self.concat is None:
            self._make_encoders(names, values)
        encoded = {}
        for name in names:
            encoder = self.one_hot_encoders.get(name)
            encoded[name] = encoder(values[name]) if encoder else values[name]
        if self.output_mode == "dict":
            return encoded
        return self.concat([encoded[name] for name in names])

    def _make_encoders(self, names, values):
        """Creates the one-hot encoders and the concatenation, checking every feature."""
        for name in names:
            spec = self.features.get(name) or self.crosses_by_name[name]
            dtype = backend.standardize_dtype(values[name].dtype)
            if spec.output_mode == "one_hot":
                if not dtype.startswith("int"):
                    raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`, so its "
                                     "preprocessor should return integers. Received: dtype "
                                     f"{dtype}")
                depth = _cardinality(self.preprocessors.get(name) or self.crossers[name])
                if depth is None:
                    raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`, but the "
                                     "size of its preprocessor's output space is unknown, so it "
                                     "cannot be one-hot encoded; use output_mode='int'. "
                                     f"Received: preprocessor "
                                     f"{type(self.preprocessors.get(name)).__name__}")
                self.one_hot_encoders[name] = CategoryEncoding(num_tokens=depth,
                                                               output_mode="multi_hot")
            elif self.output_mode == "concat" and (dtype.startswith("int") or
                                                   dtype in ("string", "object")):
                raise ValueError(f"Cannot concatenate features because feature '{name}' has not "
                                 f"been encoded (it has dtype {dtype}). Consider using "
                                 "output_mode='dict'. Received: output_mode='concat'")
        if self.output_mode == "concat":
            self.concat = TFDConcat(axis=-1)

    def save(self, filepath):
        """Saves the feature space, adapted state included, to a `.keras` file.

        `hikeras.saving.load_model` (or Keras's) reads it back as a FeatureSpace.
        """
        from ....saving.saving_api import save_model  # the formats sit above the layers

        filepath = str(filepath)
        if not filepath.endswith(".keras"):
            raise ValueError("FeatureSpace.save writes a '.keras' file. "
                             f"Received: filepath={filepath!r}")
        save_model(self, filepath)

    def get_build_config(self):
        """`{feature: its preprocessor's build config}`, as Keras records it."""
        return {key: layer.get_build_config() or {}
                for key, layer in self.preprocessors.items()}

    def build_from_config(self, config):
        """Builds the preprocessors for a loaded file (their state loads next) and
        marks the feature space adapted, as Keras does."""
        if not isinstance(config, dict):
            raise TypeError("FeatureSpace expects a build config mapping features to their "
                             f"preprocessors' build configs. Received: config={config!r}")
        for key, layer_config in config.items():
            layer = self.preprocessors.get(key)
            if layer is not None and not layer.built:
                layer.build_from_config(layer_config)
        self._is_adapted = True

    # ------------------------------------------------------------------ config
    def get_config(self):
        return {
            "features": {key: serialize_keras_object(f) for key, f in self.features.items()},
            "output_mode": self.output_mode,
            "crosses": [serialize_keras_object(cross) for cross in self.crosses],
            "crossing_dim": self.crossing_dim,
            "hashing_dim": self.hashing_dim,
            "num_discretization_bins": self.num_discretization_bins,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _named(name):
    return None if name is None else f"{name}_preprocessor"


def _cardinality(layer):
    if isinstance(layer, (IntegerLookup, StringLookup)):
        return layer.vocabulary_size()
    if isinstance(layer, CategoryEncoding):
        return layer.num_tokens
    if isinstance(layer, Discretization):
        return layer._depth()
    if isinstance(layer, (Hashing, HashedCrossing)):
        return layer.num_bins
    return None


def _column_batches(dataset, names):
    """`{name: [batch, ...]}`: each column of `dataset` as `(n, 1)` batches."""
    if isinstance(dataset, dict):
        columns = {k: np.asarray(dataset[k]) for k in names}
        size = len(next(iter(columns.values()))) if columns else 0
        return {k: [_column(v[i:i + _ADAPT_BATCH_SIZE])
                    for i in range(0, size, _ADAPT_BATCH_SIZE)] for k, v in columns.items()}
    if not isinstance(dataset, Dataset):
        raise ValueError(  # noqa: TRY004 (Keras raises ValueError)
            "FeatureSpace.adapt takes a hikeras.data.Dataset or a dict of arrays or lists. "
            f"Received: {type(dataset).__name__}")
    out = {k: [] for k in names}
    pending = {k: [] for k in names}  # single samples, batched by 32 as Keras does
    for element in dataset:
        if not isinstance(element, dict):
            raise ValueError(  # noqa: TRY004 (Keras raises ValueError)
                "FeatureSpace.adapt needs a dataset of dicts of features. "
                f"Received: an element of type {type(element).__name__}")
        for k in names:
            value = np.asarray(element[k])
            if value.ndim == 0:
                pending[k].append(value)
                if len(pending[k]) == _ADAPT_BATCH_SIZE:
                    out[k].append(_column(np.stack(pending[k])))
                    pending[k] = []
            else:
                out[k].append(_column(value))
    for k in names:
        if pending[k]:
            out[k].append(_column(np.stack(pending[k])))
    return out


def _column(values):
    values = np.asarray(values)
    return values[:, None] if values.ndim == 1 else values


register_layer_classes({"FeatureSpace": FeatureSpace})
