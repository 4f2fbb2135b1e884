"""examples/tfrecord_pipeline.py trains from the shards it writes."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tfrecord_pipeline.py"


def test_trains_from_gzip_shards(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("tfrecord_pipeline", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    accuracy = module.main(str(tmp_path), epochs=15)
    assert accuracy >= 0.9
    assert len(list(tmp_path.glob("digits-*-of-00004.tfrecord.gz"))) == 4
    assert "wrote" in capsys.readouterr().out
