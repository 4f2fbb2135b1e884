"""`import hikeras` from a source checkout that was never installed."""

import os
import shutil
import subprocess
import sys

import hikeras

REPO = os.path.dirname(os.path.dirname(os.path.abspath(hikeras.__file__)))

# Drops the finder of an editable install, which would map `hikeras.backend`
# to this repository's backend whatever copy of `hikeras` is imported.
_SCRIPT = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in getattr(f, '__module__', '')]
import hikeras, numpy as np
from hikeras import layers
print(hikeras.backend.__file__)
model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2)])
print(model(np.ones((1, 3))).shape)
"""


def _copy(names, into):
    ignore = shutil.ignore_patterns("__pycache__")
    for name in names:
        shutil.copytree(os.path.join(REPO, name), os.path.join(into, name), ignore=ignore)


def test_uninstalled_checkout_imports_its_own_backend(tmp_path):
    _copy(["hikeras", "backend"], tmp_path)
    run = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    backend_file, shape = run.stdout.split()[0], run.stdout.split("\n")[1]
    assert backend_file == str(tmp_path / "backend" / "__init__.py")
    assert shape == "(1, 2)"


def test_checkout_without_backend_says_how_to_install(tmp_path):
    _copy(["hikeras"], tmp_path)
    run = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode != 0
    assert "pip install" in run.stderr and "circular" not in run.stderr
