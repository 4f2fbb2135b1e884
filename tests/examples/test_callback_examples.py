"""The callback examples run and keep their promises."""

import importlib.util
import os
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_checkpoint_and_resume_ends_as_if_never_interrupted(capsys):
    assert _load("checkpoint_and_resume").main()
    out = capsys.readouterr().out
    assert "same weights as the uninterrupted one: True" in out


def test_tensorboard_example_writes_logs_and_pictures(tmp_path, capsys):
    pytest.importorskip("tensorboardX")
    history = _load("tensorboard_logging").main(str(tmp_path))
    assert len(history.epoch) == 6
    assert {"train", "validation", "plugins", "history.png"} <= set(os.listdir(tmp_path))
    assert "ms per step" in capsys.readouterr().out
