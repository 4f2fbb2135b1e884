"""The numba backend: every kernel it overrides, against numpy's and the op tests.

For each op the numba backend replaces, every case of the op tests
(`CASES` of `test_ops_*.py`: forward against references, gradients against
finite differences, shape rules) runs with the numba backend active, and the
compiled kernel's results are compared with the numpy kernel's on the same
inputs. The whole module is skipped when numba is not installed.
"""

import copy
import logging
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from hikeras import backend
from tests.helpers.backends import installed
from tests.helpers.check_op import load_cases, params

pytestmark = pytest.mark.skipif(not installed("numba"),
                                reason='needs `pip install "hikeras[numba]"`')

if installed("numba"):
    from hikeras.backend import numba_backend, numpy_backend

    OVERRIDDEN = sorted(name for name in numba_backend.ops.names()
                        if numba_backend.ops[name] is not numpy_backend.ops[name])
else:
    OVERRIDDEN = []

CASES = [c for c in load_cases(pathlib.Path(__file__).parent) if c.name in OVERRIDDEN]


@pytest.fixture
def numba_active():
    previous = backend.backend()
    backend.set_backend("numba")
    yield numba_backend
    backend.set_backend(previous)


def test_numba_overrides_kernels_and_inherits_the_rest():
    assert "adam_update" in OVERRIDDEN
    assert numba_backend.ops["exp"] is numpy_backend.ops["exp"]
    for name in OVERRIDDEN:
        ours, theirs = numba_backend.ops[name], numpy_backend.ops[name]
        assert ours.shape_rule is theirs.shape_rule, name
        assert (ours.save_inputs, ours.save_outputs, ours.residual, ours.mutates) == (
            theirs.save_inputs, theirs.save_outputs, theirs.residual, theirs.mutates), name


def test_every_overridden_op_has_cases():
    assert sorted({c.name for c in CASES}) == OVERRIDDEN


@pytest.mark.parametrize("op_case", params(CASES))
def test_op_case_under_numba(numba_active, op_case):
    op_case.run()


def _float32(inputs):
    return [x.astype(np.float32) if isinstance(x, np.ndarray) and x.dtype == np.float64
            else copy.deepcopy(x) for x in inputs]


@pytest.mark.parametrize("op_case", params(CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_kernel_matches_numpy_kernel(op_case, dtype):
    ours, theirs = numba_backend.ops[op_case.name], numpy_backend.ops[op_case.name]
    inputs = [x.astype(dtype) if isinstance(x, np.ndarray) and x.dtype == np.float64 else x
              for x in op_case.inputs]
    mine, reference = copy.deepcopy(inputs), copy.deepcopy(inputs)
    got, want = ours(*mine, **op_case.attrs), theirs(*reference, **op_case.attrs)
    if ours.mutates:
        # the update ops do numpy's operations in numpy's order: equal bit for bit
        for i in ours.mutates:
            np.testing.assert_array_equal(mine[i], reference[i])
        return
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    tol = 2e-5 if dtype == np.float32 else 1e-12
    for a, b in zip(got, want):
        assert np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def test_kernel_numba_cannot_compile_falls_back_to_numpy_once_logged(caplog):
    from hikeras.backend.numba_backend._jit import with_fallback
    from numba.core.errors import TypingError

    calls = []

    def compiled(x):
        calls.append("compiled")
        raise TypingError("no implementation for this type")

    kernel = with_fallback("test_op", compiled, lambda x: x + 1)
    with caplog.at_level(logging.DEBUG, logger="hikeras.backend.numba"):
        assert kernel(np.ones(2, np.float16)).tolist() == [2.0, 2.0]
        assert kernel(np.ones(2, np.float16)).tolist() == [2.0, 2.0]
    assert calls == ["compiled"]   # not retried for the same argument types
    assert len(caplog.records) == 1 and "test_op" in caplog.records[0].getMessage()
    assert caplog.records[0].levelno == logging.DEBUG


def test_kernel_declining_its_inputs_runs_numpy_without_a_log(caplog):
    from hikeras.backend.numba_backend._jit import with_fallback

    kernel = with_fallback("test_op", lambda x: NotImplemented, lambda x: x * 2)
    with caplog.at_level(logging.DEBUG, logger="hikeras.backend.numba"):
        assert kernel(np.ones(2)).tolist() == [2.0, 2.0]
    assert caplog.records == []


def test_unsupported_dtype_falls_back(numba_active):
    w = np.ones(4, np.float16)
    backend.apply("sgd_update", w, np.ones(4, np.float16), learning_rate=0.5)
    assert w.dtype == np.float16 and w.tolist() == [0.5] * 4


UPDATE_CASES = [c for c in CASES if numba_backend.ops[c.name].mutates] if OVERRIDDEN else []


def _large(a, rng):
    """`a`'s values tiled past the parallel threshold, with NaNs, zeros and infinities."""
    big = np.resize(a, (300, 300)).copy()
    for value in (np.nan, 0.0, -0.0, np.inf):
        big.flat[rng.integers(0, big.size, 5)] = value
    return big


@pytest.mark.parametrize("op_case", params(UPDATE_CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_parallel_updates_equal_numpy_bit_for_bit_on_any_thread_count(op_case, dtype, rng):
    from hikeras.backend.numpy_backend.batch_threads import set_num_threads

    ours, theirs = numba_backend.ops[op_case.name], numpy_backend.ops[op_case.name]
    inputs = [_large(x, rng).astype(dtype) if isinstance(x, np.ndarray) else x
              for x in op_case.inputs]
    reference = copy.deepcopy(inputs)
    with np.errstate(all="ignore"):
        theirs(*reference, **op_case.attrs)
        for threads in (1, 2):
            mine = copy.deepcopy(inputs)
            set_num_threads(threads)
            try:
                ours(*mine, **op_case.attrs)
            finally:
                set_num_threads(None)
            for i in ours.mutates:
                if mine[i] is not None:
                    np.testing.assert_array_equal(mine[i], reference[i])


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_max_pool_ties_route_the_gradient_like_numpy(rng, padding):
    x = rng.integers(-2, 2, (2, 5, 6, 3)).astype(np.float32)   # many ties
    x[0, 0, 0, 0] = np.nan
    grads = []
    for name in ("numpy", "numba"):
        previous = backend.backend()
        backend.set_backend(name)
        try:
            xv = backend.Variable(x)
            with backend.GradientTape() as tape:
                y = backend.apply("max_pool", xv, pool_size=3, strides=2, padding=padding)
                loss = backend.apply("sum", backend.apply("multiply", y, np.arange(
                    y.shape[-1], dtype=np.float32) + 1))
            grads.append((np.asarray(y), tape.gradient(loss, [xv])[0]))
        finally:
            backend.set_backend(previous)
    np.testing.assert_array_equal(grads[0][0], grads[1][0])
    np.testing.assert_array_equal(grads[0][1], grads[1][1])


def test_hikeras_backend_variable_selects_numba_and_trains_as_numpy_does():
    script = (
        "import numpy as np, hikeras\n"
        "from hikeras import layers\n"
        "hikeras.utils.set_random_seed(0)\n"
        "model = hikeras.Sequential([hikeras.Input((6, 6, 2)),\n"
        "    layers.DepthwiseConv2D(3, activation='relu'), layers.MaxPooling2D(2),\n"
        "    layers.Flatten(), layers.Dense(2)])\n"
        "model.compile(optimizer='adam', loss='mse')\n"
        "rng = np.random.default_rng(0)\n"
        "x = rng.standard_normal((4, 6, 6, 2)).astype('float32')\n"
        "y = rng.standard_normal((4, 2)).astype('float32')\n"
        "losses = [float(model.train_on_batch(x, y)) for _ in range(10)]\n"
        "print(hikeras.backend.backend(), *losses)\n")
    runs = {}
    for name in ("numpy", "numba"):
        env = dict(os.environ, HIKERAS_BACKEND=name)
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                             text=True, check=True).stdout.split()
        assert out[0] == name
        runs[name] = np.array(out[1:], float)
    assert runs["numba"][-1] < runs["numba"][0]
    np.testing.assert_allclose(runs["numba"], runs["numpy"], rtol=1e-5)


def test_kernel_cache_is_in_the_user_cache_dir_and_shared_by_processes_starting_together(
        tmp_path):
    script = ("import numpy as np, hikeras\n"
              "w = np.ones(3, 'float32')\n"
              "hikeras.backend.apply('sgd_update', w, np.ones(3, 'float32'), learning_rate=0.5)\n"
              "print(w.tolist())\n")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(HIKERAS_BACKEND="numba", XDG_CACHE_HOME=str(tmp_path))
    processes = [subprocess.Popen([sys.executable, "-c", script], env=env, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(2)]
    for process in processes:   # both compile and store the kernel at once
        out, err = process.communicate()
        assert process.returncode == 0, err
        assert out.split("\n")[0] == "[0.5, 0.5, 0.5]"
    cached = [p.name for p in (tmp_path / "hikeras" / "numba").rglob("*") if p.is_file()]
    assert any(name.endswith(".nbi") for name in cached)
    assert not any(".tmp." in name for name in cached)   # no half-written file left
