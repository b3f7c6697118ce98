#!/usr/bin/env bash
# Builds the Python package into a fresh virtual environment and runs its pytest suite
# (part of the README's test command, so .ci/run covers it on a fresh machine).
#  1. makes a venv in target/py-venv (installs Debian's python3-venv if `python3 -m venv` fails);
#  2. `pip install ./crates/tessera-py` (maturin comes from PyPI as the build backend; the
#     extension is built with this crate's release profile: thin LTO, no fat LTO);
#  3. installs pytest and IPython (tests/notebook.py executes the example notebook with it) and
#     runs the suite;
#  4. checks the formatting of the package and its tests with `black --check` (pinned: a
#     formatter's output changes between versions), the package's own code with `mypy --strict`,
#     and the typing script (tests/typing/api_script.py) with `mypy --strict` and `pyright`
#     (pyright runs on Node.js: Debian's `nodejs` is installed if `node` is missing; pyright's own
#     package comes from npm on its first run, then from its cache);
#  5. with TESSERA_PYCUTE_TESTS=DIR, the suite also runs NVIDIA's pycute tests from DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
start=$(date +%s)
venv="$root/target/py-venv"
py=${PYTHON:-python3}

rm -rf "$venv"
if ! "$py" -m venv "$venv" >/dev/null 2>&1; then
  echo "check.sh: python3 -m venv failed, installing Debian's python3-venv" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends python3-venv python3-pip >/dev/null
  rm -rf "$venv"
  "$py" -m venv "$venv"
fi
export CARGO_TARGET_DIR="$root/target/py"
"$venv/bin/python" -m pip install -q --upgrade pip >/dev/null
"$venv/bin/python" -m pip install -q "$root/crates/tessera-py" pytest ipython mypy==2.4.1 pyright black==26.10.1
echo "check.sh: installed in $(( $(date +%s) - start ))s"
cd "$root/crates/tessera-py"
"$venv/bin/python" -m pytest -q tests
# Formatting, then the package's own code under mypy --strict.
"$venv/bin/python" -m black --check -q python tests
"$venv/bin/python" -m mypy --strict --no-incremental python/tessera
# The typing script: mypy --strict and pyright (strict: the script says so) find no error.
"$venv/bin/python" -m mypy --strict --no-incremental tests/typing/api_script.py
if ! command -v node >/dev/null 2>&1; then
  echo "check.sh: installing Debian's nodejs for pyright" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
"$venv/bin/pyright" --pythonpath "$venv/bin/python" tests/typing/api_script.py
echo "check.sh: Python package OK in $(( $(date +%s) - start ))s"
