import os
import subprocess
import sys
import types

import numpy as np
import pytest
from hikeras.backend import OpRegistry

from hikeras import backend


def _copy_of_numpy_backend(name):
    numpy_backend = backend.get_backend()
    module = types.SimpleNamespace(name=name, xp=np, ops=OpRegistry())
    module.ops._ops.update(numpy_backend.ops._ops)
    return module


def test_register_and_switch_backend():
    module = _copy_of_numpy_backend("numpy_copy")
    backend.register_backend("numpy_copy", module)
    assert "numpy_copy" in backend.available_backends()
    previous = backend.backend()
    try:
        backend.set_backend("numpy_copy")
        assert backend.backend() == "numpy_copy"
        np.testing.assert_array_equal(backend.apply("add", np.ones(2), 1.0), [2.0, 2.0])
    finally:
        backend.set_backend(previous)
    assert backend.backend() == previous


def test_backend_missing_attributes_is_rejected():
    with pytest.raises(ValueError, match="lacks required attributes.*xp"):
        backend.register_backend("broken", types.SimpleNamespace(name="broken", ops=OpRegistry()))


def test_backend_missing_ops_is_rejected():
    module = types.SimpleNamespace(name="partial", xp=np, ops=OpRegistry())
    with pytest.raises(ValueError, match="does not implement ops"):
        backend.register_backend("partial", module)


def test_unknown_backend_lists_choices():
    with pytest.raises(ValueError, match=r"available backends are \['numba', 'numpy'"):
        backend.set_backend("cupyy")


def test_hikeras_backend_environment_variable():
    env = dict(os.environ, HIKERAS_BACKEND="nope")
    out = subprocess.run([sys.executable, "-c", "import hikeras"], env=env, check=False,
                         capture_output=True, text=True)
    assert out.returncode != 0 and "Unknown backend" in out.stderr
    env["HIKERAS_BACKEND"] = "numpy"
    out = subprocess.run([sys.executable, "-c",
                          "import hikeras; print(hikeras.backend.backend())"],
                         env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "numpy"


def test_keras_utility_names():
    assert backend.floatx() == "float32"
    assert backend.epsilon() == 1e-7
    assert backend.image_data_format() == "channels_last"
    backend.set_floatx("float64")
    try:
        assert backend.floatx() == "float64"
    finally:
        backend.set_floatx("float32")
    with pytest.raises(ValueError, match="Received: value='float8'"):
        backend.set_floatx("float8")
    with pytest.raises(ValueError, match="data_format"):
        backend.set_image_data_format("nhwc")
    assert backend.clear_session() is None


def test_an_inheriting_backend_overrides_some_kernels_and_keeps_the_rest():
    numpy_ops = backend.get_backend().ops
    ops = OpRegistry.inheriting(numpy_ops)
    calls = []

    @ops.override("sgd_update")
    def sgd_update(variable, gradient, *, learning_rate):
        calls.append(learning_rate)
        numpy_ops["sgd_update"].forward(variable, gradient, learning_rate=learning_rate)

    assert ops["sgd_update"] is not numpy_ops["sgd_update"]
    assert numpy_ops["sgd_update"].forward is not sgd_update  # the base is untouched
    assert ops["sgd_update"].mutates == (0,) and not ops["sgd_update"].differentiable
    assert ops["exp"] is numpy_ops["exp"]  # not overridden: numpy's op, VJP and all
    backend.register_backend("numpy_sgd", types.SimpleNamespace(name="numpy_sgd", xp=np, ops=ops))
    w = np.ones(2)
    previous = backend.backend()
    try:
        backend.set_backend("numpy_sgd")
        backend.apply("sgd_update", w, np.array([1.0, -1.0]), learning_rate=0.5)
    finally:
        backend.set_backend(previous)
    assert calls == [0.5] and w.tolist() == [0.5, 1.5]


def test_override_keeps_the_vjp_and_shape_rule():
    numpy_ops = backend.get_backend().ops
    ops = OpRegistry.inheriting(numpy_ops)
    op = ops.override("exp")(lambda x: np.exp(x) + 0.0)
    assert op.vjp is numpy_ops["exp"].vjp and op.shape_rule is numpy_ops["exp"].shape_rule
    assert op.save_outputs == numpy_ops["exp"].save_outputs


def test_update_ops_must_be_declared_non_differentiable():
    with pytest.raises(ValueError, match="differentiable=False"):
        OpRegistry().define("bad_update", shape=None, mutates=(0,))(lambda x: None)
    assert "sgd_update" in backend.get_backend().ops.update_ops()
    assert "exp" not in backend.get_backend().ops.update_ops()


def test_the_default_backend_never_imports_numba():
    script = (
        "import sys, numpy as np, hikeras\n"
        "model = hikeras.Sequential([hikeras.layers.Input((3,)), hikeras.layers.Dense(2)])\n"
        "model.compile(optimizer='adam', loss='mse')\n"
        "model.train_on_batch(np.ones((4, 3), 'float32'), np.zeros((4, 2), 'float32'))\n"
        "print(hikeras.backend.backend(), 'numba' in sys.modules)\n")
    env = {k: v for k, v in os.environ.items() if k != "HIKERAS_BACKEND"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.split() == ["numpy", "False"]


def test_numba_backend_without_numba_names_the_extra():
    script = ("import sys\n"
              "sys.modules['numba'] = None   # as if numba were not installed\n"
              "import hikeras\n"
              "try:\n"
              "    hikeras.backend.set_backend('numba')\n"
              "except ImportError as error:\n"
              "    print(error)\n"
              "print(hikeras.backend.backend())\n")
    env = {k: v for k, v in os.environ.items() if k != "HIKERAS_BACKEND"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, check=True)
    assert 'pip install "hikeras[numba]"' in out.stdout
    assert out.stdout.split()[-1] == "numpy"
