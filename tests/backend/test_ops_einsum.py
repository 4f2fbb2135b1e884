"""The `einsum` op, checked against `np.einsum` (numpy's own C loop)."""

import numpy as np
import pytest

from hikeras.backend import GradientTape, SymbolicTensor, apply
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(11)


def r(*shape):
    return random_array(_TABLE_RNG, *shape)


def _numpy(equation):
    return lambda *operands: np.einsum(equation, *operands)


def _case(equation, *operands, label=None, **options):
    return case("einsum", *operands, attrs={"equation": equation},
                reference=_numpy(equation), label=label or equation, **options)


CASES = [
    # MultiHeadAttention's projections and their gradients' shapes.
    _case("abc,cde->abde", r(2, 3, 4), r(4, 2, 3)),
    _case("abcd,cde->abe", r(2, 3, 2, 3), r(2, 3, 5)),
    _case("abcd,ced->abe", r(2, 3, 2, 3), r(2, 5, 3)),
    # batch letters, contraction, free letters on both sides
    _case("bqhd,bkhd->bhqk", r(2, 3, 2, 4), r(2, 5, 2, 4)),
    # ellipsis, leading and trailing; implicit output
    _case("...c,cd->...d", r(2, 3, 4), r(4, 5)),
    _case("ab...,bc->ac...", r(2, 3, 4), r(3, 5)),
    _case("ab,bc", r(3, 4), r(4, 2)),
    # letters summed in one operand only, outer products, full contraction
    _case("abc,c->a", r(2, 3, 4), r(4)),
    _case("i,j->ij", r(3), r(4)),
    _case("ab,ab->", r(3, 4), r(3, 4)),
    # size-1 broadcasting, single operand, three operands
    _case("ab,ab->ab", r(3, 1), r(3, 4), label="broadcast"),
    _case("ijk->kji", r(2, 3, 4)),
    _case("ij->i", r(3, 4)),
    _case("abc,cd,de->abe", r(2, 3, 4), r(4, 5), r(5, 2)),
    # mixed precision and integers
    case("einsum", r(3, 4), _TABLE_RNG.integers(-3, 3, size=(4, 2)),
         attrs={"equation": "ab,bc->ac"}, reference=_numpy("ab,bc->ac"), label="int-operand"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_einsum_matches_a_hand_written_loop(rng):
    x, w = random_array(rng, 2, 3), random_array(rng, 3, 2, 2)
    expected = np.zeros((2, 2, 2))
    for a in range(2):
        for d in range(2):
            for e in range(2):
                expected[a, d, e] = sum(x[a, c] * w[c, d, e] for c in range(3))
    np.testing.assert_allclose(apply("einsum", x, w, equation="ac,cde->ade"), expected)


def test_gradient_of_a_letter_summed_in_one_operand_is_broadcast():
    x, y = np.ones((2, 3)), np.arange(3.0)
    with GradientTape() as tape:
        tape.watch(x)
        out = apply("einsum", x, y, equation="ab,c->a")  # sum(x, 1) * sum(y)
    grad = tape.gradient(out, x, output_gradients=np.array([1.0, 2.0]))
    np.testing.assert_allclose(grad, [[3.0] * 3, [6.0] * 3])


def test_shape_rule_with_unknown_dimensions():
    spec = apply("einsum", SymbolicTensor((None, 7, 4)), SymbolicTensor((4, 2, 3)),
                 equation="abc,cde->abde")
    assert spec.shape == (None, 7, 2, 3) and spec.dtype == np.float32


@pytest.mark.parametrize("equation, shapes, message", [
    ("ab,bc->ac", [(2, 3)], "names 2 operands"),
    ("ab,bc->ac", [(2, 3), (4, 5)], "letter 'b' has sizes 3 and 4"),
    ("abc,bc->a", [(2, 3), (3, 4)], "rank 2"),
    ("ii->i", [(3, 3)], "repeated"),
    ("ab,bc->ad", [(2, 3), (3, 4)], "output letter"),
    ("a1,bc->ac", [(2, 3), (3, 4)], "letters"),
])
def test_bad_equations_raise_clear_errors(equation, shapes, message):
    with pytest.raises(ValueError, match=message):
        apply("einsum", *[np.ones(s) for s in shapes], equation=equation)
