"""IMDB movie reviews: 25,000 training and 25,000 test reviews labelled by sentiment.

Each review is a list of word indices, words ranked by frequency. The
archive stores the reviews as numpy object arrays, i.e. pickles; hikeras
reads them with a data-only reader that never unpickles (see
`_object_arrays`). Downloaded on first use into `$HIKERAS_HOME/datasets`
(default `~/.hikeras/datasets`) and verified by SHA-256 (the word index
by the MD5 Keras publishes); offline, copy the files there by hand.
"""

import json

import numpy as np

from ..utils.file_utils import get_file
from ._object_arrays import load_npz_array
from ._word_sequences import drop_long, limit_vocabulary, shift_indices

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
SHA256 = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"
WORD_INDEX_MD5 = "bfafd718b763782e994055a2d397834f"


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113,
              start_char=1, oov_char=2, index_from=3):
    """Loads IMDB with Keras's preprocessing of the word indices.

    Args:
        path: file name in the cache directory (or an absolute path).
        num_words: keep the `num_words` most frequent words; rarer ones
            become `oov_char` (or are dropped when `oov_char` is None).
        skip_top: also replace the `skip_top` most frequent words.
        maxlen: drop reviews with `maxlen` or more indices (after adding
            `start_char`).
        seed: seed of the shuffle (`numpy.random.RandomState`, as Keras).
        start_char: index prepended to every review (None: nothing).
        oov_char: index of out-of-vocabulary words.
        index_from: offset added to every word index.

    Returns:
        `(x_train, y_train), (x_test, y_test)`: lists of lists of ints and
        int label arrays (1 positive, 0 negative).
    """
    path = get_file(path, origin=ORIGIN_FOLDER + "imdb.npz", file_hash=SHA256)
    x_train, labels_train = load_npz_array(path, "x_train"), load_npz_array(path, "y_train")
    x_test, labels_test = load_npz_array(path, "x_test"), load_npz_array(path, "y_test")
    rng = np.random.RandomState(seed)
    for_train = np.arange(len(x_train))
    rng.shuffle(for_train)
    for_test = np.arange(len(x_test))
    rng.shuffle(for_test)
    x_train, labels_train = x_train[for_train], labels_train[for_train]
    x_test, labels_test = x_test[for_test], labels_test[for_test]

    x_train = shift_indices(x_train, start_char, index_from)
    x_test = shift_indices(x_test, start_char, index_from)
    if maxlen:
        x_train, labels_train = drop_long(x_train, labels_train, maxlen)
        x_test, labels_test = drop_long(x_test, labels_test, maxlen)
        if not x_train or not x_test:
            raise ValueError(f"No review is shorter than maxlen={maxlen}; increase it. "
                             f"Received: maxlen={maxlen}")
    reviews = limit_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    n = len(x_train)
    return (reviews[:n], labels_train), (reviews[n:], labels_test)


def get_word_index(path="imdb_word_index.json"):
    """The `{word: index}` dictionary of the IMDB data (add `index_from` to match reviews)."""
    path = get_file(path, origin=ORIGIN_FOLDER + "imdb_word_index.json",
                    file_hash=WORD_INDEX_MD5)
    with open(path, encoding="utf-8") as f:
        return json.load(f)
