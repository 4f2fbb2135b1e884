"""examples/distributed_mnist.py on a real 2-rank MPI job."""

import re
from pathlib import Path

from tests.helpers.mpi_jobs import requires_mpi4py, run_ranks

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "distributed_mnist.py"


@requires_mpi4py
def test_two_ranks_train_the_digits_classifier(tmp_path):
    code, output = run_ranks(2, str(EXAMPLE), "--epochs", "10", "--checkpoint-dir",
                             str(tmp_path), module_launch=False)
    assert code == 0, output
    # Rank 0 alone prints: one line per epoch and one summary.
    assert output.count("Epoch 10/10") == 1
    summary = re.findall(r"2 replica\(s\), global batch 64: test accuracy ([0-9.]+)", output)
    assert len(summary) == 1 and float(summary[0]) >= 0.9
    assert (tmp_path / "digits.weights.h5").exists()
