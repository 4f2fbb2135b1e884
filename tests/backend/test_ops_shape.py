"""Shape manipulation, joining and splitting ops."""

import numpy as np
import pytest

from hikeras.backend import SymbolicTensor, apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(3)


def r(*shape, **kw):
    return random_array(_TABLE_RNG, *shape, **kw)


CASES = [
    case("reshape", r(2, 3, 4), attrs={"shape": (6, 4)}, reference=lambda x: x.reshape(6, 4)),
    case("reshape", r(2, 3, 4), attrs={"shape": (-1, 12)}, label="infer",
         reference=lambda x: x.reshape(-1, 12)),
    case("reshape", r(2, 6), attrs={"shape": (None, 3, 2)}, label="none-means-infer",
         reference=lambda x: x.reshape(-1, 3, 2)),
    case("reshape", r(), attrs={"shape": (1, 1)}, reference=lambda x: x.reshape(1, 1)),
    case("reshape", r(1), attrs={"shape": ()}, reference=lambda x: x.reshape(())),
    case("transpose", r(3, 4), reference=np.transpose),
    case("transpose", r(2, 3, 4), attrs={"axes": (1, 2, 0)},
         reference=lambda x: np.transpose(x, (1, 2, 0))),
    case("transpose", r(2, 3, 4), attrs={"axes": (0, -1, 1)}, label="negative",
         reference=lambda x: np.transpose(x, (0, 2, 1))),
    case("transpose", r(), reference=np.transpose),
    case("expand_dims", r(3, 4), attrs={"axis": 1}, reference=lambda x: x[:, None]),
    case("expand_dims", r(3, 4), attrs={"axis": -1}, reference=lambda x: x[..., None]),
    case("expand_dims", r(3), attrs={"axis": (0, 2)}, reference=lambda x: x[None, :, None]),
    case("expand_dims", r(), attrs={"axis": 0}, reference=lambda x: x[None]),
    case("squeeze", r(3, 1, 4, 1), reference=np.squeeze),
    case("squeeze", r(3, 1, 4, 1), attrs={"axis": 1}, reference=lambda x: x[:, 0]),
    case("squeeze", r(1, 3, 1), attrs={"axis": (0, -1)}, reference=lambda x: x[0, :, 0],
         batch_none=False),
    case("broadcast_to", r(3, 1), attrs={"shape": (2, 3, 4)},
         reference=lambda x: np.broadcast_to(x, (2, 3, 4))),
    case("broadcast_to", r(), attrs={"shape": (2, 3)}, reference=lambda x: np.full((2, 3), x)),
    case("broadcast_to", r(4), attrs={"shape": (4,)}, reference=lambda x: x),
    case("tile", r(2, 3), attrs={"repeats": (2, 3)}, reference=lambda x: np.tile(x, (2, 3))),
    case("tile", r(2, 3), attrs={"repeats": 2}, reference=lambda x: np.tile(x, 2)),
    case("tile", r(3), attrs={"repeats": (2, 1, 2)}, label="promote-x",
         reference=lambda x: np.tile(x, (2, 1, 2))),
    case("tile", r(2, 1, 3), attrs={"repeats": (3, 1)}, label="promote-repeats",
         reference=lambda x: np.tile(x, (3, 1))),
    case("repeat", r(2, 3), attrs={"repeats": 2}, reference=lambda x: np.repeat(x, 2)),
    case("repeat", r(2, 3), attrs={"repeats": 3, "axis": 1},
         reference=lambda x: np.repeat(x, 3, axis=1)),
    case("repeat", r(3, 2), attrs={"repeats": [2, 0, 1], "axis": 0}, label="per-entry",
         reference=lambda x: np.repeat(x, [2, 0, 1], axis=0), batch_none=False),
    case("repeat", r(2, 3), attrs={"repeats": [1, 3, 2], "axis": -1}, label="per-entry-last",
         reference=lambda x: np.repeat(x, [1, 3, 2], axis=-1)),
]

for _mode in ("constant", "edge", "reflect", "symmetric", "wrap"):
    CASES.append(case("pad", r(3, 4), attrs={"pad_width": ((1, 2), (2, 1)), "mode": _mode},
                      reference=lambda x, m=_mode: np.pad(x, ((1, 2), (2, 1)), mode=m),
                      label=_mode))
CASES += [
    case("pad", r(2, 3, 4), attrs={"pad_width": 1}, reference=lambda x: np.pad(x, 1),
         label="int"),
    case("pad", r(2, 3), attrs={"pad_width": ((0, 0), (1, 1)), "constant_values": 2.5},
         reference=lambda x: np.pad(x, ((0, 0), (1, 1)), constant_values=2.5), label="value"),
    case("pad", r(3, 5), attrs={"pad_width": ((4, 5), (0, 0)), "mode": "wrap"},
         reference=lambda x: np.pad(x, ((4, 5), (0, 0)), mode="wrap"), label="wrap-twice"),
]

CASES += [
    case("concatenate", r(2, 3), r(4, 3), reference=lambda a, b: np.concatenate([a, b])),
    case("concatenate", r(2, 3), r(2, 1), r(2, 2), attrs={"axis": -1},
         reference=lambda *xs: np.concatenate(xs, axis=-1)),
    case("concatenate", r(5), reference=lambda a: a, label="single"),
    case("stack", r(3, 4), r(3, 4), reference=lambda a, b: np.stack([a, b])),
    case("stack", r(3), r(3), r(3), attrs={"axis": -1},
         reference=lambda *xs: np.stack(xs, axis=-1)),
    case("stack", r(), r(), reference=lambda a, b: np.stack([a, b]), label="scalars"),
    case("split", r(6, 2), attrs={"indices_or_sections": 3},
         reference=lambda x: tuple(np.split(x, 3))),
    case("split", r(2, 7), attrs={"indices_or_sections": [2, 5], "axis": 1},
         reference=lambda x: tuple(np.split(x, [2, 5], axis=1))),
    case("split", r(4, 5), attrs={"indices_or_sections": [1, -2], "axis": -1},
         reference=lambda x: tuple(np.split(x, [1, -2], axis=-1)), label="negative-index"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def _shape(name, input_shape, **attrs):
    return apply(name, SymbolicTensor(input_shape), **attrs).shape


def test_reshape_rule_with_unknown_dims():
    assert _shape("reshape", (None, 3, 4), shape=(-1, 12)) == (None, 12)
    assert _shape("reshape", (None, 3, 4), shape=(None, 12)) == (None, 12)
    assert _shape("reshape", (2, 3, 4), shape=(-1, 4)) == (6, 4)
    with pytest.raises(ValueError, match="Received"):
        _shape("reshape", (2, 3), shape=(4, 2))
    with pytest.raises(ValueError, match="at most one"):
        _shape("reshape", (2, 3), shape=(-1, -1))


def test_unknown_dims_propagate_through_rules():
    assert _shape("tile", (None, 3), repeats=(2, 2)) == (None, 6)
    assert _shape("pad", (None, 3), pad_width=((1, 1), (0, 2))) == (None, 5)
    assert _shape("repeat", (None, 3), repeats=2) == (None,)
    assert _shape("squeeze", (None, 1, 3)) == (None, 3)
    assert _shape("broadcast_to", (None, 1), shape=(5, 4)) == (5, 4)
    assert [s.shape for s in apply("split", SymbolicTensor((4, None)),
                                   indices_or_sections=2, axis=1)] == [(4, None)] * 2
    assert [s.shape for s in apply("split", SymbolicTensor((None, 3)),
                                   indices_or_sections=[1])] == [(1, 3), (None, 3)]
    out = apply("concatenate", SymbolicTensor((None, 3)), SymbolicTensor((2, 3)))
    assert out.shape == (None, 3)
    out = apply("concatenate", SymbolicTensor((None, 3)), SymbolicTensor((None, 4)), axis=1)
    assert out.shape == (None, 7)


def test_rules_reject_mismatched_shapes():
    with pytest.raises(ValueError, match="Received"):
        apply("concatenate", SymbolicTensor((2, 3)), SymbolicTensor((2, 4)))
    with pytest.raises(ValueError, match="Received"):
        apply("stack", SymbolicTensor((2, 3)), SymbolicTensor((3, 3)))
    with pytest.raises(ValueError, match="Received"):
        _shape("broadcast_to", (3, 2), shape=(3, 4))
    with pytest.raises(ValueError, match="Received"):
        _shape("squeeze", (3, 2), axis=1)
    with pytest.raises(ValueError, match="Received"):
        apply("split", SymbolicTensor((5, 2)), indices_or_sections=2)


def test_pad_rejects_modes_without_gradient():
    with pytest.raises(ValueError, match="Received: mode='mean'"):
        apply("pad", np.zeros((2, 2)), pad_width=1, mode="mean")
