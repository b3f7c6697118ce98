//! The fast path of `complement`: the common tractable case (fewer than 16
//! leaves, a cotarget of positive leaves) answered in one pass over A's leaves, with no `filter`,
//! no coalescing and no allocation. Why it equals the reference (`complement.rs`) is argued on
//! [`complement_fast`]; wherever it gives up it returns `false` and the reference answers, so its
//! errors and notes are the reference's own. `complement.rs`'s `fast_path_tests` check the two
//! against each other.

use crate::error::{arith, Result};
use crate::layout::buf::Buf;
use crate::layout::Mode;

/// The complement's flat modes for a tractable A (cotarget by its leaves, each ≥ 1) of fewer
/// than 16 leaves, written into `out`'s inline array; `false` (with `out` holding scratch) on
/// every other input, which `complement_modes_general` (`complement.rs`) then answers, errors and notes included.
///
/// Why it gives `complement_in_place` (`complement.rs`)'s answer without coalescing: the leaves that are kept
/// (extent ≠ 1, stride ≠ 0) are `filter(A)` before its packed merges. Replacing a packed pair
/// `a:d, b:a·d` by its merge `a·b:d` changes neither the tractability test nor the result: sorted
/// by stride, a tractable list has strictly increasing strides with each reach at most the next
/// stride, so nothing sits between the pair (a mode `x` there would need `a·d ≤ d_x` and
/// `reach(x) ≥ 2·a·d > a·d`), the pair contributes `(d / r) : r` and the unit `1 : a·d` (dropped)
/// where the merge contributes `(d / r) : r`, and both leave the reach `a·b·d` for the next mode;
/// conversely a tractable merged list sorts the pair next to each other with `r ∣ d`, `a·d ∣ a·d`
/// and `a·b·d ∣ d_next`. So both lists are tractable together and give the same modes. Whenever
/// this pass gives up (a negative stride, a reach that does not divide, an overflow), the
/// general path recomputes from A, so errors and notes are exactly its own. One leaf needs no
/// sort; two to four kept leaves are sorted in registers by a compare-exchange network (no merge:
/// a packed pair gives the unit quotient, dropped); longer lists by insertion as the leaves are
/// read, a leaf packed onto the last kept one merged into it.
///
/// `rest_of` is the reference's rest extent for a cotarget of several modes (`complement.rs`
/// passes its own, so the two paths share it and this file imports nothing from the reference).
#[inline(always)]
pub(super) fn complement_fast<const N: usize>(
    leaves: &[Mode],
    cotarget: &[i64],
    out: &mut Buf<Mode, N>,
    rest_of: impl FnOnce(&[i64], i64) -> Result<i64>,
) -> bool {
    // `out` is untouched where the cotarget has a leaf < 1. One copy of the work per kind of
    // cotarget: an integer one keeps a single register through the loops.
    match *cotarget {
        [s] => {
            s >= 1
                && complement_fast_with(leaves, out, |last| {
                    let rest = arith::ceil_div(s, last);
                    rest.checked_mul(last).map(|_| rest)
                })
        }
        _ => {
            cotarget.iter().all(|&s| s >= 1)
                && complement_fast_with(leaves, out, |last| rest_of(cotarget, last).ok())
        }
    }
}

/// [`complement_fast`] with the rest extent given by `rest_for(last reach)` (`None`: the
/// general path answers).
#[inline(always)]
fn complement_fast_with<const N: usize>(
    leaves: &[Mode],
    out: &mut Buf<Mode, N>,
    rest_for: impl FnOnce(i64) -> Option<i64>,
) -> bool {
    const { assert!(N.is_power_of_two() && N >= 2) };
    // Fewer than N leaves, so every index below is < N: masking it with `& (N - 1)` never
    // changes it and leaves no bounds check.
    if leaves.len() >= N {
        return false;
    }
    let arr = out.inline_array_mut();
    let (mut k, last) = match *leaves {
        // One leaf (a fifth of the corpus): no sort; its quotient is its stride.
        [m] => match pass_one(m, arr) {
            Some(done) => done,
            None => return false,
        },
        // Two to four leaves, all kept (two fifths of the corpus): sorted in registers by a
        // compare-exchange network (ties are caught by the pass: the second of two equal strides
        // is below the first's reach).
        [m0, m1] if kept(m0) && kept(m1) => {
            let mut e = [reach_stride(m0), reach_stride(m1)];
            if e[0].1 > e[1].1 {
                e.swap(0, 1);
            }
            match pass_few(&e, arr) {
                Some(done) => done,
                None => return false,
            }
        }
        // Two leaves, one of which `filter` drops (a unit extent or a zero stride, as in the
        // tilers `(2,1):(1,2)` and `(1,2):(1,1)`): the pass over the other alone, which is what
        // the general pass does with the dropped leaf skipped.
        [m0, m1] if dropped(m0) => match pass_one(m1, arr) {
            Some(done) => done,
            None => return false,
        },
        [m0, m1] if dropped(m1) => match pass_one(m0, arr) {
            Some(done) => done,
            None => return false,
        },
        [m0, m1, m2] if kept(m0) && kept(m1) && kept(m2) => {
            let mut e = [reach_stride(m0), reach_stride(m1), reach_stride(m2)];
            if e[0].1 > e[1].1 {
                e.swap(0, 1);
            }
            if e[1].1 > e[2].1 {
                e.swap(1, 2);
            }
            if e[0].1 > e[1].1 {
                e.swap(0, 1);
            }
            match pass_few(&e, arr) {
                Some(done) => done,
                None => return false,
            }
        }
        [m0, m1, m2, m3] if kept(m0) && kept(m1) && kept(m2) && kept(m3) => {
            let mut e = [
                reach_stride(m0),
                reach_stride(m1),
                reach_stride(m2),
                reach_stride(m3),
            ];
            for (x, y) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
                if e[x].1 > e[y].1 {
                    e.swap(x, y);
                }
            }
            match pass_few(&e, arr) {
                Some(done) => done,
                None => return false,
            }
        }
        _ => match pass_sorted(leaves, arr) {
            Some(done) => done,
            None => return false,
        },
    };
    let Some(rest) = rest_for(last) else {
        return false;
    };
    if rest != 1 {
        arr[k & (N - 1)] = Mode::new(rest, last);
        k += 1;
    }
    if k == 0 {
        arr[0] = Mode::new(1, 0);
        k = 1;
    }
    out.set_inline_len(k);
    true
}

/// A leaf that `filter` keeps, with a positive stride (the fast path's other leaves are units,
/// zero strides, or give up).
#[inline(always)]
fn kept(m: Mode) -> bool {
    m.shape > 1 && m.stride > 0
}

/// A leaf that `filter` drops and that raises no error: extent 1, or stride 0 (extent ≥ 1).
#[inline(always)]
fn dropped(m: Mode) -> bool {
    m.shape == 1 || (m.shape > 1 && m.stride == 0)
}

/// The one pass of `complement_in_place` (`complement.rs`) over a single leaf `m` (kept or dropped): the number
/// of modes written to `arr` and the last reach, or `None` where the general path must answer
/// (an extent < 1, a negative stride, an overflow).
#[inline(always)]
fn pass_one<const N: usize>(m: Mode, arr: &mut [Mode; N]) -> Option<(usize, i64)> {
    if kept(m) {
        let r = m.shape.checked_mul(m.stride)?;
        // The first mode's previous reach is 1: its quotient is its stride.
        arr[0] = Mode::new(m.stride, 1);
        Some((usize::from(m.stride != 1), r))
    } else if dropped(m) {
        Some((0, 1))
    } else {
        None
    }
}

/// `(reach, stride)` of a kept leaf; the reach saturates on overflow, where [`pass_few`] gives up.
#[inline(always)]
fn reach_stride(m: Mode) -> (i64, i64) {
    (m.shape.saturating_mul(m.stride), m.stride)
}

/// The one pass of `complement_in_place` (`complement.rs`) over `(reach, stride)` entries sorted by stride, into
/// `arr`: the number of modes written and the last reach, or `None` where the general path must
/// answer (a reach that does not divide the next stride, an overflowed reach).
#[inline(always)]
fn pass_few<const N: usize>(e: &[(i64, i64)], arr: &mut [Mode; N]) -> Option<(usize, i64)> {
    let (mut last, mut k) = (1i64, 0usize);
    for &(r, d) in e {
        if r == i64::MAX {
            return None;
        }
        pass_step(arr, &mut k, &mut last, r, d)?;
    }
    Some((k, last))
}

/// One step of the pass: the mode of stride `d` and reach `r` after the reach `last` adds
/// `(d / last) : last` (unless `d == last`: a unit, dropped) and moves `last` to `r`; `None` when
/// `last` does not divide `d` (not tractable). Pre: `*k < N` where a mode is added.
#[inline(always)]
fn pass_step<const N: usize>(
    arr: &mut [Mode; N],
    k: &mut usize,
    last: &mut i64,
    r: i64,
    d: i64,
) -> Option<()> {
    if d != *last {
        let (q, rem) = arith::div_rem_pos(d, *last);
        if rem != 0 {
            return None;
        }
        arr[*k & (N - 1)] = Mode::new(q, *last);
        *k += 1;
    }
    *last = r;
    Some(())
}

/// The kept leaves of `leaves` sorted by stride into `arr` (insertion, as they are read: the
/// lists are short; ties are never tractable, so stability does not matter; a leaf whose stride
/// is the last kept leaf's reach is merged into it), then the one pass of
/// `complement_in_place` (`complement.rs`) in place: the number of modes written and the last reach, or `None`
/// where the general path must answer.
#[inline(always)]
fn pass_sorted<const N: usize>(leaves: &[Mode], arr: &mut [Mode; N]) -> Option<(usize, i64)> {
    // The kept leaves as `reach : stride` (the reach `s·d` in the shape slot), sorted by stride.
    let mut n = 0usize;
    // Where the last kept leaf is and its reach (0 before the first: no kept stride is 0).
    let (mut at, mut reach) = (0usize, 0i64);
    for &m in leaves {
        if m.shape > 1 && m.stride > 0 {
            let r = m.shape.checked_mul(m.stride)?;
            if m.stride == reach {
                // Packed onto the last kept leaf: merged into it (same stride, same place).
                arr[at & (N - 1)].shape = r;
            } else {
                let mut j = n;
                while j > 0 {
                    let p = arr[(j - 1) & (N - 1)];
                    if p.stride <= m.stride {
                        break;
                    }
                    arr[j & (N - 1)] = p;
                    j -= 1;
                }
                arr[j & (N - 1)] = Mode::new(r, m.stride);
                at = j;
                n += 1;
            }
            reach = r;
        } else if m.shape < 1 || (m.shape > 1 && m.stride < 0) {
            return None;
        }
    }
    // The one pass of `complement_in_place`; the first mode's previous reach is 1, so its
    // quotient is its stride (written, and counted unless it is 1).
    let (mut last, mut k) = (1i64, 0usize);
    if n > 0 {
        let Mode {
            shape: r,
            stride: d,
        } = arr[0];
        arr[0] = Mode::new(d, 1);
        k = usize::from(d != 1);
        last = r;
    }
    for i in 1..n {
        let Mode {
            shape: r,
            stride: d,
        } = arr[i & (N - 1)];
        pass_step(arr, &mut k, &mut last, r, d)?;
    }
    Some((k, last))
}
