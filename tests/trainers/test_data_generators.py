"""fit/evaluate/predict on Python generators: steps are required, batches may carry weights."""

import numpy as np
import pytest

from tests.data.fit_helpers import Recorder, make_model, rows


def batches(x, y, size, sample_weight=None, forever=False):
    while True:
        for lo in range(0, len(x), size):
            part = slice(lo, lo + size)
            if sample_weight is None:
                yield x[part], y[part]
            else:
                yield x[part], y[part], sample_weight[part]
        if not forever:
            return


def test_infinite_generator_needs_steps_per_epoch():
    model = make_model()
    x, y = rows(8)
    with pytest.raises(ValueError, match=r"`steps_per_epoch` must say.*steps_per_epoch=None"):
        model.fit(batches(x, y, 4, forever=True), epochs=1, verbose=0)
    with pytest.raises(ValueError, match=r"`validation_steps`"):
        model.fit(x, y, validation_data=batches(x, y, 4, forever=True), verbose=0)
    with pytest.raises(ValueError, match=r"`steps`"):
        model.evaluate(batches(x, y, 4, forever=True), verbose=0)


def test_generator_epochs_continue_the_same_stream():
    model = make_model(Recorder)
    x, y = rows(12)
    model.fit(batches(x, y, 2, forever=True), steps_per_epoch=4, epochs=2, verbose=0)
    assert [b[0] for b in model.trained] == [0, 2, 4, 6, 8, 10, 0, 2]


def test_generator_with_sample_weights_matches_arrays():
    x, y = rows(8)
    sw = np.array([1, 0, 2, 0, 1, 0, 2, 0], dtype="float32")
    from_arrays = make_model().evaluate(x, y, sample_weight=sw, batch_size=4, verbose=0)
    from_gen = make_model().evaluate(batches(x, y, 4, sw), steps=2, verbose=0)
    assert from_gen == pytest.approx(from_arrays)
    unweighted = make_model().evaluate(x, y, batch_size=4, verbose=0)
    assert from_gen != pytest.approx(unweighted)


def test_generator_running_out_warns_and_stops_training():
    model = make_model(Recorder)
    x, y = rows(6)
    with pytest.warns(UserWarning, match="ran out of data"):
        history = model.fit(batches(x, y, 2), steps_per_epoch=2, epochs=5, verbose=0)
    assert len(model.trained) == 3
    assert len(history.history["loss"]) == 2


def test_validation_generator_continues_across_epochs():
    model = make_model(Recorder)
    x, y = rows(8)
    model.fit(x, y, batch_size=8, epochs=2, verbose=0,
              validation_data=batches(x, y, 2, forever=True), validation_steps=3)
    assert [b[0] for b in model.tested] == [0, 2, 4, 6, 0, 2]


def test_predict_on_a_generator_of_inputs_only():
    model = make_model()
    x, _ = rows(6)
    expected = model.predict(x, verbose=0)
    got = model.predict((x[i:i + 4] for i in range(0, 6, 4)), steps=2, verbose=0)
    np.testing.assert_allclose(got, expected)


def test_y_or_batch_size_with_a_generator_is_rejected():
    model = make_model()
    x, y = rows(4)
    with pytest.raises(ValueError, match="Do not pass `y`"):
        model.fit(batches(x, y, 2), y, steps_per_epoch=1, verbose=0)
    with pytest.raises(ValueError, match="Do not pass `batch_size`"):
        model.fit(batches(x, y, 2), batch_size=2, steps_per_epoch=1, verbose=0)
    with pytest.raises(ValueError, match="validation_split only works"):
        model.fit(batches(x, y, 2), steps_per_epoch=1, validation_split=0.5, verbose=0)
