//! Composition `R = A ∘ B`, with exact admissibility.
//!
//! The candidate is computed by CuTe C++'s algorithm (all-static semantics, `coalesce_x` on A so
//! that A keeps its extension past its domain). CuTe guards it with a weak stride test; Tessera
//! instead *decides* the defining postcondition exactly:
//!
//! * `compatible(B, R)`: every mode of B is refined by R (the pieces of each mode multiply to its
//!   extent), and
//! * `R(c) == A(B(c))` for every coordinate `c` in B's domain.
//!
//! The decision first tries a closed-form certificate (every piece of B's image lives inside one
//! digit of A's mixed radix and the digits never carry, so A is additive on B's image); if the
//! certificate does not apply it enumerates B's domain (bounded by [`ENUM_LIMIT`]). When CuTe's
//! candidate is wrong, Tessera looks for the unique coarsest layout refining B's shape that
//! computes `A ∘ B`; when none exists the result is [`Error::Inadmissible`] with a witness.

use crate::layout::buf::Buf;

use super::coalesce::{
    coalesce_x_modes_into, guarded, with_coalesced_x, with_coalesced_x_slice, Modes,
};
use super::Tiler;
use crate::error::{arith, Error, Result};
use crate::layout::tree::{Tok, TreeSink, LEAF};
use crate::layout::{size_of, Builder, Layout, Mode, Tree, TreeRef};

/// The largest domain that a decision procedure enumerates.
pub const ENUM_LIMIT: i64 = 1 << 22;

/// One piece of the result: the part of a leaf mode of B that lands in one digit of A.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Piece {
    /// Extent of the piece.
    pub(super) r: i64,
    /// Stride of the piece in the result.
    rho: i64,
    /// Index of the leaf of B that this piece refines.
    pub(super) leaf: usize,
}

pub(super) type Pieces = Buf<Piece, 16>;

/// `composition(A, B)`: the layout `R` with `R(c) = A(B(c))` on B's domain, shaped like B.
///
/// Pre: admissibility — some layout compatible with B computes `A ∘ B` on B's domain (decided
/// exactly; [`Error::Inadmissible`] names the failing coordinate otherwise).
/// Post: `compatible(B, R)` and `R(c) == A(B(c))` for all `c` in B's domain. Where CuTe C++
/// (all static) returns a correct layout, `R` is exactly that layout.
///
/// ```
/// use tessera::{Layout, algebra::composition};
/// let a: Layout = "(6,2):(8,2)".parse().unwrap();
/// let b: Layout = "(4,3):(3,1)".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "((2,2),3):((24,2),8)");
/// // cutlass #3177: CuTe C++ returns a wrong layout here; Tessera refuses.
/// let a: Layout = "(4,6,8):(2,3,5)".parse().unwrap();
/// let b: Layout = "6:3".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap_err().code(), "inadmissible_composition");
/// ```
pub fn composition(a: &Layout, b: &Layout) -> Result<Layout> {
    let mut out = Layout::default();
    composition_into(a, b, &mut out)?;
    Ok(out)
}

/// [`composition`] writing its result into `out` (whose storage is reused; no layout is returned
/// by value). On error `out` is `1:0`.
///
/// Pre/Post: as [`composition`].
///
/// ```
/// use tessera::{Layout, algebra::composition_into};
/// let a: Layout = "(6,2):(8,2)".parse().unwrap();
/// let b: Layout = "(4,3):(3,1)".parse().unwrap();
/// let mut out = Layout::default();
/// composition_into(&a, &b, &mut out).unwrap();
/// assert_eq!(out.to_string(), "((2,2),3):((24,2),8)");
/// ```
pub fn composition_into(a: &Layout, b: &Layout, out: &mut Layout) -> Result<()> {
    guarded(out, |out| {
        out.t.clear();
        compose_append(a, b, &mut out.t)
    })
}

/// Appends `A ∘ B` to `out` (as one subtree): CuTe's candidate is built in place, mirroring B's
/// profile, then decided exactly; only when it is wrong is the appended part replaced by the
/// synthesized layout (or the error returned, `out` then holding the candidate).
pub(crate) fn compose_append(a: &Layout, b: &Layout, out: &mut Tree<Mode>) -> Result<()> {
    let mark = out.lens();
    if with_coalesced_x(a.tree(), |ax| certified_candidate(ax, b.tree(), out))? {
        return Ok(());
    }
    compose_decide(a, b, out, mark)
}

/// [`compose_append`] for an A given by its flat modes `a` (the layout `from_modes(a)`) already
/// in coalesced normal form, as `logical_product` has its complement: no layout is built unless
/// the one-pass certificate does not apply, and `coalesce_x(A)` is A itself (or `2:0` for `1:0`):
/// coalescing a normal form changes nothing (`coalesce_unique_normal_form`), so only a trailing
/// unit mode, which a normal form has only as `[1:0]`, is widened.
///
/// Pre: `a` is non-empty and coalesced (checked in debug builds).
#[inline]
pub(crate) fn compose_coalesced_append(a: &[Mode], b: &Layout, out: &mut Tree<Mode>) -> Result<()> {
    debug_assert!(with_coalesced_x_slice(a, |ax| Ok(ax.len() == a.len()
        && ax
            .iter()
            .zip(a)
            .all(|(x, m)| x == m || (m.shape == 1 && x.shape == 2))))
    .unwrap_or(false));
    let mark = out.lens();
    let unit = [Mode::new(2, 0)];
    let ax: &[Mode] = if a == [Mode::new(1, 0)] { &unit } else { a };
    if certified_candidate(ax, b.tree(), out)? {
        return Ok(());
    }
    compose_decide(&super::coalesce::from_modes(a), b, out, mark)
}

/// `A ∘ (B, C)` appended to `out` for a flat `C` given by its modes (one mode: `C` is that leaf),
/// with `ax` the `coalesce_x` modes of A, as `logical_divide` composes A with its tiler
/// `(B, complement)`: the one-pass certificate runs over B's and C's leaves in turn, sharing its
/// digit loads, exactly as it would over the built tiler. `Ok(false)`: it does not apply (the
/// caller builds the tiler and calls [`compose_decide`] with the mark it took before).
#[inline(always)]
pub(crate) fn certified_pair(
    ax: &[Mode],
    b: TreeRef<'_, Mode>,
    c: &[Mode],
    out: &mut Tree<Mode>,
) -> Result<bool> {
    if ax.len() > CERT_DIGITS || c.len() > CERT_DIGITS {
        return Ok(false);
    }
    // Straight into the tree: a cursor (as `certified_candidate` uses) measured slower here,
    // where the walk runs twice and its registers are all taken; so did `zeroed_load!`'s
    // 4-entry array (1,087 → 1,091 instructions per call on the divide corpus).
    let mut all = [0i64; CERT_DIGITS];
    let load: &mut [i64] = &mut all[..ax.len()];
    /// The tokens of `c.len()` leaves.
    static LEAVES: [Tok; CERT_DIGITS] = [LEAF; CERT_DIGITS];
    out.push_tuple(2);
    if !certify_tree(ax, b.toks(), b.leaf_slice(), load, out)? {
        return Ok(false);
    }
    if c.len() != 1 {
        out.push_tuple(c.len());
    }
    certify_tree(ax, &LEAVES[..c.len()], c, load, out)
}

/// The exact decision of `A ∘ B` when the one-pass certificate did not apply: `out` is truncated
/// back to `mark` and the candidate is built again with its pieces and decided (exactly as the
/// one-pass path would have, had it been able to); a wrong candidate is replaced by the
/// synthesized layout, or the error returned.
#[cold]
#[inline(never)]
pub(crate) fn compose_decide(
    a: &Layout,
    b: &Layout,
    out: &mut Tree<Mode>,
    mark: (usize, usize),
) -> Result<()> {
    let mut ax = Modes::new();
    coalesce_x_modes_into(a.tree(), &mut ax)?;
    out.truncate(mark);
    let leaves: &[Mode] = b.tree().leaf_slice();
    let mut pieces = Pieces::new();
    build_candidate(&ax, b.tree(), out, &mut pieces)?;
    match check(&ax, leaves, &pieces)? {
        None => Ok(()),
        Some(witness) => match synthesize(&ax, b, leaves)? {
            Some(r) => {
                out.truncate(mark);
                out.push_tree(r.tree());
                Ok(())
            }
            None => Err(super::inadmissible(
                a,
                b,
                describe(
                    &witness,
                    &Layout::from_tree(out.since(mark).to_owned()),
                    leaves,
                ),
            )),
        },
    }
}

/// The most digits of A the one-pass certificate handles (more: the full decision runs).
const CERT_DIGITS: usize = 16;

/// The common case of [`compose_append`] in one pass: appends CuTe's candidate to `out` while
/// checking, piece by piece, the compatibility of each leaf of B and the closed-form certificate
/// ([`certificate`], the same test on the same pieces in the same order). `Ok(true)`: the
/// candidate is appended and certified (the decision [`check`] would reach). `Ok(false)`: the
/// certificate does not apply, or one of its intermediate products overflows, or A has more
/// than 16 digits; `out` then holds a partial candidate and the caller decides in full. An
/// error is an error of the candidate's construction itself, which the full path would return
/// too.
#[inline]
fn certified_candidate(ax: &[Mode], b: TreeRef<'_, Mode>, out: &mut Tree<Mode>) -> Result<bool> {
    if ax.len() > CERT_DIGITS {
        return Ok(false);
    }
    // Through a cursor on `out`'s inline arrays; through the tree itself where the candidate
    // does not fit them (the certificate's answer does not depend on where the candidate goes).
    if let Some(mut cur) = out.cursor() {
        zeroed_load!(load, ax.len());
        let ok = certify_tree(ax, b.toks(), b.leaf_slice(), load, &mut cur)?;
        if !(ok && cur.full()) {
            if ok {
                cur.commit();
            }
            return Ok(ok);
        }
    }
    certified_candidate_tree(ax, b, out)
}

/// [`certified_candidate`] into the tree itself (a candidate too large for the inline arrays).
#[cold]
#[inline(never)]
fn certified_candidate_tree(
    ax: &[Mode],
    b: TreeRef<'_, Mode>,
    out: &mut Tree<Mode>,
) -> Result<bool> {
    zeroed_load!(load, ax.len());
    certify_tree(ax, b.toks(), b.leaf_slice(), load, out)
}

/// Binds `$load` to the certificate's digit loads for `$n <= CERT_DIGITS` digits, all zero: in
/// a 4-entry array when A has at most 4 digits (most layouts; two stores to zero), else in one
/// of `CERT_DIGITS`.
macro_rules! zeroed_load {
    ($load:ident, $n:expr) => {
        let n: usize = $n;
        let mut few = [0i64; 4];
        let mut all: [i64; CERT_DIGITS];
        let $load: &mut [i64] = if n <= 4 {
            &mut few[..n]
        } else {
            all = [0; CERT_DIGITS];
            &mut all[..n]
        };
    };
}
use zeroed_load;

/// The walk of [`certified_candidate`] over a tree given by its tokens and leaves, with the
/// digit loads `load` carried in (and out), so that a tiler's modes can be certified in turn.
/// `load[k]` is the largest sum of the pieces' contributions to digit k of A.
///
/// Pre: `load.len() == ax.len()`.
#[inline(always)]
fn certify_tree<O: TreeSink<Mode>>(
    ax: &[Mode],
    toks: &[Tok],
    leaves: &[Mode],
    load: &mut [i64],
    out: &mut O,
) -> Result<bool> {
    let Some((&last, init)) = ax.split_last() else {
        return Ok(false);
    };
    let mut k = 0usize;
    for &tok in toks {
        if tok != LEAF {
            out.push_tuple(tok as usize - 1);
            continue;
        }
        let Some(&m) = leaves.get(k) else { break };
        k += 1;
        let (s, d) = (m.shape, m.stride);
        if d == 0 {
            // One piece `s:0` with B-stride 0: certified (`beta == 0`, `rho == 0`).
            out.push_leaf(Mode::new(s, 0));
            continue;
        }
        if d < 0 {
            return Ok(false);
        }
        if init.is_empty() {
            // A is one digit: one piece `s:(d·a)`, B-stride d > 0, place 1. `certify_piece`
            // then only adds `(s-1)·d` to the digit's load (its digit is 0, `u = d`, there is no
            // extent bound on the last digit, and `u·a == rho` holds), so the piece is certified
            // unless that overflows: the same test, inline.
            let rho = arith::mul(d, last.stride)?;
            out.push_leaf(Mode::new(s, rho));
            if s != 1 {
                match (s - 1).checked_mul(d).and_then(|r| load[0].checked_add(r)) {
                    Some(l) => load[0] = l,
                    None => return Ok(false),
                }
            }
            continue;
        }
        if s == 1 {
            // A unit leaf: no piece in the loop below (its rest extent is 1), only the tail
            // `1 : R·a` with R the rest stride after the ceiling divisions (which stays 1 once it
            // is 1), certified (`r == 1`), a group of one leaf: that leaf, written directly.
            let mut r = d;
            for am in init {
                if r == 1 {
                    break;
                }
                r = ceil_div_pos(r, am.shape);
            }
            out.push_leaf(Mode::new(1, arith::mul(r, last.stride)?));
            continue;
        }
        let header = out.lens();
        out.push_tuple(0);
        let mut count = 0usize;
        // prod: the product of this leaf's pieces so far (its next piece's place in B).
        let mut prod = 1i64;
        // CuTe's `composition_impl` (as in `for_each_piece`) for d > 0, so every stride below
        // stays positive; each piece is certified as it is made.
        let mut rest_shape = s;
        let mut rest_stride = d;
        for am in init {
            let next_shape = ceil_div_pos(am.shape, rest_stride);
            let next_stride = ceil_div_pos(rest_stride, am.shape);
            if next_shape != 1 && rest_shape != 1 {
                let r = next_shape.min(rest_shape);
                let rho = arith::mul(rest_stride, am.stride)?;
                out.push_leaf(Mode::new(r, rho));
                count += 1;
                let (Some(beta), Some(next)) = (d.checked_mul(prod), prod.checked_mul(r)) else {
                    return Ok(false);
                };
                prod = next;
                if !certify_piece(ax, load, r, rho, beta) {
                    return Ok(false);
                }
                rest_shape = arith::div_rem_pos(rest_shape, r).0;
                if rest_shape == 1 && next_stride.checked_mul(last.stride).is_some() {
                    // The leaf is complete: later modes only shrink the (positive) rest stride,
                    // so the tail below cannot overflow, and it is not a piece (count > 0).
                    rest_stride = next_stride;
                    break;
                }
            }
            rest_stride = next_stride;
        }
        let tail = arith::mul(rest_stride, last.stride)?;
        if count == 0 || rest_shape != 1 {
            out.push_leaf(Mode::new(rest_shape, tail));
            count += 1;
            let (Some(beta), Some(next)) = (d.checked_mul(prod), prod.checked_mul(rest_shape))
            else {
                return Ok(false);
            };
            prod = next;
            if !certify_piece(ax, load, rest_shape, tail, beta) {
                return Ok(false);
            }
        }
        if prod != s {
            return Ok(false);
        }
        out.finish_group(header, count);
    }
    Ok(true)
}

/// `ceil(a / b)` for `a, b > 0`, without a division in the common cases `b == 1` and `a <= b`.
#[inline(always)]
fn ceil_div_pos(a: i64, b: i64) -> i64 {
    if b == 1 {
        a
    } else if a <= b {
        1
    } else {
        arith::ceil_div(a, b)
    }
}

/// One piece of [`certificate`]: the piece `r:rho` with B-stride `beta` lies in one digit of A
/// and keeps it below its extent (accumulated in `load`); `false` when it does not, or when an
/// intermediate product overflows (where [`certificate`] would return the overflow).
#[inline(always)]
fn certify_piece(ax: &[Mode], load: &mut [i64], r: i64, rho: i64, beta: i64) -> bool {
    if r == 1 {
        return true;
    }
    if beta == 0 {
        return rho == 0;
    }
    if beta < 0 {
        return false;
    }
    let n = ax.len();
    let mut place = 1i64;
    let mut digit = n;
    for (k, m) in ax.iter().enumerate() {
        if k + 1 == n {
            digit = k;
            break;
        }
        let Some(next) = place.checked_mul(m.shape) else {
            return false;
        };
        if beta < next {
            digit = k;
            break;
        }
        place = next;
    }
    if digit == n {
        return false;
    }
    let (u, rem) = arith::div_rem_pos(beta, place);
    if rem != 0 {
        return false;
    }
    let Some(reach) = (r - 1).checked_mul(u) else {
        return false;
    };
    let Some(l) = load[digit].checked_add(reach) else {
        return false;
    };
    load[digit] = l;
    if digit + 1 < n && l > ax[digit].shape - 1 {
        return false;
    }
    u.checked_mul(ax[digit].stride) == Some(rho)
}

/// `composition(A, tiler)` for every kind of tiler: a layout, an integer `n` (= `n:1`), `_`
/// (A itself), or a tuple applied mode by mode (modes of A past the tiler are dropped, as in
/// CuTe C++).
///
/// Pre: a tuple tiler has rank ≤ rank(A); each part is admissible.
/// Post: mode i of R is `composition(mode i of A, tiler_i)`.
///
/// ```
/// use tessera::{Layout, algebra::{composition_tiler, Tiler}};
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("3:4".parse().unwrap()), Tiler::Layout("8:2".parse().unwrap())]);
/// assert_eq!(composition_tiler(&a, &t).unwrap().to_string(), "(3,(2,4)):(236,(26,1))");
/// ```
pub fn composition_tiler(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    match tiler {
        Tiler::Layout(b) => composition(a, b),
        Tiler::Int(n) => composition(a, &Layout::mode(*n, 1)?),
        Tiler::Under => Ok(a.clone()),
        Tiler::Tuple(ts) => {
            if ts.len() > a.rank() {
                return Err(Error::TooManyModes {
                    op: "composition",
                    tiler: ts.len(),
                    layout: a.rank(),
                });
            }
            let mut out = Builder::new();
            out.open();
            for (m, t) in a.modes().zip(ts) {
                out.push(composition_tiler(&m, t)?.tree());
            }
            out.close();
            Ok(Layout::from_tree(out.finish()))
        }
    }
}

/// CuTe's `composition_impl` without its weak checks, appended to `out` in one pass over B's
/// profile (a leaf of B becomes its pieces: one leaf, or a tuple of them; tuple tokens are copied,
/// since replacing a leaf by a tuple keeps every parent's number of children); records the pieces.
pub(super) fn build_candidate(
    ax: &[Mode],
    b: TreeRef<'_, Mode>,
    out: &mut Tree<Mode>,
    pieces: &mut Pieces,
) -> Result<()> {
    let leaves = b.leaf_slice();
    let mut k = 0usize;
    for &tok in b.toks() {
        if tok != LEAF {
            out.push_tuple(tok as usize - 1);
            continue;
        }
        let Some(&m) = leaves.get(k) else { break };
        let start = pieces.len();
        leaf_pieces(ax, m, k, pieces)?;
        k += 1;
        let mine = &pieces[start..];
        if mine.len() != 1 {
            out.push_tuple(mine.len());
        }
        for p in mine {
            out.push_leaf(Mode::new(p.r, p.rho));
        }
    }
    Ok(())
}

/// The pieces of leaf `k` (`s:d`) of B in CuTe's candidate, appended to `pieces`.
#[inline]
fn leaf_pieces(ax: &[Mode], m: Mode, k: usize, pieces: &mut Pieces) -> Result<()> {
    for_each_piece(ax, m, |r, rho| {
        pieces.push(Piece { r, rho, leaf: k });
        true
    })?;
    Ok(())
}

/// CuTe's `composition_impl` for one leaf `s:d` of B against A's `coalesce_x` modes `ax`: calls
/// `f(r, rho)` for each piece in order, and stops early (returning `Ok(false)`) when `f` returns
/// `false`. An error is an overflow in the candidate's own arithmetic.
#[inline]
fn for_each_piece(ax: &[Mode], m: Mode, mut f: impl FnMut(i64, i64) -> bool) -> Result<bool> {
    let (s, d) = (m.shape, m.stride);
    if d == 0 {
        return Ok(f(s, 0));
    }
    let Some((&last, init)) = ax.split_last() else {
        return Ok(true);
    };
    if init.is_empty() {
        let rho = arith::mul(d, last.stride)?;
        return Ok(f(s, rho));
    }
    let mut emitted = false;
    let mut rest_shape = s;
    let mut rest_stride = d;
    for am in init {
        let curr_shape = am.shape;
        let abs_rest = arith::abs(rest_stride)?;
        let next_shape = arith::ceil_div(curr_shape, abs_rest);
        let next_stride = arith::ceil_div(abs_rest, curr_shape) * rest_stride.signum();
        if next_shape == 1 || rest_shape == 1 {
            rest_stride = next_stride;
        } else {
            let new_shape = next_shape.min(rest_shape);
            if !f(new_shape, arith::mul(rest_stride, am.stride)?) {
                return Ok(false);
            }
            emitted = true;
            rest_shape /= new_shape;
            rest_stride = next_stride;
        }
    }
    let tail = arith::mul(rest_stride, last.stride)?;
    if !emitted || rest_shape != 1 {
        return Ok(f(rest_shape, tail));
    }
    Ok(true)
}

/// A point where a candidate disagrees with `A ∘ B`.
#[derive(Debug)]
pub(super) enum Witness {
    /// The pieces of a leaf of B do not multiply to its extent.
    Incompatible { leaf: usize, product: i64 },
    /// `A(B(c)) != R(c)` at B's flat coordinate `c`.
    Point {
        coord: Vec<i64>,
        b: i64,
        ab: i64,
        r: i64,
    },
}

/// Decides whether `pieces` compute `A ∘ B` (A given by its `coalesce_x` modes `ax`). `None`
/// means yes.
fn check(ax: &[Mode], leaves: &[Mode], pieces: &[Piece]) -> Result<Option<Witness>> {
    // Compatibility: the pieces of each leaf multiply to its extent. Piece strides in B's index
    // space follow: beta_j = d * (product of the earlier pieces of the same leaf).
    let mut betas: Buf<i64, 16> = Buf::new();
    let mut prod: Buf<i64, 16> = Buf::from_elem(1, leaves.len());
    for p in pieces {
        let beta = arith::mul(leaves[p.leaf].stride, prod[p.leaf])?;
        betas.push(beta);
        prod[p.leaf] = arith::mul(prod[p.leaf], p.r)?;
    }
    for (k, l) in leaves.iter().enumerate() {
        if prod[k] != l.shape {
            return Ok(Some(Witness::Incompatible {
                leaf: k,
                product: prod[k],
            }));
        }
    }
    if certificate(ax, pieces, &betas)? {
        return Ok(None);
    }
    enumerate(ax, leaves, pieces, &betas)
}

/// Closed-form sufficient condition: every piece with extent ≥ 2 lies inside a single digit of
/// A's mixed radix (its B-stride is a multiple of the digit's place value) and, digit by digit,
/// the largest sum of the pieces' contributions stays below the digit's extent (the last digit
/// is unbounded). Then `A(Σ x_j β_j) = Σ x_j A(β_j)` with no carry, and each piece's stride
/// must equal `A(β_j)`. Proved sound, test for test, as `certificate_sound` in
/// `proofs/Composition.v`; `tests/bridge.rs` runs its extraction on Rust's certified cases.
pub(super) fn certificate(ax: &[Mode], pieces: &[Piece], betas: &[i64]) -> Result<bool> {
    let n = ax.len();
    let mut load: Buf<i64, 16> = Buf::from_elem(0, n);
    for (p, &beta) in pieces.iter().zip(betas) {
        if p.r == 1 {
            continue;
        }
        if beta == 0 {
            if p.rho != 0 {
                return Ok(false);
            }
            continue;
        }
        if beta < 0 {
            return Ok(false);
        }
        // Find the digit whose place value divides beta and is the largest not above it.
        let mut place = 1i64;
        let mut digit = None;
        for (k, m) in ax.iter().enumerate() {
            if k + 1 == n || beta < arith::mul(place, m.shape)? {
                digit = Some((k, place));
                break;
            }
            place = arith::mul(place, m.shape)?;
        }
        let Some((k, place)) = digit else {
            return Ok(false);
        };
        if beta % place != 0 {
            return Ok(false);
        }
        let u = beta / place;
        let reach = arith::mul(p.r - 1, u)?;
        load[k] = arith::add(load[k], reach)?;
        if k + 1 < n && load[k] > ax[k].shape - 1 {
            return Ok(false);
        }
        if arith::mul(u, ax[k].stride)? != p.rho {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `A(i)` for A given by flat modes (colexicographic, last mode unbounded, odd for i < 0).
pub(crate) fn eval_modes(ax: &[Mode], i: i64) -> Result<i64> {
    if i < 0 {
        return Ok(-eval_modes(ax, -i)?);
    }
    let mut rest = i;
    let mut acc = 0i64;
    let n = ax.len();
    for (k, m) in ax.iter().enumerate() {
        let digit = if k + 1 == n {
            rest
        } else {
            let dgt = rest % m.shape;
            rest /= m.shape;
            dgt
        };
        acc = arith::add(acc, arith::mul(digit, m.stride)?)?;
    }
    Ok(acc)
}

/// Exact check by enumeration of B's domain.
pub(super) fn enumerate(
    ax: &[Mode],
    leaves: &[Mode],
    pieces: &[Piece],
    betas: &[i64],
) -> Result<Option<Witness>> {
    let total = pieces
        .iter()
        .try_fold(1i64, |acc, p| arith::mul(acc, p.r))?;
    if total > ENUM_LIMIT {
        return Err(Error::TooLarge {
            op: "composition",
            what: "the domain of B (no closed-form certificate applies)".into(),
            size: total,
            bound: ENUM_LIMIT,
        });
    }
    let mut x: Buf<i64, 16> = Buf::from_elem(0, pieces.len());
    let (mut bv, mut rv) = (0i64, 0i64);
    loop {
        let ab = eval_modes(ax, bv)?;
        if ab != rv {
            return Ok(Some(Witness::Point {
                coord: flat_coord(leaves, pieces, &x),
                b: bv,
                ab,
                r: rv,
            }));
        }
        // Odometer step.
        let mut j = 0;
        loop {
            if j == pieces.len() {
                return Ok(None);
            }
            if x[j] + 1 < pieces[j].r {
                x[j] += 1;
                bv = arith::add(bv, betas[j])?;
                rv = arith::add(rv, pieces[j].rho)?;
                break;
            }
            bv = arith::sub(bv, arith::mul(x[j], betas[j])?)?;
            rv = arith::sub(rv, arith::mul(x[j], pieces[j].rho)?)?;
            x[j] = 0;
            j += 1;
        }
    }
}

/// B's flat coordinate for the piece digits `x`.
fn flat_coord(leaves: &[Mode], pieces: &[Piece], x: &[i64]) -> Vec<i64> {
    let mut c = vec![0i64; leaves.len()];
    let mut place = vec![1i64; leaves.len()];
    for (p, &xi) in pieces.iter().zip(x) {
        c[p.leaf] += xi * place[p.leaf];
        place[p.leaf] *= p.r;
    }
    c
}

/// The coarsest layout refining B's shape that computes `A ∘ B`, if one exists: along each leaf
/// `s:d` of B, `t ↦ A(t·d)` must be a layout function whose pieces multiply to `s`.
pub(super) fn synthesize(ax: &[Mode], b: &Layout, leaves: &[Mode]) -> Result<Option<Layout>> {
    let size = size_of(leaves)?;
    if size > ENUM_LIMIT {
        return Ok(None);
    }
    let mut pieces = Pieces::new();
    for (k, m) in leaves.iter().enumerate() {
        let mut remaining = m.shape;
        let mut q = 1i64;
        if remaining == 1 {
            pieces.push(Piece {
                r: 1,
                rho: 0,
                leaf: k,
            });
            continue;
        }
        while remaining > 1 {
            let unit = arith::mul(q, m.stride)?;
            let rho = eval_modes(ax, unit)?;
            let mut r = 1i64;
            while r < remaining {
                let at = eval_modes(ax, arith::mul(unit, r)?)?;
                if at != arith::mul(rho, r)? {
                    break;
                }
                r += 1;
            }
            if remaining % r != 0 {
                return Ok(None);
            }
            pieces.push(Piece { r, rho, leaf: k });
            q = arith::mul(q, r)?;
            remaining /= r;
        }
    }
    let mut betas: Buf<i64, 16> = Buf::new();
    let mut prod: Buf<i64, 16> = Buf::from_elem(1, leaves.len());
    for p in &pieces {
        betas.push(arith::mul(leaves[p.leaf].stride, prod[p.leaf])?);
        prod[p.leaf] *= p.r;
    }
    if enumerate(ax, leaves, &pieces, &betas)?.is_some() {
        return Ok(None);
    }
    // Rebuild B's tree with each leaf replaced by its pieces.
    let mut builder = Builder::new();
    let mut next = 0usize;
    rebuild(b.tree(), &pieces, &mut next, &mut 0, &mut builder);
    Ok(Some(Layout::from_tree(builder.finish())))
}

fn rebuild(
    t: TreeRef<'_, Mode>,
    pieces: &[Piece],
    next: &mut usize,
    leaf: &mut usize,
    out: &mut Builder<Mode>,
) {
    if t.is_leaf() {
        let start = *next;
        while *next < pieces.len() && pieces[*next].leaf == *leaf {
            *next += 1;
        }
        let mine = &pieces[start..*next];
        if mine.len() == 1 {
            out.leaf(Mode::new(mine[0].r, mine[0].rho));
        } else {
            out.open();
            for p in mine {
                out.leaf(Mode::new(p.r, p.rho));
            }
            out.close();
        }
        *leaf += 1;
        return;
    }
    out.open();
    for c in t.modes() {
        rebuild(c, pieces, next, leaf, out);
    }
    out.close();
}

fn describe(w: &Witness, candidate: &Layout, leaves: &[Mode]) -> String {
    match w {
        Witness::Incompatible { leaf, product } => format!(
            "mode {leaf} of B has extent {} but CuTe's algorithm splits it into pieces of total \
             size {product} (shape divisibility fails), and no layout refining B's shape equals A o B",
            leaves[*leaf].shape
        ),
        Witness::Point { coord, b, ab, r } => {
            let c = coord
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",");
            format!(
                "at B's coordinate ({c}) B = {b} and A(B) = {ab}, but CuTe's candidate {candidate} \
                 gives {r}; no layout refining B's shape equals A o B"
            )
        }
    }
}
