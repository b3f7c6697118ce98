#!/usr/bin/env python3
"""Times Tessera, pycute and CuTe C++ (host-only, dynamic `int` values) on the same corpus, in one run.

    python3 benches/compare.py                     # everything; prints the table
    python3 benches/compare.py --markdown out.md   # also writes the table as Markdown
    python3 benches/compare.py --skip-cpp          # Tessera and pycute only

Needs: cargo, Python 3 (stdlib), pip and g++ (C++17). The four PyPI wheels (CuTe headers, pycute
and the CUDA headers CuTe includes) are fetched by tools/oracle/generate.py's `fetch_wheels` into
tools/.cache/ (git-ignored). The CuTe benchmark program is generated from the corpus, built with
`g++ -O2` and cached in tools/.cache/bench/ keyed by its source.

Method: every case is run once to get its result (a case that an implementation rejects is not
timed there); then a calibrated loop is timed 5 times (Tessera, C++) or 3 times (pycute) and the
median kept, as ns/op. Per operation the table gives the median ns/op over the cases and the median
of the per-case ratios over the cases that both implementations accepted.
"""
import argparse
import hashlib
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
CORPUS = os.path.join(HERE, "corpus", "cases.txt")
sys.path.insert(0, os.path.join(ROOT, "tools", "oracle"))
OPS = ["coalesce", "composition", "complement", "logical_divide", "logical_product",
       "right_inverse", "left_inverse"]


# --------------------------------------------------------------------------- notation

def parse_value(text):
    """CuTe notation -> ('L', shape, stride) | ('T', [values]) | int."""
    pos = [0]

    def tup():
        if text[pos[0]] == "(":
            pos[0] += 1
            items = [tup()]
            while text[pos[0]] == ",":
                pos[0] += 1
                items.append(tup())
            assert text[pos[0]] == ")", text
            pos[0] += 1
            return tuple(items)
        m = re.compile(r"-?\d+").match(text, pos[0])
        pos[0] = m.end()
        return int(m.group())

    def value():
        if text[pos[0]] == "(":
            # a tuple of layouts (by-mode tiler) or a layout whose shape is a tuple
            save = pos[0]
            try:
                s = tup()
                if pos[0] < len(text) and text[pos[0]] == ":":
                    pos[0] += 1
                    return ("L", s, tup())
            except (AssertionError, AttributeError):
                pass
            pos[0] = save + 1
            items = [value()]
            while text[pos[0]] == ",":
                pos[0] += 1
                items.append(value())
            pos[0] += 1
            return ("T", items)
        s = tup()
        if pos[0] < len(text) and text[pos[0]] == ":":
            pos[0] += 1
            return ("L", s, tup())
        return s

    v = value()
    assert pos[0] == len(text), text
    return v


def leaves(t):
    return [t] if isinstance(t, int) else [x for y in t for x in leaves(y)]


def read_corpus(path):
    cases = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        cases.append({"op": f[0], "family": f[1], "args": f[2:]})
    return cases


# --------------------------------------------------------------------------- pycute

def to_pycute(v):
    import pycute
    if isinstance(v, int):
        return v
    if v[0] == "L":
        return pycute.Layout(v[1], v[2])
    return tuple(to_pycute(x) for x in v[1])


def pycute_fn(op):
    import pycute
    return {"coalesce": pycute.coalesce, "composition": pycute.composition,
            "complement": pycute.complement, "logical_divide": pycute.logical_divide,
            "logical_product": pycute.logical_product, "right_inverse": pycute.right_inverse,
            "left_inverse": pycute.left_inverse}[op]


def pycute_call(op, args):
    return pycute_fn(op)(*[to_pycute(parse_value(a)) for a in args])


def pycute_text(r):
    return re.sub(r"\s", "", str(r)).replace(",)", ")")


def time_pycute(cases, target_s):
    out = []
    for c in cases:
        fn = pycute_fn(c["op"])
        args = [to_pycute(parse_value(a)) for a in c["args"]]
        try:
            r = fn(*args)
        except Exception as e:  # pycute rejects the case (mostly a bare AssertionError)
            out.append((None, type(e).__name__))
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
        out.append((statistics.median(runs), pycute_text(r)))
    return out


# --------------------------------------------------------------------------- Tessera

def time_tessera(path, target_ms):
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "tessera", "--example", "bench_corpus"],
                   cwd=ROOT, check=True)
    exe = os.path.join(ROOT, "target", "release", "examples", "bench_corpus")
    res = subprocess.run([exe, path, str(target_ms)], capture_output=True, text=True, check=True)
    out = []
    for line in res.stdout.splitlines():
        i, ns, r = line.split("\t")
        out.append((None if ns == "err" else float(ns), r))
    return out


# --------------------------------------------------------------------------- CuTe C++ (dynamic)

def cpp_expressible(c):
    """Whether CuTe C++ accepts the case with dynamic (`int`) shapes and strides."""
    op, args = c["op"], [parse_value(a) for a in c["args"]]
    a = args[0]
    if op in ("coalesce", "composition"):
        return True
    if op in ("right_inverse", "left_inverse"):
        return False  # left_inverse: static strides only; right_inverse ignores dynamic strides
    if op == "complement":
        return len(leaves(a[1])) == 1  # "Dynamic-stride complement only for rank-1 layouts"
    if op == "logical_divide":  # complement(tiler) must be rank-1 (per mode of a by-mode tiler)
        t = args[1]
        parts = t[1] if t[0] == "T" else [t]
        return all(p[0] == "L" and len(leaves(p[1])) == 1 for p in parts)
    if op == "logical_product":  # complement(A) must be rank-1
        return args[1][0] == "L" and len(leaves(a[1])) == 1
    return False


def cpp_build(v, vals):
    """C++ expression building value v from runtime ints v[k]."""
    if isinstance(v, int):
        vals.append(v)
        return f"v[{len(vals) - 1}]"
    if v[0] == "L":
        def tup(t, kind):
            if isinstance(t, int):
                vals.append(t)
                return f"v[{len(vals) - 1}]"
            return f"make_{kind}(" + ", ".join(tup(x, kind) for x in t) + ")"
        return f"make_layout({tup(v[1], 'shape')}, {tup(v[2], 'stride')})"
    return "make_tile(" + ", ".join(cpp_build(x, vals) for x in v[1]) + ")"


CPP_HEAD = r"""
#include <cute/layout.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
using namespace cute;
template <class T> inline __attribute__((always_inline)) void escape(T& x) {
  asm volatile("" : : "r"(&x) : "memory");
}
template <class F> double bench(F&& f, double target_ns) {
  using clk = std::chrono::steady_clock;
  long n = 1;
  for (;;) {
    auto t = clk::now();
    for (long i = 0; i < n; ++i) f();
    double ns = std::chrono::duration<double, std::nano>(clk::now() - t).count();
    if (ns >= target_ns / 4 || n >= (1L << 30)) break;
    n *= 2;
  }
  n *= 4;
  std::vector<double> runs;
  for (int r = 0; r < 5; ++r) {
    auto t = clk::now();
    for (long i = 0; i < n; ++i) f();
    runs.push_back(std::chrono::duration<double, std::nano>(clk::now() - t).count() / n);
  }
  std::sort(runs.begin(), runs.end());
  return runs[2];
}
"""


def cpp_case(k, c, vals):
    args = [parse_value(a) for a in c["args"]]
    start = len(vals)
    exprs = [cpp_build(a, vals) for a in args]
    names = [f"x{i}" for i in range(len(exprs))]
    decl = "".join(f"  auto {n} = {e};\n" for n, e in zip(names, exprs))
    esc = " ".join(f"escape({n});" for n in names)
    call = f"{c['op']}({', '.join(names)})"
    return (f"void case_{k}(const int* v, double target) {{\n{decl}"
            f"  {{ auto r = {call}; printf(\"%d\\t\", {k}); print(r); }}\n"
            f"  double ns = bench([&] {{ {esc} auto r = {call}; escape(r); }}, target);\n"
            f"  printf(\"\\t%.2f\\n\", ns);\n}}\n"), start


def time_cpp(cases, target_ms, jobs):
    import generate  # tools/oracle/generate.py: wheel download and include paths
    udir = generate.fetch_wheels()
    incs = generate.include_flags(udir)
    sel = [(i, c) for i, c in enumerate(cases) if cpp_expressible(c)]
    vals = []
    chunks = max(1, min(jobs * 2, len(sel)))
    srcs = [[] for _ in range(chunks)]
    for j, (i, c) in enumerate(sel):
        src, _ = cpp_case(i, c, vals)
        srcs[j % chunks].append((i, src))
    bdir = os.path.join(ROOT, "tools", ".cache", "bench")
    os.makedirs(bdir, exist_ok=True)
    objs, procs = [], []
    flags = ["-std=c++17", "-O2", "-DNDEBUG", "-w"] + incs
    for n, part in enumerate(srcs):
        body = CPP_HEAD + "".join(s for _, s in part)
        body += f"void chunk_{n}(const int* v, double t) {{\n" + "".join(
            f"  case_{i}(v, t);\n" for i, _ in part) + "}\n"
        h = hashlib.sha1((body + " ".join(flags) + generate.gxx_version()).encode()).hexdigest()[:16]
        obj = os.path.join(bdir, f"chunk_{h}.o")
        objs.append(obj)
        if not os.path.exists(obj):
            cpp = os.path.join(bdir, f"chunk_{h}.cpp")
            open(cpp, "w").write(body)
            procs.append(subprocess.Popen(["nice", "-n", "10", "g++"] + flags + ["-c", cpp, "-o", obj + ".tmp"]))
            while sum(p.poll() is None for p in procs) >= jobs:
                time.sleep(0.2)
    for p in procs:
        if p.wait() != 0:
            sys.exit("g++ failed")
    for o in objs:
        if os.path.exists(o + ".tmp"):
            os.replace(o + ".tmp", o)
    main = CPP_HEAD + "".join(f"void chunk_{n}(const int*, double);\n" for n in range(chunks))
    main += ("int main(int argc, char** argv) {\n  std::vector<int> v;\n  FILE* f = fopen(argv[1], \"r\");\n"
             "  int x; while (fscanf(f, \"%d\", &x) == 1) v.push_back(x);\n  fclose(f);\n"
             "  double t = atof(argv[2]) * 1e6;\n"
             + "".join(f"  chunk_{n}(v.data(), t);\n" for n in range(chunks)) + "}\n")
    mcpp = os.path.join(bdir, "main.cpp")
    open(mcpp, "w").write(main)
    exe = os.path.join(bdir, "bench_cute")
    subprocess.run(["g++"] + flags + [mcpp] + objs + ["-o", exe], check=True)
    vfile = os.path.join(bdir, "values.txt")
    open(vfile, "w").write(" ".join(map(str, vals)) + "\n")  # read at run time: nothing is constant
    res = subprocess.run([exe, vfile, str(target_ms)], capture_output=True, text=True, check=True)
    out = {}
    for line in res.stdout.splitlines():
        k, r, ns = line.split("\t")
        out[int(k)] = (float(ns), r)
    return out


def batch_throughput(cases, lines=50_000):
    """`tessera batch` expressions per second: the corpus as JSON lines, repeated to `lines`.

    Runs the default (`--threads` = the available cores) and `--threads 1`, best of 5 wall times
    each, and the CPU time (user + system) of the fastest run: expressions per CPU-second is the
    figure a loaded machine does not disturb much."""
    import json
    import resource
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "tessera-cli"], cwd=ROOT, check=True)
    exe = os.path.join(ROOT, "target", "release", "tessera")
    reqs = [json.dumps({"id": i, "expr": f"{c['op']}({','.join(c['args'])})"}) for i, c in enumerate(cases)]
    path = os.path.join(ROOT, "tools", ".cache", "bench", "batch.jsonl")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for k in range(lines):
            f.write(reqs[k % len(reqs)] + "\n")

    def run(extra):
        best, cpu, out = None, None, None
        for _ in range(5):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            with open(path) as fin:
                out = subprocess.run([exe, "batch"] + extra, stdin=fin, capture_output=True, text=True)
            dt = time.perf_counter() - t
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            c = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            if best is None or dt < best:
                best, cpu = dt, c
        return lines / best, (lines / cpu if cpu else float("inf")), out.stdout

    eps, cpu_eps, text = run([])
    eps1, cpu_eps1, text1 = run(["--threads", "1"])
    assert text == text1, "tessera batch: --threads changed the answers"
    return {"eps": eps, "cpu_eps": cpu_eps, "eps1": eps1, "cpu_eps1": cpu_eps1,
            "threads": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
            "answered": text.count("\n"), "errors": text.count('"error"')}


def time_tessera_py(corpus, target_ms, pycute_dir):
    """`tessera.pycute` (the Python package) per case, and `tessera.apply_many` over the corpus:
    builds the package into tools/.cache/pyvenv (pip install ./crates/tessera-py) and runs
    benches/compare_py.py there."""
    import json
    venv = os.path.join(ROOT, "tools", ".cache", "pyvenv")
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(ROOT, "target", "py"))
    subprocess.run([py, "-m", "pip", "install", "-q", os.path.join(ROOT, "crates", "tessera-py")],
                   check=True, env=env)
    out = os.path.join(ROOT, "tools", ".cache", "bench", "tessera_py.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run([py, os.path.join(HERE, "compare_py.py"), corpus, out, pycute_dir, "--py-target-ms",
                    str(target_ms)], check=True)
    with open(out) as f:
        return json.load(f)


# --------------------------------------------------------------------------- report

def machine():
    model = "unknown CPU"
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except FileNotFoundError:
        pass
    return f"{model}, {os.cpu_count()} logical CPUs, {platform.system()} {platform.machine()}"


def fmt(x, unit=""):
    if x is None:
        return "n/a"
    if x >= 1000:
        return f"{x:,.0f}{unit}"
    if x >= 10:
        return f"{x:.1f}{unit}"
    return f"{x:.2f}{unit}"


def summarize(cases, tess, pyc, cpp, tpy=None):
    rows = []
    for op in OPS:
        idx = [i for i, c in enumerate(cases) if c["op"] == op]
        t_ns = [tess[i][0] for i in idx if tess[i][0] is not None]
        p_ns = [pyc[i][0] for i in idx if pyc[i][0] is not None]
        c_ns = [cpp[i][0] for i in idx if i in cpp]
        sp = [pyc[i][0] / tess[i][0] for i in idx if tess[i][0] and pyc[i][0]]
        rc = [tess[i][0] / cpp[i][0] for i in idx if tess[i][0] and i in cpp]
        # tessera.pycute against pycute timed back to back in the same process (compare_py.py)
        y_ns = [tpy[i][0] for i in idx if tpy and tpy[i][0] is not None]
        spy = [tpy[i][2] / tpy[i][0] for i in idx if tpy and tpy[i][0] and len(tpy[i]) > 2 and tpy[i][2]]
        rows.append({
            "tpy": statistics.median(y_ns) if y_ns else None,
            "speedup_py": statistics.median(spy) if spy else None,
            "speedup_py_min": min(spy) if spy else None,
            "op": op, "cases": len(idx), "tess_ok": len(t_ns),
            "tess": statistics.median(t_ns) if t_ns else None,
            "pycute": statistics.median(p_ns) if p_ns else None,
            "cpp": statistics.median(c_ns) if c_ns else None, "cpp_cases": len(c_ns),
            "speedup": statistics.median(sp) if sp else None,
            "speedup_min": min(sp) if sp else None,
            "vs_cpp": statistics.median(rc) if rc else None,
            "vs_cpp_max": max(rc) if rc else None,
            # Tessera on exactly the cases C++ ran (the C++ column covers a subset for some ops)
            "tess_on_cpp": statistics.median([tess[i][0] for i in idx if tess[i][0] and i in cpp]) if rc else None,
        })
    return rows


def table(rows):
    head = ("| operation | cases (Tessera ok) | Tessera ns/op | pycute ns/op | pycute / Tessera (median, min) "
            "| tessera.pycute ns/op | pycute / tessera.pycute, back to back (median, min) "
            "| C++ cases | CuTe C++ ns/op | Tessera ns/op on those | Tessera / CuTe C++ (median, max) |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n")
    body = ""
    for r in rows:
        sp = f"{fmt(r['speedup'])}× ({fmt(r['speedup_min'])}×)" if r["speedup"] else "n/a"
        vc = f"{fmt(r['vs_cpp'])} ({fmt(r['vs_cpp_max'])})" if r["vs_cpp"] else "n/a"
        spy = f"{fmt(r['speedup_py'])}× ({fmt(r['speedup_py_min'])}×)" if r["speedup_py"] else "n/a"
        body += (f"| {r['op']} | {r['cases']} ({r['tess_ok']}) | {fmt(r['tess'])} | {fmt(r['pycute'])} | {sp} "
                 f"| {fmt(r['tpy'])} | {spy} "
                 f"| {r['cpp_cases']} | {fmt(r['cpp'])} | {fmt(r['tess_on_cpp'])} | {vc} |\n")
    return head + body


def merge(paths, markdown):
    """Table from several runs' --raw files: each case's ns/op is its median over the runs."""
    runs = []
    for p in paths:
        with open(p) as f:
            rows = [line.rstrip("\n").split("\t") for line in f][1:]
        runs.append(rows)
    num = lambda x: None if x in ("None", "") else float(x)  # noqa: E731
    cases, tess, pyc, cpp, tpy = [], [], [], {}, []
    for i, row in enumerate(runs[0]):
        cases.append({"op": row[1], "family": row[2]})
        med = lambda col: (statistics.median(v) if (v := [num(r[i][col]) for r in runs if num(r[i][col]) is not None])  # noqa: E731
                           else None)
        tess.append((med(4), row[7]))
        pyc.append((med(5), row[8]))
        if num(row[6]) is not None:
            cpp[i] = (med(6), row[9])
        tpy.append((med(10) if len(row) > 10 else None, row[11] if len(row) > 11 else "",
                    med(12) if len(row) > 12 else None))
    out = table(summarize(cases, tess, pyc, cpp, tpy))
    out += f"\nPer-case median over {len(paths)} runs.\n"
    print(out)
    if markdown:
        open(markdown, "w").write(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--skip-cpp", action="store_true")
    ap.add_argument("--target-ms", type=float, default=2.0, help="time per timed run (Tessera, C++)")
    ap.add_argument("--py-target-ms", type=float, default=8.0, help="time per timed run (pycute)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel g++ processes")
    ap.add_argument("--markdown", help="write the table (Markdown) to this file")
    ap.add_argument("--raw", help="write per-case results (TSV) to this file")
    ap.add_argument("--merge", nargs="+", metavar="RAW",
                    help="no timing: summarize several --raw files (per-case median over the runs)")
    a = ap.parse_args()
    if a.merge:
        merge(a.merge, a.markdown)
        return

    import generate
    udir = generate.fetch_wheels()
    sys.path.insert(0, udir)
    import pycute  # noqa: F401  (from the nvidia-cutlass wheel)

    cases = read_corpus(a.corpus)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"{len(cases)} cases from {os.path.relpath(a.corpus, ROOT)}; {machine()}", flush=True)
    cpp = {} if a.skip_cpp else time_cpp(cases, a.target_ms, a.jobs)
    print("CuTe C++ done" if cpp else "CuTe C++ skipped", flush=True)
    tess = time_tessera(a.corpus, a.target_ms)
    print("Tessera done", flush=True)
    pyc = time_pycute(cases, a.py_target_ms / 1000)
    print("pycute done", flush=True)

    ty = time_tessera_py(a.corpus, a.py_target_ms, udir)
    tpy = [tuple(x) for x in ty["cases"]]
    print("tessera.pycute done", flush=True)
    p_mean, p_n = ty["pycute_mean_ns"], ty["pycute_cases"]

    bt = batch_throughput(cases)
    print("batch done", flush=True)

    agree = sum(1 for i in range(len(cases)) if tess[i][0] and pyc[i][0] and tess[i][1] == pyc[i][1])
    both = sum(1 for i in range(len(cases)) if tess[i][0] and pyc[i][0])
    cagree = sum(1 for i in cpp if tess[i][0] and tess[i][1] == cpp[i][1].replace("_", ""))
    rows = summarize(cases, tess, pyc, cpp, tpy)
    out = table(rows)
    yagree = sum(1 for i in range(len(cases)) if tpy[i][0] and pyc[i][0] and tpy[i][1] == pyc[i][1])
    yboth = sum(1 for i in range(len(cases)) if tpy[i][0] and pyc[i][0])
    notes = (f"\nRun {started} on {machine()}; Python {platform.python_version()}; "
             f"{generate.gxx_version()} -O2.\n"
             f"Same result text: Tessera = pycute on {agree}/{both} cases both accept; "
             f"Tessera = CuTe C++ (dynamic) on {cagree}/{len(cpp)} C++ cases.\n"
             f"`tessera batch`: {bt['eps']:,.0f} expressions/s with {bt['threads']} threads (the default), "
             f"{bt['eps1']:,.0f} with `--threads 1`; {bt['cpu_eps1']:,.0f} expressions per CPU-second "
             f"({bt['answered']} JSON lines answered, {bt['errors']} errors; the corpus repeated, parse + "
             f"evaluate + print, best of 5 wall times, one process).\n"
             f"`tessera.pycute` = pycute (result text) on {yagree}/{yboth} cases both accept. "
             f"`tessera.apply_many` (native arguments, {ty['threads']} thread{'' if ty['threads'] == 1 else 's'}): {fmt(ty['many_ns'])} ns per expression "
             f"({fmt(ty.get('many_list_ns'))} ns with every result made a Python object) "
             f"over {ty['many_calls']} calls (the corpus repeated, {ty['many_errors']} errors returned); pycute "
             f"{fmt(p_mean)} ns per expression on average over the {p_n} cases it accepts (timed next to "
             f"tessera.pycute): "
             f"{fmt(p_mean / ty['many_ns'] if p_mean else None)}× per expression.\n")
    print(out + notes)
    if a.markdown:
        open(a.markdown, "w").write(out + notes)
    if a.raw:
        with open(a.raw, "w") as f:
            f.write("index\top\tfamily\targs\ttessera_ns\tpycute_ns\tcpp_ns\ttessera\tpycute\tcpp"
                    "\ttessera_py_ns\ttessera_py\tpycute_next_to_py_ns\n")
            for i, c in enumerate(cases):
                cp = cpp.get(i, (None, ""))
                f.write("\t".join(map(str, [i, c["op"], c["family"], " ".join(c["args"]), tess[i][0],
                                            pyc[i][0], cp[0], tess[i][1], pyc[i][1], cp[1],
                                            tpy[i][0], tpy[i][1], tpy[i][2]])) + "\n")


if __name__ == "__main__":
    main()
