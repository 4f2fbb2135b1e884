"""Every registered op must have a case in some `tests/backend/test_ops_*.py` table.

The covered set is read from the modules' `CASES` tables (not from which
tests happened to run), so the check holds whatever the test order or
selection.

Ops fall in two categories, each with its own harness:

* ordinary ops (`OpCase`, `check_op`): values against a reference,
  gradients against finite differences for differentiable ones, shape rules;
* update ops, declared with `mutates=(...)` (`UpdateCase`,
  `check_update_op`): optimizer steps and metric accumulations that write
  into their inputs. They are never differentiated, so they have no
  gradient check; their harness checks the values written, in place,
  against a plain-numpy reference instead.
"""

import pathlib

from hikeras.backend import get_backend
from tests.helpers.check_op import OpCase, load_cases
from tests.helpers.check_update_op import UpdateCase

CASES = load_cases(pathlib.Path(__file__).parent)
COVERED = {c.name for c in CASES}


def test_every_registered_op_has_a_test_case():
    missing = sorted(set(get_backend().ops.names()) - COVERED)
    assert not missing, f"ops without a case in tests/backend/test_ops_*.py: {missing}"


def test_no_case_names_an_unregistered_op():
    unknown = sorted(COVERED - set(get_backend().ops.names()))
    assert not unknown, f"cases for ops that are not registered: {unknown}"


def test_every_differentiable_op_has_a_vjp():
    assert get_backend().ops.missing_vjps() == []


def test_update_ops_are_checked_by_the_update_harness():
    update_ops = set(get_backend().ops.update_ops())
    as_ordinary = sorted({c.name for c in CASES if isinstance(c, OpCase)} & update_ops)
    assert not as_ordinary, f"update ops need UpdateCases, not OpCases: {as_ordinary}"
    not_updates = sorted({c.name for c in CASES if isinstance(c, UpdateCase)} - update_ops)
    assert not not_updates, f"UpdateCases for ops that declare no `mutates`: {not_updates}"
    assert all(isinstance(c, (OpCase, UpdateCase)) for c in CASES)
