"""Mixed precision: float32 weights, half precision compute, loss scaling, Keras files.

The Keras fixtures in tests/fixtures/keras_mixed_precision/ come from its
generate.py (real Keras 3 on TensorFlow): an MLP and a CNN under
`"mixed_float16"`, saved before training, with Keras's predictions, the loss
and loss scale of each of 8 `train_on_batch` steps of a LossScaleOptimizer
around SGD, and the weights and predictions after them.

Tolerances: float16 keeps 11 significant bits (a relative rounding step of
4.9e-4). Both frameworks round every layer's output to float16, but they add
up matmul and convolution terms in different orders, so values differ by an
ulp or two. Predictions before training agree to 1e-6 (the float32 softmax
smooths the last rounding). Training amplifies each step's difference by the
learning rate (0.1): the MLP's weights stay within 2e-4 after 8 steps, the
CNN's, whose kernel gradients sum 576 products per entry, within 2e-2. The
loss scale sequence, which records which steps overflowed and were skipped,
must match exactly.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hikeras
from hikeras import backend, layers, mixed_precision, optimizers

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "keras_mixed_precision"
KERAS_FORM = {"module": "keras", "class_name": "DTypePolicy",
              "config": {"name": "mixed_float16"}, "registered_name": None}


@pytest.fixture
def mixed_float16():
    mixed_precision.set_global_policy("mixed_float16")
    yield
    mixed_precision.set_global_policy(None)


def test_layers_keep_float32_weights_and_compute_in_float16(mixed_float16, rng):
    dense = layers.Dense(3)
    out = dense(rng.normal(size=(2, 4)).astype("float32"))
    assert (dense.dtype, dense.variable_dtype, dense.compute_dtype) == (
        "float32", "float32", "float16")
    assert dense.kernel.dtype == np.float32 and out.dtype == np.float16
    assert dense.dtype_policy.name == "mixed_float16"
    # An explicit dtype wins over the global policy (Keras's advice for the last layer).
    assert layers.Activation("softmax", dtype="float32")(out).dtype == np.float32


def test_policy_given_to_one_layer(rng):
    x = rng.normal(size=(2, 4)).astype("float32")
    for dtype in ("mixed_float16", hikeras.DTypePolicy("mixed_float16"), KERAS_FORM):
        assert layers.Dense(2, dtype=dtype)(x).dtype == np.float16
    assert layers.Dense(2)(x).dtype == np.float32
    assert layers.Dense(2, dtype="mixed_float16", autocast=False)(x).dtype == np.float32


def test_functional_model_outputs_and_symbolic_dtypes(mixed_float16):
    inputs = hikeras.Input((4,))
    hidden = layers.Dense(8, activation="relu")(inputs)
    logits = layers.Dense(3)(hidden)
    probs = layers.Activation("softmax", dtype="float32")(logits)
    assert (inputs.dtype, hidden.dtype, logits.dtype, probs.dtype) == (
        np.float32, np.float16, np.float16, np.float32)
    model = hikeras.Model(inputs, [logits, probs])
    out16, out32 = model.predict(np.ones((2, 4), "float32"), verbose=0)
    assert (out16.dtype, out32.dtype) == (np.float16, np.float32)


def test_gradients_flow_in_float16_and_reach_float32_weights(rng):
    x = rng.normal(size=(5, 4)).astype("float32")
    mixed = layers.Dense(3, dtype="mixed_float16")
    full = layers.Dense(3)
    mixed(x), full(x)
    full.set_weights(mixed.get_weights())
    grads = {}
    for name, layer in (("mixed", mixed), ("full", full)):
        with hikeras.GradientTape() as tape:
            loss = hikeras.ops.sum(hikeras.ops.square(layer(x)))
        grads[name] = tape.gradient(loss, layer.trainable_weights)
    for got, want in zip(grads["mixed"], grads["full"]):
        assert np.asarray(got).dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=5e-3, atol=5e-3)


def test_normalization_statistics_in_float32(mixed_float16, rng):
    # Squares of values near 300 pass float16's limit (65504): the variance must
    # be computed in float32, as Keras does.
    x = (300.0 + 3.0 * rng.normal(size=(16, 4))).astype("float32")
    for make in (layers.BatchNormalization, layers.LayerNormalization,
                 lambda: layers.GroupNormalization(groups=2)):
        layer, reference = make(), make()
        reference.dtype_policy = "float32"
        kwargs = {"training": True} if isinstance(layer, layers.BatchNormalization) else {}
        out = layer(x, **kwargs)
        want = reference(x, **kwargs)
        assert out.dtype == np.float16 and np.isfinite(out).all()
        assert all(w.dtype == np.float32 for w in layer.weights)
        # The float16 input itself is rounded by 0.125 near 300: sizeable against a spread of 3.
        np.testing.assert_allclose(out, want, atol=0.1)


def test_softmax_mask_stays_finite_in_float16():
    out = layers.Softmax(dtype="mixed_float16")(
        np.array([[1.0, 2.0, 3.0]], "float32"), mask=np.array([[True, True, False]]))
    assert out.dtype == np.float16
    np.testing.assert_allclose(out, [[0.2689, 0.7311, 0.0]], atol=1e-3)


def test_compile_wraps_the_optimizer_for_mixed_float16_only(mixed_float16):
    def model():
        return hikeras.Sequential([hikeras.Input((3,)), layers.Dense(1)])

    scaled = model()
    scaled.compile(optimizer="sgd", loss="mse")
    assert isinstance(scaled.optimizer, optimizers.LossScaleOptimizer)
    assert scaled.optimizer.name == "loss_scale_optimizer"
    assert isinstance(scaled.optimizer.inner_optimizer, optimizers.SGD)
    plain = model()
    plain.compile(optimizer="sgd", loss="mse", auto_scale_loss=False)
    assert isinstance(plain.optimizer, optimizers.SGD)
    mixed_precision.set_global_policy("mixed_bfloat16")
    bf16 = model()
    bf16.compile(optimizer="sgd", loss="mse")  # bfloat16 has float32's range: no scaling
    assert isinstance(bf16.optimizer, optimizers.SGD)


def test_fit_trains_with_loss_scaling(mixed_float16, rng):
    x = rng.normal(size=(64, 4)).astype("float32")
    y = (x @ np.array([1.0, -2.0, 0.5, 3.0], "float32"))[:, None]
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(16, activation="relu"),
                                layers.Dense(1, dtype="float32")])
    model.compile(optimizer=optimizers.Adam(0.01), loss="mse")
    history = model.fit(x, y, batch_size=16, epochs=15, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < 0.2 * losses[0]
    assert all(w.dtype == np.float32 for w in model.weights)


def test_config_written_as_keras_writes_it(mixed_float16):
    dense = layers.Dense(2)
    assert dense.get_config()["dtype"] == KERAS_FORM
    again = layers.Dense.from_config(dense.get_config())
    assert again.dtype_policy == dense.dtype_policy
    # A float policy keeps the plain name hikeras always wrote (Keras reads both).
    assert layers.Dense(2, dtype="float32").get_config()["dtype"] == "float32"
    model = hikeras.Sequential([hikeras.Input((3,)), dense])
    rebuilt = hikeras.models.model_from_json(model.to_json())
    assert rebuilt.layers[-1].dtype_policy.name == "mixed_float16"


@pytest.mark.parametrize("kind", ["mlp", "cnn"])
def test_keras_mixed_float16_file_predicts_and_trains_like_keras(kind):
    reference = np.load(FIXTURES / "reference.npz")
    model = hikeras.models.load_model(FIXTURES / f"{kind}.keras")
    policies = {layer.name: layer.dtype_policy.name for layer in model.layers}
    assert policies.pop("probs") == "float32" and policies.pop("x") == "float32"
    assert set(policies.values()) == {"mixed_float16"}
    assert all(w.dtype == np.float32 for w in model.weights)
    assert isinstance(model.optimizer, optimizers.LossScaleOptimizer)
    x, y = reference[f"{kind}_x"], reference[f"{kind}_y"]
    np.testing.assert_allclose(model.predict(x, verbose=0), reference[f"{kind}_pred"],
                               atol=1e-6)
    losses, scales = [], []
    for step in range(len(reference[f"{kind}_losses"])):
        batch = slice(16 * step, 16 * (step + 1))
        losses.append(model.train_on_batch(x[batch], y[batch]))
        scales.append(float(model.optimizer.dynamic_scale.value))
    np.testing.assert_array_equal(scales, reference[f"{kind}_scales"])
    tolerance = 2e-4 if kind == "mlp" else 2e-2
    np.testing.assert_allclose(losses, reference[f"{kind}_losses"], atol=10 * tolerance)
    for i, weight in enumerate(model.get_weights()):
        np.testing.assert_allclose(weight, reference[f"{kind}_trained_w{i}"], atol=tolerance)
    np.testing.assert_allclose(model.predict(x, verbose=0),
                               reference[f"{kind}_trained_pred"], atol=10 * tolerance)


def test_keras_mixed_bfloat16_file_predicts_like_keras():
    pytest.importorskip("ml_dtypes")
    reference = np.load(FIXTURES / "reference.npz")
    model = hikeras.models.load_model(FIXTURES / "mlp_bf16.keras")
    assert model.get_layer("dense_a").compute_dtype == "bfloat16"
    # bfloat16 keeps 8 significant bits: a relative rounding step of 3.9e-3.
    np.testing.assert_allclose(model.predict(reference["mlp_x"], verbose=0),
                               reference["mlp_bf16_pred"], atol=1e-2)


def test_keras_loads_our_mixed_float16_file():
    # Recorded by the fixtures' generate.py: Keras loading a hikeras-written .keras.
    result = json.loads((FIXTURES / "keras_reads_hikeras.json").read_text())
    assert result["policies"]["dense_a"] == "mixed_float16"
    assert result["policies"]["probs"] == "float32"
    assert result["max_abs_diff"] < 1e-4


def test_bfloat16_needs_ml_dtypes_named_in_the_error():
    script = ("import sys\n"
              "sys.modules['ml_dtypes'] = None   # as if ml-dtypes were not installed\n"
              "import hikeras\n"
              "try:\n"
              "    hikeras.layers.Dense(2, dtype='mixed_bfloat16')\n"
              "except ImportError as e:\n"
              "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, env=dict(os.environ))
    assert 'pip install "hikeras[mixed]"' in out.stdout


def test_default_install_never_imports_ml_dtypes():
    script = ("import sys\nimport numpy as np\nimport hikeras\n"
              "model = hikeras.Sequential([hikeras.Input((3,)), hikeras.layers.Dense(2)])\n"
              "model.compile(optimizer='adam', loss='mse')\n"
              "model.train_on_batch(np.ones((4, 3), 'float32'), np.zeros((4, 2), 'float32'))\n"
              "print('ml_dtypes' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, env=dict(os.environ))
    assert out.stdout.split() == ["False"]


def test_autocast_scope_reads_variables_in_its_dtype():
    variable = hikeras.Variable(np.ones(2, "float32"))
    kept = hikeras.Variable(np.ones(2, "float32"), autocast=False)
    with backend.AutocastScope("float16"):
        assert hikeras.ops.add(variable, 1.0).dtype == np.float16
        assert hikeras.ops.add(kept, 1.0).dtype == np.float32
        with backend.AutocastScope(None):
            assert hikeras.ops.add(variable, 1.0).dtype == np.float32
    assert hikeras.ops.add(variable, 1.0).dtype == np.float32
    with pytest.raises(ValueError, match="Received: dtype=int32"):
        backend.AutocastScope("int32")


def _small_convnet():
    inputs = hikeras.Input((6, 6, 2))
    h = layers.DepthwiseConv2D(3, activation="relu")(inputs)
    h = layers.MaxPooling2D(2)(h)
    h = layers.Flatten()(h)
    outputs = layers.Dense(3, activation="softmax", dtype="float32")(h)
    return hikeras.Model(inputs, outputs)


def test_numba_backend_falls_back_to_numpy_for_float16(mixed_float16, rng):
    pytest.importorskip("numba")
    x = rng.normal(size=(8, 6, 6, 2)).astype("float32")
    y = rng.integers(0, 3, size=8)
    results = {}
    previous = backend.backend()
    for name in ("numpy", "numba"):
        backend.set_backend(name)
        try:
            hikeras.utils.set_random_seed(1)
            model = _small_convnet()
            model.compile(optimizer=optimizers.Adam(0.01), loss="sparse_categorical_crossentropy")
            losses = [model.train_on_batch(x, y) for _ in range(3)]
            results[name] = (losses, model.get_weights())
        finally:
            backend.set_backend(previous)
    # numba compiles float32/float64 kernels only: float16 calls take numpy's kernels.
    # The float32 softmax is numba's (its exp within 2 ulp of numpy's), so the float32
    # weights agree to float32 rounding, not bit for bit.
    np.testing.assert_allclose(results["numba"][0], results["numpy"][0], rtol=1e-6)
    for got, want in zip(results["numba"][1], results["numpy"][1]):
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("suffix", [".keras", ".h5"])
def test_our_files_keep_policies_and_predictions(suffix, mixed_float16, tmp_path, rng):
    model = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(8, activation="relu"),
                                layers.BatchNormalization(),
                                layers.Dense(2, activation="softmax", dtype="float32")])
    x = rng.normal(size=(5, 4)).astype("float32")
    expected = model.predict(x, verbose=0)
    model.save(tmp_path / f"model{suffix}")
    mixed_precision.set_global_policy(None)  # the file, not the global policy, decides
    loaded = hikeras.models.load_model(tmp_path / f"model{suffix}")
    assert [layer.dtype_policy.name for layer in loaded.layers] == [
        "mixed_float16", "mixed_float16", "float32"]
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), expected)
