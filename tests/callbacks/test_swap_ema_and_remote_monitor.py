"""SwapEMAWeights (evaluation sees the averages) and RemoteMonitor (a local HTTP server)."""

import http.server
import json
import threading
import urllib.parse

import numpy as np
import pytest

import hikeras
from hikeras import callbacks, layers, optimizers


def model_with_ema():
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5), "mse")
    return model


class Recorder(callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = {}

    def on_test_begin(self, logs=None):
        self.seen["test"] = np.copy(self.model.trainable_variables[0].value)

    def on_epoch_end(self, epoch, logs=None):
        self.seen["epoch_end"] = np.copy(self.model.trainable_variables[0].value)


@pytest.mark.parametrize("swap_on_epoch", [False, True])
def test_evaluation_sees_the_moving_averages(rng, swap_on_epoch):
    x, y = rng.standard_normal((16, 3)), rng.standard_normal((16, 1))
    reference = model_with_ema()  # the same training without the callback
    reference.fit(x, y, batch_size=4, verbose=0, shuffle=False)
    averages = reference.trainable_variables[0].value  # fit ends by writing the averages in
    model = model_with_ema()
    recorder = Recorder()
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, validation_data=(x, y), shuffle=False,
              callbacks=[callbacks.SwapEMAWeights(swap_on_epoch), recorder])
    np.testing.assert_allclose(recorder.seen["test"], averages, rtol=1e-6)
    # Only swap_on_epoch leaves them in for the callbacks after it.
    assert np.allclose(recorder.seen["epoch_end"], averages) == swap_on_epoch


def test_evaluate_alone_swaps_and_restores(rng):
    x, y = rng.standard_normal((16, 3)), rng.standard_normal((16, 1))
    model = model_with_ema()
    model.fit(x, y, batch_size=4, verbose=0)
    model.trainable_variables[0].assign(np.zeros((3, 1), "float32"))
    average = np.copy(model.optimizer._averages[0].value)
    recorder = Recorder()
    model.evaluate(x, y, verbose=0, callbacks=[callbacks.SwapEMAWeights(), recorder])
    np.testing.assert_array_equal(recorder.seen["test"], average)
    np.testing.assert_array_equal(model.trainable_variables[0].value, np.zeros((3, 1)))


def test_swap_needs_use_ema(rng):
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(1)])
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match="use_ema=True"):
        model.fit(np.ones((2, 3)), np.ones((2, 1)), verbose=0,
                  callbacks=[callbacks.SwapEMAWeights()])


@pytest.fixture
def server():
    received = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((self.path, self.headers["Content-Type"],
                             self.headers.get("X-Run"), body.decode()))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", received
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize("as_json", [False, True])
def test_remote_monitor_posts_each_epoch(server, rng, as_json):
    root, received = server
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(1)])
    model.compile("sgd", "mse")
    history = model.fit(rng.standard_normal((8, 3)), rng.standard_normal((8, 1)), epochs=2,
                        verbose=0, callbacks=[callbacks.RemoteMonitor(
                            root, path="/logs", headers={"X-Run": "7"}, send_as_json=as_json)])
    assert len(received) == 2
    for epoch, (path, content_type, run, body) in enumerate(received):
        assert (path, run) == ("/logs", "7")
        if as_json:
            assert content_type == "application/json"
            payload = json.loads(body)
        else:
            payload = json.loads(urllib.parse.parse_qs(body)["data"][0])
        assert payload["epoch"] == epoch
        assert payload["loss"] == pytest.approx(history.history["loss"][epoch])


def test_remote_monitor_warns_when_unreachable(rng):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monitor = callbacks.RemoteMonitor(f"http://127.0.0.1:{port}")
    with pytest.warns(UserWarning, match="Could not reach RemoteMonitor"):
        monitor.on_epoch_end(0, {"loss": 1.0})
    with pytest.raises(ValueError, match="Received: root='ftp://x'"):
        callbacks.RemoteMonitor("ftp://x")
