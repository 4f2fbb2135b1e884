"""`hikeras.random`: Keras's names and seed rules, distributions checked statistically
(deterministic seeds, tolerances of several standard errors), and the
`SeedGenerator` state carried through `BackupAndRestore`."""

import numpy as np
import pytest
from hikeras.backend import GradientTape, SymbolicTensor

import hikeras
from hikeras import callbacks, layers, ops, random
from hikeras.utils import set_random_seed
from tests.helpers.keras_names import missing_names

N = 20000


def test_every_keras_random_name_is_in_hikeras_random():
    assert missing_names("keras.random", random, {}) == []


@pytest.mark.parametrize("sample", [
    lambda seed: random.normal((4, 3), seed=seed),
    lambda seed: random.uniform((5,), seed=seed),
    lambda seed: random.truncated_normal((5,), seed=seed),
    lambda seed: random.randint((5,), 0, 100, seed=seed),
    lambda seed: random.categorical(np.zeros((2, 5)), 4, seed=seed),
    lambda seed: random.gamma((5,), 2.0, seed=seed),
    lambda seed: random.beta((5,), 2.0, 3.0, seed=seed),
    lambda seed: random.binomial((5,), 10, 0.5, seed=seed),
    lambda seed: random.dropout(np.ones(50), 0.5, seed=seed),
    lambda seed: random.shuffle(np.arange(20.0), seed=seed),
])
def test_seed_rules(sample):
    np.testing.assert_array_equal(sample(7), sample(7))  # an int seed repeats
    generator = random.SeedGenerator(7)
    first, second = sample(generator), sample(generator)
    assert not np.array_equal(first, second)  # a SeedGenerator advances
    replay = random.SeedGenerator(7)
    np.testing.assert_array_equal(sample(replay), first)
    set_random_seed(3)
    a, b = sample(None), sample(None)
    set_random_seed(3)
    np.testing.assert_array_equal(sample(None), a)
    np.testing.assert_array_equal(sample(None), b)


def test_seed_generator_state_advances_and_round_trips_its_config():
    generator = random.SeedGenerator(11, name="noise")
    assert generator.state.value.tolist() == [11, 0] and not generator.state.trainable
    random.normal((2,), seed=generator)
    assert generator.state.value.tolist() == [11, 1]
    again = random.SeedGenerator.from_config(generator.get_config())
    assert again.name == "noise" and again.state.value.tolist() == [11, 0]
    with pytest.raises(ValueError, match="seed"):
        random.SeedGenerator(-1)


def test_normal_and_truncated_normal_moments():
    x = random.normal((N,), mean=2.0, stddev=3.0, seed=1)
    assert x.dtype == np.float32
    assert abs(x.mean() - 2.0) < 5 * 3.0 / np.sqrt(N)
    assert abs(x.std() - 3.0) < 0.05 * 3.0
    t = random.truncated_normal((N,), mean=1.0, stddev=0.5, seed=2, dtype="float64")
    assert t.dtype == np.float64 and np.all(np.abs(t - 1.0) <= 1.0)
    # a standard normal truncated to [-2, 2] has standard deviation 0.8796
    assert abs(t.std() / 0.5 - 0.8796) < 0.02


def test_uniform_and_randint_ranges_and_frequencies():
    u = random.uniform((N,), -1.0, 3.0, seed=3)
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 0.05
    k = random.randint((N,), 2, 7, seed=4)
    assert k.dtype == np.int32 and set(np.unique(k)) == {2, 3, 4, 5, 6}
    counts = np.bincount(k - 2) / N
    assert np.all(np.abs(counts - 0.2) < 0.02)
    with pytest.raises(ValueError, match="floats"):
        random.uniform((2,), dtype="int32")
    with pytest.raises(ValueError, match="minval < maxval"):
        random.randint((2,), 5, 5)


def test_categorical_follows_the_softmax_of_the_logits():
    logits = np.log(np.array([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]]))
    draws = random.categorical(logits, N, seed=5)
    assert draws.shape == (2, N) and draws.dtype == np.int32
    for row, probabilities in zip(draws, np.exp(logits)):
        np.testing.assert_allclose(np.bincount(row, minlength=3) / N, probabilities, atol=0.015)


def test_gamma_beta_binomial_moments():
    g = random.gamma((N,), 3.0, seed=6)
    assert abs(g.mean() - 3.0) < 0.06 and abs(g.var() - 3.0) < 0.2
    b = random.beta((N,), 2.0, 6.0, seed=7)
    assert abs(b.mean() - 0.25) < 0.01 and b.min() > 0 and b.max() < 1
    n = random.binomial((N,), 10, 0.3, seed=8)
    assert n.dtype == np.float32 and abs(n.mean() - 3.0) < 0.06
    assert abs(n.var() - 2.1) < 0.15 and set(np.unique(n)) <= set(range(11))


def test_dropout_keeps_the_expectation_and_has_a_gradient():
    x = np.ones(N, np.float32)
    y = random.dropout(x, 0.25, seed=9)
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.01
    np.testing.assert_allclose(y[kept], 1 / 0.75)
    with GradientTape() as tape:
        tape.watch(x)
        out = ops.sum(random.dropout(x, 0.25, seed=9))
    np.testing.assert_array_equal(tape.gradient(out, x), y)


def test_shuffle_permutes_along_the_axis():
    x = np.arange(12.0).reshape(3, 4)
    y = random.shuffle(x, axis=1, seed=10)
    np.testing.assert_array_equal(np.sort(y, axis=1), x)
    assert np.all(y - y[:, :1] == (y[0] - y[0, 0]))  # the same column order in every row


def test_unknown_dimensions_give_symbolic_tensors():
    assert random.normal((None, 3)).shape == (None, 3)
    assert random.uniform((None, 2), seed=random.SeedGenerator(1)).shape == (None, 2)
    assert random.dropout(SymbolicTensor((None, 4)), 0.5).shape == (None, 4)


class _Noise(layers.Layer):
    """Adds seeded noise while training: its draws depend on the generator's state."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = random.SeedGenerator(5)

    def call(self, inputs, training=False):
        if not training:
            return inputs
        return ops.add(inputs, random.normal(ops.shape(inputs), stddev=0.5,
                                             seed=self.seed_generator))


def _noisy_model():
    set_random_seed(1)
    model = hikeras.Sequential([hikeras.Input((3,)), _Noise(), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


def test_backup_and_restore_restores_seed_generator_state(tmp_path):
    class FailOnce(callbacks.Callback):
        failed = False

        def on_train_batch_end(self, batch, logs=None):
            if not self.failed and batch == 1:
                self.failed = True
                raise RuntimeError("interrupted")

    data = np.random.default_rng(0)
    x, y = data.standard_normal((16, 3)), data.standard_normal((16, 1))
    reference = _noisy_model()
    reference.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False)
    model = _noisy_model()
    backup = callbacks.BackupAndRestore(tmp_path, save_freq=1)
    fail = FailOnce()
    with pytest.raises(RuntimeError, match="interrupted"):
        model.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False,
                  callbacks=[fail, backup])
    model.layers[0].seed_generator.state.value[1] = 999  # what the backup must undo
    model.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False,
              callbacks=[fail, backup])
    for a, b in zip(model.get_weights(), reference.get_weights()):
        np.testing.assert_array_equal(a, b)
