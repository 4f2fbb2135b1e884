import shutil
import sys

import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.utils import plot_history, plot_model
from hikeras.utils.plot import layer_graph, model_to_dot

pytest.importorskip("pydot")


def _branchy_model():
    inputs = hikeras.Input((4,), name="features")
    left = layers.Dense(3, name="left")(inputs)
    right = layers.Dense(3, name="right")(inputs)
    merged = layers.Concatenate(name="join")([left, right])
    outputs = layers.Dense(1, name="head")(merged)
    return hikeras.Model(inputs, outputs)


def test_layer_graph_follows_the_functional_connections():
    layers_, edges, shapes = layer_graph(_branchy_model())
    assert [l.name for l in layers_] == ["features", "left", "right", "join", "head"]
    assert sorted((a.name, b.name) for a, b in edges) == [
        ("features", "left"), ("features", "right"), ("join", "head"), ("left", "join"),
        ("right", "join")]
    assert shapes["join"] == ([(None, 3), (None, 3)], [(None, 6)])
    sequential = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(5), layers.Dense(1)])
    layers_, edges, _ = layer_graph(sequential)
    assert [(a.name, b.name) for a, b in edges] == [(layers_[0].name, layers_[1].name),
                                                    (layers_[1].name, layers_[2].name)]


def test_dot_source_has_one_box_per_layer_with_shapes(tmp_path):
    dot = model_to_dot(_branchy_model(), show_shapes=True, show_trainable=True)
    assert len(dot.get_nodes()) - 1 == 5 and len(dot.get_edges()) == 5  # minus "node" defaults
    path = tmp_path / "model.dot"
    assert plot_model(_branchy_model(), to_file=path, show_shapes=True) is None
    text = path.read_text()
    assert "join (Concatenate)" in text and "Input shape: [(None, 3), (None, 3)]" in text
    assert "Output shape: (None, 6)" in text


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")
def test_png_and_svg_are_drawn(tmp_path):
    plot_model(_branchy_model(), to_file=tmp_path / "m.png", show_shapes=True)
    assert (tmp_path / "m.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    plot_model(_branchy_model(), to_file=tmp_path / "m.svg", rankdir="LR")
    assert "<svg" in (tmp_path / "m.svg").read_text()


def test_missing_pieces_name_the_install_command(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no Graphviz
    with pytest.raises(ImportError, match="Graphviz program `dot`"):
        plot_model(_branchy_model(), to_file=tmp_path / "m.png")
    monkeypatch.setitem(sys.modules, "pydot", None)
    with pytest.raises(ImportError, match=r'pip install "hikeras\[plot\]"'):
        plot_model(_branchy_model(), to_file=tmp_path / "m.dot")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r'pip install "hikeras\[plot\]"'):
        plot_history({"loss": [1.0]})
    with pytest.raises(ValueError, match="rankdir"):
        model_to_dot(_branchy_model(), rankdir="BT")


def test_plot_history_draws_the_logged_values(tmp_path):
    pytest.importorskip("matplotlib")
    model = hikeras.Sequential([hikeras.Input((2,)), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    x = np.random.default_rng(0).normal(size=(8, 2)).astype("float32")
    history = model.fit(x, x[:, :1], epochs=3, verbose=0, validation_data=(x, x[:, :1]))
    fig = plot_history(history, to_file=tmp_path / "h.png", title="run")
    assert (tmp_path / "h.png").read_bytes()[:4] == b"\x89PNG"
    assert [ax.get_ylabel() for ax in fig.axes] == ["loss", "mae"]
    for ax, key in zip(fig.axes, ("loss", "mae")):
        train, val = ax.get_lines()
        assert list(train.get_xdata()) == [1, 2, 3]
        assert list(train.get_ydata()) == history.history[key]
        assert list(val.get_ydata()) == history.history[f"val_{key}"]
    with pytest.raises(ValueError, match=r"\['accuracy'\] were not logged"):
        plot_history(history, metrics=["accuracy"])
    with pytest.raises(ValueError, match="non-empty dict"):
        plot_history({})
