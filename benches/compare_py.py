#!/usr/bin/env python3
"""Times `tessera.pycute` (the Python package) on the benchmark corpus, for `compare.py`.

    python benches/compare_py.py CORPUS OUT.json [--py-target-ms 8]

Run with a Python where `tessera` is installed (`compare.py` builds one in tools/.cache/pyvenv).
Writes, per case, [ns/op or null, result text] with the same timing loop as compare.py's pycute
column, and the vectorised entry point `tessera.apply_many` over the whole corpus (ns/expression,
best of 5, arguments native, all cores).
"""

import json
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import parse_value, read_corpus  # noqa: E402

import tessera  # noqa: E402
import tessera.pycute as tp  # noqa: E402


def to_tp(v):
    if isinstance(v, int):
        return v
    if v[0] == "L":
        return tp.Layout(v[1], v[2])
    return tuple(to_tp(x) for x in v[1])


def text(r):
    return re.sub(r"\s", "", str(r)).replace(",)", ")")


def main():
    corpus, out = sys.argv[1], sys.argv[2]
    target_s = float(sys.argv[4]) / 1000 if len(sys.argv) > 4 else 0.008
    cases = read_corpus(corpus)
    res = []
    calls = []
    for c in cases:
        fn = getattr(tp, c["op"])
        args = [to_tp(parse_value(a)) for a in c["args"]]
        calls.append((c["op"], tuple(args)))
        try:
            r = fn(*args)
        except tessera.Error as e:
            res.append((None, type(e).__name__))
            continue
        n = 1
        while True:
            t = time.perf_counter()
            for _ in range(n):
                fn(*args)
            if time.perf_counter() - t >= target_s / 4:
                break
            n *= 2
        n *= 4
        runs = []
        for _ in range(3):
            t = time.perf_counter()
            for _ in range(n):
                fn(*args)
            runs.append((time.perf_counter() - t) / n * 1e9)
        res.append((statistics.median(runs), text(r)))
    # The vectorised entry point over the whole corpus, repeated to about 20,000 calls.
    reps = max(1, 20_000 // len(calls))
    many = calls * reps
    best = None
    for _ in range(5):
        t = time.perf_counter()
        outs = tessera.apply_many(many)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    errors = sum(1 for o in outs if isinstance(o, tessera.Error))
    same = sum(
        1
        for o, r in zip(outs, res)
        if r[0] is not None and not isinstance(o, tessera.Error) and text(o) == r[1]
    )
    with open(out, "w") as f:
        json.dump(
            {
                "cases": res,
                "many_ns": best / len(many) * 1e9,
                "many_calls": len(many),
                "many_errors": errors,
                "many_same": same,
                "threads": os.cpu_count(),
            },
            f,
        )


if __name__ == "__main__":
    main()
