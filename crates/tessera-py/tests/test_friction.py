"""The friction a new Python user met (issue 27's list), each item a test that fails if it comes back."""

import pytest

import tessera
import tessera.pycute as tp

ATOM = "GMMA::Layout_K_SW128_Atom<half_t>"


# -- swizzled layouts are first-class ------------------------------------------------------------


def test_tile_to_shape_takes_an_atom_by_name():
    r = tessera.tile_to_shape(ATOM, (64, 64))
    assert isinstance(r, tessera.ComposedLayout)
    assert str(r) == str(tessera.eval(f"tile_to_shape({ATOM},(64,64))"))


@pytest.mark.parametrize(
    "fn, args",
    [
        ("tile_to_shape", ((64, 64),)),
        ("coalesce", ()),
        ("upcast", (2,)),
        ("downcast", (2,)),
        ("blocked_product", ("(2,2):(1,2)",)),
        ("raked_product", ("(2,2):(1,2)",)),
        ("logical_divide", ((8, 8),)),
        ("filter", ()),
    ],
)
def test_functions_take_a_composed_layout(fn, args):
    c = tessera.eval(ATOM)
    assert isinstance(c, tessera.ComposedLayout)
    r = getattr(tessera, fn)(c, *args)
    text = ",".join([ATOM] + [str(a).replace(" ", "") for a in args])
    assert str(r) == str(tessera.eval(f"{fn}({text})"))


def test_composed_layout_has_the_layout_methods():
    c = tessera.eval(ATOM)
    assert c.shape == (8, 64) and c.rank == 2 and c.depth == 1
    assert c.print_layout().splitlines()[0] == "Sw<3,3,3> o 0 o (8,64):(64,1)"
    assert "<svg" in c.svg() and c._repr_svg_() is not None
    tessera.print_layout(c)  # the function form takes it too


# -- out-of-domain coordinates raise ---------------------------------------------------------------


@pytest.mark.parametrize("coord", [(100,), (4, 0), (-1,), ((0, 8),)])
def test_out_of_domain_coordinates_raise(coord):
    L = tessera.Layout("(4,8):(8,1)")
    with pytest.raises(tessera.OutOfDomain):
        L(*coord)
    # in the domain: the layout function
    assert L(31) == 31 and L(3, 7) == 31 and L((3, 7)) == 31
    with pytest.raises(tessera.OutOfDomain):
        tessera.eval(ATOM)(8, 0)


def test_pycute_face_keeps_pycute_extrapolation():
    # pycute evaluates past the domain (CuTe's last mode extends); the drop-in keeps that.
    assert tp.Layout((4, 8), (8, 1))(100) == 25


# -- what a CuTe user reaches for --------------------------------------------------------------------


def test_the_missing_functions_exist():
    L = tessera.Layout("(8,8):(1,8)")
    assert tessera.local_tile(L, (4, 4), (1, 1)) == (tessera.Layout("(4,4):(1,8)"), 36)
    part, off = tessera.local_partition(L, "(2,2):(1,2)", 3)
    assert isinstance(part, tessera.Layout) and off == 9
    assert tessera.slice((1, None), tessera.Layout("(4,8):(8,1)")) == tessera.Layout("(8):(1)")
    assert tessera.crd2idx((1, 2), (2, 3), (1, 2)) == 5
    assert tessera.idx2crd(7, (2, 4)) == (1, 3)
    assert tessera.rank(L) == 2 and tessera.depth("(2,(3,4)):(1,(2,6))") == 2
    assert tessera.recast("(4,8):(1,4)", 16, 32) == tessera.Layout("(2,8):(1,2)")
    assert tessera.recast_layout("(4,8):(1,4)", 16, 8) == tessera.Layout("(8,8):(1,8)")
    w = tessera.with_shape("(4,8):(8,1)", (8, 4))
    assert tessera.product_each(w.shape) == (8, 4) and [w(i) for i in range(32)] == [
        tessera.Layout("(4,8):(8,1)")(i) for i in range(32)
    ]
    assert tessera.product_each((2, (3, 4), 5)) == (2, 12, 5)
    assert tessera.ceil_div(10, 4) == 3 and tessera.ceil_div((10, 7), (4, 7)) == (3, 1)
    assert tessera.shape_div((4, 6), 8) == (1, 3)
    with pytest.raises(tessera.Divisibility):
        tessera.shape_div(3, 2)
    with pytest.raises(tessera.RankMismatch):
        tessera.ceil_div((1, 2), (1, 2, 3))


def test_print_layout_function_and_rank_one(capsys):
    tessera.print_layout("(2,2):(2,1)")
    out = capsys.readouterr().out
    assert out == tessera.Layout("(2,2):(2,1)").print_layout()
    # CuTe's header row ends with a blank (the docstring example compares modulo whitespace)
    assert out.splitlines()[1] == "      0   1 "
    # rank 1: one column, as CuTe prints it
    t = tessera.Layout("4:2").print_layout()
    assert t.splitlines()[0] == "4:2"
    rows = [l for l in t.splitlines() if "|" in l]
    assert [int(r.split("|")[1]) for r in rows] == [0, 2, 4, 6]
    with pytest.raises(tessera.RankMismatch):
        tessera.Layout("(2,2,2):(1,2,4)").print_layout()


def test_bank_analysis_is_an_object():
    r = tessera.bank_conflicts("(32,32):(1,32)", "f32", tv="(32,1):(32,0)")
    assert isinstance(r, tessera.BankReport) and r.wavefronts == 32 and r.ideal == 1


def test_swizzle_synthesis_is_an_object():
    s = tessera.synthesize_swizzle("(64,64):(64,1)", "f16", writer="tma", reader="ldmatrix.x4")
    assert isinstance(s, tessera.SwizzleSynthesis)
    best = s.best
    assert best.conflict_free and best.smem == tessera.eval("Sw<3,3,3> o 0 o (64,64):(64,1)")
    # the candidate's layout is a value to use: analysing it again gives its reader's report
    again = tessera.bank_conflicts(best.smem, "f16", atom="ldmatrix.x4")
    assert again.wavefronts == best.reader.wavefronts == best.reader.ideal
    assert not s.base.conflict_free and s.base.cost[0] > s.base.cost[1]
    assert str(s).startswith("writer tma, reader ldmatrix.x4") and '"cute"' in s.json()


# -- small ------------------------------------------------------------------------------------------


def test_singular_counts():
    r = tessera.bank_conflicts("(32,32):(1,32)", "f32", tv="(32,1):(1,0)")
    assert r.wavefronts == 1
    assert "1 wavefront," in repr(r) and "wavefronts" not in repr(r)


def test_local_tile_and_ragged_local_tile_print_alike():
    a = tessera.local_tile("(8,8):(1,8)", (4, 4), (1, 1))
    b = tessera.ragged_local_tile("(8,8):(1,8)", (4, 4), (1, 1))
    assert b.startswith(tessera.batch(["local_tile((8,8):(1,8),(4,4),(1,1))"])[0] + " [")
    assert b.startswith("((4,4):(1,8),36) [") and a == (tessera.Layout("(4,4):(1,8)"), 36)


def test_did_you_mean_for_a_misspelt_function():
    with pytest.raises(AttributeError, match="did you mean 'complement'"):
        tessera.complemnt  # noqa: B018
    with pytest.raises(tessera.UnknownFunction) as ei:
        tessera.apply("complemnt", "4:1")
    assert "did you mean `complement`" in str(ei.value)
    with pytest.raises(tessera.UnknownFunction) as ei:
        tessera.eval("logical_divde(8:1,2:1)")
    assert "did you mean `logical_divide`" in str(ei.value)


# -- pycute drop-in: except AssertionError still works -----------------------------------------------


def test_pycute_face_errors_are_assertion_errors():
    with pytest.raises(AssertionError):
        tp.composition(tp.Layout((4, 6, 8), (2, 3, 5)), tp.Layout(6, 3))
    with pytest.raises(AssertionError):
        tp.complement(tp.Layout((2, 2), (1, 1)))
    with pytest.raises(AssertionError):
        tp.shape_div(3, 2)
    with pytest.raises(AssertionError):
        tp.left_inverse(tp.Layout(4, -1))
    try:
        tp.logical_divide(tp.Layout((3, 5), (5, 1)), tp.Layout(2, 1))
    except AssertionError as e:
        assert isinstance(e, tessera.InadmissibleComposition)  # still the typed error
    # tessera's own face stays a ValueError only
    with pytest.raises(tessera.InadmissibleComposition) as ei:
        tessera.composition("(4,6,8):(2,3,5)", "6:3")
    assert not isinstance(ei.value, AssertionError)
