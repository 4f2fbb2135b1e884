"""A training loop from scratch with `GradientTape`, metrics and a validation pass."""


import hikeras as keras
from hikeras import layers
from hikeras.datasets import digits


def main(small=False):
    keras.utils.set_random_seed(6)
    (x, y), (x_test, y_test) = digits.load_data()
    x = x.reshape(len(x), 64).astype("float32") / 16.0
    x_test = x_test.reshape(len(x_test), 64).astype("float32") / 16.0
    if small:
        x, y = x[:256], y[:256]

    model = keras.Sequential([keras.Input((64,)), layers.Dense(32, activation="relu"),
                              layers.Dense(10)])
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = keras.optimizers.Adam(1e-2)
    train_acc = keras.metrics.SparseCategoricalAccuracy()
    test_acc = keras.metrics.SparseCategoricalAccuracy()
    dataset = keras.data.Dataset.from_tensor_slices((x, y)).shuffle(len(x), seed=0).batch(32)

    for epoch in range(2 if small else 10):
        train_acc.reset_state()
        for x_batch, y_batch in dataset:
            with keras.GradientTape() as tape:
                logits = model(x_batch, training=True)
                loss = loss_fn(y_batch, logits)
            grads = tape.gradient(loss, model.trainable_weights)
            optimizer.apply_gradients(zip(grads, model.trainable_weights))
            train_acc.update_state(y_batch, logits)
        test_acc.reset_state()
        test_acc.update_state(y_test, model(x_test, training=False))
    assert int(optimizer.iterations) == (2 if small else 10) * len(list(dataset))
    assert float(test_acc.result()) > (0.3 if small else 0.9)
    return float(train_acc.result()), float(test_acc.result())


if __name__ == "__main__":
    print("train/test accuracy", main())
