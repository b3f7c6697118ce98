#!/usr/bin/env python3
"""Times `tessera.pycute` (the Python package) on the benchmark corpus, for `compare.py`.

    python benches/compare_py.py CORPUS OUT.json PYCUTE_DIR [--py-target-ms 8]

Run with a Python where `tessera` is installed (`compare.py` builds one in tools/.cache/pyvenv);
PYCUTE_DIR holds the `pycute` package of the nvidia-cutlass wheel. For each case, pycute and
`tessera.pycute` are timed back to back in this process (3 interleaved runs each, calibrated loops
as compare.py's), so a change of machine load hits both alike. Writes per case
[tessera.pycute ns/op or null, its result text, pycute ns/op or null], and the vectorised entry
point `tessera.apply_many` over the whole corpus (ns/expression, best of 5 with 1 thread and with
all cores), with pycute's mean ns per expression over the cases it accepts.

What the `apply_many` figure includes: the call from Python with a list of `(op, args)` tuples
whose layouts are already `tessera.pycute.Layout` objects ("native arguments"; building them from
text or tuples is not timed), copying the list into a tuple, reading every call, evaluating it,
storing every result (natively, in the returned `tessera.Results`), starting and joining the
worker thread, and freeing the previous call's `Results` (the assignment to `outs`). Not
included: making each result a Python object; `many_list_ns` is the same call followed by
`.tolist()`, which does.
"""

import json
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import parse_value, read_corpus  # noqa: E402

sys.path.insert(0, sys.argv[3])
import pycute  # noqa: E402  (from the nvidia-cutlass wheel)

import tessera  # noqa: E402
import tessera.pycute as tp  # noqa: E402


def to_tp(v, mod=tp):
    if isinstance(v, int):
        return v
    if v[0] == "L":
        return mod.Layout(v[1], v[2])
    return tuple(to_tp(x, mod) for x in v[1])


def calibrate(fn, args, target_s):
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn(*args)
        if time.perf_counter() - t >= target_s / 4:
            return n * 4
        n *= 2


def run(fn, args, n):
    t = time.perf_counter()
    for _ in range(n):
        fn(*args)
    return (time.perf_counter() - t) / n * 1e9


def text(r):
    return re.sub(r"\s", "", str(r)).replace(",)", ")")


def main():
    corpus, out = sys.argv[1], sys.argv[2]
    target_s = float(sys.argv[5]) / 1000 if len(sys.argv) > 5 else 0.008
    cases = read_corpus(corpus)
    res = []
    calls = []
    for c in cases:
        fn = getattr(tp, c["op"])
        pfn = getattr(pycute, c["op"])
        args = [to_tp(parse_value(a)) for a in c["args"]]
        pargs = [to_tp(parse_value(a), pycute) for a in c["args"]]
        calls.append((c["op"], tuple(args)))
        try:
            pfn(*pargs)
            n_p = calibrate(pfn, pargs, target_s)
        except Exception:  # pycute rejects the case (mostly a bare AssertionError)
            n_p = None
        try:
            r = fn(*args)
            n_t = calibrate(fn, args, target_s)
        except tessera.Error as e:
            r, n_t = type(e).__name__, None
        p_runs, t_runs = [], []
        for _ in range(3):
            if n_p:
                p_runs.append(run(pfn, pargs, n_p))
            if n_t:
                t_runs.append(run(fn, args, n_t))
        res.append(
            (
                statistics.median(t_runs) if t_runs else None,
                text(r),
                statistics.median(p_runs) if p_runs else None,
            )
        )
    # The vectorised entry point over the whole corpus, repeated to about 20,000 calls.
    reps = max(1, 20_000 // len(calls))
    many = calls * reps
    best, best_threads = None, None
    for threads in (1, os.cpu_count() or 1):
        for _ in range(5):
            t = time.perf_counter()
            outs = tessera.apply_many(many, threads)
            dt = time.perf_counter() - t
            if best is None or dt < best:
                best, best_threads = dt, threads
    # The same with every result made a Python object (apply_many's results stay native until
    # read): what a caller that reads them all pays.
    best_list = None
    for _ in range(5):
        t = time.perf_counter()
        listed = tessera.apply_many(many, best_threads).tolist()
        dt = time.perf_counter() - t
        del listed
        if best_list is None or dt < best_list:
            best_list = dt
    errors = sum(1 for o in outs if isinstance(o, tessera.Error))
    same = sum(
        1
        for o, r in zip(outs, res)
        if r[0] is not None and not isinstance(o, tessera.Error) and text(o) == r[1]
    )
    p_ns = [r[2] for r in res if r[2] is not None]
    with open(out, "w") as f:
        json.dump(
            {
                "cases": res,
                "pycute_mean_ns": sum(p_ns) / len(p_ns),
                "pycute_cases": len(p_ns),
                "many_ns": best / len(many) * 1e9,
                "many_list_ns": best_list / len(many) * 1e9,
                "many_calls": len(many),
                "many_errors": errors,
                "many_same": same,
                "threads": best_threads,
            },
            f,
        )


if __name__ == "__main__":
    main()
