"""pycute's layouts (``pycute.layout``), native inside.

``Layout`` is Tessera's native layout with pycute's face: ``Layout(shape, stride=None)`` (strides
default to the running product, as pycute), callable, indexable, iterable, comparable and hashable,
``str``/``repr`` in pycute's notation. The operations run in Rust and return CuTe C++'s results
(docs/differences.md lists where that differs from pycute); where an obligation fails they raise
the ``tessera.Error`` subclass naming it, where pycute would return a wrong layout.
"""

from __future__ import annotations

from abc import ABC
from typing import Any, Tuple

from .. import _tessera
from .int_tuple import crd2idx, product, slice_

Layout = _tessera._PyCuteLayout


class LayoutBase(ABC):
    """Base of pycute's layouts: ``Layout`` (registered) and ``ComposedLayout``."""


LayoutBase.register(Layout)
LayoutBase.register(_tessera.Layout)
LayoutBase.register(_tessera._PyCuteComposedLayout)
LayoutBase.register(_tessera.ComposedLayout)


def is_layout(x: Any) -> bool:
    return isinstance(x, LayoutBase)


#: ``make_layout(L0, L1, ...)`` or ``make_layout(iterable)``: the layouts as modes.
make_layout = _tessera._pycute_make_layout


def size(layout: Any) -> Any:
    """``size(L)`` of a layout, or the product of an integer tuple."""
    if is_layout(layout):
        return layout.size()
    return product(layout)


def cosize(layout: Any) -> Any:
    """``cosize(L)``: C++'s ``Σ (s-1)·|d| + 1``."""
    return layout.cosize()


coalesce = _tessera.coalesce
filter = _tessera.filter
composition = _tessera.composition
logical_divide = _tessera.logical_divide
zipped_divide = _tessera.zipped_divide
tiled_divide = _tessera.tiled_divide
flat_divide = _tessera.flat_divide
logical_product = _tessera.logical_product
zipped_product = _tessera.zipped_product
tiled_product = _tessera.tiled_product
flat_product = _tessera.flat_product
# Native functions of the pycute face (one crossing per call: no Python wrapper, no partial).
blocked_product = _tessera._pycute_blocked_product
raked_product = _tessera._pycute_raked_product
right_inverse = _tessera._pycute_right_inverse
left_inverse = _tessera._pycute_left_inverse
#: ``complement(A, max_idx=1)``. A tractable layout gets the complement that tiles; an injective
#: non-tractable one gets CuTe's disjoint complement (checked disjoint).
complement = _tessera._pycute_complement


def hier_unzip(splitter: Any, layoutA: Any, layoutB: Any) -> Any:
    """pycute's helper: split ``A`` by a by-mode ``B`` with ``splitter`` and gather the tiles
    first (``zipped_divide``/``zipped_product`` use the native versions)."""
    if layoutB is None:
        return make_layout(Layout(1, 0), layoutA)
    if isinstance(layoutB, tuple):
        if len(layoutA) < len(layoutB):
            return splitter(layoutA, layoutB)  # raises the typed error
        split = [hier_unzip(splitter, layoutA[i], layoutB[i]) for i in range(len(layoutB))]
        rest = [layoutA[i] for i in range(len(layoutB), len(layoutA))]
        return make_layout(
            make_layout([s[0] for s in split]),
            make_layout([s[1] for s in split] + rest),
        )
    return splitter(layoutA, layoutB)


def slice_and_offset(crd: Any, layout: Any) -> Tuple[Any, Any]:
    """The sub-layout selected by the ``None`` entries of ``crd`` and the offset of the rest."""
    return (
        Layout(slice_(crd, layout.shape), slice_(crd, layout.stride)),
        crd2idx(crd, layout.shape, layout.stride),
    )


__all__ = [
    "LayoutBase",
    "is_layout",
    "Layout",
    "make_layout",
    "size",
    "cosize",
    "coalesce",
    "filter",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "logical_divide",
    "logical_product",
    "hier_unzip",
    "zipped_divide",
    "tiled_divide",
    "zipped_product",
    "tiled_product",
    "flat_divide",
    "flat_product",
    "blocked_product",
    "raked_product",
    "slice_and_offset",
]
