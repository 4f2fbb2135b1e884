"""MPIStrategy on real 2-rank MPI jobs (mpiexec on this machine).

The healthy job (`mpi_worker.py main`) runs once per module; its ranks dump
what they saw and each test checks one property against independent truth:
hand-computed collective results, the data set size, a model trained
without any strategy on the same global batches, and each other.
"""

import json
import os
import sys

import numpy as np
import pytest

from tests.helpers.mpi_jobs import requires_mpi4py, run_job, run_ranks

pytestmark = requires_mpi4py

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mpi_worker.py")


@pytest.fixture(scope="module")
def ranks(tmp_path_factory):
    out = tmp_path_factory.mktemp("mpi_job")
    code, output = run_ranks(2, WORKER, "main", str(out))
    assert code == 0, output
    return [json.loads((out / f"rank{r}.json").read_text()) for r in (0, 1)]


def _arrays(weights):
    return [np.asarray(w) for w in weights]


def test_collectives_give_hand_computed_results(ranks):
    for rank in ranks:
        c = rank["collectives"]
        # rank r sends arange(6) * (r + 1), r + 0.25 and r + 1: the sums are 3x, 1.5 and 3.
        assert c["summed"] == [[[0, 3, 6], [9, 12, 15]], [1.5] * 4, [3]]
        assert c["scaled"] == [[[0, 1.5, 3], [4.5, 6, 7.5]], [0.75] * 4]
        assert c["broadcast"] == [[0.0] * 3, [[0, 0], [0, 0]]]  # rank 0's values
        assert c["json"] == {"rank": 0, "big": 2 ** 100}
        assert c["gathered"] == [[0, 0], [1, 1], [1, 1]]  # rank 0's row, then rank 1's two
        assert "Test values differ across the 2 ranks" in c["disagreement"]
        assert c["reduced"] == [[1.5] * 3, None]  # outside fit: the mean over the ranks


def test_weights_bit_identical_across_ranks(ranks):
    for key in ("distributed", "batch_norm", "lazy"):
        first, second = (_arrays(r[key]["weights"]) for r in ranks)
        assert all(np.array_equal(a, b) for a, b in zip(first, second)), key


def test_two_ranks_match_one_process_on_the_same_global_batches(ranks):
    distributed = _arrays(ranks[0]["distributed"]["weights"])
    plain = _arrays(ranks[0]["plain"]["weights"])
    initial_scale = max(np.abs(w).max() for w in plain)
    assert initial_scale > 0
    for ours, reference in zip(distributed, plain):
        np.testing.assert_allclose(ours, reference, rtol=1e-5, atol=1e-6)


def test_metrics_are_global_and_the_same_on_every_rank(ranks):
    history = ranks[0]["distributed"]["history"]
    assert ranks[1]["distributed"]["history"] == history
    # 43 training and 13 validation samples per epoch, however the ranks split them.
    assert history["sample_count"] == [43.0] * 3
    assert history["val_sample_count"] == [13.0] * 3
    plain = ranks[0]["plain"]["history"]
    for key in ("loss", "accuracy", "val_loss", "val_accuracy"):
        np.testing.assert_allclose(history[key], plain[key], rtol=1e-5)
    evaluated = [r["distributed"]["evaluate"] for r in ranks]
    assert evaluated[0] == evaluated[1]
    assert evaluated[0]["sample_count"] == 43.0
    np.testing.assert_allclose(evaluated[0]["loss"], ranks[0]["plain"]["evaluate"]["loss"],
                               rtol=1e-5)


def test_predict_gathers_every_row_in_order(ranks):
    predictions = [np.asarray(r["distributed"]["predict"]) for r in ranks]
    assert predictions[0].shape == (43, 3)
    assert np.array_equal(predictions[0], predictions[1])
    local = np.asarray(ranks[0]["distributed"]["local_predict"])
    np.testing.assert_allclose(predictions[0], local, rtol=1e-5, atol=1e-7)


def test_only_rank_0_writes_files_and_progress(ranks):
    files = ranks[1]["distributed"]["files"]  # listed by rank 1 after training
    assert {"ckpt0/w1.weights.h5", "ckpt0/w3.weights.h5", "csv0/log.csv",
            "marker0.txt"} <= set(files)
    assert not [f for f in files if f.startswith(("ckpt1", "csv1", "marker1"))]
    assert "Epoch 3/3" in ranks[0]["distributed"]["stdout"]
    assert ranks[1]["distributed"]["stdout"] == ""


def test_batch_norm_statistics_synchronised_and_frozen_weights_untouched(ranks):
    import hikeras
    from hikeras import layers

    weights = _arrays(ranks[0]["batch_norm"]["weights"])
    moving_mean = weights[4]  # frozen kernel, bias; gamma, beta, moving mean, variance; ...
    assert np.abs(moving_mean).max() > 0
    hikeras.utils.set_random_seed(0)  # rank 0 built its model after this seed
    fresh = hikeras.Sequential([hikeras.Input((6,)), layers.Dense(8, trainable=False)])
    assert np.array_equal(ranks[1]["batch_norm"]["frozen_after"], fresh.layers[0].kernel.value)


def test_backup_and_restore_resumes_all_ranks_from_the_same_state(ranks):
    for rank in ranks:
        backup = rank["backup"]
        assert backup["interrupted"]
        resumed, straight = _arrays(backup["resumed"]), _arrays(backup["straight"])
        assert all(np.array_equal(a, b) for a, b in zip(resumed, straight))


def test_documented_custom_train_step_trains_like_the_built_in_one(ranks):
    for rank in ranks:
        built_in, custom = rank["custom"]["Sequential"], rank["custom"]["ReducedStep"]
        assert all(np.array_equal(a, b) for a, b in zip(_arrays(built_in["weights"]),
                                                         _arrays(custom["weights"])))
        assert custom["history"]["sample_count"] == [43.0, 43.0]
        np.testing.assert_allclose(custom["history"]["loss"], built_in["history"]["loss"],
                                   rtol=1e-6)


def test_custom_train_step_without_reduce_gradients_is_refused(ranks):
    for rank in ranks:
        assert "reduce_gradients(grads)" in rank["custom"]["unreduced"]


def test_blas_threads_split_between_ranks_of_a_node(ranks):
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert [r["blas_threads"] for r in ranks] == [max(1, cores // 2)] * 2


def test_a_raising_rank_aborts_the_job_with_its_message():
    code, output = run_ranks(2, WORKER, "abort", module_launch=False)  # our hook, not mpi4py's
    assert code != 0
    assert "rank 1 of 2 raised an uncaught exception" in output
    assert "ValueError: rank 1 failed on purpose in batch 2" in output


def test_a_killed_rank_ends_the_job():
    code, _ = run_ranks(2, WORKER, "kill")
    assert code != 0


def test_a_single_process_strategy_changes_nothing(tmp_path):
    code, output = run_job([sys.executable, WORKER, "single", str(tmp_path)])
    assert code == 0, output
    runs = json.loads((tmp_path / "single.json").read_text())
    assert runs["size"] == 1
    assert runs["strategy"] == runs["plain"]  # bit for bit; excepthook untouched too
    assert runs["plain"]["excepthook"]
    assert runs["doctest_failures"] == 0
