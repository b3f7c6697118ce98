#!/usr/bin/env python3
"""Cases for measuring shared-memory wavefronts on a real GPU (see README.md beside this file).

Each case is one warp-wide shared-memory access in the words of `tessera banks` (a shared-memory
layout, a TV layout or a named ldmatrix atom, an element type, an instruction). This script
computes the byte address every thread presents to every instruction *from the definitions*
(CuTe's colexicographic layout evaluation, `Swizzle<B,M,S>`, PTX's ldmatrix row-address rule),
written here independently of Tessera's code, and writes into OUTDIR:

- `cases.tsv`: one line per case (id, kind, smem, access, dtype, instr, width, instructions,
  smem bytes);
- `addrs.bin`: for each case in order, `instructions x 32` little-endian u32 byte addresses.

`banks_hw.cu` replays the addresses on the GPU with the real instruction and `ncu` counts the
shared-memory wavefronts. Deterministic (seeded). Usage: `gen.py OUTDIR`.
"""

from __future__ import annotations

import random
import struct
import sys
from pathlib import Path

# ---------------------------------------------------------------- layouts, from the definition


def parse_tuple(s: str, i: int = 0) -> tuple[object, int]:
    """Parses `(a,(b,c))` or `a` at s[i:]; returns (value, next index)."""
    if s[i] == "(":
        out = []
        i += 1
        while True:
            v, i = parse_tuple(s, i)
            out.append(v)
            if s[i] == ",":
                i += 1
                continue
            assert s[i] == ")"
            return tuple(out), i + 1
    j = i
    while j < len(s) and (s[j].isdigit() or s[j] == "-"):
        j += 1
    return int(s[i:j]), j


def flat(t: object) -> list[int]:
    if isinstance(t, tuple):
        return [x for e in t for x in flat(e)]
    assert isinstance(t, int)
    return [t]


Lay = tuple[list[int], list[int]]


def ev(lay: Lay, i: int) -> int:
    """The layout's value at 1-D index i (colexicographic), by the definition."""
    out = 0
    for s, d in zip(*lay):
        out += (i % s) * d
        i //= s
    assert i == 0, "index outside the domain"
    return out


def size(lay: Lay) -> int:
    n = 1
    for s in lay[0]:
        n *= s
    return n


def modes(text: str) -> list[Lay]:
    """The top-level modes of `shape:stride`, each flattened."""
    sh, st = text.split(":")
    shape, _ = parse_tuple(sh)
    stride, _ = parse_tuple(st)
    if not isinstance(shape, tuple):
        return [(flat(shape), flat(stride))]
    assert isinstance(stride, tuple)
    return [(flat(a), flat(b)) for a, b in zip(shape, stride)]


def swizzle(o: int, b: int, m: int, s: int) -> int:
    """CuTe `Swizzle<B,M,S>`: bits [M, M+B) XOR= bits [M+S, M+S+B)."""
    mask = ((1 << b) - 1) << (m + s)
    return o ^ ((o & mask) >> s)


class Smem:
    """A shared-memory layout `L` or `Sw<B,M,S> o 0 o L` over element offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sw: tuple[int, int, int] | None = None
        rest = text
        if text.startswith("Sw<"):
            head, off, rest = text.split(" o ", 2)
            assert off == "0"
            b, m, s = (int(x) for x in head[3:-1].split(","))
            self.sw = (b, m, s)
        ms = modes(rest)
        self.lay: Lay = ([x for m in ms for x in m[0]], [x for m in ms for x in m[1]])
        assert len(ms) == 2
        self.shape2 = (size(ms[0]), size(ms[1]))

    def offset(self, idx: int) -> int:
        o = ev(self.lay, idx)
        return swizzle(o, *self.sw) if self.sw else o

    def cosize(self) -> int:
        return max(self.offset(i) for i in range(size(self.lay))) + 1


ELEM = {"i8": 1, "f16": 2, "f32": 4, "f64": 8}

# ---------------------------------------------------------------- the accesses


def tv_addrs(sm: Smem, tv_text: str, elem: int, width: int) -> list[list[int]] | None:
    """Per instruction, the 32 byte addresses of a `--tv` access at `width` bytes per thread:
    instruction k moves value group k (W/elem consecutive values of every thread); a thread's
    address is the byte offset of its first value of the group. None if some group is not
    contiguous and W-aligned in shared memory (then no single instruction moves it)."""
    thr, val = modes(tv_text)
    n = width // elem
    values = size(val)
    if values % n:
        return None
    out = []
    for k in range(values // n):
        row = []
        for t in range(32):
            base = 0
            for j in range(n):
                b = sm.offset(ev(thr, t) + ev(val, k * n + j)) * elem
                if j == 0:
                    base = b
                    if b % width:
                        return None
                elif b != base + j * elem:
                    return None
            row.append(base)
        out.append(row)
    return out


def ldmatrix_addrs(sm: Smem, num: int, elem: int) -> list[list[int]]:
    """`ldmatrix.x{num}` over a K-major (M, N) tile, atom tile by atom tile. PTX: threads
    8j..8j+7 give the row addresses of matrix j. For the A operand of mma.m16n8k16 (x4) the
    matrices are (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15);
    x2 covers an 8x16 tile (k 0-7, k 8-15), x1 an 8x8 one. The addresses of threads the
    instruction ignores repeat the used ones (any legal address would do)."""
    m, n = sm.shape2
    am, an = {4: (16, 16), 2: (8, 16), 1: (8, 8)}[num]
    out = []
    for j in range(n // an):
        for i in range(m // am):
            row = []
            for t in range(32):
                u = t % (8 * num)
                mat, r = divmod(u, 8)
                if num == 4:
                    rr, cc = r + 8 * (mat % 2), 8 * (mat // 2)
                else:
                    rr, cc = r, 8 * mat
                idx = (i * am + rr) + m * (j * an + cc)
                row.append(sm.offset(idx) * elem)
            out.append(row)
    return out


# ---------------------------------------------------------------- the cases


def smem_choice(rng: random.Random, elem: int) -> tuple[str, str]:
    m = rng.choice([8, 16, 32, 64])
    n = rng.choice([64, 128, 256]) // elem
    kind = rng.choice(["row", "row", "col", "pad", "sw", "sw"])
    if kind == "row":
        return f"({m},{n}):({n},1)", "row"
    if kind == "col":
        return f"({m},{n}):(1,{m})", "col"
    if kind == "pad":
        return f"({m},{n}):({n + rng.choice([1, 2, 4, 8, 16])},1)", "row"
    # Swizzles in element units: the 16-byte unit is 2^M elements.
    mbits = {1: 4, 2: 3, 4: 2, 8: 1}[elem]
    return f"Sw<{rng.choice([1, 2, 3])},{mbits},3> o 0 o ({m},{n}):({n},1)", "row"


def random_tv(
    rng: random.Random, m: int, n: int, major: str, nvec: int, reps: int
) -> str | None:
    """A TV layout: 32 threads over the (m, n) domain (index r + m*c), each with `reps` vectors of
    `nvec` elements contiguous in the smem's major direction."""
    if major == "row":  # contiguous along c
        vstride, vext, other, oext = m, n, 1, m
    else:  # contiguous along r
        vstride, vext, other, oext = 1, m, m, n
    groups = vext // nvec
    for _ in range(50):
        ta = rng.choice([1, 2, 4, 8, 16, 32])
        tb = 32 // ta
        sa = rng.choice([1, 1, 2, 3, 4])
        sb = rng.choice([1, 1, 2, 3, 4, 8])
        if (ta - 1) * sa >= groups or (tb - 1) * sb >= oext:
            continue
        if reps == 1:
            rep = None
        elif tb * sb * reps <= oext:
            rep = tb * sb * other
        elif ta * sa * reps <= groups:
            rep = ta * sa * nvec * vstride
        else:
            continue
        a, b = sa * nvec * vstride, sb * other
        if rng.random() < 0.5:
            ts, td = f"({ta},{tb})", f"({a},{b})"
        else:
            ts, td = f"({tb},{ta})", f"({b},{a})"
        if rep is None:
            vs, vd = f"{nvec}", f"{vstride}"
        else:
            vs, vd = f"({nvec},{reps})", f"({vstride},{rep})"
        return f"({ts},{vs}):({td},{vd})"
    return None


LDMATRIX_SMEM = [
    "(64,64):(64,1)",
    "(64,64):(72,1)",
    "(64,64):(66,1)",
    "(16,16):(16,1)",
    "(32,32):(32,1)",
    "(32,32):(40,1)",
    "(128,32):(32,1)",
    "(32,64):(1,32)",
    "Sw<3,3,3> o 0 o (64,64):(64,1)",
    "Sw<2,3,3> o 0 o (64,64):(64,1)",
    "Sw<1,3,3> o 0 o (64,64):(64,1)",
    "Sw<2,3,3> o 0 o (64,32):(32,1)",
    "Sw<1,3,3> o 0 o (64,16):(16,1)",
    "Sw<3,3,3> o 0 o (32,64):(64,1)",
    "Sw<3,3,3> o 0 o (64,32):(32,1)",
    "Sw<2,3,3> o 0 o (128,32):(32,1)",
]


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(20261128)
    cases: list[tuple[str, str, str, str, str, int, list[list[int]]]] = []
    for s in LDMATRIX_SMEM:
        sm = Smem(s)
        for num in (4, 2, 1):
            am, an = {4: (16, 16), 2: (8, 16), 1: (8, 8)}[num]
            if sm.shape2[0] % am or sm.shape2[1] % an:
                continue
            a = ldmatrix_addrs(sm, num, 2)
            if any(x % 16 for r in a for x in r):
                continue  # ldmatrix faults on a row address that is not 16-byte aligned
            cases.append(
                ("atom", s, f"ldmatrix.x{num}", "f16", f"ldmatrix.x{num}", 16, a)
            )
    tries = 0
    while sum(c[0] == "tv" for c in cases) < 300 and tries < 100000:
        tries += 1
        dt = rng.choice(["f16", "f16", "f32", "f32", "i8", "f64"])
        elem = ELEM[dt]
        width = rng.choice([w for w in (4, 8, 16) if w >= elem])
        s, major = smem_choice(rng, elem)
        sm = Smem(s)
        if sm.cosize() * elem > 48 * 1024:
            continue
        tv = random_tv(rng, *sm.shape2, major, width // elem, rng.choice([1, 1, 2, 4]))
        if tv is None:
            continue
        addrs = tv_addrs(sm, tv, elem, width)
        if addrs is None:
            continue
        op = rng.choice(["ld", "ld", "st"])
        cases.append(("tv", s, tv, dt, f"{op}.shared.{width}", width, addrs))
    with open(out / "cases.tsv", "w") as f, open(out / "addrs.bin", "wb") as b:
        f.write(
            "id\tkind\tsmem\taccess\tdtype\tinstr\twidth\tinstructions\tsmem_bytes\n"
        )
        for i, (kind, s, acc, dt, instr, width, a) in enumerate(cases):
            span = max(max(r) for r in a) + width
            f.write(
                f"{i}\t{kind}\t{s}\t{acc}\t{dt}\t{instr}\t{width}\t{len(a)}\t{span}\n"
            )
            b.writelines(struct.pack("<32I", *r) for r in a)
    print(f"{len(cases)} cases ({tries} tries)")


if __name__ == "__main__":
    main()
