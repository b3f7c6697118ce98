"""Tessera's exceptions: one class per error code (``docs/errors.md``).

Every class derives from :class:`Error` (itself a :class:`ValueError`) and carries ``.code``,
``.obligation`` (the failed obligation with its values), ``.notes`` and ``.suggestions`` (checked,
ready-to-use values, computed on first access).
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Type


class Suggestion(NamedTuple):
    """A checked suggestion: what changed, the expression, its value's text and the value."""

    label: str
    expr: str
    text: str
    value: Any


class Error(ValueError):
    """A failed obligation or a malformed input."""

    code: str = "error"

    def __init__(
        self,
        message: str,
        info: Any = None,
        *,
        obligation: Optional[str] = None,
        notes: Optional[List[str]] = None,
    ) -> None:
        super().__init__(message)
        self._info = info
        self._obligation = obligation
        self._notes = list(notes or [])
        self._suggestions: Optional[List[Suggestion]] = None
        if info is not None and info.code != type(self).code:
            self.code = info.code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    @property
    def obligation(self) -> Optional[str]:
        """The obligation that failed, with the values, e.g. ``128·16 ∣ 2040``."""
        if self._info is not None:
            return (
                str(self._info.obligation)
                if self._info.obligation is not None
                else None
            )
        return self._obligation

    @property
    def notes(self) -> List[str]:
        """The arithmetic and the witnesses behind the failure."""
        if self._info is not None:
            return list(self._info.notes)
        return list(self._notes)

    @property
    def suggestions(self) -> List[Suggestion]:
        """Nearby inputs that discharge the obligation, nearest first; each was evaluated."""
        if self._suggestions is None:
            from . import _tessera

            out = []
            if self._info is not None:
                for label, expr, text in self._info.suggestions():
                    out.append(Suggestion(label, expr, text, _tessera.eval(expr)))
            self._suggestions = out
        return self._suggestions


class Overflow(Error):
    """Checked 64-bit arithmetic overflowed."""

    code = "overflow"


class ParseError(Error):
    """The text is not a well-formed expression."""

    code = "parse_error"


class NonPositiveShape(Error):
    """A shape entry is not >= 1."""

    code = "non_positive_shape"


class NotCongruent(Error):
    """Two tuples that must nest alike do not."""

    code = "not_congruent"


class RankMismatch(Error):
    """Ranks differ or a mode index is out of range."""

    code = "rank_mismatch"


class TooManyModes(Error):
    """A by-mode tiler has more modes than A."""

    code = "too_many_modes"


class Divisibility(Error):
    """A divisibility obligation failed."""

    code = "divisibility"


class InadmissibleComposition(Error):
    """A o B has no layout result compatible with B."""

    code = "inadmissible_composition"


class NonInjective(Error):
    """The operation needs an injective layout."""

    code = "non_injective"


class NotComplementable(Error):
    """The layout has no complement."""

    code = "not_complementable"


class OutOfDomain(Error):
    """An index or coordinate lies outside the domain."""

    code = "out_of_domain"


class ArgumentType(Error):
    """An argument has the wrong kind."""

    code = "type_error"


class Arity(Error):
    """A call has the wrong number of arguments."""

    code = "arity"


class UnknownFunction(Error):
    """No such function."""

    code = "unknown_function"


class TooLarge(Error):
    """A decision would enumerate too many points."""

    code = "too_large"


class NoUnitStride(Error):
    """downcast needs a mode of stride 1."""

    code = "no_unit_stride"


class InvalidSwizzle(Error):
    """Swizzle parameters break bits >= 0, base >= 0, |shift| >= bits."""

    code = "invalid_swizzle"


class NotExpressible(Error):
    """The result of an operation on a swizzled layout has no form in the algebra."""

    code = "not_expressible"


class ProofMismatch(Error):
    """A proof certifies another obligation."""

    code = "proof_mismatch"


class DomainError(Error):
    """An iteration-domain schedule is malformed or undecidable here."""

    code = "domain"


class TmaError(Error):
    """A TMA request breaks a driver rule."""

    code = "tma"


class PictureError(Error):
    """A picture cannot be drawn (too large, bad input)."""

    code = "picture"


_BY_CODE: Dict[str, Type[Error]] = {
    c.code: c
    for c in (
        Overflow,
        ParseError,
        NonPositiveShape,
        NotCongruent,
        RankMismatch,
        TooManyModes,
        Divisibility,
        InadmissibleComposition,
        NonInjective,
        NotComplementable,
        OutOfDomain,
        ArgumentType,
        Arity,
        UnknownFunction,
        TooLarge,
        NoUnitStride,
        InvalidSwizzle,
        NotExpressible,
        ProofMismatch,
    )
}
_DOMAIN_CODES = {
    "parse",
    "unknown_id",
    "redefined",
    "bad_factor",
    "non_positive_extent",
    "swizzle_same_input",
    "unbound_symbol",
    "contradiction",
    "too_many_points",
    "too_much_work",
    "undetermined",
    "bad_loop",
    "bad_alloc",
    "not_comparable",
    "bad_vectorize",
}


def _from_native(info: Any) -> Error:
    """The exception for a native error (called by the extension)."""
    code = info.code
    cls = _BY_CODE.get(code)
    if cls is None:
        if code in _DOMAIN_CODES:
            cls = DomainError
        elif code.startswith("tma_"):
            cls = TmaError
        elif code == "bad_input":
            cls = PictureError
        else:
            cls = Error
    return cls(info.message, info)


__all__ = ["Error", "Suggestion"] + sorted(
    c.__name__ for c in list(_BY_CODE.values()) + [DomainError, TmaError, PictureError]
)
