"""Log a training run for TensorBoard, profile a few steps, and plot the history.

    pip install "hikeras[tensorboard,plot]"
    python examples/tensorboard_logging.py [LOG_DIR]
    tensorboard --logdir LOG_DIR      # default LOG_DIR: ./logs/digits

TensorBoard shows, under the runs `train` and `validation`: the per-epoch loss,
accuracy and learning rate (Scalars), batch-level loss every 10 batches, the
weight histograms every 2 epochs (Histograms, Distributions), the layer graph
(Graphs) and the model summary and profile table (Text). The Chrome trace of
batches 5-7 is in LOG_DIR/plugins/profile/; open it in https://ui.perfetto.dev.
"""

import os
import sys

import hikeras
from hikeras import callbacks, layers
from hikeras.datasets import digits


def main(log_dir="logs/digits"):
    hikeras.utils.set_random_seed(0)
    (x, y), _ = digits.load_data()
    x = x.reshape(len(x), 64).astype("float32") / 16.0
    model = hikeras.Sequential([
        hikeras.Input((64,)), layers.Dense(64, activation="relu"), layers.Dropout(0.2),
        layers.Dense(10, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    board = callbacks.TensorBoard(log_dir, histogram_freq=2, update_freq=10,
                                  profile_batch=(5, 7))
    plateau = callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=1)
    history = model.fit(x, y, batch_size=32, epochs=6, validation_split=0.2, verbose=2,
                        callbacks=[board, plateau])

    # The same profile without TensorBoard: where does one training step go?
    hikeras.utils.profile(model, x, y, batch_size=32, steps=5, print_fn=print)
    try:
        hikeras.utils.plot_history(history, to_file=os.path.join(log_dir, "history.png"))
        hikeras.utils.plot_model(model, to_file=os.path.join(log_dir, "model.png"),
                                 show_shapes=True)
    except ImportError as err:  # the plot extra or Graphviz is missing
        print(err)
    print(f"logs written to {log_dir}: run `tensorboard --logdir {log_dir}`")
    return history


if __name__ == "__main__":
    main(*sys.argv[1:2])
