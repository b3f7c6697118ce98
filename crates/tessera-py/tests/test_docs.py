"""The documentation runs: the README's Python examples and every docstring example of the package
are doctests."""

import doctest
import inspect
import os
import re

import pytest

import tessera
import tessera.errors
import tessera.pycute.int_tuple
import tessera.triton
from conftest import ROOT


def run(test):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_readme_python_examples():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    # "From Python" up to "Triton and Gluon" (test_triton.py runs that section's).
    section = text[text.index("## From Python") : text.index("## Triton and Gluon")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) >= 3
    cwd = os.getcwd()
    os.chdir(ROOT)  # the examples read examples/schedules/...
    try:
        parser = doctest.DocTestParser()
        for i, b in enumerate(blocks):
            r = run(
                parser.get_doctest(b, {"tessera": tessera}, f"README-python-{i}", "README.md", 0)
            )
            assert r.failed == 0 and r.attempted > 0, f"README Python block {i}"
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize(
    "module", [tessera, tessera.errors, tessera.triton, tessera.pycute.int_tuple]
)
def test_docstring_examples(module):
    finder = doctest.DocTestFinder()
    tests = [t for t in finder.find(module, module.__name__) if t.examples]
    assert tests or module is tessera.pycute.int_tuple
    for t in tests:
        r = run(t)
        assert r.failed == 0, t.name


def public_functions():
    for name in tessera.__all__:
        obj = getattr(tessera, name)
        if inspect.isroutine(obj) and not name.startswith("_"):
            yield name, obj


def test_every_public_function_has_pre_post_and_an_example():
    missing = []
    for name, f in public_functions():
        doc = f.__doc__ or ""
        if not ("Pre:" in doc and "Post:" in doc and ">>>" in doc):
            missing.append(name)
    assert not missing, f"no Pre/Post/example docstring: {missing}"


def test_native_docstring_examples():
    # the natives' examples (hand-written bindings and registry rows) run as doctests
    parser = doctest.DocTestParser()
    ran = 0
    for name, f in public_functions():
        doc = f.__doc__ or ""
        if ">>>" not in doc or getattr(f, "__module__", "") not in ("tessera._tessera", None):
            continue
        t = parser.get_doctest(doc, {"tessera": tessera}, f"tessera.{name}", None, 0)
        r = run(t)
        assert r.failed == 0, name
        ran += 1
    assert ran >= 40
