"""fit/evaluate/predict on `hikeras.data.Dataset`: inferred steps, infinite datasets,
validation, class weights, and errors raised from inside the pipeline."""

import numpy as np
import pytest

import hikeras
from hikeras.data import Dataset
from tests.data.fit_helpers import Recorder, data_threads, make_model, rows


class Steps(hikeras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.per_epoch = []

    def on_epoch_begin(self, epoch, logs=None):
        self.per_epoch.append(0)
        self.declared = self.params.get("steps")

    def on_train_batch_end(self, batch, logs=None):
        self.per_epoch[-1] += 1


def test_fit_infers_steps_from_a_finite_dataset():
    x, y = rows(10)
    ds = Dataset.from_tensor_slices((x, y)).batch(4)
    steps = Steps()
    make_model().fit(ds, epochs=2, callbacks=[steps], verbose=0)
    assert steps.declared == 3 and steps.per_epoch == [3, 3]


def test_unknown_cardinality_runs_each_epoch_to_the_end():
    x, y = rows(10)
    ds = Dataset.from_tensor_slices((x, y)).filter(lambda a, b: a[0] % 2 == 0).batch(2)
    steps = Steps()
    make_model().fit(ds, epochs=2, callbacks=[steps], verbose=0)
    assert steps.declared is None and steps.per_epoch == [3, 3]


def test_infinite_dataset_needs_steps_per_epoch():
    x, y = rows(8)
    ds = Dataset.from_tensor_slices((x, y)).batch(4).repeat()
    with pytest.raises(ValueError, match=r"infinite dataset.*steps_per_epoch=None"):
        make_model().fit(ds, verbose=0)
    model = make_model(Recorder)
    model.fit(ds, steps_per_epoch=3, epochs=2, verbose=0)
    assert [b[0] for b in model.trained] == [0, 4, 0, 4, 0, 4]


def test_steps_per_epoch_on_a_finite_dataset_starts_new_passes():
    x, y = rows(6)
    model = make_model(Recorder)
    model.fit(Dataset.from_tensor_slices((x, y)).batch(2), steps_per_epoch=2, epochs=3,
              verbose=0)
    assert [b[0] for b in model.trained] == [0, 2, 4, 0, 2, 4]


def test_dataset_results_match_arrays():
    x, y = rows(10)
    ds = Dataset.from_tensor_slices((x, y)).batch(4)
    a, b = make_model(), make_model()
    loss_ds = a.fit(ds, epochs=2, verbose=0, validation_data=ds).history
    loss_arr = b.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0,
                     validation_data=(x, y)).history
    assert loss_ds["loss"] == pytest.approx(loss_arr["loss"])
    assert loss_ds["val_loss"] == pytest.approx(loss_arr["val_loss"])
    assert a.evaluate(ds, verbose=0) == pytest.approx(b.evaluate(x, y, verbose=0))
    np.testing.assert_allclose(a.predict(ds, verbose=0), b.predict(x, verbose=0))
    np.testing.assert_allclose(a.predict(Dataset.from_tensor_slices(x).batch(3), verbose=0),
                               b.predict(x, verbose=0))


def test_class_weight_applies_to_dataset_batches():
    x, _ = rows(8)
    labels = (np.arange(8) % 2).astype("float32")[:, None]
    weights = {0: 1.0, 1: 3.0}
    ds = Dataset.from_tensor_slices((x, labels)).batch(8)
    from_ds = make_model(learning_rate=0.0).fit(ds, class_weight=weights, verbose=0)
    from_arrays = make_model(learning_rate=0.0).fit(x, labels, batch_size=8,
                                                    class_weight=weights, verbose=0)
    plain = make_model(learning_rate=0.0).fit(ds, verbose=0)
    assert from_ds.history["loss"] == pytest.approx(from_arrays.history["loss"])
    assert from_ds.history["loss"] != pytest.approx(plain.history["loss"])


def test_prefetching_pipeline_errors_surface_in_fit_and_leave_no_thread():
    images = [np.zeros((2,), "float32")] * 5 + [np.zeros((3,), "float32")]
    ds = Dataset.from_generator(lambda: iter(zip(images, np.zeros((6, 1), "float32"))))
    ds = ds.map(lambda a, b: (a, b), num_parallel_calls=2).batch(3).prefetch(2)
    with pytest.raises(ValueError, match=r"elements 3 and 5.*\(2,\).*\(3,\)"):
        make_model().fit(ds, epochs=1, verbose=0)
    assert data_threads() == []


def test_fit_on_a_full_pipeline_leaves_no_thread():
    x, y = rows(40)
    ds = (Dataset.from_tensor_slices((x, y)).shuffle(40, seed=1)
          .map(lambda a, b: (a, b), num_parallel_calls=2).batch(8).prefetch(2))
    make_model().fit(ds, epochs=2, verbose=0, validation_data=ds.take(2))
    assert data_threads() == []


def test_targets_with_a_dataset_are_rejected():
    x, y = rows(4)
    ds = Dataset.from_tensor_slices((x, y)).batch(2)
    with pytest.raises(ValueError, match=r"Do not pass `y` when `x` is a Dataset"):
        make_model().fit(ds, y, verbose=0)
    with pytest.raises(ValueError, match=r"Do not pass `sample_weight`"):
        make_model().evaluate(ds, sample_weight=np.ones(4), verbose=0)
