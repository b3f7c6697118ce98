"""Tessera: CuTe's layout algebra and nvFuser's iteration domains, every precondition a proof
obligation.

    >>> import tessera
    >>> tessera.composition("(6,2):(8,2)", "(4,3):(3,1)")
    Layout('((2,2),3):((24,2),8)')

``tessera.pycute`` is a drop-in replacement for NVIDIA's pycute.
"""

from __future__ import annotations

from . import errors
from ._tessera import (
    BankReport,
    bank_conflicts,
    ComposedLayout,
    Layout,
    LinearLayout,
    Results,
    Swizzle,
    Schedule,
    TmaReport,
    apply_many,
    batch,
    blocked_product,
    coalesce,
    complement,
    complement1,
    complement_exact,
    composition,
    downcast,
    error_codes,
    eval,
    explain,
    filter,
    flat_divide,
    flat_product,
    left_inverse,
    logical_divide,
    logical_product,
    make_layout,
    make_ordered_layout,
    max_common_layout,
    max_common_vector,
    nullspace,
    ragged,
    raked_product,
    right_inverse,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    tma_check,
    upcast,
    zipped_divide,
    zipped_product,
    apply,
    operations,
)
from . import _tessera as _native
from .errors import (
    ArgumentType,
    Arity,
    BankError,
    Divisibility,
    DomainError,
    Error,
    InadmissibleComposition,
    InvalidSwizzle,
    NotExpressible,
    NonInjective,
    NonPositiveShape,
    NoUnitStride,
    NotComplementable,
    NotCongruent,
    OutOfDomain,
    Overflow,
    ParseError,
    PictureError,
    ProofMismatch,
    RankMismatch,
    Suggestion,
    TmaError,
    TooLarge,
    TooManyModes,
    UnknownFunction,
)


def size(layout: object) -> int:
    """The size of a layout (its domain), or the product of an integer tuple."""
    if isinstance(layout, (Layout, _PyCuteLayout)):
        return layout.size()
    return Layout(layout).size()  # type: ignore[arg-type]


def cosize(layout: object) -> int:
    """The cosize of a layout: ``Σ (s-1)·|d| + 1``."""
    if isinstance(layout, (Layout, _PyCuteLayout)):
        return layout.cosize()
    return Layout(layout).cosize()  # type: ignore[arg-type]


def load_schedule(path: str) -> Schedule:
    """Loads a ``.tsch`` schedule file (``docs/domain.md``)."""
    return Schedule.load(path)


from ._tessera import _PyCuteLayout  # noqa: E402  (the pycute face of Layout)
from . import triton  # noqa: E402  (Triton and Gluon layouts in and out)

__version__ = "0.1.0"

__all__ = [
    "BankError",
    "BankReport",
    "bank_conflicts",
    "ComposedLayout",
    "Swizzle",
    "InvalidSwizzle",
    "NotExpressible",
    "ArgumentType",
    "Arity",
    "Divisibility",
    "DomainError",
    "Error",
    "InadmissibleComposition",
    "Layout",
    "LinearLayout",
    "NoUnitStride",
    "NonInjective",
    "NonPositiveShape",
    "NotComplementable",
    "NotCongruent",
    "OutOfDomain",
    "Overflow",
    "ParseError",
    "PictureError",
    "ProofMismatch",
    "RankMismatch",
    "Results",
    "Schedule",
    "Suggestion",
    "TmaError",
    "TmaReport",
    "TooLarge",
    "TooManyModes",
    "UnknownFunction",
    "__version__",
    "apply_many",
    "batch",
    "blocked_product",
    "coalesce",
    "complement",
    "complement1",
    "complement_exact",
    "composition",
    "cosize",
    "downcast",
    "error_codes",
    "errors",
    "eval",
    "explain",
    "filter",
    "flat_divide",
    "flat_product",
    "left_inverse",
    "load_schedule",
    "logical_divide",
    "logical_product",
    "make_layout",
    "make_ordered_layout",
    "max_common_layout",
    "max_common_vector",
    "nullspace",
    "ragged",
    "raked_product",
    "right_inverse",
    "size",
    "tile_to_shape",
    "tiled_divide",
    "tiled_product",
    "triton",
    "tma_check",
    "upcast",
    "zipped_divide",
    "zipped_product",
    "apply",
    "operations",
]



class CheckResult:
    """The result of :func:`check`: ``verdict`` ("valid", "valid_if", "invalid"), ``guards``,
    ``obligations`` (dicts with code, verdict, fields, message, witness, guard, suggestions),
    ``derived`` (threads, stages, smem_bytes, mma, smem layouts, TMA descriptors, ...)."""

    def __init__(self, report_json, text):
        import json

        d = json.loads(report_json)
        self._dict = d
        self._text = text
        self.verdict = d["verdict"]
        self.guards = d["guards"]
        self.obligations = d["obligations"]
        self.derived = d["derived"]

    def to_dict(self):
        """The report as a dict (the JSON of ``tessera check --json``; docs/check.md)."""
        import copy

        return copy.deepcopy(self._dict)

    def refuted(self):
        """The refuted obligations."""
        return [o for o in self.obligations if o["verdict"] == "refuted"]

    def __bool__(self):
        return self.verdict != "invalid"

    def __str__(self):
        return self._text

    def __repr__(self):
        codes = [o["code"] for o in self.refuted()]
        return f"<tessera.CheckResult {self.verdict} refuted={codes} guards={self.guards}>"

    def _repr_html_(self):
        import html

        rows = "".join(
            "<tr><td>{}</td><td><code>{}</code></td><td>{}{}</td></tr>".format(
                html.escape(o["verdict"]),
                html.escape(o["code"]),
                html.escape(o["message"]),
                "<br><i>witness: {}</i>".format(html.escape(o["witness"])) if o["witness"] else "",
            )
            for o in sorted(self.obligations, key=lambda o: ["refuted", "runtime", "warning", "proved"].index(o["verdict"]))
        )
        return "<div><b>tessera check: {}</b>{}<table>{}</table></div>".format(
            html.escape(self.verdict),
            " if " + html.escape(" && ".join(self.guards)) if self.guards else "",
            rows,
        )


def check(config, problem=None, assume=None):
    """Check a whole GEMM kernel configuration: a dict with CUTLASS's names (the TOML of
    ``tessera check`` as a dict) or a CUTLASS kernel name; ``problem`` = [M, N, K(, L)] (ints or
    names of runtime extents), ``assume`` = facts such as "K % 64 == 0". Returns a
    :class:`CheckResult`."""
    return CheckResult(*_native.check_report(config, problem, assume))


def check_many(configs, problem=None, assume=None):
    """Check a search space (no suggestions): ``(verdicts, summary)`` with summary keys valid,
    valid_if, invalid, by_first_refuted."""
    verdicts, (valid, valid_if, invalid, by) = _native.check_space(list(configs), problem, assume)
    return verdicts, {"valid": valid, "valid_if": valid_if, "invalid": invalid, "by_first_refuted": by}


__all__ += ["check", "check_many", "CheckResult"]

# Every operation of the library's registry (``tessera.operations()``) is a function of this
# package: a hand-written binding where there is one, else the native generic one that
# ``_tessera`` made from the registry row. Nothing here names an operation.
for _name, *_row in _native.operations():
    if _name not in globals():
        globals()[_name] = getattr(_native, _name)
    if _name not in __all__:
        __all__.append(_name)
del _name, _row
