"""Records real Keras's symbolic output specs for every case in `symbolic_cases.py`.

Run in an environment with Keras 3.15 on TensorFlow, from the repository root:

    KERAS_BACKEND=tensorflow TF_CPP_MIN_LOG_LEVEL=3 \\
        python tests/layers/keras_symbolic_shapes.py

It loads `symbolic_cases.py` with `keras.layers` standing in for `hikeras.layers`
(the cases use only names the two share), calls each layer on `keras.Input`s with
the same unknown dimensions, and writes `keras_symbolic_shapes.json`: per layer,
the output shapes (`null` for unknown) and dtypes, or why Keras could not build it.
`test_symbolic_calls.py` compares hikeras's specs with these.
"""

import importlib.util
import json
import pathlib
import sys
import types

import keras

HERE = pathlib.Path(__file__).resolve().parent


def load_cases():
    stand_in = types.ModuleType("hikeras")
    stand_in.layers = keras.layers
    sys.modules["hikeras"] = stand_in
    spec = importlib.util.spec_from_file_location("symbolic_cases", HERE / "symbolic_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


def record(entry):
    inputs = [keras.Input(shape, dtype=entry.dtype) for shape in entry.input_shapes]
    outputs = keras.tree.flatten(entry.call(entry.make(), inputs))
    return {"shapes": [list(o.shape) for o in outputs],
            "dtypes": [keras.backend.standardize_dtype(o.dtype) for o in outputs]}


def main():
    results = {}
    for name, entry in sorted(load_cases().items()):
        try:
            results[name] = record(entry)
        except Exception as error:  # noqa: BLE001  (recorded: Keras lacks it or refuses it)
            results[name] = {"error": f"{type(error).__name__}: {error}"[:300]}
    path = HERE / "keras_symbolic_shapes.json"
    path.write_text(json.dumps({"keras_version": keras.__version__, "layers": results},
                               indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
