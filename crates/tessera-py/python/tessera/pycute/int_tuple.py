"""pycute's integer-tuple functions (``pycute.int_tuple``), with the same calling conventions.

Integers and (nested) Python tuples in and out. Where pycute asserts, these raise the
``tessera.Error`` subclass naming the failed obligation, which is also an ``AssertionError``.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, List, Tuple, Union

from .. import errors as _errors

# pycute asserts where these raise: each class is also an AssertionError.
Divisibility = _errors.pycute_class(_errors.Divisibility)
RankMismatch = _errors.pycute_class(_errors.RankMismatch)
ArgumentType = _errors.pycute_class(_errors.ArgumentType)
OutOfDomain = _errors.pycute_class(_errors.OutOfDomain)
from .typing import Integer

IntTuple = Union[int, Tuple[Any, ...]]


def is_int(x: Any) -> bool:
    return isinstance(x, Integer)


def is_tuple(x: Any) -> bool:
    return isinstance(x, tuple)


def _same_len(op: str, a: Any, b: Any) -> None:
    if len(a) != len(b):
        raise RankMismatch(
            f"{op}: rank mismatch: {a} has rank {len(a)} but {b} has rank {len(b)}",
            obligation=f"rank({a}) = rank({b})",
        )


def _not_tuple(op: str, a: Any, b: Any) -> _errors.Error:
    return ArgumentType(
        f"{op}: {a} is a tuple but {b} is an integer",
        obligation=f"{op}: a tuple needs a tuple of the same rank",
    )


def flatten(t: Any) -> Tuple[Any, ...]:
    """The leaves of ``t`` in order (an integer gives a 1-tuple)."""
    if not is_tuple(t):
        return (t,)
    out: List[Any] = []
    stack = [iter(t)]
    while stack:
        for x in stack[-1]:
            if is_tuple(x):
                stack.append(iter(x))
                break
            out.append(x)
        else:
            stack.pop()
    return tuple(out)


def signum(a: Any) -> int:
    return int(a > 0) - int(a < 0)


def product(a: Any) -> Any:
    """The product of the leaves."""
    if not is_tuple(a):
        return a
    r = 1
    for x in flatten(a):
        r = r * x
    return r


def inner_product(a: Any, b: Any) -> Any:
    if is_tuple(a):
        if not is_tuple(b):
            raise _not_tuple("inner_product", a, b)
        _same_len("inner_product", a, b)
        return sum(inner_product(x, y) for x, y in zip(a, b))
    if is_tuple(b):
        raise _not_tuple("inner_product", b, a)
    return a * b


def tuple_max(a: Any) -> Any:
    return max(flatten(a))


def elem_scale(a: Any, b: Any) -> Any:
    if is_tuple(a):
        if not is_tuple(b):
            raise _not_tuple("elem_scale", a, b)
        _same_len("elem_scale", a, b)
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return a * product(b)


def shape_div(a: Any, b: Any) -> Any:
    """``a / b`` for shapes: elementwise, or ``b`` divided out of ``a``'s modes left to right.

    Obligation: at each integer step ``a ∣ b`` or ``b ∣ a``.
    """
    if is_tuple(a):
        if is_tuple(b):
            _same_len("shape_div", a, b)
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        for x in a:
            out.append(shape_div(x, b))
            b = shape_div(b, product(x))
        return tuple(out)
    if is_tuple(b):
        return shape_div(a, product(b))
    if a % b != 0 and b % a != 0:
        raise Divisibility(
            f"shape_div: neither {a} ∣ {b} nor {b} ∣ {a}",
            obligation=f"{a} ∣ {b} ∨ {b} ∣ {a}",
        )
    return -(-a // b)


def prefix_product(a: Any, init: Any = 1) -> Any:
    """Exclusive running product of the leaves (compact column-major strides)."""
    if is_tuple(a):
        if is_tuple(init):
            _same_len("prefix_product", a, init)
            return tuple(prefix_product(x, i) for x, i in zip(a, init))
        out = []
        for x in a:
            out.append(prefix_product(x, init))
            init = init * product(x)
        return tuple(out)
    if is_tuple(init):
        raise _not_tuple("prefix_product", init, a)
    return init


def idx2crd(idx: Any, shape: Any, stride: Any = None) -> Any:
    """The coordinate of ``idx`` in ``shape`` (colexicographic)."""
    if stride is None:
        stride = prefix_product(shape)
    if is_tuple(idx):
        if not is_tuple(shape):
            raise _not_tuple("idx2crd", idx, shape)
        _same_len("idx2crd", idx, shape)
        _same_len("idx2crd", idx, stride)
        return tuple(idx2crd(i, s, d) for i, s, d in zip(idx, shape, stride))
    if is_tuple(shape):
        _same_len("idx2crd", shape, stride)
        return tuple(idx2crd(idx, s, d) for s, d in zip(shape, stride))
    return (idx // stride) % shape


def crd2idx(crd: Any, shape: Any, stride: Any = None) -> Any:
    """The index of coordinate ``crd`` (an integer coordinate is split colexicographically)."""
    if stride is None:
        stride = prefix_product(shape)
    if is_tuple(crd):
        if not is_tuple(shape):
            raise _not_tuple("crd2idx", crd, shape)
        _same_len("crd2idx", crd, shape)
        _same_len("crd2idx", crd, stride)
        return sum(crd2idx(c, s, d) for c, s, d in zip(crd, shape, stride))
    if crd is None:
        crd = 0
    if is_tuple(shape):
        _same_len("crd2idx", shape, stride)
        total = 0
        last = len(shape) - 1
        for k, (s, d) in enumerate(zip(shape, stride)):
            if k == last:
                return total + crd2idx(crd, s, d)
            n = product(s)
            total += crd2idx(crd % n, s, d)
            crd = crd // n
        return total
    return crd * stride


def crd2crd(crd: Any, dst_shape: Any, src_shape: Any = None) -> Any:
    if is_tuple(crd):
        if is_tuple(dst_shape):
            _same_len("crd2crd", crd, dst_shape)
            return tuple(crd2crd(x, y) for x, y in zip(crd, dst_shape))
        if src_shape is None:
            raise ArgumentType(
                "crd2crd: a tuple coordinate into an integer shape needs src_shape",
                obligation="src_shape given",
            )
        return crd2idx(crd, src_shape)
    if is_tuple(dst_shape):
        return idx2crd(crd, dst_shape)
    if not crd < dst_shape:
        raise OutOfDomain(f"crd2crd: {crd} is not < {dst_shape}", obligation=f"{crd} < {dst_shape}")
    return crd


def slice_(crd: Any, trg: Any) -> Any:
    """The parts of ``trg`` where ``crd`` is ``None`` (``_``), as C++'s ``filter_tuple``."""
    if is_tuple(crd):
        if not is_tuple(trg):
            raise _not_tuple("slice_", crd, trg)
        _same_len("slice_", crd, trg)
        return tuple(chain.from_iterable(slice_(c, s) for c, s in zip(crd, trg)))
    if crd is None:
        return (trg,)
    return ()


def has_none(a: Any) -> bool:
    if is_tuple(a):
        return any(has_none(v) for v in a)
    return a is None


__all__ = [
    "is_int",
    "is_tuple",
    "flatten",
    "signum",
    "product",
    "inner_product",
    "tuple_max",
    "elem_scale",
    "shape_div",
    "prefix_product",
    "idx2crd",
    "crd2idx",
    "crd2crd",
    "slice_",
    "has_none",
]
