"""Build shim: lists hikeras' packages, including the remapped backend.

Static configuration lives in pyproject.toml. setuptools' `find` cannot give
the packages under `backend/` the `hikeras.backend` prefix, so this file walks
both trees and names every directory holding an `__init__.py`.
"""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
# import name of a tree -> its directory, mirroring package-dir in pyproject.toml
TREES = {"hikeras": "hikeras", "hikeras.backend": "backend"}


def _packages():
    found = []
    for name, directory in TREES.items():
        base = ROOT / directory
        for init in sorted(base.rglob("__init__.py")):
            rel = init.parent.relative_to(base)
            if "__pycache__" in rel.parts:
                continue
            found.append(".".join((name, *rel.parts)) if rel.parts else name)
    # a subpackage is only importable if every parent is a package too
    listed = set(found)
    return sorted(p for p in listed if _parents_listed(p, listed))


def _parents_listed(package, listed):
    parts = package.split(".")
    return all(".".join(parts[:i]) in listed for i in range(1, len(parts)))


setup(packages=_packages())
