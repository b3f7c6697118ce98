#!/usr/bin/env python3
"""Generate Tessera's differential-test oracle data from CuTe C++ (all-static) and pycute.

    python3 tools/oracle/generate.py            # writes tests/data/cute_oracle.jsonl, tests/data/print_layout.jsonl
    python3 tools/oracle/generate.py --jobs 2   # parallel g++ jobs (default 2, run under `nice`)

Only PyPI is needed: the four wheels below are fetched with `pip download --no-deps` into tools/.cache/.
See tools/oracle/README.md.
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import zipfile
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import model  # noqa: E402
from model import expr, cpp, cpp_dyn, to_pycute, pycute_text, parse_value, post_check  # noqa: E402
import cases as casemod  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
CACHE = os.path.join(ROOT, "tools", ".cache")
WHEELS = {
    "nvidia-cutlass": "4.2.0.0",
    "nvidia-cuda-runtime-cu12": "12.9.79",
    "nvidia-cuda-nvcc-cu12": "12.9.86",
    "nvidia-cuda-cccl-cu12": "12.9.27",
}
INCLUDE_SUBDIRS = [
    "cutlass_library/source/include",
    "nvidia/cuda_runtime/include",
    "nvidia/cuda_nvcc/include",
    "nvidia/cuda_cccl/include",
]
CXXFLAGS = ["-std=c++17", "-O0", "-w"]


# --------------------------------------------------------------------------- toolchain set-up

def fetch_wheels():
    wdir = os.path.join(CACHE, "wheels")
    os.makedirs(wdir, exist_ok=True)
    have = os.listdir(wdir)
    missing = [f"{n}=={v}" for n, v in WHEELS.items()
               if not any(f.startswith(n.replace("-", "_") + "-" + v) for f in have)]
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", wdir] + missing,
                       check=True)
    udir = os.path.join(CACHE, "unpacked")
    stamp = os.path.join(udir, ".stamp-" + hashlib.sha1(json.dumps(WHEELS).encode()).hexdigest()[:12])
    if not os.path.exists(stamp):
        os.makedirs(udir, exist_ok=True)
        for f in sorted(os.listdir(wdir)):
            if not f.endswith(".whl"):
                continue
            with zipfile.ZipFile(os.path.join(wdir, f)) as z:
                z.extractall(udir, [n for n in z.namelist() if "/include/" in n or n.startswith("pycute/")])
        open(stamp, "w").close()
    return udir


def include_flags(udir):
    return [f"-I{os.path.join(udir, d)}" for d in INCLUDE_SUBDIRS]


def build_pch(udir, bdir):
    pch = os.path.join(bdir, "pch.hpp")
    gch = pch + ".gch"
    if not os.path.exists(pch):
        with open(pch, "w") as f:
            f.write("#include <cute/tensor.hpp>\n#include <cstdio>\n")
    if not os.path.exists(gch):
        print("building precompiled header ...", flush=True)
        subprocess.run(["nice", "-n", "10", "g++"] + CXXFLAGS + include_flags(udir)
                       + ["-x", "c++-header", pch, "-o", gch], check=True)


def gxx_version():
    return subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]


# --------------------------------------------------------------------------- per-case C++ expression

TUPLE_KIND = {  # how a tuple argument at (op, position) is built in C++
    ("composition", 1): "tile", ("logical_divide", 1): "tile", ("zipped_divide", 1): "tile",
    ("tiled_divide", 1): "tile", ("flat_divide", 1): "tile", ("logical_product", 1): "tile",
    ("zipped_product", 1): "tile", ("tiled_product", 1): "tile", ("flat_product", 1): "tile",
    ("complement", 1): "shape", ("coalesce", 1): "tuple", ("tile_to_shape", 1): "shape",
    ("tile_to_shape", 2): "step", ("make_ordered_layout", 0): "shape", ("make_ordered_layout", 1): "step",
    ("idx2crd", 1): "shape", ("crd2idx", 0): "coord", ("crd2idx", 1): "shape", ("crd2idx", 2): "tuple",
    ("slice", 0): "coord",
}


def cpp_expr(op, args):
    if op in ("upcast", "downcast"):
        return f"{op}<{args[1]}>({cpp(args[0])})"
    parts = []
    for i, a in enumerate(args):
        if isinstance(a, tuple):
            kind = TUPLE_KIND.get((op, i), "tuple")
            if kind == "tile" and all(isinstance(x, int) for x in model.leaves_any(a)):
                kind = "shape"
            parts.append(cpp(a, kind))
        else:
            parts.append(cpp(a))
    return f"{op}({', '.join(parts)})"


def case_source(op, args):
    return ("#include \"pch.hpp\"\nusing namespace cute;\n"
            f"void case_fn() {{\n  auto r = {cpp_expr(op, args)};\n  print(r);\n}}\n")


def extract_error(text):
    m = re.search(r"static assertion failed: (.*)", text)
    if m:
        return m.group(1).strip()
    m = re.search(r"static assertion failed", text)
    if m:
        # CUTE_STATIC_ASSERT_V without a message: report the asserted source line
        after = text[m.end():].splitlines()
        src = next((l.strip() for l in after[1:4] if "static_assert" in l or "CUTE_STATIC_ASSERT" in l), "")
        return ("static assertion failed" + (f" [{src}]" if src else "")).strip()
    m = re.search(r"error: (.*)", text)
    if m:
        msg = m.group(1).strip().replace("\u2018", "'").replace("\u2019", "'")
        return "compile error: " + msg[:300]
    return "compile error"


def syntax_check(job):
    """Compile one case alone (-fsyntax-only, PCH).  Returns (ok, error_message)."""
    key, src, bdir, incs = job
    cfile = os.path.join(CACHE, "cpp", key + ".json")
    if os.path.exists(cfile):
        with open(cfile) as f:
            d = json.load(f)
        return key, d["ok"], d["error"]
    path = os.path.join(bdir, f"c_{key}.cpp")
    with open(path, "w") as f:
        f.write(src)
    p = subprocess.run(["nice", "-n", "10", "g++"] + CXXFLAGS + incs + ["-fsyntax-only", path],
                       capture_output=True, text=True)
    os.remove(path)
    ok = p.returncode == 0
    err = None if ok else extract_error(p.stderr)
    with open(cfile, "w") as f:
        json.dump({"ok": ok, "error": err}, f)
    return key, ok, err


def run_batch(job):
    """Compile and run many accepted cases in one program; returns {key: printed text}."""
    name, items, bdir, incs = job
    lines = ["#include \"pch.hpp\"", "using namespace cute;"]
    for i, (key, op, args) in enumerate(items):
        lines.append(f"void f{i}() {{ auto r = {cpp_expr(op, args)}; print(r); }}")
    lines.append("int main() {")
    for i, (key, op, args) in enumerate(items):
        lines.append(f"  printf(\"@@{key}\\n\"); f{i}(); printf(\"\\n\");")
    lines.append("  printf(\"@@END\\n\");\n  return 0;\n}")
    path = os.path.join(bdir, f"{name}.cpp")
    exe = os.path.join(bdir, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = subprocess.run(["nice", "-n", "10", "g++"] + CXXFLAGS + incs + [path, "-o", exe], capture_output=True)
    if p.returncode != 0:
        # should not happen (every case passed its own syntax check): split and retry, so that only
        # the offending case is lost; it is then reported without a result.
        os.remove(path)
        if len(items) == 1:
            print(f"  case {items[0][0]} passed -fsyntax-only but failed to build", flush=True)
            return {}
        h = len(items) // 2
        res = run_batch((name + "a", items[:h], bdir, incs))
        res.update(run_batch((name + "b", items[h:], bdir, incs)))
        return res
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    res = {}
    for blk in out.split("@@")[1:]:
        k, _, v = blk.partition("\n")
        if k != "END":
            res[k] = v.rstrip("\n")
    for k, v in res.items():
        with open(os.path.join(CACHE, "cpp", k + ".out"), "w") as f:
            f.write(v)
    os.remove(exe)
    return res


# --------------------------------------------------------------------------- pycute side

def run_pycute(pc, op, args):
    """Returns (text, error) with text in C++ notation, or (None, None) when pycute lacks the op."""
    a = [to_pycute(x, pc) for x in args]
    fns = {
        "coalesce": pc.coalesce, "filter": pc.filter, "composition": pc.composition,
        "right_inverse": pc.right_inverse, "left_inverse": pc.left_inverse,
        "logical_divide": pc.logical_divide, "zipped_divide": pc.zipped_divide,
        "tiled_divide": pc.tiled_divide, "logical_product": pc.logical_product,
        "zipped_product": pc.zipped_product, "tiled_product": pc.tiled_product,
        "size": pc.size, "cosize": pc.cosize,
        "idx2crd": pc.idx2crd, "crd2idx": pc.crd2idx,
    }
    try:
        if op == "complement":
            # pycute's cotarget is an integer: a shape cotarget is passed as its size
            if len(a) == 2 and isinstance(a[1], tuple):
                a[1] = pc.product(a[1])
            r = pc.complement(*a)
        elif op == "slice":
            r = a[1](a[0])
        elif op in fns:
            r = fns[op](*a)
        else:
            return None, None
    except Exception as e:  # noqa: BLE001 - any pycute failure is data
        msg = str(e)
        return None, type(e).__name__ + (f": {msg}" if msg else "")
    return pycute_text(r), None


# --------------------------------------------------------------------------- print_layout data

PRINT_LAYOUTS = [
    "(2,(2,2)):(4,(2,1))", "(4,8):(1,4)", "(4,8):(8,1)", "(8,4):(1,8)", "(12,3):(1,100)",
    "(2,5):(5,1)", "((2,3),(2,4)):((1,2),(6,12))", "((2,2),(2,2)):((1,4),(2,8))", "(6,(2,3)):(3,(1,18))",
    "(16,16):(16,1)", "(10,12):(12,1)", "((4,2),8):((1,32),4)", "(3,4):(0,1)", "(5,7):(7,1)",
    "(8,(4,4)):(1,(8,32))", "((2,4),(3,5)):((1,2),(8,24))", "(1,6):(0,1)", "(4,4):(-1,4)",
    "((2,5),(4,3)):((30,1),(5,60))", "(9,(4,8)):(59,(13,1))", "(1,1):(0,0)", "(4,(3,3)):(9,(1,3))",
]
PRINT_DYNAMIC = {"(2,(2,2)):(4,(2,1))", "(4,8):(1,4)", "(12,3):(1,100)", "(6,(2,3)):(3,(1,18))",
                 "(9,(4,8)):(59,(13,1))", "((2,3),(2,4)):((1,2),(6,12))", "(4,4):(-1,4)"}


def print_layout_records(bdir, incs):
    items = []
    for t in PRINT_LAYOUTS:
        _, (L,) = casemod.parse_call(f"f({t})")
        items.append((t, True, cpp(L)))
        if t in PRINT_DYNAMIC:
            items.append((t, False, cpp_dyn(L)))
    lines = ["#include \"pch.hpp\"", "using namespace cute;", "int main() {"]
    for i, (t, st, src) in enumerate(items):
        lines.append(f"  printf(\"%c{i}%c\", 1, 2); print_layout({src});")
    lines.append("  printf(\"%cEND%c\", 1, 2);\n  return 0;\n}")
    path = os.path.join(bdir, "print_layout.cpp")
    exe = os.path.join(bdir, "print_layout")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run(["nice", "-n", "10", "g++"] + CXXFLAGS + incs + [path, "-o", exe], check=True)
    out = subprocess.run([exe], capture_output=True, check=True).stdout.decode()
    recs = []
    for blk in out.split("\x01")[1:]:
        k, _, v = blk.partition("\x02")
        if k == "END":
            continue
        t, st, _ = items[int(k)]
        recs.append({"layout": t, "static": st, "output": v})
    return recs


# --------------------------------------------------------------------------- main

ID_PREFIX = {
    "composition": "comp", "complement": "cpl", "coalesce": "coal", "filter": "filt",
    "right_inverse": "rinv", "left_inverse": "linv", "logical_divide": "ldiv", "zipped_divide": "zdiv",
    "tiled_divide": "tdiv", "flat_divide": "fdiv", "logical_product": "lprod", "zipped_product": "zprod",
    "tiled_product": "tprod", "flat_product": "fprod", "blocked_product": "bprod", "raked_product": "rprod",
    "tile_to_shape": "tts", "make_ordered_layout": "mol", "upcast": "up", "downcast": "down",
    "nullspace": "null", "max_common_layout": "mcl", "max_common_vector": "mcv", "size": "size",
    "cosize": "cosize", "rank": "rank", "depth": "depth", "flatten": "flat", "idx2crd": "i2c",
    "crd2idx": "c2i", "slice": "slice",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=60, help="accepted cases per compiled program")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data"))
    ap.add_argument("--limit", type=int, default=0, help="only the first N cases (for quick tries)")
    ap.add_argument("--reuse-committed", action="store_true",
                    help="take C++ results of cases already in the committed tests/data/cute_oracle.jsonl "
                         "instead of compiling them again (same g++ and wheels assumed); new cases compile")
    opts = ap.parse_args()
    t0 = time.time()

    udir = fetch_wheels()
    sys.path.insert(0, udir)
    import pycute as pc  # noqa: E402
    bdir = os.path.join(CACHE, "build")
    os.makedirs(bdir, exist_ok=True)
    os.makedirs(os.path.join(CACHE, "cpp"), exist_ok=True)
    incs = include_flags(udir)
    build_pch(udir, bdir)
    tag = gxx_version() + json.dumps(WHEELS) + " ".join(CXXFLAGS)

    allc = casemod.all_cases()
    if opts.limit:
        allc = allc[:opts.limit]
    # dedupe identical (op, expr), keep first
    seen, cases = set(), []
    for src, op, args in allc:
        e = f"{op}(" + ",".join(expr(a) for a in args) + ")"
        assert casemod.parse_call(e) == (op, list(args)), e  # the committed text parses back exactly
        if e in seen:
            continue
        seen.add(e)
        key = hashlib.sha1((tag + case_source(op, args)).encode()).hexdigest()[:20]
        cases.append({"src": src, "op": op, "args": args, "expr": e, "key": key})
    print(f"{len(cases)} cases", flush=True)
    if opts.reuse_committed:
        seed_cache_from_committed(cases)

    # 1. per-case syntax check (a failed static_assert rejects only that case)
    jobs = [(c["key"], case_source(c["op"], c["args"]), bdir, incs) for c in cases]
    status = {}
    with cf.ThreadPoolExecutor(opts.jobs) as ex:
        for n, (key, ok, err) in enumerate(ex.map(syntax_check, jobs), 1):
            status[key] = (ok, err)
            if n % 50 == 0:
                print(f"  checked {n}/{len(jobs)}  ({time.time() - t0:.0f}s)", flush=True)

    # 2. batched compile + run of accepted cases
    printed = {}
    todo = []
    for c in cases:
        if status[c["key"]][0]:
            ofile = os.path.join(CACHE, "cpp", c["key"] + ".out")
            if os.path.exists(ofile):
                with open(ofile) as f:
                    printed[c["key"]] = f.read()
            else:
                todo.append((c["key"], c["op"], c["args"]))
    batches = [(f"batch{i}", todo[i:i + opts.batch], bdir, incs) for i in range(0, len(todo), opts.batch)]
    with cf.ThreadPoolExecutor(opts.jobs) as ex:
        for res in ex.map(run_batch, batches):
            printed.update(res)
    print(f"C++ done ({time.time() - t0:.0f}s)", flush=True)

    # 3. pycute, post-conditions, records
    counters = Counter()
    records = []
    for c in cases:
        op, args = c["op"], c["args"]
        ok, err = status[c["key"]]
        raw = printed.get(c["key"]) if ok else None
        if ok and raw is None:
            err = "compile error: program build failed"
        txt = raw.replace("_", "") if raw is not None else None
        py, pyerr = run_pycute(pc, op, args)
        post = None
        if txt is not None:
            try:
                post = post_check(op, args, parse_value(txt))
            except Exception as e:  # noqa: BLE001 - a result we cannot evaluate fails its check
                print(f"  post-check error on {c['expr']} -> {txt}: {e!r}", flush=True)
                post = False
        counters[op] += 1
        records.append({
            "id": f"{ID_PREFIX[op]}-{counters[op]:04d}", "op": op, "expr": c["expr"], "source": c["src"],
            "cpp": txt, "cpp_raw": raw, "cpp_error": err,
            "pycute": py, "pycute_error": pyerr, "cpp_post_ok": post,
        })

    os.makedirs(opts.out, exist_ok=True)
    with open(os.path.join(opts.out, "cute_oracle.jsonl"), "w") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=True) + "\n")
    pl = print_layout_records(bdir, incs)
    with open(os.path.join(opts.out, "print_layout.jsonl"), "w") as f:
        for r in pl:
            f.write(json.dumps(r, ensure_ascii=True) + "\n")
    table = summary(records)
    print(table)
    elapsed = time.time() - t0
    print(f"{len(records)} records, {len(pl)} print_layout records, {elapsed:.0f}s total")
    readme = os.path.join(HERE, "README.md")
    if os.path.exists(readme) and opts.out == os.path.join(ROOT, "tests", "data"):
        with open(readme) as f:
            text = f.read()
        b, e = "<!-- summary:begin -->", "<!-- summary:end -->"
        if b in text and e in text:
            body = (f"{b}\n{len(records)} cases, {len(pl)} print_layout records; g++: `{gxx_version()}`.\n\n"
                    f"{table}\n{e}")
            text = text[:text.index(b)] + body + text[text.index(e) + len(e):]
            with open(readme, "w") as f:
                f.write(text)


def seed_cache_from_committed(cases):
    """Writes the per-case cache entries (syntax verdict and printed text) of every case whose
    expression is already in the committed data, so that only new cases are compiled."""
    path = os.path.join(ROOT, "tests", "data", "cute_oracle.jsonl")
    with open(path) as f:
        old = {r["expr"]: r for r in map(json.loads, filter(str.strip, f))}
    reused = 0
    for c in cases:
        r = old.get(c["expr"])
        if r is None or (r["cpp_error"] is None and r["cpp_raw"] is None):
            continue
        with open(os.path.join(CACHE, "cpp", c["key"] + ".json"), "w") as f:
            json.dump({"ok": r["cpp_error"] is None, "error": r["cpp_error"]}, f)
        if r["cpp_raw"] is not None:
            with open(os.path.join(CACHE, "cpp", c["key"] + ".out"), "w") as f:
                f.write(r["cpp_raw"])
        reused += 1
    print(f"{reused} C++ results reused from the committed data", flush=True)


def summary(records):
    rows = defaultdict(Counter)
    for r in records:
        s = rows[r["op"]]
        s["cases"] += 1
        if r["cpp"] is not None and r["pycute"] is not None:
            s["agree" if r["cpp"] == r["pycute"] else "differ"] += 1
        if r["cpp_error"] is not None:
            s["cpp rejects"] += 1
        if r["pycute_error"] is not None:
            s["pycute rejects"] += 1
        if r["cpp"] is not None and r["pycute"] is None and r["pycute_error"] is None:
            s["no pycute"] += 1
        if r["cpp_post_ok"] is False:
            s["post false"] += 1
    cols = ["cases", "agree", "differ", "cpp rejects", "pycute rejects", "no pycute", "post false"]
    out = ["| op | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    tot = Counter()
    for op in sorted(rows):
        out.append(f"| {op} | " + " | ".join(str(rows[op][c]) for c in cols) + " |")
        tot.update(rows[op])
    out.append("| **total** | " + " | ".join(str(tot[c]) for c in cols) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
