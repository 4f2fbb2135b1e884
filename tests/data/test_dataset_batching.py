"""batch, padded_batch and unbatch."""

import numpy as np
import pytest

from hikeras.data import Dataset


def test_batch_stacks_structures_and_keeps_the_remainder():
    ds = Dataset.from_tensor_slices((np.arange(10).reshape(5, 2), np.arange(5))).batch(2)
    batches = list(ds)
    assert ds.cardinality() == 3 and len(batches) == 3
    assert batches[0][0].tolist() == [[0, 1], [2, 3]] and batches[0][1].tolist() == [0, 1]
    assert batches[2][0].shape == (1, 2)


def test_batch_drop_remainder():
    ds = Dataset.range(7).batch(3, drop_remainder=True)
    assert [b.tolist() for b in ds] == [[0, 1, 2], [3, 4, 5]] and ds.cardinality() == 2


def test_batch_of_dicts():
    ds = Dataset.from_tensor_slices({"a": np.arange(4), "b": np.ones((4, 2))}).batch(4)
    (batch,) = list(ds)
    assert batch["a"].tolist() == [0, 1, 2, 3] and batch["b"].shape == (4, 2)


def test_unbatchable_shapes_name_the_elements_and_both_shapes():
    def images():
        yield np.zeros((4, 4, 3))
        yield np.zeros((4, 4, 3))
        yield np.zeros((4, 4, 3))
        yield np.zeros((4, 4))  # a grayscale image among RGB ones
    ds = Dataset.from_generator(images).batch(2)
    with pytest.raises(ValueError) as info:
        list(ds)
    message = str(info.value)
    assert "elements 2 and 3" in message
    assert "(4, 4, 3)" in message and "(4, 4)" in message


def test_unbatchable_structure_is_reported():
    def mixed():
        yield np.zeros(2), np.zeros(1)
        yield np.zeros(2)
    with pytest.raises(ValueError, match="elements 0 and 1.*different structures"):
        list(Dataset.from_generator(mixed).batch(2))


def test_padded_batch_pads_to_the_longest_or_the_given_shape():
    def sequences():
        for n in (1, 3, 2):
            yield np.arange(1, n + 1), np.int64(n)
    ds = Dataset.from_generator(sequences)
    (batch,) = list(ds.padded_batch(3))
    assert batch[0].tolist() == [[1, 0, 0], [1, 2, 3], [1, 2, 0]]
    assert batch[1].tolist() == [1, 3, 2]
    (fixed,) = list(ds.padded_batch(3, padded_shapes=([5], []), padding_values=(-1, 0)))
    assert fixed[0].tolist() == [[1, -1, -1, -1, -1], [1, 2, 3, -1, -1], [1, 2, -1, -1, -1]]
    with pytest.raises(ValueError, match="longer than its padded shape"):
        list(ds.padded_batch(3, padded_shapes=([2], [])))


def test_padded_batch_strings_and_rank_errors():
    words = Dataset.from_generator(lambda: iter([np.array(["a"]), np.array(["b", "c"])]))
    (batch,) = list(words.padded_batch(2))
    assert batch.tolist() == [["a", ""], ["b", "c"]]
    ragged = Dataset.from_generator(lambda: iter([np.zeros(2), np.zeros((2, 2))]))
    with pytest.raises(ValueError, match="rank differs"):
        list(ragged.padded_batch(2))


def test_unbatch_inverts_batch():
    x = np.arange(14).reshape(7, 2)
    ds = Dataset.from_tensor_slices((x, np.arange(7))).batch(3).unbatch()
    assert [(a.tolist(), int(b)) for a, b in ds] == [(x[i].tolist(), i) for i in range(7)]
    bad = Dataset.from_tensors((np.zeros(3), np.zeros(2))).unbatch()
    with pytest.raises(ValueError, match="element 0"):
        list(bad)
