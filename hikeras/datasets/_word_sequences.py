"""Keras's preprocessing of word-index datasets (IMDB, Reuters), shared by their loaders.

A text is a list of word indices, words ranked by frequency (1 the most
frequent). Keras shifts every index by `index_from`, prepends `start_char`,
drops texts of `maxlen` indices or more, and replaces (or drops) the words
outside `[skip_top, num_words)`.
"""


def shift_indices(texts, start_char, index_from):
    """Every index plus `index_from`, with `start_char` first (None: nothing)."""
    prefix = [] if start_char is None else [start_char]
    return [prefix + [w + index_from for w in text] for text in texts]


def drop_long(texts, labels, maxlen):
    """The texts shorter than `maxlen` indices, and their labels."""
    keep = [i for i, text in enumerate(texts) if len(text) < maxlen]
    return [texts[i] for i in keep], labels[keep]


def limit_vocabulary(texts, num_words, skip_top, oov_char):
    """Indices outside `[skip_top, num_words)` become `oov_char`, or go when it is None.

    Without `num_words`, Keras uses the largest index, so that word itself
    is out of the vocabulary.
    """
    if not num_words:
        num_words = max(max(text) for text in texts if text)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in text] for text in texts]
    return [[w for w in text if skip_top <= w < num_words] for text in texts]
