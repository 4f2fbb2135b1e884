"""Data-parallel training across processes and machines on MPI (optional extra).

`MPIStrategy` trains one model synchronously on the ranks of an `mpiexec`
job; install with `pip install "hikeras[mpi]"`. See docs/distributed.md.
"""

from .mpi_strategy import MPIStrategy
from .scope import get_strategy, is_chief

__all__ = ["MPIStrategy", "get_strategy", "is_chief"]
