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
            return self._info.obligation
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


def _cls(name: str, code: str, doc: str) -> Type[Error]:
    return type(name, (Error,), {"code": code, "__doc__": doc, "__module__": __name__})


Overflow = _cls("Overflow", "overflow", "Checked 64-bit arithmetic overflowed.")
ParseError = _cls("ParseError", "parse_error", "The text is not a well-formed expression.")
NonPositiveShape = _cls("NonPositiveShape", "non_positive_shape", "A shape entry is not >= 1.")
NotCongruent = _cls("NotCongruent", "not_congruent", "Two tuples that must nest alike do not.")
RankMismatch = _cls("RankMismatch", "rank_mismatch", "Ranks differ or a mode index is out of range.")
TooManyModes = _cls("TooManyModes", "too_many_modes", "A by-mode tiler has more modes than A.")
Divisibility = _cls("Divisibility", "divisibility", "A divisibility obligation failed.")
InadmissibleComposition = _cls(
    "InadmissibleComposition",
    "inadmissible_composition",
    "A o B has no layout result compatible with B.",
)
NonInjective = _cls("NonInjective", "non_injective", "The operation needs an injective layout.")
NotComplementable = _cls("NotComplementable", "not_complementable", "The layout has no complement.")
OutOfDomain = _cls("OutOfDomain", "out_of_domain", "An index or coordinate lies outside the domain.")
ArgumentType = _cls("ArgumentType", "type_error", "An argument has the wrong kind.")
Arity = _cls("Arity", "arity", "A call has the wrong number of arguments.")
UnknownFunction = _cls("UnknownFunction", "unknown_function", "No such function.")
TooLarge = _cls("TooLarge", "too_large", "A decision would enumerate too many points.")
NoUnitStride = _cls("NoUnitStride", "no_unit_stride", "downcast needs a mode of stride 1.")
ProofMismatch = _cls("ProofMismatch", "proof_mismatch", "A proof certifies another obligation.")
DomainError = _cls(
    "DomainError", "domain", "An iteration-domain schedule is malformed or undecidable here."
)
TmaError = _cls("TmaError", "tma", "A TMA request breaks a driver rule.")
PictureError = _cls("PictureError", "picture", "A picture cannot be drawn (too large, bad input).")

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
