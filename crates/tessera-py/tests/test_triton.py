"""Triton/Gluon interop: ``tessera.LinearLayout`` and ``tessera.triton`` against Triton 3.9.0's own
conversions (``tests/data/triton_layouts.jsonl``, written by ``tools/oracle/triton_layouts.py``),
with no Triton installed: each oracle layout is rebuilt as a dataclass of the same class name and
fields, read by ``from_gluon``, and compared point by point with Triton's bases."""

import dataclasses
import json
import os
import random
from collections import Counter

import pytest

import tessera
from tessera import LinearLayout
from tessera import triton as tt

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
ORACLE = os.path.join(ROOT, "tests", "data", "triton_layouts.jsonl")

FIELDS = {
    "BlockedLayout": [
        "size_per_thread",
        "threads_per_warp",
        "warps_per_cta",
        "order",
        "cga_layout",
    ],
    "SliceLayout": ["dim", "parent"],
    "DotOperandLayout": ["operand_index", "parent", "k_width"],
    "NVMMADistributedLayout": ["version", "warps_per_cta", "instr_shape", "cga_layout"],
    "DistributedLinearLayout": ["reg_bases", "lane_bases", "warp_bases", "block_bases", "shape"],
    "NVMMASharedLayout": [
        "swizzle_byte_width",
        "element_bitwidth",
        "rank",
        "transposed",
        "fp4_padded",
        "cga_layout",
    ],
    "SwizzledSharedLayout": ["vec", "per_phase", "max_phase", "order", "cga_layout"],
    "PaddedSharedLayout": ["interval_padding_pairs", "offset_bases", "cga_layout", "shape"],
    "SharedLinearLayout": ["offset_bases", "block_bases", "alignment"],
}
DEFAULTS = {
    "cga_layout": [],
    "rank": 2,
    "transposed": False,
    "fp4_padded": False,
    "block_bases": [],
    "alignment": 16,
}
# Stand-ins for Triton's frozen dataclasses: same class names, same fields, the trailing ones with
# Triton's defaults.


def _stand_in(name, fields):
    spec, trailing = [], True
    for f in reversed(fields):
        trailing = trailing and f in DEFAULTS
        if trailing:
            spec.append((f, object, dataclasses.field(default_factory=lambda v=DEFAULTS[f]: v)))
        else:
            spec.append((f, object))
    return dataclasses.make_dataclass(name, list(reversed(spec)), frozen=True)


CLASSES = {name: _stand_in(name, fields) for name, fields in FIELDS.items()}


def build(d):
    d = dict(d)
    cls = CLASSES[d.pop("class")]
    if "parent" in d:
        d["parent"] = build(d["parent"])
    return cls(**d)


def cases():
    with open(ORACLE) as f:
        return [json.loads(line) for line in f]


def xor_apply(groups, x):
    """Triton's bases applied to a flattened input (first group lowest), per output dimension."""
    out = None
    bit = 0
    for bases in groups:
        for b in bases:
            if out is None:
                out = [0] * len(b)
            if x >> bit & 1:
                out = [o ^ v for o, v in zip(out, b)]
            bit += 1
    return out


def test_oracle_covers_every_class():
    counts = Counter(c["class"] for c in cases())
    assert set(counts) == set(tt.GLUON_CLASSES)
    assert sum(counts.values()) >= 200


@pytest.mark.parametrize("case", cases(), ids=lambda c: c["class"])
def test_agrees_with_triton_point_by_point(case):
    layout = build(case["layout"])
    shape = case["shape"]
    ours = tt.from_gluon(layout, shape)
    assert ours.out_dims == [(f"dim{i}", s) for i, s in enumerate(shape)]
    lin = case["linear"]
    shared = case["class"] in (
        "NVMMASharedLayout",
        "SwizzledSharedLayout",
        "PaddedSharedLayout",
        "SharedLinearLayout",
    )
    if (
        lin is None
    ):  # PaddedSharedLayout: Triton has no linear layout; its linear component is given.
        lin = {
            "offset_bases": case["layout"]["offset_bases"],
            "block_bases": case["layout"]["cga_layout"],
        }
    keys = (
        [("offset", "offset_bases"), ("block", "block_bases")]
        if shared
        else [
            ("register", "reg_bases"),
            ("lane", "lane_bases"),
            ("warp", "warp_bases"),
            ("block", "block_bases"),
        ]
    )
    groups = [lin[k] for _, k in keys]
    names = [n for n, _ in keys]
    assert [n for n, _ in ours.in_dims] == names
    sizes = [1 << len(g) for g in groups]
    total = 1
    for s in sizes:
        total *= s
    rng = random.Random(len(json.dumps(case)))
    points = range(total) if total <= 1024 else [rng.randrange(total) for _ in range(512)]
    for x in points:
        ins, rest = {}, x
        for n, s in zip(names, sizes):
            ins[n] = rest % s
            rest //= s
        got = ours.apply(ins)
        assert [got[f"dim{i}"] for i in range(len(shape))] == xor_apply(groups, x), (case, ins)


def test_to_gluon_names_every_nvmma_and_swizzled_oracle_layout():
    named = 0
    for case in cases():
        if case["class"] not in ("NVMMASharedLayout", "SwizzledSharedLayout") or case["layout"].get(
            "cga_layout"
        ):
            continue
        l = tt.from_gluon(build(case["layout"]), case["shape"])
        text = tt.to_gluon(l)
        assert text is not None, case
        assert tt.from_gluon(text, case["shape"]).equivalent(l)
        named += 1
    assert named >= 60
    # An XOR pattern no constructor makes.
    odd = LinearLayout.from_bases([("offset", [[0, 1], [1, 1], [0, 2], [2, 0]])], ["dim0", "dim1"])
    assert tt.to_gluon(odd) is None


def test_triton_linear_layout_api():
    l = LinearLayout.from_bases(
        [("register", [[0, 1], [1, 0]]), ("lane", [[0, 2]])], ["dim0", "dim1"]
    )
    # The values Triton 3.9.0 prints for the same calls.
    assert l.out_dims == [("dim0", 2), ("dim1", 4)]
    assert l.bases == [("register", [[0, 1], [1, 0]]), ("lane", [[0, 2]])]
    assert l.apply({"register": 3, "lane": 1}) == {"dim0": 1, "dim1": 3}
    assert l.get_in_dim_names() == ["register", "lane"]
    assert l.in_dims == [("register", 4), ("lane", 2)]
    inv = l.invert()
    assert l.compose(inv).bases == [("register", [[1, 0], [2, 0]]), ("lane", [[0, 1]])]
    for x in range(8):
        v = l.apply({"register": x % 4, "lane": x // 4})
        back = inv.apply(v)
        assert (back["register"], back["lane"]) == (x % 4, x // 4)
    # invert_and_compose: C with outer(C(x)) == self(x).
    outer = LinearLayout.from_bases([("offset", [[1, 0], [0, 1], [0, 2]])], ["dim0", "dim1"])
    c = l.invert_and_compose(outer)
    for r in range(4):
        for ln in range(2):
            assert outer.apply(c.apply({"register": r, "lane": ln})) == l.apply(
                {"register": r, "lane": ln}
            )
    with pytest.raises(tessera.BankError):
        LinearLayout.from_bases([("offset", [[1], [1]])], ["dim0"]).invert()
    with pytest.raises(tessera.BankError):
        LinearLayout.from_bases([("offset", [[2]])], ["dim0"])  # not surjective
    assert LinearLayout(str(l)) == l and LinearLayout(l.to_json()) == l
    assert eval(repr(l), {"LinearLayout": LinearLayout}) == l
    assert hash(LinearLayout(str(l))) == hash(l)


def test_cute_layouts_in_and_out():
    l = LinearLayout.from_layout("(4,8):(8,1)")
    assert str(l) == "dim0 = [[8], [16]], dim1 = [[1], [2], [4]] -> offset = 32"
    assert l.to_layout() == tessera.Layout("(4,8):(8,1)")
    sw = LinearLayout.from_layout(tessera.eval("Sw<3,3,3> o 0 o (64,64):(64,1)"))
    back = sw.to_layout()
    assert (
        isinstance(back, tessera.ComposedLayout) and str(back) == "Sw<3,3,3> o 0 o (64,64):(64,1)"
    )
    with pytest.raises(tessera.BankError):
        LinearLayout.from_layout("(3,4):(1,3)")


def test_cute_names_the_swizzle_of_shared_layouts():
    assert str(tt.cute("NVMMASharedLayout(128, 16)", [64, 64])) == "Sw<3,3,3> o 0 o (64,64):(64,1)"
    assert str(tt.cute("NVMMASharedLayout(64, 16)", [64, 32])) == "Sw<2,3,3> o 0 o (64,32):(32,1)"
    assert (
        str(tt.cute("NVMMASharedLayout(128, 8)", [64, 128])) == "Sw<3,4,3> o 0 o (64,128):(128,1)"
    )
    assert str(tt.cute("NVMMASharedLayout(0, 16)", [64, 64])) == "(64,64):(64,1)"
    # cute(l) is the inverse of Triton's offset map on every coordinate.
    l = tt.from_gluon("NVMMASharedLayout(128, 16, 2, True)", [64, 64])
    c = tt.cute(l)
    for off in range(64 * 64):
        v = l.apply({"offset": off})
        assert c((v["dim0"], v["dim1"])) == off


def test_padded_shared_layout_follows_its_docstring():
    # Triton's docstring: shape [8, 4], pairs [[8, 1]], offset_bases [[0,1],[0,2],[2,0],[4,0],[1,0]]
    # gives rows x0 x2 | pad | x4 x6 | pad | x1 x3 | pad | x5 x7 (one pad after every 8 elements).
    p = "PaddedSharedLayout([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], [], [8, 4])"
    lin = tt.from_gluon(p)
    memory = {}
    for off in range(32):
        v = lin.apply({"offset": off})
        memory[tt.padded_offset(p, off)] = (v["dim0"], v["dim1"])
    rows = [memory[a][0] for a in sorted(memory)][::4]
    assert rows == [0, 2, 4, 6, 1, 3, 5, 7]
    assert sorted(set(range(35)) - set(memory)) == [8, 17, 26]
    # First docstring example: pairs [[2, 1], [4, 2]].
    q = "PaddedSharedLayout([[2, 1], [4, 2]], [[1], [2], [4]], [], [8])"
    assert [tt.padded_offset(q, o) for o in range(8)] == [0, 1, 3, 4, 8, 9, 11, 12]


def test_gluon_dataclass_fields_are_read_without_triton():
    B = CLASSES["BlockedLayout"]
    b = B([1, 4], [4, 8], [4, 1], [1, 0])
    assert (
        tt.gluon_text(b)
        == "BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0], cga_layout=[])"
    )
    assert tt.from_gluon(b, [32, 64]) == tt.from_gluon(tt.gluon_text(b), [32, 64])
    with pytest.raises(tessera.BankError, match="shape"):
        tt.from_gluon(b)
    with pytest.raises(tessera.BankError, match="column"):
        tt.from_gluon("BlockedLayout([1, 4] [4, 8])", [4, 4])
    with pytest.raises(TypeError):
        tt.from_gluon(object(), [4])


def test_bank_conflicts_take_linear_layouts_in_either_direction():
    s = tt.from_gluon("NVMMASharedLayout(128, 16)", [64, 64])
    a = tessera.bank_conflicts(s, atom="ldmatrix.x4", dtype="f16")
    b = tessera.bank_conflicts(tt.cute(s), atom="ldmatrix.x4", dtype="f16")
    c = tessera.bank_conflicts(s.invert(), atom="ldmatrix.x4", dtype="f16")
    assert a.wavefronts == b.wavefronts == c.wavefronts == 64
    plain = tt.from_gluon("NVMMASharedLayout(0, 16)", [64, 64])
    assert tessera.bank_conflicts(plain, atom="ldmatrix.x4", dtype="f16").wavefronts == 512


def test_readme_triton_section_examples():
    import doctest

    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme[readme.index("## Triton and Gluon") :]
    section = section[: section.index("\n## ", 3)]
    blocks = [b.split("```")[0] for b in section.split("```python\n")[1:]]
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for i, b in enumerate(blocks):
            runner.run(parser.get_doctest(b, {}, f"README-triton-{i}", "README.md", 0))
    finally:
        os.chdir(cwd)
    r = runner.summarize(verbose=False)
    assert r.failed == 0 and r.attempted >= 8
