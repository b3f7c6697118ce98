#!/usr/bin/env python3
"""Runs NVIDIA's pycute unit tests, unmodified, against `tessera.pycute`.

    python tools/pycute_tests/run.py PATH/TO/cutlass/test/python/pycute

The tests are not part of this repository (they are NVIDIA's; read them from the CUTLASS
repository). This script copies the `test_*.py` files of PATH into a temporary directory next to a
`pycute` package whose modules re-export `tessera.pycute` (so `from pycute import *` inside the
tests gets Tessera's), and runs them with unittest. Exit status 0 when every test passes.
"""

import os
import shutil
import sys
import tempfile
import unittest

SHIM = {
    "__init__.py": "from tessera.pycute import *  # noqa: F401,F403\n",
    "int_tuple.py": "from tessera.pycute.int_tuple import *  # noqa: F401,F403\n",
    "layout.py": "from tessera.pycute.layout import *  # noqa: F401,F403\n",
    "swizzle.py": "from tessera.pycute.swizzle import *  # noqa: F401,F403\n",
    "typing.py": "from tessera.pycute.typing import *  # noqa: F401,F403\n",
}


def main() -> int:
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print(__doc__, file=sys.stderr)
        return 2
    src = sys.argv[1]
    tests = sorted(
        f for f in os.listdir(src) if f.startswith("test_") and f.endswith(".py")
    )
    if not tests:
        print(f"no test_*.py in {src}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        for f in tests:
            shutil.copy(os.path.join(src, f), tmp)
        os.mkdir(os.path.join(tmp, "pycute"))
        for name, text in SHIM.items():
            with open(os.path.join(tmp, "pycute", name), "w") as fh:
                fh.write(text)
        sys.path.insert(0, tmp)
        suite = unittest.TestLoader().discover(tmp, "test_*.py")
        result = unittest.TextTestRunner(verbosity=2).run(suite)
        print(
            f"{result.testsRun} tests from {len(tests)} files: "
            f"{len(result.failures)} failures, {len(result.errors)} errors"
        )
        return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
