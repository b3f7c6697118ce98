#!/usr/bin/env python3
"""Oracle for Tessera's Gluon layout conversions: Triton's own `to_linear_layout`.

Writes `tests/data/triton_layouts.jsonl`, one case per line:

    {"class": "BlockedLayout", "layout": {...dataclass fields...}, "shape": [32, 64],
     "linear": {"reg_bases": ..., "lane_bases": ..., "warp_bases": ..., "block_bases": ...}}

(shared layouts: "linear": {"offset_bases": ..., "block_bases": ...}). Nested layouts (the `parent`
of `SliceLayout` and `DotOperandLayout`) are written as `{"class": ..., fields}`. A case Triton
refuses is left out, except `PaddedSharedLayout`, which Triton cannot turn into a linear layout at
all ("padded shared encoding has no linear layout"): those cases are written with `"linear": null`
and their `layout` fields only.

Runs without a GPU: `GluonOpBuilder.to_linear_layout` (the C++ `toLinearLayout` of the layout
attribute) needs only an MLIR context. Triton is pinned to 3.9.0 from PyPI, installed into
`tools/.cache/triton-venv` (git-ignored) on first use:

    python3 tools/oracle/triton_layouts.py            # installs triton==3.9.0 if needed, writes the file
    python3 tools/oracle/triton_layouts.py --out /tmp/x.jsonl

Cases come from a fixed seed, so a re-run writes the same file. Triton aborts the process (an LLVM
fatal error) on some invalid layouts, so each case runs in a worker process that is restarted when
it dies; the case is then dropped.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys

TRITON = "3.9.0"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
VENV = os.path.join(ROOT, "tools", ".cache", "triton-venv")
VPY = os.path.join(VENV, "bin", "python")

WORKER = r"""
import json, sys
from triton._C.libtriton import ir, gluon_ir
import triton.experimental.gluon.language as ttgl

ctx = ir.context()
ir.load_dialects(ctx)
b = gluon_ir.GluonOpBuilder(ctx)

def build(d):
    d = dict(d)
    cls = getattr(ttgl, d.pop("class"))
    for k in ("parent",):
        if k in d:
            d[k] = build(d[k])
    return cls(**d)

for line in sys.stdin:
    case = json.loads(line)
    lay = build(case["layout"])
    r = b.to_linear_layout(lay._to_ir(b), case["shape"])
    if hasattr(r, "reg_bases"):
        out = {"reg_bases": r.reg_bases, "lane_bases": r.lane_bases,
               "warp_bases": r.warp_bases, "block_bases": r.block_bases}
    else:
        out = {"offset_bases": r.offset_bases, "block_bases": r.block_bases}
    print(json.dumps(out), flush=True)
"""


def ensure_triton() -> None:
    if os.path.exists(VPY):
        r = subprocess.run(
            [VPY, "-c", "import triton; print(triton.__version__)"], capture_output=True, text=True
        )
        if r.returncode == 0 and r.stdout.strip() == TRITON:
            return
    subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([VPY, "-m", "pip", "install", "-q", f"triton=={TRITON}"], check=True)


def pow2s(lo: int, hi: int) -> list[int]:
    out, v = [], 1
    while v <= hi:
        if v >= lo:
            out.append(v)
        v *= 2
    return out


def split_pow2(rng: random.Random, total: int, rank: int) -> list[int]:
    """`total` (a power of two) as a product of `rank` powers of two."""
    parts = [1] * rank
    while total > 1:
        parts[rng.randrange(rank)] *= 2
        total //= 2
    return parts


def cga(rng: random.Random, rank: int, shape: list[int], n: int) -> list[list[int]]:
    """`n` block bases: each a power of two in one dimension (or 0: a broadcast block)."""
    bases = []
    used = [1] * rank
    for _ in range(n):
        if rng.random() < 0.15:
            bases.append([0] * rank)
            continue
        d = rng.randrange(rank)
        if used[d] * 2 > shape[d]:
            bases.append([0] * rank)
            continue
        v = [0] * rank
        v[d] = used[d]
        used[d] *= 2
        bases.append(v)
    return bases


def perm(rng: random.Random, rank: int) -> list[int]:
    p = list(range(rank))
    rng.shuffle(p)
    return p


def blocked(rng: random.Random, rank: int) -> dict:
    return {
        "class": "BlockedLayout",
        "size_per_thread": [rng.choice([1, 1, 2, 4, 8]) for _ in range(rank)],
        "threads_per_warp": split_pow2(rng, 32, rank),
        "warps_per_cta": split_pow2(rng, rng.choice([1, 2, 4, 8]), rank),
        "order": perm(rng, rank),
    }


def rand_shape(rng: random.Random, rank: int, lo: int = 1, hi: int = 256) -> list[int]:
    return [rng.choice(pow2s(lo, hi)) for _ in range(rank)]


def mma(rng: random.Random, version: int, rank: int = 2) -> dict:
    if version == 2:
        instr = [16, 8] if rank == 2 else [1, 16, 8]
        w = split_pow2(rng, rng.choice([1, 2, 4, 8]), rank)
        if rank == 3:
            w = [w[0] * w[1], 1, w[2]] if rng.random() < 0.3 else w
        return {"class": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": w, "instr_shape": instr}
    n = rng.choice([8, 16, 32, 64, 128, 256])
    k = rng.choice([8, 16, 32])
    wm = rng.choice([1, 2, 4, 8])
    wn = rng.choice([1, 2])
    while wm * wn < 4:
        wm *= 2
    return {"class": "NVMMADistributedLayout", "version": [3, 0], "warps_per_cta": [wm, wn], "instr_shape": [16, n, k]}


def cases(seed: int) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = []
    add = lambda layout, shape: out.append({"layout": layout, "shape": shape})  # noqa: E731

    # BlockedLayout: ranks 1-3, shapes smaller and larger than one CTA's tile, some with CGAs.
    for i in range(70):
        rank = 1 + i % 3
        b = blocked(rng, rank)
        shape = rand_shape(rng, rank, 1, 128 if rank < 3 else 16)
        if i % 5 == 4:
            b["cga_layout"] = cga(rng, rank, shape, rng.choice([1, 2]))
        add(b, shape)

    # SliceLayout of blocked and MMA parents.
    for i in range(30):
        rank = 2 + i % 2
        parent = blocked(rng, rank) if i % 3 else mma(rng, 2 if rank == 2 and i % 2 else 2, rank)
        if parent["class"] == "NVMMADistributedLayout" and len(parent["warps_per_cta"]) != rank:
            parent = blocked(rng, rank)
        dim = rng.randrange(rank)
        shape = rand_shape(rng, rank - 1, 1, 128)
        add({"class": "SliceLayout", "dim": dim, "parent": parent}, shape)

    # NVMMADistributedLayout: Ampere (v2) and Hopper (v3) accumulators.
    for i in range(36):
        v = 2 if i % 2 == 0 else 3
        rank = 3 if (v == 2 and i % 6 == 0) else 2
        m = mma(rng, v, rank)
        shape = rand_shape(rng, rank, 8 if rank == 2 else 1, 256)
        if rank == 2 and i % 7 == 3:
            m["cga_layout"] = cga(rng, 2, shape, 1)
        add(m, shape)

    # DotOperandLayout over MMA v2 (A and B, every k_width) and v3 (A in registers).
    for i in range(36):
        if i % 3 == 2:
            parent = mma(rng, 3)
            idx, kw = 0, rng.choice([1, 2, 4])
        else:
            parent = mma(rng, 2)
            idx, kw = i % 2, rng.choice([1, 2, 4, 8])
        shape = rand_shape(rng, 2, 16, 256)
        add({"class": "DotOperandLayout", "operand_index": idx, "parent": parent, "k_width": kw}, shape)

    # DistributedLinearLayout: random bases (Triton keeps them as they are).
    for i in range(12):
        rank = 1 + i % 2
        shape = rand_shape(rng, rank, 2, 64)
        cols = []
        for d, s in enumerate(shape):
            v = 1
            while v < s:
                e = [0] * rank
                e[d] = v
                cols.append(e)
                v *= 2
        rng.shuffle(cols)
        k = rng.randrange(len(cols) + 1)
        reg, rest = cols[:k], cols[k:]
        lane = rest[:5] + [[0] * rank] * max(0, 5 - len(rest[:5]))
        warp = rest[5:]
        add(
            {"class": "DistributedLinearLayout", "reg_bases": reg, "lane_bases": lane, "warp_bases": warp,
             "block_bases": [], "shape": shape},
            shape,
        )

    # NVMMASharedLayout: every swizzle width and element width, transposed, rank 3, fp4_padded, CGAs.
    for sw in (0, 32, 64, 128):
        for bits in (8, 16, 32):
            for tr in (False, True):
                for extra in range(2):
                    rank = 3 if extra and sw and bits == 16 else 2
                    shape = rand_shape(rng, rank, 8 if rank == 2 else 2, 256)
                    inner = shape[0] if tr else shape[-1]
                    need = max(sw * 8 // bits, 1)
                    if inner < need:
                        if tr:
                            shape[0] = need
                        else:
                            shape[-1] = need
                    if tr and rank == 2:
                        shape[1] = max(shape[1], 8)
                    if not tr:
                        shape[-2] = max(shape[-2], 8)
                    lay = {"class": "NVMMASharedLayout", "swizzle_byte_width": sw, "element_bitwidth": bits,
                           "rank": rank, "transposed": tr}
                    if rank == 2 and extra:
                        lay["cga_layout"] = cga(rng, 2, shape, 1)
                    add(lay, shape)
    for tr in (False, True):
        add({"class": "NVMMASharedLayout", "swizzle_byte_width": 128, "element_bitwidth": 8, "rank": 2,
             "transposed": tr, "fp4_padded": True}, [64, 128])

    # SwizzledSharedLayout: vec, per_phase, max_phase, order (ranks 1-3).
    for i in range(36):
        rank = 1 + i % 3 if i % 4 else 2
        lay = {"class": "SwizzledSharedLayout", "vec": rng.choice([1, 2, 4, 8]),
               "per_phase": rng.choice([1, 2, 4]), "max_phase": rng.choice([1, 2, 4, 8]),
               "order": perm(rng, rank)}
        shape = rand_shape(rng, rank, 1, 128 if rank < 3 else 16)
        if i % 9 == 5:
            lay["cga_layout"] = cga(rng, rank, shape, 1)
        add(lay, shape)

    # SharedLinearLayout: a permutation of the offset bits (Triton keeps it as it is).
    for i in range(10):
        rank = 1 + i % 2
        shape = rand_shape(rng, rank, 2, 64)
        cols = []
        for d, s in enumerate(shape):
            v = 1
            while v < s:
                e = [0] * rank
                e[d] = v
                cols.append(e)
                v *= 2
        rng.shuffle(cols)
        add({"class": "SharedLinearLayout", "offset_bases": cols, "block_bases": [], "alignment": 16}, shape)

    # PaddedSharedLayout: fields only (Triton has no linear layout for it).
    for i in range(10):
        shape = rand_shape(rng, 2, 4, 64)
        order = perm(rng, 2)
        bases = []
        for d in order:
            v = 1
            while v < shape[d]:
                e = [0, 0]
                e[d] = v
                bases.append(e)
                v *= 2
        if i % 2:
            rng.shuffle(bases)
        pairs = [[rng.choice([8, 16, 32, 64]), rng.choice([1, 2, 4, 8])]]
        if i % 3 == 0:
            pairs.append([pairs[0][0] * 4, 4])
        add({"class": "PaddedSharedLayout", "interval_padding_pairs": pairs, "offset_bases": bases,
             "cga_layout": [], "shape": shape}, shape)
    return out


class Worker:
    def __init__(self) -> None:
        self.p: subprocess.Popen[str] | None = None

    def run(self, case: dict) -> dict | None:
        if self.p is None:
            self.p = subprocess.Popen(
                [VPY, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True,
            )
        assert self.p.stdin and self.p.stdout
        self.p.stdin.write(json.dumps(case) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            self.p.wait()
            self.p = None
            return None
        return json.loads(line)

    def close(self) -> None:
        if self.p is not None and self.p.stdin:
            self.p.stdin.close()
            self.p.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "triton_layouts.jsonl"))
    ap.add_argument("--seed", type=int, default=20261127)
    a = ap.parse_args()
    ensure_triton()
    w = Worker()
    kept, dropped = {}, {}
    with open(a.out, "w") as f:
        for case in cases(a.seed):
            cls = case["layout"]["class"]
            if cls == "PaddedSharedLayout":
                res = None
            else:
                res = w.run(case)
                if res is None:
                    dropped[cls] = dropped.get(cls, 0) + 1
                    continue
            kept[cls] = kept.get(cls, 0) + 1
            f.write(json.dumps({"class": cls, "layout": case["layout"], "shape": case["shape"],
                                "linear": res}, separators=(",", ":")) + "\n")
    w.close()
    print(f"triton {TRITON}: wrote {sum(kept.values())} cases to {a.out}")
    for cls in sorted(kept):
        print(f"  {cls}: {kept[cls]} kept, {dropped.get(cls, 0)} refused by Triton")


if __name__ == "__main__":
    main()
