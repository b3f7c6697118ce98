//! Right and left inverses, nullspace, and the largest common vector of two layouts.

use crate::layout::buf::Buf;

use super::coalesce::{coalesce, guarded, push_coalesced, with_coalesced, write_flat, Modes};
use super::composition::composition;
use crate::error::{arith, Error, Obligation, Result};
use crate::layout::{size_of, Layout, Mode};

/// Mode indices sorted by stride (stable; insertion sort: the mode lists are short), into
/// `idx[..modes.len()]`: index `i` is inserted as it is reached, so no separate fill pass runs.
#[inline(always)]
fn by_stride(modes: &[Mode], idx: &mut [u32]) {
    let v = &mut idx[..modes.len()];
    for i in 0..v.len() {
        let d = modes[i].stride;
        let mut j = i;
        while j > 0 && modes[v[j - 1] as usize].stride > d {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = i as u32;
    }
}

/// `right_inverse(L)`: the largest R such that `L(R(i)) == i` for `i < size(R)`: it follows the
/// chain of strides `1, s·d, …` through L's coalesced modes (CuTe C++: sort by stride, keep the
/// modes whose stride equals the running product).
///
/// Pre: none (a layout whose image does not contain 1 gets `1:0`).
/// Post: `L(R(i)) == i` for all `0 <= i < size(R)`; `R` is compact. Proved for this
/// algorithm (`right_inverse_correct`, `right_inverse_maximal`: `proofs/Inverse.v`,
/// `proofs/InverseMax.v`; bridged in `tests/bridge.rs`).
///
/// ```
/// let l: tessera::Layout = "(2,4,6):(4,1,8)".parse().unwrap();
/// assert_eq!(tessera::algebra::right_inverse(&l).unwrap().to_string(), "(4,2,6):(2,1,8)");
/// ```
pub fn right_inverse(l: &Layout) -> Result<Layout> {
    let mut out = Layout::default();
    right_inverse_into(l, &mut out)?;
    Ok(out)
}

/// [`right_inverse`] writing its result into `out` (whose storage is reused). On error `out` is
/// `1:0`.
///
/// Pre/Post: as [`right_inverse`].
///
/// ```
/// let l: tessera::Layout = "(2,4,6):(4,1,8)".parse().unwrap();
/// let mut out = tessera::Layout::default();
/// tessera::algebra::right_inverse_into(&l, &mut out).unwrap();
/// assert_eq!(out.to_string(), "(4,2,6):(2,1,8)");
/// ```
pub fn right_inverse_into(l: &Layout, out: &mut Layout) -> Result<()> {
    let leaves = l.tree().leaf_slice();
    // At most one result mode per coalesced mode.
    if leaves.len() <= HALF && in_halves(leaves, out, right_inverse_fast) {
        return Ok(());
    }
    right_inverse_exact(l, out)
}

/// Runs an inverse's fast path on `out`'s inline array split in halves: the coalesced modes in
/// the upper half, the result written into the lower one; `true` (with `out` the flat result)
/// when it answered. Pre: `leaves.len() <= HALF`.
#[inline(always)]
fn in_halves(
    leaves: &[Mode],
    out: &mut Layout,
    fast: impl FnOnce(&[Mode], &mut [Mode], &mut [i64], &mut [Mode]) -> Option<usize>,
) -> bool {
    let vals = out.t.vals_mut();
    let arr = vals.inline_array_mut();
    let (lo, hi) = arr.split_at_mut(HALF);
    let mut pp = [0i64; HALF];
    match fast(leaves, hi, &mut pp, lo) {
        Some(n) => {
            vals.set_inline_len(n);
            out.t.set_flat_profile(true);
            true
        }
        None => false,
    }
}

/// Where the fast paths split the output's inline array (16 modes): the coalesced modes above,
/// the result below. [`right_inverse_into`] takes up to `HALF` leaves this way,
/// [`left_inverse_into`] fewer (its result can have one mode more than the coalesced input).
const HALF: usize = 8;

/// [`right_inverse_into`] by CuTe's steps: coalesce, check the size, follow the chain. Runs
/// when [`right_inverse_fast`] declines (more than [`HALF`] leaves, an overflow, an extent < 1),
/// so every error is the one these steps raise.
#[cold]
#[inline(never)]
fn right_inverse_exact(l: &Layout, out: &mut Layout) -> Result<()> {
    guarded(out, |out| {
        with_coalesced(l.tree(), |c| {
            // The size first: every prefix product is then representable.
            size_of(c)?;
            write_flat(out, c.len(), |r| right_inverse_chain(c, r))
        })
    })
}

/// L's coalesced modes, by one forward pass over its leaves `leaves`: into `c` (each as
/// `extent : stride of its first leaf`), with the shape product before each mode in `pp`;
/// returns their number (0 when every extent is 1), or `None` when it declines (an extent < 1,
/// or an overflow in any product below).
///
/// The forward walk merges exactly the neighbours with `s_i·d_i == d_{i+1}` (unit extents
/// dropped), as CuTe's backward walk does, so `c` is L's coalesced form
/// (`coalesce_unique_normal_form`). It computes every `s_i·d_i` and the total size: a superset
/// of the products that coalescing and the size check compute (their others are sub-products of
/// the size, extents being ≥ 1), so when nothing overflows here nothing overflows there.
///
/// With `NONNEG` it also declines when a stride of `c` is negative, i.e. when a leaf of extent
/// ≠ 1 has a negative stride (a mode's later leaves have strides `s·d` of the one before, of
/// the sign of its first leaf's, extents being ≥ 2).
///
/// Pre: `c` and `pp` have room for `leaves.len()` modes.
#[inline(always)]
fn coalesce_forward<const NONNEG: bool>(
    leaves: &[Mode],
    c: &mut [Mode],
    pp: &mut [i64],
) -> Option<usize> {
    let mut rest = leaves.iter();
    // The first leaf of extent ≠ 1 starts the first mode.
    let first = loop {
        match rest.next() {
            Some(m) if m.shape == 1 => continue,
            Some(&m) => break m,
            None => return Some(0),
        }
    };
    if first.shape < 1 || (NONNEG && first.stride < 0) {
        return None;
    }
    // The mode being built (`run`, the shape product before it `run_pp`), the number `k` of
    // modes finished, the shape product `total` so far, and `end`: `s·d` of the last leaf read.
    let mut run = first;
    let mut run_pp = 1i64;
    let mut k = 0usize;
    let mut total = first.shape;
    let mut end = first.shape.checked_mul(first.stride)?;
    for &m in rest {
        if m.shape <= 1 {
            if m.shape == 1 {
                continue;
            }
            return None;
        }
        if NONNEG && m.stride < 0 {
            return None;
        }
        let e = m.shape.checked_mul(m.stride)?;
        if m.stride == end {
            run.shape = run.shape.checked_mul(m.shape)?;
        } else {
            c[k] = run;
            pp[k] = run_pp;
            k += 1;
            run = m;
            run_pp = total;
        }
        total = total.checked_mul(m.shape)?;
        end = e;
    }
    c[k] = run;
    pp[k] = run_pp;
    Some(k + 1)
}

/// The modes of `right_inverse` of the layout with leaves `leaves`, written into `r`; returns
/// their number (at least 1), or `None` when it declines ([`coalesce_forward`] declines; then
/// [`right_inverse_exact`] decides, and raises its own errors). `c` and `pp` are scratch.
///
/// With `c` and `pp` from [`coalesce_forward`], the chain picks, from `curr = 1`, the first mode
/// of `c` whose stride is `curr` and emits `extent : pp`, as [`right_inverse_chain`] does. The
/// result needs no coalescing: the modes of `c` have extent ≥ 2, so `pp` strictly increases and
/// two emitted modes `j`, then `k` could merge only if `k == j + 1` and
/// `d_k == curr == s_j·d_j`, i.e. if `j` and `j + 1` were mergeable in `c`, which is coalesced.
/// `curr` strictly increases (it is multiplied by an extent ≥ 2), so each mode is emitted at most
/// once and `r` needs no more room than `c`.
#[inline(always)]
fn right_inverse_fast(
    leaves: &[Mode],
    c: &mut [Mode],
    pp: &mut [i64],
    r: &mut [Mode],
) -> Option<usize> {
    let k = coalesce_forward::<false>(leaves, c, pp)?;
    let c = &c[..k];
    let mut n = 0usize;
    let mut curr = 1i64;
    while let Some(j) = c.iter().position(|m| m.stride == curr) {
        let m = c[j];
        r[n] = Mode::new(m.shape, pp[j]);
        n += 1;
        curr = m.shape.checked_mul(m.stride)?;
    }
    if n == 0 {
        r[0] = Mode::new(1, 0);
        n = 1;
    }
    Some(n)
}

/// The modes of `right_inverse` from the coalesced modes `c` of L, coalesced, into `r` (room for
/// `c.len()` modes); returns their number.
///
/// CuTe sorts by stride and keeps the modes whose stride is the running product, each as
/// `shape : (product of the shapes before it in c)`. The kept strides strictly increase
/// (coalesced modes have extent ≥ 2, or are the single `1:0`), so the next kept mode is the first
/// (in the stable sorted order, hence in index order) whose stride equals the running product:
/// found by a scan, without sorting; every mode is kept at most once.
#[inline(always)]
fn right_inverse_chain(c: &[Mode], r: &mut [Mode]) -> Result<usize> {
    let mut n = 0usize;
    let mut curr = 1i64;
    loop {
        let mut pp = 1i64;
        let mut next = None;
        for m in c {
            if m.stride == curr {
                next = Some((*m, pp));
                break;
            }
            pp = arith::mul(pp, m.shape)?;
        }
        let Some((m, pp)) = next else {
            return Ok(n);
        };
        push_coalesced(r, &mut n, Mode::new(m.shape, pp))?;
        curr = arith::mul(m.shape, m.stride)?;
    }
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
/// Proved for these steps when the strides do not overlap (`left_inverse_correct`), and an
/// injective L never overlaps, so `R(L(i)) == i` (`left_inverse_of_injective`:
/// `proofs/LeftInverse.v`; bridged in `tests/bridge.rs`).
///
/// ```
/// let l: tessera::Layout = "(8,4):(4,1)".parse().unwrap();
/// assert_eq!(tessera::algebra::left_inverse(&l).unwrap().to_string(), "(4,8):(8,1)");
/// ```
pub fn left_inverse(l: &Layout) -> Result<Layout> {
    let mut out = Layout::default();
    left_inverse_into(l, &mut out)?;
    Ok(out)
}

/// [`left_inverse`] writing its result into `out` (whose storage is reused). On error `out` is
/// `1:0`.
///
/// Pre/Post: as [`left_inverse`].
///
/// ```
/// let l: tessera::Layout = "(8,4):(4,1)".parse().unwrap();
/// let mut out = tessera::Layout::default();
/// tessera::algebra::left_inverse_into(&l, &mut out).unwrap();
/// assert_eq!(out.to_string(), "(4,8):(8,1)");
/// ```
pub fn left_inverse_into(l: &Layout, out: &mut Layout) -> Result<()> {
    let leaves = l.tree().leaf_slice();
    // The result has at most one mode more than the coalesced modes, so at most `HALF`.
    if leaves.len() < HALF && in_halves(leaves, out, left_inverse_fast) {
        return Ok(());
    }
    left_inverse_exact(l, out)
}

/// [`left_inverse_into`] by CuTe's steps (coalesce, check the strides and the size, build the
/// modes, check the postcondition when the strides overlap). Runs when [`left_inverse_fast`]
/// declines, so every error and every enumeration is these steps' own.
#[cold]
#[inline(never)]
fn left_inverse_exact(l: &Layout, out: &mut Layout) -> Result<()> {
    guarded(out, |out| left_inverse_body(l, out))
}

/// The modes of `left_inverse` of the layout with leaves `leaves` (fewer than [`HALF`]), written
/// into `r`; returns their number (at least 1), or `None` when it declines: [`coalesce_forward`]
/// declines (an overflow, an extent < 1, a negative stride), a stride is not divisible by the
/// size so far, a product overflows, or the strides overlap (the postcondition then needs
/// [`check_quasi_inverse`]); [`left_inverse_exact`] then decides. `c` and `pp` are scratch.
///
/// With `c` and `pp` from [`coalesce_forward`] (the same modes and the same prefix products that
/// [`left_inverse_modes`] computes, without its rescans), the steps are those of
/// [`left_inverse_body`] on the same input: the stride check, the loop of
/// [`left_inverse_modes`] with the pairwise test of [`strides_overlap`] folded in (the same
/// consecutive pairs of non-zero strides in the same order), so when none declines the two
/// agree.
#[inline(always)]
fn left_inverse_fast(
    leaves: &[Mode],
    c: &mut [Mode],
    pp: &mut [i64],
    r: &mut [Mode],
) -> Option<usize> {
    let k = coalesce_forward::<true>(leaves, c, pp)?;
    if k == 0 {
        r[0] = Mode::new(1, 0);
        return Some(1);
    }
    let c = &c[..k];
    let mut order = [0u32; HALF];
    by_stride(c, &mut order);
    let order = &order[..k];
    let mut n = 0usize;
    let mut prev = 0i64;
    let mut size = 1i64;
    // `s·d` of the previous mode with a non-zero stride (0 before the first: strides are ≥ 0):
    // the overlap test of `strides_overlap`, in the same loop.
    let mut prev_end = 0i64;
    for &i in order {
        let i = i as usize;
        let m = c[i];
        let d = m.stride;
        if d == 0 {
            continue;
        }
        if prev_end > d {
            return None;
        }
        let (s, rem) = arith::div_rem_pos(d, size);
        if rem != 0 {
            return None;
        }
        push_coalesced(r, &mut n, Mode::new(s, prev)).ok()?;
        prev = pp[i];
        size = size.checked_mul(s)?;
        prev_end = m.shape.checked_mul(d)?;
    }
    let last = order[k - 1] as usize;
    push_coalesced(r, &mut n, Mode::new(c[last].shape, prev)).ok()?;
    if n == 0 {
        r[0] = Mode::new(1, 0);
        n = 1;
    }
    Some(n)
}

fn left_inverse_body(l: &Layout, out: &mut Layout) -> Result<()> {
    with_coalesced(l.tree(), |c| {
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
        // The size first: every prefix product is then representable.
        size_of(c)?;
        if c.len() < 16 {
            let mut order = [0u32; 16];
            by_stride(c, &mut order);
            let order = &order[..c.len()];
            write_flat(out, c.len() + 1, |r| left_inverse_modes(c, order, r))?;
            if strides_overlap(c, order)? {
                return check_quasi_inverse(l, c, out);
            }
            Ok(())
        } else {
            let mut order = vec![0u32; c.len()];
            by_stride(c, &mut order);
            write_flat(out, c.len() + 1, |r| left_inverse_modes(c, &order, r))?;
            if strides_overlap(c, &order)? {
                return check_quasi_inverse(l, c, out);
            }
            Ok(())
        }
    })
}

/// The modes of `left_inverse` from the coalesced modes `c` of L (strides ≥ 0) and their order
/// by stride, coalesced, into `r` (room for `c.len() + 1` modes); returns their number.
///
/// Mode j of the result is `(d_j / size so far) : (product of the shapes before the previous
/// kept mode in c)`; the first has stride 0 and the last the extent of the mode with the largest
/// stride.
#[inline(always)]
fn left_inverse_modes(c: &[Mode], order: &[u32], r: &mut [Mode]) -> Result<usize> {
    let pp = |i: usize| -> Result<i64> { size_of(&c[..i]) };
    let mut n = 0usize;
    let mut prev = 0i64;
    let mut size = 1i64;
    for &i in order {
        let i = i as usize;
        let d = c[i].stride;
        if d == 0 {
            continue;
        }
        let (s, rem) = arith::div_rem_pos(d, size);
        if rem != 0 {
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
        push_coalesced(r, &mut n, Mode::new(s, prev))?;
        prev = pp(i)?;
        size = arith::mul(size, s)?;
    }
    let last = *order.last().expect("coalesce gives at least one mode") as usize;
    push_coalesced(r, &mut n, Mode::new(c[last].shape, prev))?;
    Ok(n)
}

/// The closed form of the left inverse's postcondition: `Ok(false)` when the non-zero strides, in
/// increasing order, never overlap (`s_k·d_k <= d_{k+1}`); then R reads each coordinate back from
/// its own mixed-radix digit of `L(i)`, so `L(R(L(i))) == L(i)` with `R(L(i))` in L's domain
/// holds for all `i`. `Ok(true)` when some pair overlaps ([`check_quasi_inverse`] decides).
#[inline(always)]
fn strides_overlap(c: &[Mode], order: &[u32]) -> Result<bool> {
    let mut overlap = false;
    let mut prev: Option<Mode> = None;
    for &i in order {
        let m = c[i as usize];
        if m.stride == 0 {
            continue;
        }
        if let Some(p) = prev {
            if arith::mul(p.shape, p.stride)? > m.stride {
                overlap = true;
            }
        }
        prev = Some(m);
    }
    Ok(overlap)
}

/// Decides `L(R(L(i))) == L(i)` with `R(L(i))` in L's domain, for all `i`, when the strides
/// overlap ([`strides_overlap`]): the domain is enumerated (bounded by
/// [`super::composition::ENUM_LIMIT`]).
#[cold]
fn check_quasi_inverse(l: &Layout, c: &[Mode], r: &Layout) -> Result<()> {
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
            let witness = match super::complement::collision(c) {
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
    let mut out: Modes = Buf::new();
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
    Ok(Layout::flat_unwrapped(out.iter().copied()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    type Into = fn(&Layout, &mut Layout) -> Result<()>;

    /// The operations with a fast path, each with CuTe's steps.
    const OPS: [(&str, Into, Into); 2] = [
        ("right_inverse", right_inverse_into, right_inverse_exact),
        ("left_inverse", left_inverse_into, left_inverse_exact),
    ];

    /// For each operation: its result (or error) text and that of CuTe's steps, each written
    /// into an output that held another layout.
    fn both(modes: &[Mode]) -> Vec<(&'static str, String, String)> {
        let l = Layout::flat(modes.iter().copied());
        let show = |r: Result<()>, out: &Layout| match r {
            Ok(()) => out.to_string(),
            Err(e) => format!("error {e:?}; out {out}"),
        };
        OPS.iter()
            .map(|&(name, fast, exact)| {
                let mut a: Layout = "((3,5),7):((1,3),15)".parse().unwrap();
                let ra = fast(&l, &mut a);
                let mut b = a.clone();
                let rb = exact(&l, &mut b);
                (name, show(ra, &a), show(rb, &b))
            })
            .collect()
    }

    fn assert_same(modes: &[Mode]) {
        for (name, fast, exact) in both(modes) {
            assert_eq!(fast, exact, "{name} of the leaves {modes:?}");
        }
    }

    /// Every flat layout of up to 4 leaves with extents 1..=3 and strides in
    /// {-2, -1, 0, 1, 2, 3, 4, 6, 9}: the one-pass paths give CuTe's results and errors.
    #[test]
    fn fast_paths_match_exact_small() {
        const S: [i64; 3] = [1, 2, 3];
        const D: [i64; 9] = [-2, -1, 0, 1, 2, 3, 4, 6, 9];
        let modes: Vec<Mode> = S
            .iter()
            .flat_map(|&s| D.iter().map(move |&d| Mode::new(s, d)))
            .collect();
        let mut cur = Vec::new();
        let mut checked = 0usize;
        fn walk(modes: &[Mode], cur: &mut Vec<Mode>, depth: usize, checked: &mut usize) {
            assert_same(cur);
            *checked += 1;
            if depth == 0 {
                return;
            }
            for &m in modes {
                cur.push(m);
                walk(modes, cur, depth - 1, checked);
                cur.pop();
            }
        }
        walk(&modes, &mut cur, 4, &mut checked);
        assert_eq!(checked, 1 + 27 + 27 * 27 + 27 * 27 * 27 + 27 * 27 * 27 * 27);
    }

    /// Extents and strides near the overflow bound, zero and negative extents, overlapping
    /// strides, and more leaves than the fast paths take: they decline, and the results and
    /// errors are CuTe's steps' own.
    #[test]
    fn fast_paths_decline_exactly() {
        let big = 1i64 << 62;
        for modes in [
            vec![Mode::new(2, big)],
            vec![Mode::new(2, 1), Mode::new(2, big)],
            vec![Mode::new(big, 1), Mode::new(4, big)],
            vec![Mode::new(big, 1), Mode::new(2, big)],
            vec![Mode::new(1 << 40, 1), Mode::new(1 << 30, 1 << 40)],
            vec![Mode::new(2, 1), Mode::new(0, 2)],
            vec![Mode::new(-2, 1)],
            vec![Mode::new(4, 1), Mode::new(4, 2)],
            vec![Mode::new(4, 2), Mode::new(3, 1)],
            vec![Mode::new(2, 1); 7],
            vec![Mode::new(2, 1); 8],
            vec![Mode::new(2, 1); 9],
            vec![Mode::new(2, 1); 20],
        ] {
            assert_same(&modes);
        }
    }

    fn arb_mode() -> impl Strategy<Value = Mode> {
        let shape = prop_oneof![1i64..=8, Just(1i64 << 31), Just(1i64 << 62), Just(i64::MAX)];
        let stride = prop_oneof![
            -8i64..=64,
            (0u32..63).prop_map(|e| 1i64 << e),
            Just(i64::MIN),
            Just(i64::MAX),
        ];
        (shape, stride).prop_map(|(s, d)| Mode::new(s, d))
    }

    proptest! {
        /// Random flat layouts of up to 10 leaves (past the fast paths' limits), with huge
        /// values.
        #[test]
        fn fast_paths_match_exact(modes in prop::collection::vec(arb_mode(), 0..=10)) {
            for (name, fast, exact) in both(&modes) {
                prop_assert_eq!(fast, exact, "{}", name);
            }
        }

        /// Compact-ish random layouts (strides products of the extents), where the left inverse
        /// is defined more often.
        #[test]
        fn fast_paths_match_exact_packed(
            shapes in prop::collection::vec(1i64..=6, 1..=7),
            perm in prop::collection::vec(0usize..7, 7),
            gap in 1i64..=3,
        ) {
            // Strides: the column-major products of `shapes` (times `gap` past the first),
            // permuted.
            let mut strides = Vec::new();
            let mut acc = 1i64;
            for (i, &s) in shapes.iter().enumerate() {
                strides.push(acc);
                acc *= s * if i == 0 { gap } else { 1 };
            }
            for (i, &p) in perm.iter().enumerate().take(shapes.len()) {
                strides.swap(i, p % shapes.len());
            }
            let modes: Vec<Mode> =
                shapes.iter().zip(&strides).map(|(&s, &d)| Mode::new(s, d)).collect();
            for (name, fast, exact) in both(&modes) {
                prop_assert_eq!(fast, exact, "{}", name);
            }
        }
    }
}
