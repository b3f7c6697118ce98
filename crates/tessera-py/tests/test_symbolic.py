"""Layouts over runtime extents in Python (docs/symbolic.md): the CLI's `eval --assume` answers,
with guards, and `subs` gives the integer algebra's answer where the facts and guards hold."""

import pytest

import tessera


def test_symbolic_layout_with_facts_and_guards():
    A = tessera.SymLayout("(M,K):(K,1)", assume=["M % 128 == 0", "K % 64 == 0"])
    assert str(A) == "(M,K):(K,1)" and A.is_layout and A.guards == [] and A.names == ["K", "M"]
    D = tessera.logical_divide(A, (128, 64))
    assert isinstance(D, tessera.SymLayout)
    assert str(D) == "((128,M/128),(64,K/64)):((K,128*K),(1,64))"  # as `tessera eval --assume`
    assert D.guards == []
    # no facts: the same call needs ceil_div and carries what it assumed
    B = tessera.SymLayout("(M,K):(K,1)")
    E = tessera.logical_divide(B, (128, 64))
    assert str(E) == "((128,ceil_div(M,128)),(64,ceil_div(K,64))):((K,128*K),(1,64))"
    # instantiation is the integer algebra's answer
    for m, k in ((4096, 512), (256, 128)):
        assert D.subs(M=m, K=k) == tessera.logical_divide(tessera.Layout((m, k), (k, 1)), (128, 64))
    with pytest.raises(tessera.Error) as ei:
        D.subs(M=100, K=64)  # breaks M % 128 == 0
    assert ei.value.code == "refuted"


def test_guards_travel_and_are_checked():
    T = tessera.SymLayout("(M,K):(K,1)")
    tile = tessera.local_tile(T, (128, 64), ("bm", "bk"))
    assert isinstance(tile, tessera.SymLayout) and not tile.is_layout
    assert tile.guards == ["ceil_div(M,128) > bm", "ceil_div(K,64) > bk"]
    assert "&&" in tile.guard_code("cpp") and " and " in tile.guard_code("python")
    assert tile.subs(M=1000, K=4096, bm=7, bk=0) == tessera.local_tile(
        tessera.Layout((1000, 4096), (4096, 1)), (128, 64), (7, 0)
    )
    with pytest.raises(tessera.Error, match="guard"):
        tile.subs(M=1000, K=4096, bm=8, bk=0)
    # the method form, and the guards of an argument carried through the next operation
    S = T.apply("size")
    assert str(S) in ("M*K", "K*M") and S.subs(M=3, K=5) == 15
    C = tessera.coalesce(tessera.SymLayout("(M,N):(1,M)"))
    assert str(C) == "M*N:1" and C.guards == []


# The symbolic algebra's operations through their Python functions: instantiated, each agrees
# with the integer algebra (as a function: the integer algebra prints 0 for some size-1 strides).
SYMBOLIC_CALLS = [
    ("size", ()),
    ("cosize", ()),
    ("coalesce", ()),
    ("composition", ("(4,2):(2,1)",)),
    ("complement", ()),
    ("logical_divide", ((4, 8),)),
    ("zipped_divide", ((4, 8),)),
    ("tiled_divide", ((4, 8),)),
    ("flat_divide", ((4, 8),)),
    ("logical_product", ("2:1",)),
    ("zipped_product", ("2:1",)),
    ("right_inverse", ()),
    ("left_inverse", ()),
    ("local_tile", ((4, 8), (1, 1))),
]


def as_function(v):
    if isinstance(v, tessera.Layout):
        return ("layout", v.size(), v.values())
    if isinstance(v, tuple):
        return tuple(as_function(x) for x in v)
    return v


@pytest.mark.parametrize("name, args", SYMBOLIC_CALLS)
def test_symbolic_operations_instantiate_to_the_integer_answer(name, args):
    S = tessera.SymLayout("(M,K):(K,1)")
    r = getattr(tessera, name)(S, *args)
    assert isinstance(r, tessera.SymLayout)
    for m, k in ((8, 16), (16, 32)):
        want = getattr(tessera, name)(tessera.Layout((m, k), (k, 1)), *args)
        assert as_function(r.subs(M=m, K=k)) == as_function(want), (name, m, k, str(r), r.guards)


def test_layout_with_runtime_extents_points_to_symlayout():
    # The spelling, `Layout("(M,K):(K,1)", assume=[...])`, cannot return a SymLayout
    # (a native constructor returns its own class): the error teaches the one that works.
    with pytest.raises(TypeError, match=r"runtime extents \(K, M\)|runtime extents \(M, K\)") as e:
        tessera.Layout("(M,K):(K,1)")
    assert 'tessera.SymLayout("(M,K):(K,1)", assume=[...])' in str(e.value)
    with pytest.raises(TypeError, match="SymLayout"):
        tessera.Layout("(M,K):(K,1)", assume=["M % 128 == 0"])
    with pytest.raises(TypeError, match="SymLayout"):
        tessera.Layout("(4,8):(8,1)", assume=["M % 128 == 0"])
    with pytest.raises(TypeError, match="assume="):
        tessera.Layout((4, 8), (8, 1), assume=["M % 128 == 0"])
    # What the error says works, and integer texts are unchanged.
    s = tessera.SymLayout("(M,K):(K,1)", assume=["M % 128 == 0"])
    assert str(s.subs(M=256, K=64)) == "(256,64):(64,1)"
    assert tessera.Layout("(4,8):(8,1)") == tessera.Layout((4, 8), (8, 1))
    # A malformed integer text keeps its parse error (no names: not a symbolic layout).
    with pytest.raises(Exception) as e:
        tessera.Layout("(4,8):(8,")
    assert not isinstance(e.value, TypeError)
