"""examples/preprocessing_layers.py: models that carry their own preprocessing learn and reload."""

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "preprocessing_layers.py"


def _load():
    spec = importlib.util.spec_from_file_location("preprocessing_layers", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_both_models_learn_and_the_text_model_reloads_with_its_vocabulary(capsys):
    text_accuracy, reload_same, image_accuracy = _load().main(text_epochs=10, image_epochs=5)
    assert text_accuracy >= 0.95  # one sentiment word decides each review
    assert reload_same
    assert image_accuracy >= 0.7  # chance is 0.1
    assert "vocabulary of 22" in capsys.readouterr().out  # 20 words, padding and [UNK]


def test_reviews_hold_exactly_one_sentiment_word_that_sets_the_label():
    module = _load()
    reviews, labels = module.make_reviews(50, np.random.default_rng(0))
    assert reviews.shape == (50, module.LENGTH)
    for words, label in zip(reviews, labels):
        sentiment = [w for w in words if w in module.POSITIVE + module.NEGATIVE]
        assert len(sentiment) == 1 and (sentiment[0] in module.POSITIVE) == bool(label)
