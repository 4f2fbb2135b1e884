"""Makes the TFRecord fixtures with real TensorFlow, and records TensorFlow's verdict on ours.

Run in the side environment that has TensorFlow (`~/.venvs/tf`, plus
`tqdm` and `google-crc32c` so hikeras imports there)::

    python tests/io/generate_fixtures.py

It writes into tests/io/fixtures/:
- `tf_plain.tfrecord`, `tf_gzip.tfrecord.gz`, `tf_zlib.tfrecord.zz`: the same
  records written by `tf.io.TFRecordWriter`, uncompressed, GZIP and ZLIB;
- `tf_large.tfrecord.gz`: one record of 1,000,000 floats;
- `tf_parsed.json`: what `tf.io.parse_example` makes of those records;
- `hikeras_*.tfrecord*`: the same Examples written by hikeras, and
  `tf_reads_hikeras.json`: what TensorFlow's reader and parser make of them.
"""

import base64
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

import numpy as np
import tensorflow as tf

from hikeras import io as hio
from tests.io.records import KINDS, RECORDS, hikeras_example

OUT = os.path.join(HERE, "fixtures")
COMPRESSIONS = {"plain": ("", ".tfrecord"), "gzip": ("GZIP", ".tfrecord.gz"),
                "zlib": ("ZLIB", ".tfrecord.zz")}

def tf_example(record):
    feature = {}
    for key, values in record.items():
        if KINDS[key] == "float":
            feature[key] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
        elif KINDS[key] == "int64":
            feature[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
        else:
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


SPEC = {
    "floats": tf.io.FixedLenFeature([3], tf.float32),
    "ints": tf.io.VarLenFeature(tf.int64),
    "names": tf.io.VarLenFeature(tf.string),
    "empty": tf.io.VarLenFeature(tf.float32),
    "label": tf.io.FixedLenFeature([], tf.int64, default_value=-1),
}


def jsonable(value):
    if isinstance(value, tf.SparseTensor):
        return {"indices": value.indices.numpy().tolist(), "values": jsonable(value.values),
                "dense_shape": value.dense_shape.numpy().tolist()}
    array = value.numpy()
    if array.dtype == object:
        return [base64.b64encode(v).decode() for v in array.reshape(-1)]
    return [repr(float(v)) if array.dtype.kind == "f" else int(v) for v in array.reshape(-1)]


def parse_file(path, compression):
    records = list(tf.data.TFRecordDataset(path, compression_type=compression))
    parsed = tf.io.parse_example(tf.stack(records), SPEC)
    return {"records": len(records), "parsed": {k: jsonable(v) for k, v in parsed.items()}}


def main():
    os.makedirs(OUT, exist_ok=True)
    parsed = {}
    for name, (compression, suffix) in COMPRESSIONS.items():
        path = os.path.join(OUT, f"tf_{name}{suffix}")
        with tf.io.TFRecordWriter(path, options=compression) as writer:
            for record in RECORDS:
                writer.write(tf_example(record))
        parsed[name] = parse_file(path, compression)
    large = os.path.join(OUT, "tf_large.tfrecord.gz")
    values = (np.arange(1_000_000) % 7).astype(np.float32)
    with tf.io.TFRecordWriter(large, options="GZIP") as writer:
        writer.write(tf.train.Example(features=tf.train.Features(feature={
            "big": tf.train.Feature(float_list=tf.train.FloatList(value=values))})).SerializeToString())
    with open(os.path.join(OUT, "tf_parsed.json"), "w") as f:
        json.dump(parsed, f, indent=1, sort_keys=True)

    verdict = {"tensorflow": tf.__version__}
    for name, (compression, suffix) in COMPRESSIONS.items():
        path = os.path.join(OUT, f"hikeras_{name}{suffix}")
        with hio.TFRecordWriter(path, compression) as writer:
            for record in RECORDS:
                writer.write(hikeras_example(record))
        result = parse_file(path, compression)
        result["same_as_tf_written"] = result["parsed"] == parsed[name]["parsed"]
        verdict[name] = result
    with open(os.path.join(OUT, "tf_reads_hikeras.json"), "w") as f:
        json.dump(verdict, f, indent=1, sort_keys=True)
    print(json.dumps({k: v if isinstance(v, str) else v["same_as_tf_written"]
                      for k, v in verdict.items()}))


if __name__ == "__main__":
    main()
