//! Coalesce and filter: the normalization pass of seed II ("Coalescence as normalization").

use smallvec::SmallVec;

use crate::error::{arith, Error, Result};
use crate::layout::{Builder, IntTuple, Layout, Mode, TreeRef};

/// Flat modes without heap allocation for rank ≤ 16.
pub(crate) type Modes = SmallVec<[Mode; 16]>;

/// The backward coalescing walk of CuTe (`bw_coalesce`) over flat `modes` whose last mode has been
/// replaced by `last`. Returns the coalesced modes, front first; an all-unit result is `[1:0]`.
///
/// Relies on seed II, `packed_merge_sound`: merging `s0:d0` into a front `s1:(s0·d0)` preserves
/// the function on the domain. This walk is transcribed as `bw_coalesce` in
/// `proofs/CoalesceImpl.v` (`bw_coalesce_reachable`, `bw_coalesce_irreducible`).
#[inline]
pub(crate) fn bw_coalesce(modes: &[Mode], last: Mode) -> Result<Modes> {
    let mut out: Modes = SmallVec::new();
    out.push(last);
    for m in modes.iter().rev() {
        if m.shape == 1 {
            continue;
        }
        let single = out.len() == 1;
        let front = out.last_mut().expect("out is never empty");
        if single && front.shape == 1 {
            *front = *m;
        } else if arith::mul(m.shape, m.stride)? == front.stride {
            front.shape = arith::mul(m.shape, front.shape)?;
            front.stride = m.stride;
        } else {
            out.push(*m);
        }
    }
    out.reverse();
    if out.len() == 1 && out[0].shape == 1 {
        out[0] = Mode::new(1, 0);
    }
    Ok(out)
}

/// The flat coalesced modes of a subtree.
#[inline]
pub(crate) fn coalesce_modes(t: TreeRef<'_, Mode>) -> Result<Modes> {
    match t.leaf_slice().split_last() {
        None => Ok(SmallVec::from_slice(&[Mode::new(1, 0)])),
        Some((last, init)) => bw_coalesce(init, *last),
    }
}

/// CuTe's `detail::coalesce_x`: like [`coalesce`], but a trailing size-1 mode becomes a size-2
/// mode with the same stride, so the function is preserved for *every* integer, not only on the
/// domain. Used by composition.
#[inline]
pub(crate) fn coalesce_x_modes(t: TreeRef<'_, Mode>) -> Result<Modes> {
    match t.leaf_slice().split_last() {
        None => Ok(SmallVec::from_slice(&[Mode::new(1, 0)])),
        Some((last, init)) => {
            let last = if last.shape == 1 {
                Mode::new(2, last.stride)
            } else {
                *last
            };
            bw_coalesce(init, last)
        }
    }
}

/// Builds a layout from flat coalesced modes: one mode is an integer layout, more a flat tuple.
#[inline]
pub(crate) fn from_modes(modes: &[Mode]) -> Layout {
    Layout::from_tree(crate::layout::Tree::from_flat_slice(modes, true))
}

/// `coalesce(L)`: removes size-1 modes and merges adjacent packed modes (`s0:d0, s1:s0·d0` →
/// `s0·s1:d0`), walking from the back as CuTe C++ does.
///
/// Pre: none. Post: `size(R) == size(L)`, `depth(R) <= 1`, `R(i) == L(i)` for `0 <= i < size(L)`;
/// an all-unit layout gives `1:0`.
/// Relies on seed II: `packed_merge_sound`, `coalesce_preserves_eval` and
/// `coalesce_unique_normal_form` in `proofs/Coalesce.v` and `proofs/Confluence.v`; this algorithm
/// returns that normal form (`rust_coalesce_is_normal_form`, `rust_coalesce_unit` in
/// `proofs/CoalesceImpl.v`, strides ≥ 0), checked against its extraction by `tests/bridge.rs`.
///
/// ```
/// let l: tessera::Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// assert_eq!(tessera::algebra::coalesce(&l).unwrap().to_string(), "12:1");
/// ```
pub fn coalesce(l: &Layout) -> Result<Layout> {
    Ok(from_modes(&coalesce_modes(l.tree())?))
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
    Ok(from_modes(&filter_modes(l.tree())?))
}

/// The flat modes of `filter`.
pub(crate) fn filter_modes(t: TreeRef<'_, Mode>) -> Result<Modes> {
    let flat: Modes = t
        .leaves()
        .map(|m| if m.stride == 0 { Mode::new(1, 0) } else { m })
        .collect();
    match flat.split_last() {
        None => Ok(SmallVec::from_slice(&[Mode::new(1, 0)])),
        Some((last, init)) => bw_coalesce(init, *last),
    }
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

/// One rewrite of seed II's `tryCoalesce`.
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

/// `coalesce` with its rewrite trace, as seed II defines it: flatten, then apply `tryCoalesce`
/// (the first applicable of left unit, right unit, packed merge on the leftmost pair where one
/// applies) until none applies. A final single size-1 mode is written `1:0`, as CuTe does.
///
/// Post: the result equals [`coalesce`]`(L)` (tested exhaustively on small layouts); each step
/// removes one mode (seed II, `coalesce_terminates`), so there are fewer than `rank(flatten(L))`
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
