"""Iteration-domain schedules and TMA requests from Python."""

import os
import subprocess
import sys

import pytest

import tessera
from conftest import ROOT

FIG2 = os.path.join(ROOT, "examples", "schedules", "figure2_three_indivisible_splits.tsch")


def test_figure2():
    s = tessera.Schedule.load(FIG2)
    assert s.counts() == (32, 15, 17)
    assert s.predicate() == ["I0", "I2"]
    assert s.predicate_text() == "I0 < 15 ∧ I2 < 6"
    assert "holes" in s.report()


def test_emitted_python_visits_each_valid_index_once():
    s = tessera.Schedule.load(FIG2)
    out = subprocess.run([sys.executable, "-c", s.code("python")], capture_output=True, text=True)
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


def test_ragged_gemm_m1000():
    r = tessera.ragged("zipped_divide((1000,4096):(4096,1),(128,64))", names=["m", "k"])
    assert r["layout"] == "((128,64),(8,64)):((4096,1),(524288,64))"
    assert (r["points"], r["valid"], r["holes"]) == (
        1024 * 4096,
        1000 * 4096,
        24 * 4096,
    )
    assert r["predicate"] == ["m < 1000"]
    assert r["minimal_checked"]
    assert r["tma"]["zero_filled"] == 24 * 4096
    assert r["tma"]["strong_sum"] and not r["tma"]["strong_max"]
    t = tessera.ragged("local_tile((1000,4096):(4096,1),(128,64),(7,0))")
    assert t["slice"]["extents"] == [(104, 128), (64, 64)]
    assert t["slice"]["holes"] == 24 * 64


def test_ragged_predicate_code_runs():
    r = tessera.ragged("logical_divide((3,5):(5,1),2:1)")
    assert r["layout"] is None and r["holes"] == 1 and r["predicate"] == ["n < 5"]
    out = subprocess.run([sys.executable, "-c", r["python"]], capture_output=True, text=True)
    assert out.returncode == 0
    assert out.stdout.count("T[") == 15


def test_bank_conflicts():
    # a row-major 64x64 f16 tile read by ldmatrix.x4 along K: conflicts without a swizzle
    plain = tessera.bank_conflicts("(64,64):(64,1)", "f16", atom="ldmatrix.x4", major="k")
    swz = tessera.bank_conflicts(
        "Sw<3,3,3> o 0 o (64,64):(64,1)", "f16", atom="ldmatrix.x4", major="k"
    )
    assert plain.wavefronts >= plain.ideal and swz.wavefronts >= swz.ideal
    assert swz.conflict_factor <= plain.conflict_factor
    assert swz.conflict_factor == 1.0
    assert '"wavefronts"' in plain.json()
    assert plain._repr_svg_().startswith("<svg")
    # layout objects work as well as text
    same = tessera.bank_conflicts(
        tessera.Layout("(64,64):(64,1)"), "f16", atom="ldmatrix.x4", major="k"
    )
    assert same.wavefronts == plain.wavefronts
    with pytest.raises(tessera.BankError):
        tessera.bank_conflicts("(64,64):(64,1)", "f16")
