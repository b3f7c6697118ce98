//! Right and left inverses, nullspace, and the largest common vector of two layouts.

use smallvec::SmallVec;

use super::coalesce::{bw_coalesce, coalesce, coalesce_modes, from_modes, Modes};
use super::composition::composition;
use crate::error::{arith, Error, Obligation, Result};
use crate::layout::{Layout, Mode};

/// Prefix products `[1, s0, s0·s1, …]` of the shapes (one per mode).
fn prefix_products(modes: &[Mode]) -> Result<SmallVec<[i64; 16]>> {
    let mut pp = SmallVec::new();
    let mut acc = 1i64;
    for m in modes {
        pp.push(acc);
        acc = arith::mul(acc, m.shape)?;
    }
    Ok(pp)
}

/// Mode indices sorted by stride (stable).
fn by_stride(modes: &[Mode]) -> SmallVec<[usize; 16]> {
    let mut idx: SmallVec<[usize; 16]> = (0..modes.len()).collect();
    idx.sort_by_key(|&i| modes[i].stride);
    idx
}

fn finish(shapes: &[i64], strides: &[i64]) -> Result<Layout> {
    let modes: Modes = shapes
        .iter()
        .zip(strides)
        .map(|(&s, &d)| Mode::new(s, d))
        .collect();
    let (last, init) = modes.split_last().expect("non-empty");
    Ok(from_modes(&bw_coalesce(init, *last)?))
}

/// `right_inverse(L)`: the largest R such that `L(R(i)) == i` for `i < size(R)`: it follows the
/// chain of strides `1, s·d, …` through L's coalesced modes (CuTe C++: sort by stride, keep the
/// modes whose stride equals the running product).
///
/// Pre: none (a layout whose image does not contain 1 gets `1:0`).
/// Post: `L(R(i)) == i` for all `0 <= i < size(R)`; `R` is compact.
///
/// ```
/// let l: tessera::Layout = "(2,4,6):(4,1,8)".parse().unwrap();
/// assert_eq!(tessera::algebra::right_inverse(&l).unwrap().to_string(), "(4,2,6):(2,1,8)");
/// ```
pub fn right_inverse(l: &Layout) -> Result<Layout> {
    let c = coalesce_modes(l.tree())?;
    let pp = prefix_products(&c)?;
    let mut shapes: SmallVec<[i64; 16]> = SmallVec::from_slice(&[1]);
    let mut strides: SmallVec<[i64; 16]> = SmallVec::from_slice(&[0]);
    let mut curr = 1i64;
    for i in by_stride(&c) {
        if c[i].stride == curr {
            shapes.push(c[i].shape);
            strides.push(pp[i]);
            curr = arith::mul(c[i].shape, c[i].stride)?;
        }
    }
    finish(&shapes, &strides)
}

/// `left_inverse(L)`: a quasi-inverse R with `L(R(L(i))) == L(i)` for all `i < size(L)`
/// (`R(L(i)) == i` when L is injective), as CuTe C++ builds it from L's coalesced modes sorted by
/// stride.
///
/// Pre: strides ≥ 0; the *left-inverse divisibility condition*: walking the modes by increasing
/// non-zero stride, each stride is divisible by the product of the shapes generated so far
/// ([`Error::Divisibility`] otherwise).
/// Post: for all `0 <= i < size(L)`, `R(L(i))` lies in `[0, size(L))` and `L(R(L(i))) == L(i)`
/// (when L's strides overlap this is checked, and a failure is [`Error::NonInjective`]).
///
/// ```
/// let l: tessera::Layout = "(8,4):(4,1)".parse().unwrap();
/// assert_eq!(tessera::algebra::left_inverse(&l).unwrap().to_string(), "(4,8):(8,1)");
/// ```
pub fn left_inverse(l: &Layout) -> Result<Layout> {
    let c = coalesce_modes(l.tree())?;
    if let Some(m) = c.iter().find(|m| m.stride < 0) {
        return Err(Error::failed(
            Error::Divisibility,
            "left_inverse",
            Obligation::NonNegative {
                what: "d",
                context: format!("the stride of mode {}:{} of {l}", m.shape, m.stride),
                value: m.stride,
            },
        ));
    }
    let pp = prefix_products(&c)?;
    let order = by_stride(&c);
    let mut shapes: SmallVec<[i64; 16]> = SmallVec::new();
    let mut strides: SmallVec<[i64; 16]> = SmallVec::from_slice(&[0]);
    let mut size = 1i64;
    for &i in &order {
        let d = c[i].stride;
        if d == 0 {
            continue;
        }
        if d % size != 0 {
            return Err(Error::failed(
                Error::Divisibility,
                "left_inverse",
                Obligation::Divides {
                    what: "size(inverted so far) ∣ d_i",
                    factors: vec![size],
                    b: d,
                },
            ));
        }
        let s = d / size;
        shapes.push(s);
        strides.push(pp[i]);
        size = arith::mul(size, s)?;
    }
    let last = *order.last().expect("coalesce gives at least one mode");
    shapes.push(c[last].shape);
    let r = finish(&shapes, &strides)?;
    check_quasi_inverse(l, &c, &order, &r)?;
    Ok(r)
}

/// Decides `L(R(L(i))) == L(i)` with `R(L(i))` in L's domain, for all `i`. Closed form first: when the non-zero strides, in
/// increasing order, never overlap (`s_k·d_k <= d_{k+1}`), R reads each coordinate back from its
/// own mixed-radix digit of `L(i)`, so the postcondition holds. Otherwise the domain is
/// enumerated (bounded by [`super::composition::ENUM_LIMIT`]).
fn check_quasi_inverse(l: &Layout, c: &[Mode], order: &[usize], r: &Layout) -> Result<()> {
    let nonzero: SmallVec<[Mode; 16]> = order
        .iter()
        .map(|&i| c[i])
        .filter(|m| m.stride != 0)
        .collect();
    let mut overlap = false;
    for w in nonzero.windows(2) {
        if arith::mul(w[0].shape, w[0].stride)? > w[1].stride {
            overlap = true;
        }
    }
    if !overlap {
        return Ok(());
    }
    let n = l.size()?;
    if n > super::composition::ENUM_LIMIT {
        return Err(Error::TooLarge {
            op: "left_inverse",
            what: format!("the domain of {l} (its strides overlap)"),
            size: n,
            bound: super::composition::ENUM_LIMIT,
        });
    }
    for i in 0..n {
        let li = l.eval(i)?;
        let back = r.eval(li)?;
        let again = l.eval(back)?;
        if again != li || !(0..n).contains(&back) {
            let witness = match super::complement::collision(&c.iter().copied().collect::<Modes>())
            {
                Some(w) => w,
                None => format!("L({i}) = {li}"),
            };
            // Name what went wrong without contradicting itself: a point outside a domain, or
            // a round trip that lands elsewhere.
            let rsize = r.size()?;
            let why = if !(0..rsize).contains(&li) {
                format!(
                    "L({i}) = {li} lies outside the domain [0, {rsize}) of CuTe's quasi-inverse {r}"
                )
            } else if !(0..n).contains(&back) {
                format!(
                    "CuTe's quasi-inverse {r} gives R(L({i})) = R({li}) = {back}, outside L's domain [0, {n})"
                )
            } else {
                format!("CuTe's quasi-inverse {r} gives L(R(L({i}))) = {again} != {li}")
            };
            return Err(Error::failed(
                Error::NonInjective,
                "left_inverse",
                Obligation::Injective {
                    layout: l.to_string(),
                    witness: format!("{witness}; {why}"),
                },
            ));
        }
    }
    Ok(())
}

/// `nullspace(L)`: the modes of L with stride 0, with their compact column-major strides in L's
/// flat domain.
///
/// Post: `L(R(i)) == 0` for `i < size(R)`; `size(R) == size(L) / size(filter(L))`.
///
/// ```
/// let l: tessera::Layout = "(7,5,16):(3,1,0)".parse().unwrap();
/// assert_eq!(tessera::algebra::nullspace(&l).unwrap().to_string(), "16:35");
/// ```
pub fn nullspace(l: &Layout) -> Result<Layout> {
    let flat: Modes = l.leaves().collect();
    let mut out: Modes = SmallVec::new();
    let mut acc = 1i64;
    for m in &flat {
        let stride = if m.shape == 1 { 0 } else { acc };
        if m.stride == 0 {
            out.push(Mode::new(m.shape, stride));
        }
        if m.shape != 1 {
            acc = arith::mul(acc, m.shape)?;
        }
    }
    if out.is_empty() {
        return Ok(Layout::leaf(Mode::new(1, 0)));
    }
    Ok(Layout::flat_unwrapped(out))
}

/// `max_common_layout(A, B)`: the layout R of the largest contiguous run of indices on which A
/// and B agree: `A(R(i)) == i` and `B(R(i)) == i` for `i < size(R)`.
///
/// Pre: `composition(A, right_inverse(B))` is admissible.
///
/// ```
/// let a: tessera::Layout = "(4,8):(1,4)".parse().unwrap();
/// let b: tessera::Layout = "(4,8):(1,4)".parse().unwrap();
/// assert_eq!(tessera::algebra::max_common_layout(&a, &b).unwrap().to_string(), "32:1");
/// ```
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let inv_b = right_inverse(b)?;
    let common = coalesce(&composition(a, &inv_b)?)?;
    let first = common.leaves().next().expect("non-empty");
    if first.stride == 1 {
        composition(&inv_b, &Layout::leaf(first))
    } else {
        Ok(Layout::leaf(Mode::new(1, 0)))
    }
}

/// `max_common_vector(A, B)`: the number of contiguous elements on which A and B agree
/// (≥ 1): `size(max_common_layout(A, B))`.
///
/// ```
/// let a: tessera::Layout = "(4,8):(1,4)".parse().unwrap();
/// let b: tessera::Layout = "(4,8):(1,5)".parse().unwrap();
/// assert_eq!(tessera::algebra::max_common_vector(&a, &b).unwrap(), 4);
/// ```
pub fn max_common_vector(a: &Layout, b: &Layout) -> Result<i64> {
    let common = coalesce(&composition(a, &right_inverse(b)?)?)?;
    let first = common.leaves().next().expect("non-empty");
    Ok(if first.stride == 1 { first.shape } else { 1 })
}
