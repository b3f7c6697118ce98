//! Coalesce and filter: the normalization pass of Coalescence as normalization (ARCHITECTURE.md, glossary).

use crate::layout::buf::Buf;

use crate::error::{arith, Error, Result};
use crate::layout::{Builder, IntTuple, Layout, Mode, TreeRef};

/// Flat modes without heap allocation for rank ≤ 16.
pub(crate) type Modes = Buf<Mode, 16>;

/// CuTe's backward coalescing walk over the flat modes `src` with its last mode replaced by
/// `last`, written into `out` (cleared first), front first; an all-unit result is `[1:0]`. `map`
/// is applied to every mode as it is read. Off the hot path (more than 16 modes, or a replaced
/// last mode); [`coalesce_slice`] runs the forward walk on the common case.
///
/// Relies on Coalescence as normalization, `packed_merge_sound`: merging `s0:d0` into a front `s1:(s0·d0)` preserves
/// the function on the domain. Transcribed as `bw_coalesce` in `proofs/CoalesceImpl.v`
/// (`bw_coalesce_reachable`, `bw_coalesce_irreducible`): finished modes are pushed back to front
/// and reversed.
pub(crate) fn coalesce_from(
    src: &[Mode],
    last: Mode,
    map: impl Fn(Mode) -> Mode,
    out: &mut Modes,
) -> Result<()> {
    out.clear();
    let mut front = map(last);
    for &m in src[..src.len().saturating_sub(1)].iter().rev() {
        let m = map(m);
        if m.shape == 1 {
            continue;
        }
        if out.is_empty() && front.shape == 1 {
            front = m;
        } else if arith::mul(m.shape, m.stride)? == front.stride {
            front.shape = arith::mul(m.shape, front.shape)?;
            front.stride = m.stride;
        } else {
            out.push(front);
            front = m;
        }
    }
    if out.is_empty() && front.shape == 1 {
        front = Mode::new(1, 0);
    }
    out.push(front);
    out.reverse();
    Ok(())
}

/// The coalesced modes of the flat modes `src` (each read through `map`: filter maps stride-0
/// modes to `1:0`), written into `out` (cleared first), front first; an all-unit result is
/// `[1:0]`. Up to 16 modes the forward walk [`fw_coalesce_array`] runs on `out`'s inline array;
/// past that, the backward walk [`coalesce_from`]. Both give the unique normal form.
#[inline(always)]
pub(crate) fn coalesce_slice(
    src: &[Mode],
    map: impl Fn(Mode) -> Mode,
    out: &mut Modes,
) -> Result<()> {
    match src.last() {
        Some(&last) if src.len() > MODES_INLINE => coalesce_from(src, last, map, out),
        _ => {
            let arr = out.inline_array_mut();
            match fw_coalesce_array(src, &map, arr) {
                Some(k) => {
                    out.set_inline_len(k);
                    Ok(())
                }
                None => coalesce_from(src, src[src.len() - 1], map, out),
            }
        }
    }
}

/// Inline capacity of [`Modes`].
const MODES_INLINE: usize = 16;

/// CuTe's backward walk (`bw_coalesce` of `proofs/CoalesceImpl.v`) over `src` with its last mode
/// replaced by `last`, for `src.len() <= N`: the front is the last mode of extent ≠ 1; each
/// earlier mode is skipped (extent 1), merged into the front (packed onto it), or the front is
/// finished. Finished modes are stored from the back of `arr` (the first one finished, the
/// result's last mode, at `arr[N-1]`), so that they end in order with no reversal: returns `s`
/// with the result in `arr[s..]`. Pre: `src.len() <= N`, `N >= 1`.
#[inline(always)]
fn bw_coalesce_tail<const N: usize>(
    src: &[Mode],
    last: Mode,
    arr: &mut [Mode; N],
) -> Result<usize> {
    let body = src.get(..src.len().saturating_sub(1)).unwrap_or(&[]);
    let mut rest = body.iter().rev();
    let mut front = last;
    while front.shape == 1 {
        match rest.next() {
            Some(&m) => front = m,
            None => {
                arr[N - 1] = Mode::new(1, 0);
                return Ok(N - 1);
            }
        }
    }
    let mut s = N;
    for &m in rest {
        if m.shape == 1 {
            continue;
        }
        if arith::mul(m.shape, m.stride)? == front.stride {
            front.shape = arith::mul(m.shape, front.shape)?;
            front.stride = m.stride;
        } else {
            s -= 1;
            arr[s] = front;
            front = m;
        }
    }
    s -= 1;
    arr[s] = front;
    Ok(s)
}

/// The coalesced modes of `src` by a forward walk, written into `arr` in order (no reversal);
/// returns their number. Each non-unit mode either packs onto the current last mode
/// (`d·s` of that mode equal to its stride: merged) or is appended; no mode left gives `[1:0]`.
///
/// Pre: `src.len() <= N`, `N >= 1`. Post: the unique normal form of Coalescence as normalization, as the backward
/// walk gives it: this is `fw_coalesce` of `proofs/CoalesceForward.v`
/// (`fw_coalesce_is_normal_form`, `fw_coalesce_unit`). `None` when a product overflows (the
/// caller then runs the backward walk, which returns the overflow error: the merge test of two
/// neighbours compares the same product, `d·s` of the left one, so both overflow on the same
/// inputs). Returning no error keeps this path free of calls.
#[inline(always)]
fn fw_coalesce_array<const N: usize>(
    src: &[Mode],
    map: impl Fn(Mode) -> Mode,
    arr: &mut [Mode; N],
) -> Option<usize> {
    // The first mode of extent ≠ 1 starts the walk (none: `[1:0]`).
    let mut rest = src.iter();
    let mut cur = loop {
        match rest.next() {
            Some(&m) => {
                let m = map(m);
                if m.shape != 1 {
                    break m;
                }
            }
            None => {
                arr[0] = Mode::new(1, 0);
                return Some(1);
            }
        }
    };
    let mut k = 0usize;
    for &m in rest {
        let m = map(m);
        if m.shape == 1 {
            continue;
        }
        if cur.shape.checked_mul(cur.stride)? == m.stride {
            cur.shape = cur.shape.checked_mul(m.shape)?;
        } else {
            arr[k] = cur;
            k += 1;
            cur = m;
        }
    }
    arr[k] = cur;
    Some(k + 1)
}

/// Runs `f` on the coalesced flat modes of `t`: held in a stack array when `t` has at most 16
/// leaves (no [`Buf`] bookkeeping), in a [`Modes`] otherwise.
#[inline(always)]
pub(crate) fn with_coalesced<R>(
    t: TreeRef<'_, Mode>,
    f: impl FnOnce(&[Mode]) -> Result<R>,
) -> Result<R> {
    with_coalesced_last(t.leaf_slice(), |m| m, f)
}

/// [`with_coalesced`] for CuTe's `coalesce_x` ([`coalesce_x_modes_into`]: a trailing size-1 mode
/// counts as size 2, so the function is kept on every integer).
#[inline(always)]
pub(crate) fn with_coalesced_x<R>(
    t: TreeRef<'_, Mode>,
    f: impl FnOnce(&[Mode]) -> Result<R>,
) -> Result<R> {
    with_coalesced_x_slice(t.leaf_slice(), f)
}

/// [`with_coalesced_x`] for a layout given by its leaves (a flat layout's modes).
#[inline(always)]
pub(crate) fn with_coalesced_x_slice<R>(
    leaves: &[Mode],
    f: impl FnOnce(&[Mode]) -> Result<R>,
) -> Result<R> {
    with_coalesced_last(
        leaves,
        |m| {
            if m.shape == 1 {
                Mode::new(2, m.stride)
            } else {
                m
            }
        },
        f,
    )
}

/// [`with_coalesced`] (of the layout with leaves `leaves`) with the last leaf replaced by
/// `last_of(last leaf)`.
#[inline(always)]
fn with_coalesced_last<R>(
    leaves: &[Mode],
    last_of: impl Fn(Mode) -> Mode,
    f: impl FnOnce(&[Mode]) -> Result<R>,
) -> Result<R> {
    let Some(&last) = leaves.last() else {
        return f(&[Mode::new(1, 0)]);
    };
    let last = last_of(last);
    // Scratch sized to the input, so that only what can be used is zeroed (safe Rust
    // initialises a whole array): `SMALL` modes cover most layouts.
    let mut small: [Mode; SMALL];
    let mut inline: [Mode; MODES_INLINE];
    let mut c: Modes;
    let modes: &[Mode] = if leaves.len() <= SMALL {
        small = [Mode::default(); SMALL];
        let s = bw_coalesce_tail(leaves, last, &mut small)?;
        &small[s..]
    } else if leaves.len() <= MODES_INLINE {
        inline = [Mode::default(); MODES_INLINE];
        let s = bw_coalesce_tail(leaves, last, &mut inline)?;
        &inline[s..]
    } else {
        c = Modes::new();
        coalesce_from(leaves, last, |m| m, &mut c)?;
        &c
    };
    f(modes)
}

/// The size of the smaller scratch array of [`with_coalesced`].
const SMALL: usize = 6;

/// Appends `m` to the modes `arr[..*n]`, coalescing as it goes: a unit extent is dropped and a
/// mode packed onto the last one (`s·d` equal to its stride) merges into it. Appending the modes
/// of a flat layout one by one (then `1:0` if none is left) gives its coalesced form: the merge
/// test between two neighbours does not depend on earlier merges, so this forward walk reaches
/// the backward walk's result, the unique normal form (`coalesce_unique_normal_form`,
/// `proofs/Confluence.v`, strides ≥ 0), and overflows exactly when it does.
///
/// Pre: `arr` has room for one more mode.
#[inline(always)]
pub(crate) fn push_coalesced(arr: &mut [Mode], n: &mut usize, m: Mode) -> Result<()> {
    if m.shape == 1 {
        return Ok(());
    }
    if let Some(p) = n.checked_sub(1).and_then(|i| arr.get_mut(i)) {
        if arith::mul(p.shape, p.stride)? == m.stride {
            p.shape = arith::mul(p.shape, m.shape)?;
            return Ok(());
        }
    }
    arr[*n] = m;
    *n += 1;
    Ok(())
}

/// Writes the modes built by `build` (into a slice of `cap` modes, returning how many it wrote)
/// as the flat layout `out`: straight into `out`'s inline storage when `cap <= 16`, through a
/// heap buffer otherwise. An empty result is `1:0`.
#[inline(always)]
pub(crate) fn write_flat(
    out: &mut Layout,
    cap: usize,
    build: impl FnOnce(&mut [Mode]) -> Result<usize>,
) -> Result<()> {
    let vals = out.t.vals_mut();
    if cap <= MODES_INLINE {
        let arr = vals.inline_array_mut();
        let mut n = build(arr)?;
        if n == 0 {
            arr[0] = Mode::new(1, 0);
            n = 1;
        }
        vals.set_inline_len(n);
    } else {
        let mut v = vec![Mode::default(); cap];
        let n = build(&mut v)?;
        vals.clear();
        if n == 0 {
            vals.push(Mode::new(1, 0));
        } else {
            vals.extend_from_slice(&v[..n]);
        }
    }
    out.t.set_flat_profile(true);
    Ok(())
}

/// [`coalesce_from`] returning the modes (for paths off the hot path).
pub(crate) fn bw_coalesce(init: &[Mode], last: Mode) -> Result<Modes> {
    let mut out = Modes::new();
    let mut src = Modes::from_slice(init);
    src.push(last);
    coalesce_from(&src, last, |m| m, &mut out)?;
    Ok(out)
}

/// Writes the coalesced modes of `t` into `out` (cleared first).
#[inline(always)]
pub(crate) fn coalesce_modes_into(t: TreeRef<'_, Mode>, out: &mut Modes) -> Result<()> {
    coalesce_slice(t.leaf_slice(), |m| m, out)
}

/// Runs an `_into` operation's body; on error `out` is reset to `1:0` (never left half-written).
#[inline(always)]
pub(crate) fn guarded(
    out: &mut Layout,
    body: impl FnOnce(&mut Layout) -> Result<()>,
) -> Result<()> {
    // A fresh `Ok(())` (not a move of the body's whole `Result`): the success path writes one
    // tag, not the 80 bytes of an `Error`'s storage.
    match body(out) {
        Ok(()) => Ok(()),
        Err(e) => failed(out, e),
    }
}

/// The error path of [`guarded`]: `out` reset to `1:0`, then the error (kept out of line so
/// the success path stays small).
#[cold]
#[inline(never)]
fn failed(out: &mut Layout, e: Error) -> Result<()> {
    out.reset();
    Err(e)
}

/// CuTe's `detail::coalesce_x`: like [`coalesce`], but a trailing size-1 mode becomes a size-2
/// mode with the same stride, so the function is preserved for *every* integer, not only on the
/// domain. Used by composition. Writes into `out` (cleared first).
#[inline(always)]
pub(crate) fn coalesce_x_modes_into(t: TreeRef<'_, Mode>, out: &mut Modes) -> Result<()> {
    out.clear();
    let leaves = t.leaf_slice();
    let Some(last) = leaves.last() else {
        out.push(Mode::new(1, 0));
        return Ok(());
    };
    let last = if last.shape == 1 {
        Mode::new(2, last.stride)
    } else {
        *last
    };
    coalesce_from(leaves, last, |m| m, out)
}

/// Builds a layout from flat coalesced modes: one mode is an integer layout, more a flat tuple.
#[inline]
pub(crate) fn from_modes(modes: &[Mode]) -> Layout {
    Layout::from_tree(crate::layout::Tree::from_flat_slice(modes, true))
}

/// `coalesce(L)`: removes size-1 modes and merges adjacent packed modes (`s0:d0, s1:s0·d0` →
/// `s0·s1:d0`). CuTe C++ walks from the back; up to 16 leaves this walks from the front (no
/// reversal), which reaches the same normal form.
///
/// Pre: none. Post: `size(R) == size(L)`, `depth(R) <= 1`, `R(i) == L(i)` for `0 <= i < size(L)`;
/// an all-unit layout gives `1:0`.
/// Relies on Coalescence as normalization: `packed_merge_sound`, `coalesce_preserves_eval` and
/// `coalesce_unique_normal_form` in `proofs/Coalesce.v` and `proofs/Confluence.v`; both walks
/// return that normal form (forward: `fw_coalesce_is_normal_form`, `fw_coalesce_unit` in
/// `proofs/CoalesceForward.v`; backward, past 16 leaves: `rust_coalesce_is_normal_form`,
/// `rust_coalesce_unit` in `proofs/CoalesceImpl.v`; strides ≥ 0), checked against the
/// extraction of the backward walk by `tests/bridge.rs`.
///
/// ```
/// let l: tessera::Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// assert_eq!(tessera::algebra::coalesce(&l).unwrap().to_string(), "12:1");
/// ```
pub fn coalesce(l: &Layout) -> Result<Layout> {
    let mut out = Layout::default();
    coalesce_into(l, &mut out)?;
    Ok(out)
}

/// [`coalesce`] writing its result into `out` (whose storage is reused; no layout is returned by
/// value). On error `out` is `1:0`.
///
/// Pre/Post: as [`coalesce`].
///
/// ```
/// let l: tessera::Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// let mut out = tessera::Layout::default();
/// tessera::algebra::coalesce_into(&l, &mut out).unwrap();
/// assert_eq!(out.to_string(), "12:1");
/// ```
pub fn coalesce_into(l: &Layout, out: &mut Layout) -> Result<()> {
    if let Some(leaves) = l.t.inline_leaves() {
        // Up to 16 leaves: the walk writes straight into `out`'s inline leaves (on an overflow,
        // the general path below builds the error).
        let done = out
            .t
            .write_flat_inline(true, |arr| fw_coalesce_array(leaves, |m| m, arr).ok_or(()));
        if done.is_ok() {
            return Ok(());
        }
    }
    coalesce_into_any(l, out)
}

/// [`coalesce_into`] for any number of leaves (off the hot path: more than 16, or none).
#[inline(never)]
fn coalesce_into_any(l: &Layout, out: &mut Layout) -> Result<()> {
    guarded(out, |out| {
        coalesce_modes_into(l.tree(), out.t.vals_mut())?;
        out.t.set_flat_profile(true);
        Ok(())
    })
}

/// `coalesce(L, profile)`: coalesces each mode of `L` at the terminals of `profile` (whose values
/// are ignored); modes of `L` past `rank(profile)` are kept unchanged.
///
/// Pre: `rank(profile) <= rank(L)` where `profile` is a tuple. Post: congruent to `profile` on
/// its modes; the function is unchanged on the domain.
///
/// ```
/// let l: tessera::Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// let p: tessera::layout::IntTuple = "(1,1)".parse().unwrap();
/// assert_eq!(tessera::algebra::coalesce_by(&l, &p).unwrap().to_string(), "(2,6):(1,2)");
/// ```
pub fn coalesce_by(l: &Layout, profile: &IntTuple) -> Result<Layout> {
    by_profile(l, profile, "coalesce", &|m| coalesce(m))
}

/// Applies `f` at the terminals of `profile` (CuTe's `transform_layout(layout, profile, f)`):
/// trailing modes of `l` are kept.
pub(crate) fn by_profile(
    l: &Layout,
    profile: &IntTuple,
    op: &'static str,
    f: &dyn Fn(&Layout) -> Result<Layout>,
) -> Result<Layout> {
    let p = profile.as_ref();
    if p.is_leaf() {
        return f(l);
    }
    if p.rank() > l.rank() {
        return Err(Error::TooManyModes {
            op,
            tiler: p.rank(),
            layout: l.rank(),
        });
    }
    let mut b = Builder::new();
    b.open();
    for (i, m) in l.tree().modes().enumerate() {
        let ml = Layout::from_tree(m.to_owned());
        match p.child(i) {
            Some(pi) if i < p.rank() => {
                let r = by_profile(&ml, &pi.to_owned(), op, f)?;
                b.push(r.tree());
            }
            _ => b.push(m),
        }
    }
    b.close();
    Ok(Layout::from_tree(b.finish()))
}

/// `filter(L)`: replaces stride-0 modes by size 1, then coalesces; `1:0` if nothing is left.
///
/// Post: `size(R) == size(L)` / (product of the stride-0 extents); the image of R equals the
/// image of L; R is injective iff L restricted to its non-zero-stride modes is.
///
/// ```
/// let l: tessera::Layout = "(2,3,4):(0,1,0)".parse().unwrap();
/// assert_eq!(tessera::algebra::filter(&l).unwrap().to_string(), "3:1");
/// ```
pub fn filter(l: &Layout) -> Result<Layout> {
    let mut out = Layout::default();
    guarded(&mut out, |out| {
        filter_modes_into(l.tree(), out.t.vals_mut())?;
        out.t.set_flat_profile(true);
        Ok(())
    })?;
    Ok(out)
}

/// The flat modes of `filter`, written into `out` (cleared first).
#[inline(always)]
pub(crate) fn filter_modes_into(t: TreeRef<'_, Mode>, out: &mut Modes) -> Result<()> {
    coalesce_slice(
        t.leaf_slice(),
        |m| {
            if m.stride == 0 {
                Mode::new(1, 0)
            } else {
                m
            }
        },
        out,
    )
}

/// The flat modes of `filter`.
pub(crate) fn filter_modes(t: TreeRef<'_, Mode>) -> Result<Modes> {
    let mut out = Modes::new();
    filter_modes_into(t, &mut out)?;
    Ok(out)
}

/// `filter(L, profile)`: [`filter`] at the terminals of `profile`; modes past the profile are
/// kept.
///
/// Pre: `rank(profile) <= rank(L)`. Post: each filtered mode has the image of the original mode.
///
/// ```
/// let l: tessera::Layout = "((2,3),(4,5)):((0,1),(3,0))".parse().unwrap();
/// let p: tessera::layout::IntTuple = "(1,1)".parse().unwrap();
/// assert_eq!(tessera::algebra::filter_by(&l, &p).unwrap().to_string(), "(3,4):(1,3)");
/// ```
pub fn filter_by(l: &Layout, profile: &IntTuple) -> Result<Layout> {
    by_profile(l, profile, "filter", &|m| filter(m))
}

/// One rewrite of Coalescence as normalization's `tryCoalesce`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// `(1, M):(d, s) → (M):(s)`.
    LeftUnit,
    /// `(M, 1):(d, s) → (M):(d)`.
    RightUnit,
    /// `(M1, M2):(d1, M1·d1) → (M1·M2):(d1)`.
    PackedMerge,
}

impl Rule {
    /// The rule's name as the seed writes it.
    pub fn name(self) -> &'static str {
        match self {
            Rule::LeftUnit => "left unit",
            Rule::RightUnit => "right unit",
            Rule::PackedMerge => "packed merge",
        }
    }
}

/// One step of a coalesce trace: `rule` fired on modes `at` and `at + 1` of `before`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    /// The rule.
    pub rule: Rule,
    /// Index of the first of the two modes it rewrote.
    pub at: usize,
    /// The flat layout before the step.
    pub before: Layout,
    /// The flat layout after the step.
    pub after: Layout,
}

/// `coalesce` with its rewrite trace, as Coalescence as normalization defines it: flatten, then apply `tryCoalesce`
/// (the first applicable of left unit, right unit, packed merge on the leftmost pair where one
/// applies) until none applies. A final single size-1 mode is written `1:0`, as CuTe does.
///
/// Post: the result equals [`coalesce`]`(L)` (tested exhaustively on small layouts); each step
/// removes one mode (Coalescence as normalization, `coalesce_terminates`), so there are fewer than `rank(flatten(L))`
/// steps; every step preserves the function on the domain (`packed_merge_sound`).
///
/// ```
/// let l: tessera::Layout = "(2,1,3):(1,7,2)".parse().unwrap();
/// let (r, trace) = tessera::algebra::coalesce_trace(&l).unwrap();
/// assert_eq!(r.to_string(), "6:1");
/// assert_eq!(trace.len(), 2);
/// ```
pub fn coalesce_trace(l: &Layout) -> Result<(Layout, Vec<Rewrite>)> {
    let mut modes: Vec<Mode> = l.leaves().collect();
    let mut trace = Vec::new();
    loop {
        let mut fired = None;
        for k in 0..modes.len().saturating_sub(1) {
            let (m1, m2) = (modes[k], modes[k + 1]);
            let rule = if m1.shape == 1 {
                Rule::LeftUnit
            } else if m2.shape == 1 {
                Rule::RightUnit
            } else if arith::mul(m1.shape, m1.stride)? == m2.stride {
                Rule::PackedMerge
            } else {
                continue;
            };
            fired = Some((k, rule));
            break;
        }
        let Some((k, rule)) = fired else { break };
        let before = Layout::flat(modes.iter().copied());
        match rule {
            Rule::LeftUnit => {
                modes.remove(k);
            }
            Rule::RightUnit => {
                modes.remove(k + 1);
            }
            Rule::PackedMerge => {
                modes[k].shape = arith::mul(modes[k].shape, modes[k + 1].shape)?;
                modes.remove(k + 1);
            }
        }
        let after = Layout::flat(modes.iter().copied());
        trace.push(Rewrite {
            rule,
            at: k,
            before,
            after,
        });
    }
    let result = match modes.as_slice() {
        [] => Layout::leaf(Mode::new(1, 0)),
        [m] if m.shape == 1 => Layout::leaf(Mode::new(1, 0)),
        ms => from_modes(ms),
    };
    Ok((result, trace))
}
