"""examples/physics_informed.py: third-order nesting of tapes solves the ODE."""

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "physics_informed.py"


def test_the_network_learns_the_exact_solution():
    spec = importlib.util.spec_from_file_location("physics_informed", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # The untrained network is off by about 1; the exact solution is sin(pi x).
    # 1,200 steps: after 800, some seeds were still near 0.01 (0.0089, 0.0099), so
    # last-bit differences in the run could tip the check; after 1,200 every seed
    # tried was below 0.0003.
    assert module.main(steps=1200, verbose=False) < 0.01
