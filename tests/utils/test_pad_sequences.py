import numpy as np
import pytest

from hikeras.utils import pad_sequences

SEQS = [[1, 2, 3, 4], [5], [], [6, 7]]


@pytest.mark.parametrize("padding, truncating, expected", [
    ("pre", "pre", [[2, 3, 4], [0, 0, 5], [0, 0, 0], [0, 6, 7]]),
    ("post", "pre", [[2, 3, 4], [5, 0, 0], [0, 0, 0], [6, 7, 0]]),
    ("pre", "post", [[1, 2, 3], [0, 0, 5], [0, 0, 0], [0, 6, 7]]),
    ("post", "post", [[1, 2, 3], [5, 0, 0], [0, 0, 0], [6, 7, 0]]),
])
def test_padding_and_truncating_sides(padding, truncating, expected):
    out = pad_sequences(SEQS, maxlen=3, padding=padding, truncating=truncating)
    assert out.dtype == np.int32 and out.tolist() == expected


def test_default_maxlen_value_and_dtype():
    out = pad_sequences(SEQS, value=-1, dtype="float32")
    assert out.shape == (4, 4) and out.dtype == np.float32
    assert out[1].tolist() == [-1, -1, -1, 5]


def test_sequences_of_vectors_and_strings():
    out = pad_sequences([np.ones((2, 3)), np.zeros((1, 3))], maxlen=2, dtype="float32")
    assert out.shape == (2, 2, 3) and out[1, 0].tolist() == [0, 0, 0]
    words = pad_sequences([["a", "b"], ["c"]], dtype=object, value="<pad>")
    assert words.tolist() == [["a", "b"], ["<pad>", "c"]]


def test_errors():
    with pytest.raises(ValueError, match="padding"):
        pad_sequences(SEQS, padding="middle")
    with pytest.raises(ValueError, match="truncating"):
        pad_sequences(SEQS, truncating="both")
    with pytest.raises(ValueError, match="string padding value"):
        pad_sequences(SEQS, value="x")
    with pytest.raises(ValueError, match=r"item 1 has no length"):
        pad_sequences([[1], 5])
    with pytest.raises(ValueError, match=r"Sequence 1 has elements of shape \(2,\)"):
        pad_sequences([np.ones((2, 3)), np.ones((2, 2))])
    assert pad_sequences([]).shape == (0, 0)
