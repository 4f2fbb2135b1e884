"""`KerasFileEditor` on files written by real Keras 3 and by hikeras.

Fixtures: `tests/fixtures/keras_file_editor/` (see its `generate.py`): a small
model saved by Keras as `.keras` and `.weights.h5`, what Keras's own editor
reads from them, and Keras's verdict on the files our editor wrote for the
edits of `scenarios.py` (Keras built the new architecture and loaded them).
"""

import json
from pathlib import Path

import h5py
import numpy as np
import pytest

import hikeras
from hikeras.saving import KerasFileEditor, SavedFileError
from tests.fixtures.keras_file_editor import scenarios

FIXTURES = Path(__file__).parents[1] / "fixtures" / "keras_file_editor"
KERAS_VIEW = json.loads((FIXTURES / "keras_view.json").read_text())
VERDICT = json.loads((FIXTURES / "keras_reads_edited.json").read_text())
KERAS_FILES = {".keras": FIXTURES / "keras_model.keras",
               ".weights.h5": FIXTURES / "keras_model.weights.h5"}


def flatten(tree, path=""):
    out = {}
    for key, value in tree.items():
        inner = f"{path}/{key}" if path else key
        if isinstance(value, dict):
            out.update(flatten(value, inner))
        else:
            out[inner] = list(value.shape)
    return out


@pytest.fixture
def trained(tmp_path):
    """A hikeras `base_model` trained one step, saved as `.keras` and `.weights.h5`."""
    model = scenarios.base_model(hikeras)
    model.compile(optimizer=hikeras.optimizers.Adam(0.01), loss="mse")
    model.train_on_batch(*scenarios.data())
    model.save(tmp_path / "model.keras")
    model.save_weights(tmp_path / "model.weights.h5")
    return model


@pytest.mark.parametrize("suffix", sorted(KERAS_FILES))
def test_reads_keras_files_as_keras_editor_does(suffix):
    editor = KerasFileEditor(KERAS_FILES[suffix])
    assert flatten(editor.weights_dict) == KERAS_VIEW["files"][suffix]
    assert editor.object_metadata["layers/dense_2"] == {"name": "dense_2"}
    if suffix == ".keras":
        assert editor.config["class_name"] == "Functional"
        assert editor.metadata["keras_version"].startswith("3.")
    else:
        assert editor.config is None and editor.metadata is None


@pytest.mark.parametrize("scenario", sorted(scenarios.EXPECTED_ORDER))
@pytest.mark.parametrize("source", sorted(KERAS_FILES))
def test_edited_keras_files_load_here_and_in_keras(source, scenario, tmp_path):
    editor = KerasFileEditor(KERAS_FILES[source])
    scenarios.edit(editor, scenario)
    editor.save(tmp_path / "edited.weights.h5")
    model = scenarios.new_model(hikeras, scenario)
    model.load_weights(tmp_path / "edited.weights.h5")
    expected = scenarios.expected_weights(editor, scenario)
    for got, want in zip(model.get_weights(), expected, strict=True):
        np.testing.assert_array_equal(got, want)
    # The same edit, written by the generator with this editor, loaded by Keras:
    verdict = VERDICT[f"keras{source}/{scenario}"]
    assert verdict["loaded"] and verdict["weights_max_abs_diff"] == 0.0


def test_keras_loaded_edits_of_our_own_keras_file():
    for scenario in scenarios.EXPECTED_ORDER:
        verdict = VERDICT[f"hikeras.keras/{scenario}"]
        assert verdict["loaded"] and verdict["weights_max_abs_diff"] == 0.0


def test_unedited_resave_keeps_every_array_and_name(trained, tmp_path):
    for name in ("model.keras", "model.weights.h5"):
        editor = KerasFileEditor(tmp_path / name)
        editor.resave_weights(tmp_path / "copy.weights.h5")
        again = KerasFileEditor(tmp_path / "copy.weights.h5")
        assert flatten(again.weights_dict) == flatten(editor.weights_dict)
        assert again.object_metadata == {k: v for k, v in editor.object_metadata.items()
                                         if k != "" and "input_layer" not in k}
        model = scenarios.base_model(hikeras)
        model.load_weights(tmp_path / "copy.weights.h5")
        for got, want in zip(model.get_weights(), trained.get_weights(), strict=True):
            np.testing.assert_array_equal(got, want)


def test_nested_models_keep_their_children(tmp_path):
    # Keras 3.15's editor skips an object whose `vars` group is empty, children and all;
    # a nested model's weights would vanish from a resaved file. Ours keeps them.
    inner = hikeras.Sequential([hikeras.Input(shape=(3,)), hikeras.layers.Dense(2)],
                               name="inner")
    inputs = hikeras.Input(shape=(3,))
    model = hikeras.Model(inputs, hikeras.layers.Dense(1)(inner(inputs)))
    model.save_weights(tmp_path / "nested.weights.h5")
    editor = KerasFileEditor(tmp_path / "nested.weights.h5")
    assert set(flatten(editor.weights_dict)) == {
        "layers/dense/0", "layers/dense/1", "layers/sequential/layers/dense/0",
        "layers/sequential/layers/dense/1"}
    editor.save(tmp_path / "copy.weights.h5")
    copy = hikeras.models.clone_model(model)
    copy.load_weights(tmp_path / "copy.weights.h5")
    for got, want in zip(copy.get_weights(), model.get_weights(), strict=True):
        np.testing.assert_array_equal(got, want)


def test_compare(trained, tmp_path, capsys):
    editor = KerasFileEditor(tmp_path / "model.keras")
    assert editor.compare(trained) == {"status": "success", "error_count": 0,
                                       "match_count": 6 + 14}
    assert "Comparison successful" in capsys.readouterr().out
    changed = scenarios.new_model(hikeras, "new_head")
    result = KerasFileEditor(KERAS_FILES[".weights.h5"]).compare(changed)
    # dense_2's kernel and bias differ in shape; the file's optimizer has no counterpart.
    assert result == {"status": "error", "error_count": 3, "match_count": 4}
    out = capsys.readouterr().out
    assert "Weight shape mismatch for layers/dense_2/0" in out
    assert "In reference model: shape=(3, 5)" in out and "In saved file: shape=(3, 2)" in out
    assert "Object optimizer present in saved file, missing from reference model" in out


def test_edits_by_unique_name_and_by_path(tmp_path):
    editor = KerasFileEditor(KERAS_FILES[".weights.h5"])
    editor.rename_object("dense_1", "middle")
    editor.delete_weight("dense", "1")
    editor.add_weights("layers/dense", {"1": np.ones(6, "float32"), "extra": np.zeros(2)})
    editor.delete_object("optimizer")
    layers = editor.weights_dict["layers"]
    assert list(layers) == ["dense", "dense_2", "middle"]
    assert sorted(layers["dense"]) == ["0", "1", "extra"]
    np.testing.assert_array_equal(layers["dense"]["1"], np.ones(6))
    assert "layers/middle" not in editor.object_metadata  # a renamed object's name is gone
    editor.summary()


def test_summary_prints_the_tree(capsys):
    KerasFileEditor(KERAS_FILES[".weights.h5"]).summary()
    out = capsys.readouterr().out
    assert "Weights structure" in out
    assert "├─ dense_1 ('dense_1')" in out
    assert "0: shape=(6, 3), dtype=float32" in out
    assert "└─ 13: shape=(2,), dtype=float32" in out


def test_edit_errors():
    editor = KerasFileEditor(KERAS_FILES[".weights.h5"])
    with pytest.raises(ValueError, match="Path 'layers/nope' not found"):
        editor.delete_object("layers/nope")
    with pytest.raises(ValueError, match="'nope' does not appear"):
        editor.delete_object("nope")
    with pytest.raises(ValueError, match="'0' occurs more than once.*complete path"):
        editor.delete_object("0")
    with pytest.raises(ValueError, match="leaf name.*Received: new_name='a/b'"):
        editor.rename_object("dense", "a/b")
    with pytest.raises(ValueError, match="already exists.*Received: new_name='dense_1'"):
        editor.rename_object("dense", "dense_1")
    with pytest.raises(ValueError, match="already exists"):
        editor.add_object("layers/dense", {"0": np.zeros(1)})
    with pytest.raises(ValueError, match="Path 'blocks' not found"):
        editor.add_object("blocks/dense", {"0": np.zeros(1)})
    with pytest.raises(ValueError, match="should be a dict.*Received: type"):
        editor.add_object("layers/new", [np.zeros(1)])
    with pytest.raises(ValueError, match="numeric array.*Received: dtype=<U"):
        editor.add_weights("dense", {"2": np.array(["x"])})
    with pytest.raises(ValueError, match="already has weights \\['0'\\]"):
        editor.add_weights("dense", {"0": np.zeros(1)})
    with pytest.raises(ValueError, match="Weight 5 not found in object dense.*Weights found: "
                                         "\\['0', '1'\\]"):
        editor.delete_weight("dense", "5")
    with pytest.raises(ValueError, match="Received: filepath=out.h5"):
        editor.save("out.h5")
    with pytest.raises(ValueError, match="Received: filepath=model.h5"):
        KerasFileEditor("model.h5")
    assert flatten(editor.weights_dict) == KERAS_VIEW["files"][".weights.h5"]  # unchanged


def test_a_failed_save_leaves_the_old_file(monkeypatch, tmp_path):
    target = tmp_path / "kept.weights.h5"
    target.write_bytes(b"the previous file")
    editor = KerasFileEditor(KERAS_FILES[".weights.h5"])

    def fail(*args):
        raise OSError("disk gone")

    monkeypatch.setattr("hikeras.saving.file_editor.write_weights_tree", fail)
    with pytest.raises(OSError, match="disk gone"):
        editor.save(target)
    assert target.read_bytes() == b"the previous file"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.weights.h5"]


def test_links_are_refused(tmp_path):
    path = tmp_path / "linked.weights.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("layers/dense/vars/0", data=np.zeros((2, 2)))
        f["layers/copy"] = h5py.SoftLink("/layers/dense")
    with pytest.raises(SavedFileError, match="has a link at 'layers/copy'"):
        KerasFileEditor(path)
    with h5py.File(path, "w") as f:
        f["layers/outside"] = h5py.ExternalLink("other.h5", "/x")
    with pytest.raises(SavedFileError, match="outside"):
        KerasFileEditor(path)


def test_a_keras_file_without_weights_is_refused(tmp_path):
    import zipfile

    path = tmp_path / "empty.keras"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("config.json", json.dumps({"class_name": "Functional"}))
        archive.writestr("metadata.json", json.dumps({"keras_version": "3.15.1"}))
    with pytest.raises(SavedFileError, match="has no 'model.weights.h5'"):
        KerasFileEditor(path)


def test_resaved_files_carry_checksums_and_damage_is_refused(trained, tmp_path):
    from hikeras.saving.checksums import ATTRIBUTE

    KerasFileEditor(tmp_path / "model.keras").save(tmp_path / "copy.weights.h5")
    with h5py.File(tmp_path / "copy.weights.h5", "r+") as f:
        datasets = []
        f.visititems(lambda name, obj: datasets.append(obj)
                     if isinstance(obj, h5py.Dataset) else None)
        assert datasets and all(ATTRIBUTE in d.attrs for d in datasets)
        f["layers/dense/vars/1"][0] += 1.0
    with pytest.raises(SavedFileError, match="layers/dense/vars/1' does not match the checksum"):
        KerasFileEditor(tmp_path / "copy.weights.h5")
