"""Reuters newswires: 11,228 newswires labelled over 46 topics.

Each newswire is a list of word indices, words ranked by frequency, as in
IMDB. The archive stores them as numpy object arrays, i.e. pickles; hikeras
reads them with a data-only reader that never unpickles (see
`_object_arrays`). Downloaded on first use into `$HIKERAS_HOME/datasets`
(default `~/.hikeras/datasets`) and verified by the SHA-256 Keras pins
(the word index by the MD5 Keras pins); offline, copy the files there by hand.
"""

import json
import numbers

import numpy as np

from ..utils.file_utils import get_file
from ._object_arrays import load_npz_array
from ._word_sequences import drop_long, limit_vocabulary, shift_indices

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
SHA256 = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
WORD_INDEX_MD5 = "4d44cc38712099c9e383dc6e5f11a921"

# The 46 topics, by label index (the names Keras returns).
LABEL_NAMES = (
    "cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing", "money-supply",
    "coffee", "sugar", "trade", "reserves", "ship", "cotton", "carcass", "crude", "nat-gas",
    "cpi", "money-fx", "interest", "gnp", "meal-feed", "alum", "oilseed", "gold", "tin",
    "strategic-metal", "livestock", "retail", "ipi", "iron-steel", "rubber", "heat", "jobs",
    "lei", "bop", "zinc", "orange", "pet-chem", "dlr", "gas", "silver", "wpi", "hog", "lead",
)


def _object_array(texts):
    """A 1-D object array of the lists (item by item: equal lengths must not make it 2-D)."""
    out = np.empty(len(texts), dtype=object)
    for i, text in enumerate(texts):
        out[i] = text
    return out


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2,
              seed=113, start_char=1, oov_char=2, index_from=3):
    """Loads Reuters with Keras's preprocessing of the word indices and its split.

    Args:
        path: file name in the cache directory (or an absolute path).
        num_words: keep the `num_words` most frequent words; rarer ones
            become `oov_char` (or are dropped when `oov_char` is None).
        skip_top: also replace the `skip_top` most frequent words.
        maxlen: drop newswires with `maxlen` or more indices (after adding
            `start_char`).
        test_split: fraction of the newswires for the test part, in [0, 1).
        seed: seed of the shuffle (`numpy.random.RandomState`, as Keras).
        start_char: index prepended to every newswire (None: nothing).
        oov_char: index of out-of-vocabulary words.
        index_from: offset added to every word index.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: 1-D object arrays of lists
        of ints, and int label arrays (topic indices, see `get_label_names`).
        The newswires are shuffled once, then the first `1 - test_split`
        of them are the training part.
    """
    if isinstance(test_split, bool) or not isinstance(test_split, numbers.Real) or not (
            0 <= test_split < 1):
        raise ValueError("`test_split` must be a number in [0, 1). "
                         f"Received: test_split={test_split!r}")
    path = get_file(path, origin=ORIGIN_FOLDER + "reuters.npz", file_hash=SHA256)
    texts, labels = load_npz_array(path, "x"), load_npz_array(path, "y")
    order = np.arange(len(texts))
    np.random.RandomState(seed).shuffle(order)
    texts = shift_indices(texts[order], start_char, index_from)
    labels = np.asarray(labels)[order]
    if maxlen:
        texts, labels = drop_long(texts, labels, maxlen)
        if not texts:
            raise ValueError(f"No newswire is shorter than maxlen={maxlen}; increase it. "
                             f"Received: maxlen={maxlen}")
    texts = limit_vocabulary(texts, num_words, skip_top, oov_char)
    cut = int(len(texts) * (1 - test_split))
    return ((_object_array(texts[:cut]), labels[:cut]),
            (_object_array(texts[cut:]), labels[cut:]))


def get_word_index(path="reuters_word_index.json"):
    """The `{word: index}` dictionary of the Reuters data (add `index_from` to match)."""
    path = get_file(path, origin=ORIGIN_FOLDER + "reuters_word_index.json",
                    file_hash=WORD_INDEX_MD5)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def get_label_names():
    """The 46 topic names as a tuple, indexed by label (as Keras returns them)."""
    return LABEL_NAMES
