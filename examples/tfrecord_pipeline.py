"""Write a dataset to TFRecord files, then train from them: no TensorFlow needed.

Uses the 8x8 digits set shipped with hikeras, so it runs offline in seconds
(it needs the `hikeras[tfrecord]` extra for the record checksums)::

    python examples/tfrecord_pipeline.py

The training set goes into four GZIP-compressed shards of `tf.train.Example`
records, the format TensorFlow pipelines write. `TFRecordDataset` reads the
shards two at a time, interleaved; the pipeline shuffles, batches, parses
each batch with `parse_example` and prefetches while the model trains.
TensorFlow's own `tf.data.TFRecordDataset` reads these files too.
"""

import os
import sys
import tempfile

import hikeras
from hikeras import io, layers
from hikeras.data import AUTOTUNE, TFRecordDataset
from hikeras.datasets import digits

FEATURES = {
    "pixels": io.FixedLenFeature([64], "float32"),
    "label": io.FixedLenFeature([], "int64"),
}


def write_shards(folder, images, labels, shards=4):
    """Writes `images`/`labels` into `shards` GZIP TFRecord files; returns their paths."""
    paths = [os.path.join(folder, f"digits-{k:05d}-of-{shards:05d}.tfrecord.gz")
             for k in range(shards)]
    writers = [io.TFRecordWriter(path, "GZIP") for path in paths]
    for index, (image, label) in enumerate(zip(images, labels)):
        record = io.serialize_example({"pixels": image.reshape(64), "label": [int(label)]})
        writers[index % shards].write(record)
    for writer in writers:
        writer.close()
    return paths


def parse_batch(records):
    parsed = io.parse_example(records, FEATURES)
    return parsed["pixels"], parsed["label"]


def main(folder=None, epochs=15):
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    folder = folder or tempfile.mkdtemp(prefix="hikeras-tfrecord-")
    paths = write_shards(folder, x_train / 16.0, y_train)
    print(f"wrote {len(x_train)} examples into {len(paths)} shards in {folder}")

    train = (TFRecordDataset(paths, compression_type="GZIP", num_parallel_reads=2)
             .shuffle(1024, seed=0)
             .batch(64)
             .map(parse_batch)
             .prefetch(AUTOTUNE))

    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([
        hikeras.Input((64,)),
        layers.Dense(64, activation="relu"),
        layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    model.fit(train, epochs=epochs, verbose=0)
    _, accuracy = model.evaluate(x_test.reshape(-1, 64) / 16.0, y_test, verbose=0)
    print(f"test accuracy after {epochs} epochs from TFRecord shards: {accuracy:.3f}")
    return accuracy


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
