"""Postconditions of the operations, on seeded random layouts, through the Python API."""

import pytest

import tessera
from conftest import random_layout


def layouts(rng, n=150, **kw):
    for _ in range(n):
        yield tessera.Layout(*random_layout(rng, **kw))


def test_coalesce_preserves_the_function(rng):
    for a in layouts(rng):
        c = tessera.coalesce(a)
        assert c.size() == a.size()
        assert c.values() == a.values()
        assert c.depth <= 1


def test_composition_is_function_composition(rng):
    done = 0
    for a in layouts(rng, 300):
        for b in layouts(rng, 2, max_leaves=2, max_shape=4, max_stride=6):
            try:
                r = tessera.composition(a, b)
            except tessera.InadmissibleComposition:
                continue
            except (tessera.Divisibility, tessera.TooLarge):
                continue
            done += 1
            # A o B may reach past A's domain (CuTe extends A's last mode): tessera's face refuses
            # such a coordinate (OutOfDomain), pycute's face evaluates it as CuTe does.
            ap = a.to_pycute()
            assert [r(i) for i in range(r.size())] == [ap(b(i)) for i in range(r.size())]
            assert r.size() == b.size()
            assert (a @ b) == r
    assert done > 100


def test_complement_tiles(rng):
    done = 0
    for a in layouts(rng, 300, max_stride=12):
        m = 4 * a.cosize()
        try:
            r = tessera.complement_exact(a, m)
        except (tessera.NotComplementable, tessera.NonInjective):
            continue
        done += 1
        image = set(a.values())
        rv = r.values()
        assert rv == sorted(rv)
        assert all(v not in image for v in rv[1:])
        # (filter(A), R) covers [0, M) without overlap
        vals = tessera.make_layout(tessera.filter(a), r).values()
        assert len(set(vals)) == len(vals)
        assert set(range(m)) <= set(vals)
    assert done > 30


def test_complement_with_holes_warns():
    # Issue 17: CuTe C++'s answer, with the complement_holes note as a UserWarning.
    a = tessera.Layout((5, 2), (8, 64))
    with pytest.warns(UserWarning, match="complement_holes: .*no pair reaches 40"):
        assert str(tessera.complement(a, 97)) == "8:1"
    with pytest.warns(UserWarning, match="complement_holes"):
        assert str(tessera.eval("complement((5,2):(8,64),97)")) == "8:1"
    with pytest.raises(tessera.NotComplementable):
        tessera.complement_exact(a, 97)
    assert str(tessera.complement_exact(tessera.Layout(4, 2), 24)) == "(2,3):(1,8)"


def test_inverses(rng):
    for a in layouts(rng, 300, max_stride=12):
        r = tessera.right_inverse(a)
        assert [a(r(i)) for i in range(r.size())] == list(range(r.size()))
        try:
            li = tessera.left_inverse(a)
        except (tessera.NonInjective, tessera.Divisibility, tessera.TooLarge):
            continue
        # a quasi-inverse: L(R(L(i))) = L(i) with R(L(i)) in L's domain; R(L(i)) = i if injective
        vals = a.values()
        back = [li(v) for v in vals]
        assert all(0 <= j < a.size() for j in back)
        assert [a(j) for j in back] == vals
        if len(set(vals)) == len(vals):
            assert back == list(range(a.size()))


def test_divide_and_product_sizes(rng):
    for a in layouts(rng, 100, max_stride=8):
        for tile in (2, tessera.Layout("2:1")):
            try:
                d = tessera.logical_divide(a, tile)
            except tessera.Error:
                continue
            assert d.size() >= a.size() and d.values()[: a.size()] is not None
        p = tessera.logical_product(tessera.Layout((2, 2)), tessera.Layout(3))
        assert p.size() == 12 and p[0] == tessera.Layout((2, 2))


def test_tessera_and_the_expression_language_agree():
    a, b = "(6,2):(8,2)", "(4,3):(3,1)"
    assert tessera.composition(a, b) == tessera.eval(f"composition({a},{b})")
    assert str(tessera.logical_divide("(9,(4,8)):(59,(13,1))", "(3:3,(2,4):(1,8))")) == (
        "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))"
    )
    assert tessera.eval("size((2,3):(1,2))") == 6
    assert tessera.eval("(2,_)") == (2, None)
    assert str(tessera.complement1(4, 2, 24)) == "(2,3):(1,8)"
    assert str(tessera.blocked_product("(2,2):(1,2)", "(2,3):(1,2)")) == str(
        tessera.eval("blocked_product((2,2):(1,2),(2,3):(1,2))")
    )


def test_batch_and_apply_many():
    out = tessera.batch(["complement(4:2,24)", "complement((2,2):(1,1))", "coalesce(2:1"])
    assert out[0] == "(2,3):(1,8)"
    assert isinstance(out[1], tessera.NonInjective) and out[1].notes == []
    assert isinstance(out[2], tessera.ParseError)
    a = tessera.Layout("(4,6,8):(2,3,5)")
    calls = [("composition", (a, tessera.Layout("6:3"))), ("coalesce", (a,))] * 40
    res = tessera.apply_many(calls, threads=2)
    assert isinstance(res[0], tessera.InadmissibleComposition)
    assert res[1] == tessera.coalesce(a) and res[-1] == res[1]
    with pytest.raises(tessera.UnknownFunction):
        tessera.apply_many([("nope", (a,))])


def test_every_registry_operation_is_a_function():
    # The library's registry is the one list of operations: each row is a tessera function.
    names = [row[0] for row in tessera.operations()]
    assert "complement" in names and len(names) >= 40
    for name in names:
        assert callable(getattr(tessera, name)), name
        assert name in tessera.__all__, name


def test_generic_binding_reads_the_registry():
    L = tessera.Layout("(2,(3,4)):(1,(2,6))")
    assert tessera.get(L, 1) == tessera.Layout("(3,4):(2,6)")
    assert tessera.rank(L) == 2 and tessera.depth(L) == 2
    assert tessera.shape(L) == (2, (3, 4))
    assert tessera.apply("crd2idx", (1, 2), (2, 3), (1, 2)) == 5
    assert tessera.divides(4, 12) == 3
    with pytest.raises(tessera.Divisibility):
        tessera.divides(5, 12)
    with pytest.raises(tessera.ArgumentType):
        tessera.get(L, (1, 2))
    with pytest.raises(tessera.UnknownFunction):
        tessera.apply("no_such_operation", L)
    # pycute's face follows the argument.
    from tessera import pycute

    P = pycute.Layout((2, 3), (1, 2))
    assert str(tessera.flatten(P)) == "(2, 3):(1, 2)"
    # pycute's complement rule, from its one home, through the generic binding too.
    Q = pycute.Layout((2, 2), (1, 5))
    assert str(tessera.apply("complement", Q)) == str(pycute.complement(Q))


def test_recast_layout_from_the_registry():
    # A row added to the registry only: a tessera function with no Python change.
    L = tessera.Layout("(4,8):(1,4)")
    assert tessera.recast_layout(L, 16, 32) == tessera.Layout("(2,8):(1,2)")
    assert tessera.recast_layout(L, 16, 8) == tessera.Layout("(8,8):(1,8)")
    assert tessera.eval("recast_layout((4,8):(1,4),16,32)") == tessera.Layout("(2,8):(1,2)")
    with pytest.raises(tessera.NonPositiveShape):
        tessera.recast_layout(L, 0, 8)
