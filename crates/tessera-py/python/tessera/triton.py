"""Triton and Gluon layouts in and out, with no Triton import.

A Gluon layout (``triton.experimental.gluon.language``: ``BlockedLayout``, ``SliceLayout``,
``DotOperandLayout``, ``NVMMADistributedLayout``, ``DistributedLinearLayout``,
``NVMMASharedLayout``, ``SwizzledSharedLayout``, ``PaddedSharedLayout``, ``SharedLinearLayout``)
is read from its dataclass fields, or from its constructor text (what ``repr()`` prints):

    >>> from tessera import triton as tt
    >>> l = tt.from_gluon("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])", [32, 64])
    >>> l.bases[1]
    ('lane', [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]])
    >>> tt.tv_layout(l)
    Layout('((8,16),(4,2,2)):((128,1),(32,1024,16))')

Register layouts become linear layouts ``register, lane, warp, block -> dim0, dim1, ...`` (Triton's
``to_linear_layout``) and thread-value CuTe layouts (``tv_layout``); shared layouts become their
offset map ``offset, block -> dims`` and, with ``cute``, the CuTe layout ``coordinates -> offset``,
named as a swizzle when one matches:

    >>> s = tt.from_gluon("NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16)", [64, 64])
    >>> tt.cute(s)
    ComposedLayout('Sw<3,3,3> o 0 o (64,64):(64,1)')
    >>> tt.to_gluon(s)
    'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'

``PaddedSharedLayout`` is not F2-linear (padding adds, with carries; Triton itself has no linear
layout for it): ``from_gluon`` returns its linear component (``offset_bases``) and
``padded_offset`` the padded address of an element offset.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional, Sequence, Union

from ._tessera import (
    ComposedLayout,
    Layout,
    LinearLayout,
    _gluon_from_linear,
    _gluon_normalize,
    _gluon_to_linear,
    _gluon_tv,
    _padded_offset,
)

#: The Gluon classes read here (Triton 3.9).
GLUON_CLASSES = (
    "BlockedLayout",
    "SliceLayout",
    "DotOperandLayout",
    "NVMMADistributedLayout",
    "DistributedLinearLayout",
    "NVMMASharedLayout",
    "SwizzledSharedLayout",
    "PaddedSharedLayout",
    "SharedLinearLayout",
)


def _literal(v: Any) -> str:
    if isinstance(v, bool):
        return "True" if v else "False"
    if v is None:
        return "None"
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_literal(x) for x in v) + "]"
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return gluon_text(v)
    inner = getattr(v, "value", None)  # a Triton ``constexpr``
    if inner is not None and inner is not v:
        return _literal(inner)
    raise TypeError(f"cannot read a Gluon field value of type {type(v).__name__}")


def gluon_text(layout: Any) -> str:
    """The constructor text of a Gluon layout dataclass (its class name and fields), or the text
    itself when given a string.

    Pre: a dataclass of one of ``GLUON_CLASSES`` (read by class name, no Triton import), or text.
    Post: ``from_gluon(gluon_text(x), shape) == from_gluon(x, shape)``.

        >>> gluon_text("SwizzledSharedLayout(8, 1, 8, [1, 0])")
        'SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0], cga_layout=[])'
    """
    if isinstance(layout, str):
        return _gluon_normalize(layout)
    if not (dataclasses.is_dataclass(layout) and not isinstance(layout, type)):
        raise TypeError(
            f"expected a Gluon layout dataclass or its text, got {type(layout).__name__}"
        )
    name = type(layout).__name__
    args = ", ".join(
        f"{f.name}={_literal(getattr(layout, f.name))}" for f in dataclasses.fields(layout)
    )
    return f"{name}({args})"


def from_gluon(layout: Any, shape: Optional[Sequence[int]] = None) -> LinearLayout:
    """The linear layout of a Gluon layout over a tensor shape, as Triton's
    ``to_linear_layout(layout, shape)`` (agreement checked on 284 layouts of Triton 3.9.0).

    Pre: ``shape`` has the layout's rank and power-of-two sizes (it may be left out for
    ``DistributedLinearLayout``, ``PaddedSharedLayout`` and ``SharedLinearLayout``, which carry one).
    Post: register layouts map ``register, lane, warp, block`` and shared layouts ``offset, block``
    to ``dim0, dim1, ...`` of the shape's sizes.

        >>> from_gluon("SliceLayout(1, BlockedLayout([1, 1], [32, 1], [4, 1], [0, 1]))", [128]).bases[2]
        ('warp', [[32], [64]])
    """
    return _gluon_to_linear(gluon_text(layout), None if shape is None else [int(s) for s in shape])


def to_gluon(layout: LinearLayout) -> Optional[str]:
    """The ``NVMMASharedLayout`` or ``SwizzledSharedLayout`` constructor whose layout over the
    output shape is ``layout`` (a shared layout ``offset -> dims``), or None when none is.

    Pre: none. Post: ``from_gluon(to_gluon(l), shape).equivalent(l)`` when not None.

        >>> to_gluon(from_gluon("SwizzledSharedLayout(4, 2, 4, [1, 0])", [32, 32]))
        'SwizzledSharedLayout(vec=4, per_phase=2, max_phase=4, order=[1, 0], cga_layout=[])'
    """
    return _gluon_from_linear(layout)


def tv_layout(layout: Union[LinearLayout, Any], shape: Optional[Sequence[int]] = None) -> Layout:
    """The thread-value CuTe layout of a register layout: ``(thread, value) -> index`` of the
    tensor (``dim0`` fastest), thread ``lane + 32 * warp``, value the register.

    Pre: a register linear layout (or a Gluon register layout with its shape) whose bases share
    no bit. Post: ``tv(t, v)`` is the index of the element register ``v`` of thread ``t`` holds.

        >>> tv_layout("NVMMADistributedLayout([2, 0], [1, 1], [16, 8])", [16, 8])
        Layout('((4,8),(2,2)):((32,1),(16,8))')
    """
    l = layout if isinstance(layout, LinearLayout) else from_gluon(layout, shape)
    return _gluon_tv(l)


def cute(
    layout: Union[LinearLayout, Any], shape: Optional[Sequence[int]] = None
) -> Union[Layout, ComposedLayout]:
    """The CuTe layout ``coordinates -> offset`` of a shared layout (the inverse of Triton's
    ``offset -> dims``, block 0), named ``Sw<B,M,S> o 0 o L`` when a swizzle makes it one.

    Pre: a shared layout (linear, or Gluon with its shape) with such a form.
    Post: ``cute(l)(c) == o`` exactly when ``l`` maps offset ``o`` to coordinate ``c``.

        >>> cute("SwizzledSharedLayout(8, 1, 8, [1, 0])", [64, 64])
        ComposedLayout('Sw<3,3,3> o 0 o (64,64):(64,1)')
    """
    l = layout if isinstance(layout, LinearLayout) else from_gluon(layout, shape)
    names = [n for n, _ in l.in_dims if n != "block"]
    sizes = dict(l.out_dims)
    within = LinearLayout.from_bases(
        [(n, b) for n, b in l.bases if n in names],
        [n for n, _ in l.out_dims],
        [sizes[n] for n, _ in l.out_dims],
        require_surjective=False,
    )
    inv = within.invert() if within.is_injective() else within.pseudoinvert()
    return inv.to_layout()


def padded_offset(layout: Any, offset: int) -> int:
    """The padded address of element offset ``offset`` of a ``PaddedSharedLayout``:
    ``offset + sum((offset // interval) * padding)`` over its pairs.

    Pre: a ``PaddedSharedLayout`` (dataclass or text). Post: increasing in ``offset``.

        >>> padded_offset("PaddedSharedLayout([[2, 1], [4, 2]], [[1], [2], [4]], [], [8])", 4)
        8
    """
    text = gluon_text(layout)
    if not text.startswith("PaddedSharedLayout("):
        raise TypeError("padded_offset needs a PaddedSharedLayout")
    pairs = _pairs(text)
    return _padded_offset(pairs, int(offset))


def _pairs(text: str) -> list[tuple[int, int]]:
    start = text.index("interval_padding_pairs=") + len("interval_padding_pairs=")
    depth, end = 0, start
    for i, ch in enumerate(text[start:], start):
        depth += ch == "["
        depth -= ch == "]"
        if depth == 0:
            end = i + 1
            break
    import ast

    return [(int(a), int(b)) for a, b in ast.literal_eval(text[start:end])]


__all__ = [
    "GLUON_CLASSES",
    "LinearLayout",
    "cute",
    "from_gluon",
    "gluon_text",
    "padded_offset",
    "to_gluon",
    "tv_layout",
]
