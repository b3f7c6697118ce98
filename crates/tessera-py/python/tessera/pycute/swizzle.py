"""pycute's ``Swizzle`` and ``ComposedLayout`` (``pycute.swizzle``).

PROVISIONAL, PURE PYTHON: Tessera's native swizzles and composed layouts are being built in
issue 11; until they land these classes implement pycute's semantics in Python (with the zero-shift
swizzle as the identity, as C++'s ``Swizzle<0,M,0>``) and will be replaced by native ones.
"""

from __future__ import annotations

from typing import Any

from ..errors import OutOfDomain
from .layout import LayoutBase, cosize, size


def shiftr(a: int, s: int) -> int:
    """``a >> s`` for ``s ≥ 0``, ``a << -s`` otherwise."""
    return a >> s if s >= 0 else a << -s


def shiftl(a: int, s: int) -> int:
    """``a << s`` for ``s ≥ 0``, ``a >> -s`` otherwise."""
    return a << s if s >= 0 else a >> -s


class Swizzle:
    """``Swizzle(bits, base, shift)``: XOR the ``bits`` bits at ``base + max(shift, 0)`` into the
    ones at ``base - min(shift, 0)``. Obligation: ``bits ≥ 0``, ``base ≥ 0``, ``|shift| ≥ bits``.
    """

    def __init__(self, bits: int, base: int, shift: int) -> None:
        if bits < 0 or base < 0 or abs(shift) < bits:
            raise OutOfDomain(
                f"Swizzle({bits},{base},{shift}): needs bits >= 0, base >= 0 and |shift| >= bits",
                obligation=f"{bits} ≥ 0 ∧ {base} ≥ 0 ∧ |{shift}| ≥ {bits}",
            )
        self.bits = bits
        self.base = base
        self.shift = shift
        mask = (1 << bits) - 1
        self.yyy_msk = mask << (base + max(0, shift))
        self.zzz_msk = mask << (base - min(0, shift))

    def __call__(self, offset: int) -> int:
        return offset ^ shiftr(offset & self.yyy_msk, self.shift)

    def size(self) -> int:
        return 1 << (self.bits + self.base + abs(self.shift))

    def cosize(self) -> int:
        return self.size()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Swizzle) and (self.bits, self.base, self.shift) == (
            other.bits,
            other.base,
            other.shift,
        )

    def __hash__(self) -> int:
        return hash(("Swizzle", self.bits, self.base, self.shift))

    def __str__(self) -> str:
        return f"SW_{self.bits}_{self.base}_{self.shift}"

    def __repr__(self) -> str:
        return f"Swizzle({self.bits},{self.base},{self.shift})"


class ComposedLayout(LayoutBase):
    """``ComposedLayout(B, offset, A)``: the function ``c ↦ B(offset + A(c))``."""

    def __init__(self, layoutB: Any, offset: Any, layoutA: Any) -> None:
        self.layoutB = layoutB
        self.offset = offset
        self.layoutA = layoutA

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ComposedLayout)
            and self.layoutB == other.layoutB
            and self.offset == other.offset
            and self.layoutA == other.layoutA
        )

    def __hash__(self) -> int:
        return hash(("ComposedLayout", self.layoutB, self.offset, self.layoutA))

    def __len__(self) -> int:
        return len(self.layoutA)

    def __call__(self, *args: Any) -> Any:
        return self.layoutB(self.offset + self.layoutA(*args))

    def __getitem__(self, i: Any) -> "ComposedLayout":
        return ComposedLayout(self.layoutB, self.offset, self.layoutA[i])

    def size(self) -> Any:
        return size(self.layoutA)

    def cosize(self) -> Any:
        return cosize(self.layoutB)

    def __str__(self) -> str:
        return f"{self.layoutB} o {self.offset} o {self.layoutA}"

    def __repr__(self) -> str:
        return f"ComposedLayout({self.layoutB!r},{self.offset!r},{self.layoutA!r})"


__all__ = ["shiftr", "shiftl", "Swizzle", "ComposedLayout"]
