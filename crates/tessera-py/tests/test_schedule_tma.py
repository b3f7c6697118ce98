"""Iteration-domain schedules and TMA requests from Python."""

import os
import subprocess
import sys

import pytest

import tessera
from conftest import ROOT

FIG2 = os.path.join(
    ROOT, "examples", "schedules", "figure2_three_indivisible_splits.tsch"
)


def test_figure2():
    s = tessera.Schedule.load(FIG2)
    assert s.counts() == (32, 15, 17)
    assert s.predicate() == ["I0", "I2"]
    assert s.predicate_text() == "I0 < 15 ∧ I2 < 6"
    assert "holes" in s.report()


def test_emitted_python_visits_each_valid_index_once():
    s = tessera.Schedule.load(FIG2)
    out = subprocess.run(
        [sys.executable, "-c", s.code("python")], capture_output=True, text=True
    )
    seen = [int(x) for x in out.stdout.split()]
    assert sorted(seen) == list(range(15))
    assert "for" in s.code("cuda")


def test_schedule_from_text_and_errors():
    text = open(FIG2).read()
    assert tessera.Schedule(text).counts() == (32, 15, 17)
    with pytest.raises(tessera.DomainError) as ei:
        tessera.Schedule("iter I0 6\nsplit I0 by 0 -> I1 I2\n")
    assert ei.value.code


def test_tma():
    r = tessera.tma_check("f16", [4096, 4096], [128, 128], "128B")
    assert not r.valid and r.errors() == ["tma_swizzle_span"]
    code, severity, message, suggestions = r.findings()[0]
    assert severity == "error" and "swizzle span" in message
    assert suggestions and suggestions[0][1] is True
    assert tessera.tma_check("f16", [4096, 4096], [128, 64], "128B").valid
    with pytest.raises(tessera.Error):
        tessera.tma_check("f17", [8], [8])
