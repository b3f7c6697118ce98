"""pycute's swizzles and composed layouts (``pycute.swizzle``), native inside.

``Swizzle(bits, base, shift)`` and ``ComposedLayout(layoutB, offset, layoutA)`` are Tessera's
native types (``SW_B_M_S`` and ``B o offset o A`` in pycute's text). A swizzle's parameters are an
obligation (``bits ≥ 0``, ``base ≥ 0``, ``|shift| ≥ bits``): ``tessera.InvalidSwizzle`` where
pycute asserts; the zero-shift swizzle is the identity (C++'s ``Swizzle<0,M,0>``), where pycute
recurses forever.
"""

from __future__ import annotations

from .. import _tessera

Swizzle = _tessera._PyCuteSwizzle
ComposedLayout = _tessera._PyCuteComposedLayout


def shiftr(a: int, s: int) -> int:
    """``a >> s`` for ``s ≥ 0``, ``a << -s`` otherwise."""
    return a >> s if s >= 0 else a << -s


def shiftl(a: int, s: int) -> int:
    """``a << s`` for ``s ≥ 0``, ``a >> -s`` otherwise."""
    return a << s if s >= 0 else a >> -s


__all__ = ["shiftr", "shiftl", "Swizzle", "ComposedLayout"]
