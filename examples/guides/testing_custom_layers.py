"""Testing your own layer and op with `hikeras.testing`, as hikeras tests its own."""

import numpy as np

import hikeras as keras
from hikeras import ops
from hikeras.testing import check_gradients, check_layer


class RMSScale(keras.Layer):
    """Divides each vector by its root mean square, then scales it by a learned gain."""

    def __init__(self, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.epsilon = epsilon

    def build(self, input_shape):
        self.gain = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="gain")

    def call(self, x):
        rms = ops.sqrt(ops.mean(ops.square(x), axis=-1, keepdims=True) + self.epsilon)
        return x / rms * self.gain

    def get_config(self):
        return {**super().get_config(), "epsilon": self.epsilon}


def softplus_sum(x):
    return ops.sum(ops.log(1.0 + ops.exp(x)))


def main(small=False):
    layer = check_layer(RMSScale, {"epsilon": 1e-5}, input_shape=(4, 6),
                        expected_output_shape=(4, 6), expected_num_trainable_weights=1)
    out = np.asarray(layer(np.full((1, 6), 3.0, "float32")))
    np.testing.assert_allclose(out, np.ones((1, 6)), rtol=1e-5)
    check_gradients(softplus_sum, [np.linspace(-2.0, 2.0, 9)])
    return out


if __name__ == "__main__":
    print(main())
