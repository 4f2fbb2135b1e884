"""Structured data with `FeatureSpace`: a dict of raw table columns in, a prediction out.

A made-up table of patients (age, cholesterol, resting heart rate, chest-pain
type, smoker or not, a city, a ward number) and whether each has a heart
condition. `hikeras.utils.FeatureSpace` declares what each column is:

- `age` is cut into 4 bins at its quantiles (`float_discretized`), and
  `cholesterol` is standardised (`float_normalized`);
- `heart_rate` is rescaled by hand (`float_rescaled`);
- `chest_pain` and `smoker` are categories with learned vocabularies
  (`string_categorical`, `integer_categorical`), and their combination is a
  crossed feature (`crosses`): the risk depends on the pair;
- `city` is hashed into 8 bins (`string_hashed`), and `ward` into 4
  (`integer_hashed`), with no vocabulary to learn.

`adapt` learns the bins, statistics and vocabularies from the training
columns. The model is built on the feature space's symbolic inputs, so it
takes the raw dict directly; saved to `.keras` and loaded back, it encodes
and predicts exactly as before (and real Keras can load the file too).

    python examples/structured_data_feature_space.py
"""

import os
import tempfile

import numpy as np

import hikeras
from hikeras import layers
from hikeras.utils import FeatureSpace

PAINS = ["typical", "atypical", "non-anginal", "asymptomatic"]
CITIES = ["leeds", "york", "hull", "bath", "ely", "wells"]


def make_patients(count, rng):
    """`count` patients as a dict of columns, and their 0/1 labels."""
    columns = {
        "age": rng.integers(29, 78, count).astype("float32"),
        "cholesterol": rng.normal(240.0, 45.0, count).astype("float32"),
        "heart_rate": rng.normal(75.0, 12.0, count).astype("float32"),
        "chest_pain": rng.choice(PAINS, count),
        "smoker": rng.integers(0, 2, count).astype("int32"),
        "city": rng.choice(CITIES, count),
        "ward": rng.integers(1, 20, count).astype("int32"),
    }
    risk = (0.06 * (columns["age"] - 50) + 0.02 * (columns["cholesterol"] - 240)
            + 1.5 * ((columns["chest_pain"] == "asymptomatic") & (columns["smoker"] == 1))
            - 1.0 * (columns["chest_pain"] == "non-anginal"))
    return columns, (risk > 0.3).astype("float32")


def build_feature_space():
    return FeatureSpace(
        features={
            "age": FeatureSpace.float_discretized(num_bins=4),
            "cholesterol": FeatureSpace.float_normalized(),
            "heart_rate": FeatureSpace.float_rescaled(scale=1 / 100),
            "chest_pain": FeatureSpace.string_categorical(),
            "smoker": FeatureSpace.integer_categorical(),
            "city": FeatureSpace.string_hashed(num_bins=8),
            "ward": FeatureSpace.integer_hashed(num_bins=4),
        },
        crosses=[FeatureSpace.cross(("chest_pain", "smoker"), crossing_dim=16)],
        output_mode="concat",
    )


def main(epochs=30, count=800, seed=0):
    rng = np.random.default_rng(seed)
    hikeras.utils.set_random_seed(seed)
    columns, labels = make_patients(count, rng)
    split = int(0.8 * count)
    train = {k: v[:split] for k, v in columns.items()}
    test = {k: v[split:] for k, v in columns.items()}

    space = build_feature_space()
    space.adapt(train)
    encoded = space.get_encoded_features()
    print(f"each patient is encoded as {encoded.shape[-1]} numbers")
    x = layers.Dense(16, activation="relu")(encoded)
    x = layers.Dropout(0.2)(x)
    outputs = layers.Dense(1, activation="sigmoid")(x)
    model = hikeras.Model(space.get_inputs(), outputs)
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])

    def as_inputs(table):  # one (n, 1) column per input, as the inputs are declared
        return {k: v[:, None] for k, v in table.items()}

    model.fit(as_inputs(train), labels[:split], batch_size=32, epochs=epochs, verbose=0)
    _, accuracy = model.evaluate(as_inputs(test), labels[split:], verbose=0)
    print(f"test accuracy {accuracy:.3f} after {epochs} epochs")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "patients.keras")
        model.save(path)
        reloaded = hikeras.models.load_model(path)
        reload_same = bool(np.allclose(reloaded.predict(as_inputs(test), verbose=0),
                                       model.predict(as_inputs(test), verbose=0)))
    print(f"reloaded model predicts the same: {reload_same}")

    patient = {"age": 64.0, "cholesterol": 290.0, "heart_rate": 80.0,
               "chest_pain": "asymptomatic", "smoker": 1, "city": "york", "ward": 7}
    one = {k: np.array([[v]]) for k, v in patient.items()}
    print(f"one new patient: {float(model.predict(one, verbose=0)[0, 0]):.2f} probability")
    return accuracy, reload_same


if __name__ == "__main__":
    main()
