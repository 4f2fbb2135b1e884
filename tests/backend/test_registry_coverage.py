"""Every registered op must have a case in some `tests/backend/test_ops_*.py` table.

The covered set is read from the modules' `CASES` tables (not from which
tests happened to run), so the check holds whatever the test order or
selection.
"""

import pathlib

from hikeras.backend import get_backend
from tests.helpers.check_op import load_cases

COVERED = {c.name for c in load_cases(pathlib.Path(__file__).parent)}


def test_every_registered_op_has_a_test_case():
    missing = sorted(set(get_backend().ops.names()) - COVERED)
    assert not missing, f"ops without a case in tests/backend/test_ops_*.py: {missing}"


def test_no_case_names_an_unregistered_op():
    unknown = sorted(COVERED - set(get_backend().ops.names()))
    assert not unknown, f"cases for ops that are not registered: {unknown}"


def test_every_differentiable_op_has_a_vjp():
    assert get_backend().ops.missing_vjps() == []
