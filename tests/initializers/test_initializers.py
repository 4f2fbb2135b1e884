"""Initializers: shapes, dtypes, Keras's fans and statistics, seeds, configs, `get`."""

import math

import numpy as np
import pytest

from hikeras import initializers
from hikeras.backend import floatx, set_floatx
from hikeras.utils import set_random_seed

# N(0, 1) truncated to [-2, 2] has variance 1 - 4 * phi(2) / (2 * Phi(2) - 1),
# with phi the density and Phi the CDF; Keras divides by the square root of it.
_PHI2 = math.exp(-2.0) / math.sqrt(2 * math.pi)
_MASS2 = math.erf(2 / math.sqrt(2))
TRUNCATED_UNIT_STD = math.sqrt(1 - 4 * _PHI2 / _MASS2)


@pytest.fixture(autouse=True)
def _seeded():
    set_random_seed(0)  # statistical checks below then always see the same draws


ALL_CLASSES = [
    initializers.Zeros, initializers.Ones, initializers.Constant, initializers.Identity,
    initializers.RandomNormal, initializers.RandomUniform, initializers.TruncatedNormal,
    initializers.VarianceScaling, initializers.GlorotUniform, initializers.GlorotNormal,
    initializers.HeUniform, initializers.HeNormal, initializers.LecunUniform,
    initializers.LecunNormal, initializers.Orthogonal,
]


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_shape_and_dtype(cls, dtype):
    values = cls()((4, 5), dtype=dtype)
    assert isinstance(values, np.ndarray)
    assert values.shape == (4, 5)
    assert values.dtype == np.dtype(dtype or floatx())


def test_default_dtype_follows_floatx():
    previous = floatx()
    set_floatx("float64")
    try:
        assert initializers.GlorotUniform()((3, 3)).dtype == np.float64
        assert initializers.Zeros()((2,)).dtype == np.float64
    finally:
        set_floatx(previous)


def test_constant_initializers_values():
    np.testing.assert_array_equal(initializers.Zeros()((2, 3)), np.zeros((2, 3)))
    np.testing.assert_array_equal(initializers.Ones()((3,), dtype="int32"), [1, 1, 1])
    np.testing.assert_array_equal(initializers.Constant(2.5)((2,)), [2.5, 2.5])
    np.testing.assert_array_equal(initializers.Constant([1.0, 2.0])((2, 2)), [[1, 2], [1, 2]])
    np.testing.assert_array_equal(initializers.Identity(gain=3.0)((2, 3)),
                                  [[3, 0, 0], [0, 3, 0]])


def test_fans_of_dense_and_conv_kernels():
    assert initializers.compute_fans(()) == (1, 1)
    assert initializers.compute_fans((7,)) == (7, 7)
    assert initializers.compute_fans((20, 30)) == (20, 30)
    assert initializers.compute_fans((5, 16, 32)) == (5 * 16, 5 * 32)  # Conv1D
    assert initializers.compute_fans((3, 3, 16, 32)) == (9 * 16, 9 * 32)  # Conv2D
    assert initializers.compute_fans((2, 3, 3, 4, 8)) == (18 * 4, 18 * 8)  # Conv3D


# shape, fan_in, fan_out worked out by hand (receptive field = leading dims)
DENSE = ((300, 200), 300, 200)
CONV = ((3, 3, 32, 64), 9 * 32, 9 * 64)


@pytest.mark.parametrize("shape, fan_in, fan_out", [DENSE, CONV], ids=["dense", "conv"])
@pytest.mark.parametrize("name, variance, uniform", [
    ("glorot_uniform", lambda i, o: 2.0 / (i + o), True),
    ("glorot_normal", lambda i, o: 2.0 / (i + o), False),
    ("he_uniform", lambda i, o: 2.0 / i, True),
    ("he_normal", lambda i, o: 2.0 / i, False),
    ("lecun_uniform", lambda i, o: 1.0 / i, True),
    ("lecun_normal", lambda i, o: 1.0 / i, False),
])
def test_variance_scaling_presets_statistics(name, variance, uniform, shape, fan_in, fan_out):
    values = initializers.get(name)(shape, dtype="float64")
    expected_std = math.sqrt(variance(fan_in, fan_out))
    assert abs(values.mean()) < 0.04 * expected_std
    assert values.std() == pytest.approx(expected_std, rel=0.02)
    if uniform:
        limit = math.sqrt(3.0) * expected_std
        assert np.abs(values).max() <= limit
        assert np.abs(values).max() > 0.99 * limit
    else:  # truncated at two standard deviations of the *untruncated* normal
        bound = 2.0 * expected_std / TRUNCATED_UNIT_STD
        assert np.abs(values).max() <= bound * (1 + 1e-12)
        assert np.abs(values).max() > 0.98 * bound


@pytest.mark.parametrize("mode, fan", [("fan_in", 300), ("fan_out", 200), ("fan_avg", 250)])
def test_variance_scaling_modes_and_untruncated(mode, fan):
    init = initializers.VarianceScaling(scale=3.0, mode=mode, distribution="untruncated_normal",
                                        seed=1)
    values = init((300, 200), dtype="float64")
    assert values.std() == pytest.approx(math.sqrt(3.0 / fan), rel=0.02)
    assert np.abs(values).max() > 3.5 * math.sqrt(3.0 / fan)  # tails are not cut


def test_truncated_normal_bounds_and_spread():
    values = initializers.TruncatedNormal(mean=1.0, stddev=0.5, seed=0)((200_000,),
                                                                       dtype="float64")
    assert values.min() >= 0.0 and values.max() <= 2.0
    assert values.mean() == pytest.approx(1.0, abs=0.005)
    assert values.std() == pytest.approx(0.5 * TRUNCATED_UNIT_STD, rel=0.01)
    # re-drawn, not clipped: no pile-up at the bounds, yet values near them exist
    assert not np.any(np.isin(values, [0.0, 2.0]))
    assert np.sum(values > 1.95) > 0


def test_random_normal_and_uniform_statistics():
    normal = initializers.RandomNormal(mean=2.0, stddev=3.0, seed=0)((100_000,), "float64")
    assert normal.mean() == pytest.approx(2.0, abs=0.05)
    assert normal.std() == pytest.approx(3.0, rel=0.02)
    uniform = initializers.RandomUniform(minval=-1.0, maxval=3.0, seed=0)((100_000,))
    assert uniform.min() >= -1.0 and uniform.max() < 3.0
    assert uniform.mean() == pytest.approx(1.0, abs=0.03)


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5), (3, 3, 4, 8)])
def test_orthogonal_is_orthogonal(shape):
    gain = 2.0
    w = initializers.Orthogonal(gain=gain, seed=3)(shape, dtype="float64")
    assert w.shape == shape
    flat = w.reshape(-1, shape[-1])
    small = min(flat.shape)
    gram = flat.T @ flat if flat.shape[0] >= flat.shape[1] else flat @ flat.T
    np.testing.assert_allclose(gram, gain**2 * np.eye(small), atol=1e-10)


def test_orthogonal_is_sign_corrected_q_of_a_seeded_normal_draw():
    w = initializers.Orthogonal(seed=5)((8, 8), dtype="float64")
    # Q of the QR of a normal draw, each column flipped where R's diagonal is negative,
    # so that Q is uniformly distributed (the draw comes from the seed's generator).
    draw = np.random.default_rng(5).standard_normal((8, 8))
    q, r = np.linalg.qr(draw)
    np.testing.assert_allclose(w, q * np.sign(np.diag(r)), atol=1e-12)


@pytest.mark.parametrize("cls", [c for c in ALL_CLASSES if "seed" in c().get_config()],
                         ids=lambda c: c.__name__)
def test_integer_seed_repeats_and_distinct_seeds_differ(cls):
    a = cls(seed=7)((6, 5))
    np.testing.assert_array_equal(a, cls(seed=7)((6, 5)))
    init = cls(seed=7)
    np.testing.assert_array_equal(init((6, 5)), init((6, 5)))
    assert not np.array_equal(a, cls(seed=8)((6, 5)))


def test_unseeded_differs_per_call_but_is_reproducible_after_set_random_seed():
    init = initializers.GlorotNormal()
    set_random_seed(123)
    first, second = init((10, 10)), init((10, 10))
    assert not np.array_equal(first, second)
    set_random_seed(123)
    np.testing.assert_array_equal(first, init((10, 10)))
    np.testing.assert_array_equal(second, init((10, 10)))


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_bad_seed_is_rejected(bad):
    with pytest.raises(ValueError, match="seed"):
        initializers.RandomNormal(seed=bad)


def test_argument_validation():
    with pytest.raises(ValueError, match="scale"):
        initializers.VarianceScaling(scale=0.0)
    with pytest.raises(ValueError, match="mode"):
        initializers.VarianceScaling(mode="fan_sideways")
    with pytest.raises(ValueError, match="distribution"):
        initializers.VarianceScaling(distribution="cauchy")
    assert initializers.VarianceScaling(distribution="normal").distribution == "truncated_normal"
    with pytest.raises(ValueError, match="2D"):
        initializers.Identity()((2, 2, 2))
    with pytest.raises(ValueError, match="two-dimensional"):
        initializers.Orthogonal()((5,))
    with pytest.raises(ValueError, match="float dtype"):
        initializers.RandomNormal()((2,), dtype="int32")


@pytest.mark.parametrize("init", [
    initializers.Zeros(), initializers.Ones(), initializers.Constant(0.3),
    initializers.Constant([[1.0, 2.0]]), initializers.Identity(gain=0.5),
    initializers.RandomNormal(mean=1.0, stddev=2.0, seed=4),
    initializers.RandomUniform(minval=0.0, maxval=2.0, seed=4),
    initializers.TruncatedNormal(stddev=0.1, seed=4),
    initializers.VarianceScaling(scale=0.5, mode="fan_out", distribution="uniform", seed=4),
    initializers.GlorotUniform(seed=4), initializers.HeNormal(seed=4),
    initializers.LecunUniform(seed=4), initializers.Orthogonal(gain=1.5, seed=4),
], ids=lambda i: type(i).__name__)
def test_config_round_trip(init):
    config = initializers.serialize(init)
    assert config["class_name"] == type(init).__name__
    rebuilt = initializers.deserialize(config)
    assert type(rebuilt) is type(init)
    assert rebuilt.get_config() == init.get_config()
    np.testing.assert_array_equal(rebuilt((3, 2)), init((3, 2)))


def test_preset_configs_hold_only_the_seed():
    assert initializers.GlorotUniform(seed=2).get_config() == {"seed": 2}
    assert initializers.HeNormal().get_config() == {"seed": None}


@pytest.mark.parametrize("name, cls", [
    ("glorot_uniform", initializers.GlorotUniform), ("GlorotUniform", initializers.GlorotUniform),
    ("glorot_normal", initializers.GlorotNormal), ("he_uniform", initializers.HeUniform),
    ("he_normal", initializers.HeNormal), ("lecun_uniform", initializers.LecunUniform),
    ("lecun_normal", initializers.LecunNormal), ("zeros", initializers.Zeros),
    ("zero", initializers.Zeros), ("ones", initializers.Ones), ("one", initializers.Ones),
    ("constant", initializers.Constant), ("identity", initializers.Identity),
    ("orthogonal", initializers.Orthogonal), ("OrthogonalInitializer", initializers.Orthogonal),
    ("random_normal", initializers.RandomNormal), ("normal", initializers.RandomNormal),
    ("random_uniform", initializers.RandomUniform), ("uniform", initializers.RandomUniform),
    ("truncated_normal", initializers.TruncatedNormal),
    ("variance_scaling", initializers.VarianceScaling),
])
def test_get_by_name(name, cls):
    assert type(initializers.get(name)) is cls


def test_get_other_identifiers():
    assert initializers.get(None) is None
    instance = initializers.HeNormal(seed=1)
    assert initializers.get(instance) is instance
    assert isinstance(initializers.get(initializers.Ones), initializers.Ones)
    custom = lambda shape, dtype=None: np.full(shape, 7.0)  # noqa: E731
    assert initializers.get(custom) is custom
    from_dict = initializers.get({"class_name": "RandomUniform",
                                  "config": {"minval": 1.0, "maxval": 2.0, "seed": 3}})
    assert from_dict.get_config() == {"minval": 1.0, "maxval": 2.0, "seed": 3}


def test_get_unknown_name_lists_choices():
    with pytest.raises(ValueError) as info:
        initializers.get("glorot_unifrom")
    message = str(info.value)
    assert "glorot_uniform" in message and "he_normal" in message
    assert message.endswith("Received: initializer='glorot_unifrom'")


def test_truncation_correction_constant_is_the_truncated_unit_std():
    from hikeras.initializers import random_initializers

    assert random_initializers._TRUNCATED_STDDEV_CORRECTION == pytest.approx(
        TRUNCATED_UNIT_STD, rel=1e-12)
