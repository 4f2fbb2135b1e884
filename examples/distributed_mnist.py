"""Data-parallel training on MPI: the digit classifier trained by several processes at once.

    pip install "hikeras[mpi]"
    mpiexec -n 2 python examples/distributed_mnist.py            # 2 processes, one machine
    mpiexec -n 8 -hosts node1,node2 python examples/distributed_mnist.py   # 2 machines
    python examples/distributed_mnist.py                          # one process, no MPI job

Every rank runs this same script. Each one reads the whole data set, keeps
its own slice of every global batch, and the ranks average their gradients
after every step, so all of them end with the same weights. Only rank 0
prints progress and writes the checkpoint. Uses the 8x8 digits set shipped
with hikeras (offline); see docs/distributed.md.
"""

import argparse
import os
import tempfile

import hikeras
from hikeras import callbacks, layers
from hikeras.datasets import digits

PER_REPLICA_BATCH = 32


def main(epochs=20, checkpoint_dir=None):
    strategy = hikeras.distribute.MPIStrategy()
    replicas = strategy.num_replicas_in_sync
    # Any seed will do on the other ranks: rank 0's initial weights and shuffling are
    # broadcast when training starts; a seed per rank gives independent dropout masks.
    hikeras.utils.set_random_seed(42 + strategy.rank)
    (x_train, y_train), (x_test, y_test) = digits.load_data()  # the same split on every rank
    x_train = x_train.reshape(len(x_train), 64).astype("float32") / 16.0
    x_test = x_test.reshape(len(x_test), 64).astype("float32") / 16.0

    with strategy.scope():
        model = hikeras.Sequential([
            hikeras.Input(shape=(64,)),
            layers.Dense(128, activation="relu"),
            layers.Dropout(0.2),
            layers.Dense(10, activation="softmax"),
        ])
        # The global batch grows with the number of ranks; so does the learning rate
        # (the linear scaling rule), keeping the progress per sample about the same.
        model.compile(optimizer=hikeras.optimizers.Adam(1e-3 * replicas),
                      loss="sparse_categorical_crossentropy", metrics=["accuracy"])

    checkpoint_dir = checkpoint_dir or os.path.join(tempfile.gettempdir(), "hikeras_digits")
    checkpoint = callbacks.ModelCheckpoint(
        os.path.join(checkpoint_dir, "digits.weights.h5"), monitor="val_accuracy",
        save_best_only=True, save_weights_only=True)  # written by rank 0 only
    model.fit(x_train, y_train, batch_size=PER_REPLICA_BATCH * replicas, epochs=epochs,
              validation_split=0.1, verbose=2, callbacks=[checkpoint])

    results = model.evaluate(x_test, y_test, verbose=0, return_dict=True)  # sharded, global
    if strategy.is_chief:
        print(f"{replicas} replica(s), global batch {PER_REPLICA_BATCH * replicas}: "
              f"test accuracy {results['accuracy']:.4f}; best weights in {checkpoint_dir}")
    return results["accuracy"]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--checkpoint-dir", default=None)
    args = parser.parse_args()
    main(args.epochs, args.checkpoint_dir)
