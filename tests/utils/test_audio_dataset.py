"""audio_dataset_from_directory against Keras 3.15.1 on a tree of WAV files written here.

`keras_audio_dataset.py` wrote the same tree (its `write_tree`) and recorded
what Keras yields without shuffling; shuffled orders are checked for being
partitions, since the two frameworks draw different permutations.
"""

import json
import wave
from pathlib import Path

import numpy as np
import pytest

from hikeras.utils import audio_dataset_from_directory
from tests.utils.keras_audio_dataset import CLIPS, RATE, write_tree

FIXTURE = json.loads((Path(__file__).parent / "keras_audio_dataset.json").read_text())


@pytest.fixture
def tree(tmp_path):
    write_tree(str(tmp_path))
    return tmp_path


def _write(path, samples, channels=1, width=2, rate=RATE):
    with wave.open(str(path), "wb") as f:
        f.setnchannels(channels)
        f.setsampwidth(width)
        f.setframerate(rate)
        f.writeframes(np.asarray(samples).astype(f"<i{width}" if width > 1 else "u1").tobytes())


@pytest.mark.parametrize("case", sorted(FIXTURE["cases"]))
def test_batches_match_keras(tree, case):
    recorded = FIXTURE["cases"][case]
    ds = audio_dataset_from_directory(tree, verbose=False, **recorded["kwargs"])
    assert ds.class_names == recorded["class_names"]
    batches = list(ds)
    assert len(batches) == len(recorded["batches"])
    for got, want in zip(batches, recorded["batches"]):
        got = got if isinstance(got, tuple) else (got,)
        assert got[0].dtype == np.float32
        np.testing.assert_array_equal(got[0], np.array(want[0], dtype=np.float32))
        for got_part, want_part in zip(got[1:], want[1:]):
            np.testing.assert_array_equal(got_part, want_part)


def test_decoding_scales_16_bit_samples_as_tensorflow(tmp_path):
    (tmp_path / "a").mkdir()
    _write(tmp_path / "a" / "x.wav", [[0, 1], [-1, 32767], [-32768, 2]], channels=2)
    (audio, label), = list(audio_dataset_from_directory(tmp_path, verbose=False))
    np.testing.assert_array_equal(audio, [[[0, 1 / 32768], [-1 / 32768, 32767 / 32768],
                                           [-1.0, 2 / 32768]]])
    assert audio.shape == (1, 3, 2) and label.tolist() == [0]


def test_shuffled_subsets_partition_the_files(tree):
    train, val = audio_dataset_from_directory(tree, validation_split=0.34, subset="both",
                                              seed=7, batch_size=2, verbose=False)
    names = [Path(p).parent.name for p in train.file_paths + val.file_paths]
    assert sorted(names) == sorted(label for label, clips in CLIPS.items() for _ in clips)
    assert len(val.file_paths) == 2 and not set(train.file_paths) & set(val.file_paths)
    again, _ = audio_dataset_from_directory(tree, validation_split=0.34, subset="both",
                                            seed=7, batch_size=2, verbose=False)
    assert again.file_paths == train.file_paths
    labels = np.concatenate([y for _, y in train]).tolist()
    assert sorted(labels) == sorted(train.class_names.index(Path(p).parent.name)
                                    for p in train.file_paths)


def test_sampling_rate_is_checked_not_resampled(tree):
    ds = audio_dataset_from_directory(tree, sampling_rate=RATE, shuffle=False, verbose=False)
    assert sum(len(x) for x, _ in ds) == 6
    wrong = audio_dataset_from_directory(tree, sampling_rate=16000, verbose=False, seed=1)
    with pytest.raises(ValueError, match=r"does not resample.*sampling_rate=16000.*8000 Hz"):
        list(wrong)


@pytest.mark.parametrize("kwargs, match", [
    ({"ragged": True}, r"no ragged tensors.*Received: ragged=True"),
    ({"ragged": True, "output_sequence_length": 4}, r"Cannot set both"),
    ({"sampling_rate": 0}, r"Received: sampling_rate=0"),
    ({"sampling_rate": 8000.0}, r"Received: sampling_rate=8000.0"),
    ({"output_sequence_length": -3}, r"Received: output_sequence_length=-3"),
    ({"labels": "folders"}, r"Received: labels='folders'"),
    ({"label_mode": "binary"}, r"exactly 2 classes. Received: 3 classes"),
    ({"validation_split": 0.3}, r"set both or neither"),
])
def test_bad_arguments_are_refused(tree, kwargs, match):
    with pytest.raises(ValueError, match=match):
        audio_dataset_from_directory(tree, verbose=False, **kwargs)


def test_files_it_cannot_read_are_named(tmp_path):
    (tmp_path / "a").mkdir()
    _write(tmp_path / "a" / "eight_bit.wav", [0, 128, 255], width=1)
    with pytest.raises(ValueError, match=r"16-bit.*Received: 8-bit samples in .*eight_bit.wav"):
        list(audio_dataset_from_directory(tmp_path, verbose=False))
    (tmp_path / "a" / "eight_bit.wav").write_bytes(b"not a wav file at all")
    with pytest.raises(ValueError, match=r"Cannot read WAV file .*eight_bit.wav"):
        list(audio_dataset_from_directory(tmp_path, verbose=False))
    with pytest.raises(ValueError, match=r"No audio files found"):
        audio_dataset_from_directory(tmp_path, class_names=[], verbose=False)
