"""The example notebook (examples/notebooks/tessera.ipynb) executes and shows what it stores:
every cell's text, pictures and HTML byte for byte, every picture a fragment that fits the cell."""

import json
import os
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT
from notebook import run_cells, stored

NB = os.path.join(ROOT, "examples", "notebooks", "tessera.ipynb")


def test_notebook_executes_with_its_stored_outputs():
    pytest.importorskip("IPython")
    with open(NB, encoding="utf-8") as f:
        nb = json.load(f)
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    got = run_cells(nb["cells"], ROOT)
    assert len(got) == len(code) >= 6
    pictures = 0
    for i, (cell, outs) in enumerate(zip(code, got)):
        assert outs == stored(cell), f"cell {i + 1}: {''.join(cell['source'])[:60]}"
        for o in outs:
            data = o.get("data", {})
            if "image/svg+xml" in data:
                svg = data["image/svg+xml"]
                root = ET.fromstring(svg)
                assert root.get("viewBox") and "max-width:100%" in root.get("style", "")
                pictures += 1
            if "text/html" in data:
                html = data["text/html"]
                assert html.startswith("<div") and "<style" not in html and "<body" not in html
    assert pictures >= 3
