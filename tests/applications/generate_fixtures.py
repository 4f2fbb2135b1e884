"""Records Keras's applications as fixtures for tests/applications (run it with real Keras).

Not part of the test run, and not importable by hikeras's tests. In a separate environment:

    python3 -m venv ~/.venvs/tf && ~/.venvs/tf/bin/pip install tensorflow-cpu tf_keras
    ~/.venvs/tf/bin/python tests/applications/generate_fixtures.py

To re-record some architectures or numeric cases only, keeping the rest of the files:

    ~/.venvs/tf/bin/python tests/applications/generate_fixtures.py structures Xception
    ~/.venvs/tf/bin/python tests/applications/generate_fixtures.py numerics xception_notop_avg

It writes, under tests/applications/fixtures/:

* `keras_structures.json.gz`: for every architecture in `STRUCTURE_CASES` and a
  few argument combinations each, Keras 3's model name, output shape, parameter
  counts and every layer's name, class, weights (path and shape) and parameter
  count.
* `keras_outputs.npz` and `keras_numerics.json`: for `NUMERIC_CASES` (at least
  one per family, small inputs), the model built with `weights=None`, its
  weights set from `seeded_weights.py` (the tests rebuild the same weights and
  images from the same seed), and Keras 3's outputs on those images. Also Keras's
  `preprocess_input` in every mode.
* For the cases in `FILE_CASES` (small models only: the repository stays small),
  the seeded weights as Keras writes them: a tf_keras (Keras 2) `.h5` or a
  Keras 3 `.weights.h5`, loaded by the tests from the file rather than the seed.
  tf_keras's outputs are checked against Keras 3's before the file is kept.

Published weight files are Keras 2 `.h5` files, loaded by topology. To check that
every architecture's Keras files load (not only the small ones kept here), write a
seeded tf_keras `.h5` and Keras 3 `.weights.h5` per architecture, with outputs, outside
the repository (about 2 GB), and point the tests at them:

    ~/.venvs/tf/bin/python tests/applications/generate_fixtures.py full_files /tmp/keras_apps
    HIKERAS_KERAS_APPLICATION_FILES=/tmp/keras_apps \
        python -m pytest tests/applications/test_keras_files.py
"""

import gzip
import json
import os
import sys

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from seeded_weights import seed_model, seeded_images  # noqa: E402

OUT = os.path.join(HERE, "fixtures")

_COMMON = {
    "default": {},
    "notop": {"include_top": False},
    "notop_avg_96": {"include_top": False, "pooling": "avg", "input_shape": [96, 96, 3]},
    "notop_max_75x90": {"include_top": False, "pooling": "max", "input_shape": [75, 90, 3]},
    "top_10_64": {"classes": 10, "input_shape": [64, 64, 3], "classifier_activation": None},
}
# Architectures whose smallest input is 71x71 or 75x75.
_AT_LEAST_75 = {key: value for key, value in _COMMON.items() if key != "top_10_64"}
_AT_LEAST_75["top_10_80"] = {"classes": 10, "input_shape": [80, 80, 3],
                             "classifier_activation": None}
_V3 = {
    "minimalistic": {"minimalistic": True},
    "alpha075_notop": {"alpha": 0.75, "include_top": False},
    "no_preprocessing_5": {"include_preprocessing": False, "dropout_rate": 0.0, "classes": 5},
    "alpha125": {"alpha": 1.25},
}
STRUCTURE_CASES = {
    "VGG16": dict(_COMMON),
    "VGG19": dict(_COMMON),
    "ResNet50": dict(_COMMON),
    "ResNet101": dict(_COMMON),
    "ResNet152": dict(_COMMON),
    "ResNet50V2": dict(_COMMON),
    "ResNet101V2": dict(_COMMON),
    "ResNet152V2": dict(_COMMON),
    "MobileNet": dict(_COMMON, alpha05_dm2_notop={"alpha": 0.5, "depth_multiplier": 2,
                                                  "include_top": False},
                      alpha075_128={"alpha": 0.75, "input_shape": [128, 128, 3]}),
    "MobileNetV2": dict(_COMMON, alpha14_notop_avg={"alpha": 1.4, "include_top": False,
                                                    "pooling": "avg"},
                        alpha035_96={"alpha": 0.35, "input_shape": [96, 96, 3]}),
    "MobileNetV3Small": dict(_COMMON, **_V3),
    "MobileNetV3Large": dict(_COMMON, **_V3),
    "DenseNet121": dict(_COMMON),
    "DenseNet169": dict(_COMMON),
    "DenseNet201": dict(_COMMON),
    "Xception": dict(_AT_LEAST_75),
    "InceptionV3": dict(_AT_LEAST_75),
    "InceptionResNetV2": dict(_AT_LEAST_75),
    "EfficientNetB0": dict(_COMMON),
    **{f"EfficientNetB{i}": {key: _COMMON[key] for key in ("default", "notop_avg_96")}
       for i in range(1, 8)},
    "EfficientNetV2B0": dict(_COMMON, no_preprocessing={"include_preprocessing": False},
                             gray_notop={"include_top": False, "input_shape": [64, 64, 1]}),
    **{f"EfficientNetV2{v}": {key: _COMMON[key] for key in ("default", "notop_avg_96")}
       for v in ("B1", "B2", "B3", "S", "M", "L")},
    "ConvNeXtTiny": dict(_COMMON, no_preprocessing={"include_preprocessing": False}),
    **{f"ConvNeXt{v}": {key: _COMMON[key] for key in ("default", "notop_avg_96")}
       for v in ("Small", "Base", "Large", "XLarge")},
    "NASNetMobile": dict(_COMMON),
    "NASNetLarge": {key: _COMMON[key] for key in ("default", "notop_avg_96")},
}

# name -> (constructor, kwargs, input shape with batch, pixel range of the input)
_UNIT = (-1.0, 1.0)
_PIXELS = (0.0, 255.0)
NUMERIC_CASES = {
    "vgg16_notop_max": ("VGG16", {"include_top": False, "pooling": "max",
                                  "input_shape": [32, 32, 3]}, [2, 32, 32, 3], _UNIT),
    "vgg19_top": ("VGG19", {"classes": 10, "input_shape": [32, 32, 3]}, [2, 32, 32, 3], _UNIT),
    "resnet50_notop_avg": ("ResNet50", {"include_top": False, "pooling": "avg",
                                        "input_shape": [32, 32, 3]}, [2, 32, 32, 3], _UNIT),
    "resnet50v2_top": ("ResNet50V2", {"classes": 7, "input_shape": [32, 32, 3],
                                      "classifier_activation": None}, [2, 32, 32, 3], _UNIT),
    "mobilenet_025_notop": ("MobileNet", {"alpha": 0.25, "include_top": False,
                                          "input_shape": [32, 32, 3]}, [2, 32, 32, 3], _UNIT),
    "mobilenet_05_dm2_top": ("MobileNet", {"alpha": 0.5, "depth_multiplier": 2, "classes": 10,
                                           "input_shape": [48, 40, 3]}, [2, 48, 40, 3], _UNIT),
    "mobilenetv2_035_top": ("MobileNetV2", {"alpha": 0.35, "classes": 10,
                                            "input_shape": [32, 32, 3]}, [2, 32, 32, 3], _UNIT),
    "mobilenetv2_13_notop_avg": ("MobileNetV2", {"alpha": 1.3, "include_top": False,
                                                 "pooling": "avg", "input_shape": [35, 35, 3]},
                                 [2, 35, 35, 3], _UNIT),
    "mobilenetv3small_075_top": ("MobileNetV3Small", {"alpha": 0.75, "classes": 10,
                                                      "input_shape": [32, 32, 3]},
                                 [2, 32, 32, 3], _PIXELS),
    "mobilenetv3small_min_notop": ("MobileNetV3Small", {"minimalistic": True, "alpha": 0.75,
                                                        "include_top": False,
                                                        "input_shape": [32, 32, 3]},
                                   [2, 32, 32, 3], _PIXELS),
    "mobilenetv3large_min_notop_avg": ("MobileNetV3Large", {
        "minimalistic": True, "include_top": False, "pooling": "avg",
        "include_preprocessing": False, "input_shape": [33, 33, 3]}, [2, 33, 33, 3], _UNIT),
    "mobilenetv3large_top": ("MobileNetV3Large", {"classes": 6, "input_shape": [32, 32, 3]},
                             [2, 32, 32, 3], _PIXELS),
    "densenet121_notop_avg": ("DenseNet121", {"include_top": False, "pooling": "avg",
                                              "input_shape": [32, 32, 3]}, [2, 32, 32, 3], _UNIT),
    "densenet169_top": ("DenseNet169", {"classes": 10, "input_shape": [32, 32, 3]},
                        [2, 32, 32, 3], _UNIT),
    "xception_notop_avg": ("Xception", {"include_top": False, "pooling": "avg",
                                        "input_shape": [71, 71, 3]}, [2, 71, 71, 3], _UNIT),
    "inceptionv3_top": ("InceptionV3", {"classes": 10, "input_shape": [75, 75, 3]},
                        [2, 75, 75, 3], _UNIT),
    "inceptionresnetv2_notop_max": ("InceptionResNetV2", {
        "include_top": False, "pooling": "max", "input_shape": [75, 75, 3]}, [2, 75, 75, 3],
        _UNIT),
    "efficientnetb0_top": ("EfficientNetB0", {"classes": 10, "input_shape": [32, 32, 3]},
                           [2, 32, 32, 3], _PIXELS),
    "efficientnetb2_notop_max": ("EfficientNetB2", {"include_top": False, "pooling": "max",
                                                    "input_shape": [33, 35, 3]},
                                 [2, 33, 35, 3], _PIXELS),
    "efficientnetv2b0_top": ("EfficientNetV2B0", {"classes": 10, "input_shape": [32, 32, 3]},
                             [2, 32, 32, 3], _PIXELS),
    "efficientnetv2s_notop_avg": ("EfficientNetV2S", {"include_top": False, "pooling": "avg",
                                                      "input_shape": [32, 32, 3]},
                                  [2, 32, 32, 3], _PIXELS),
    "convnext_tiny_top": ("ConvNeXtTiny", {"classes": 10, "input_shape": [32, 32, 3]},
                          [2, 32, 32, 3], _PIXELS),
    "convnext_small_notop_max": ("ConvNeXtSmall", {"include_top": False, "pooling": "max",
                                                   "input_shape": [32, 32, 3]},
                                 [2, 32, 32, 3], _PIXELS),
    "nasnetmobile_top": ("NASNetMobile", {"classes": 10, "input_shape": [32, 32, 3]},
                         [2, 32, 32, 3], _UNIT),
}
# Cases whose weights are also kept as the files Keras writes: case -> formats. tf_keras
# names MobileNetV3's layers as the published files do (`expanded_conv/depthwise/BatchNorm`).
FILE_CASES = {
    "mobilenet_025_notop": ("tf_keras_h5", "keras3_weights_h5"),
    "mobilenetv3small_min_notop": ("tf_keras_h5",),
}


def _shape(shape):
    return [None if d is None else int(d) for d in shape]


def describe(model):
    layers = []
    for layer in model.layers:
        weights = [[w.path, _shape(w.shape)] for w in layer.weights]
        layers.append([layer.name, type(layer).__name__, weights, int(layer.count_params())])
    trainable = int(sum(np.prod(w.shape) for w in model.trainable_weights))
    total = int(model.count_params())
    return {"name": model.name, "output_shape": _shape(model.output_shape),
            "params": [total, trainable, total - trainable], "layers": layers}


def _selected(table, only):
    """`table` restricted to the names in `only` (all of it when `only` is empty)."""
    unknown = set(only) - set(table)
    if unknown:
        raise SystemExit(f"unknown names: {sorted(unknown)}")
    return {key: value for key, value in table.items() if not only or key in only}


def record_structures(keras, only=()):
    """Keras 3's structures; with `only`, those architectures replace theirs in the kept file."""
    path = os.path.join(OUT, "keras_structures.json.gz")
    structures = {}
    if only and os.path.exists(path):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            structures = json.load(f)
    for arch, cases in _selected(STRUCTURE_CASES, only).items():
        constructor = getattr(keras.applications, arch)
        structures[arch] = {}
        for label, kwargs in cases.items():
            keras.backend.clear_session()
            kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}
            model = constructor(weights=None, **kwargs)
            structures[arch][label] = {"kwargs": cases[label], **describe(model)}
            print(f"structure {arch} {label}: {model.count_params()} params", flush=True)
        keras.backend.clear_session()
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(structures, f, separators=(",", ":"))
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


def record_numerics(keras, only=()):
    """Keras 3's outputs; with `only`, those cases replace theirs in the kept files."""
    import tf_keras

    arrays, cases = {}, {}
    if only:
        with np.load(os.path.join(OUT, "keras_outputs.npz"), allow_pickle=False) as kept:
            arrays = {key: kept[key] for key in kept.files}
        with open(os.path.join(OUT, "keras_numerics.json"), encoding="utf-8") as f:
            cases = json.load(f)["cases"]
    for case, (arch, kwargs, input_shape, (low, high)) in _selected(NUMERIC_CASES, only).items():
        keras.backend.clear_session()
        call_kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}
        model = getattr(keras.applications, arch)(weights=None, **call_kwargs)
        seed_model(model)
        x = seeded_images(input_shape, low, high)
        y = model.predict(x, verbose=0)
        arrays[f"{case}/output"] = y
        cases[case] = {"arch": arch, "kwargs": kwargs, "input_range": [low, high],
                       "output_abs_max": float(np.abs(y).max())}
        formats = FILE_CASES.get(case, ())
        files = []
        if "keras3_weights_h5" in formats:
            files.append(f"{case}.weights.h5")
            model.save_weights(os.path.join(OUT, files[-1]))
        if "tf_keras_h5" in formats:
            tf_model = getattr(tf_keras.applications, arch)(weights=None, **call_kwargs)
            copy_weights_by_topology(model, tf_model)
            np.testing.assert_allclose(tf_model.predict(x, verbose=0), y, rtol=1e-4, atol=1e-5)
            files.append(f"{case}.h5")
            tf_model.save_weights(os.path.join(OUT, files[-1]))
        if files:
            cases[case]["files"] = files
        print(f"numeric {case}: |y| <= {np.abs(y).max():.3g}", flush=True)

    images = seeded_images([2, 5, 4, 3], 0.0, 255.0)
    arrays["preprocess/input"] = images
    for mode in ("caffe", "tf", "torch"):
        for data_format in ("channels_last", "channels_first"):
            x = images if data_format == "channels_last" else np.moveaxis(images, -1, 1).copy()
            out = keras.applications.imagenet_utils.preprocess_input(
                x.copy(), data_format=data_format, mode=mode)
            arrays[f"preprocess/{mode}/{data_format}"] = np.asarray(out)
    np.savez_compressed(os.path.join(OUT, "keras_outputs.npz"), **arrays)
    with open(os.path.join(OUT, "keras_numerics.json"), "w", encoding="utf-8") as f:
        json.dump({"keras_version": keras.__version__, "tf_keras_version": tf_keras.__version__,
                   "cases": cases}, f, indent=1)
        f.write("\n")


# Every architecture without its top (the VGG tops alone hold 120M parameters), small input.
FULL_FILE_KWARGS = {"include_top": False, "pooling": "avg", "input_shape": [32, 32, 3]}
# Architectures whose smallest input is larger than 32x32.
FULL_FILE_SIZES = {"Xception": 71, "InceptionV3": 75, "InceptionResNetV2": 75}
# Architectures that take [0, 255] pixels (they rescale their input themselves).
PIXEL_INPUTS = ("MobileNetV3", "EfficientNet", "ConvNeXt")


def copy_weights_by_topology(source, target):
    """Sets `target`'s layers that have weights to `source`'s, paired in order.

    tf_keras names some layers differently from Keras 3 (MobileNetV3's
    `expanded_conv/depthwise/BatchNorm` is Keras 3's `expanded_conv_depthwise_bn`), as
    do the files Keras publishes; loading by topology ignores names, and so does this.
    """
    sources = [layer for layer in source.layers if layer.get_weights()]
    targets = [layer for layer in target.layers if layer.get_weights()]
    assert len(sources) == len(targets), (len(sources), len(targets))
    for theirs, ours in zip(sources, targets):
        ours.set_weights(theirs.get_weights())
        if hasattr(ours, "finalize_state"):  # Normalization re-reads its statistics
            ours.finalize_state()


def record_full_files(folder, only=()):
    """One seeded Keras 3 `.weights.h5` and one tf_keras `.h5` per architecture in `folder`.

    Keras 3's model gets the seeded weights; tf_keras's model gets the same arrays by
    topology, and its outputs must match Keras 3's (recorded) before its file is kept.
    With `only`, just those architectures (their files added to those in `folder`).
    """
    import keras
    import tf_keras

    os.makedirs(folder, exist_ok=True)
    arrays, cases = {}, {}
    if only and os.path.exists(os.path.join(folder, "cases.json")):
        with np.load(os.path.join(folder, "outputs.npz")) as kept:
            arrays = {key: kept[key] for key in kept.files}
        with open(os.path.join(folder, "cases.json"), encoding="utf-8") as f:
            cases = json.load(f)["cases"]
    for arch in _selected(STRUCTURE_CASES, only):
        pixels = arch.startswith(PIXEL_INPUTS)
        size = FULL_FILE_SIZES.get(arch, 32)
        arch_kwargs = dict(FULL_FILE_KWARGS, input_shape=[size, size, 3])
        kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in arch_kwargs.items()}
        x = seeded_images([2, size, size, 3], *(_PIXELS if pixels else _UNIT))
        keras.backend.clear_session()
        model = getattr(keras.applications, arch)(weights=None, **kwargs)
        seed_model(model)
        arrays[arch] = model.predict(x, verbose=0)
        model.save_weights(os.path.join(folder, f"{arch}.weights.h5"))
        tf_keras.backend.clear_session()
        tf_model = getattr(tf_keras.applications, arch)(weights=None, **kwargs)
        copy_weights_by_topology(model, tf_model)
        np.testing.assert_allclose(tf_model.predict(x, verbose=0), arrays[arch], rtol=1e-4,
                                   atol=1e-5 * max(1.0, float(np.abs(arrays[arch]).max())))
        tf_model.save_weights(os.path.join(folder, f"{arch}.h5"))
        cases[arch] = {"kwargs": arch_kwargs, "files": [f"{arch}.h5", f"{arch}.weights.h5"],
                       "input_range": list(_PIXELS if pixels else _UNIT)}
        print(f"full files {arch}", flush=True)
    np.savez(os.path.join(folder, "outputs.npz"), **arrays)
    with open(os.path.join(folder, "cases.json"), "w", encoding="utf-8") as f:
        json.dump({"keras_version": keras.__version__, "tf_keras_version": tf_keras.__version__,
                   "cases": cases}, f, indent=1)


def main():
    import keras

    if sys.argv[1:2] == ["full_files"]:
        record_full_files(sys.argv[2], tuple(sys.argv[3:]))
        return
    os.makedirs(OUT, exist_ok=True)
    # `numerics` and/or `structures`, optionally followed by the names of the numeric
    # cases or architectures to re-record (the others are kept as they are).
    which = sys.argv[1:2] or ["all"]
    only = tuple(sys.argv[2:])
    if which[0] in ("numerics", "all"):
        record_numerics(keras, only)
    if which[0] in ("structures", "all"):
        record_structures(keras, only)


if __name__ == "__main__":
    main()
