"""Issue 18: a `compute_loss` override with Keras 3's signature receives `training`."""

import numpy as np

import hikeras as keras


class Recording(keras.Model):
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        self.seen.append(training)
        loss = super().compute_loss(x, y, y_pred, sample_weight, training=training)
        return loss if training else loss * 0.0  # validation reports 0: the flag is used


def test_compute_loss_override_receives_training(rng):
    inputs = keras.Input((3,))
    model = Recording(inputs, keras.layers.Dense(1)(inputs))
    model.seen = []
    model.compile("sgd", "mse")
    x, y = rng.normal(size=(8, 3)).astype("float32"), rng.normal(size=(8, 1)).astype("float32")
    history = model.fit(x, y, batch_size=4, epochs=1, verbose=0, validation_data=(x, y))
    assert model.seen == [True, True, False, False]
    assert history.history["loss"][0] > 0 and history.history["val_loss"] == [0.0]
    model.seen = []
    assert model.evaluate(x, y, verbose=0) == 0.0 and model.seen == [False]
    model.train_on_batch(x, y)
    assert model.seen == [False, True]
    np.testing.assert_array_equal(model.predict(x, verbose=0).shape, (8, 1))
