"""Notebook display: layouts, schedules and TMA reports render as pictures in Jupyter."""

import os
import xml.etree.ElementTree as ET

import pytest

import tessera
import tessera.pycute as tp
from conftest import ROOT

FIG2 = os.path.join(ROOT, "examples", "schedules", "figure2_three_indivisible_splits.tsch")


def parse_svg(text):
    root = ET.fromstring(text)
    assert root.tag.endswith("svg")
    return root


def test_layout_svg_is_well_formed():
    for obj in (
        tessera.Layout("((2,4),(2,4)):((1,4),(2,16))"),
        tp.Layout((4, 8), (8, 1)),
    ):
        root = parse_svg(obj._repr_svg_())
        # scales down to the cell, keeping its proportions
        assert "max-width:100%" in root.get("style") and root.get("viewBox")
    # a layout too large to draw has no picture (Jupyter falls back to the text)
    assert tessera.Layout("(1024,1024):(1,1024)")._repr_svg_() is None


def test_schedule_and_tma_display():
    s = tessera.Schedule.load(FIG2)
    # a fragment for the cell: no page, no <style> restyling the notebook, pictures that fit
    html = s._repr_html_()
    assert html.startswith("<div") and html.count("<svg") == 3
    assert "<style" not in html and "<body" not in html and "<html" not in html
    assert html.count('style="max-width:100%;height:auto"') == 3
    assert s.html().startswith("<!DOCTYPE html>")  # the standalone page stays a page
    for kind in ("dag", "space", "alloc"):
        parse_svg(s.svg(kind))
    r = tessera.tma_check("f32", [6, 12], [4, 4])
    parse_svg(r._repr_svg_())


def test_ipython_display_formatter():
    """The objects go through IPython's own display machinery (skipped without IPython)."""
    IPython = pytest.importorskip("IPython")
    from IPython.core.formatters import DisplayFormatter

    fmt = DisplayFormatter()
    data, _ = fmt.format(tessera.Layout("(2,(2,2)):(4,(2,1))"))
    assert "image/svg+xml" in data and data["text/plain"] == "Layout('(2,(2,2)):(4,(2,1))')"
    data, _ = fmt.format(tessera.Schedule.load(FIG2))
    assert "text/html" in data
    assert IPython is not None
