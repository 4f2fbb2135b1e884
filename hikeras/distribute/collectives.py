"""Buffer-based MPI collectives over lists of numpy arrays.

Everything goes through mpi4py's uppercase, buffer-based calls (`Allreduce`,
`Bcast`, `Allgatherv`), never the pickle-based lowercase ones. Arrays of one
dtype travel together in one contiguous buffer, so a step's gradients cost
one `Allreduce` per dtype (one in practice) rather than one per variable:
each call pays MPI's latency once and moves data at full bandwidth.
"""

import json

import numpy as np


def _by_dtype(arrays):
    groups = {}
    for index, array in enumerate(arrays):
        groups.setdefault(array.dtype, []).append(index)
    return groups


class Collectives:
    """The collectives `MPIStrategy` needs, on one communicator.

    Args:
        comm: the `mpi4py.MPI.Comm` of the ranks taking part.
        mpi: the `mpi4py.MPI` module (for `IN_PLACE`, `SUM`, ...).
    """

    def __init__(self, comm, mpi):
        self.comm = comm
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()
        self._mpi = mpi
        self._buffers = {}

    def _buffer(self, key, dtype, size):
        """A reused flat buffer, so a training step allocates no new memory for its reduction."""
        buffer = self._buffers.get((key, dtype))
        if buffer is None or buffer.size < size:
            buffer = self._buffers[(key, dtype)] = np.empty(size, dtype)
        return buffer[:size]

    def allreduce_sum(self, arrays, key, scale=None):
        """Sums `arrays` over the ranks, each multiplied by `scale` first.

        Every rank must pass arrays of the same shapes and dtypes, in the
        same order. Returns arrays shaped like the inputs: views into a
        buffer that the next call with the same `key` overwrites.
        """
        out = [None] * len(arrays)
        for dtype, indices in _by_dtype(arrays).items():
            buffer = self._buffer(key, dtype, sum(arrays[i].size for i in indices))
            offset = 0
            for i in indices:
                array = arrays[i]
                view = buffer[offset:offset + array.size].reshape(array.shape)
                if scale is None:
                    np.copyto(view, array)
                elif scale == 0:
                    view.fill(0)  # not 0 * array: a non-finite entry would give NaN
                else:
                    np.multiply(array, scale, out=view)
                out[i] = view
                offset += array.size
            self.comm.Allreduce(self._mpi.IN_PLACE, buffer, op=self._mpi.SUM)
        return out

    def broadcast_(self, arrays):
        """Overwrites `arrays` (writable, in place) with rank 0's values."""
        for dtype, indices in _by_dtype(arrays).items():
            buffer = np.empty(sum(arrays[i].size for i in indices), dtype)
            spans, offset = [], 0
            for i in indices:
                spans.append((i, offset, offset + arrays[i].size))
                offset += arrays[i].size
            if self.rank == 0:
                for i, lo, hi in spans:
                    buffer[lo:hi] = arrays[i].reshape(-1)
            self.comm.Bcast(buffer, root=0)
            if self.rank != 0:
                for i, lo, hi in spans:
                    arrays[i][...] = buffer[lo:hi].reshape(arrays[i].shape)

    def broadcast_json(self, value):
        """Rank 0's `value` (anything `json` can encode) on every rank."""
        payload = np.frombuffer(json.dumps(value).encode(), np.uint8) if self.rank == 0 else None
        length = np.array([payload.size if self.rank == 0 else 0], np.int64)
        self.comm.Bcast(length, root=0)
        buffer = payload.copy() if self.rank == 0 else np.empty(int(length[0]), np.uint8)
        self.comm.Bcast(buffer, root=0)
        return json.loads(buffer.tobytes().decode())

    def allgather_rows(self, local, counts):
        """Concatenates every rank's `local` rows in rank order; rank r sends `counts[r]` rows."""
        local = np.ascontiguousarray(local)
        row_size = int(np.prod(local.shape[1:], dtype=np.int64))
        gathered = np.empty((sum(counts),) + local.shape[1:], local.dtype)
        self.comm.Allgatherv(local, [gathered, [count * row_size for count in counts]])
        return gathered

    def check_agreement(self, values, what):
        """Raises ValueError on every rank unless all ranks passed the same integers.

        `values` must have the same length on every rank.
        """
        local = np.asarray(values, np.int64)
        extremes = np.concatenate([local, -local])
        self.comm.Allreduce(self._mpi.IN_PLACE, extremes, op=self._mpi.MAX)
        high, low = extremes[:local.size], -extremes[local.size:]
        if np.any(high != low):
            raise ValueError(
                f"{what} differ across the {self.size} ranks; every rank must run the same "
                f"script on the same model and data. Received: on rank {self.rank}: "
                f"{local.tolist()}, smallest over ranks {low.tolist()}, largest {high.tolist()}")
