//! Products: `logical_product` and its arrangements, the rank-sensitive blocked and raked
//! products, and `tile_to_shape`.

use super::coalesce::guarded;
use super::complement::{complement, complement_scratch};
use super::composition::{compose_coalesced_append, composition};
use super::{by_mode_into, flat_arrangement, tile_unzip, zip_pair, Tiler};
use crate::error::{arith, Error, Obligation, Result};
use crate::layout::{size_of, IntTuple, Layout, Mode, Tree, TreeRef};

/// `logical_product(A, tiler)`: `(A, composition(complement(A, size(A)·cosize(B)), B))` for a
/// layout tiler B; mode by mode for a tuple tiler (trailing modes of A kept); `n:1` for an integer;
/// A itself for `_`.
///
/// Pre: a tuple tiler has rank ≤ rank(A); A has a complement ([`super::complement()`]); the
/// composition is admissible.
/// Post (layout tiler): rank 2; mode 0 is A exactly; mode 1 is compatible with B; the image of
/// mode 1 is disjoint from A's apart from 0 (the copies of A do not overlap). A not tractable:
/// CuTe's answer, with a `complement_holes` note (the copies leave holes between them).
///
/// ```
/// use tessera::{Layout, algebra::{logical_product, Tiler}};
/// let a: Layout = "(2,2):(4,1)".parse().unwrap();
/// let t = Tiler::Layout("6:1".parse().unwrap());
/// assert_eq!(logical_product(&a, &t).unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub fn logical_product(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    let mut out = Layout::default();
    logical_product_into(a, tiler, &mut out)?;
    Ok(out)
}

/// [`logical_product`] writing its result into `out` (whose storage is reused; the complement
/// lives in stack scratch and the composition is appended in place). On error `out` is `1:0`.
///
/// Pre/Post: as [`logical_product`].
///
/// ```
/// use tessera::{Layout, algebra::{logical_product_into, Tiler}};
/// let a: Layout = "(2,2):(4,1)".parse().unwrap();
/// let mut out = Layout::default();
/// logical_product_into(&a, &Tiler::Layout("6:1".parse().unwrap()), &mut out).unwrap();
/// assert_eq!(out.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub fn logical_product_into(a: &Layout, tiler: &Tiler, out: &mut Layout) -> Result<()> {
    guarded(out, |out| {
        by_mode_into(a, tiler, "logical_product", product_by_layout, out)
    })
}

/// Appends `(A, composition(complement(A, size(A)·cosize(B)), B))` to `out`.
fn product_by_layout(a: TreeRef<'_, Mode>, b: &Layout, out: &mut Tree<Mode>) -> Result<()> {
    let m = arith::mul(size_of(a.leaf_slice())?, b.cosize()?)?;
    // The complement's flat modes stay in stack scratch; the composition reads them directly
    // (they are coalesced: every branch of `complement` ends in coalesced form).
    complement_scratch!(rest, a, &[m]);
    out.push_tuple(2);
    out.push_tree(a);
    compose_coalesced_append(rest, b, out)
}

/// `zipped_product(A, tiler)`: `((A modes…), (products…, untouched modes…))`.
///
/// Pre: as [`logical_product`]. Post: the same points as [`logical_product`]; mode 0 gathers
/// A's tiled modes, mode 1 the products and A's untouched modes.
///
/// ```
/// use tessera::{Layout, algebra::{zipped_product, Tiler}};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(3), Tiler::Int(4)]);
/// assert_eq!(zipped_product(&a, &t).unwrap().to_string(), "((2,5),(3,4)):((5,1),(1,5))");
/// ```
pub fn zipped_product(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    tile_unzip(&logical_product(a, tiler)?, tiler)
}

/// `tiled_product(A, tiler)`: mode 1 of [`zipped_product`] unpacked.
///
/// Pre: as [`logical_product`]. Post: the same points as [`zipped_product`].
///
/// ```
/// use tessera::{Layout, algebra::{tiled_product, Tiler}};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(3), Tiler::Int(4)]);
/// assert_eq!(tiled_product(&a, &t).unwrap().to_string(), "((2,5),3,4):((5,1),1,5)");
/// ```
pub fn tiled_product(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Ok(flat_arrangement(&zipped_product(a, tiler)?, false))
}

/// `flat_product(A, tiler)`: both modes of [`zipped_product`] unpacked.
///
/// Pre: as [`logical_product`]. Post: the same points as [`zipped_product`].
///
/// ```
/// use tessera::{Layout, algebra::{flat_product, Tiler}};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(3), Tiler::Int(4)]);
/// assert_eq!(flat_product(&a, &t).unwrap().to_string(), "(2,5,3,4):(5,1,1,5)");
/// ```
pub fn flat_product(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Ok(flat_arrangement(&zipped_product(a, tiler)?, true))
}

/// CuTe's `append<R>(L)`: pads L with `1:0` modes to rank R.
fn pad(l: &Layout, r: usize) -> Layout {
    if l.rank() >= r {
        return l.clone();
    }
    let unit = Layout::leaf(Mode::new(1, 0));
    let mut parts: Vec<Layout> = l.modes().collect();
    while parts.len() < r {
        parts.push(unit.clone());
    }
    Layout::concat(parts.iter())
}

fn rank_sensitive(a: &Layout, b: &Layout, raked: bool) -> Result<Layout> {
    let r = a.rank().max(b.rank());
    let (ap, bp) = (pad(a, r), pad(b, r));
    let m = arith::mul(ap.size()?, bp.cosize()?)?;
    let rest = complement(&ap, &IntTuple::leaf(m))?;
    let c = composition(&rest, &bp)?;
    if raked {
        zip_pair(&c, &ap, "raked_product")
    } else {
        zip_pair(&ap, &c, "blocked_product")
    }
}

/// `blocked_product(A, B)`: B copies of the block A, each mode i being `(A_i, B_i*)`.
///
/// Pre: A is complementable in `size(A)·cosize(B)`; the composition is admissible.
/// Post: rank = max(rank A, rank B); the restriction to each copy is A; copies do not overlap.
///
/// ```
/// use tessera::{Layout, algebra::blocked_product};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let b: Layout = "(3,4):(1,3)".parse().unwrap();
/// assert_eq!(blocked_product(&a, &b).unwrap().to_string(), "((2,3),(5,4)):((5,10),(1,30))");
/// ```
pub fn blocked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    rank_sensitive(a, b, false)
}

/// `raked_product(A, B)`: like [`blocked_product`] with the copies interleaved: mode i is
/// `(B_i*, A_i)`.
///
/// Pre/Post: as [`blocked_product`].
///
/// ```
/// use tessera::{Layout, algebra::raked_product};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let b: Layout = "(3,4):(1,3)".parse().unwrap();
/// assert_eq!(raked_product(&a, &b).unwrap().to_string(), "((3,2),(4,5)):((10,5),(30,1))");
/// ```
pub fn raked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    rank_sensitive(a, b, true)
}

/// `make_ordered_layout(shape, order)`: the compact layout of `shape` whose modes get strides in
/// increasing `order` (CuTe's `compact_order`; within a hierarchical mode, column-major).
///
/// Pre: `order` is weakly congruent to `shape` (a coarsening of its profile).
/// Post: compact, a bijection onto `[0, size)`; equal order values on two modes of extent > 1
/// (CuTe gives them one stride) are refused with `non_injective`.
///
/// ```
/// use tessera::algebra::make_ordered_layout;
/// let l = make_ordered_layout(&"(2,2,2,2)".parse().unwrap(), &"(0,2,3,1)".parse().unwrap()).unwrap();
/// assert_eq!(l.to_string(), "(2,2,2,2):(1,4,8,2)");
/// ```
pub fn make_ordered_layout(shape: &IntTuple, order: &IntTuple) -> Result<Layout> {
    crate::layout::check_shape(shape)?;
    // ref_shape: the product of `shape` at each leaf of `order`.
    let mut refs: Vec<(i64, i64)> = Vec::new();
    collect_refs(shape.as_ref(), order.as_ref(), &mut refs)?;
    let mut b = crate::layout::Builder::new();
    build_ordered(shape.as_ref(), order.as_ref(), &refs, &mut b)?;
    let l = Layout::from_tree(b.finish());
    // Postcondition: a compact layout is injective. Two leaves of extent ≥ 2 with equal order
    // values get the same stride (CuTe returns that layout; Tessera refuses it).
    let leaves: Vec<_> = l.leaves().collect();
    for (i, x) in leaves.iter().enumerate() {
        if let Some(j) = (i + 1..leaves.len())
            .find(|&j| x.shape > 1 && leaves[j].shape > 1 && leaves[j].stride == x.stride)
        {
            return Err(Error::failed(
                Error::NonInjective,
                "make_ordered_layout",
                crate::error::Obligation::Injective {
                    layout: l.to_string(),
                    witness: format!(
                        "leaves {i} and {j} both get stride {} (their order values are equal; \
                         give each mode of extent > 1 a distinct order)",
                        x.stride
                    ),
                },
            ));
        }
    }
    Ok(l)
}

fn weak_mismatch(
    shape: crate::layout::TreeRef<'_, i64>,
    order: crate::layout::TreeRef<'_, i64>,
) -> Error {
    Error::NotCongruent {
        what: "make_ordered_layout: order must be weakly congruent to shape".into(),
        left: order.to_owned().to_string(),
        right: shape.to_owned().to_string(),
    }
}

fn collect_refs(
    shape: crate::layout::TreeRef<'_, i64>,
    order: crate::layout::TreeRef<'_, i64>,
    out: &mut Vec<(i64, i64)>,
) -> Result<()> {
    match order.leaf() {
        Some(o) => out.push((crate::layout::product(shape)?, o)),
        None => {
            if shape.is_leaf() || shape.rank() != order.rank() {
                return Err(weak_mismatch(shape, order));
            }
            for (s, o) in shape.modes().zip(order.modes()) {
                collect_refs(s, o, out)?;
            }
        }
    }
    Ok(())
}

fn build_ordered(
    shape: crate::layout::TreeRef<'_, i64>,
    order: crate::layout::TreeRef<'_, i64>,
    refs: &[(i64, i64)],
    b: &mut crate::layout::Builder<Mode>,
) -> Result<()> {
    match order.leaf() {
        Some(o) => {
            let mut start = 1i64;
            for &(s, ro) in refs {
                if ro < o {
                    start = arith::mul(start, s)?;
                }
            }
            let sub = shape.to_owned();
            let strides = crate::layout::compact_col_major(&sub, start)?;
            b.push(Layout::new(&sub, &strides)?.tree());
        }
        None => {
            b.open();
            for (s, o) in shape.modes().zip(order.modes()) {
                build_ordered(s, o, refs, b)?;
            }
            b.close();
        }
    }
    Ok(())
}

/// `tile_to_shape(block, shape, order)`: repeats `block` (a [`blocked_product`] over a layout
/// ordered by `order`, column-major when `None`) until it has the target shape.
///
/// Pre: `rank(block) <= rank(shape)`; each mode's size of the padded block divides the target
/// mode's size ([`Error::Divisibility`] otherwise).
/// Post: `compatible(shape, shape(R))`: each mode of R has the target mode's size.
///
/// ```
/// use tessera::{Layout, algebra::tile_to_shape};
/// let block: Layout = "(2,5):(5,1)".parse().unwrap();
/// let r = tile_to_shape(&block, &"(8,20)".parse().unwrap(), None).unwrap();
/// assert_eq!(r.to_string(), "((2,4),(5,4)):((5,10),(1,40))");
/// ```
pub fn tile_to_shape(block: &Layout, shape: &IntTuple, order: Option<&IntTuple>) -> Result<Layout> {
    crate::layout::check_shape(shape)?;
    let r = shape.as_ref().rank();
    if block.rank() > r {
        return Err(Error::RankMismatch {
            op: "tile_to_shape",
            detail: format!(
                "rank of layout {block} ({}) must be <= rank of target shape {shape} ({r})",
                block.rank()
            ),
        });
    }
    let padded = pad(block, r);
    let mut product_shape = Vec::with_capacity(r);
    for (bm, tm) in padded.tree().modes().zip(shape.as_ref().modes()) {
        let bs = size_of(bm.leaf_slice())?;
        let ts = crate::layout::product(tm)?;
        if ts % bs != 0 {
            return Err(Error::failed(
                Error::Divisibility,
                "tile_to_shape",
                Obligation::Divides {
                    what: "size(block mode) ∣ size(target mode)",
                    factors: vec![bs],
                    b: ts,
                },
            ));
        }
        product_shape.push(ts / bs);
    }
    let ps = IntTuple::flat(product_shape);
    let tiler = match order {
        None => Layout::compact(&ps)?,
        Some(o) => make_ordered_layout(&ps, o)?,
    };
    blocked_product(&padded, &tiler)
}
