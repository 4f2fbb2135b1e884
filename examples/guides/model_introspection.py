"""Looking inside a model: summary, layers by name, weights, configs and build configs."""

import io

import numpy as np

import hikeras as keras
from hikeras import layers


def main(small=False):
    keras.utils.set_random_seed(27)
    inner = keras.Sequential([keras.Input((4,)), layers.Dense(3, name="inner_dense")],
                             name="inner")
    inputs = keras.Input((4,), name="features")
    outputs = layers.Dense(2, name="head")(inner(inputs))
    model = keras.Model(inputs, outputs, name="outer")

    lines = io.StringIO()
    model.summary(print_fn=lambda line, **kwargs: lines.write(line + "\n"),
                  expand_nested=True, show_trainable=True)
    text = lines.getvalue()
    assert "inner_dense" in text and "Total params: 23" in text

    assert model.get_layer("head").units == 2
    assert model.get_layer(index=1) is inner
    assert model.count_params() == 4 * 3 + 3 + 3 * 2 + 2
    assert [w.path for w in model.get_layer("head").weights] == ["head/kernel", "head/bias"]

    inner.trainable = False
    assert len(model.trainable_weights) == 2 and len(model.non_trainable_weights) == 2

    head = model.get_layer("head")
    assert head.get_build_config() == {"input_shape": (None, 3)}
    twin = layers.Dense.from_config(head.get_config())
    twin.build_from_config(head.get_build_config())
    twin.set_weights(head.get_weights())
    probe = np.ones((1, 3), "float32")
    np.testing.assert_allclose(twin(probe), head(probe))
    compile_config = None
    model.compile("adam", "mse")
    compile_config = model.get_compile_config()
    assert compile_config is not None
    return text


if __name__ == "__main__":
    print(main())
