"""`retained_heap`: glibc keeps freed blocks during a loop and gets them back afterwards.

glibc's `mallopt` is replaced by a recorder, so the tests check the calls
(thresholds raised once for nested loops, restored when the outermost loop
ends, also on an error), and that fit, evaluate and predict run inside it.
One test runs the real calls on this machine's libc.
"""

import numpy as np
import pytest

import hikeras
from hikeras.backend import heap, retained_heap


class _Recorder:
    def __init__(self):
        self.calls = []

    def mallopt(self, option, value):
        self.calls.append(("mallopt", option, value))
        return 1


@pytest.fixture
def libc(monkeypatch):
    recorder = _Recorder()
    monkeypatch.setattr(heap, "_LIBC", recorder)
    return recorder


RAISED = [("mallopt", -3, 1 << 30), ("mallopt", -1, 1 << 30)]
RESTORED = [("mallopt", -3, 32 << 20), ("mallopt", -1, 64 << 20)]


def test_thresholds_are_raised_for_the_outermost_loop_only_and_restored(libc):
    with retained_heap():
        assert libc.calls == RAISED
        with retained_heap():   # validation inside fit
            pass
        assert libc.calls == RAISED
    assert libc.calls == RAISED + RESTORED


def test_an_error_in_the_loop_still_restores(libc):
    with pytest.raises(RuntimeError, match="boom"), retained_heap():
        raise RuntimeError("boom")
    assert libc.calls == RAISED + RESTORED
    assert heap._depth == 0


def test_without_glibc_nothing_is_called(monkeypatch):
    monkeypatch.setattr(heap, "_LIBC", None)
    with retained_heap():
        block = np.ones(1 << 20)
    assert block.sum() == 1 << 20


def test_fit_evaluate_and_predict_run_with_the_heap_retained(libc):
    model = hikeras.Sequential([hikeras.Input((3,)), hikeras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((8, 3), "float32"), np.ones((8, 2), "float32")
    for run in (lambda: model.fit(x, y, validation_data=(x, y), verbose=0),
                lambda: model.evaluate(x, y, verbose=0),
                lambda: model.predict(x, verbose=0)):
        libc.calls.clear()
        run()
        assert libc.calls == RAISED + RESTORED


def test_the_real_calls_succeed_here():
    if heap._LIBC is None:
        pytest.skip("not glibc")
    assert heap._LIBC.mallopt(-3, 1 << 30) == 1
    assert heap._LIBC.mallopt(-3, 32 << 20) == 1
    with retained_heap():
        blocks = [np.ones(20 << 20, np.uint8) for _ in range(2)]
        del blocks
    assert heap._depth == 0
