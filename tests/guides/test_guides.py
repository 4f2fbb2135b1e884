"""Every guide-style script in examples/guides runs at a small size and keeps its checks.

The scripts assert what they demonstrate; here each is imported and its
`main(small=True)` run, so a change that breaks a typical Keras-style script
fails the suite.
"""

import importlib.util
from pathlib import Path

import pytest

GUIDES = Path(__file__).resolve().parents[2] / "examples" / "guides"
SCRIPTS = sorted(p for p in GUIDES.glob("*.py"))


def test_there_are_guides():
    assert len(SCRIPTS) >= 30


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_guide_runs(script, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a guide that writes files writes them here
    spec = importlib.util.spec_from_file_location(f"guide_{script.stem}", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(small=True)
