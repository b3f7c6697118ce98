"""The binding's fast paths: results made without `Py::new` (src/fast.rs), the pycute face's
native functions, and `apply_many`'s native `Results`."""

import gc
import sys

import pytest
import tessera
import tessera.pycute as tp
from conftest import random_layout


def test_fast_results_are_whole_objects(rng):
    # Layouts beyond the 16 inline leaves (heap storage) and small ones, in both faces: each
    # result equals the same layout built by the constructor, hashes alike, and is freed once.
    big = tessera.Layout(tuple(2 for _ in range(20)))
    for face in (tessera.Layout, tp.Layout):
        base = face(big.shape, big.stride)
        r = tessera.coalesce(base)
        assert type(r) is face
        assert r == face(1 << 20, 1) and hash(r) == hash(face(1 << 20, 1))
        m = tessera.composition(base, face(4, 1))
        assert type(m) is face and m.size() == 4
    for _ in range(300):
        shape, stride = random_layout(rng)
        values = tessera.Layout(shape, stride).values()
        for face in (tessera.Layout, tp.Layout):
            c = tessera.coalesce(face(shape, stride))
            assert type(c) is face and [c(i) for i in range(len(values))] == values
            assert type(tessera.right_inverse(c)) is face
    # Many short-lived results in a row (each freed by PyO3's deallocator) and a long-lived one.
    keep = tessera.coalesce(big)
    for _ in range(10000):
        tessera.coalesce(big)
    gc.collect()
    assert keep == tessera.Layout(1 << 20, 1) and sys.getrefcount(keep) == 2


def test_pycute_face_functions_are_native_and_keep_the_face():
    t = tessera.Layout("(4,8):(8,1)")
    for f in (tp.complement, tp.right_inverse, tp.left_inverse, tp.make_layout):
        assert type(f).__name__ == "builtin_function_or_method"
    assert type(tp.complement(t, 64)) is tp.Layout
    assert str(tp.complement(tp.Layout(4, 2), 24)) == "(2, 3):(1, 8)"
    assert str(tp.complement(tp.Layout(4, 2), max_idx=24)) == "(2, 3):(1, 8)"
    assert type(tp.right_inverse(t)) is tp.Layout
    assert tp.right_inverse(None) is None
    assert type(tp.left_inverse(t)) is tp.Layout
    assert type(tp.make_layout(t, t)) is tp.Layout
    assert type(tp.blocked_product(t, t)) is tp.Layout
    assert type(tp.raked_product(t, t)) is tp.Layout
    # A failed obligation raises its class from the native function too.
    with pytest.raises(tessera.Error):
        tp.complement(tp.Layout((2, 2), (1, 1)), 8)


def test_direct_entry_points_agree_with_the_general_path(rng):
    # `coalesce(L)`, `right_inverse(L)`, `left_inverse(L)` and pycute's `complement(L, n)` have
    # direct C entry points (src/raw.rs); keywords and other argument kinds take the PyO3
    # function. Both give the same results, faces and errors.
    import inspect

    assert str(inspect.signature(tessera.coalesce)) == "(layout, profile=None, pycute=False)"
    assert str(inspect.signature(tp.complement)) == "(layout, max_idx=None)"

    def same(f, face, *args, **kwargs):
        try:
            fast = f(*args)
        except tessera.Error as e:
            with pytest.raises(type(e)):
                f(**kwargs)
            return
        general = f(**kwargs)
        assert type(fast) is type(general) is face and fast == general

    for _ in range(200):
        shape, stride = random_layout(rng)
        for face in (tessera.Layout, tp.Layout):
            a = face(shape, stride)
            for f in (tessera.coalesce, tessera.right_inverse, tessera.left_inverse):
                same(f, face, a, layout=a)
            for f in (tp.right_inverse, tp.left_inverse):
                same(f, tp.Layout, a, layout=a)
            for n in (1, 7, 64, 1024):
                same(tp.complement, tp.Layout, a, n, layout=a, max_idx=n)
    assert str(tessera.coalesce("(2,2):(1,2)")) == "4:1"
    with pytest.raises(TypeError):
        tessera.coalesce()
    with pytest.raises(tessera.Error):
        tp.complement(tp.Layout(4, 2), -3)


def test_apply_many_results_are_a_native_sequence(rng):
    calls, expect = [], []
    for _ in range(300):
        a = tp.Layout(*random_layout(rng))
        b = tessera.Layout(*random_layout(rng, max_leaves=2, max_shape=4, max_stride=6))
        for op, args in (
            ("coalesce", (a,)),
            ("right_inverse", (a,)),
            ("left_inverse", (a,)),
            ("complement", (a,)),
            ("composition", (b, a)),
            ("logical_divide", (a, b)),
            ("logical_product", (b, (2, None))),
            ("composition", (a, 4)),
        ):
            calls.append((op, args))
            try:
                expect.append(getattr(tessera, op)(*args))
            except tessera.Error as e:
                expect.append(e.code)
    for threads in (1, 2):
        res = tessera.apply_many(calls, threads)
        assert isinstance(res, tessera.Results) and len(res) == len(calls)
        got = list(res)
        assert len(got) == len(expect)
        errors = 0
        for g, e, (_, args) in zip(got, expect, calls):
            if isinstance(e, str):
                assert isinstance(g, tessera.Error) and g.code == e
                errors += 1
            else:
                assert g == e and type(g) is type(args[0])
        assert res.error_count() == errors
        assert [repr(x) for x in res[3:11]] == [repr(x) for x in got[3:11]]
        assert repr(res[-1]) == repr(got[-1]) and repr(res.tolist()[5]) == repr(got[5])
        assert f"{len(calls)} calls, {errors} errors" in repr(res)
        with pytest.raises(IndexError):
            res[len(calls)]
    # A tuple or any iterable of calls, text layouts in tessera's face.
    r = tessera.apply_many((("coalesce", ("(2,2):(1,2)",)), ("complement", ("4:2", 24))))
    assert [str(x) for x in r] == ["4:1", "(2,3):(1,8)"]
    r = tessera.apply_many(iter([("filter", (tessera.Layout("(2,1):(1,0)"),))]))
    assert str(r[0]) == "2:1"


def test_apply_many_rejects_malformed_calls():
    a = tessera.Layout("4:1")
    with pytest.raises(TypeError):
        tessera.apply_many([["coalesce", (a,)]])
    with pytest.raises(TypeError):
        tessera.apply_many([("coalesce", (a,), 3)])
    with pytest.raises(TypeError):
        tessera.apply_many([(3, (a,))])
    with pytest.raises(tessera.UnknownFunction):
        tessera.apply_many([("coalesc", (a,))])
    assert len(tessera.apply_many([])) == 0
