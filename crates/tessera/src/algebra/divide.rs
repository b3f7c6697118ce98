//! Divides: `logical_divide` and its zipped, tiled and flat arrangements.

use crate::layout::buf::Buf;

use super::coalesce::{guarded, with_coalesced, with_coalesced_x};
use super::complement::complement_scratch;
use super::composition::{certified_pair, compose_decide};
use super::{by_mode_into, flat_arrangement, tile_unzip, Tiler};
use crate::error::Result;
use crate::layout::{Layout, Mode, Tree, TreeRef};

/// `logical_divide(A, tiler)`: splits A into (tile, rest):
/// `composition(A, (B, complement(B, shape(coalesce(A)))))` for a layout tiler B, mode by mode for
/// a tuple tiler (modes of A past the tiler are kept), `n:1` for an integer, A itself for `_`.
///
/// Pre: a tuple tiler has rank ≤ rank(A); B has a complement ([`super::complement()`]); the
/// composition is admissible (decided exactly: `logical_divide((3,5):(5,1), 2:1)`, which CuTe C++
/// gets wrong, is an [`crate::Error::Inadmissible`]).
/// Post (layout tiler): rank 2; mode 0 equals `composition(A, B)`; `R(c) == A(T(c))` for
/// `T = (B, complement(B, shape(coalesce(A))))`, so R is a re-indexing of A's image when B is
/// tractable; otherwise T leaves holes, R is CuTe's answer and a `complement_holes` note is
/// recorded (`logical_divide(64:1,(2,2):(1,3))` = `((2,2),11):((1,3),6)`).
///
/// ```
/// use tessera::{Layout, algebra::{logical_divide, Tiler}};
/// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
/// let t = Tiler::Layout("4:2".parse().unwrap());
/// assert_eq!(logical_divide(&a, &t).unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub fn logical_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    let mut out = Layout::default();
    logical_divide_into(a, tiler, &mut out)?;
    Ok(out)
}

/// [`logical_divide`] writing its result into `out` (whose storage is reused; the complement and
/// the tiler `(B, complement)` live in stack scratch, nothing is returned by value). On error
/// `out` is `1:0`.
///
/// Pre/Post: as [`logical_divide`].
///
/// ```
/// use tessera::{Layout, algebra::{logical_divide_into, Tiler}};
/// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
/// let mut out = Layout::default();
/// logical_divide_into(&a, &Tiler::Layout("4:2".parse().unwrap()), &mut out).unwrap();
/// assert_eq!(out.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub fn logical_divide_into(a: &Layout, tiler: &Tiler, out: &mut Layout) -> Result<()> {
    guarded(out, |out| {
        by_mode_into(a, tiler, "logical_divide", divide_by_layout, out)
    })
}

/// Appends `composition(A, (B, complement(B, shape(coalesce(A)))))` to `out`.
///
/// The tiler `(B, complement)` is not built unless the one-pass certificate does not apply
/// ([`certified_pair`] reads B and the complement's modes in turn); and `coalesce(A)`, computed
/// for the cotarget, is also `coalesce_x(A)` (what the composition reads) whenever A's last leaf
/// is not a unit, so A is coalesced once.
fn divide_by_layout(a: TreeRef<'_, Mode>, b: &Layout, out: &mut Tree<Mode>) -> Result<()> {
    let last_is_unit = a.leaf_slice().last().is_none_or(|m| m.shape == 1);
    with_coalesced(a, |ac| {
        // The cotarget is the shape of coalesce(A), passed as its leaves (no tuple is built), in
        // scratch sized to it.
        let mut small: [i64; 6];
        let mut big: Buf<i64, 16>;
        let target: &[i64] = if ac.len() <= 6 {
            small = [0; 6];
            for (t, m) in small.iter_mut().zip(ac) {
                *t = m.shape;
            }
            &small[..ac.len()]
        } else {
            big = Buf::new();
            for m in ac {
                big.push(m.shape);
            }
            &big
        };
        complement_scratch!(c, b.tree(), target);
        let mark = out.lens();
        let certified = if last_is_unit {
            with_coalesced_x(a, |ax| certified_pair(ax, b.tree(), c, out))?
        } else {
            certified_pair(ac, b.tree(), c, out)?
        };
        if certified {
            return Ok(());
        }
        // The full decision, on the tiler (B, complement) built in place.
        let mut t = Layout::default();
        t.t.clear();
        t.t.push_tuple(2);
        t.t.push_tree(b.tree());
        t.t.push_flat(c, true);
        compose_decide(&Layout::from_tree(a.to_owned()), &t, out, mark)
    })
}

/// `zipped_divide(A, tiler)`: `((tiles…), (rests…, untouched modes…))`.
///
/// Pre: as [`logical_divide`]. Post: mode 0 equals `composition(A, tiler)` mode by mode.
///
/// ```
/// use tessera::{Layout, algebra::{zipped_divide, Tiler}};
/// let a: Layout = "(9,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("3:3".parse().unwrap()), Tiler::Layout("(2,4):(1,8)".parse().unwrap())]);
/// assert_eq!(zipped_divide(&a, &t).unwrap().to_string(),
///            "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
/// ```
pub fn zipped_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    tile_unzip(&logical_divide(a, tiler)?, tiler)
}

/// `tiled_divide(A, tiler)`: `((tiles…), rest0, rest1, …)`: mode 1 of [`zipped_divide`] unpacked.
///
/// Pre: as [`logical_divide`]. Post: the same points as [`zipped_divide`], mode 1 unpacked.
///
/// ```
/// use tessera::{Layout, algebra::{tiled_divide, Tiler}};
/// let a: Layout = "(9,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("3:3".parse().unwrap()), Tiler::Layout("(2,4):(1,8)".parse().unwrap())]);
/// assert_eq!(tiled_divide(&a, &t).unwrap().to_string(), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
/// ```
pub fn tiled_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Ok(flat_arrangement(&zipped_divide(a, tiler)?, false))
}

/// `flat_divide(A, tiler)`: `(tile0, tile1, …, rest0, rest1, …)`: both modes of
/// [`zipped_divide`] unpacked.
///
/// Pre: as [`logical_divide`]. Post: the same points as [`zipped_divide`], both modes unpacked.
///
/// ```
/// use tessera::{Layout, algebra::{flat_divide, Tiler}};
/// let a: Layout = "(9,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("3:3".parse().unwrap()), Tiler::Layout("(2,4):(1,8)".parse().unwrap())]);
/// assert_eq!(flat_divide(&a, &t).unwrap().to_string(), "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))");
/// ```
pub fn flat_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Ok(flat_arrangement(&zipped_divide(a, tiler)?, true))
}
