"""`split_dataset`, and the directory indexing shared by the `*_dataset_from_directory` loaders."""

import numbers
import os

import numpy as np

from ..data import AUTOTUNE, Dataset, structure
from .numerical_utils import to_categorical
from .rng import make_generator


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None):
    """Splits a dataset into a left and a right `Dataset` (e.g. train / test).

    The left split takes the first `left_size` samples and the right split
    the last `right_size` samples (after an optional shuffle).

    Args:
        dataset: a numpy array, a tuple/list of arrays of equal length, or a
            finite `Dataset` (split element by element).
        left_size: a fraction in (0, 1) or a number of samples; `None` means
            the complement of `right_size`.
        right_size: likewise for the right split.
        shuffle: shuffle the samples before splitting.
        seed: seed for the shuffle (default: drawn from hikeras' global
            generator, see `set_random_seed`).

    Returns:
        A tuple `(left, right)` of `Dataset`s.

    >>> import numpy as np
    >>> left, right = split_dataset(np.arange(10), left_size=0.8)
    >>> left.cardinality(), right.cardinality()
    (8, 2)
    """
    if left_size is None and right_size is None:
        raise ValueError("split_dataset needs `left_size` or `right_size`. "
                         "Received: left_size=None and right_size=None")
    samples = _as_samples(dataset)
    total = len(samples)
    left_size, right_size = _split_sizes(left_size, right_size, total)
    order = make_generator(seed).permutation(total) if shuffle else np.arange(total)
    left = [samples[i] for i in order[:left_size]]
    right = [samples[i] for i in order[total - right_size:]]
    return _restack(left), _restack(right)


def _as_samples(dataset):
    if isinstance(dataset, Dataset):
        if dataset.cardinality() < 0:
            raise ValueError("split_dataset needs a finite dataset of known size. "
                             f"Received: a dataset with cardinality {dataset.cardinality()}")
        samples = list(dataset)
    elif isinstance(dataset, np.ndarray):
        samples = list(dataset)
    elif isinstance(dataset, (tuple, list)) and dataset and all(
            hasattr(a, "__len__") for a in dataset):
        arrays = [np.asarray(a) for a in dataset]
        if len({len(a) for a in arrays}) != 1:
            raise ValueError(
                "split_dataset needs arrays of the same length. Received: lengths "
                f"{[len(a) for a in arrays]}"
            )
        samples = list(zip(*arrays))
    else:
        raise TypeError(
            "split_dataset takes a numpy array, a tuple/list of arrays or a Dataset. "
            f"Received: dataset of type {type(dataset).__name__}"
        )
    if not samples:
        raise ValueError("split_dataset received an empty dataset. Received: 0 samples")
    return samples


def _restack(samples):
    if isinstance(samples[0], tuple) or isinstance(samples[0], dict):
        columns = zip(*(structure.flatten(s) for s in samples))
        packed = structure.pack_as(samples[0], [np.stack(c) for c in columns])
        return Dataset.from_tensor_slices(packed)
    return Dataset.from_tensor_slices(np.stack(samples))


def _split_sizes(left_size, right_size, total):
    """Both sizes as sample counts, with Keras's rules for fractions and integers."""
    sizes = []
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if size is None:
            sizes.append(None)
        elif isinstance(size, bool) or not isinstance(size, numbers.Real):
            raise TypeError(f"`{name}` must be an int, a float or None. "
                            f"Received: {name}={size!r}")
        elif isinstance(size, numbers.Integral):
            if not 0 < size < total:
                raise ValueError(f"`{name}` must be a positive integer smaller than the "
                                 f"{total} samples, or a float in (0, 1). "
                                 f"Received: {name}={size}")
            sizes.append(int(size))
        else:
            if not 0 < size < 1:
                raise ValueError(f"`{name}` as a fraction must lie in (0, 1). "
                                 f"Received: {name}={size}")
            sizes.append(round(size * total))
    left, right = sizes
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(f"left_size + right_size exceeds the {total} samples. "
                         f"Received: left_size={left_size}, right_size={right_size}")
    if left == 0 or right == 0:
        raise ValueError(f"With {total} samples, left_size={left_size} and "
                         f"right_size={right_size} leave one split empty. "
                         f"Received: split sizes {left} and {right}")
    return left, right


# ------------------------------------------------- directory-based loaders
def check_validation_split(validation_split, subset, shuffle, seed):
    """Keras's argument rules for `validation_split`/`subset`."""
    if validation_split and not 0 < validation_split < 1:
        raise ValueError("`validation_split` must be between 0 and 1. "
                         f"Received: validation_split={validation_split}")
    if bool(validation_split) != bool(subset):
        raise ValueError("`subset` and `validation_split` go together: set both or neither. "
                         f"Received: validation_split={validation_split}, subset={subset!r}")
    if subset not in ("training", "validation", "both", None):
        raise ValueError('`subset` must be "training", "validation" or "both". '
                         f"Received: subset={subset!r}")
    if validation_split and shuffle and seed is None:
        raise ValueError("With `validation_split` and shuffling, pass a `seed` so the "
                         "training and validation subsets do not overlap. Received: seed=None")


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None,
                    follow_links=False, verbose=True):
    """Lists the files of `directory` with the given extensions, and their labels.

    With `labels="inferred"` each subdirectory is a class (alphanumeric
    order, or the order of `class_names`); otherwise the whole tree is
    indexed, `labels` is `None` or one label per file in sorted path order.

    Returns:
        `(file_paths, labels, class_names)`; `labels` is an int32 array or
        None; the paths are shuffled with `seed` when `shuffle` is set.
    """
    if not os.path.isdir(directory):
        raise ValueError(f"Directory not found. Received: directory={directory!r}")
    if labels == "inferred":
        subdirs = sorted(d for d in os.listdir(directory)
                         if os.path.isdir(os.path.join(directory, d)) and not d.startswith("."))
        if class_names is not None:
            if not set(class_names) <= set(subdirs):
                raise ValueError(
                    "`class_names` must name subdirectories of the directory. Expected a "
                    f"subset of {subdirs}. Received: class_names={list(class_names)}"
                )
            subdirs = list(class_names)
    else:
        if class_names is not None:
            raise ValueError("`class_names` only applies with labels='inferred'. "
                             f"Received: labels={labels!r}")
        subdirs = [""]
    paths, found_labels = [], []
    for index, subdir in enumerate(subdirs):
        root_dir = os.path.join(directory, subdir)
        for root, _, files in sorted(os.walk(root_dir, followlinks=follow_links)):
            for name in sorted(files):
                if name.lower().endswith(formats):
                    paths.append(os.path.join(root, name))
                    found_labels.append(index)
    if labels == "inferred":
        labels = np.asarray(found_labels, dtype="int32")
        class_names = subdirs
    elif labels is not None:
        if len(labels) != len(paths):
            raise ValueError(
                f"`labels` must give one label per file; {len(paths)} files were found "
                f"in {directory}. Received: {len(labels)} labels"
            )
        labels = np.asarray(labels)
        class_names = [str(c) for c in sorted(set(labels.tolist()))]
    if verbose:
        suffix = "" if labels is None else f" belonging to {len(class_names)} classes"
        print(f"Found {len(paths)} files{suffix}.")
    if shuffle and paths:
        order = make_generator(seed).permutation(len(paths))
        paths = [paths[i] for i in order]
        labels = None if labels is None else labels[order]
    return paths, labels, class_names


def validation_subsets(paths, labels, validation_split, subset, verbose=True):
    """`[(paths, labels)]` for the requested subset(s), validation taken from the end."""
    if not validation_split:
        return [(paths, labels)]
    num_val = int(validation_split * len(paths))
    train = (paths[:len(paths) - num_val],
             None if labels is None else labels[:len(paths) - num_val])
    val = (paths[len(paths) - num_val:], None if labels is None else labels[len(paths) - num_val:])
    if verbose and subset in ("training", "both"):
        print(f"Using {len(train[0])} files for training.")
    if verbose and subset in ("validation", "both"):
        print(f"Using {len(val[0])} files for validation.")
    return {"training": [train], "validation": [val], "both": [train, val]}[subset]


def encode_labels(labels, label_mode, num_classes):
    """Labels as Keras encodes them: int32, float32 `(n, 1)` for binary, one-hot float32."""
    if label_mode == "int":
        return labels.astype("int32")
    if label_mode == "binary":
        return labels.astype("float32").reshape(-1, 1)
    return to_categorical(labels, num_classes)


def check_label_mode(label_mode, labels, num_classes):
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError('`label_mode` must be "int", "categorical", "binary" or None. '
                         f"Received: label_mode={label_mode!r}")
    if label_mode == "binary" and num_classes != 2:
        raise ValueError('label_mode="binary" needs exactly 2 classes. '
                         f"Received: {num_classes} classes")
    if labels is None and label_mode is not None:
        return None
    return label_mode


def files_to_dataset(paths, labels, label_mode, num_classes, load, batch_size, shuffle, seed,
                     padded=False):
    """The `Dataset` that the directory loaders return: loaded files (and labels), batched.

    Files are read by `load(path)` in a thread pool; with `shuffle`, a
    buffer of `8 * batch_size` elements reshuffles them on every pass.
    `padded` pads each batch's files with zeros to the longest (audio clips
    of different lengths).
    """
    dataset = Dataset.from_tensor_slices(np.asarray(paths, dtype=str)).map(
        lambda path: load(str(path)), num_parallel_calls=AUTOTUNE)
    if label_mode is not None:
        dataset = Dataset.zip(dataset, Dataset.from_tensor_slices(
            encode_labels(labels, label_mode, num_classes)))
    if shuffle:
        dataset = dataset.shuffle(8 * batch_size if batch_size else 1024, seed=seed)
    if batch_size is not None:
        dataset = dataset.padded_batch(batch_size) if padded else dataset.batch(batch_size)
    return dataset.prefetch(AUTOTUNE)
