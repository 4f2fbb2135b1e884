"""Issue #21 item 8: thousands of damaged files, and not one crash, hang or unclear error.

3,200 mutants (see `fuzz_campaign` for how each outcome is classified) of
files hikeras writes in every format (Keras 2 `.h5` weights, `.weights.h5`,
full-model `.h5`, `.keras`, a sharded index with its shards) and of files
written by Keras 2 and Keras 3 (`tests/fixtures/keras_saving`). The campaign
runs once per test module, in two forked workers, each case under a watchdog.
"""

import io
import os
import uuid
import zipfile
from pathlib import Path
from unittest import mock

import numpy as np
import pytest

import hikeras
from hikeras import layers
from tests.saving.fuzz_campaign import (
    OUTCOMES,
    Source,
    architecture_of,
    run_campaign,
    tally,
    weights_of,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "keras_saving"
HIKERAS_MUTANTS = 400
KERAS_MUTANTS = 200


def _model(seed):
    hikeras.utils.set_random_seed(seed)
    inputs = hikeras.Input((5,))
    hidden = layers.BatchNormalization()(layers.Dense(6, activation="relu")(inputs))
    return hikeras.Model(inputs, layers.Dense(3, name="out")(hidden))


def _trained():
    model = _model(0)
    model.compile(optimizer="adam", loss="mse")
    x = np.linspace(-1, 1, 40, dtype="float32").reshape(8, 5)
    model.fit(x, x[:, :3], epochs=1, batch_size=4, verbose=0)
    return model


def _fixed_zip_times(data):
    """The archive with its members' timestamps fixed, so its bytes are the same each run."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as z, zipfile.ZipFile(out, "w") as w:
        for info in z.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2020, 1, 1, 0, 0, 0))
            fixed.compress_type = info.compress_type
            w.writestr(fixed, z.read(info))
    return out.getvalue()


def _read_tree(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _hikeras_sources(directory):
    model = _trained()
    expected = weights_of(model)
    model.save_weights(directory / "w.h5")
    model.save_weights(directory / "w.weights.h5")
    model.save(directory / "m.h5")
    model.save(directory / "m.keras")
    (directory / "ckpt").mkdir()
    with mock.patch("hikeras.saving.sharded.uuid.uuid4", lambda: uuid.UUID(int=7)):
        model.save_weights(directory / "ckpt" / "m.weights.json", max_shard_size="300B")
    (directory / "m.keras").write_bytes(_fixed_zip_times((directory / "m.keras").read_bytes()))
    keras_zip = (directory / "m.keras").read_bytes()
    architectures = {name: architecture_of(hikeras.models.load_model(directory / name))
                     for name in ("m.h5", "m.keras")}
    one = {name: (directory / name).read_bytes() for name in ("w.h5", "w.weights.h5", "m.h5")}

    def template():
        return _model(1)

    common = {"hikeras_written": True, "expected": expected}
    return [
        Source("hikeras w.h5", "weights", {"w.h5": one["w.h5"]}, "w.h5",
               mutations=("bytes", "bytes", "h5"), template=template, **common),
        Source("hikeras w.weights.h5", "weights", {"w.weights.h5": one["w.weights.h5"]},
               "w.weights.h5", mutations=("bytes", "bytes", "h5"), template=template,
               **common),
        Source("hikeras m.h5", "model", {"m.h5": one["m.h5"]}, "m.h5",
               mutations=("bytes", "h5"), expected_architecture=architectures["m.h5"],
               **common),
        Source("hikeras m.keras", "model", {"m.keras": keras_zip}, "m.keras",
               mutations=("bytes", "zip", "zip"),
               expected_architecture=architectures["m.keras"], **common),
        Source("hikeras sharded", "weights", _read_tree(directory / "ckpt"), "m.weights.json",
               mutations=("bytes", "json", "h5"), template=template, **common),
    ]


def _keras_sources():
    def pristine_model(name):
        return hikeras.models.load_model(FIXTURES / name, compile=False)

    sources = []
    for name, kind, template_file, mutations in [
        ("k3_mlp.keras", "model", None, ("bytes", "zip", "zip")),
        ("k3_functional.keras", "model", None, ("bytes", "zip", "zip")),
        ("k2_functional.h5", "model", None, ("bytes", "h5")),
        ("k3_cnn.h5", "model", None, ("bytes", "h5")),
        ("k2_mlp_weights.h5", "weights", "k2_mlp.h5", ("bytes", "bytes", "h5")),
        ("k3_rnn.weights.h5", "weights", "k3_rnn.keras", ("bytes", "bytes", "h5")),
    ]:
        architecture = None
        if kind == "model":
            pristine = hikeras.models.load_model(FIXTURES / name)
            expected, architecture = weights_of(pristine), architecture_of(pristine)
            template = None
        else:
            def template(template_file=template_file):
                return pristine_model(template_file)
            model = template()
            model.load_weights(FIXTURES / name)
            expected = weights_of(model)
        sources.append(Source(f"keras {name}", kind, {name: (FIXTURES / name).read_bytes()},
                              name, hikeras_written=False, mutations=mutations,
                              template=template, expected=expected,
                              expected_architecture=architecture))
    return sources


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    directory = tmp_path_factory.mktemp("fuzz")
    sources = _hikeras_sources(directory) + _keras_sources()
    counts = [HIKERAS_MUTANTS if s.hikeras_written else KERAS_MUTANTS for s in sources]
    results = run_campaign(sources, counts, str(directory / "cases"),
                           workers=min(2, os.cpu_count() or 1))
    return sources, results


def _examples(results, outcomes, limit=8):
    lines = [f"  {r.source} #{r.index} ({r.description}): {r.outcome}: {r.message}"
             for r in results if r.outcome in outcomes]
    return "\n".join(lines[:limit])


def test_at_least_3000_mutants_over_every_format(campaign):
    sources, results = campaign
    assert len(results) >= 3000
    assert len({r.source for r in results}) == len(sources)
    counts = tally(results)
    for source in sources:  # every source both loads some mutants and refuses some
        assert counts[source.name]["clear error"] > 0, counts[source.name]


def test_no_crash_hang_or_unclear_error(campaign):
    _, results = campaign
    bad = ("crash", "hang", "unclear error")
    counts = {name: {k: v for k, v in c.items() if k in bad} for name, c in
              tally(results).items()}
    assert not any(counts.values()), f"{counts}\n{_examples(results, bad)}"


def test_keras_files_are_never_half_loaded(campaign):
    """A failed `load_weights` leaves the model as it was (for every file); a Keras
    file carries no checksums, so damaged weights that still parse may load."""
    _, results = campaign
    half = [r for r in results if r.message == "a failed load changed the model"]
    assert not half, _examples(half, ("silent alteration",))


def test_files_hikeras_wrote_never_load_altered(campaign):
    """Per-array checksums (`checksums.py`), the config checksums and their coverage
    rule (`config_checksums.py`), the zip CRC and the sharded index's SHA-256."""
    sources, results = campaign
    ours = {s.name for s in sources if s.hikeras_written}
    altered = [r for r in results if r.source in ours and r.outcome == "silent alteration"]
    assert not altered, f"{len(altered)} silent alterations:\n" + _examples(
        altered, ("silent alteration",))


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("HIKERAS_LARGE_FUZZ"),
                    reason="about 15 minutes: set HIKERAS_LARGE_FUZZ=1 to run it")
def test_a_larger_campaign(tmp_path):
    """16,500 mutants (the default campaign's among them): the same guarantees."""
    sources = _hikeras_sources(tmp_path) + _keras_sources()
    results = run_campaign(sources, [1500] * len(sources), str(tmp_path / "cases"),
                           workers=min(4, os.cpu_count() or 1))
    bad = [r for r in results if r.outcome in ("crash", "hang", "unclear error")
           or r.message == "a failed load changed the model"]
    assert not bad, f"{tally(results)}\n{_examples(bad, OUTCOMES)}"
