"""The typing script (tests/typing/api_script.py, checked by mypy --strict and pyright in check.sh)
runs, and each annotated module-level name holds a value of its annotated class."""

import os
import runpy
import typing

import tessera

HERE = os.path.dirname(__file__)


def test_api_script_runs_and_its_annotations_hold():
    path = os.path.join(HERE, "typing", "api_script.py")
    ns = runpy.run_path(path)
    checked = 0
    for name, ann in ns["__annotations__"].items():
        if name not in ns:
            continue
        t = eval(ann, ns) if isinstance(ann, str) else ann
        if isinstance(t, type):
            assert isinstance(ns[name], t), (name, ann, ns[name])
            checked += 1
    assert checked > 60


def test_stub_names_exist():
    # every function the stubs declare is in the native module or the package
    stub = os.path.join(os.path.dirname(tessera.__file__), "_tessera.pyi")
    with open(stub, encoding="utf-8") as f:
        names = {l.split("(")[0][4:] for l in f if l.startswith("def ")}
    missing = [n for n in names if not hasattr(tessera._native, n)]
    assert not missing, missing
    assert typing  # (imported for eval of annotations)
