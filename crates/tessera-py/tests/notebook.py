"""A small notebook executor (no Jupyter server, no kernel): runs the code cells of an .ipynb in one
namespace, as IPython would, and gives each cell's outputs in the notebook's JSON form (streams, and
the last expression's display data through IPython's own formatter). `tests/test_notebook.py`
compares them with the outputs stored in the notebook; `python tests/notebook.py --write NB`
stores them.

Pre: the cells are plain Python (no magics). Post: deterministic outputs for deterministic cells.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import sys
from typing import Any, Dict, List


def _display(value: Any) -> Dict[str, Any]:
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(value)
    return {"output_type": "execute_result", "data": data, "metadata": {}}


def run_cells(cells: List[Dict[str, Any]], cwd: str) -> List[List[Dict[str, Any]]]:
    """The outputs of each code cell, executed in order in one namespace, in `cwd`."""
    import os

    ns: Dict[str, Any] = {"__name__": "__main__"}
    out: List[List[Dict[str, Any]]] = []
    old = os.getcwd()
    os.chdir(cwd)
    try:
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            src = "".join(cell["source"])
            tree = ast.parse(src)
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                last = ast.Expression(tree.body.pop().value)
            buf = io.StringIO()
            outputs: List[Dict[str, Any]] = []
            with contextlib.redirect_stdout(buf):
                exec(compile(tree, "<cell>", "exec"), ns)
                value = eval(compile(last, "<cell>", "eval"), ns) if last is not None else None
            if buf.getvalue():
                outputs.append({"output_type": "stream", "name": "stdout", "text": buf.getvalue()})
            if value is not None:
                outputs.append(_display(value))
            out.append(outputs)
    finally:
        os.chdir(old)
    return out


def _split(text: str) -> List[str]:
    return text.splitlines(keepends=True)


def stored(cell: Dict[str, Any]) -> List[Dict[str, Any]]:
    """A cell's stored outputs with multi-line strings joined (the notebook stores line lists)."""
    res = []
    for o in cell.get("outputs", []):
        o = dict(o)
        o.pop("execution_count", None)
        if "text" in o:
            o["text"] = "".join(o["text"])
        if "data" in o:
            o["data"] = {k: "".join(v) if isinstance(v, list) else v for k, v in o["data"].items()}
        res.append(o)
    return res


def write(path: str, cwd: str) -> None:
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    for n, (cell, outs) in enumerate(zip(code, run_cells(nb["cells"], cwd)), 1):
        cell["execution_count"] = n
        for o in outs:
            if o["output_type"] == "execute_result":
                o["execution_count"] = n
                o["data"] = {k: _split(v) for k, v in o["data"].items()}
            else:
                o["text"] = _split(o["text"])
        cell["outputs"] = outs
    with open(path, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    import os

    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    if sys.argv[1:2] == ["--write"]:
        write(sys.argv[2], root)
    else:
        sys.exit("usage: notebook.py --write NOTEBOOK")
