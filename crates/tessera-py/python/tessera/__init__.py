"""Tessera: CuTe's layout algebra and nvFuser's iteration domains, every precondition a proof
obligation.

    >>> import tessera
    >>> tessera.composition("(6,2):(8,2)", "(4,3):(3,1)")
    Layout('((2,2),3):((24,2),8)')

``tessera.pycute`` is a drop-in replacement for NVIDIA's pycute.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union, cast

from . import errors
from ._tessera import (
    BankReport,
    SwizzleCandidate,
    SwizzleSynthesis,
    bank_conflicts,
    synthesize_swizzle,
    ComposedLayout,
    Layout,
    LinearLayout,
    Results,
    Swizzle,
    Schedule,
    SymLayout,
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
    # rows of the registry with no hand-written binding (natives made from the row)
    coalesce_trace,
    crd2idx,
    depth,
    divides,
    flatten,
    get,
    idx2crd,
    local_partition,
    local_tile,
    make_swizzle,
    ragged_flat_divide,
    ragged_local_partition,
    ragged_local_tile,
    ragged_logical_divide,
    ragged_tiled_divide,
    ragged_zipped_divide,
    rank,
    recast_layout,
    shape,
    slice,
    stride,
)
from . import _tessera as _native

if TYPE_CHECKING:
    # The type aliases of the stubs (annotations only).
    from ._tessera import AnyLayout, IntTuple, LayoutLike, SliceCoord, Tiler, Value
else:
    IntTuple = Union[int, Tuple[Any, ...]]
    SliceCoord = Union[int, None, Tuple[Any, ...]]
    AnyLayout = Union[Layout, ComposedLayout, Swizzle]
    LayoutLike = Union[Layout, ComposedLayout, Swizzle, LinearLayout, str, int]
    Tiler = Union[Layout, int, None, str, Tuple[Any, ...]]
    Value = Union[int, None, str, Layout, ComposedLayout, Swizzle, Tuple[Any, ...]]
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


def _int_or_symbolic(r: object) -> int:
    """``size``/``cosize``'s answer: an integer, or (for a ``SymLayout``) its symbolic value."""
    if isinstance(r, (int, SymLayout)):
        return cast(int, r)
    raise TypeError("expected an integer, got {!r}".format(r))


def size(layout: object) -> int:
    """The size of a layout (its domain), of a swizzled or linear layout, or the product of an
    integer tuple; the registry's ``size`` (``tessera eval 'size(...)'``).

    Pre: a layout-like value, layout text or an integer tuple. Post: ``size(L) == L.size()``
    (a ``SymLayout`` gives its symbolic size, a ``SymLayout``).

    >>> size("(4,8):(8,1)"), size((2, (3, 4))), size("GMMA::Layout_K_SW128_Atom<half_t>")
    (32, 24, 512)
    """
    if isinstance(layout, (Layout, _PyCuteLayout)):
        return layout.size()
    return _int_or_symbolic(_native.apply("size", layout))


def cosize(layout: object) -> int:
    """The cosize of a layout: ``Σ (s-1)·|d| + 1`` (CuTe's rule for swizzled layouts).

    Pre: a layout-like value or layout text. Post: ``L(i) < cosize(L)`` for every ``i``.

    >>> cosize("(4,8):(8,1)"), cosize("(2,2):(1,4)")
    (32, 6)
    """
    if isinstance(layout, (Layout, _PyCuteLayout)):
        return layout.cosize()
    return _int_or_symbolic(_native.apply("cosize", layout))


def print_layout(layout: object) -> None:
    """CuTe's ``print_layout``: prints the table of ``L(m, n)`` (a rank-1 layout as one column),
    byte-identical to C++ (``tessera show``). Swizzled, composed and linear layouts too.

    Pre: rank 1 or 2, at most 2^20 cells. Post: prints; returns None.

    >>> print_layout("(2,2):(2,1)")  # doctest: +NORMALIZE_WHITESPACE
    (2,2):(2,1)
          0   1
        +---+---+
     0  | 0 | 1 |
        +---+---+
     1  | 2 | 3 |
        +---+---+
    """
    obj: Any = layout
    if not hasattr(obj, "print_layout"):
        obj = _native.eval(layout) if isinstance(layout, str) else Layout(layout)  # type: ignore[arg-type]
    print(obj.print_layout(), end="")


def with_shape(layout: object, shape: object) -> Any:
    """CuTe's ``Layout::with_shape(shape)``: ``composition(L, make_layout(shape))``, the same
    function seen through a new (compact, column-major) shape.

    Pre: ``size(shape)`` fits the domain of ``L`` (composition's obligations). Post: each mode
    of the result has the size of that mode of ``shape`` and ``result(i) == L(i)`` for every ``i``.

    >>> with_shape("(4,8):(8,1)", (8, 4))
    Layout('((4,2),4):((8,1),2)')
    """
    return composition(cast(Any, layout), Layout(cast(Any, shape)))


def recast(layout: object, old_bits: int, new_bits: int) -> Any:
    """CuTe's ``recast_layout<Old, New>(L)``: ``L`` over ``old_bits``-wide elements seen as
    ``new_bits``-wide ones (the registry's ``recast_layout``).

    Pre: the widths divide one another; the recast mode has stride 1. Post: the same bytes.

    >>> recast("(4,8):(1,4)", 16, 32)
    Layout('(2,8):(1,2)')
    """
    return _native.apply("recast_layout", layout, old_bits, new_bits)


def product_each(shape: object) -> Any:
    """CuTe's ``product_each``: the product of each top-level mode of an integer tuple (an
    integer is its own product).

    Pre: an integer or a tuple of integer tuples. Post: ``product(product_each(s)) == size(s)``.

    >>> product_each((2, (3, 4), 5)), product_each(6)
    ((2, 12, 5), 6)
    """
    if isinstance(shape, tuple):
        return tuple(size(m) if isinstance(m, tuple) else int(m) for m in shape)
    return int(shape)  # type: ignore[call-overload]


def ceil_div(a: object, b: object) -> Any:
    """CuTe's ``ceil_div``: ``⌈a / b⌉`` of integers, mode by mode for congruent tuples.

    Pre: ``b > 0`` (each mode); tuples of the same rank. Post: ``ceil_div(a, b) * b >= a``.

    >>> ceil_div(10, 4), ceil_div((10, 7), (4, 7))
    (3, (3, 1))
    """
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
            raise RankMismatch(
                "ceil_div: rank mismatch: {} and {} are not congruent".format(a, b),
                obligation="rank({}) = rank({})".format(a, b),
            )
        return tuple(ceil_div(x, y) for x, y in zip(a, b))
    if not isinstance(b, int) or not isinstance(a, int) or b <= 0:
        raise NonPositiveShape(
            "ceil_div: the divisor {} is not a positive integer".format(b),
            obligation="{} ≥ 1".format(b),
        )
    return -(-a // b)


def shape_div(a: object, b: object) -> Any:
    """CuTe's ``shape_div`` (pycute's): ``a / b`` where one divides the other, tuples mode by
    mode (a tuple by an integer divides its modes left to right).

    Pre: at each step ``b ∣ a`` or ``a ∣ b`` (else ``Divisibility``). Post: CuTe's result.

    >>> shape_div((4, 6), 8), shape_div(12, 4)
    ((1, 3), 3)
    """
    from .pycute import int_tuple as _it

    return _it.shape_div(a, b)


def load_schedule(path: str) -> Schedule:
    r"""Loads a ``.tsch`` schedule file (``docs/domain.md``).

    Pre: the file parses (``DomainError`` with the line and column). Post: the schedule.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "s.tsch")
    >>> _ = open(path, "w").write("I0 = iter 6\nI1, I2 = split I0 by 4\nloop I1 I2\n")
    >>> load_schedule(path).counts()
    (8, 6, 2)
    """
    return Schedule.load(path)


from ._tessera import _PyCuteLayout  # noqa: E402  (the pycute face of Layout)
from . import triton  # noqa: E402  (Triton and Gluon layouts in and out)

__version__ = "0.1.0"

__all__ = [
    "AnyLayout",
    "IntTuple",
    "LayoutLike",
    "SliceCoord",
    "Tiler",
    "Value",
    "coalesce_trace",
    "crd2idx",
    "depth",
    "divides",
    "flatten",
    "get",
    "idx2crd",
    "local_partition",
    "local_tile",
    "make_swizzle",
    "ragged_flat_divide",
    "ragged_local_partition",
    "ragged_local_tile",
    "ragged_logical_divide",
    "ragged_tiled_divide",
    "ragged_zipped_divide",
    "rank",
    "recast_layout",
    "shape",
    "slice",
    "stride",
    "BankError",
    "BankReport",
    "bank_conflicts",
    "synthesize_swizzle",
    "SwizzleCandidate",
    "SwizzleSynthesis",
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
    "SymLayout",
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

    def __init__(self, report_json: str, text: str) -> None:
        import json

        d: Dict[str, Any] = json.loads(report_json)
        self._dict = d
        self._text = text
        self.verdict: str = d["verdict"]
        self.guards: List[str] = d["guards"]
        self.obligations: List[Dict[str, Any]] = d["obligations"]
        self.derived: Dict[str, Any] = d["derived"]

    def to_dict(self) -> Dict[str, Any]:
        """The report as a dict (the JSON of ``tessera check --json``; docs/check.md)."""
        import copy

        return copy.deepcopy(self._dict)

    def refuted(self) -> List[Dict[str, Any]]:
        """The refuted obligations."""
        return [o for o in self.obligations if o["verdict"] == "refuted"]

    def __bool__(self) -> bool:
        return self.verdict != "invalid"

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        codes = [o["code"] for o in self.refuted()]
        return f"<tessera.CheckResult {self.verdict} refuted={codes} guards={self.guards}>"

    def _repr_html_(self) -> str:
        import html

        rows = "".join(
            "<tr><td>{}</td><td><code>{}</code></td><td>{}{}</td></tr>".format(
                html.escape(o["verdict"]),
                html.escape(o["code"]),
                html.escape(o["message"]),
                "<br><i>witness: {}</i>".format(html.escape(o["witness"])) if o["witness"] else "",
            )
            for o in sorted(
                self.obligations,
                key=lambda o: ["refuted", "runtime", "warning", "proved"].index(o["verdict"]),
            )
        )
        return "<div><b>tessera check: {}</b>{}<table>{}</table></div>".format(
            html.escape(self.verdict),
            " if " + html.escape(" && ".join(self.guards)) if self.guards else "",
            rows,
        )


def check(
    config: Union[str, Dict[str, Any]],
    problem: Optional[Sequence[Union[int, str]]] = None,
    assume: Optional[Sequence[str]] = None,
) -> "CheckResult":
    """Check a whole GEMM kernel configuration: a dict with CUTLASS's names (the TOML of
    ``tessera check`` as a dict) or a CUTLASS kernel name; ``problem`` = [M, N, K(, L)] (ints or
    names of runtime extents), ``assume`` = facts such as "K % 64 == 0". Returns a
    :class:`CheckResult`.

    Pre: a configuration ``tessera check`` reads (``ValueError`` naming the field otherwise).
    Post: every obligation proved, refuted (with a witness) or guarded.

    >>> r = check("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8_warpspecialized_cooperative_epi_tma", problem=["M", "N", "K"])
    >>> r.verdict, r.guards
    ('valid_if', ['K % 8 == 0', 'M % 8 == 0'])
    """
    return CheckResult(*_native.check_report(config, problem, assume))


def check_many(
    configs: Iterable[Union[str, Dict[str, Any]]],
    problem: Optional[Sequence[Union[int, str]]] = None,
    assume: Optional[Sequence[str]] = None,
) -> Tuple[List[str], Dict[str, Any]]:
    """Check a search space (no suggestions): ``(verdicts, summary)`` with summary keys valid,
    valid_if, invalid, by_first_refuted.

    Pre: as :func:`check`, for each configuration. Post: one verdict per configuration, counted.

    >>> name = "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8_warpspecialized_cooperative_epi_tma"
    >>> v, summary = check_many([name], problem=["M", "N", "K"])
    >>> v, summary["valid_if"]
    (['valid_if'], 1)
    """
    verdicts, (valid, valid_if, invalid, by) = _native.check_space(list(configs), problem, assume)
    return verdicts, {
        "valid": valid,
        "valid_if": valid_if,
        "invalid": invalid,
        "by_first_refuted": by,
    }


__all__ += [
    "check",
    "check_many",
    "CheckResult",
    "print_layout",
    "with_shape",
    "recast",
    "product_each",
    "ceil_div",
    "shape_div",
]

# Every operation of the library's registry (``tessera.operations()``) is a function of this
# package: a hand-written binding where there is one, else the native generic one that
# ``_tessera`` made from the registry row. Nothing here names an operation.
for _name, *_row in _native.operations():
    if _name not in globals():
        globals()[_name] = getattr(_native, _name)
    if _name not in __all__:
        __all__.append(_name)
del _name, _row


if not TYPE_CHECKING:  # (a type checker reports a misspelt name itself)

    def __getattr__(name: str) -> Any:
        # A misspelt function: say which ones are near.
        from .errors import did_you_mean

        near = did_you_mean(name, [n for n in __all__ if not n.startswith("_")])
        hint = " (did you mean {}?)".format(" or ".join(repr(n) for n in near)) if near else ""
        raise AttributeError("module 'tessera' has no attribute {!r}{}".format(name, hint))
