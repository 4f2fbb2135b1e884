"""`IndexLookup`: the vocabulary machinery behind `IntegerLookup` and `StringLookup`.

A vocabulary is a list of tokens; token `i` gets index `token_start + i`,
after the special indices: the mask index 0 (only in `"int"` mode with a
`mask_token`) and `num_oov_indices` out-of-vocabulary indices. Lookups are
Python dicts over the flattened input, so any hashable token type works.

Saving: Keras 3 writes a vocabulary into the layer config only when it was
given as a list, and saves adapted vocabularies as `.keras` archive assets
(and `"tf_idf"` weights as the weights-file entry `idf_weights`).
hikeras's files have no assets, so `get_config` always carries the current
vocabulary (and `"tf_idf"` weights) as plain lists, and `save_own_variables`
stores nothing. A layer saved after `adapt` therefore reloads with that
vocabulary, read as data; a vocabulary file path given as an argument is
never opened. `.keras` files written by Keras are read the other way too:
`load_own_variables` takes their `idf_weights` and `load_assets` the
archive's `vocabulary.txt`.
"""

import collections
import os

import numpy as np

from .... import backend
from ....backend import SymbolicTensor, Tensor
from ...layer import Layer
from .encoding import encode_categorical, encoded_shape, integer_values

_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


def check_choice(layer, arg, value, allowed):
    if value not in allowed:
        raise ValueError(f"Layer '{layer.name}' ({type(layer).__name__}) accepts `{arg}` in "
                         f"{allowed}. Received: {arg}={value!r}")


class IndexLookup(Layer):
    """Base class of the lookup layers; subclasses say how tokens are read.

    Subclasses define `_token(value)` (one vocabulary token, validated) and
    `_tokens_from_inputs(array)` (the call's inputs, validated), and may
    override `_output_tokens` (the array `invert=True` returns).
    """

    _vocabulary_dtype = None

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None,
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 sparse=False, pad_to_max_tokens=False, oov_method="floormod", salt=None,
                 vocabulary_size=None, **kwargs):
        kwargs.pop("has_input_vocabulary", None)
        super().__init__(**kwargs)
        kind = type(self).__name__
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        check_choice(self, "output_mode", output_mode, _MODES)
        check_choice(self, "oov_method", oov_method, ("floormod",))
        problems = [
            (max_tokens is not None and (isinstance(max_tokens, bool) or max_tokens <= 1),
             "`max_tokens` must be greater than 1", f"max_tokens={max_tokens!r}"),
            (isinstance(num_oov_indices, bool) or not isinstance(num_oov_indices, (int, np.integer))
             or num_oov_indices < 0,
             "`num_oov_indices` must be an integer >= 0", f"num_oov_indices={num_oov_indices!r}"),
            (pad_to_max_tokens and max_tokens is None,
             "`pad_to_max_tokens=True` needs `max_tokens`", f"max_tokens={max_tokens!r}"),
            (invert and output_mode != "int",
             "`invert=True` needs output_mode='int'", f"output_mode={output_mode!r}"),
            (bool(sparse), "hikeras has no sparse tensors, so `sparse` must be False",
             f"sparse={sparse!r}"),
            (salt is not None, "`salt` applies to FarmHash OOV bucketing, which hikeras does "
             "not implement", f"salt={salt!r}"),
            (idf_weights is not None and output_mode != "tf_idf",
             "`idf_weights` applies only to output_mode='tf_idf'",
             f"output_mode={output_mode!r} with idf_weights"),
            (output_mode == "tf_idf" and vocabulary is not None and idf_weights is None,
             "a given `vocabulary` in output_mode='tf_idf' needs `idf_weights` too",
             "idf_weights=None"),
            (isinstance(vocabulary, str),
             "`vocabulary` must be a list or array of tokens (hikeras does not read "
             "vocabulary files)", f"vocabulary={vocabulary!r}"),
        ]
        for failed, message, received in problems:
            if failed:
                raise ValueError(f"Layer '{self.name}' ({kind}): {message}. Received: {received}")
        self.max_tokens = None if max_tokens is None else int(max_tokens)
        self.num_oov_indices = int(num_oov_indices)
        self.mask_token = None if mask_token is None else self._token(mask_token)
        self.oov_token = None if oov_token is None else self._token(oov_token)
        self.invert = bool(invert)
        self.output_mode = output_mode
        self.sparse = False
        self.pad_to_max_tokens = bool(pad_to_max_tokens)
        self.oov_method = oov_method
        self.salt = None
        self._declared_size = vocabulary_size  # a Keras config's size, until we know ours
        self._tokens = None  # the vocabulary without special tokens
        self._index = {}
        self._idf = None  # per output slot, in "tf_idf" mode
        self._keras_idf = None  # a Keras file's `idf_weights`, until its vocabulary is read
        self._config_vocabulary = None
        self._config_idf = None
        self._given_vocabulary = vocabulary is not None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    # ------------------------------------------------------------- vocabulary
    def _oov_start(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start(self):
        return self._oov_start() + self.num_oov_indices

    def _special_tokens(self):
        return [self.mask_token] * self._oov_start() + [self.oov_token] * self.num_oov_indices

    def vocabulary_size(self):
        """The number of indices: special ones plus the vocabulary's tokens."""
        return self._token_start() + (len(self._tokens) if self._tokens is not None else 0)

    def get_vocabulary(self, include_special_tokens=True):
        """The token of every index in order (or only the learned/given tokens)."""
        tokens = list(self._tokens or [])
        return self._special_tokens() + tokens if include_special_tokens else tokens

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Replaces the vocabulary (and, in `"tf_idf"` mode, the IDF weights).

        Args:
            vocabulary: a list or 1-D array of distinct tokens; it may start
                with the special tokens exactly as `get_vocabulary()` lists
                them, which are then skipped.
            idf_weights: one weight per entry of `vocabulary` (`"tf_idf"`
                mode only, and required there).
        """
        name = f"Layer '{self.name}' ({type(self).__name__})"
        if (self.output_mode == "tf_idf") != (idf_weights is not None):
            raise ValueError(f"{name}: `idf_weights` is needed in, and only in, output_mode="
                             f"'tf_idf'. Received: output_mode={self.output_mode!r}, "
                             f"idf_weights={'None' if idf_weights is None else 'given'}")
        if isinstance(vocabulary, str):
            raise ValueError(f"{name}: `vocabulary` must be a list or array of tokens "
                             f"(hikeras does not read vocabulary files). "
                             f"Received: vocabulary={vocabulary!r}")
        given = [self._token(v) for v in _as_list(vocabulary)]
        if not given:
            raise ValueError(f"{name} cannot use an empty vocabulary. Received: vocabulary=[]")
        special = self._special_tokens()
        has_special = len(special) > 0 and given[:len(special)] == special
        tokens = given[len(special):] if has_special else given
        repeated = [t for t, n in collections.Counter(tokens).items() if n > 1]
        if repeated:
            raise ValueError(f"{name}: the vocabulary repeats tokens; make them unique. "
                             f"Received: repeated tokens {repeated}")
        reserved = [(t, arg) for t, arg in ((self.mask_token, "mask_token"),
                                            (self.oov_token if self.invert else None, "oov_token"))
                    if t is not None and t in tokens]
        if reserved:
            token, arg = reserved[0]
            raise ValueError(
                f"{name}: {arg} {token!r} is among the vocabulary's tokens. Leave the special "
                f"tokens out, or put them only at the start, in this order: {special}. "
                f"Received: {arg}={token!r} at index {given.index(token)}")
        size = self._token_start() + len(tokens)
        if self.max_tokens is not None and size > self.max_tokens:
            raise ValueError(f"{name}: the vocabulary needs {size} indices, more than "
                             f"max_tokens={self.max_tokens}. Received: a vocabulary of "
                             f"{len(given)} tokens")
        if idf_weights is not None:
            weights = np.asarray(_as_list(idf_weights), dtype=np.float64)
            if weights.ndim != 1 or len(weights) != len(given):
                raise ValueError(f"{name}: `idf_weights` needs one weight per vocabulary entry "
                                 f"({len(given)}). Received: idf_weights of shape "
                                 f"{weights.shape}")
            front = [] if has_special else [np.mean(weights)] * self._token_start()
            self._set_idf(np.concatenate([front, weights]))
        self._set_tokens(tokens)
        self._config_vocabulary = [_plain(t) for t in given]
        self._config_idf = None if idf_weights is None else \
            [float(w) for w in _as_list(idf_weights)]

    def restore_keras_vocabulary(self, lines, idf_weights=None):
        """Sets the vocabulary from the lines of a Keras `.keras` archive's
        `vocabulary.txt` (special tokens first), unless the config gave one."""
        if self._tokens is not None:
            return
        lines = list(lines)
        while lines and lines[-1] == "":  # as Keras: only trailing blank lines go
            lines.pop()
        tokens = [self._token_from_text(line) for line in lines]
        if self.output_mode == "tf_idf" and idf_weights is not None:
            self.set_vocabulary(tokens, np.asarray(idf_weights).reshape(-1)[:len(tokens)])
        elif self.output_mode != "tf_idf":
            self.set_vocabulary(tokens)

    # ---------------------------------------------------------------- saving
    def save_own_variables(self, store):
        """Stores nothing: the vocabulary and `"tf_idf"` weights travel in the config."""

    def load_own_variables(self, store):
        """Keeps the `idf_weights` a Keras-written file stores (in `"tf_idf"` mode) for
        `load_assets`, which reads the matching vocabulary; other entries are ignored."""
        if "idf_weights" in store and self._tokens is None:
            self._keras_idf = np.array(store["idf_weights"])

    def load_assets(self, dir_path):
        """Reads the `vocabulary.txt` (one token a line, special tokens first) that
        Keras writes for an adapted layer into a `.keras` archive's assets, unless the
        config gave the layer a vocabulary."""
        path = os.path.join(dir_path, "vocabulary.txt")
        if self._tokens is not None or not os.path.isfile(path):
            return
        with open(path, encoding="utf-8", newline="") as f:
            lines = f.read().splitlines()
        self.restore_keras_vocabulary(lines, self._keras_idf)
        self._keras_idf = None

    def _token_from_text(self, line):
        return self._token(line)

    def _set_tokens(self, tokens):
        start = self._token_start()
        self._tokens = list(tokens)
        self._index = {t: start + i for i, t in enumerate(self._tokens)}

    def _set_idf(self, weights):
        """`weights` cover the special indices and the tokens; pads to `max_tokens`."""
        if self.pad_to_max_tokens:
            weights = np.concatenate([weights, np.zeros(self.max_tokens - len(weights))])
        self._idf = np.asarray(weights, dtype=backend.floatx())

    # ------------------------------------------------------------------ adapt
    def adapt(self, data):
        """Learns the vocabulary (and IDF weights in `"tf_idf"` mode) from `data`.

        Every distinct token counts; the vocabulary lists them by descending
        count, ties by descending token (Keras's order), without the mask and
        OOV tokens, cut to `max_tokens` indices.

        Args:
            data: an array or list (one batch; a 1-D batch is a column of
                one-token documents), or an iterable of batches (a generator or
                dataset; there a 1-D batch is one document).
        """
        name = f"Layer '{self.name}' ({type(self).__name__})"
        if self._given_vocabulary:
            raise ValueError(f"{name} was given a vocabulary, so it cannot adapt. Received: "
                             "a `vocabulary` argument or a set_vocabulary() call")
        if isinstance(data, (list, tuple, np.ndarray, Tensor)):
            batch = _values(data)
            batches = [batch.reshape(-1, 1) if batch.ndim == 1 else batch]
        else:
            batches = (_values(b) for b in data)
        counts, document_counts, documents = collections.Counter(), collections.Counter(), 0
        for batch in batches:
            if batch.ndim < 2:
                batch = batch.reshape(1, -1)
            flat = [self._token(t) for t in batch.reshape(-1).tolist()]
            counts.update(flat)
            if self.output_mode == "tf_idf":
                width = int(np.prod(batch.shape[1:]))
                for row in range(batch.shape[0]):
                    document_counts.update(set(flat[row * width:(row + 1) * width]))
                documents += batch.shape[0]
        for special in (self.mask_token, self.oov_token):
            counts.pop(special, None)
        ranked = sorted(counts, key=lambda t: (counts[t], t), reverse=True)
        if self.max_tokens:
            ranked = ranked[:self.max_tokens - self._token_start()]
        self._set_tokens(ranked)
        self._config_vocabulary = [_plain(t) for t in ranked] or None
        if self.output_mode == "tf_idf":
            df = np.array([document_counts[t] for t in ranked], dtype=np.float64)
            idf = np.log(1 + documents / (1 + df)).astype(backend.floatx())
            mean = idf.mean() if idf.size else 0.0
            self._set_idf(np.concatenate([np.full(self._token_start(), mean), idf]))
            self._config_idf = [float(w) for w in idf]

    # ------------------------------------------------------------------- call
    def _depth(self):
        if self.pad_to_max_tokens:
            return self.max_tokens
        if self._tokens is None:
            return self._declared_size
        return self.vocabulary_size()

    def call(self, inputs):
        if isinstance(inputs, SymbolicTensor):
            return self.compute_output_spec(inputs)
        values = _values(inputs)
        if self.invert:
            return self._invert(integer_values(self, values))
        if self.output_mode != "int" and self._tokens is None and not self.pad_to_max_tokens:
            raise RuntimeError(
                f"Layer '{self.name}' ({type(self).__name__}) needs a vocabulary before it can "
                f"encode in output_mode={self.output_mode!r}: pass `vocabulary` or call "
                "`adapt` first. Received: no vocabulary")
        indices = self._lookup(self._tokens_from_inputs(values))
        if self.output_mode == "int":
            return indices
        mode = "count" if self.output_mode == "tf_idf" else self.output_mode
        out = encode_categorical(indices, mode, self._depth(), backend.floatx())
        if self.output_mode == "tf_idf":
            out = out * self._idf
        return out

    def _lookup(self, tokens):
        flat = tokens.reshape(-1).tolist()
        if tokens.dtype.kind == "S" or tokens.dtype == object:
            flat = [self._token(t) for t in flat]
        found = np.fromiter((self._index.get(t, -1) for t in flat), dtype=np.int64,
                            count=len(flat)).reshape(tokens.shape)
        unknown = found < 0
        if self.mask_token is not None:
            masked = np.fromiter((t == self.mask_token for t in flat), dtype=bool,
                                 count=len(flat)).reshape(tokens.shape)
            unknown &= ~masked
            found[masked] = 0 if self.output_mode == "int" else -1  # -1: no slot
        if unknown.any():
            if self.num_oov_indices == 0:
                bad = sorted({_plain(t) for t, u in zip(flat, unknown.reshape(-1)) if u})
                raise ValueError(
                    f"Layer '{self.name}' ({type(self).__name__}) has num_oov_indices=0, so every "
                    f"input must be in the vocabulary (or set num_oov_indices=1). Received: "
                    f"out-of-vocabulary values {bad[:10]}")
            if self.num_oov_indices == 1:
                found[unknown] = self._oov_start()
            else:  # integers only: StringLookup refuses several OOV indices
                found[unknown] = np.mod(tokens[unknown], self.num_oov_indices) + self._oov_start()
        return found

    def _invert(self, indices):
        vocabulary = self.get_vocabulary()  # index 0 is the mask token, if any
        flat = indices.reshape(-1).tolist()
        size = len(vocabulary)
        tokens = [vocabulary[i] if 0 <= i < size else self.oov_token for i in flat]
        return self._output_tokens(tokens, indices.shape)

    def _output_tokens(self, tokens, shape):
        return np.array(tokens, dtype=np.int64).reshape(shape)

    def compute_output_spec(self, inputs):
        if self.output_mode == "int":
            if self.invert:
                dtype = object if self._vocabulary_dtype == "string" else "int64"
            else:
                dtype = "int64"
            return SymbolicTensor(inputs.shape, dtype)
        return SymbolicTensor(encoded_shape(inputs.shape, self.output_mode, self._depth()),
                              backend.floatx())

    def compute_output_shape(self, input_shape):
        return encoded_shape(input_shape, self.output_mode, self._depth())

    # ---------------------------------------------------------------- config
    def get_config(self):
        config = super().get_config()
        config.update({
            "invert": self.invert,
            "max_tokens": self.max_tokens,
            "num_oov_indices": self.num_oov_indices,
            "oov_token": _plain(self.oov_token),
            "mask_token": _plain(self.mask_token),
            "output_mode": self.output_mode,
            "sparse": self.sparse,
            "pad_to_max_tokens": self.pad_to_max_tokens,
            "idf_weights": self._config_idf,
            "vocabulary": self._config_vocabulary,
            "vocabulary_size": self.vocabulary_size() if self._tokens is not None else None,
            "oov_method": self.oov_method,
            "salt": self.salt,
        })
        return config


def _values(x):
    return x.value if isinstance(x, Tensor) else np.asarray(x)


def _as_list(values):
    if isinstance(values, Tensor):
        values = values.value
    return np.asarray(values).reshape(-1).tolist() if isinstance(values, np.ndarray) \
        else list(values)


def _plain(token):
    """A JSON-friendly token (numpy scalars become Python ones)."""
    return token.item() if isinstance(token, np.generic) else token
