"""`TextVectorization`: strings to token indices or token-count vectors.

The text is standardised, split into tokens and optionally combined into
ngrams here, in numpy; the vocabulary, `adapt`, the index layout and the
vector encodings are `StringLookup`'s (`index_lookup.py`), with the empty
string as its mask token. Rows of different lengths are padded with that
mask token, which looks up to index 0 and to no slot in the vector modes,
so padding never counts as a token.
"""

import itertools
import re

import numpy as np

from .... import backend
from ....backend import SymbolicTensor, Tensor
from ....serialization import get_registered_name, get_registered_object
from ...layer import Layer
from ..categorical.index_lookup import check_choice
from ..categorical.string_lookup import StringLookup

# Keras strips exactly the 32 ASCII punctuation characters (its regex
# `[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']`) and lowercases ASCII only
# (`tf.strings.lower` without an encoding): "¿", "«" or "É" are left alone.
_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
_STRIP_PUNCTUATION = str.maketrans("", "", _PUNCTUATION)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# `tf.strings.split` splits on runs of ASCII whitespace only.
_WHITESPACE = re.compile("[ \t\n\v\f\r]+")
_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")


class _TextVectorizationLookup(StringLookup):
    """The inner lookup; it carries the outer layer's name and class name so
    that its argument and vocabulary errors name the layer the user made."""


_TextVectorizationLookup.__name__ = "TextVectorization"


class TextVectorization(Layer):
    """Maps strings to sequences of token indices, or to one vector per string.

    Each string is (1) standardised, (2) split into tokens, (3) optionally
    turned into ngrams, (4) looked up in the vocabulary: index 0 is padding
    (in `"int"` mode), 1 is out-of-vocabulary, then the vocabulary.

    Args:
        max_tokens: the largest vocabulary size, padding and OOV included.
        standardize: `"lower_and_strip_punctuation"` (default), `"lower"`,
            `"strip_punctuation"`, None, or a callable taking and returning a
            numpy array of `str`. As in Keras, lowercasing changes ASCII
            letters only and the stripped punctuation is the 32 ASCII marks.
        split: `"whitespace"` (default; runs of ASCII whitespace), `"character"`
            (Unicode code points), None, or a callable taking a 1-D numpy `str`
            array and returning one list of tokens per string.
        ngrams: None, an integer `n` (ngrams of sizes 1..n) or a tuple of
            sizes; tokens are joined with a space, all ngrams of the first
            size first.
        output_mode: `"int"` (default), `"multi_hot"`, `"count"` or `"tf_idf"`.
        output_sequence_length: in `"int"` mode, pad with 0 or truncate every
            sequence to this length (default: the batch's longest).
        pad_to_max_tokens: in the vector modes, make the output `max_tokens`
            wide whatever the vocabulary size.
        vocabulary: a list or 1-D array of tokens (not a file path).
        idf_weights: in `"tf_idf"` mode with a given vocabulary, one weight
            per token.
        ragged, sparse: must be False (hikeras has neither tensor kind).
        encoding: how bytes inputs are decoded.

    Callables are saved by registered name (`register_keras_serializable`)
    and resolved by name when loading, as Keras does; no code is read from a
    file.

    >>> import numpy as np
    >>> layer = TextVectorization(vocabulary=["the", "cat", "sat"],
    ...                           output_sequence_length=5)
    >>> layer(np.array(["The cat sat!", "A dog sat."])).tolist()
    [[2, 3, 4, 0, 0], [1, 1, 4, 0, 0]]
    >>> layer.get_vocabulary()
    ['', '[UNK]', 'the', 'cat', 'sat']
    """

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int", output_sequence_length=None,
                 pad_to_max_tokens=False, vocabulary=None, idf_weights=None, sparse=False,
                 ragged=False, encoding="utf-8", name=None, **kwargs):
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        kwargs.pop("has_input_vocabulary", None)
        super().__init__(name=name, **kwargs)
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        check_choice(self, "output_mode", output_mode, ("int", "multi_hot", "count", "tf_idf"))
        if not (standardize is None or callable(standardize) or standardize in _STANDARDIZE):
            self._fail("`standardize` must be None, a callable or one of "
                       f"{_STANDARDIZE}", f"standardize={standardize!r}")
        if not (split is None or callable(split) or split in _SPLIT):
            self._fail(f"`split` must be None, a callable or one of {_SPLIT}",
                       f"split={split!r}")
        if isinstance(ngrams, list):
            ngrams = tuple(ngrams)
        sizes = (ngrams,) if isinstance(ngrams, int) else ngrams
        if ngrams is not None and not (
                isinstance(sizes, tuple) and sizes
                and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in sizes)):
            self._fail("`ngrams` must be None, a positive integer or a tuple of positive "
                       "integers", f"ngrams={ngrams!r}")
        if output_sequence_length is not None and (
                output_mode != "int" or isinstance(output_sequence_length, bool)
                or not isinstance(output_sequence_length, (int, np.integer))
                or output_sequence_length < 0):
            self._fail("`output_sequence_length` must be None or an integer >= 0, and is "
                       "allowed only with output_mode='int'",
                       f"output_sequence_length={output_sequence_length!r}, "
                       f"output_mode={output_mode!r}")
        if ragged:
            self._fail("hikeras has no ragged tensors, so `ragged` must be False (use "
                       "`output_sequence_length` for equal lengths)", f"ragged={ragged!r}")
        if sparse:
            self._fail("hikeras has no sparse tensors, so `sparse` must be False",
                       f"sparse={sparse!r}")
        self.standardize = standardize
        self.split = split
        self.ngrams = ngrams
        self._ngram_sizes = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self.output_mode = output_mode
        self.output_sequence_length = (None if output_sequence_length is None
                                       else int(output_sequence_length))
        self.encoding = encoding
        self.ragged = False
        self.sparse = False
        # Not an attribute the layer tracks: it has no weights, and Keras
        # saves its vocabulary under this layer's own path.
        object.__setattr__(self, "_lookup_layer", _TextVectorizationLookup(
            max_tokens=max_tokens, mask_token="", vocabulary=vocabulary,
            idf_weights=idf_weights, output_mode=output_mode,
            pad_to_max_tokens=pad_to_max_tokens, encoding=encoding, name=self.name,
            vocabulary_size=vocabulary_size))

    def _fail(self, message, received):
        raise ValueError(f"Layer '{self.name}' (TextVectorization): {message}. "
                         f"Received: {received}")

    # ------------------------------------------------------------ vocabulary
    def get_vocabulary(self, include_special_tokens=True):
        """Every index's token: `""` (padding, `"int"` mode), `"[UNK]"`, then the vocabulary."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        """The number of indices, padding and OOV included."""
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Replaces the vocabulary (and the IDF weights, in `"tf_idf"` mode)."""
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights)

    def restore_keras_vocabulary(self, lines, idf_weights=None):
        """Reads a Keras `.keras` archive's vocabulary asset (see `StringLookup`)."""
        self._lookup_layer.restore_keras_vocabulary(lines, idf_weights)

    # As in Keras, the state is the inner lookup layer's (see `IndexLookup`).
    def save_own_variables(self, store):
        """Stores what the inner `StringLookup` stores (nothing: see `get_config`)."""
        self._lookup_layer.save_own_variables(store)

    def load_own_variables(self, store):
        """Hands a Keras file's `idf_weights` to the inner `StringLookup`."""
        self._lookup_layer.load_own_variables(store)

    def load_assets(self, dir_path):
        """Reads Keras's `vocabulary.txt` asset through the inner `StringLookup`."""
        self._lookup_layer.load_assets(dir_path)

    def adapt(self, data, batch_size=None, steps=None):
        """Learns the vocabulary from the tokens of `data` (most frequent
        first, ties to the token that sorts last), and document frequencies
        in `"tf_idf"` mode; each string is one document.

        Args:
            data: an array or list of strings (one batch), or an iterable of
                batches (a generator or dataset).
            batch_size: unused, as in Keras.
            steps: with an iterable, the most batches to read.
        """
        if isinstance(data, (list, tuple, np.ndarray, Tensor)):
            batches = [self._tokens(data)]
        else:
            batches = (self._tokens(batch) for batch in itertools.islice(data, steps))
        self._lookup_layer.adapt(t.reshape(len(t), -1) for t in batches)

    # ---------------------------------------------------------------- tokens
    def _strings(self, inputs):
        values = inputs.value if isinstance(inputs, Tensor) else np.asarray(inputs)
        if not (values.dtype.kind in "US" or values.dtype == object):
            raise TypeError(f"Layer '{self.name}' (TextVectorization) expects string inputs (a "
                            "numpy str, bytes or object array). Received: inputs of dtype "
                            f"{values.dtype}")
        return self._as_str_array(values, "inputs")

    def _as_str_array(self, values, what):
        values = np.asarray(values)
        if values.dtype.kind == "U":
            return values
        flat = [self._lookup_layer._token(v) if isinstance(v, (str, bytes)) else self._bad(v, what)
                for v in values.reshape(-1).tolist()]
        return np.array(flat, dtype=str).reshape(values.shape) if flat else \
            np.zeros(values.shape, dtype=str)

    def _bad(self, value, what):
        raise TypeError(f"Layer '{self.name}' (TextVectorization) needs strings in {what}. "
                        f"Received: {value!r} of type {type(value).__name__}")

    def _standardized(self, strings):
        if callable(self.standardize):
            return self._as_str_array(self.standardize(strings), "the output of `standardize`")
        if self.standardize is None:
            return strings
        lower = self.standardize in ("lower", "lower_and_strip_punctuation")
        strip = self.standardize in ("strip_punctuation", "lower_and_strip_punctuation")
        out = [s.translate(_ASCII_LOWER) if lower else s for s in strings.reshape(-1).tolist()]
        out = [s.translate(_STRIP_PUNCTUATION) for s in out] if strip else out
        return np.array(out, dtype=object).reshape(strings.shape)

    def _tokens(self, inputs):
        """The tokens of each string as an object array, rows padded with `""`."""
        strings = self._standardized(self._strings(inputs))
        if self.split is None:
            if self._ngram_sizes is None:
                return strings.astype(object)
            if strings.ndim < 2:
                self._fail("ngrams without `split` combine the last axis, so they need "
                           "inputs of shape (batch, tokens)",
                           f"inputs of shape {strings.shape}")
            rows = strings.reshape(-1, strings.shape[-1]).tolist()
            return self._padded([self._ngrams(r) for r in rows]).reshape(
                strings.shape[:-1] + (-1,))
        if strings.ndim > 1:
            if strings.shape[-1] != 1 or strings.ndim > 2:
                self._fail("splitting needs one string per sample: inputs of shape (batch,) "
                           "or (batch, 1)", f"inputs of shape {strings.shape}")
            strings = strings[:, 0]
        if callable(self.split):
            rows = self.split(np.asarray(strings, dtype=str))
            if isinstance(rows, Tensor):
                rows = rows.value
            rows = [[self._as_str_array(np.asarray(t, dtype=object), "the output of `split`")
                     .item() for t in row] for row in rows]
        elif self.split == "whitespace":
            rows = [[t for t in _WHITESPACE.split(s) if t] for s in strings.tolist()]
        else:
            rows = [list(s) for s in strings.tolist()]
        if len(rows) != len(strings):
            self._fail("a `split` callable must return one list of tokens per string",
                       f"{len(rows)} lists for {len(strings)} strings")
        if self._ngram_sizes is not None:
            rows = [self._ngrams(row) for row in rows]
        return self._padded(rows)

    def _ngrams(self, tokens):
        return [" ".join(tokens[i:i + n]) for n in self._ngram_sizes
                for i in range(len(tokens) - n + 1)]

    @staticmethod
    def _padded(rows):
        out = np.full((len(rows), max((len(r) for r in rows), default=0)), "", dtype=object)
        for i, row in enumerate(rows):
            out[i, :len(row)] = row
        return out

    # ------------------------------------------------------------------ call
    def call(self, inputs):
        if isinstance(inputs, SymbolicTensor):
            return self.compute_output_spec(inputs)
        tokens = self._tokens(inputs)
        if self.output_mode != "int":
            return self._lookup_layer.call(tokens.reshape(len(tokens), -1))
        indices = np.asarray(self._lookup_layer.call(tokens), dtype=np.int64)
        length = self.output_sequence_length
        if length is None:
            return indices
        if indices.ndim == 1:  # split=None on a 1-D batch: one token per sample
            indices = indices[:, None]
        indices = indices[..., :length]
        pad = [(0, 0)] * (indices.ndim - 1) + [(0, length - indices.shape[-1])]
        return np.pad(indices, pad)

    def compute_output_shape(self, input_shape):
        batch = input_shape[0] if input_shape else None
        if self.output_mode == "int":
            if self.split is None and self._ngram_sizes is None and \
                    self.output_sequence_length is None:
                return tuple(input_shape)
            return (batch, self.output_sequence_length)
        return (batch, self._lookup_layer._depth())

    def compute_output_spec(self, inputs):
        dtype = "int64" if self.output_mode == "int" else backend.floatx()
        return SymbolicTensor(self.compute_output_shape(inputs.shape), dtype)

    # ---------------------------------------------------------------- config
    def get_config(self):
        lookup = self._lookup_layer
        config = super().get_config()
        config.update({
            "max_tokens": lookup.max_tokens,
            "standardize": _serialize_callable(self.standardize),
            "split": _serialize_callable(self.split),
            "ngrams": self.ngrams,
            "output_mode": self.output_mode,
            "output_sequence_length": self.output_sequence_length,
            "pad_to_max_tokens": lookup.pad_to_max_tokens,
            "sparse": False,
            "ragged": False,
            "vocabulary": lookup._config_vocabulary,
            "idf_weights": lookup._config_idf,
            "encoding": self.encoding,
            "vocabulary_size": self.vocabulary_size() if lookup._tokens is not None else None,
        })
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        for key in ("standardize", "split"):
            config[key] = _resolve_callable(config, key, custom_objects)
        return cls(**config)


def _serialize_callable(value):
    """Keras's form of a function in a config: its registered name, never code."""
    if not callable(value):
        return value
    return {"module": "builtins", "class_name": "function",
            "config": get_registered_name(value), "registered_name": "function"}


def _resolve_callable(config, key, custom_objects):
    value = config.get(key)
    if value is None or (isinstance(value, str) and value in _STANDARDIZE + _SPLIT):
        return value
    name = value.get("config") if isinstance(value, dict) else value
    found = get_registered_object(name, custom_objects) if isinstance(name, str) else None
    if found is None:
        raise ValueError(
            f"Layer '{config.get('name')}' (TextVectorization) needs the `{key}` function "
            f"{name!r}, which is not registered: pass it in `custom_objects` or decorate it "
            f"with `hikeras.saving.register_keras_serializable`. Received: {key}={value!r}")
    return found


__all__ = ["TextVectorization"]
