//! Complement: the layout that completes A to a tiling of its cotarget, with no overlap
//! (the Complementation theorem; ARCHITECTURE.md, glossary).
//!
//! This file is the contract and the reference implementation: [`complement`] and its variants
//! state what they compute, and the general path (`filter(A)`, sort by stride, one pass of exact
//! divisions, the rest mode; [`complement1`] for rank 1; CuTe's construction and the holes where A
//! is not tractable) computes it. The fast path that answers the common tractable case without
//! filtering or coalescing is in `complement_fast.rs`, with the argument that it gives this
//! file's answer; wherever it gives up, this file answers, errors and notes included.

use super::coalesce::{bw_coalesce, filter_modes, filter_modes_into, from_modes, guarded, Modes};
use super::complement_fast::complement_fast;
use crate::error::{arith, note, Divides, Error, Note, Obligation, Result};
use crate::layout::buf::Buf;
use crate::layout::{IntTuple, Layout, Mode, TreeRef};

/// `complement(A, cotarget)`: CuTe C++'s complement, the ordered layout R disjoint from A (except
/// at 0) with `cosize((A, R)) ≥ size(cotarget)`; a tiling when A is tractable.
///
/// `cotarget` is an integer or a shape; as in CuTe C++ a shape keeps its mode structure when the
/// rest is computed (`ceil_div(shape, d)` folds mode by mode).
///
/// Pre: `filter(A)` has positive strides ([`Error::NotComplementable`] otherwise) and, sorted by
/// stride, each mode starts at or past the end `s·d` of the previous one (otherwise
/// [`Error::NonInjective`] with two colliding coordinates, or [`Error::NotComplementable`] where
/// CuTe's quotient is 0 although A is injective).
/// Post (A *tractable*: each `s_i·d_i` divides `d_{i+1}`): R is ordered (strides positive and
/// increasing after coalescing, so `R(i-1) < R(i)`); `R(i) != A(j)` for `i ≥ 1`;
/// `(filter(A), R)` is a bijection onto an interval `[0, n)`, `n ≥ size(cotarget)`.
/// Post (A not tractable): R is CuTe's answer (floor division; the rest raised where CuTe's
/// falls short of `cosize((A, R)) ≥ size(cotarget)`): ordered and disjoint from A except at 0,
/// but `(A, R)` leaves holes; a
/// `complement_holes` [`Note`] naming the first one is recorded for [`note::collect`]
/// ([`complement_with_note`] returns it; [`complement_exact`] refuses such an A).
/// Relies on the Complementation theorem (`complement1_tiles` in `proofs/`) for the rank-1 case, and for any rank on
/// `complement_tiles`, `complement_covers_cotarget`, `complement_disjoint` and
/// `complement_ordered` (`proofs/ComplementAny.v`); for an integer cotarget the tractable case is
/// transcribed as `complementZ` (`proofs/BridgeComplement.v`) and checked against its extraction
/// by `tests/bridge.rs`.
///
/// ```
/// use tessera::{Layout, algebra::complement};
/// let a: Layout = "(2,2):(1,6)".parse().unwrap();
/// assert_eq!(complement(&a, &"24".parse().unwrap()).unwrap().to_string(), "(3,2):(2,12)");
/// let b: Layout = "(8,2):(64,3)".parse().unwrap(); // 2·3 ∤ 64: CuTe's answer, with a note
/// assert_eq!(complement(&b, &"1808".parse().unwrap()).unwrap().to_string(), "(3,10,4):(1,6,512)");
/// ```
pub fn complement(a: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    let mut out = Layout::default();
    complement_into(a, cotarget, &mut out)?;
    Ok(out)
}

/// [`complement`] writing its result into `out` (whose storage is reused; no layout is returned
/// by value). On error `out` is `1:0`.
///
/// Pre/Post: as [`complement`].
///
/// ```
/// use tessera::{Layout, algebra::complement_into};
/// let a: Layout = "(2,2):(1,6)".parse().unwrap();
/// let mut out = Layout::default();
/// complement_into(&a, &"24".parse().unwrap(), &mut out).unwrap();
/// assert_eq!(out.to_string(), "(3,2):(2,12)");
/// ```
pub fn complement_into(a: &Layout, cotarget: &IntTuple, out: &mut Layout) -> Result<()> {
    // The fast path answers only where `check_shape(cotarget)` holds (every leaf ≥ 1).
    let ct = cotarget.as_ref().leaf_slice();
    if complement_fast(a.tree().leaf_slice(), ct, out.t.vals_mut(), rest_of) {
        out.t.set_flat_profile(true);
        return Ok(());
    }
    complement_into_general(a, cotarget, out)
}

/// [`complement_into`] without the fast path.
#[inline(never)]
fn complement_into_general(a: &Layout, cotarget: &IntTuple, out: &mut Layout) -> Result<()> {
    guarded(out, |out| {
        crate::layout::check_shape(cotarget)?;
        complement_modes_general(a, cotarget.as_ref().leaf_slice(), out.t.vals_mut())?;
        out.t.set_flat_profile(true);
        Ok(())
    })
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

/// The complement of A given the modes `f` of `filter(A)`, by value.
fn complement_filtered(a: &Layout, f: &[Mode], cotarget: &[i64]) -> Result<Layout> {
    let mut out = Layout::default();
    guarded(&mut out, |out| {
        let res = out.t.vals_mut();
        res.clear();
        res.extend_from_slice(f);
        complement_in_place(a, cotarget, res)?;
        out.t.set_flat_profile(true);
        Ok(())
    })?;
    Ok(out)
}

/// The flat modes of `complement(A, cotarget)` (cotarget by its leaves), into `out`.
/// `out` may be a [`Modes`] or a smaller buffer (`N` a power of two, 2 ≤ N ≤ 16: a scratch that
/// is cheaper to create where A has fewer than `N` leaves). A is given by its tree, so that a
/// mode of a larger layout needs no copy.
#[inline(always)]
pub(crate) fn complement_modes_into<const N: usize>(
    a: TreeRef<'_, Mode>,
    cotarget: &[i64],
    out: &mut Buf<Mode, N>,
) -> Result<()> {
    if complement_fast(a.leaf_slice(), cotarget, out, rest_of) {
        return Ok(());
    }
    complement_modes_general_n(a, cotarget, out)
}

/// Binds `$c: &[Mode]` to the flat modes of `complement($a, $cotarget)` (`$a` a
/// `TreeRef<Mode>`; the `?` operator returns its error), held in stack scratch sized to A: 8 modes when A has fewer than 8 leaves
/// (a zeroed 256-byte `Modes` costs a `memset` call), 16 otherwise. A macro rather than a
/// function taking a closure, so that the caller's code after it is not compiled twice.
macro_rules! complement_scratch {
    ($c:ident, $a:expr, $cotarget:expr) => {
        let mut small: $crate::layout::buf::Buf<$crate::layout::Mode, 8>;
        let mut big: $crate::algebra::coalesce::Modes;
        let $c: &[$crate::layout::Mode] = if $a.leaf_count() < 8 {
            small = $crate::layout::buf::Buf::new();
            $crate::algebra::complement::complement_modes_into($a, $cotarget, &mut small)?;
            &small
        } else {
            big = $crate::algebra::coalesce::Modes::new();
            $crate::algebra::complement::complement_modes_into($a, $cotarget, &mut big)?;
            &big
        };
    };
}
pub(crate) use complement_scratch;

/// [`complement_modes_general`] into a buffer of any capacity (through a [`Modes`]).
#[cold]
#[inline(never)]
fn complement_modes_general_n<const N: usize>(
    a: TreeRef<'_, Mode>,
    cotarget: &[i64],
    out: &mut Buf<Mode, N>,
) -> Result<()> {
    let mut m = Modes::new();
    complement_modes_general(&Layout::from_tree(a.to_owned()), cotarget, &mut m)?;
    out.clear();
    out.extend_from_slice(&m);
    Ok(())
}

/// [`complement_modes_into`] without the fast path: `filter(A)`, then [`complement_in_place`].
#[inline(never)]
fn complement_modes_general(a: &Layout, cotarget: &[i64], out: &mut Modes) -> Result<()> {
    filter_modes_into(a.tree(), out)?;
    complement_in_place(a, cotarget, out)
}

/// Sorts modes by stride, stably (insertion sort: the mode lists are short).
#[inline]
fn sort_by_stride(m: &mut [Mode]) {
    for i in 1..m.len() {
        let x = m[i];
        let mut j = i;
        while j > 0 && m[j - 1].stride > x.stride {
            m[j] = m[j - 1];
            j -= 1;
        }
        m[j] = x;
    }
}

/// The complement's flat modes from the modes of `filter(A)` held in `res`, in place: they are
/// sorted by stride, then replaced in one pass by the complement's modes (each read before it is
/// overwritten; the tractability test `r_{i-1} ∣ d_i` and the new extent `d_i / r_{i-1}` come
/// from one division), with the rest mode last. On the (rare) non-tractable or error paths
/// `filter(A)` is recomputed.
///
/// The result is already coalesced, so no coalescing pass runs: for a tractable A the modes are
/// `(d_i / r_{i-1}) : r_{i-1}` with `r_i = s_i·d_i` and `r_{-1} = 1`, then `rest : r_{n-1}`. Two
/// of them never merge (a packed merge of mode `i` into a later mode `j` needs
/// `d_i = r_{j-1} = s_{j-1}·d_{j-1} ≥ 2·d_i`, since filtered extents are ≥ 2 and the strides are
/// sorted and positive), so coalescing only drops the unit modes, which is what this pass does
/// (and `1:0` when none is left). `tests/bridge.rs` checks the result against `complementZ`,
/// which coalesces.
#[inline(always)]
fn complement_in_place(a: &Layout, cotarget: &[i64], res: &mut Modes) -> Result<()> {
    if res.len() == 1 && res[0].stride == 0 {
        // A is constant: the complement is the whole cotarget.
        let m = cotarget
            .iter()
            .try_fold(1i64, |acc, &s| arith::mul(acc, s))?;
        res[0] = if m == 1 {
            Mode::new(1, 0)
        } else {
            Mode::new(m, 1)
        };
        return Ok(());
    }
    let sorted = res.as_mut_slice();
    sort_by_stride(sorted);
    if let Some(neg) = sorted.first().filter(|m| m.stride < 0) {
        return Err(negative_stride(a, *neg));
    }
    // One pass: r_{i-1} must divide d_i (tractability: exactly when CuTe's floor divisions are
    // exact and its result tiles without overlap); the mode `(d_i / r_{i-1}) : r_{i-1}` is kept
    // unless it is a unit.
    let mut last_stride = 1i64;
    let mut k = 0usize;
    for i in 0..sorted.len() {
        let m = sorted[i];
        let (q, r) = arith::div_rem_pos(m.stride, last_stride);
        if r != 0 {
            return complement_not_tractable(a, cotarget, res);
        }
        if q != 1 {
            sorted[k] = Mode::new(q, last_stride);
            k += 1;
        }
        last_stride = arith::mul(m.stride, m.shape)?;
    }
    // Rest: ceil_div(cotarget, last_stride) folded mode by mode.
    let rest = match *cotarget {
        [s] => {
            let rest = arith::ceil_div(s, last_stride);
            arith::mul(rest, last_stride)?;
            rest
        }
        _ => rest_of(cotarget, last_stride)?,
    };
    res.truncate(k);
    if rest != 1 {
        res.push(Mode::new(rest, last_stride));
    }
    if res.is_empty() {
        res.push(Mode::new(1, 0));
    }
    Ok(())
}

/// The rest extent for a cotarget shape: CuTe's `ceil_div(shape, last_stride)` folded mode by
/// mode, raised to cover the cotarget where CuTe's fold falls short (e.g. `(22,2,2)` against
/// stride 24 gives 2 instead of 4).
#[inline(always)]
pub(super) fn rest_of(cotarget: &[i64], last_stride: i64) -> Result<i64> {
    // One pass for the fold and the size; on any overflow the checked path below returns the
    // same error as before (fold first, then size, then the product).
    let (mut b, mut rest, mut size, mut ok) = (last_stride, 1i64, 1i64, true);
    for &s in cotarget {
        let (z, o) = size.overflowing_mul(s);
        size = z;
        ok &= !o;
        let f = if b == 1 {
            s
        } else if s <= b {
            b = arith::ceil_div(b, s);
            1
        } else {
            let f = arith::ceil_div(s, b);
            b = 1;
            f
        };
        let (r, o) = rest.overflowing_mul(f);
        rest = r;
        ok &= !o;
    }
    if let (true, Some(reach)) = (ok, rest.checked_mul(last_stride)) {
        return Ok(if reach < size {
            arith::ceil_div(size, last_stride)
        } else {
            rest
        });
    }
    rest_of_checked(cotarget, last_stride)
}

/// [`rest_of`] with every product checked in CuTe's order (where one overflows).
#[cold]
#[inline(never)]
fn rest_of_checked(cotarget: &[i64], last_stride: i64) -> Result<i64> {
    let (mut rest, size) = cute_rest_fold(cotarget, last_stride)?;
    if arith::mul(rest, last_stride)? < size {
        rest = arith::ceil_div(size, last_stride);
    }
    Ok(rest)
}

/// CuTe's rest extent `ceil_div(cotarget, last_stride)`, folded mode by mode over the cotarget's
/// leaves, and `size(cotarget)`.
#[inline]
fn cute_rest_fold(cotarget: &[i64], last_stride: i64) -> Result<(i64, i64)> {
    let mut b = last_stride;
    let mut rest = 1i64;
    for &s in cotarget {
        // ceil(s / b) and ceil(b / s), without a division when b == 1 (every later mode) or
        // when one of them is at most the other.
        if b == 1 {
            rest = arith::mul(rest, s)?;
        } else if s <= b {
            b = arith::ceil_div(b, s);
        } else {
            rest = arith::mul(rest, arith::ceil_div(s, b))?;
            b = 1;
        }
    }
    let size = cotarget
        .iter()
        .try_fold(1i64, |acc, &s| arith::mul(acc, s))?;
    Ok((rest, size))
}

/// The `NotComplementable` error for a negative stride of `filter(A)`.
#[cold]
#[inline(never)]
fn negative_stride(a: &Layout, neg: Mode) -> Error {
    Error::failed(
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
    )
}

/// CuTe's answer for a non-tractable A (with a `complement_holes` note), into `res`; or the
/// error. Recomputes `filter(A)` (the fast pass has overwritten it).
#[cold]
#[inline(never)]
fn complement_not_tractable(a: &Layout, cotarget: &[i64], res: &mut Modes) -> Result<()> {
    let f = filter_modes(a.tree())?;
    let mut sorted = f.clone();
    sort_by_stride(&mut sorted);
    let r = complement_untractable(a, &f, &sorted, cotarget)?;
    res.clear();
    res.extend_from_slice(r.tree().leaf_slice());
    Ok(())
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

/// The Complementation theorem's `complement1(N, d, M)`: the complement `(d, M/(N·d)):(1, N·d)` of `N:d` in `[0, M)`.
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
        .in_call("complement1", [n, d, m]));
    }
    let h = Divides::check(nd, m)?;
    complement1_with(n, d, m, h)
}

/// The Complementation theorem's `complement1 (N d M) (h : N * d ∣ M)`: the complement of `N:d` in `[0, M)` given a
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

/// pycute's complement (the `tessera.pycute` face, `pycute=True`): the tiling complement
/// ([`complement_exact`]) when there is one, else CuTe's disjoint one ([`complement_disjoint`]);
/// never C++'s construction for a non-tractable layout. No cotarget means `1` for the disjoint
/// complement (pycute's `max_idx=1`). The one home of this rule: every Python entry point calls it.
///
/// Pre: as [`complement_disjoint`]. Post: `out` is [`complement_exact`]'s result when that
/// succeeds, else [`complement_disjoint`]'s; any other failure is returned.
///
/// ```
/// use tessera::{Layout, algebra::complement::complement_pycute_into};
/// let a: Layout = "(2,2):(1,5)".parse().unwrap(); // 2·1 ∤ 5: no tiling complement
/// let mut out = Layout::default();
/// complement_pycute_into(&a, None, &mut out).unwrap();
/// assert_eq!(out.to_string(), "2:2");
/// ```
#[inline]
pub fn complement_pycute_into(
    a: &Layout,
    cotarget: Option<&IntTuple>,
    out: &mut Layout,
) -> Result<()> {
    match cotarget {
        Some(ct) => match complement_exact_into(a, ct, out) {
            Err(e) if e.code() == "not_complementable" => {
                *out = complement_disjoint(a, ct)?;
                Ok(())
            }
            r => r,
        },
        None => {
            *out = match complement_exact_default(a) {
                Err(e) if e.code() == "not_complementable" => {
                    complement_disjoint(a, &IntTuple::leaf(1))?
                }
                r => r?,
            };
            Ok(())
        }
    }
}

/// [`complement_pycute_into`], returning the layout.
///
/// ```
/// let a: tessera::Layout = "4:2".parse().unwrap();
/// let r = tessera::algebra::complement::complement_pycute(&a, Some(&"24".parse().unwrap()));
/// assert_eq!(r.unwrap().to_string(), "(2,3):(1,8)");
/// ```
pub fn complement_pycute(a: &Layout, cotarget: Option<&IntTuple>) -> Result<Layout> {
    let mut out = Layout::default();
    complement_pycute_into(a, cotarget, &mut out)?;
    Ok(out)
}

/// CuTe's *disjoint* complement, for layouts with no tiling complement: what CuTe C++ and pycute
/// return for an injective layout that is not tractable (floor division leaves holes).
///
/// Pre: `A`'s filtered strides are positive; `size(A)` and `size(R)` ≤ `ENUM_LIMIT` (the
/// postcondition is checked by enumeration). Post: `R` is ordered (`R(i-1) < R(i)`), `R(i) != A(j)`
/// for `i ≥ 1` (checked), and `cosize((A, R)) ≥ size(cotarget)`; `(A, R)` need not cover
/// `[0, size(cotarget))` (that is [`complement_exact`]'s stronger postcondition). When
/// [`complement_exact`] succeeds its result is returned; when the disjoint one fails its check,
/// `complement_exact`'s error. pycute's construction differs from C++'s ([`complement`]) on
/// non-tractable layouts. Used by the `tessera.pycute` drop-in only (docs/differences.md).
///
/// ```
/// use tessera::{Layout, algebra::complement::complement_disjoint};
/// let a: Layout = "(2,2):(1,5)".parse().unwrap(); // 2·1 ∤ 5: no tiling complement
/// assert_eq!(complement_disjoint(&a, &"1".parse().unwrap()).unwrap().to_string(), "2:2");
/// ```
pub fn complement_disjoint(a: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    crate::layout::check_shape(cotarget)?;
    // The tiling complement first: no allocation on that (common) path.
    let strong = match complement_exact(a, cotarget) {
        Ok(r) => return Ok(r),
        Err(e) if e.code() == "not_complementable" => e,
        Err(e) => return Err(e),
    };
    let limit = super::composition::ENUM_LIMIT;
    let mut f: Vec<Mode> = filter_modes(a.tree())?
        .iter()
        .copied()
        .filter(|m| m.shape > 1)
        .collect();
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
    let mut vals = Vec::with_capacity(sr as usize);
    for i in 0..sr {
        let v = r.eval(i)?;
        if vals.last().is_some_and(|&p| v <= p) {
            return Err(strong);
        }
        vals.push(v);
    }
    // A's image is the image of its filtered modes `f` (0 is in both images).
    if image_meets(&f, &vals[1..])? {
        return Err(strong);
    }
    Ok(r)
}

/// Whether a value of the image of the flat layout `modes` (shapes ≥ 1, strides ≥ 0) is in
/// `sorted` (ascending). The mode with the most elements, `s:d`, is not enumerated: the other
/// modes' values `v` are (an odometer, one addition per step), and for each the values of
/// `sorted` in `[v, v + (s-1)·d]` are tested for `d ∣ x - v` (or, when there are more of them
/// than `s`, the `s` values `v + j·d` are looked up). At most `size(modes)` steps in all, which
/// the caller bounds; no allocation past the counters.
fn image_meets(modes: &[Mode], sorted: &[i64]) -> Result<bool> {
    use crate::layout::buf::Buf;
    let (Some(&lo), Some(&hi)) = (sorted.first(), sorted.last()) else {
        return Ok(false);
    };
    let Some(k) = (0..modes.len()).max_by_key(|&i| modes[i].shape) else {
        return Ok(sorted.contains(&0));
    };
    // Every partial sum is at most the largest value, so no step below overflows.
    let mut spans: Buf<i64, 16> = Buf::new();
    for m in modes {
        spans.push(arith::mul(m.shape - 1, m.stride)?);
    }
    spans.iter().try_fold(0i64, |acc, &s| arith::add(acc, s))?;
    let (inner, span) = (modes[k], spans[k]);
    let mut idx: Buf<i64, 16> = Buf::from_elem(0, modes.len());
    let mut v = 0i64;
    loop {
        if v <= hi && v + span >= lo {
            let from = sorted.partition_point(|&x| x < v);
            let to = sorted.partition_point(|&x| x <= v + span);
            let cands = &sorted[from..to];
            let hit = if inner.stride == 0 {
                cands.first() == Some(&v)
            } else if cands.len() as i64 <= inner.shape {
                cands.iter().any(|&x| (x - v) % inner.stride == 0)
            } else {
                (0..inner.shape).any(|j| cands.binary_search(&(v + j * inner.stride)).is_ok())
            };
            if hit {
                return Ok(true);
            }
        }
        let mut i = 0;
        loop {
            if i == k {
                i += 1;
                continue;
            }
            let Some(m) = modes.get(i) else {
                return Ok(false);
            };
            if idx[i] + 1 < m.shape {
                idx[i] += 1;
                v += m.stride;
                break;
            }
            idx[i] = 0;
            v -= spans[i];
            i += 1;
        }
    }
}

/// The branch of [`complement`] for an injective layout that is not tractable: CuTe C++'s
/// construction with floor division (`detail::complement` in `layout.hpp`), checked, and a
/// [`Note`] recorded for [`note::collect`].
///
/// Pre: `sorted` is `f` sorted by stride (stable), every stride positive, some reach `s_k·d_k`
/// not dividing the next stride. Post: see [`complement`] (the non-tractable case).
fn complement_untractable(
    a: &Layout,
    f: &[Mode],
    sorted: &[Mode],
    cotarget: &[i64],
) -> Result<Layout> {
    let h = holes(a, f, sorted, cotarget)?;
    note::record_with(|| h.note(a));
    Ok(h.r)
}

/// CuTe's complement of a non-tractable layout, with what the note says about it.
struct Holes {
    /// The complement R.
    r: Layout,
    /// The first index of `[0, cosize((A, R)))` that no pair reaches.
    hole: i64,
    /// `cosize((A, R))`.
    cosize: i64,
    /// The first mode (sorted by stride) whose reach does not divide the next stride, and that
    /// stride.
    lo: Mode,
    next: i64,
}

impl Holes {
    fn note(&self, a: &Layout) -> Note {
        let ob = Obligation::Tractable {
            layout: a.to_string(),
            mode: (self.lo.shape, self.lo.stride),
            next: self.next,
        };
        let pair = Layout::concat([a, &self.r]);
        Note {
            code: "complement_holes",
            op: "complement",
            obligation: ob.to_string(),
            symbolic: ob.symbolic(),
            message: format!(
                "complement: (A, R) = {pair} leaves holes in [0, {}): no pair reaches {}; A = {a} \
                 is not tractable ({ob} is false), so R = {} is CuTe's complement: ordered and \
                 disjoint from A except at 0, but not a tiling (complement_exact refuses it)",
                self.cosize, self.hole, self.r
            ),
            hole: Some(self.hole),
        }
    }
}

/// CuTe's construction for a non-tractable `sorted` (see [`complement_untractable`]).
///
/// With `r_0 = 1` and `r_{k+1} = s_k·d_k`, mode k of R is `⌊d_k / r_k⌋ : r_k`; a quotient 0 is
/// CuTe's `static_assert` (then A's modes overlap: [`Error::NonInjective`] with a witness, or
/// [`Error::NotComplementable`]). Every quotient ≥ 1 means that, sorted by stride, the modes of
/// `(A, R)` each start at or past the end of the previous one, so `(A, R)` is injective: R is
/// ordered and meets A only at 0 (no enumeration needed). The rest mode `ρ : r_n` takes CuTe's
/// fold `ceil_div(cotarget, r_n)`, raised to the least ρ with `cosize((A, R)) ≥ size(cotarget)`
/// where the fold falls short (docs/differences.md, rows 3 and 6).
fn holes(a: &Layout, f: &[Mode], sorted: &[Mode], cotarget: &[i64]) -> Result<Holes> {
    let mut out: Modes = Modes::new();
    let mut last = 1i64;
    // X = Σ (q_k - 1)·r_k + Σ (s_k - 1)·d_k: the largest point of (A, R) without the rest mode.
    let mut top = 0i64;
    let mut first_bad: Option<(Mode, i64)> = None;
    for (k, m) in sorted.iter().enumerate() {
        let q = m.stride / last;
        if q == 0 {
            return Err(not_complementable(a, f, sorted[k - 1], *m, last));
        }
        if first_bad.is_none() && m.stride % last != 0 {
            first_bad = Some((sorted[k - 1], m.stride));
        }
        out.push(Mode::new(q, last));
        top = arith::add(top, arith::mul(q - 1, last)?)?;
        top = arith::add(top, arith::mul(m.shape - 1, m.stride)?)?;
        last = arith::mul(m.stride, m.shape)?;
    }
    let Some((lo, next)) = first_bad else {
        // Unreachable from `complement_filtered` (it found a reach that does not divide).
        return Err(untractable(a, sorted[0], sorted[0].stride));
    };
    let (mut rest, size) = cute_rest_fold(cotarget, last)?;
    // cosize((A, R)) = (ρ - 1)·r_n + X + 1 must reach size(cotarget).
    let short = size - 1 - top;
    if short > 0 {
        rest = rest.max(arith::add(1, arith::ceil_div(short, last))?);
    }
    let cosize = arith::add(arith::add(arith::mul(rest - 1, last)?, top)?, 1)?;
    // The first hole: walk the modes of (A, R) by stride; the prefix covers [0, cur) until a
    // stride starts past cur.
    let mut cur = 1i64;
    let mut hole = None;
    let rest_mode = Mode::new(rest, last);
    for q in out
        .iter()
        .zip(sorted)
        .flat_map(|(q, m)| [*q, *m])
        .chain([rest_mode])
    {
        if q.shape == 1 {
            continue;
        }
        if q.stride > cur {
            hole = Some(cur);
            break;
        }
        cur = arith::mul(q.shape, q.stride)?;
    }
    let hole = hole.unwrap_or(cur);
    out.push(Mode::new(rest, if rest == 1 { 0 } else { last }));
    let (l, init) = out.split_last().expect("non-empty");
    Ok(Holes {
        r: from_modes(&bw_coalesce(init, *l)?),
        hole,
        cosize,
        lo,
        next,
    })
}

/// The strict error: `lo`'s reach does not divide the next stride `next`.
fn untractable(a: &Layout, lo: Mode, next: i64) -> Error {
    Error::failed(
        Error::NotComplementable,
        "complement",
        Obligation::Tractable {
            layout: a.to_string(),
            mode: (lo.shape, lo.stride),
            next,
        },
    )
}

/// `complement(A, cotarget)` and the [`Note`] it records, if any: `Some` exactly when A is
/// injective but not tractable, so that `(filter(A), R)` is not a bijection onto
/// `[0, cosize((A, R)))` (the note names the first index it misses).
///
/// Pre/Post: as [`complement`].
///
/// ```
/// use tessera::{Layout, algebra::complement::complement_with_note};
/// let a: Layout = "(5,2):(8,64)".parse().unwrap();
/// let (r, note) = complement_with_note(&a, &"97".parse().unwrap()).unwrap();
/// assert_eq!(r.to_string(), "8:1"); // CuTe C++'s answer
/// assert_eq!(note.unwrap().hole, Some(40)); // ((5,2),8):((8,64),1) covers [0,40) and [64,104)
/// ```
pub fn complement_with_note(a: &Layout, cotarget: &IntTuple) -> Result<(Layout, Option<Note>)> {
    let (r, notes) = note::collect(|| complement(a, cotarget));
    Ok((r?, notes.into_iter().next()))
}

/// The strict complement: [`complement`] where `(filter(A), R)` must tile `[0, n)` exactly,
/// `n ≥ size(cotarget)`.
///
/// Pre: `filter(A)` has positive strides and is tractable (sorted by stride, each `s_i·d_i`
/// divides `d_{i+1}`); otherwise [`Error::NotComplementable`] naming the two modes (with checked
/// suggestions), or [`Error::NonInjective`] with two colliding coordinates. Post: as
/// [`complement`] for a tractable A (the Complementation theorem; `complement_tiles` in `proofs/ComplementAny.v`).
///
/// ```
/// use tessera::{Layout, algebra::complement::complement_exact};
/// let a: Layout = "(2,2):(1,3)".parse().unwrap();
/// let e = complement_exact(&a, &"12".parse().unwrap()).unwrap_err();
/// assert_eq!(e.code(), "not_complementable");
/// ```
pub fn complement_exact(a: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    crate::layout::check_shape(cotarget)?;
    let f = filter_modes(a.tree())?;
    tractable(a, &f)?;
    complement_filtered(a, &f, cotarget.as_ref().leaf_slice())
}

/// [`complement_exact`] writing its result into `out` (whose storage is reused; nothing is
/// returned by value). On error `out` is `1:0`.
///
/// Pre/Post: as [`complement_exact`].
///
/// ```
/// use tessera::{Layout, algebra::complement::complement_exact_into};
/// let a: Layout = "(2,2):(1,6)".parse().unwrap();
/// let mut out = Layout::default();
/// complement_exact_into(&a, &"24".parse().unwrap(), &mut out).unwrap();
/// assert_eq!(out.to_string(), "(3,2):(2,12)");
/// let b: Layout = "(2,2):(1,5)".parse().unwrap(); // 2·1 ∤ 5
/// assert!(complement_exact_into(&b, &"20".parse().unwrap(), &mut out).is_err());
/// ```
pub fn complement_exact_into(a: &Layout, cotarget: &IntTuple, out: &mut Layout) -> Result<()> {
    guarded(out, |out| {
        crate::layout::check_shape(cotarget)?;
        let res = out.t.vals_mut();
        filter_modes_into(a.tree(), res)?;
        tractable(a, res)?;
        complement_in_place(a, cotarget.as_ref().leaf_slice(), res)?;
        out.t.set_flat_profile(true);
        Ok(())
    })
}

/// [`complement_exact`] with CuTe C++'s default cotarget `cosize(filter(A))`.
///
/// ```
/// use tessera::{Layout, algebra::complement::complement_exact_default};
/// let a: Layout = "(2,2):(1,6)".parse().unwrap();
/// assert_eq!(complement_exact_default(&a).unwrap().to_string(), "3:2");
/// ```
pub fn complement_exact_default(a: &Layout) -> Result<Layout> {
    let f = filter_modes(a.tree())?;
    tractable(a, &f)?;
    let cos = from_modes(&f).cosize()?;
    complement_filtered(a, &f, &[cos])
}

/// `complement_exact`'s precondition: sorted by stride, each positive reach divides the next
/// stride (negative strides are left to [`complement`]'s own error).
fn tractable(a: &Layout, f: &[Mode]) -> Result<()> {
    if f.len() == 1 || f.iter().any(|m| m.stride <= 0) {
        return Ok(());
    }
    let mut sorted: Modes = Modes::from_slice(f);
    sorted.sort_by_key(|m| m.stride);
    for w in sorted.windows(2) {
        let reach = arith::mul(w[0].shape, w[0].stride)?;
        if w[1].stride % reach != 0 {
            return Err(not_complementable(a, f, w[0], w[1], reach));
        }
    }
    Ok(())
}

#[cfg(test)]
mod fast_path_tests {
    //! The fast path (`complement_fast`) against the general path it short-cuts (filter,
    //! coalesce, sort, one pass; the path `tests/bridge.rs` checks against the Coq extraction):
    //! the same result, the same error and the same notes on every input, exhaustively over
    //! small layouts and on random larger ones (overflow and negative strides included).
    use super::*;
    use crate::layout::Tree;

    /// `complement_into` and the general path agree on `(a, cotarget)`, output included;
    /// whether the fast path answered.
    fn agree(a: &Layout, cot: &IntTuple, out0: &Layout) -> bool {
        let (mut o1, mut o2) = (out0.clone(), out0.clone());
        let (r1, n1) = note::collect(|| complement_into(a, cot, &mut o1));
        let (r2, n2) = note::collect(|| complement_into_general(a, cot, &mut o2));
        assert_eq!(r1, r2, "{a} against {cot}");
        assert_eq!(n1, n2, "{a} against {cot}");
        assert_eq!(o1, o2, "{a} against {cot}");
        // The modes as logical_divide and logical_product take them.
        let ct = cot.as_ref().leaf_slice();
        if ct.iter().all(|&s| s >= 1) {
            let (mut m1, mut m2) = (Modes::new(), Modes::new());
            let (r1, n1) = note::collect(|| complement_modes_into(a.tree(), ct, &mut m1));
            let (r2, n2) = note::collect(|| complement_modes_general(a, ct, &mut m2));
            assert_eq!(r1, r2, "{a} against {cot}");
            assert_eq!(n1, n2, "{a} against {cot}");
            if r1.is_ok() {
                assert_eq!(m1, m2, "{a} against {cot}");
            }
            return complement_fast(a.tree().leaf_slice(), ct, &mut m1, rest_of);
        }
        false
    }

    fn cotargets() -> Vec<IntTuple> {
        let mut v: Vec<IntTuple> = [1, 2, 13, 48, 96, 1 << 40]
            .into_iter()
            .map(IntTuple::leaf)
            .collect();
        for t in ["(2,3,8)", "(22,2,2)", "(5,(3,4))", "(4,0)"] {
            v.push(t.parse().expect("cotarget"));
        }
        v
    }

    #[test]
    fn fast_path_agrees_exhaustively() {
        let shapes = [1i64, 2, 3, 4];
        let strides = [-2i64, 0, 1, 2, 3, 4, 6, 8, 12, 24];
        let leaves: Vec<Mode> = shapes
            .iter()
            .flat_map(|&s| strides.iter().map(move |&d| Mode::new(s, d)))
            .collect();
        let cots = cotargets();
        let out0 = Layout::default();
        let (mut count, mut fast) = (0usize, 0usize);
        for rank in 0..=3u32 {
            for mut code in 0..leaves.len().pow(rank) {
                let mut modes = Vec::new();
                for _ in 0..rank {
                    modes.push(leaves[code % leaves.len()]);
                    code /= leaves.len();
                }
                let a = Layout::flat(modes);
                for cot in &cots {
                    fast += usize::from(agree(&a, cot, &out0));
                    count += 1;
                }
            }
        }
        // Four leaves (the sorting network) over fewer values.
        let small: Vec<Mode> = [1i64, 2, 4]
            .iter()
            .flat_map(|&s| [0i64, 1, 2, 3, 4, 8, 16].map(move |d| Mode::new(s, d)))
            .collect();
        let four_cots = [IntTuple::leaf(64), "(2,3,8)".parse().expect("cotarget")];
        for mut code in 0..small.len().pow(4) {
            let mut modes = Vec::new();
            for _ in 0..4 {
                modes.push(small[code % small.len()]);
                code /= small.len();
            }
            let a = Layout::flat(modes);
            for cot in &four_cots {
                fast += usize::from(agree(&a, cot, &out0));
                count += 1;
            }
        }
        // Both paths are exercised.
        assert!(
            count > 900_000 && fast > count / 20 && fast < count / 2,
            "{fast} of {count}"
        );
    }

    #[test]
    fn fast_path_agrees_on_random_layouts() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let big = [i64::MAX / 3, i64::MAX / 2, 1 << 40, 1 << 62, 3 << 30];
        let cots = cotargets();
        // A spilled output (20 modes on the heap) must come back inline.
        let spilled = Layout::flat((0..20).map(|i| Mode::new(2, 1 << i)));
        let mut fast = 0usize;
        for iter in 0..10_000 {
            let rank = (next() % 17) as usize;
            let mut modes = Vec::new();
            let mut stride = 1i64;
            for _ in 0..rank {
                let r = next();
                let shape = [1, 2, 2, 3, 4, 5, 8][(r % 7) as usize];
                // Mostly tractable chains (then shuffled), sometimes anything.
                let d = match (r >> 8) % 8 {
                    0 => 0,
                    1 => -(((r >> 16) % 9) as i64),
                    2 => big[((r >> 16) % 5) as usize],
                    3 => ((r >> 16) % 64) as i64,
                    _ => stride.saturating_mul(1 + ((r >> 16) % 3) as i64),
                };
                stride = d.saturating_mul(shape).max(1);
                modes.push(Mode::new(shape, d));
            }
            for i in (1..modes.len()).rev() {
                modes.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            // Nested half the time (the leaves are what counts).
            let a = if iter % 2 == 0 || modes.len() < 2 {
                Layout::flat(modes)
            } else {
                let (l, r) = modes.split_at(modes.len() / 2);
                let t = Tree::tuple([
                    Tree::flat(l.to_vec()).as_ref(),
                    Tree::flat(r.to_vec()).as_ref(),
                ]);
                Layout { t }
            };
            let cot = &cots[(next() % cots.len() as u64) as usize];
            let out0 = if iter % 5 == 0 {
                &spilled
            } else {
                &Layout::default()
            };
            fast += usize::from(agree(&a, cot, out0));
        }
        assert!(fast > 1_000 && fast < 9_000, "{fast} of 10000");
    }
}
