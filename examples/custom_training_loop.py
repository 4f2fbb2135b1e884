"""A custom training loop: GradientTape, an optimizer, metrics, and a gradient mask.

The loop follows the classic Keras guide ("writing a training loop from
scratch"): for each batch, record the forward pass on a tape, take the
gradients of the loss, apply them, update the metrics; reset the metrics at
the end of each epoch. A gradient mask freezes half of the first layer's
units (partial fine-tuning) without touching the model.

Run: python examples/custom_training_loop.py
"""

import numpy as np

import hikeras
from hikeras import layers, ops


def main(epochs=8, batch_size=32):
    hikeras.utils.set_random_seed(0)
    (x_train, y_train), (x_test, y_test) = hikeras.datasets.digits.load_data()
    x_train = x_train.reshape(len(x_train), -1).astype("float32") / 16.0
    x_test = x_test.reshape(len(x_test), -1).astype("float32") / 16.0

    model = hikeras.Sequential([
        hikeras.Input((64,)),
        layers.Dense(32, activation="relu"),
        layers.Dense(10),
    ])
    loss_fn = hikeras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = hikeras.optimizers.Adam(
        learning_rate=hikeras.optimizers.schedules.CosineDecay(0.01, decay_steps=400))
    train_accuracy = hikeras.metrics.SparseCategoricalAccuracy()
    test_accuracy = hikeras.metrics.SparseCategoricalAccuracy()
    train_loss = hikeras.metrics.Mean(name="loss")

    # Only the first 16 units of the first layer (and the output layer) learn.
    mask = np.zeros((64, 32), "float32")
    mask[:, :16] = 1.0
    masks = [mask, mask[0], None, None]

    rng = np.random.default_rng(0)
    for epoch in range(epochs):
        order = rng.permutation(len(x_train))
        for start in range(0, len(order), batch_size):
            index = order[start:start + batch_size]
            x, y = x_train[index], y_train[index]
            with hikeras.GradientTape() as tape:
                logits = model(x, training=True)
                loss = loss_fn(y, logits)
            grads = tape.gradient(loss, model.trainable_weights)
            grads = [g if m is None else g * m for g, m in zip(grads, masks)]
            optimizer.apply_gradients(zip(grads, model.trainable_weights))
            train_loss.update_state(ops.convert_to_numpy(loss), sample_weight=len(index))
            train_accuracy.update_state(y, logits)
        test_accuracy.update_state(y_test, model(x_test))
        print(f"epoch {epoch + 1}: loss {float(train_loss.result()):.4f}  "
              f"accuracy {float(train_accuracy.result()):.4f}  "
              f"test accuracy {float(test_accuracy.result()):.4f}")
        for metric in (train_loss, train_accuracy, test_accuracy):
            metric.reset_state()
    return float(np.mean(np.argmax(model.predict(x_test, verbose=0), axis=1) == y_test))


if __name__ == "__main__":
    main()
