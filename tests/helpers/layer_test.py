"""`run_layer_test`: `hikeras.testing.check_layer` as hikeras's own layer tests call it.

The checks live in `hikeras/testing/layer_check.py`, public for users' custom
layers; here the `.keras` saving step is off by default, to keep the suite
fast (the file formats have tests of their own).
"""

from hikeras.testing.layer_check import check_layer, construct, fresh

__all__ = ["construct", "fresh", "run_layer_test"]


def run_layer_test(layer_cls, init_kwargs=None, check_saving=False, **options):
    """`check_layer` without the saving step unless asked for."""
    return check_layer(layer_cls, init_kwargs, check_saving=check_saving, **options)
