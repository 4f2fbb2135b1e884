"""Records real Keras's answers to `graph_api_scenarios.py` in `keras_graph_api.json`.

Run in an environment with Keras 3.15 on TensorFlow, from the repository root:

    KERAS_BACKEND=tensorflow TF_CPP_MIN_LOG_LEVEL=3 python tests/scopes/keras_graph_api.py
"""

import importlib.util
import json
import pathlib

import keras

HERE = pathlib.Path(__file__).resolve().parent

spec = importlib.util.spec_from_file_location("scenarios", HERE / "graph_api_scenarios.py")
scenarios = importlib.util.module_from_spec(spec)
spec.loader.exec_module(scenarios)

results = {name: fn(keras) for name, fn in scenarios.SCENARIOS.items()}
results["keras_version"] = keras.__version__
(HERE / "keras_graph_api.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
print(json.dumps(results, indent=1, sort_keys=True))
