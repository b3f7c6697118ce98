//! The layout algebra: one file per operation, named as CuTe names it.
//!
//! Results are exactly CuTe C++'s (all-static integers) wherever CuTe's result is correct; where
//! no correct result exists, or CuTe's is wrong, the operation returns a typed [`Error`] naming
//! the obligation. See `docs/differences.md` for every deliberate difference.

pub mod atoms;
pub mod coalesce;
pub mod complement;
mod complement_fast;
pub mod composition;
pub mod decide;
pub mod divide;
pub mod gluon;
pub mod inverse;
pub mod linear;
pub mod product;
pub mod ragged;
pub mod swizzled;

pub use coalesce::{
    coalesce, coalesce_by, coalesce_into, coalesce_trace, filter, filter_by, Rewrite, Rule,
};
pub use complement::{
    complement, complement1, complement1_with, complement_default, complement_exact,
    complement_exact_default, complement_into, complement_with_note,
};
pub use composition::{composition, composition_into, composition_tiler};
pub use divide::{flat_divide, logical_divide, logical_divide_into, tiled_divide, zipped_divide};
pub use inverse::{
    left_inverse, left_inverse_into, max_common_layout, max_common_vector, nullspace,
    right_inverse, right_inverse_into,
};
pub use product::{
    blocked_product, flat_product, logical_product, logical_product_into, make_ordered_layout,
    raked_product, tile_to_shape, tiled_product, zipped_product,
};

use crate::error::{arith, Error, Obligation, Result};
use crate::layout::{Builder, Layout, Mode, Tree, TreeRef};

/// A tiler: what divides and products (and composition) accept as their second argument.
// Layouts are stored inline (no heap up to 24 nodes), so the variants differ in size on purpose.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tiler {
    /// A layout, used as a 1-D function.
    Layout(Layout),
    /// An integer `n`, meaning the layout `n:1`.
    Int(i64),
    /// `_`: leave this mode alone.
    Under,
    /// A tuple of tilers, applied mode by mode.
    Tuple(Vec<Tiler>),
}

/// A layout-by-layout operation appending its result for one part (`f(a, b, tree)`, with `a`
/// given by its tree) to `tree`: a function pointer, so a part is one call (a `dyn Fn` added a
/// shim's call per part).
pub(crate) type PartOp = fn(TreeRef<'_, Mode>, &Layout, &mut Tree<Mode>) -> Result<()>;

/// Applies a layout-by-layout operation mode by mode along a tiler (CuTe's `transform_layout`
/// for divides and products), writing into `out`: modes of `a` past a tuple tiler are kept
/// unchanged. `f(a, b, tree)` appends its result for one part to `tree` as one subtree, so every
/// part is written in place, and a tuple tiler's modes of `a` are passed as borrowed subtrees
/// (nothing is copied). A leaf tiler `n` is CuTe's `make_layout(n)`: `n:1`, or `1:0`.
/// For a layout tiler (the common case) `f` is a constant once this is inlined: a direct call.
#[inline(always)]
pub(crate) fn by_mode_into(
    a: &Layout,
    tiler: &Tiler,
    op: &'static str,
    f: PartOp,
    out: &mut Layout,
) -> Result<()> {
    out.t.clear();
    if let Tiler::Layout(b) = tiler {
        return f(a.tree(), b, &mut out.t);
    }
    by_mode_append(a.tree(), tiler, op, f, &mut out.t)
}

/// [`by_mode_into`]'s recursion: appends the result for `a` along `tiler` to `out`.
fn by_mode_append(
    a: TreeRef<'_, Mode>,
    tiler: &Tiler,
    op: &'static str,
    f: PartOp,
    out: &mut Tree<Mode>,
) -> Result<()> {
    match tiler {
        Tiler::Under => {
            out.push_tree(a);
            Ok(())
        }
        Tiler::Tuple(ts) => {
            if ts.len() > a.rank() {
                return Err(Error::TooManyModes {
                    op,
                    tiler: ts.len(),
                    layout: a.rank(),
                });
            }
            out.push_tuple(a.rank());
            for (i, m) in a.modes().enumerate() {
                match ts.get(i) {
                    // A layout part (the common case) without a level of recursion.
                    Some(Tiler::Layout(b)) => f(m, b, out)?,
                    Some(t) => by_mode_append(m, t, op, f, out)?,
                    None => out.push_tree(m),
                }
            }
            Ok(())
        }
        Tiler::Layout(b) => f(a, b, out),
        Tiler::Int(n) => f(a, &Layout::mode(*n, if *n == 1 { 0 } else { 1 })?, out),
    }
}

/// CuTe's `zip2_by` guided by a tiler: gathers the rank-2 modes found at the tiler's terminals
/// into `((firsts…), (seconds…, untouched modes…))`. A `_` terminal contributes the tile `1:0`
/// and keeps its mode as the rest (pycute's behaviour; CuTe C++ does not compile it).
fn zip2_by(t: TreeRef<'_, Mode>, g: &Tiler) -> Result<(Tree<Mode>, Tree<Mode>)> {
    match g {
        Tiler::Tuple(gs) => {
            if t.is_leaf() || t.rank() < gs.len() {
                return Err(Error::RankMismatch {
                    op: "zip2_by",
                    detail: format!("mode of rank {} for a tiler of rank {}", t.rank(), gs.len()),
                });
            }
            let (mut first, mut second) = (Builder::new(), Builder::new());
            first.open();
            second.open();
            for (i, m) in t.modes().enumerate() {
                match gs.get(i) {
                    Some(gi) => {
                        let (a, b) = zip2_by(m, gi)?;
                        first.push(a.as_ref());
                        second.push(b.as_ref());
                    }
                    None => second.push(m),
                }
            }
            Ok((first.finish(), second.finish()))
        }
        Tiler::Under => Ok((Tree::leaf(Mode::new(1, 0)), t.to_owned())),
        _ => {
            if t.is_leaf() || t.rank() != 2 {
                return Err(Error::RankMismatch {
                    op: "zip2_by",
                    detail: format!(
                        "expected a rank-2 (tile, rest) mode, found rank {}",
                        t.rank()
                    ),
                });
            }
            let mut ms = t.modes();
            let a = ms.next().expect("rank 2").to_owned();
            let b = ms.next().expect("rank 2").to_owned();
            Ok((a, b))
        }
    }
}

/// CuTe's `tile_unzip`: a tuple tiler regroups a divide/product result as `(tiles, rests)`; a
/// layout tiler leaves it as it is.
pub(crate) fn tile_unzip(l: &Layout, tiler: &Tiler) -> Result<Layout> {
    match tiler {
        Tiler::Tuple(_) => {
            let (a, b) = zip2_by(l.tree(), tiler)?;
            Ok(Layout::from_tree(Tree::tuple([a.as_ref(), b.as_ref()])))
        }
        _ => Ok(l.clone()),
    }
}

/// `(Z0, Z1…)` (tiled) or `(Z0…, Z1…)` (flat) from a rank-2 zipped result.
pub(crate) fn flat_arrangement(z: &Layout, flat: bool) -> Layout {
    let mut b = Builder::new();
    b.open();
    // CuTe slices with `repeat<R>(_)`, which is a bare `_` (keep the mode whole) when R == 1.
    let mut modes = z.tree().modes();
    if let Some(z0) = modes.next() {
        if flat && z0.rank() > 1 {
            b.push_modes(z0);
        } else {
            b.push(z0);
        }
    }
    for rest in modes {
        if rest.rank() > 1 {
            b.push_modes(rest);
        } else {
            b.push(rest);
        }
    }
    b.close();
    Layout::from_tree(b.finish())
}

/// CuTe's `zip(A, B)` of two layouts: `((a0,b0),(a1,b1),…)` when A is a tuple (ranks must match);
/// `((a,b))` when A is an integer layout.
pub(crate) fn zip_pair(a: &Layout, b: &Layout, op: &'static str) -> Result<Layout> {
    let mut out = Builder::new();
    out.open();
    if a.is_leaf() {
        out.open();
        out.push(a.tree());
        out.push(b.tree());
        out.close();
    } else {
        if b.is_leaf() || a.rank() != b.rank() {
            return Err(Error::RankMismatch {
                op,
                detail: format!(
                    "cannot zip {a} (rank {}) with {b} (rank {})",
                    a.rank(),
                    b.rank()
                ),
            });
        }
        for (x, y) in a.tree().modes().zip(b.tree().modes()) {
            out.open();
            out.push(x);
            out.push(y);
            out.close();
        }
    }
    out.close();
    Ok(Layout::from_tree(out.finish()))
}

/// `upcast(L, N)`: the layout of L in units of `N` elements: a stride-±1 mode's extent is
/// ceil-divided by N, other strides are divided by N (stride-0 modes unchanged).
///
/// Pre: `N >= 1`; every non-zero stride `d` has `d % N == 0 or N % d == 0`
/// ([`Error::Divisibility`]).
/// Post: `R(i) == L(i·k) / N` on the vectorized domain when L is contiguous in its first mode.
///
/// ```
/// let l: tessera::Layout = "(4,8):(1,4)".parse().unwrap();
/// assert_eq!(tessera::algebra::upcast(&l, 2).unwrap().to_string(), "(2,8):(1,2)");
/// ```
pub fn upcast(l: &Layout, n: i64) -> Result<Layout> {
    positive_factor("upcast", n)?;
    Ok(Layout::from_tree(l.t.try_map(|m| {
        if m.stride == 0 {
            return Ok(m);
        }
        let d = arith::abs(m.stride)?;
        if d % n != 0 && n % d != 0 {
            return Err(Error::failed(
                Error::Divisibility,
                "upcast",
                Obligation::DividesEither {
                    what: "d ∣ N ∨ N ∣ d",
                    a: d,
                    b: n,
                },
            ));
        }
        let shape = arith::ceil_div(m.shape, arith::ceil_div(n, d));
        Ok(Mode::new(shape, m.stride.signum() * arith::ceil_div(d, n)))
    })?))
}

/// `downcast(L, N)`: the layout of L in units of `1/N` elements: a stride-±1 mode's extent is
/// multiplied by N, other strides are multiplied by N.
///
/// Pre: `N >= 1`; L has a stride-1 mode ([`Error::NoUnitStride`]).
/// Post: `size(R) == size(L)·N` times the number of stride-±1 modes' contribution; `upcast(R, N)`
/// gives back L for compact L.
///
/// ```
/// let l: tessera::Layout = "(4,8):(1,4)".parse().unwrap();
/// assert_eq!(tessera::algebra::downcast(&l, 2).unwrap().to_string(), "(8,8):(1,8)");
/// ```
pub fn downcast(l: &Layout, n: i64) -> Result<Layout> {
    positive_factor("downcast", n)?;
    if !l.leaves().any(|m| m.stride == 1) {
        return Err(Error::NoUnitStride {
            layout: l.to_string(),
        });
    }
    Ok(Layout::from_tree(l.t.try_map(|m| {
        if m.stride == 1 || m.stride == -1 {
            Ok(Mode::new(arith::mul(m.shape, n)?, m.stride))
        } else {
            Ok(Mode::new(m.shape, arith::mul(m.stride, n)?))
        }
    })?))
}

/// `new_bits / old_bits` in lowest terms `(num, den)`: the factors of CuTe's `recast_layout`.
///
/// Pre: `old_bits, new_bits >= 1` ([`Error::NonPositiveShape`]). Post: `num·old_bits ==
/// den·new_bits` with `gcd(num, den) == 1`. Example: `(16, 24)` gives `(3, 2)`.
pub fn recast_ratio(old_bits: i64, new_bits: i64) -> Result<(i64, i64)> {
    for (what, v) in [("old_bits", old_bits), ("new_bits", new_bits)] {
        if v < 1 {
            return Err(Error::NonPositiveShape {
                value: v,
                context: format!("recast_layout {what}"),
            });
        }
    }
    let (mut a, mut b) = (new_bits, old_bits);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    Ok((new_bits / a, old_bits / a))
}

/// CuTe's `recast_layout<Old, New>(L)`: a layout `L` over elements `old_bits` wide, seen as a
/// layout over elements `new_bits` wide. With `new_bits / old_bits = num / den` in lowest terms it
/// is `L` when both are 1, `upcast(L, num)` when `den == 1`, `downcast(L, den)` when `num == 1`,
/// and `downcast(upcast(L, num), den)` otherwise (the C++ `if constexpr` chain exactly).
///
/// Pre: `old_bits, new_bits >= 1` ([`Error::NonPositiveShape`]); [`upcast`]'s obligation for
/// `num` (every stride `d` has `d ∣ num ∨ num ∣ d`, [`Error::Divisibility`]) and [`downcast`]'s
/// for `den` (a stride-1 mode, [`Error::NoUnitStride`]). Post: `R` addresses in `new_bits`-wide
/// units the bits that `L` addresses in `old_bits`-wide units; `recast_layout(L, b, b) == L`.
///
/// ```
/// let l: tessera::Layout = "(4,8):(1,4)".parse().unwrap();
/// // 4x8 half_t (16 bits) as uint32_t (32 bits): two halves per word.
/// assert_eq!(tessera::algebra::recast_layout(&l, 16, 32).unwrap().to_string(), "(2,8):(1,2)");
/// // and as 8-bit bytes.
/// assert_eq!(tessera::algebra::recast_layout(&l, 16, 8).unwrap().to_string(), "(8,8):(1,8)");
/// ```
pub fn recast_layout(l: &Layout, old_bits: i64, new_bits: i64) -> Result<Layout> {
    match recast_ratio(old_bits, new_bits)? {
        (1, 1) => Ok(l.clone()),
        (1, den) => downcast(l, den),
        (num, 1) => upcast(l, num),
        (num, den) => downcast(&upcast(l, num)?, den),
    }
}

fn positive_factor(op: &'static str, n: i64) -> Result<()> {
    if n < 1 {
        return Err(Error::NonPositiveShape {
            value: n,
            context: format!("{op} factor N"),
        });
    }
    Ok(())
}

/// Builds the `Admissible` failure for `A ∘ B`; finds the leaf mode of B that fails on its own.
pub(crate) fn inadmissible(a: &Layout, b: &Layout, reason: String) -> Error {
    let mut mode = None;
    let leaves: Vec<_> = b.leaves().collect();
    if leaves.len() > 1 {
        for (k, m) in leaves.iter().enumerate() {
            if let Ok(leaf) = Layout::mode(m.shape, m.stride) {
                if composition(a, &leaf).is_err() {
                    mode = Some((k, leaf.to_string()));
                    break;
                }
            }
        }
    }
    let mut f = crate::error::Failure::boxed(
        "composition",
        crate::error::Obligation::Admissible {
            a: a.to_string(),
            b: b.to_string(),
            mode,
            reason,
        },
    );
    f.call = Some(crate::error::Call::new("composition", [a, b]));
    Error::Inadmissible(f)
}
