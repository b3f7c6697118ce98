# pyright: strict
"""A script that uses the whole public API with annotated results: `mypy --strict` and `pyright`
must find no error in it (crates/tessera-py/check.sh), and it runs (tests/test_typing.py)."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Union

import tessera
import tessera.pycute as pycute
from tessera import triton as tt

# Layouts, their methods and the algebra on plain layouts: precise types, no Any.
A: tessera.Layout = tessera.Layout("(6,2):(8,2)")
B: tessera.Layout = tessera.Layout((4, 3), (3, 1))
C: tessera.Layout = A @ B
i: int = A(3)
j: int = A(1, 1)
shape: tessera.IntTuple = A.shape
n: int = A.size() + A.cosize() + A.rank + A.depth + len(A)
table: str = tessera.Layout("(2,2):(2,1)").print_layout()
pic: Optional[str] = A._repr_svg_()
modes: List[tessera.Layout] = list(A)
first: tessera.Layout = A[0]
first_two: tessera.Layout = A[0:2]
vals: List[int] = A.values()
comp: tessera.Layout = tessera.composition(A, B)
ld: tessera.Layout = tessera.logical_divide(A, 2)
zd: tessera.Layout = tessera.zipped_divide(A, (2, None))
td: tessera.Layout = tessera.tiled_divide(A, 2)
fd: tessera.Layout = tessera.flat_divide(A, 2)
lp: tessera.Layout = tessera.logical_product(B, 2)
zp: tessera.Layout = tessera.zipped_product(B, 2)
tp_: tessera.Layout = tessera.tiled_product(B, 2)
fp: tessera.Layout = tessera.flat_product(B, 2)
bp: tessera.Layout = tessera.blocked_product(B, (2, 2))
rp: tessera.Layout = tessera.raked_product(B, tessera.Layout("(2,2):(1,2)"))
co: tessera.Layout = tessera.coalesce(A)
fi: tessera.Layout = tessera.filter(A, (1, 1))
cm: tessera.Layout = tessera.complement(tessera.Layout("4:2"), 24)
ce: tessera.Layout = tessera.complement_exact(tessera.Layout("4:2"), 24)
c1: tessera.Layout = tessera.complement1(4, 2, 24)
ri: tessera.Layout = tessera.right_inverse(B)
li: tessera.Layout = tessera.left_inverse(B)
ml: tessera.Layout = tessera.make_layout(A, B)
mo: tessera.Layout = tessera.make_ordered_layout((2, 3), (1, 0))
ts: tessera.Layout = tessera.tile_to_shape(tessera.Layout("(2,2):(1,2)"), (4, 4))
up: tessera.Layout = tessera.upcast(tessera.Layout("(4,8):(1,4)"), 2)
dn: tessera.Layout = tessera.downcast(tessera.Layout("(4,8):(1,4)"), 2)
ns: tessera.Layout = tessera.nullspace(tessera.Layout("(2,4):(0,1)"))
mcl: tessera.Layout = tessera.max_common_layout(B, B)
mcv: int = tessera.max_common_vector(B, B)
sz: int = tessera.size("(4,8):(8,1)") + tessera.cosize(A)
rk: int = tessera.rank(A) + tessera.depth((2, (3, 4)))
sh: tessera.IntTuple = tessera.shape(A)
st: tessera.IntTuple = tessera.stride(A)
fl: tessera.Layout = tessera.flatten(A)
g: tessera.Layout = tessera.get(A, 1)
crd: tessera.IntTuple = tessera.idx2crd(7, (2, 4))
idx: int = tessera.crd2idx((1, 2), (2, 3), (1, 2))
sl: tessera.Layout = tessera.slice((1, None), A)
tile: Tuple[tessera.Layout, int] = tessera.local_tile("(8,8):(1,8)", (4, 4), (1, 1))
part: Tuple[tessera.Layout, int] = tessera.local_partition("(8,8):(1,8)", (2, 2), 3)
rt: str = tessera.ragged_local_tile("(9,8):(1,9)", (4, 4), (2, 1))
rpt: str = tessera.ragged_local_partition("(8,8):(1,8)", (2, 2), 3)
rld: str = tessera.ragged_logical_divide("(3,5):(5,1)", "2:1")
rzd: str = tessera.ragged_zipped_divide("(3,5):(5,1)", "2:1")
rtd: str = tessera.ragged_tiled_divide("(3,5):(5,1)", "2:1")
rfd: str = tessera.ragged_flat_divide("(3,5):(5,1)", "2:1")
trace: str = tessera.coalesce_trace(A)
dv: int = tessera.divides(4, 12)
rc: tessera.Layout = tessera.recast_layout(tessera.Layout("(4,8):(1,4)"), 16, 32)
ws: tessera.Layout = tessera.with_shape("(4,8):(8,1)", (8, 4))
rc2: tessera.Layout = tessera.recast("(4,8):(1,4)", 16, 32)
pe: tessera.IntTuple = tessera.product_each((2, (3, 4)))
cd: tessera.IntTuple = tessera.ceil_div((10, 7), (4, 7))
sd: tessera.IntTuple = tessera.shape_div((4, 6), 8)
tessera.print_layout("(2,2):(2,1)")

# Swizzled and composed layouts: the union where an argument may be swizzled.
sw: tessera.Swizzle = tessera.Swizzle(3, 4, 3)
sw2: tessera.Swizzle = tessera.make_swizzle(4, 32)
atom = tessera.eval("GMMA::Layout_K_SW128_Atom<half_t>")
assert isinstance(atom, tessera.ComposedLayout)
cl: tessera.ComposedLayout = atom
big: tessera.AnyLayout = tessera.tile_to_shape(cl, (64, 64))
csh: tessera.IntTuple = cl.shape
crank: int = cl.rank + cl.depth + cl.size() + cl.cosize()
cpic: str = cl.svg(2) + cl.print_layout()
inner: tessera.AnyLayout = cl.layoutA
x: int = cl(3, 5)
swc: tessera.AnyLayout = tessera.composition(sw, cl)
cu: tessera.AnyLayout = tessera.upcast(cl, 2)
cc: tessera.AnyLayout = tessera.coalesce(cl)
cb: tessera.AnyLayout = tessera.blocked_product(cl, (2, 2))

# Linear layouts (Triton's API) and Gluon.
lin: tessera.LinearLayout = tessera.LinearLayout.from_layout("(4,8):(8,1)")
bases: List[Tuple[str, List[List[int]]]] = lin.bases
outs: List[Tuple[str, int]] = lin.out_dims
point: Dict[str, int] = lin.apply({"dim0": 1, "dim1": 2})
back: Union[tessera.Layout, tessera.ComposedLayout] = lin.to_layout()
inv: tessera.LinearLayout = lin.invert().compose(lin)
lsh: tessera.IntTuple = lin.shape
lpic: Optional[str] = lin._repr_svg_()
viaLinear: tessera.AnyLayout = tessera.coalesce(lin)
s = tt.from_gluon("NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16)", [64, 32])
name: Optional[str] = tt.to_gluon(s)
tv: tessera.Layout = tt.tv_layout(
    tt.from_gluon(
        "NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])",
        [32, 16],
    )
)
rep: tessera.BankReport = tessera.bank_conflicts(s, "f16", atom="ldmatrix.x4")
wf: int = rep.wavefronts + rep.ideal + rep.instructions + rep.phases + rep.vector_bytes
cf: float = rep.conflict_factor
syn: tessera.SwizzleSynthesis = tessera.synthesize_swizzle("(64,64):(64,1)", "f16")
best: Union[tessera.Layout, tessera.ComposedLayout, tessera.LinearLayout] = syn.best.smem
free: bool = syn.best.conflict_free and syn.best.reader.wavefronts == syn.best.reader.ideal
cands: List[tessera.SwizzleCandidate] = syn.cute

# Errors: typed, with their diagnostic and suggestions to pass back.
try:
    tessera.composition("(4,6,8):(2,3,5)", "6:3")
except tessera.InadmissibleComposition as e:
    code: str = e.code
    ob: Optional[str] = e.obligation
    notes: List[str] = e.notes
    sug: tessera.Suggestion = e.suggestions[0]
    fixed: object = sug.changed[1]
    again: object = sug.call()
    diag: str = str(e)
errs: List[str] = tessera.error_codes()
ex: Optional[Tuple[str, str, str]] = tessera.explain("divisibility")
results: List[Union[str, Exception]] = tessera.batch(["complement(4:2,24)"])
many: tessera.Results = tessera.apply_many([("coalesce", (A,))])
some: List[Union[tessera.Value, Exception]] = many[0:1]
rows: List[Tuple[str, str, List[int], str, List[str], List[str], str, str]] = tessera.operations()
val: tessera.Value = tessera.apply("size", A)
ev: tessera.Value = tessera.eval("size(4:1)")

# Schedules, TMA, ragged, kernel checks.
sched: tessera.Schedule = tessera.Schedule("I0 = iter 6\nI1, I2 = split I0 by 4\nloop I1 I2\n", "s")
counts: Optional[Tuple[int, int, int]] = sched.counts()
pred: str = sched.predicate_text()
tma: tessera.TmaReport = tessera.tma_check(
    "f16", [4096, 4096], [128, 128], "128B", sm=90, oob_fill="nan"
)
ok: bool = tma.valid
tma_errors: List[str] = tma.errors()
rg = tessera.ragged("logical_divide((3,5):(5,1),2:1)")
verdict: str = tessera.check(
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma"
).verdict

# pycute's face.
P: pycute.Layout = pycute.Layout((2, (2, 2)), (4, (1, 2)))
pv: int = P(5)
pc: object = pycute.coalesce(P)
