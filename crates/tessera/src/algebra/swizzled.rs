//! The algebra on swizzles and composed layouts (CuTe's `swizzle_layout.hpp`,
//! `layout_composed.hpp`), over [`AnyLayout`].
//!
//! Most operations act on the innermost layout and keep `outer ∘ offset` (CuTe's rule): for
//! `f = A ∘ O ∘ B`, `op(f, t) = A ∘ O ∘ op(B, t)`. The ones that mix a swizzle into a layout
//! (`Layout ∘ Swizzle`, `Swizzle ∘ Swizzle`, the inverses) compute CuTe's candidate and check it
//! by evaluation: a wrong candidate is never returned; where a correct answer exists in another
//! form (a chain `L ∘ O ∘ Sw`) that answer is returned, otherwise a typed error says why.

use crate::algebra::{self, Tiler};
use crate::error::{arith, Error, Result};
use crate::layout::{AnyLayout, ComposedLayout, IntTuple, Layout, SliceCoord, Swizzle};

/// The largest domain checked point by point (a candidate over a larger domain is refused).
pub const CHECK_BOUND: i64 = 1 << 20;

/// `outer ∘ offset ∘ inner`, simplified as CuTe simplifies it: a zero-bit swizzle with offset 0
/// is the identity, so the result is `inner`.
///
/// Pre: none. Post: `R(i) == outer(offset + inner(i))` for every `i`.
///
/// ```
/// use tessera::{algebra::swizzled::compose, layout::{AnyLayout, Swizzle}};
/// let l: AnyLayout = "(8,8):(8,1)".parse().unwrap();
/// let r = compose(Swizzle::new(0, 4, 3).unwrap().into(), 0, l.clone());
/// assert_eq!(r, l);
/// ```
pub fn compose(outer: AnyLayout, offset: i64, inner: AnyLayout) -> AnyLayout {
    if offset == 0 {
        if let AnyLayout::Swizzle(s) = &outer {
            if s.is_identity() {
                return inner;
            }
        }
    }
    ComposedLayout::new(outer, offset, inner).into()
}

/// Applies `f` to the innermost layout, keeping every `outer ∘ offset` around it.
fn map_inner(
    a: &AnyLayout,
    op: &'static str,
    f: &dyn Fn(&Layout) -> Result<Layout>,
) -> Result<AnyLayout> {
    match a {
        AnyLayout::Plain(l) => Ok(AnyLayout::Plain(f(l)?)),
        AnyLayout::Swizzle(s) => Err(Error::RankMismatch {
            op,
            detail: format!("{s} is a bare swizzle (no shape); compose it with a layout first"),
        }),
        AnyLayout::Composed(c) => Ok(compose(
            c.outer.clone(),
            c.offset,
            map_inner(&c.inner, op, f)?,
        )),
    }
}

/// CuTe's `make_swizzle<Y,Z>()`: the swizzle whose yyy mask is `y` and zzz mask is `z`.
///
/// Pre: `y, z ≥ 0` with the same number of set bits, each a contiguous run, and
/// `y | z` is the mask of `Sw<B,M,S>` with `B = popcount`, `M = min(tz(y), tz(z))`,
/// `S = tz(y) − tz(z)`; otherwise [`Error::NotExpressible`].
/// Post: `R.yyy_mask() == y && R.zzz_mask() == z` (or `B = 0` when both are 0).
///
/// ```
/// use tessera::algebra::swizzled::make_swizzle;
/// assert_eq!(make_swizzle(0b1000, 0b0100).unwrap().to_string(), "Sw<1,2,1>");
/// assert_eq!(make_swizzle(0b1100_0000, 0b0000_0110).unwrap().to_string(), "Sw<2,1,5>");
/// ```
pub fn make_swizzle(y: i64, z: i64) -> Result<Swizzle> {
    let not = |detail: String| Error::NotExpressible {
        op: "make_swizzle",
        what: format!("make_swizzle({y},{z})"),
        detail,
    };
    if y < 0 || z < 0 {
        return Err(not(format!("the masks {y} and {z} must be non-negative")));
    }
    let (by, bz) = (y.count_ones() as i64, z.count_ones() as i64);
    if by != bz {
        return Err(not(format!(
            "Y = {y:#b} has {by} bits but Z = {z:#b} has {bz} (the number of bits in Y and Z must match)"
        )));
    }
    if by == 0 {
        return Swizzle::new(0, 0, 0);
    }
    let (ty, tz) = (y.trailing_zeros() as i64, z.trailing_zeros() as i64);
    let s = Swizzle::new(by, ty.min(tz), ty - tz).map_err(|_| {
        not(format!(
            "Y = {y:#b} and Z = {z:#b} overlap: a swizzle's two bit groups are disjoint (|S| ≥ B)"
        ))
    })?;
    if s.yyy_mask() != y || s.zzz_mask() != z {
        return Err(not(format!(
            "Y = {y:#b} and Z = {z:#b} are not two runs of {by} contiguous bits; {s} has Y = {:#b}, Z = {:#b}",
            s.yyy_mask(),
            s.zzz_mask()
        )));
    }
    Ok(s)
}

/// `Sw₀ ∘ Sw₁` (CuTe: same shift only, merged masks must form one swizzle).
///
/// Pre: the XOR-merged masks form a swizzle (which needs `S₀ = S₁`, CuTe's static_assert);
/// otherwise the composition is returned as the chain `Sw₀ o 0 o Sw₁`, which is always correct.
/// Post: `R(x) == Sw₀(Sw₁(x))` for every `x` (checked on every bit: swizzles are XOR-linear).
///
/// ```
/// use tessera::{algebra::swizzled::compose_swizzles, layout::Swizzle};
/// let r = compose_swizzles(Swizzle::new(1, 0, 2).unwrap(), Swizzle::new(1, 1, 2).unwrap());
/// assert_eq!(r.to_string(), "Sw<2,0,2>");
/// ```
pub fn compose_swizzles(a: Swizzle, b: Swizzle) -> AnyLayout {
    if a.shift() == b.shift() {
        if let Ok(s) = make_swizzle(a.yyy_mask() ^ b.yyy_mask(), a.zzz_mask() ^ b.zzz_mask()) {
            // XOR-linear functions agree everywhere when they agree on every bit.
            if (0..63).all(|k| s.apply(1 << k) == a.apply(b.apply(1 << k))) {
                return AnyLayout::Swizzle(s);
            }
        }
    }
    compose(a.into(), 0, b.into())
}

/// CuTe's `composition(Layout, Swizzle)`: `make_swizzle<A(yyy), A(zzz)>() ∘ A`, checked by
/// evaluation on `[0, size(A))`.
///
/// Pre: `A(yyy)` and `A(zzz)` form a swizzle and the candidate equals `A ∘ Sw` on `A`'s domain
/// (`size(A) ≤ 2^20`); otherwise [`Error::NotExpressible`] (CuTe returns a wrong layout or
/// refuses; the chain `A o 0 o Sw` is returned by [`composition`] instead).
/// Post: `R(i) == A(Sw(i))` for `i < size(A)`.
///
/// ```
/// use tessera::{algebra::swizzled::layout_after_swizzle, layout::Swizzle};
/// let a: tessera::Layout = "(8,8):(8,1)".parse().unwrap();
/// let r = layout_after_swizzle(&a, Swizzle::new(1, 0, 3).unwrap()).unwrap();
/// assert_eq!(r.to_string(), "Sw<1,0,-3> o 0 o (8,8):(8,1)"); // CuTe C++ prints the same
/// ```
pub fn layout_after_swizzle(a: &Layout, sw: Swizzle) -> Result<AnyLayout> {
    let y = a.eval(sw.yyy_mask())?;
    let z = a.eval(sw.zzz_mask())?;
    let cand = make_swizzle(y, z).map_err(|e| Error::NotExpressible {
        op: "composition",
        what: format!("composition({a},{sw})"),
        detail: format!("CuTe's candidate is make_swizzle(A(yyy) = {y}, A(zzz) = {z}): {e}"),
    })?;
    let r = compose(cand.into(), 0, a.clone().into());
    let n = a.size()?;
    check_bound("composition", n)?;
    for i in 0..n {
        let want = a.eval(sw.apply(i))?;
        let got = r.eval(i)?;
        if want != got {
            return Err(Error::NotExpressible {
                op: "composition",
                what: format!("composition({a},{sw})"),
                detail: format!(
                    "CuTe's candidate {r} gives {got} at {i}, but A(Sw({i})) = {want}: A is not \
                     XOR-linear on the swizzled bits"
                ),
            });
        }
    }
    Ok(r)
}

fn check_bound(op: &'static str, n: i64) -> Result<()> {
    if n > CHECK_BOUND {
        return Err(Error::TooLarge {
            op,
            what: "the domain checked point by point".into(),
            size: n,
            bound: CHECK_BOUND,
        });
    }
    Ok(())
}

/// What the right operand of a composition can be.
#[derive(Clone, Debug)]
pub enum Rhs {
    /// A tiler (layout, integer, `_`, by-mode tuple).
    Tiler(Tiler),
    /// A swizzle or a composed layout.
    Func(AnyLayout),
}

/// `composition(A, B)` for any A (layout, swizzle, composed) and any B (tiler, swizzle,
/// composed), with CuTe C++'s result wherever it is correct.
///
/// - `(O ∘ off ∘ I) ∘ B = O ∘ off ∘ (I ∘ B)`;
/// - `Layout ∘ Swizzle` = [`layout_after_swizzle`], or the chain `A o 0 o Sw` when CuTe's
///   candidate is wrong or refused;
/// - `Layout ∘ (O ∘ 0 ∘ I) = (Layout ∘ O) ∘ I`; a non-zero offset gives the chain;
/// - `Swizzle ∘ Swizzle` = [`compose_swizzles`]; `Swizzle ∘ Layout = Sw o 0 o L`.
///
/// Pre: as the plain composition for the layout parts. Post: `R(c) == A(B(c))` on B's domain
/// (for a tiler, mode by mode as plain composition).
///
/// ```
/// use tessera::algebra::{swizzled::{composition, Rhs}, Tiler};
/// let a: tessera::layout::AnyLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(8), Tiler::Int(8)]);
/// assert_eq!(composition(&a, &Rhs::Tiler(t)).unwrap().to_string(), "Sw<3,4,3> o 0 o (8,8):(64,1)");
/// ```
pub fn composition(a: &AnyLayout, b: &Rhs) -> Result<AnyLayout> {
    match (a, b) {
        (AnyLayout::Composed(c), _) => Ok(compose(
            c.outer.clone(),
            c.offset,
            composition(&c.inner, b)?,
        )),
        (AnyLayout::Plain(l), Rhs::Tiler(t)) => {
            Ok(AnyLayout::Plain(algebra::composition_tiler(l, t)?))
        }
        (AnyLayout::Plain(l), Rhs::Func(AnyLayout::Plain(m))) => {
            Ok(AnyLayout::Plain(algebra::composition(l, m)?))
        }
        (AnyLayout::Plain(l), Rhs::Func(AnyLayout::Swizzle(s))) => {
            match layout_after_swizzle(l, *s) {
                Ok(r) => Ok(r),
                Err(Error::NotExpressible { .. }) => Ok(compose(a.clone(), 0, (*s).into())),
                Err(e) => Err(e),
            }
        }
        (AnyLayout::Plain(_), Rhs::Func(AnyLayout::Composed(c))) if c.offset == 0 => {
            let first = composition(a, &Rhs::Func(c.outer.clone()))?;
            composition(&first, &Rhs::Func(c.inner.clone()))
        }
        (AnyLayout::Swizzle(s), Rhs::Func(AnyLayout::Swizzle(t))) => Ok(compose_swizzles(*s, *t)),
        (AnyLayout::Swizzle(s), Rhs::Func(AnyLayout::Plain(l))) => {
            Ok(compose((*s).into(), 0, l.clone().into()))
        }
        (AnyLayout::Swizzle(s), Rhs::Tiler(t)) => match t {
            Tiler::Layout(l) => Ok(compose((*s).into(), 0, l.clone().into())),
            Tiler::Int(n) => Ok(compose(
                (*s).into(),
                0,
                Layout::mode(*n, i64::from(*n != 1))?.into(),
            )),
            _ => Err(Error::RankMismatch {
                op: "composition",
                detail: format!("a by-mode tiler needs a shape, and the swizzle {s} has none"),
            }),
        },
        (_, Rhs::Func(f)) => Ok(compose(a.clone(), 0, f.clone())),
    }
}

/// A divide or product of a composed layout: `O ∘ off ∘ op(I, tiler)` (CuTe's rule).
///
/// Pre: as `op` on the innermost layout (a bare swizzle has no shape: an error).
/// Post: `R(c) == O(off + op(I, tiler)(c))`.
///
/// ```
/// use tessera::algebra::{swizzled::by_inner, Tiler};
/// let a: tessera::layout::AnyLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(8), Tiler::Int(8)]);
/// let r = by_inner(&a, "zipped_divide", &|l| tessera::algebra::zipped_divide(l, &t)).unwrap();
/// assert_eq!(r.to_string(), "Sw<3,4,3> o 0 o ((8,8),(1,8)):((64,1),(0,8))");
/// ```
pub fn by_inner(
    a: &AnyLayout,
    op: &'static str,
    f: &dyn Fn(&Layout) -> Result<Layout>,
) -> Result<AnyLayout> {
    map_inner(a, op, f)
}

/// CuTe's `get<i>` of a composed layout: `O ∘ off ∘ get<i>(I)`.
pub fn get(a: &AnyLayout, i: usize) -> Result<AnyLayout> {
    map_inner(a, "get", &|l| {
        if i < l.rank() {
            l.mode_at(i).ok_or_else(|| bad_mode(l, i))
        } else {
            Err(bad_mode(l, i))
        }
    })
}

fn bad_mode(l: &Layout, i: usize) -> Error {
    Error::RankMismatch {
        op: "get",
        detail: format!("mode {i} of {l}, which has rank {}", l.rank()),
    }
}

/// The slice of a composed layout at a coordinate with `_`, and the offset taken out of it:
/// `(R, k)` with `f(c) == R(c') + k` where `c'` is `c`'s `_` part.
///
/// CuTe's rule: when the sliced function is affine (the slice touches at most one of the
/// swizzle's bit groups), it decays to a plain layout and the constant part is `k`; otherwise
/// `R = O ∘ (off + I(c₀)) ∘ slice(c, I)` with `k = 0`.
///
/// Pre: the coordinate fits the innermost layout (ranks match). Post: `f(c) == R(c') + k` for
/// every `c` of the slice (checked when R decays: a plain R is returned only when it equals the
/// function on the whole sliced domain, at most 2^20 points).
///
/// ```
/// use tessera::algebra::swizzled::slice_and_offset;
/// let a: tessera::layout::AnyLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse().unwrap();
/// let c = tessera::notation::parse_slice_coord("(3,_)").unwrap();
/// let (r, k) = slice_and_offset(&c, &a).unwrap();
/// assert_eq!((r.to_string(), k), ("((16,2,2)):((1,-16,32))".to_string(), 208)); // as CuTe C++
/// ```
pub fn slice_and_offset(c: &SliceCoord, a: &AnyLayout) -> Result<(AnyLayout, i64)> {
    match a {
        AnyLayout::Plain(l) => {
            let r = crate::layout::slice(c, l)?;
            let k = l.crd2idx(&fill_under(c, 0))?;
            Ok((AnyLayout::Plain(r), k))
        }
        AnyLayout::Swizzle(s) => Err(Error::RankMismatch {
            op: "slice",
            detail: format!("{s} is a bare swizzle (no shape) and cannot be sliced"),
        }),
        AnyLayout::Composed(cl) => {
            if c.as_ref().leaves().all(|x| x.is_none()) {
                return Ok((a.clone(), 0));
            }
            let (inner, k) = slice_and_offset(c, &cl.inner)?;
            let off = arith::add(cl.offset, k)?;
            let f = compose(cl.outer.clone(), off, inner.clone());
            if let (AnyLayout::Swizzle(sw), AnyLayout::Plain(sliced)) = (&cl.outer, &inner) {
                if let Some(r) = cute_swizzle_slice(*sw, cl.offset, k, sliced, &f)? {
                    return Ok(r);
                }
            }
            Ok((f, 0))
        }
    }
}

/// CuTe's `slice_and_offset` of `Sw ∘ off ∘ L` at a coordinate whose fixed part lands at
/// `L(c₀) = k`: the offset splits into the swizzle's bit groups (`zy`) and the rest; when the
/// sliced layout's image touches at most one bit group the result decays to the plain layout
/// `swizzle_layout ∘ slice(c, L)`. Returned only when it equals `f` on the whole sliced domain.
fn cute_swizzle_slice(
    sw: Swizzle,
    off: i64,
    k: i64,
    sliced: &Layout,
    f: &AnyLayout,
) -> Result<Option<(AnyLayout, i64)>> {
    let n = sliced.size()?;
    if n > CHECK_BOUND || sw.span() > CHECK_BOUND || sw.bits() == 0 {
        return Ok(None);
    }
    let zy = sw.yyy_mask() | sw.zzz_mask();
    let off_zy = off ^ (k & zy);
    let off_anti = k & !zy;
    // The swizzle bits the sliced layout reaches.
    let mut active = 0i64;
    for i in 0..n {
        active |= sliced.eval(i)? & zy;
    }
    let (b, m, sh) = (sw.bits(), sw.base(), sw.shift().abs());
    let cand: (AnyLayout, i64) = if active & !sw.apply(active) != 0 {
        (compose(sw.into(), off_zy, sliced.clone().into()), off_anti)
    } else {
        let z = sw.zzz_mask() & sw.zzz_mask().wrapping_neg();
        let y = sw.yyy_mask() & sw.yyy_mask().wrapping_neg();
        let strides = |lo: bool| -> Vec<i64> {
            (0..b)
                .map(|i| {
                    if lo {
                        if off_zy & (y << i) == 0 {
                            z << i
                        } else {
                            -(z << i)
                        }
                    } else if off_zy & (z << i) == 0 {
                        (y + z) << i
                    } else {
                        (y - z) << i
                    }
                })
                .collect()
        };
        let (lo, hi) = (strides(z < y), strides(z > y));
        let mut sb = crate::layout::Builder::new();
        let mut db = crate::layout::Builder::new();
        sb.open();
        db.open();
        sb.leaf(1 << m);
        db.leaf(1);
        if b == 1 {
            sb.leaf(2);
            db.leaf(lo[0]);
        } else {
            sb.open();
            db.open();
            for d in &lo {
                sb.leaf(2);
                db.leaf(*d);
            }
            sb.close();
            db.close();
        }
        sb.leaf(1 << (sh - b));
        db.leaf(1 << (m + b));
        if b == 1 {
            sb.leaf(2);
            db.leaf(hi[0]);
        } else {
            sb.open();
            db.open();
            for d in &hi {
                sb.leaf(2);
                db.leaf(*d);
            }
            sb.close();
            db.close();
        }
        sb.leaf(1);
        db.leaf(1 << (m + b + sh));
        sb.close();
        db.close();
        let swl = Layout::new(&sb.finish(), &db.finish())?;
        match algebra::composition(&swl, sliced) {
            Ok(r) => (AnyLayout::Plain(r), arith::add(sw.apply(off_zy), off_anti)?),
            Err(_) => return Ok(None),
        }
    };
    for i in 0..n {
        if arith::add(cand.0.eval(i)?, cand.1)? != f.eval(i)? {
            return Ok(None);
        }
    }
    Ok(Some(cand))
}

fn fill_under(c: &SliceCoord, v: i64) -> IntTuple {
    c.map(|x| x.unwrap_or(v))
}

/// CuTe's `slice(c, f)`: the first part of [`slice_and_offset`].
pub fn slice(c: &SliceCoord, a: &AnyLayout) -> Result<AnyLayout> {
    slice_and_offset(c, a).map(|(r, _)| r)
}

/// The inverse of an offset: `−off` (CuTe's `right_inverse(int)`).
fn neg(off: i64) -> Result<i64> {
    off.checked_neg()
        .ok_or_else(|| Error::overflow(format!("-({off})")))
}

/// `right_inverse(O ∘ off ∘ I) = inv(I) ∘ −off ∘ inv(O)` (a swizzle is its own inverse).
///
/// With offset 0 and a swizzle outer, CuTe rewrites `inv(I) ∘ Sw` as a swizzled layout
/// ([`layout_after_swizzle`]); where that is impossible (CuTe refuses) the chain
/// `inv(I) o 0 o Sw` is returned, which is the correct inverse function.
///
/// Pre: as the plain right inverse of I. Post: `f(R(i)) == i` for `i < size(inv(I))` when `O`
/// permutes `[0, size(inv(I)))` (checked for the rewritten form).
///
/// ```
/// use tessera::algebra::swizzled::right_inverse;
/// let a: tessera::layout::AnyLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
/// assert_eq!(right_inverse(&a).unwrap().to_string(), "Sw<3,0,-6> o 0 o (64,8):(8,1)"); // as CuTe C++
/// ```
pub fn right_inverse(a: &AnyLayout) -> Result<AnyLayout> {
    inverse(a, false)
}

/// `left_inverse(O ∘ off ∘ I) = inv(I) ∘ −off ∘ inv(O)`; see [`right_inverse`].
///
/// Post: `R(f(i)) == i` for `i < size(I)` when I is injective.
pub fn left_inverse(a: &AnyLayout) -> Result<AnyLayout> {
    inverse(a, true)
}

fn inverse(a: &AnyLayout, left: bool) -> Result<AnyLayout> {
    let cand = inverse_candidate(a, left)?;
    if let AnyLayout::Composed(_) = a {
        check_inverse(a, &cand, left)?;
    }
    Ok(cand)
}

/// CuTe's formula, recursively (checked once, on the whole function, by [`inverse`]).
fn inverse_candidate(a: &AnyLayout, left: bool) -> Result<AnyLayout> {
    match a {
        AnyLayout::Plain(l) => Ok(AnyLayout::Plain(if left {
            algebra::left_inverse(l)?
        } else {
            algebra::right_inverse(l)?
        })),
        AnyLayout::Swizzle(s) => Ok(AnyLayout::Swizzle(*s)),
        AnyLayout::Composed(c) => {
            let inner = inverse_candidate(&c.inner, left)?;
            let outer = inverse_candidate(&c.outer, left)?;
            if c.offset == 0 {
                composition(&inner, &Rhs::Func(outer))
            } else {
                Ok(compose(inner, neg(c.offset)?, outer))
            }
        }
    }
}

/// Checks CuTe's candidate inverse `r` of the composed layout `f` against the definition:
/// right, `r(i)` lies in `f`'s domain and `f(r(i)) == i` on `r`'s domain (`[0, size(r))`, or
/// the longest prefix `[0, m)` of `f`'s image when `r` has no shape); left, `f(i)` lies in `r`'s
/// domain and `r(f(i)) == i` for every `i` of `f`'s domain. CuTe's formula
/// `inv(I) ∘ −off ∘ inv(O)` ignores where `−off + inv(O)(i)` falls (outside `I`'s image, or
/// negative), so a wrong candidate is refused (`not_expressible`, with the witness).
/// Domains past [`CHECK_BOUND`] are `too_large`, except the proved-safe shape
/// `Sw ∘ 0 ∘ L` with `L` a bijection onto `[0, n)` and the swizzle's span dividing `n` (then `f`
/// permutes `[0, n)` and the candidate is its inverse).
fn check_inverse(f: &AnyLayout, r: &AnyLayout, left: bool) -> Result<()> {
    let op = if left {
        "left_inverse"
    } else {
        "right_inverse"
    };
    let (nf, nr) = (
        f.layout().map(|l| l.size()).transpose()?,
        r.layout().map(|l| l.size()).transpose()?,
    );
    let wrong = |i: i64, detail: String| Error::NotExpressible {
        op,
        what: format!("{op}({f})"),
        detail: format!("CuTe's candidate {r} is not an inverse: at {i}, {detail}"),
    };
    let in_dom = |n: Option<i64>, x: i64| n.is_none_or(|n| (0..n).contains(&x));
    // The domain to check, and whether it is too large to enumerate.
    let dom = if left { nf } else { nr };
    let dom = match (dom, left, nf) {
        (Some(n), _, _) => n,
        // A right inverse without shape: check the prefix of f's image.
        (None, false, Some(n)) => {
            check_bound_or_safe(op, f, n)?;
            let mut seen = vec![false; n as usize];
            for i in 0..n {
                if let Ok(v) = usize::try_from(f.eval(i)?) {
                    if v < seen.len() {
                        seen[v] = true;
                    }
                }
            }
            let m = seen.iter().position(|b| !b).unwrap_or(seen.len()) as i64;
            if m == 0 {
                return Err(wrong(
                    0,
                    format!(
                        "0 is not in the image of {f} (f(0) = {}), so no right inverse exists",
                        f.eval(0)?
                    ),
                ));
            }
            m
        }
        // Functions on all integers (swizzles and offsets only, or a left inverse of one):
        // swizzles are involutions and offsets negate, so the candidate is exact.
        _ => return Ok(()),
    };
    if dom > CHECK_BOUND {
        return check_bound_or_safe(op, f, dom);
    }
    for i in 0..dom {
        if left {
            let x = f.eval(i)?;
            if !in_dom(nr, x) {
                return Err(wrong(
                    i,
                    format!("f({i}) = {x} is outside the candidate's domain"),
                ));
            }
            let y = r.eval(x)?;
            if y != i {
                return Err(wrong(i, format!("R(f({i})) = R({x}) = {y}, not {i}")));
            }
        } else {
            let x = r.eval(i)?;
            if !in_dom(nf, x) {
                return Err(wrong(
                    i,
                    format!("R({i}) = {x} is outside the domain of {f}"),
                ));
            }
            let y = f.eval(x)?;
            if y != i {
                return Err(wrong(i, format!("f(R({i})) = f({x}) = {y}, not {i}")));
            }
        }
    }
    Ok(())
}

/// `Ok` for a domain of at most [`CHECK_BOUND`] points, or for `Sw ∘ 0 ∘ L` with `L` a bijection
/// onto `[0, n)` and the span dividing `n` (a permutation of `[0, n)`); `too_large` otherwise.
fn check_bound_or_safe(op: &'static str, f: &AnyLayout, n: i64) -> Result<()> {
    if n <= CHECK_BOUND {
        return Ok(());
    }
    if let AnyLayout::Composed(c) = f {
        if let (AnyLayout::Swizzle(s), AnyLayout::Plain(l)) = (&c.outer, &c.inner) {
            if c.offset == 0 && is_compact_bijection(l) && l.size()? % s.span() == 0 {
                return Ok(());
            }
        }
    }
    check_bound(op, n)
}

/// CuTe's `upcast<N>(Sw<B,M,S>)`: `M − log2 N`, or `Sw<max(B + M − log2 N, 0), 0, S>` when that
/// is negative.
///
/// Pre: `N` a power of two ≥ 1 ([`Error::Divisibility`] otherwise).
///
/// ```
/// use tessera::{algebra::swizzled::upcast_swizzle, layout::Swizzle};
/// assert_eq!(upcast_swizzle(Swizzle::new(3, 4, 3).unwrap(), 2).unwrap().to_string(), "Sw<3,3,3>");
/// ```
pub fn upcast_swizzle(s: Swizzle, n: i64) -> Result<Swizzle> {
    let k = log2_exact("upcast", n)?;
    let m = s.base() - k;
    if m >= 0 {
        Swizzle::new(s.bits(), m, s.shift())
    } else {
        Swizzle::new((s.bits() + m).max(0), 0, s.shift())
    }
}

/// CuTe's `downcast<N>(Sw<B,M,S>) = Sw<B, M + log2 N, S>`.
///
/// Pre: `N` a power of two ≥ 1.
pub fn downcast_swizzle(s: Swizzle, n: i64) -> Result<Swizzle> {
    let k = log2_exact("downcast", n)?;
    Swizzle::new(s.bits(), s.base() + k, s.shift())
}

fn log2_exact(op: &'static str, n: i64) -> Result<i64> {
    if n < 1 || n & (n - 1) != 0 {
        return Err(Error::failed(
            Error::Divisibility,
            op,
            crate::error::Obligation::Divides {
                what: "N is a power of two",
                factors: vec![n],
                b: (n.max(1) as u64).next_power_of_two().min(1 << 62) as i64,
            },
        ));
    }
    Ok(n.trailing_zeros() as i64)
}

/// `upcast<N>` / `downcast<N>` of any layout (CuTe: each part recast; the offset divided by N,
/// which must divide it, or multiplied by N).
///
/// Pre: N a power of two for a swizzle part; the plain parts' preconditions.
///
/// ```
/// use tessera::algebra::swizzled::recast;
/// let a: tessera::layout::AnyLayout = "Sw<3,4,3> o 0 o (8,1024):(1024,1)".parse().unwrap();
/// assert_eq!(recast(&a, 16, true).unwrap().to_string(), "Sw<3,0,3> o 0 o (8,64):(64,1)");
/// ```
pub fn recast(a: &AnyLayout, n: i64, up: bool) -> Result<AnyLayout> {
    let op = if up { "upcast" } else { "downcast" };
    match a {
        AnyLayout::Plain(l) => Ok(AnyLayout::Plain(if up {
            algebra::upcast(l, n)?
        } else {
            algebra::downcast(l, n)?
        })),
        AnyLayout::Swizzle(s) => Ok(AnyLayout::Swizzle(if up {
            upcast_swizzle(*s, n)?
        } else {
            downcast_swizzle(*s, n)?
        })),
        AnyLayout::Composed(c) => {
            let off = if up {
                if n < 1 || c.offset % n != 0 {
                    return Err(Error::failed(
                        Error::Divisibility,
                        op,
                        crate::error::Obligation::Divides {
                            what: "N ∣ offset",
                            factors: vec![n],
                            b: c.offset,
                        },
                    ));
                }
                c.offset / n
            } else {
                arith::mul(c.offset, n)?
            };
            // No simplification: CuTe keeps a recast `Sw<0,…> o 0 o L` as it is.
            Ok(ComposedLayout::new(recast(&c.outer, n, up)?, off, recast(&c.inner, n, up)?).into())
        }
    }
}

/// `max_common_layout(A, B)` with one side swizzled: the plain common layout of the inner
/// layouts, truncated to `2^M` elements (the swizzle leaves the low `M` bits alone).
///
/// Pre: the plain preconditions; an outer swizzle (a layout outer is not supported by CuTe:
/// error). Post: `A(R(i)) == B(R(i)) == i`-contiguity for `i < size(R)` as the plain case.
pub fn max_common_layout(a: &AnyLayout, b: &AnyLayout) -> Result<AnyLayout> {
    let (la, ma) = common_parts(a)?;
    let (lb, mb) = common_parts(b)?;
    let common = algebra::max_common_layout(la, lb)?;
    let base = min_bound(ma, mb);
    match base {
        Some(base) if base < common.size()? => Ok(AnyLayout::Plain(algebra::composition(
            &common,
            &Layout::mode(base, 1)?,
        )?)),
        _ => Ok(AnyLayout::Plain(common)),
    }
}

/// `max_common_vector(A, B)` with one side swizzled: `min(plain vector of the inner layouts,
/// 2^M)`.
///
/// ```
/// use tessera::algebra::swizzled::max_common_vector;
/// let a: tessera::layout::AnyLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse().unwrap();
/// let b: tessera::layout::AnyLayout = "(8,64):(64,1)".parse().unwrap();
/// assert_eq!(max_common_vector(&a, &b).unwrap(), 8);
/// ```
pub fn max_common_vector(a: &AnyLayout, b: &AnyLayout) -> Result<i64> {
    let (la, ma) = common_parts(a)?;
    let (lb, mb) = common_parts(b)?;
    let v = algebra::max_common_vector(la, lb)?;
    Ok(match min_bound(ma, mb) {
        Some(base) => v.min(base),
        None => v,
    })
}

/// The smaller of two optional bounds (`None` = unbounded).
fn min_bound(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The plain layout and the `2^M` bound of a layout or `Sw ∘ off ∘ L`.
fn common_parts(a: &AnyLayout) -> Result<(&Layout, Option<i64>)> {
    match a {
        AnyLayout::Plain(l) => Ok((l, None)),
        AnyLayout::Composed(c) => match (&c.outer, &c.inner) {
            (AnyLayout::Swizzle(s), AnyLayout::Plain(l)) => Ok((l, Some(1i64 << s.base()))),
            _ => Err(unsupported_common(a)),
        },
        AnyLayout::Swizzle(_) => Err(unsupported_common(a)),
    }
}

fn unsupported_common(a: &AnyLayout) -> Error {
    Error::NotExpressible {
        op: "max_common_layout",
        what: format!("max_common_layout({a}, …)"),
        detail: format!("{a} is not a layout or Sw ∘ offset ∘ layout"),
    }
}

/// The largest domain `cosize` of a swizzled or composed layout enumerates.
pub const COSIZE_BOUND: i64 = 1 << 22;

/// `cosize` by its definition: one past the largest absolute index the function reaches,
/// `1 + max_{i < size} |f(i)|` (for a plain layout, CuTe's `Σ (s_i − 1)·|d_i| + 1`).
///
/// CuTe C++ answers the innermost layout's cosize for a composed layout, which ignores the
/// swizzle and the offset (`Sw<3,4,3> o 0 o (8,8):(64,1)`: CuTe 456, but `f(7,7) = 503`); a
/// buffer sized by it is too small (docs/differences.md). Tessera enumerates the domain (at most
/// [`COSIZE_BOUND`] points); past that it answers in closed form for `Sw ∘ off ∘ L` where `off ≥ 0`
/// and `L` is a bijection onto `[0, size)` (the image is an interval, so only its last swizzle block
/// needs enumerating), and otherwise refuses with `too_large`.
///
/// Pre: a shape (a bare swizzle has none: `rank_mismatch`). Post: `R > |f(i)|` for every `i`
/// of the domain, and `R − 1 = |f(i)|` for some `i`.
///
/// ```
/// use tessera::algebra::swizzled::cosize;
/// let a: tessera::layout::AnyLayout = "Sw<3,4,3> o 0 o (8,8):(64,1)".parse().unwrap();
/// assert_eq!(cosize(&a).unwrap(), 504);
/// ```
pub fn cosize(a: &AnyLayout) -> Result<i64> {
    let l = a.shape_layout("cosize")?;
    if let AnyLayout::Plain(l) = a {
        return l.cosize();
    }
    let n = l.size()?;
    if n <= COSIZE_BOUND {
        let mut best = 0i64;
        for i in 0..n {
            let v = a.eval(i)?;
            best = best.max(
                v.checked_abs()
                    .ok_or_else(|| Error::overflow(format!("|{v}|")))?,
            );
        }
        return arith::add(best, 1);
    }
    if let AnyLayout::Composed(c) = a {
        if let (AnyLayout::Swizzle(s), AnyLayout::Plain(inner)) = (&c.outer, &c.inner) {
            if c.offset >= 0 && is_compact_bijection(inner) {
                // The image is the interval [off, off + n); the swizzle permutes each aligned
                // block of its span, so the maximum lies in the block holding off + n − 1.
                let last = arith::add(c.offset, n - 1)?;
                let span = s.span();
                let base = (last / span) * span;
                let lo = base.max(c.offset);
                if last - lo < COSIZE_BOUND {
                    let best = (lo..=last).map(|x| s.apply(x)).max().unwrap_or(0);
                    return arith::add(best, 1);
                }
            }
        }
    }
    Err(Error::TooLarge {
        op: "cosize",
        what: format!("the domain of {a} (enumerated: no closed form for this composed layout)"),
        size: n,
        bound: COSIZE_BOUND,
    })
}

/// `true` when `l` maps its domain one-to-one onto `[0, size(l))`: its modes of extent ≥ 2,
/// sorted by stride, have strides 1, s₀, s₀·s₁, … (a permuted compact layout).
fn is_compact_bijection(l: &Layout) -> bool {
    let mut modes: Vec<(i64, i64)> = l
        .leaves()
        .map(|m| (m.shape, m.stride))
        .filter(|&(s, _)| s != 1)
        .collect();
    modes.sort_by_key(|&(_, d)| d);
    let mut next = 1i64;
    for (s, d) in modes {
        if d != next {
            return false;
        }
        match next.checked_mul(s) {
            Some(x) => next = x,
            None => return false,
        }
    }
    true
}

/// `complement(O ∘ off ∘ I, cotarget) = complement(I, cotarget)` (CuTe's rule).
pub fn complement(a: &AnyLayout, cotarget: Option<&IntTuple>) -> Result<Layout> {
    let l = a.shape_layout("complement")?;
    match cotarget {
        Some(t) => algebra::complement(l, t),
        None => algebra::complement_default(l),
    }
}
