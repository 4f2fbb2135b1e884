"""The training loop: compile/fit/evaluate/predict and their helpers."""
