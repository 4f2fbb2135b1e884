"""Subclassing `Model`: a variational autoencoder with its own loss in `call`.

The encoder and decoder are layers of the model; the KL term is added with
`add_loss`, so `fit` only needs the reconstruction loss.
"""

import numpy as np

import hikeras as keras
from hikeras import layers, ops
from hikeras.datasets import digits


class Sampling(keras.Layer):
    """Draws `z = mean + sigma * noise` (the reparameterisation trick)."""

    def __init__(self, seed=0, **kwargs):
        super().__init__(**kwargs)
        self.rng = np.random.default_rng(seed)

    def call(self, inputs):
        mean, log_var = inputs
        noise = self.rng.standard_normal(tuple(mean.shape)).astype("float32")
        return mean + ops.exp(0.5 * log_var) * noise


class VAE(keras.Model):
    def __init__(self, latent=2, **kwargs):
        super().__init__(**kwargs)
        self.hidden = layers.Dense(32, activation="relu")
        self.mean = layers.Dense(latent)
        self.log_var = layers.Dense(latent)
        self.sample = Sampling()
        self.decode_hidden = layers.Dense(32, activation="relu")
        self.decode_out = layers.Dense(64, activation="sigmoid")

    def call(self, inputs):
        h = self.hidden(inputs)
        mean, log_var = self.mean(h), self.log_var(h)
        kl = -0.5 * ops.mean(ops.sum(1 + log_var - ops.square(mean) - ops.exp(log_var), axis=1))
        self.add_loss(0.01 * kl)
        return self.decode_out(self.decode_hidden(self.sample([mean, log_var])))


def main(small=False):
    keras.utils.set_random_seed(3)
    (x, _), _ = digits.load_data()
    x = x.reshape(len(x), 64).astype("float32") / 16.0
    if small:
        x = x[:256]
    vae = VAE()
    vae.compile("adam", "binary_crossentropy")
    history = vae.fit(x, x, epochs=3 if small else 30, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert len(vae.losses) == 1  # the KL term of the latest call
    assert vae.predict(x[:3], verbose=0).shape == (3, 64)
    return history.history["loss"][-1]


if __name__ == "__main__":
    print("final loss", main())
