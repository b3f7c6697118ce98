#!/usr/bin/env python3
"""CuTe C++ oracle for swizzles, composed layouts and the GMMA/UMMA shared-memory atoms.

    python3 tools/oracle/swizzle.py            # writes tests/data/cute_swizzle.jsonl
    python3 tools/oracle/swizzle.py --jobs 1   # fewer parallel g++ processes (default 2, under nice)

Same toolchain as generate.py (the pinned wheels, the precompiled header, all-static integers);
see tools/oracle/README.md, section "Swizzles and composed layouts". Every case is one C++
expression compiled alone with -fsyntax-only (a static_assert rejects only that case), then the
accepted ones are compiled in batches and run. Deterministic: seeded generator, sorted output.
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import generate as gen  # noqa: E402
from model import Lay, expr, cpp  # noqa: E402

SEED = 20261124
HEADERS = ("#include \"pch.hpp\"\n#include <cute/atom/mma_traits_sm90_gmma.hpp>\n"
           "#include <cute/atom/mma_traits_sm100.hpp>\nusing namespace cute;\n")


# --------------------------------------------------------------------------- values (Tessera text, C++ source)

class V:
    def __init__(self, t, c):
        self.t, self.c = t, c


def lay(shape, stride):
    L = Lay(shape, stride)
    return V(expr(L), cpp(L))


def sw(b, m, s):
    return V(f"Sw<{b},{m},{s}>", f"Swizzle<{b},{m},{s}>{{}}")


def composed(s, off, L):
    return V(f"{s.t} o {off} o {L.t}", f"composition({s.c}, Int<{off}>{{}}, {L.c})")


def shape(*xs):
    return V("(" + ",".join(map(str, xs)) + ")", cpp(tuple(xs), "shape"))


def tile(*ls):
    return V("(" + ",".join(x.t for x in ls) + ")", "make_tile(" + ", ".join(x.c for x in ls) + ")")


def coord(*xs):
    t = "(" + ",".join("_" if x is None else str(x) for x in xs) + ")"
    c = "make_coord(" + ", ".join("_" if x is None else f"Int<{x}>{{}}" for x in xs) + ")"
    return V(t, c)


def call(op, *args, tmpl=None):
    t = f"{op}(" + ",".join(a.t for a in args) + ")"
    c = tmpl.format(*[a.c for a in args]) if tmpl else f"{op}(" + ", ".join(a.c for a in args) + ")"
    return t, c


# --------------------------------------------------------------------------- cases

def random_swizzle(rng):
    b = rng.choice([1, 1, 2, 2, 3, 3])
    m = rng.choice([0, 1, 2, 3, 4])
    s = rng.choice([b, b, b + 1, 3 if b <= 3 else b]) * rng.choice([1, 1, 1, -1])
    return b, m, s


def random_inner(rng, span):
    """A rank-2 row- or column-major layout with power-of-two extents covering the swizzle."""
    while True:
        r = 2 ** rng.randint(1, 5)
        c = 2 ** rng.randint(1, 7)
        if r * c >= span and r * c <= 4096:
            break
    if rng.random() < 0.5:
        return (r, c), (c, 1)
    return (r, c), (1, r)


def swizzle_cases(rng, n):
    out = []
    for k in range(n):
        b, m, s = random_swizzle(rng)
        span = 2 ** (b + m + abs(s))
        (r, c), d = random_inner(rng, span)
        L = lay((r, c), d)
        off = 0 if rng.random() < 0.8 else rng.choice([1, 2, 4, 8, 16, 64])
        CL = composed(sw(b, m, s), off, L)
        cases = [("print", CL.t, CL.c)]
        ops = []
        ops.append(call("composition", CL, shape(max(r // 2, 1), max(c // 2, 1))))
        ops.append(call("composition", CL, lay(max(r * c // 4, 1), 2)))
        ops.append(call("composition", CL, tile(lay(max(r // 2, 1), 2 if r > 2 else 1),
                                                lay(max(c // 2, 1), 1))))
        for op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
            ops.append(call(op, CL, shape(max(r // 2, 1), max(c // 4, 1))))
        for op in ("logical_product", "zipped_product", "tiled_product", "flat_product"):
            ops.append(call(op, CL, tile(lay(2, 1), lay(3, 1))))
        ops.append(call("blocked_product", CL, lay((2, 2), (1, 2))))
        ops.append(call("raked_product", CL, lay((2, 2), (1, 2))))
        ops.append(call("tile_to_shape", CL, shape(r * 2, c * 4)))
        ops.append(call("coalesce", CL))
        ops.append(call("flatten", CL))
        ops.append(call("get", CL, V("0", ""), tmpl="get<0>({0})"))
        ops.append(call("get", CL, V("1", ""), tmpl="get<1>({0})"))
        ops.append(call("slice", coord(rng.randrange(r), None), CL))
        ops.append(call("slice", coord(None, rng.randrange(c)), CL))
        ops.append(call("right_inverse", CL))
        ops.append(call("left_inverse", CL))
        ops.append(call("upcast", CL, V("2", ""), tmpl="upcast<2>({0})"))
        ops.append(call("downcast", CL, V("2", ""), tmpl="downcast<2>({0})"))
        ops.append(call("max_common_vector", CL, L))
        ops.append(call("max_common_layout", CL, L))
        for op in ("size", "cosize", "rank", "depth"):
            ops.append(call(op, CL))
        ops.append(call("complement", CL, V(str(r * c * 4), f"Int<{r * c * 4}>{{}}")))
        cases += [("value",) + o for o in ops]
        # Layout o Swizzle and Swizzle o Swizzle
        cases.append(("value",) + call("composition", L, sw(b, m, s)))
        b2 = rng.choice([1, 2])
        m2 = rng.choice([0, 1, 2, 3, 4, 5])
        s2 = s if rng.random() < 0.7 else rng.choice([2, 3, 4])
        if abs(s2) >= b2:
            cases.append(("value",) + call("composition", sw(b, m, s), sw(b2, m2, s2)))
        cases.append(("print_layout", CL.t, CL.c))
        out += [(f"sw-{k:03d}",) + c for c in cases]
    return out


def make_swizzle_cases():
    out = []
    for y, z in [(8, 4), (192, 6), (0b1110000000, 0b1110000), (12, 1), (6, 3), (0b110000, 0b11),
                 (0b1000000, 0b1000), (0, 0), (0b100100, 0b1001)]:
        out.append((f"msw-{y}-{z}", "value", f"make_swizzle({y},{z})", f"make_swizzle<{y},{z}>()"))
    return out


ATOMS = ["Layout_K_INTER_Atom", "Layout_K_SW32_Atom", "Layout_K_SW64_Atom", "Layout_K_SW128_Atom",
         "Layout_MN_INTER_Atom", "Layout_MN_SW32_Atom", "Layout_MN_SW64_Atom", "Layout_MN_SW128_Atom"]
TYPES = ["half_t", "bfloat16_t", "float", "tfloat32_t", "int32_t", "double", "int8_t", "uint8_t",
         "float_e4m3_t", "float_e5m2_t", "float_ue8m0_t", "int4b_t", "uint4b_t", "float_e2m1_t",
         "float_e2m3_t", "float_e3m2_t"]
BITS = {"half_t": 16, "bfloat16_t": 16, "float": 32, "tfloat32_t": 32, "int32_t": 32, "double": 64,
        "int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8, "float_ue8m0_t": 8,
        "int4b_t": 4, "uint4b_t": 4, "float_e2m1_t": 4, "float_e2m3_t": 6, "float_e3m2_t": 6}
ROW_BITS = {"INTER": 128, "SW32": 256, "SW64": 512, "SW128": 1024}


def atom_cases():
    out = []
    names = [("GMMA", a) for a in ATOMS] + [("UMMA", a) for a in ATOMS] + [("UMMA", "Layout_MN_SW128_32B_Atom")]
    for ns, a in names:
        for ty in TYPES:
            name = f"{ns}::{a}<{ty}>"
            c = f"{ns}::{a}<{ty}>{{}}"
            pi = "as_position_independent_swizzle_layout({})"
            out.append((f"atom-{ns}-{a}-{ty}", "atom", name, pi.format(c)))
            if ns == "UMMA" and a in ATOMS:
                continue  # the same types as GMMA's: the tilings are checked once
            bits = BITS[ty]
            if 1024 % bits:
                continue
            if "32B" in a:
                rows, cols = 1024 // bits, 4
            else:
                w = ROW_BITS[a.split("_")[2]] // bits
                rows, cols = (8, w) if "_K_" in a else (w, 8)
            # CTA tiles: M (or N) of 64/128/256 rows by a 128-byte K slab, or 2 slabs
            for (fm, fk) in [(1, 1), (2, 1), (1, 2)]:
                if "_K_" in a:
                    m = [64, 128, 256][fm]
                    k = max(cols, 1024 // bits) * fk
                    tshape = (m, k)
                else:
                    mm = max(rows, 1024 // bits) * [1, 2, 4][fm]
                    k = [32, 64][fk - 1] if cols <= 32 else cols * fk
                    tshape = (mm, k)
                t = f"tile_to_shape({name},({tshape[0]},{tshape[1]}))"
                cc = pi.format(f"tile_to_shape({c}, {cpp(tshape, 'shape')})")
                out.append((f"atile-{ns}-{a}-{ty}-{tshape[0]}x{tshape[1]}", "atom", t, cc))
                t2 = f"tile_to_shape({name},({tshape[0]},{tshape[1]}),(1,0))"
                cc2 = pi.format(f"tile_to_shape({c}, {cpp(tshape, 'shape')}, Step<_1,_0>{{}})")
                if (fm, fk) == (1, 2):
                    out.append((f"atile-{ns}-{a}-{ty}-{tshape[0]}x{tshape[1]}-rowmajor", "atom", t2, cc2))
    return out


# --------------------------------------------------------------------------- C++ side

def source_of(kind, c):
    if kind == "print_layout":
        return f"print_layout({c});"
    return f"print({c});"


def syntax_check(job):
    key, body, bdir, incs = job
    cfile = os.path.join(gen.CACHE, "cpp", "sw_" + key + ".json")
    if os.path.exists(cfile):
        with open(cfile) as f:
            d = json.load(f)
        return key, d["ok"], d["error"]
    path = os.path.join(bdir, f"s_{key}.cpp")
    with open(path, "w") as f:
        f.write(HEADERS + f"void case_fn() {{\n  {body}\n}}\n")
    p = subprocess.run(["nice", "-n", "10", "g++"] + gen.CXXFLAGS + incs + ["-fsyntax-only", path],
                       capture_output=True, text=True)
    os.remove(path)
    ok = p.returncode == 0
    err = None if ok else gen.extract_error(p.stderr)
    with open(cfile, "w") as f:
        json.dump({"ok": ok, "error": err}, f)
    return key, ok, err


def run_batch(job):
    name, items, bdir, incs = job
    lines = [HEADERS]
    for i, (key, body) in enumerate(items):
        lines.append(f"void f{i}() {{ {body} }}")
    lines.append("int main() {")
    for i, (key, body) in enumerate(items):
        lines.append(f"  printf(\"%c{key}%c\", 1, 2); f{i}();")
    lines.append("  printf(\"%cEND%c\", 1, 2);\n  return 0;\n}")
    path = os.path.join(bdir, f"{name}.cpp")
    exe = os.path.join(bdir, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = subprocess.run(["nice", "-n", "10", "g++"] + gen.CXXFLAGS + incs + [path, "-o", exe],
                       capture_output=True)
    if p.returncode != 0:
        os.remove(path)
        return None
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    res = {}
    for blk in out.split("\x01")[1:]:
        k, _, v = blk.partition("\x02")
        if k != "END":
            res[k] = v
    os.remove(exe)
    os.remove(path)
    return res


RISKY_OPS = ("right_inverse", "left_inverse", "make_swizzle", "upcast", "downcast", "complement",
             "max_common_layout", "max_common_vector")


def is_risky(x):
    t = x["expr"]
    if x["kind"] == "atom":
        return "e2m3" in t or "e3m2" in t
    if t.startswith(RISKY_OPS):
        return True
    # Layout o Swizzle and Swizzle o Swizzle
    return t.startswith("composition(") and t.rstrip(")").rsplit(",", 1)[-1].startswith("Sw<")


def check_each(items, status, bdir, incs, jobs_n):
    jobs = [(x["key"], x["body"], bdir, incs) for x in items]
    with cf.ThreadPoolExecutor(jobs_n) as ex:
        for n, (key, ok, err) in enumerate(ex.map(syntax_check, jobs), 1):
            status[key] = (ok, err)
            if n % 100 == 0:
                print(f"  checked {n}/{len(jobs)}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=80)
    ap.add_argument("--out", default=os.path.join(gen.ROOT, "tests", "data"))
    ap.add_argument("--random", type=int, default=30, help="random composed layouts")
    opts = ap.parse_args()
    udir = gen.fetch_wheels()
    bdir = os.path.join(gen.CACHE, "build")
    os.makedirs(bdir, exist_ok=True)
    os.makedirs(os.path.join(gen.CACHE, "cpp"), exist_ok=True)
    incs = gen.include_flags(udir)
    gen.build_pch(udir, bdir)
    tag = gen.gxx_version() + json.dumps(gen.WHEELS) + " ".join(gen.CXXFLAGS) + HEADERS

    rng = random.Random(SEED)
    raw = swizzle_cases(rng, opts.random) + make_swizzle_cases() + atom_cases()
    cases, seen = [], set()
    for cid, kind, t, c in raw:
        if (kind, t) in seen:
            continue
        seen.add((kind, t))
        body = source_of(kind, c)
        key = hashlib.sha1((tag + body).encode()).hexdigest()[:20]
        cases.append({"id": cid, "kind": kind, "expr": t, "key": key, "body": body})
    print(f"{len(cases)} cases", flush=True)
    # Cases that C++ may reject are syntax-checked one by one (a static_assert rejects only that
    # case); the others go straight into batches, and a batch that fails to build is checked
    # case by case.
    status = {}
    risky = [x for x in cases if is_risky(x)]
    rest = [x for x in cases if not is_risky(x)]
    check_each(risky, status, bdir, incs, opts.jobs)
    printed = {}
    pending = [x for x in risky if status[x["key"]][0]] + rest
    while pending:
        batches = [pending[i:i + opts.batch] for i in range(0, len(pending), opts.batch)]
        bjobs = [(f"swb{i}", [(x["key"], x["body"]) for x in b], bdir, incs) for i, b in enumerate(batches)]
        failed = []
        with cf.ThreadPoolExecutor(opts.jobs) as ex:
            for b, res in zip(batches, ex.map(run_batch, bjobs)):
                if res is None:
                    failed += b
                else:
                    printed.update(res)
                    for x in b:
                        status.setdefault(x["key"], (True, None))
        unchecked = [x for x in failed if x["key"] not in status]
        check_each(unchecked, status, bdir, incs, opts.jobs)
        # Retry every case of a failed batch that passed its own check (not only the new ones).
        pending = [x for x in failed if status[x["key"]][0]]
        if failed and not unchecked:
            # Every case passed its own check but their batch did not build: one program each.
            for x in failed:
                res = run_batch((f"swone_{x['key']}", [(x["key"], x["body"])], bdir, incs))
                if res is None:
                    status[x["key"]] = (False, "compile error: the case passed -fsyntax-only but did not build")
                else:
                    printed.update(res)
            break
    path = os.path.join(opts.out, "cute_swizzle.jsonl")
    with open(path, "w") as f:
        for x in cases:
            okk, err = status.get(x["key"], (False, "not built"))
            raw_out = printed.get(x["key"]) if okk else None
            rec = {"id": x["id"], "kind": x["kind"], "expr": x["expr"],
                   "cpp_raw": raw_out, "cpp": None if raw_out is None else raw_out.replace("_", ""),
                   "cpp_error": err}
            if x["kind"] == "print_layout" and raw_out is not None:
                # only the header line carries static markers
                head, _, rest = raw_out.partition("\n")
                rec["cpp"] = head.replace("_", "") + "\n" + rest
            f.write(json.dumps(rec, sort_keys=True) + "\n")
    n_ok = sum(1 for x in cases if status.get(x["key"], (False,))[0])
    print(f"wrote {path}: {len(cases)} cases, {n_ok} accepted by C++, {len(cases) - n_ok} rejected")


if __name__ == "__main__":
    main()
