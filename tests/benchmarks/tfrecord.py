"""TFRecord reading and parsing: hikeras vs `tf.data`, on the same ~100 MB file.

Not part of the test run. The file holds 100,000 `tf.train.Example`s of a
250-float feature, an int64 label and a short bytes id (about 1 KB each),
written once by hikeras into a temporary folder (TensorFlow reads it: see
tests/io). Each pass reads every record, batches 1,024 and parses each batch
(`hikeras.io.parse_example` / `tf.io.parse_example`); TensorFlow runs in
`$KERAS_PYTHON` (default `~/.venvs/tf/bin/python`). Passes alternate between
the frameworks, each in a fresh process, and the median is reported.

    python tests/benchmarks/tfrecord.py --repeats 3 [--compression GZIP]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TF_PYTHON = os.environ.get("KERAS_PYTHON", os.path.expanduser("~/.venvs/tf/bin/python"))
RECORDS, WIDTH, BATCH = 100_000, 250, 1024


def write(path, compression):
    import numpy as np

    from hikeras import io

    rng = np.random.default_rng(0)
    with io.TFRecordWriter(path, compression) as writer:
        for i in range(RECORDS):
            writer.write(io.serialize_example({
                "x": rng.standard_normal(WIDTH).astype("float32"), "y": [i % 10],
                "id": f"sample-{i}".encode()}))


def read_hikeras(path, compression):
    from hikeras import io
    from hikeras.data import TFRecordDataset

    spec = {"x": io.FixedLenFeature([WIDTH], "float32"), "y": io.FixedLenFeature([], "int64"),
            "id": io.FixedLenFeature([], "string")}
    count = 0
    for batch in TFRecordDataset(path, compression).batch(BATCH):
        count += len(io.parse_example(batch, spec)["y"])
    return count


def read_tensorflow(path, compression):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    spec = {"x": tf.io.FixedLenFeature([WIDTH], tf.float32),
            "y": tf.io.FixedLenFeature([], tf.int64), "id": tf.io.FixedLenFeature([], tf.string)}
    count = 0
    dataset = tf.data.TFRecordDataset(path, compression).batch(BATCH).map(
        lambda b: tf.io.parse_example(b, spec))
    for batch in dataset:
        count += int(batch["y"].shape[0])
    return count


def worker(framework, path, compression):
    reader = read_hikeras if framework == "hikeras" else read_tensorflow
    start = time.perf_counter()
    count = reader(path, compression)
    print(json.dumps({"seconds": time.perf_counter() - start, "records": count}))


def timed(framework, path, compression):
    python = sys.executable if framework == "hikeras" else TF_PYTHON
    out = subprocess.run([python, HERE, "--worker", framework, path, compression],
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    result = json.loads(out.strip().splitlines()[-1])
    assert result["records"] == RECORDS, result
    return result["seconds"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--compression", default="", choices=["", "GZIP", "ZLIB"])
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bench.tfrecord")
        write(path, args.compression)
        megabytes = os.path.getsize(path) / 2**20
        times = {"hikeras": [], "tensorflow": []}
        for _ in range(args.repeats):
            for framework in times:
                times[framework].append(timed(framework, path, args.compression))
    result = {k: statistics.median(v) for k, v in times.items()}
    print(f"file: {megabytes:.0f} MiB, {RECORDS} records, compression {args.compression!r}")
    for framework, seconds in result.items():
        print(f"  {framework:10s} {seconds:6.2f} s  {megabytes / seconds:7.1f} MiB/s")
    print(f"  hikeras / tf.data throughput ratio: {result['tensorflow'] / result['hikeras']:.2f}")


if __name__ == "__main__":
    main()
