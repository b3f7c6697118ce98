//! Complement: the layout that completes A to a tiling of its cotarget, with no overlap
//! (seed III, "Complementation").

use smallvec::SmallVec;

use super::coalesce::{bw_coalesce, filter_modes, from_modes, Modes};
use crate::error::{arith, Divides, Error, Obligation, Result};
use crate::layout::Value;
use crate::layout::{IntTuple, Layout, Mode};

/// `complement(A, cotarget)`: the ordered layout R such that `(filter(A), R)` is a bijection onto
/// an interval `[0, n)` with `n ≥ size(cotarget)`.
///
/// `cotarget` is an integer or a shape; as in CuTe C++ a shape keeps its mode structure when the
/// rest is computed (`ceil_div(shape, d)` folds mode by mode).
///
/// Pre: `filter(A)` has positive strides and is *tractable*: sorted by stride, each
/// `s_i·d_i` divides `d_{i+1}` (otherwise [`Error::NotComplementable`], or
/// [`Error::NonInjective`] with two colliding coordinates when A is not injective).
/// Post: R is ordered (strides positive and increasing after coalescing, so `R(i-1) < R(i)`);
/// `R(i) != A(j)` for `i ≥ 1`; `(filter(A), R)` covers `[0, size(cotarget))` without overlap.
/// Relies on seed III (`complement1_tiles` in `proofs/`) for the rank-1 case, and for any rank on
/// `complement_tiles`, `complement_covers_cotarget`, `complement_disjoint` and
/// `complement_ordered` (`proofs/ComplementAny.v`); for an integer cotarget the whole function is
/// transcribed as `complementZ` (`proofs/BridgeComplement.v`) and checked against its extraction
/// by `tests/bridge.rs`.
///
/// ```
/// use tessera::{Layout, algebra::complement};
/// let a: Layout = "(2,2):(1,6)".parse().unwrap();
/// assert_eq!(complement(&a, &"24".parse().unwrap()).unwrap().to_string(), "(3,2):(2,12)");
/// ```
pub fn complement(a: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    crate::layout::check_shape(cotarget)?;
    let f = filter_modes(a.tree())?;
    complement_filtered(a, &f, cotarget.as_ref().leaf_slice())
}

/// `complement(A)` with CuTe C++'s default cotarget `cosize(filter(A))`.
///
/// ```
/// use tessera::{Layout, algebra::complement_default};
/// let a: Layout = "4:2".parse().unwrap();
/// assert_eq!(complement_default(&a).unwrap().to_string(), "2:1");
/// ```
pub fn complement_default(a: &Layout) -> Result<Layout> {
    let f = filter_modes(a.tree())?;
    let cos = from_modes(&f).cosize()?;
    complement_filtered(a, &f, &[cos])
}

/// `complement(A, cotarget)` for a cotarget given by its leaves (each ≥ 1), as logical_divide
/// uses it (the shape of `coalesce(A)`), without building the shape tuple.
pub(crate) fn complement_leaves(a: &Layout, cotarget: &[i64]) -> Result<Layout> {
    let f = filter_modes(a.tree())?;
    complement_filtered(a, &f, cotarget)
}

fn complement_filtered(a: &Layout, f: &[Mode], cotarget: &[i64]) -> Result<Layout> {
    if f.len() == 1 && f[0].stride == 0 {
        // A is constant: the complement is the whole cotarget.
        let m = cotarget
            .iter()
            .try_fold(1i64, |acc, &s| arith::mul(acc, s))?;
        return Ok(Layout::leaf(if m == 1 {
            Mode::new(1, 0)
        } else {
            Mode::new(m, 1)
        }));
    }
    let mut sorted: Modes = SmallVec::from_slice(f);
    sorted.sort_by_key(|m| m.stride);
    if let Some(neg) = sorted.iter().find(|m| m.stride < 0) {
        return Err(Error::failed(
            Error::NotComplementable,
            "complement",
            Obligation::NonNegative {
                what: "d",
                context: format!(
                    "the stride of mode {}:{} of {a} (complement needs an increasing image)",
                    neg.shape, neg.stride
                ),
                value: neg.stride,
            },
        ));
    }
    // Tractability: s_i·d_i divides d_{i+1}. This is exactly when CuTe's floor divisions below
    // are exact and its result tiles without overlap.
    for w in sorted.windows(2) {
        let reach = arith::mul(w[0].shape, w[0].stride)?;
        if w[1].stride % reach != 0 {
            return Err(not_complementable(a, f, w[0], w[1], reach));
        }
    }
    let mut out: Modes = SmallVec::new();
    let mut last_stride = 1i64;
    for m in &sorted {
        let new_shape = m.stride / last_stride;
        out.push(Mode::new(new_shape, last_stride));
        last_stride = arith::mul(m.stride, m.shape)?;
    }
    // Rest: ceil_div(cotarget, last_stride) folded mode by mode, then coalesced to its product.
    let mut b = last_stride;
    let mut rest = 1i64;
    for &s in cotarget {
        rest = arith::mul(rest, arith::ceil_div(s, b))?;
        b = arith::ceil_div(b, s);
    }
    // CuTe's fold can fall short of the cotarget when a mode of the shape is not divisible (e.g.
    // `(22,2,2)` against stride 24 gives 2 instead of 4); the complement must still cover it.
    let size = cotarget
        .iter()
        .try_fold(1i64, |acc, &s| arith::mul(acc, s))?;
    if arith::mul(rest, last_stride)? < size {
        rest = arith::ceil_div(size, last_stride);
    }
    out.push(Mode::new(rest, if rest == 1 { 0 } else { last_stride }));
    let (last, init) = out.split_last().expect("non-empty");
    Ok(from_modes(&bw_coalesce(init, *last)?))
}

fn not_complementable(a: &Layout, f: &[Mode], lo: Mode, hi: Mode, reach: i64) -> Error {
    if reach > hi.stride {
        if let Some(w) = collision(f) {
            return Error::failed(
                Error::NonInjective,
                "complement",
                Obligation::Injective {
                    layout: a.to_string(),
                    witness: w,
                },
            );
        }
    }
    Error::failed(
        Error::NotComplementable,
        "complement",
        Obligation::Tractable {
            layout: a.to_string(),
            mode: (lo.shape, lo.stride),
            next: hi.stride,
        },
    )
}

/// Two flat indices of the filtered layout with the same image, if the domain is small enough to
/// search.
pub(crate) fn collision(f: &[Mode]) -> Option<String> {
    let l = from_modes(f);
    let size = l.size().ok()?;
    if size > super::composition::ENUM_LIMIT {
        return None;
    }
    let mut seen = std::collections::HashMap::new();
    for i in 0..size {
        let v = l.eval(i).ok()?;
        if let Some(j) = seen.insert(v, i) {
            return Some(format!("indices {j} and {i} of {l} both map to {v}"));
        }
    }
    None
}

/// seed III's `complement1(N, d, M)`: the complement `(d, M/(N·d)):(1, N·d)` of `N:d` in `[0, M)`.
///
/// Pre: `N, d, M ≥ 1` and `N·d` divides `M` ([`Error::Divisibility`] with the obligation
/// `N·d ∣ M` otherwise; its [`Error::suggestions`] are checked alternatives, nearest first).
/// Post: `(N, d, M/(N·d)):(d, 1, N·d)` is a bijection from its domain onto `[0, M)`
/// (`complement1_tiles` in `proofs/`).
///
/// ```
/// let b = tessera::algebra::complement1(4, 2, 24).unwrap();
/// assert_eq!(b.to_string(), "(2,3):(1,8)");
/// ```
pub fn complement1(n: i64, d: i64, m: i64) -> Result<Layout> {
    positive3(n, d, m)?;
    let nd = arith::mul(n, d)?;
    if m % nd != 0 {
        return Err(Error::failed(
            Error::Divisibility,
            "complement1",
            Obligation::Divides {
                what: "N·d ∣ M",
                factors: vec![n, d],
                b: m,
            },
        )
        .in_call(
            "complement1",
            vec![Value::Int(n), Value::Int(d), Value::Int(m)],
        ));
    }
    let h = Divides::check(nd, m)?;
    complement1_with(n, d, m, h)
}

/// seed III's `complement1 (N d M) (h : N * d ∣ M)`: the complement of `N:d` in `[0, M)` given a
/// proof `h` of `N·d ∣ M` (a [`Divides`] value can only come from a successful check).
///
/// Pre: `N, d ≥ 1`; `h` certifies exactly `N·d ∣ M` ([`Error::ProofMismatch`] when it certifies
/// another divisibility). No divisibility is re-checked: the proof carries it.
/// Post: as [`complement1`].
///
/// ```
/// use tessera::{algebra::complement1_with, obligation::Divides};
/// let h = Divides::check(4 * 2, 24).unwrap();
/// assert_eq!(complement1_with(4, 2, 24, h).unwrap().to_string(), "(2,3):(1,8)");
/// ```
pub fn complement1_with(n: i64, d: i64, m: i64, h: Divides) -> Result<Layout> {
    positive3(n, d, m)?;
    let nd = arith::mul(n, d)?;
    if h.divisor() != nd || h.dividend() != m {
        return Err(Error::failed(
            Error::ProofMismatch,
            "complement1_with",
            Obligation::ProofMatches {
                needed: format!("{n}·{d} ∣ {m}"),
                given: format!("{} ∣ {}", h.divisor(), h.dividend()),
            },
        ));
    }
    Ok(Layout::flat([Mode::new(d, 1), Mode::new(h.quotient(), nd)]))
}

fn positive3(n: i64, d: i64, m: i64) -> Result<()> {
    for (name, v) in [("N", n), ("d", d), ("M", m)] {
        if v < 1 {
            return Err(Error::NonPositiveShape {
                value: v,
                context: format!("complement1 argument {name}"),
            });
        }
    }
    Ok(())
}

/// CuTe's *disjoint* complement, for layouts with no tiling complement: what CuTe C++ and pycute
/// return for an injective layout that is not tractable (floor division leaves holes).
///
/// Pre: `A`'s filtered strides are positive; `size(A)` and `size(R)` ≤ `ENUM_LIMIT` (the
/// postcondition is checked by enumeration). Post: `R` is ordered (`R(i-1) < R(i)`), `R(i) != A(j)`
/// for `i ≥ 1` (checked), and `cosize((A, R)) ≥ size(cotarget)`; `(A, R)` need not cover
/// `[0, size(cotarget))` (that is [`complement`]'s stronger postcondition). When [`complement`]
/// succeeds its result is returned; when the disjoint one fails its check, `complement`'s error. Used by the `tessera.pycute` drop-in only (docs/differences.md).
///
/// ```
/// use tessera::{Layout, algebra::complement::complement_disjoint};
/// let a: Layout = "(2,2):(1,5)".parse().unwrap(); // 2·1 ∤ 5: no tiling complement
/// assert_eq!(complement_disjoint(&a, &"1".parse().unwrap()).unwrap().to_string(), "2:2");
/// ```
pub fn complement_disjoint(a: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    crate::layout::check_shape(cotarget)?;
    let limit = super::composition::ENUM_LIMIT;
    let mut f: Vec<Mode> = filter_modes(a.tree())?
        .iter()
        .copied()
        .filter(|m| m.shape > 1)
        .collect();
    let strong = match complement(a, cotarget) {
        Ok(r) => return Ok(r),
        Err(e) if e.code() == "not_complementable" => e,
        Err(e) => return Err(e),
    };
    if f.iter().any(|m| m.stride < 0) {
        return Err(strong);
    }
    f.sort_by_key(|m| (m.stride, m.shape));
    let mut modes = Vec::with_capacity(f.len() + 1);
    let mut cur = 1i64;
    for m in &f {
        modes.push(Mode::new((m.stride / cur).max(1), cur));
        cur = arith::mul(m.shape, m.stride)?.max(cur);
    }
    let m_total = cotarget.as_ref().leaves().try_fold(1i64, arith::mul)?;
    modes.push(Mode::new(arith::ceil_div(m_total, cur).max(1), cur));
    let r = super::coalesce(&Layout::flat(modes))?;
    // Postcondition, checked: ordered and disjoint from A's image (0 aside).
    let (sa, sr) = (a.size()?, r.size()?);
    if sa > limit || sr > limit {
        return Err(Error::TooLarge {
            op: "complement",
            what: "the layouts whose disjointness is checked".into(),
            size: sa.max(sr),
            bound: limit,
        });
    }
    let image: std::collections::HashSet<i64> =
        (0..sa).map(|i| a.eval(i)).collect::<Result<_>>()?;
    let mut prev = -1i64;
    for i in 0..sr {
        let v = r.eval(i)?;
        if v <= prev || (i > 0 && image.contains(&v)) {
            return Err(strong);
        }
        prev = v;
    }
    Ok(r)
}
