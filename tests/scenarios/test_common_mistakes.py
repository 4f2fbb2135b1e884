"""Scenario: what users commonly get slightly wrong works as in Keras 3, or says why not.

Issue 16, items 8 (input rank off by a trailing axis of 1), 9 (`summary()`
before the model is built) and 11 (data of the wrong dtype).
"""

import io

import numpy as np
import pytest

import hikeras as keras


def _image_model():
    inputs = keras.Input(shape=(5, 5, 1))
    hidden = keras.layers.Conv2D(2, 3, activation="relu")(inputs)
    outputs = keras.layers.Dense(3, activation="softmax")(keras.layers.Flatten()(hidden))
    model = keras.Model(inputs, outputs)
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def test_images_without_their_channel_axis_get_one_with_a_warning(rng):
    model = _image_model()
    images = rng.random((6, 5, 5)).astype("float32")  # grayscale, as loaded from MNIST
    labels = rng.integers(0, 3, size=6)
    with pytest.warns(UserWarning, match=r"expects shape \(None, 5, 5, 1\).*trailing axis of "
                                         r"size 1 added"):
        squeezed = model.predict(images, verbose=0)
    np.testing.assert_allclose(squeezed, model.predict(images[..., None], verbose=0))
    before = model.evaluate(images[..., None], labels, verbose=0)
    assert model.evaluate(images, labels, verbose=0) == pytest.approx(before)
    model.fit(images, labels, epochs=1, verbose=0)
    wide = images[..., None, None]  # one axis of 1 too many
    np.testing.assert_allclose(model.predict(wide, verbose=0),
                               model.predict(images[..., None], verbose=0))


def test_input_rank_off_by_more_than_an_axis_of_one_is_an_error(rng):
    model = _image_model()
    with pytest.raises(ValueError, match=r"expects shape \(None, 5, 5, 1\).*Received: input "
                                         r"shape \(2, 5, 5, 3\)"):
        model.predict(rng.random((2, 5, 5, 3)), verbose=0)


def test_summary_of_an_unbuilt_sequential_lists_its_layers():
    model = keras.Sequential([keras.layers.Dense(4, name="hidden"),
                              keras.layers.Dense(2, name="out")])
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert 'Model: "sequential"' in text
    for name in ("hidden (Dense)", "out (Dense)"):
        row = next(line for line in lines if line.startswith(name))
        assert row.split()[2:] == ["?", "0", "(unbuilt)"]
    assert "Total params: 0" in text
    model.build((None, 3))
    buffer = io.StringIO()
    model.summary(print_fn=lambda line: buffer.write(line + "\n"))
    assert "Total params: 26" in buffer.getvalue()


def _classifier():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2)])
    model.compile("sgd", "mse")
    return model


def test_object_dtype_inputs_name_the_dtype():
    x = np.array([[1, 2], [3, 4]], dtype=object)  # e.g. from a pandas frame of mixed columns
    with pytest.raises(ValueError, match=r"x has dtype object.*astype|x has dtype object.*"
                                         r"dtype='float32'"):
        _classifier().fit(x, np.ones((2, 2)), verbose=0)


def test_string_targets_name_the_argument():
    y = np.array([["cat", "dog"], ["dog", "cat"]])
    with pytest.raises(ValueError, match=r"^y has dtype <U3 \(strings\).*StringLookup"):
        _classifier().fit(np.ones((2, 2)), y, verbose=0)
    with pytest.raises(ValueError, match=r"y\['out'\]|y has dtype"):
        _classifier().evaluate(np.ones((2, 2)), y, verbose=0)


def test_string_inputs_still_reach_text_layers():
    lookup = keras.layers.StringLookup(vocabulary=["cat", "dog"])
    inputs = keras.Input((1,), dtype="string")
    outputs = keras.layers.Dense(1)(keras.ops.cast(lookup(inputs), "float32"))
    model = keras.Model(inputs, outputs)
    model.compile("sgd", "mse")
    model.fit(np.array([["cat"], ["dog"]]), np.ones((2, 1)), verbose=0)
