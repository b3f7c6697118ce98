"""tessera.Layout: construction, the Python protocols, round trips with tessera.pycute.Layout."""

import pytest

import tessera
import tessera.pycute as tp
from conftest import random_layout


def test_from_notation_and_tuples():
    a = tessera.Layout("(2,(2,2)):(4,(2,1))")
    assert str(a) == "(2,(2,2)):(4,(2,1))"
    assert repr(a) == "Layout('(2,(2,2)):(4,(2,1))')"
    assert a.shape == (2, (2, 2)) and a.stride == (4, (2, 1))
    assert a == tessera.Layout((2, (2, 2)), (4, (2, 1)))
    # pycute notation is accepted too
    assert a == tessera.Layout("(2, (2, 2)):(4, (2, 1))")
    # make_layout(shape): compact column-major, size-1 modes get stride 0 (C++)
    assert str(tessera.Layout((2, 1, 3))) == "(2,1,3):(1,0,2)"
    assert str(tessera.Layout(16)) == "16:1"


def test_protocols():
    a = tessera.Layout("(4,(2,3)):(1,(4,8))")
    assert len(a) == 2 and a.rank == 2 and a.depth == 2
    assert a.size() == 24 and a.cosize() == 24
    assert [a(i) for i in range(6)] == a.values()[:6]
    assert a(1, (1, 2)) == 1 + 4 + 16
    assert str(a[1]) == "(2,3):(4,8)" and str(a[-1]) == str(a[1])
    assert [str(m) for m in a] == ["4:1", "(2,3):(4,8)"]
    assert str(a[0:2]) == str(a)
    assert str(a(None, (1, None))) == "(4,3):(1,8)"
    with pytest.raises(IndexError):
        a[2]
    assert hash(a) == hash(tessera.Layout("(4,(2,3)):(1,(4,8))"))
    assert {a: 1}[tessera.Layout("(4,(2,3)):(1,(4,8))")] == 1
    assert a != tessera.Layout("(4,(2,3)):(1,(4,9))")
    assert (a == 3) is False


def test_round_trip_with_pycute(rng):
    for _ in range(200):
        shape, stride = random_layout(rng)
        t = tessera.Layout(shape, stride)
        p = tp.Layout(shape, stride)
        assert t.to_pycute() == p and p.to_tessera() == t and t == p
        assert tessera.Layout(str(t)) == t
        assert tessera.Layout(str(p)) == t  # pycute's text parses back
        assert p.shape == shape and p.stride == stride
        assert [p(i) for i in range(p.size())] == t.values()


def test_print_layout_and_pictures():
    a = tessera.Layout("(2,(2,2)):(4,(2,1))")
    assert a.print_layout().splitlines()[2] == "    +---+---+---+---+"
    svg = a.svg()
    assert svg.startswith("<svg") and a._repr_svg_() == svg.replace(
        "<svg ", '<svg style="max-width:100%;height:auto" ', 1
    )
    assert tessera.Layout("((4,8),(2,2)):((32,1),(16,8))").tv_svg(16, 8).startswith("<svg")


def test_big_ints_are_errors_not_wraps():
    with pytest.raises(tessera.Overflow):
        tessera.Layout(2**70)
    with pytest.raises(tessera.Overflow):
        tessera.size("(4611686018427387904,4):(1,1)")
    with pytest.raises(tessera.ArgumentType):
        tessera.Layout((2.5, 2))
    with pytest.raises(tessera.NonPositiveShape):
        tessera.Layout((0, 2))
    with pytest.raises(tessera.NotCongruent):
        tessera.Layout((2, 2), (1, 2, 4))


def test_swizzles_and_composed_layouts():
    sw = tessera.Swizzle(3, 4, 3)
    assert str(sw) == "Sw<3,4,3>" and sw.size() == 1024
    c = tessera.eval("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert isinstance(c, tessera.ComposedLayout) and str(c) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert c.layoutB == sw and c.layoutA == tessera.Layout("(8,64):(64,1)")
    assert c(3) == sw(3 * 64)
    r = tessera.composition(c, (8, 8))
    assert str(r) == "Sw<3,4,3> o 0 o (8,8):(64,1)"
    assert tessera.ComposedLayout(sw, 0, tessera.Layout("(8,8):(8,1)")).size() == 64
    with pytest.raises(tessera.InvalidSwizzle) as ei:
        tessera.Swizzle(3, 0, 2)
    assert ei.value.obligation
