"""Writes keras_audio_dataset.json: what Keras 3's `audio_dataset_from_directory` yields.

Not part of the test run. With TensorFlow installed:

    ~/.venvs/tf/bin/python tests/utils/keras_audio_dataset.py

`write_tree(root)` writes a small folder tree of 16-bit mono WAV files of
different lengths (the tests write the same tree); Keras reads it without
shuffling, with padded batches, with `output_sequence_length` and with a
validation split, and the JSON records every batch.
"""

import json
import os
import tempfile
import wave

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CLIPS = {"dog": [5, 3, 8], "cat": [4, 6], "bird": [7]}  # samples per clip
RATE = 8000


def write_tree(root):
    """Writes `CLIPS` as `root/<class>/clip_<i>.wav`, 16-bit mono PCM at `RATE` Hz."""
    rng = np.random.default_rng(31)
    for label, lengths in CLIPS.items():
        os.makedirs(os.path.join(root, label), exist_ok=True)
        for i, length in enumerate(lengths):
            samples = rng.integers(-32768, 32768, size=length).astype("<i2")
            with wave.open(os.path.join(root, label, f"clip_{i}.wav"), "wb") as f:
                f.setnchannels(1)
                f.setsampwidth(2)
                f.setframerate(RATE)
                f.writeframes(samples.tobytes())


def _batches(dataset):
    out = []
    for element in dataset:
        if isinstance(element, tuple):
            out.append([np.asarray(e).tolist() for e in element])
        else:
            out.append([np.asarray(element).tolist()])
    return out


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    import keras

    cases = {
        "padded": {"batch_size": 2, "shuffle": False},
        "fixed_length": {"batch_size": 4, "shuffle": False, "output_sequence_length": 6,
                         "label_mode": "categorical"},
        "no_labels": {"batch_size": 3, "shuffle": False, "labels": None},
        "training": {"batch_size": 8, "shuffle": False, "validation_split": 0.34,
                     "subset": "training"},
        "validation": {"batch_size": 8, "shuffle": False, "validation_split": 0.34,
                       "subset": "validation"},
    }
    with tempfile.TemporaryDirectory() as root:
        write_tree(root)
        recorded = {}
        for name, kwargs in cases.items():
            ds = keras.utils.audio_dataset_from_directory(root, verbose=False, **kwargs)
            recorded[name] = {"kwargs": kwargs, "class_names": ds.class_names,
                              "batches": _batches(ds)}
    with open(os.path.join(HERE, "keras_audio_dataset.json"), "w") as f:
        json.dump({"keras_version": keras.__version__, "cases": recorded}, f)
    print(f"wrote keras_audio_dataset.json with Keras {keras.__version__}")


if __name__ == "__main__":
    main()
