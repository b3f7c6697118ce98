#!/usr/bin/env python3
"""Generate the benchmark corpus `benches/corpus/cases.txt` (deterministic; seed below).

    python3 benches/gen_corpus.py

One case per line, tab-separated: `op  family  arg1  [arg2]`, arguments in CuTe notation as Tessera
prints it (`(2,(2,2)):(4,(1,2))`; a by-mode tiler is a tuple of layouts `(128:1,64:1)`; a
complement cotarget is an integer). Families: `mma` (SM80/SM90 MMA atoms' TV layouts), `tv`
(thread-value layouts of copies), `smem` (shared-memory tiles and swizzle-free atoms tiled to CTA
tiles), `tma` (TMA boxes over global tensors), `gemm` (CTA tilings of global matrices) and `random`
(seeded random layouts, rank 1-4, depth <= 2, <= 16 leaves, pow2 and small odd extents).

Every case is checked with the plain-Python model in tools/oracle/model.py where cheap; cases that
pycute rejects are kept out (the comparison needs all three implementations to accept a case).
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261123
OUT = os.path.join(HERE, "corpus", "cases.txt")


def txt(t):
    if isinstance(t, int):
        return str(t)
    return "(" + ",".join(txt(x) for x in t) + ")"


def L(shape, stride):
    return f"{txt(shape)}:{txt(stride)}"


def flat(t):
    return [t] if isinstance(t, int) else [x for y in t for x in flat(y)]


def size(shape):
    p = 1
    for s in flat(shape):
        p *= s
    return p


def compact(shape, start=1):
    """Column-major compact strides congruent to shape."""
    cur = [start]

    def go(s):
        if isinstance(s, int):
            d = cur[0]
            cur[0] *= s
            return d
        return tuple(go(x) for x in s)
    return go(shape)


def row_major(shape):
    """Row-major compact strides of a flat shape."""
    out, cur = [], 1
    for s in reversed(shape):
        out.append(cur)
        cur *= s
    return tuple(reversed(out))


# --------------------------------------------------------------------------- realistic layouts

# MMA atoms: (thread, value) -> (m, n) or (m, k) in a column-major tile.
MMA = {
    "sm80_16x8x16_A": (((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128))),
    "sm80_16x8x16_B": (((4, 8), (2, 2)), ((16, 1), (8, 64))),
    "sm80_16x8x16_C": (((4, 8), (2, 2)), ((32, 1), (16, 8))),
    "sm80_16x8x8_A": (((4, 8), (2, 2)), ((32, 1), (16, 8))),
    "sm80_16x8x8_B": (((4, 8), 2), ((16, 1), 8)),
    "sm70_8x8x4_C": (((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32))),
    "sm90_64x64x16_C": (((4, 8, 4), (2, 2, 8)), ((128, 1, 16), (64, 8, 512))),
    "sm90_64x128x16_C": (((4, 8, 4), (2, 2, 16)), ((128, 1, 16), (64, 8, 512))),
    "sm90_64x256x16_C": (((4, 8, 4), (2, 2, 32)), ((128, 1, 16), (64, 8, 512))),
    "sm90_64x16x16_C": (((4, 8, 4), (2, 2, 2)), ((128, 1, 16), (64, 8, 512))),
}
MMA_TILE = {  # the (M, N) or (M, K) tile the atom covers
    "sm80_16x8x16_A": (16, 16), "sm80_16x8x16_B": (8, 16), "sm80_16x8x16_C": (16, 8),
    "sm80_16x8x8_A": (16, 8), "sm80_16x8x8_B": (8, 8), "sm70_8x8x4_C": (8, 8),
    "sm90_64x64x16_C": (64, 64), "sm90_64x128x16_C": (64, 128), "sm90_64x256x16_C": (64, 256),
    "sm90_64x16x16_C": (64, 16),
}

# Thread-value layouts of tiled copies: (thread, value) -> tile index.
TV = {
    "copy_t32x4_v8": (((32, 4), 8), ((32, 1), 4)),
    "copy_64x64_t8x16_v8": (((8, 16), 8), ((1, 64), 8)),
    "ldmatrix_x4": (((8, 4), (2, 4)), ((1, 64), (8, 16))),
    "raked_32x4_4x2": (((32, 4), (4, 2)), ((4, 256), (1, 128))),
    "tv_256t_v4": ((256, 4), (4, 1)),
    "tv_128t_v2x4": ((128, (2, 4)), (2, (1, 256))),
}

# Shared-memory tiles (the layout of an smem buffer, element offsets).
SMEM = {
    "k_major_128x32": ((128, 32), (32, 1)),
    "m_major_128x32": ((128, 32), (1, 128)),
    "sw128_atom_tiled_128x64": (((8, 16), (64, 1)), ((64, 512), (1, 0))),
    "atom8x64_to_128x64_stages3": (((8, 16), 64, 3), ((64, 512), 1, 8192)),
    "interleaved_64x32": (((8, 8), (8, 4)), ((8, 64), (1, 512))),
    "padded_64x64": ((64, 64), (1, 65)),
    "gmma_kmajor_64x64": (((8, 8), (8, 8)), ((64, 512), (1, 8))),
    "stage_tile_128x128x4": ((128, 128, 4), (128, 1, 16384)),
}

# TMA boxes: a box inside a global tensor (element strides of the tensor).
TMA = {
    "box_64x256_in_4096sq": ((64, 256), (1, 4096)),
    "box_128x64_rowmajor_8192": ((128, 64), (8192, 1)),
    "box_64x2x8x16": (((64, 2), (8, 16)), ((1, 64), (4096, 32768))),
    "box3d_32x32x8": ((32, 32, 8), (1, 2048, 2048 * 2048)),
    "box_im2col_128x64": ((128, (8, 8)), (64, (1, 8192))),
}

# GEMM: global matrices (M, K) and CTA tilers.
GEMM = {
    "A_4096x4096_colmajor": ((4096, 4096), (1, 4096)),
    "A_8192x1024_rowmajor": ((8192, 1024), (1024, 1)),
    "C_4096x8192_batched4": ((4096, 8192, 4), (1, 4096, 4096 * 8192)),
    "B_2048x512": ((2048, 512), (1, 2048)),
    "A_1000x1024_odd": ((1000, 1024), (1, 1000)),
}
CTA_TILERS = [(128, 64), (128, 128), (256, 64), (64, 32), (8, 8)]


def realistic(cases):
    named = [("mma", k, v) for k, v in MMA.items()] + [("tv", k, v) for k, v in TV.items()] \
        + [("smem", k, v) for k, v in SMEM.items()] + [("tma", k, v) for k, v in TMA.items()] \
        + [("gemm", k, v) for k, v in GEMM.items()]
    for fam, name, (s, d) in named:
        cases.append(("coalesce", fam, L(s, d)))
        cases.append(("right_inverse", fam, L(s, d)))
        cases.append(("left_inverse", fam, L(s, d)))
        cases.append(("complement", fam, L(s, d), str(4 * size(s) if fam != "gemm" else 2 * size(s))))
    # composition: a column-major tile o an MMA / TV layout = (thread, value) -> element offset
    for name, (s, d) in MMA.items():
        m, n = MMA_TILE[name]
        cases.append(("composition", "mma", L((m, n), (1, m)), L(s, d)))
        cases.append(("composition", "mma", L((m, n), (n, 1)), L(s, d)))
    for name, (s, d) in TV.items():
        tile = size(s)
        cases.append(("composition", "tv", L((tile // 32, 32), (32, 1)), L(s, d)))
    # composition: smem layout o a (thread, value) partition of the tile
    cases.append(("composition", "smem", L(((8, 16), (64, 1)), ((64, 512), (1, 0))), L((128, 64), (1, 128))))
    cases.append(("composition", "smem", L((128, 32), (32, 1)), L(((32, 4), 8), ((1, 32), 128))))
    cases.append(("composition", "smem", L(((8, 8), (8, 8)), ((64, 512), (1, 8))), L((64, 64), (64, 1))))
    # TMA: a box of a global tensor o a multicast split
    cases.append(("composition", "tma", L((64, 256), (1, 4096)), L((64, (2, 128)), (1, (64, 128)))))
    cases.append(("composition", "tma", L((128, 64), (8192, 1)), L((32, 4, 64), (4, 1, 128))))
    # logical_divide: global matrices by CTA tilers (by-mode) and 1-D tiles
    for name, (s, d) in GEMM.items():
        for tm, tk in CTA_TILERS:
            if s[0] % tm == 0 and s[1] % tk == 0:
                cases.append(("logical_divide", "gemm", L(s, d), f"({tm}:1,{tk}:1)"))
        cases.append(("logical_divide", "gemm", L(s, d), L(128, 1)))
    for name, (s, d) in SMEM.items():
        cases.append(("logical_divide", "smem", L(s, d), L((4, 8), (1, 4))))
    for name, (s, d) in MMA.items():
        cases.append(("logical_divide", "mma", L(MMA_TILE[name], (1, MMA_TILE[name][0])), "(8:1,8:1)"))
    for name, (s, d) in TMA.items():
        cases.append(("logical_divide", "tma", L(s, d), L(16, 1)))
    # logical_product: atoms tiled to CTA tiles (tile_to_shape / blocked-product building blocks)
    for name, (s, d) in MMA.items():
        m, n = MMA_TILE[name]
        cases.append(("logical_product", "mma", L((m, n), (1, m)), L((2, 2), (1, 2))))
        cases.append(("logical_product", "mma", L(s, d), L(4, 1)))
    cases.append(("logical_product", "smem", L((8, 64), (64, 1)), L((16, 1), (1, 16))))
    cases.append(("logical_product", "smem", L((8, 8), (8, 1)), L((8, 4), (1, 8))))
    cases.append(("logical_product", "smem", L(8, 1), L(16, 1)))
    cases.append(("logical_product", "tv", L((32, 4), (4, 1)), L((4, 2), (1, 4))))
    cases.append(("logical_product", "tv", L(32, 1), L(8, 1)))
    cases.append(("logical_product", "tma", L((64, 8), (1, 64)), L((2, 16), (1, 2))))
    cases.append(("logical_product", "gemm", L((128, 64), (1, 128)), L((32, 64), (1, 32))))
    cases.append(("logical_product", "gemm", L(128, 1), L(32, 1)))


# --------------------------------------------------------------------------- random layouts

def rand_shape(rng, leaves):
    return [rng.choice([1, 2, 2, 4, 4, 8, 3, 6, 16]) for _ in range(leaves)]


def nest(rng, flat_vals, idx):
    """Group a flat list into a random depth-<=2 tree with the given leaf order."""
    groups, i = [], 0
    while i < len(flat_vals):
        k = rng.choice([1, 1, 2, 3])
        g = flat_vals[i:i + k]
        groups.append(g[0] if len(g) == 1 else tuple(g))
        i += k
    return groups[0] if len(groups) == 1 and isinstance(groups[0], int) else tuple(groups)


def regroup(template, vals):
    it = iter(vals)

    def go(t):
        if isinstance(t, int):
            return next(it)
        return tuple(go(x) for x in t)
    return go(template)


def rand_layout(rng, leaves, scale=1):
    sh = rand_shape(rng, leaves)
    order = list(range(leaves))
    rng.shuffle(order)
    st = [0] * leaves
    cur = scale
    for i in order:
        st[i] = cur
        cur *= sh[i]
    tmpl = nest(rng, list(range(leaves)), 0)
    return regroup(tmpl, sh), regroup(tmpl, st)


def random_cases(cases, rng, n):
    for _ in range(n):
        leaves = rng.randint(1, 6)
        s, d = rand_layout(rng, leaves, rng.choice([1, 1, 2]))
        cases.append(("coalesce", "random", L(s, d)))
        cases.append(("right_inverse", "random", L(s, d)))
        cases.append(("left_inverse", "random", L(s, d)))
        cases.append(("complement", "random", L(s, d), str(size(s) * rng.choice([2, 4, 8]) * 2)))
        # composition: B's image inside A's domain, pow2 so that pycute's divisibility holds
        sa = tuple(2 ** rng.randint(1, 3) for _ in range(rng.randint(2, 4)))
        oa = list(range(len(sa)))
        rng.shuffle(oa)
        da, cur = [0] * len(sa), 1
        for i in oa:
            da[i] = cur
            cur *= sa[i]
        sb = tuple(2 ** rng.randint(0, 2) for _ in range(rng.randint(1, 3)))
        if size(sb) * 2 <= size(sa):
            ob = list(range(len(sb)))
            rng.shuffle(ob)
            db, cur = [0] * len(sb), rng.choice([1, 2])
            for i in ob:
                db[i] = cur
                cur *= sb[i]
            cases.append(("composition", "random", L(sa, tuple(da)), L(sb, tuple(db))))
            cases.append(("logical_product", "random", L(sa, tuple(da)), L(sb, tuple(db))))
            t = tuple(2 ** rng.randint(0, 1) for _ in range(2))
            cases.append(("logical_divide", "random", L(sa, tuple(da)), L(t, compact(t))))


def rank1_cases(cases, rng):
    """Rank-1 layouts: the only complement / logical_product that CuTe C++ accepts with dynamic
    strides ("Dynamic-stride complement only for rank-1 layouts")."""
    for _ in range(20):
        s = rng.choice([2, 4, 8, 16, 32, 64, 128, 3, 6])
        d = rng.choice([1, 2, 4, 8, 16])
        cases.append(("complement", "rank1", L(s, d), str(s * d * rng.choice([1, 2, 4, 8]))))
        b = rng.choice([2, 4, 8, 16, 32])
        bd = rng.choice([1, 1, 2])
        cases.append(("logical_product", "rank1", L(s, d), L(b, bd)))


def main():
    rng = random.Random(SEED)
    cases = []
    realistic(cases)
    random_cases(cases, rng, 60)
    rank1_cases(cases, rng)
    sys.path.insert(0, os.path.join(HERE, "..", "tools", ".cache", "unpacked"))
    try:
        import pycute  # noqa: F401
        from compare import pycute_call
    except ImportError:
        pycute_call = None
    kept = []
    for c in cases:
        if pycute_call is not None:
            try:
                pycute_call(c[0], c[2:])
            except Exception:
                continue
        kept.append(c)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("# generated by benches/gen_corpus.py (seed %d); op<TAB>family<TAB>args...\n" % SEED)
        for c in kept:
            f.write("\t".join(c) + "\n")
    print(f"{len(kept)} cases ({len(cases) - len(kept)} rejected by pycute) -> {OUT}")


if __name__ == "__main__":
    main()
