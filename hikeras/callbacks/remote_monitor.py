"""`RemoteMonitor`: POSTs each epoch's logs to an HTTP server (standard library only)."""

import json
import urllib.error
import urllib.parse
import urllib.request
import warnings

import numpy as np

from .callback import Callback


def _plain(value):
    if isinstance(value, (np.generic, np.ndarray)):
        return value.item() if np.ndim(value) == 0 else np.asarray(value).tolist()
    return value


class RemoteMonitor(Callback):
    """Sends `{"epoch": n, **logs}` to `root + path` at the end of every epoch.

    Args:
        root: the server's base URL, `http://` or `https://`.
        path: appended to `root`.
        field: the form field holding the JSON (ignored with `send_as_json`).
        headers: extra HTTP headers.
        send_as_json: send the JSON as the request body
            (`Content-Type: application/json`) instead of form data.

    A server that cannot be reached produces a warning, never an error: a
    monitoring hiccup must not stop training.
    """

    def __init__(self, root="http://localhost:9000", path="/publish/epoch/end/", field="data",
                 headers=None, send_as_json=False):
        super().__init__()
        if not isinstance(root, str) or urllib.parse.urlparse(root).scheme not in ("http",
                                                                                    "https"):
            raise ValueError("RemoteMonitor's root must be an http:// or https:// URL. "
                             f"Received: root={root!r}")
        self.root = root
        self.path = path
        self.field = field
        self.headers = dict(headers or {})
        self.send_as_json = bool(send_as_json)

    def on_epoch_end(self, epoch, logs=None):
        payload = {"epoch": epoch}
        payload.update({k: _plain(v) for k, v in (logs or {}).items()})
        headers = dict(self.headers)
        if self.send_as_json:
            body = json.dumps(payload).encode()
            headers.setdefault("Content-Type", "application/json")
        else:
            body = urllib.parse.urlencode({self.field: json.dumps(payload)}).encode()
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        request = urllib.request.Request(self.root + self.path, data=body, headers=headers,
                                         method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                response.read()
        except (urllib.error.URLError, OSError) as error:
            warnings.warn(f"Could not reach RemoteMonitor root server at {self.root} "
                          f"({error}).", stacklevel=2)
