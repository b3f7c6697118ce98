"""Tessera's exceptions: one class per error code (``docs/errors.md``).

Every class derives from :class:`Error` (itself a :class:`ValueError`) and carries ``.code``,
``.obligation`` (the failed obligation with its values), ``.notes`` and ``.suggestions`` (checked,
ready-to-use values, computed on first access). ``str(e)`` is the diagnostic the CLI prints: the
code and message, the call, the obligation, the notes and one ``help:`` line per suggestion.
Raised in pycute's face (``tessera.pycute``), the exception is also an :class:`AssertionError`,
as pycute asserts where Tessera raises.
"""

from __future__ import annotations

import difflib
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Type


class Suggestion(NamedTuple):
    """A checked suggestion: what changed (``label``), the fixed call (``expr``, and as
    ``function`` with ``args``, the arguments as objects ready to pass back), its result's text
    (``text``) and its result (``value``); ``changed`` maps each changed argument's position to
    the new argument.

    >>> import tessera
    >>> try:
    ...     tessera.complement1(128, 16, 2040)
    ... except tessera.Divisibility as e:
    ...     s = e.suggestions[0]
    >>> s.changed, s.call() == s.value, s.value
    ({2: 2048}, True, Layout('(16,1):(1,2048)'))
    """

    label: str
    expr: str
    text: str
    value: Any
    function: str = ""
    args: Tuple[Any, ...] = ()
    changed: Dict[int, Any] = {}

    def call(self) -> Any:
        """Runs the fixed call again (``tessera.apply(function, *args)``); it returns ``value``."""
        from . import _tessera

        if not self.function:
            return _tessera.eval(self.expr)
        return _tessera.apply(self.function, *self.args)


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
        self._extra_help: List[str] = []
        if info is not None and info.code != type(self).code:
            self.code = info.code

    @property
    def message(self) -> str:
        """The one-line message (``str(e)`` is the whole diagnostic)."""
        return str(self.args[0]) if self.args else ""

    def __str__(self) -> str:
        if self._info is not None:
            try:
                text = str(self._info.diagnostic()).rstrip("\n")
            except Exception:  # a diagnostic that cannot be computed: the message
                text = self.message
        else:
            text = "error[{}]: {}".format(self.code, self.message)
            if self._obligation:
                text += "\n  = obligation: {}".format(self._obligation)
            for n in self._notes:
                text += "\n  = note: {}".format(n)
        for n in self._extra_help:
            text += "\nhelp: {}".format(n)
        return text

    @property
    def obligation(self) -> Optional[str]:
        """The obligation that failed, with the values, e.g. ``128·16 ∣ 2040``."""
        if self._info is not None:
            return str(self._info.obligation) if self._info.obligation is not None else None
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
            out = []
            if self._info is not None:
                orig = self._info.call_args()
                for label, expr, text, function, args, result in self._info.suggestions():
                    changed: Dict[int, Any] = {}
                    for i, a in enumerate(args):
                        if orig is None or i >= len(orig) or not _same(orig[i], a):
                            changed[i] = a
                    if function and orig is not None and function != _tessera_name(self._info):
                        changed = {}  # another function: the whole call is the change
                    out.append(
                        Suggestion(label, expr, text, result, function, tuple(args), changed)
                    )
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


class BankError(Error):
    """A bank-conflict or linear-layout input is malformed or out of range."""

    code = "banks"


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


def _same(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _tessera_name(info: Any) -> str:
    call = info.call
    return str(call).split("(", 1)[0] if call else ""


_TWINS: Dict[Type[Error], Type[Error]] = {}


def pycute_class(cls: Type[Error]) -> Type[Error]:
    """The class raised in pycute's face for ``cls``: a subclass of ``cls`` that is also an
    :class:`AssertionError` (a pycute script's ``except AssertionError`` catches it).

    >>> issubclass(pycute_class(Divisibility), AssertionError)
    True
    """
    twin = _TWINS.get(cls)
    if twin is None:
        twin = type(
            cls.__name__,
            (cls, AssertionError),
            {"__module__": cls.__module__, "__doc__": cls.__doc__},
        )
        _TWINS[cls] = twin
    return twin


def did_you_mean(name: str, names: List[str]) -> List[str]:
    """The names nearest to a misspelt ``name`` (at most three, nearest first).

    >>> did_you_mean("complemnt", ["complement", "coalesce", "composition"])
    ['complement']
    """
    return difflib.get_close_matches(name, names, n=3, cutoff=0.75)


def _operation_names() -> List[str]:
    from . import _tessera

    return [row[0] for row in _tessera.operations()]


def _from_native(info: Any) -> Error:
    """The exception for a native error (called by the extension): the class of its code for the
    layout algebra; DomainError, TmaError or BankError for those parts; PictureError for a
    picture that cannot be drawn (unless a layout error caused it)."""
    code = info.code
    kind = info.kind
    cls: Type[Error]
    if kind == "layout":
        cls = _BY_CODE.get(code, Error)
    elif kind == "domain":
        cls = DomainError
    elif kind == "banks":
        cls = (
            _BY_CODE.get(code, BankError)
            if not code.startswith(("banks_", "linear_"))
            else BankError
        )
    elif kind == "picture":
        cls = _BY_CODE.get(code, PictureError)
    else:
        cls = TmaError if code.startswith("tma_") else Error
    if getattr(info, "pycute", False):
        cls = pycute_class(cls)
    e = cls(info.message, info)
    if code == "unknown_function":
        msg = str(info.message)
        name = msg.split("`")[1] if msg.count("`") >= 2 else ""
        near = did_you_mean(name, _operation_names()) if name else []
        if near:
            e._extra_help = ["did you mean {}?".format(" or ".join("`{}`".format(n) for n in near))]
    return e


__all__ = ["Error", "Suggestion", "did_you_mean", "pycute_class"] + sorted(
    c.__name__ for c in list(_BY_CODE.values()) + [DomainError, TmaError, BankError, PictureError]
)
