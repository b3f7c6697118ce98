"""Python at parity with the CLI: every operation of the library's registry (``tessera.operations()``),
called through its Python entry point with every input kind the CLI accepts for it, gives the answer
(or the error) that the expression language gives for the same call (``tessera.batch``, the engine of
``tessera eval`` and ``tessera batch``).

The cases are made from each row's argument kinds, so a row added to the registry is walked with no
change here; a few rows get extra cases where the generic samples would all fail early.
"""

import itertools

import pytest

import tessera
import tessera.pycute as tp

ROWS = {row[0]: row for row in tessera.operations()}

PLAIN = "(4,8):(8,1)"
ATOM = "GMMA::Layout_K_SW128_Atom<half_t>"
SWZ = "Sw<1,0,1> o 0 o (4,4):(4,1)"

# Argument samples by kind (the row's kinds, `tessera.operations()[i][5]`): text, ints, tuples.
SAMPLES = {
    "layout": [PLAIN, "(2,(3,4)):(1,(2,6))", ATOM],
    "int": [2, 3],
    "tuple": [(2, 2), 8],
    "tiler": ["2:1", (2, 4), (None, 2)],
    "slice_coord": [(1, None), (None, 0)],
    "layout_or_shape": ["(2,2):(1,2)", (2, 3)],
    "layout_or_tuple": [PLAIN, (2, (3, 4)), ATOM],
    "index": [3, (1, 2), 100],
    "layouts": [PLAIN, "2:1"],
}

# Extra cases where the samples would say too little (each a tuple of arguments).
EXTRA = {
    "complement1": [(4, 2, 24), (128, 16, 2040)],
    "divides": [(4, 12), (5, 12)],
    "tile_to_shape": [(ATOM, (64, 64)), ("(2,2):(1,2)", (4, 4), (1, 0)), (SWZ, (8, 8))],
    "upcast": [(ATOM, 2), ("(4,8):(1,4)", 2)],
    "downcast": [(ATOM, 2), ("(4,8):(1,4)", 2)],
    "recast_layout": [(ATOM, 16, 32), ("(4,8):(1,4)", 16, 8)],
    "blocked_product": [(ATOM, "(2,2):(1,2)"), ("(2,2):(1,2)", (2, 3))],
    "raked_product": [(ATOM, "(2,2):(1,2)")],
    "coalesce": [(ATOM,), ("(2,(3,4)):(1,(2,6))", (1, 1))],
    "composition": [(ATOM, (8, 8)), ("(4,6,8):(2,3,5)", "6:3"), (SWZ, "(2,2):(1,2)")],
    "logical_divide": [("(3,5):(5,1)", "2:1"), (ATOM, (8, 8))],
    "zipped_divide": [("(10,12):(12,1)", (4, 8))],
    "make_layout": [((2, 3), (1, 2)), ((2, 3),), (PLAIN, "2:1", "(2,2):(1,2)")],
    "make_ordered_layout": [((2, 3, 4), (2, 0, 1))],
    "idx2crd": [(7, (2, 4)), (-1, 4)],
    "crd2idx": [((1, 2), (2, 3), (1, 2)), ((4, 0), (4, 8), (8, 1))],
    "slice": [((3, None), ATOM), ((1, None), PLAIN), ((9, None), PLAIN)],
    "local_tile": [("(8,8):(1,8)", (4, 4), (1, 1)), ("(9,8):(1,9)", (4, 4), (2, 1))],
    "local_partition": [("(8,8):(1,8)", "(2,2):(1,2)", 3)],
    "ragged_local_tile": [("(9,8):(1,9)", (4, 4), (2, 1))],
    "eval": [(PLAIN, 100), (PLAIN, (4, 0)), (PLAIN, -1), (ATOM, (3, 5)), (PLAIN, 31)],
    "make_swizzle": [(4, 32), (7, 56)],
    "max_common_vector": [(ATOM, ATOM), (PLAIN, "(4,8):(1,4)")],
    "get": [(ATOM, 1), (PLAIN, 5)],
    "right_inverse": [(ATOM,)],
    "left_inverse": [(ATOM,)],
    "cosize": [(ATOM,)],
}


def text(a):
    """An argument as the expression language writes it."""
    if a is None:
        return "_"
    if isinstance(a, tuple):
        return "(" + ",".join(text(x) for x in a) + ")"
    return str(a)


def norm(r):
    """A Python result as the expression language prints it (pycute's face read back)."""
    if r is None:
        return "_"
    if isinstance(r, tp.Layout):
        return str(r.to_tessera())
    if isinstance(r, tp.ComposedLayout):
        return str(tessera.ComposedLayout(r.layoutB, r.offset, r.layoutA))
    if isinstance(r, tp.Swizzle):
        return str(tessera.Swizzle(r.bits, r.base, r.shift))
    if isinstance(r, tuple):
        return "(" + ",".join(norm(x) for x in r) + ")"
    return str(r)


def entry(name):
    """The Python entry point of a row (``tessera.eval`` evaluates text: the row is ``apply``'s)."""
    if name == "eval":
        return lambda *a: tessera.apply("eval", *a)
    return getattr(tessera, name)


def generated(name):
    """Cases made from the row's argument kinds, for every arity it takes."""
    _, _, arities, _, _, kinds, _, _ = ROWS[name]
    out = []
    for n in arities or [2]:
        ks = kinds[:n] if kinds[-1] != "layouts" else ["layouts"] * n
        for args in itertools.product(*(SAMPLES[k] for k in ks)):
            out.append(tuple(args))
    return out[:24]


def variants(name, args):
    """The same call with each layout-text argument passed as each object kind the CLI's text
    stands for: `tessera.Layout`, `tessera.pycute.Layout`, `tessera.LinearLayout` (where the layout
    is an F2-linear bijection), `tessera.ComposedLayout` (swizzled text)."""
    yield "text", args
    policy = ROWS[name][3]
    for i, a in enumerate(args):
        if not isinstance(a, str):
            continue
        v = tessera.eval(a)
        if isinstance(v, tessera.Layout):
            yield f"Layout@{i}", args[:i] + (v,) + args[i + 1 :]
            if policy != "complement":
                yield f"pycute@{i}", args[:i] + (v.to_pycute(),) + args[i + 1 :]
            try:
                lin = tessera.LinearLayout.from_layout(v)
                if lin.to_layout() == v:
                    yield f"LinearLayout@{i}", args[:i] + (lin,) + args[i + 1 :]
            except tessera.Error:
                pass
        elif isinstance(v, tessera.ComposedLayout):
            yield f"ComposedLayout@{i}", args[:i] + (v,) + args[i + 1 :]


def expected(name, args):
    return tessera.batch([f"{name}({','.join(text(a) for a in args)})"])[0]


def check(name, args, kind, fn, orig=None):
    want = expected(name, orig if orig is not None else args)
    try:
        got = fn(*args)
    except tessera.Error as e:
        assert isinstance(
            want, tessera.Error
        ), f"{kind}: {name}{args} raised {e.code}: {e.message}, CLI: {want}"
        assert (e.code, e.message) == (want.code, want.message), f"{kind}: {name}{args}"
        return "error"
    assert not isinstance(want, tessera.Error), f"{kind}: {name}{args} = {got!r}, CLI: {want}"
    assert norm(got) == want, f"{kind}: {name}{args}"
    return "ok"


@pytest.mark.parametrize("name", sorted(ROWS))
def test_every_registry_operation_through_python(name):
    cases = generated(name) + EXTRA.get(name, [])
    outcomes = []
    for args in cases:
        for kind, a in variants(name, args):
            outcomes.append(check(name, a, kind, entry(name), args))
    assert outcomes
    # The walk exercises something: every row has a case that succeeds (the samples or EXTRA).
    assert "ok" in outcomes, name


@pytest.mark.parametrize("name", sorted(n for n, r in ROWS.items() if r[7]))
def test_ragged_forms_through_python(name):
    # A row with a ragged form: the ragged function agrees with the expression language too.
    ragged = ROWS[name][7]
    assert ragged in ROWS
    for args in EXTRA.get(ragged, []) + EXTRA.get(name, []) + generated(name)[:4]:
        check(ragged, args, "ragged", getattr(tessera, ragged))


def test_swizzled_rows_accept_every_swizzled_kind():
    # Each row that lifts to swizzled layouts takes the atom by its CUTLASS name, as text of the
    # chain and as a ComposedLayout object, and gives one answer for the three.
    atom = tessera.eval(ATOM)
    chain = str(atom)
    assert chain == "Sw<3,3,3> o 0 o (8,64):(64,1)"
    lifted = [
        n
        for n, r in ROWS.items()
        if r[6] != "refuse" and r[5] and r[5][0] in ("layout", "layout_or_shape", "layout_or_tuple")
    ]
    assert {"coalesce", "tile_to_shape", "upcast", "blocked_product", "composition"} <= set(lifted)
    for name in lifted:
        for args in EXTRA.get(name, []) + generated(name):
            if args[0] != ATOM:
                continue
            outs = []
            for a0 in (ATOM, chain, atom):
                try:
                    outs.append(norm(entry(name)(a0, *args[1:])))
                except tessera.Error as e:
                    outs.append(e.code)
            assert outs[0] == outs[1] == outs[2], (name, args, outs)


def test_composed_and_linear_layouts_have_layout_methods():
    c = tessera.eval(ATOM)
    assert (c.shape, c.rank, c.depth) == ((8, 64), 2, 1)
    table = c.print_layout()
    assert (
        table.startswith("Sw<3,3,3> o 0 o (8,64):(64,1)\n") and table.count("\n") == 2 + 2 * 8 + 1
    )
    fit = '<svg style="max-width:100%;height:auto" '
    assert c.svg().startswith("<svg") and c._repr_svg_() == c.svg().replace("<svg ", fit, 1)
    lin = tessera.LinearLayout.from_layout("(4,8):(8,1)")
    assert (lin.shape, lin.rank, lin.depth) == ((4, 8), 2, 1)
    assert lin.print_layout() == tessera.Layout("(4,8):(8,1)").print_layout()
    assert lin._repr_svg_() == tessera.Layout("(4,8):(8,1)")._repr_svg_()
    s = tessera.LinearLayout.from_layout(c)
    assert s.print_layout() == c.print_layout()
