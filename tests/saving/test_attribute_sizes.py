"""An attribute declaring an absurd size is refused before h5py reads it."""

import pytest

import hikeras
from hikeras import layers
from hikeras.saving import SavedFileError, h5_attributes


def test_oversized_attribute_is_refused_before_reading(tmp_path, monkeypatch):
    model = hikeras.Sequential([hikeras.Input((3,)), layers.Dense(2)])
    path = tmp_path / "m.h5"
    model.save(path)
    hikeras.models.load_model(path)  # loads with the real limit
    # Pretend every real attribute is too large: the guard must name the file.
    monkeypatch.setattr(h5_attributes, "_MAX_ATTRIBUTE_BYTES", 4)
    with pytest.raises(SavedFileError, match=r"m\.h5.*declares \d+ bytes"):
        hikeras.models.load_model(path)
