"""text_dataset_from_directory and image_dataset_from_directory on small trees made here."""

import builtins

import numpy as np
import pytest

import hikeras
from hikeras.utils import image_dataset_from_directory, text_dataset_from_directory


@pytest.fixture
def text_tree(tmp_path):
    for label, texts in {"neg": ["bad", "awful film"], "pos": ["good", "great", "fine"]}.items():
        (tmp_path / label).mkdir()
        for i, text in enumerate(texts):
            (tmp_path / label / f"{i}.txt").write_text(text, encoding="utf-8")
    (tmp_path / "pos" / "notes.md").write_text("ignored")
    return tmp_path


def collect(ds):
    texts, labels = [], []
    for batch_texts, batch_labels in ds:
        texts += batch_texts.tolist()
        labels += np.asarray(batch_labels).tolist()
    return texts, labels


def test_text_labels_are_inferred_from_sorted_subdirectories(text_tree, capsys):
    ds = text_dataset_from_directory(text_tree, batch_size=2, shuffle=False)
    assert "Found 5 files belonging to 2 classes." in capsys.readouterr().out
    assert ds.class_names == ["neg", "pos"] and ds.cardinality() == 3
    texts, labels = collect(ds)
    assert texts == ["bad", "awful film", "good", "great", "fine"]
    assert labels == [0, 0, 1, 1, 1]


def test_text_label_modes_max_length_and_class_names(text_tree):
    ds = text_dataset_from_directory(text_tree, label_mode="categorical", max_length=3,
                                     class_names=["pos", "neg"], shuffle=False,
                                     verbose=False)
    texts, labels = collect(ds)
    assert texts[:2] == ["goo", "gre"] and labels[0] == [1.0, 0.0] and labels[-1] == [0.0, 1.0]
    (batch,) = list(text_dataset_from_directory(text_tree, label_mode="binary", shuffle=False,
                                                verbose=False))
    assert batch[1].dtype == np.float32 and batch[1].shape == (5, 1)
    only_texts = text_dataset_from_directory(text_tree, labels=None, shuffle=False,
                                             verbose=False)
    assert only_texts.class_names is None and next(iter(only_texts)).shape == (5,)


def test_text_shuffle_and_validation_split_partition_the_files(text_tree):
    train, val = text_dataset_from_directory(text_tree, validation_split=0.4, subset="both",
                                             seed=3, verbose=False)
    t_texts, t_labels = collect(train)
    v_texts, _ = collect(val)
    assert len(t_texts) == 3 and len(v_texts) == 2
    assert sorted(t_texts + v_texts) == sorted(["bad", "awful film", "good", "great", "fine"])
    lookup = {"bad": 0, "awful film": 0, "good": 1, "great": 1, "fine": 1}
    assert t_labels == [lookup[t] for t in t_texts]
    again, _ = text_dataset_from_directory(text_tree, validation_split=0.4, subset="both",
                                           seed=3, verbose=False)
    assert sorted(collect(again)[0]) == sorted(t_texts)


def test_directory_argument_errors(text_tree):
    with pytest.raises(ValueError, match="seed"):
        text_dataset_from_directory(text_tree, validation_split=0.2, subset="training")
    with pytest.raises(ValueError, match="subset"):
        text_dataset_from_directory(text_tree, validation_split=0.2, seed=1)
    with pytest.raises(ValueError, match="class_names"):
        text_dataset_from_directory(text_tree, class_names=["pos", "other"])
    with pytest.raises(ValueError, match="one label per file"):
        text_dataset_from_directory(text_tree, labels=[0, 1], verbose=False)
    with pytest.raises(ValueError, match="exactly 2 classes"):
        (text_tree / "meh").mkdir()
        (text_tree / "meh" / "a.txt").write_text("so-so")
        text_dataset_from_directory(text_tree, label_mode="binary", verbose=False)
    with pytest.raises(ValueError, match="Directory not found"):
        text_dataset_from_directory(text_tree / "missing")


def test_image_loader_without_pillow_says_how_to_install(monkeypatch, tmp_path):
    real_import = builtins.__import__

    def no_pil(name, *args, **kwargs):
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError("No module named 'PIL'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pil)
    with pytest.raises(ImportError, match=r'pip install "hikeras\[image\]"'):
        image_dataset_from_directory(tmp_path)


@pytest.fixture
def image_tree(tmp_path):
    image_module = pytest.importorskip("PIL.Image")
    rng = np.random.default_rng(0)
    pixels = {}
    for label in ("cat", "dog"):
        (tmp_path / label).mkdir()
        for i in range(3):
            array = rng.integers(0, 256, size=(4, 6, 3), dtype=np.uint8)
            path = tmp_path / label / f"{i}.png"
            image_module.fromarray(array).save(path)
            pixels[str(path)] = array
    return tmp_path, pixels


def test_images_at_their_size_are_returned_exactly(image_tree):
    root, pixels = image_tree
    ds = image_dataset_from_directory(root, image_size=(4, 6), batch_size=4, shuffle=False,
                                      verbose=False)
    images, labels = [np.concatenate(p) for p in zip(*ds)]
    assert images.dtype == np.float32 and images.shape == (6, 4, 6, 3)
    assert labels.tolist() == [0, 0, 0, 1, 1, 1]
    for image, path in zip(images, ds.file_paths):
        np.testing.assert_array_equal(image, pixels[path])


def test_image_color_modes_resizing_and_aspect_ratio(image_tree):
    root, pixels = image_tree
    gray = image_dataset_from_directory(root, image_size=(2, 3), color_mode="grayscale",
                                        interpolation="nearest", shuffle=False,
                                        verbose=False)
    images, _ = next(iter(gray))
    assert images.shape == (6, 2, 3, 1)
    cropped = image_dataset_from_directory(root, image_size=(4, 4), crop_to_aspect_ratio=True,
                                           shuffle=False, verbose=False, labels=None)
    first = next(iter(cropped))[0]
    np.testing.assert_array_equal(first, pixels[cropped.file_paths[0]][:, 1:5])
    padded = image_dataset_from_directory(root, image_size=(6, 6), pad_to_aspect_ratio=True,
                                          shuffle=False, verbose=False, labels=None)
    first = next(iter(padded))[0]
    assert first[0].sum() == 0 and first[-1].sum() == 0
    np.testing.assert_array_equal(first[1:5], pixels[padded.file_paths[0]])
    channels_first = image_dataset_from_directory(root, image_size=(4, 6), shuffle=False,
                                                  data_format="channels_first", verbose=False)
    assert next(iter(channels_first))[0].shape == (6, 3, 4, 6)


def test_image_dataset_trains_a_model(image_tree):
    root, _ = image_tree
    ds = image_dataset_from_directory(root, image_size=(4, 6), batch_size=2, seed=0,
                                      label_mode="categorical", verbose=False)
    model = hikeras.Sequential([hikeras.Input((4, 6, 3)), hikeras.layers.Flatten(),
                                hikeras.layers.Dense(2, activation="softmax")])
    model.compile(optimizer="adam", loss="categorical_crossentropy")
    history = model.fit(ds, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
