"""`audio_dataset_from_directory`: a labelled audio `Dataset` from a folder tree of `.wav` files."""

import wave

import numpy as np

from . import dataset_utils
from .rng import make_generator

_FORMATS = (".wav",)


def read_wav(path, output_sequence_length=None, sampling_rate=None):
    """A 16-bit PCM WAV file as float32 `(samples, channels)` in [-1, 1), as TensorFlow decodes it.

    `output_sequence_length` truncates or zero-pads to that many samples;
    `sampling_rate`, when set, must be the file's rate (hikeras does not
    resample).
    """
    try:
        with wave.open(path, "rb") as f:
            channels, width, rate = f.getnchannels(), f.getsampwidth(), f.getframerate()
            frames = f.readframes(f.getnframes())
    except (wave.Error, EOFError) as e:
        raise ValueError(f"Cannot read WAV file {path}: {e}. Received: a file that is not "
                         "a PCM WAV file") from None
    if width != 2:
        raise ValueError(f"Can only read 16-bit WAV files (as Keras). Received: {8 * width}-bit "
                         f"samples in {path}")
    if sampling_rate is not None and rate != sampling_rate:
        raise ValueError(f"hikeras does not resample audio: every file must have the requested "
                         f"sampling_rate={sampling_rate}. Received: {rate} Hz in {path}")
    usable = len(frames) // (2 * channels) * 2 * channels
    audio = np.frombuffer(frames[:usable], dtype="<i2").reshape(-1, channels)
    audio = audio.astype(np.float32) / np.float32(32768.0)
    if output_sequence_length is not None:
        out = np.zeros((output_sequence_length, channels), dtype=np.float32)
        kept = min(len(audio), output_sequence_length)
        out[:kept] = audio[:kept]
        audio = out
    return audio


def audio_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, batch_size=32, sampling_rate=None,
                                 output_sequence_length=None, ragged=False, shuffle=True,
                                 seed=None, validation_split=None, subset=None,
                                 follow_links=False, verbose=True):
    """The `.wav` files of `directory` (one subdirectory per class) as a `Dataset`.

    Each clip is a float32 array `(samples, channels)` with values in
    [-1, 1), decoded from 16-bit PCM as Keras (TensorFlow's `decode_wav`)
    does. With `output_sequence_length` every clip is cut or zero-padded to
    that many samples; without it each batch is zero-padded to its longest
    clip. The other arguments, and the `class_names`/`file_paths`
    attributes of the result, are those of `image_dataset_from_directory`.

    Differences from Keras: `ragged=True` is refused (hikeras has no ragged
    tensors), and `sampling_rate` does not resample: it checks that every
    file has that rate.

    Returns:
        A `Dataset` of `(audio, labels)` (or audio), or a pair of datasets
        for `subset="both"`.
    """
    if labels not in ("inferred", None) and not isinstance(labels, (list, tuple)):
        raise ValueError("`labels` must be 'inferred', None, or a list/tuple of integer labels, "
                         f"one per audio file. Received: labels={labels!r}")
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`. Received: "
                         f"ragged={ragged!r}, output_sequence_length={output_sequence_length!r}")
    if ragged:
        raise ValueError("hikeras has no ragged tensors: use `output_sequence_length`, or leave "
                         "it None to pad each batch to its longest clip. Received: ragged=True")
    if output_sequence_length is not None and (
            isinstance(output_sequence_length, bool)
            or not isinstance(output_sequence_length, int) or output_sequence_length <= 0):
        raise ValueError("`output_sequence_length` must be a positive integer or None. "
                         f"Received: output_sequence_length={output_sequence_length!r}")
    if sampling_rate is not None and (isinstance(sampling_rate, bool)
                                      or not isinstance(sampling_rate, int)
                                      or sampling_rate <= 0):
        raise ValueError("`sampling_rate` must be a positive integer. "
                         f"Received: sampling_rate={sampling_rate!r}")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    dataset_utils.check_validation_split(validation_split, subset, shuffle, seed)
    if seed is None and shuffle:
        seed = int(make_generator().integers(1_000_000))
    paths, found, class_names = dataset_utils.index_directory(
        directory, labels, _FORMATS, class_names=class_names, shuffle=shuffle, seed=seed,
        follow_links=follow_links, verbose=verbose)
    label_mode = dataset_utils.check_label_mode(label_mode, found, len(class_names or []))

    def load(path):
        return read_wav(path, output_sequence_length, sampling_rate)

    results = []
    for subset_paths, subset_labels in dataset_utils.validation_subsets(
            paths, found, validation_split, subset, verbose):
        if not subset_paths:
            raise ValueError(f"No audio files found in directory {directory}. "
                             f"Allowed format(s): {_FORMATS}. Received: 0 files")
        dataset = dataset_utils.files_to_dataset(
            subset_paths, subset_labels, label_mode, len(class_names or []), load,
            batch_size, shuffle, seed, padded=output_sequence_length is None)
        dataset.class_names = class_names
        dataset.file_paths = subset_paths
        results.append(dataset)
    return tuple(results) if subset == "both" else results[0]
