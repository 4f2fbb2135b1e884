"""`text_dataset_from_directory`: a labelled text `Dataset` from a folder tree of `.txt` files."""

import numpy as np

from . import dataset_utils
from .rng import make_generator


def text_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                class_names=None, batch_size=32, max_length=None, shuffle=True,
                                seed=None, validation_split=None, subset=None,
                                follow_links=False, verbose=True):
    """The `.txt` files of `directory` (one subdirectory per class) as a `Dataset`.

    Texts are numpy unicode strings decoded as UTF-8 (Keras yields byte
    strings); `max_length` truncates each text to that many characters.
    The other arguments, and the `class_names`/`file_paths` attributes of
    the result, are those of `image_dataset_from_directory`.

    Returns:
        A `Dataset` of `(texts, labels)` (or texts), or a pair of datasets
        for `subset="both"`.
    """
    if max_length is not None and (not isinstance(max_length, int) or max_length <= 0):
        raise ValueError("`max_length` must be a positive integer or None. "
                         f"Received: max_length={max_length!r}")
    dataset_utils.check_validation_split(validation_split, subset, shuffle, seed)
    if seed is None and shuffle:
        seed = int(make_generator().integers(1_000_000))
    paths, found, class_names = dataset_utils.index_directory(
        directory, labels, (".txt",), class_names=class_names, shuffle=shuffle, seed=seed,
        follow_links=follow_links, verbose=verbose)
    label_mode = dataset_utils.check_label_mode(label_mode, found, len(class_names or []))

    def load(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return np.asarray(text if max_length is None else text[:max_length])

    results = []
    for subset_paths, subset_labels in dataset_utils.validation_subsets(
            paths, found, validation_split, subset, verbose):
        if not subset_paths:
            raise ValueError(f"No text files found in directory {directory}. "
                             "Allowed format: .txt. Received: 0 files")
        dataset = dataset_utils.files_to_dataset(
            subset_paths, subset_labels, label_mode, len(class_names or []), load,
            batch_size, shuffle, seed)
        dataset.class_names = class_names
        dataset.file_paths = subset_paths
        results.append(dataset)
    return tuple(results) if subset == "both" else results[0]
