"""Test isolation: each test's randomness and global settings are its own.

The suite runs in random order (pytest-randomly, in the dev extra), so a test
must not depend on which tests ran before it:

- the `rng` fixture is a `numpy.random.Generator` seeded from a stable hash
  of the test's node id, so a test sees the same data whatever the order or
  selection of the tests around it;
- before each test, hikeras' global generator (what unseeded initializers,
  dropout and shuffling draw from), `random` and `numpy.random` are reseeded
  the same way, so a test that builds a model without a seed still gets the
  same weights on every run (pytest-randomly then reseeds `random` and
  `numpy.random` once more, from its own seed);
- a generator defined at module level may build constant tables while its
  module is imported, but once collection is over it is replaced by a guard
  that fails any test that draws from it;
- a test that changes floatx, epsilon, the image data format, the dtype policy,
  `max_epochs`, `max_steps_per_epoch`, interactive logging or the active
  backend and does not restore it errors at teardown (and the setting is
  restored, so the tests after it are unaffected);
- what a test registers with `register_keras_serializable` is unregistered
  after it (what test modules register when imported stays), so no test can
  find, or collide with, another test's registrations.
"""

import hashlib
import os
import tempfile
import random

import numpy as np
import pytest

import hikeras
from hikeras import backend, config


def node_seed(nodeid, purpose):
    """A 63-bit seed from `nodeid`, stable across runs, orders and platforms."""
    digest = hashlib.sha256(f"{purpose}:{nodeid}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@pytest.fixture
def rng(request):
    """This test's own generator, seeded from its node id."""
    return np.random.default_rng(node_seed(request.node.nodeid, "rng"))


@pytest.fixture(autouse=True)
def _seed_global_generators(request):
    hikeras.utils.set_random_seed(node_seed(request.node.nodeid, "global"))


def _settings():
    return {"floatx": backend.floatx(), "epsilon": backend.epsilon(),
            "image_data_format": backend.image_data_format(),
            "backend": backend.backend(), "dtype_policy": config.dtype_policy().name,
            "max_epochs": config.max_epochs(), "max_steps_per_epoch": config.max_steps_per_epoch(),
            "interactive_logging": config.is_interactive_logging_enabled()}


def _restore(settings):
    backend.set_backend(settings["backend"])
    backend.set_floatx(settings["floatx"])
    backend.set_epsilon(settings["epsilon"])
    backend.set_image_data_format(settings["image_data_format"])
    config.set_dtype_policy(None)
    config.set_max_epochs(settings["max_epochs"])
    config.set_max_steps_per_epoch(settings["max_steps_per_epoch"])
    if settings["interactive_logging"]:
        config.enable_interactive_logging()
    else:
        config.disable_interactive_logging()


@pytest.fixture(autouse=True)
def _global_settings_are_restored():
    before = _settings()
    yield
    after = _settings()
    if after != before:
        _restore(before)
        changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
        pytest.fail(f"the test changed global settings and left them changed "
                    f"(setting: (before, after)): {changed}", pytrace=False)


@pytest.fixture(autouse=True)
def _registrations_are_undone():
    registered = hikeras.saving.get_custom_objects()
    before = dict(registered)
    yield
    if registered != before:
        registered.clear()
        registered.update(before)


_GENERATOR_TYPES = (np.random.Generator, np.random.RandomState, random.Random)


class _ImportTimeOnlyGenerator:
    """Stands in for a module-level generator once its module's tables are built."""

    def __init__(self, module, name):
        self._where = f"{module}.{name}"

    def __getattr__(self, attribute):
        raise RuntimeError(
            f"{self._where} is a module-level generator: it may build constant data while "
            f"the module is imported, but a test that draws from it gets data that depends "
            f"on the tests run before it. Take the `rng` fixture (tests/conftest.py) instead.")


def pytest_collection_modifyitems(items):
    seen = set()
    for item in items:
        module = getattr(item, "module", None)
        if module is None or module.__name__ in seen:
            continue
        seen.add(module.__name__)
        for name, value in list(vars(module).items()):
            if isinstance(value, _GENERATOR_TYPES) and value is not random._inst:
                setattr(module, name, _ImportTimeOnlyGenerator(module.__name__, name))


def pytest_terminal_summary(terminalreporter, config):
    seed = getattr(config.option, "randomly_seed", None)
    if config.pluginmanager.hasplugin("randomly") and isinstance(seed, int):
        terminalreporter.write_line(
            f"tests ran in random order: --randomly-seed={seed} replays it, "
            f"-p no:randomly runs them in file order")


@pytest.fixture(scope="session", autouse=True)
def _temporary_files_stay_in_pytests_folder(tmp_path_factory):
    """Points `tempfile` (and, through TMPDIR, every child process) at a folder of this run.

    Tests kill savers and loaders mid-way on purpose (atomic writes, checkpoints,
    resume), and a killed `.keras` save or load cannot remove its temporary folder;
    inside pytest's base folder those are rotated away with the run's other files
    instead of piling up in /tmp.
    """
    folder = str(tmp_path_factory.mktemp("tempfile"))
    saved_env, saved_tempdir = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"], tempfile.tempdir = folder, folder
    yield
    tempfile.tempdir = saved_tempdir
    if saved_env is None:
        del os.environ["TMPDIR"]
    else:
        os.environ["TMPDIR"] = saved_env
