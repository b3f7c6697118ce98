//! Unswitched predicates (reference Example 9, nvFuser's `Unswitch`).
//!
//! Unswitching hoists the predicate out of some loops: nvFuser evaluates each *start* condition
//! (`0 <= i`) with the unswitched loop indices at `0` and each *stop* condition (`i < E`) with them
//! at `extent − 1`, and runs the loops unpredicated when the hoisted predicate holds (otherwise
//! a predicated copy). This is sound only when every index is monotone in the unswitched loop
//! indices; a Euclidean remainder on the path breaks that (nvFuser issue #681). This module
//! builds the hoisted predicate as text and checks its soundness by enumeration.

use super::codegen::{nonnegative, var_names};
use super::error::{Error, Result};
use super::eval::{plan, Direction, Space};
use super::ir::{Id, Schedule, Transform};

/// An index expression longer than this many bytes is written `<index of NAME>` instead (and
/// so in every expression built from it): keeps the text of a long chain linear, not quadratic.
///
/// Pre/Post: a display bound, not a correctness bound. Example: real unswitched predicates are
/// a few dozen bytes.
pub const MAX_EXPRESSION_BYTES: usize = 256;

/// Index expressions of every IterDomain over the loop variables, with some loop variables
/// replaced by given text (e.g. `(2-1)`).
///
/// Pre: the loop domain determines every index. Post: one expression per IterDomain, fully
/// parenthesized where needed; Euclidean `/` and `%`; one longer than [`MAX_EXPRESSION_BYTES`]
/// is `<index of NAME>`. Example: Reference Example 9 gives `i0 = i1*5 + (i3*3 + i4)`.
pub fn index_expressions(s: &Schedule, replace: &[(Id, String)]) -> Result<Vec<String>> {
    let v = var_names(s);
    let mut e: Vec<String> = v.clone();
    for (id, text) in replace {
        e[*id] = text.clone();
    }
    let ext = |i: Id| s.ids[i].extent.to_string();
    for st in plan(s)? {
        let back = st.direction == Direction::Backward;
        match s.transforms[st.transform] {
            Transform::Split {
                input,
                outer,
                inner,
                ..
            }
            | Transform::Merge {
                outer,
                inner,
                output: input,
            } => {
                let is_split = matches!(s.transforms[st.transform], Transform::Split { .. });
                let ei = ext(inner);
                if back == is_split {
                    e[input] = format!("{}*{} + {}", wrap(&e[outer]), ei, wrap(&e[inner]));
                } else {
                    e[outer] = format!("{} / {}", wrap(&e[input]), ei);
                    e[inner] = format!("{} % {}", wrap(&e[input]), ei);
                }
            }
            Transform::Resize {
                input,
                output,
                left,
                ..
            } => {
                if back {
                    e[input] = format!("{} - {}", wrap(&e[output]), left);
                } else {
                    e[output] = format!("{} + {}", wrap(&e[input]), left);
                }
            }
            Transform::Swizzle { x, y, out_x, out_y } => {
                if back {
                    e[x] = e[out_x].clone();
                    e[y] = format!("{} ^ {}", wrap(&e[out_x]), wrap(&e[out_y]));
                } else {
                    e[out_x] = e[x].clone();
                    e[out_y] = format!("{} ^ {}", wrap(&e[x]), wrap(&e[y]));
                }
            }
        }
        for o in s.transforms[st.transform]
            .inputs()
            .into_iter()
            .chain(s.transforms[st.transform].outputs())
        {
            if e[o].len() > MAX_EXPRESSION_BYTES {
                e[o] = format!("<index of {}>", s.name(o));
            }
        }
    }
    Ok(e)
}

fn wrap(x: &str) -> String {
    if x.contains(' ') {
        format!("({x})")
    } else {
        x.to_string()
    }
}

/// The hoisted predicate and its soundness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unswitch {
    /// The unswitched loop IDs.
    pub loops: Vec<Id>,
    /// Start conditions (`expr >= 0`), for the predicate IDs that can be negative.
    pub start: Vec<String>,
    /// Stop conditions (`expr < extent`).
    pub stop: Vec<String>,
    /// Enumeration: whenever the hoisted predicate holds, every iteration of the unswitched
    /// loops passes the predicate (`None`: not enumerated).
    pub sound: Option<bool>,
    /// A counterexample when unsound.
    pub counterexample: Option<String>,
}

/// Builds nvFuser's unswitched predicate for `predicate` and checks it.
///
/// Pre: every ID of `s.unswitched` is a loop ID (else [`Error::BadLoop`]). Post: `start`/`stop`
/// are the conditions with unswitched indices at `0` / `extent − 1`; `sound` is decided by
/// enumeration when extents are concrete. Example: reference Example 9 gives stop conditions
/// `i1*5 + ((2-1)*3 + i4) < I` and `(2-1)*3 + i4 < 5`, and is sound.
pub fn unswitch(s: &Schedule, predicate: &[Id]) -> Result<Unswitch> {
    let mut is_loop = vec![false; s.ids.len()];
    for l in s.loop_ids()? {
        is_loop[l] = true;
    }
    for &u in &s.unswitched {
        if !is_loop[u] {
            return Err(Error::BadLoop(format!(
                "unswitched {} is not in the loop domain",
                s.name(u)
            )));
        }
    }
    let nn = nonnegative(s)?;
    let at = |zero: bool| -> Vec<(Id, String)> {
        s.unswitched
            .iter()
            .map(|&u| {
                let text = if zero {
                    "0".to_string()
                } else {
                    format!("({}-1)", s.ids[u].extent)
                };
                (u, text)
            })
            .collect()
    };
    let lo = index_expressions(s, &at(true))?;
    let hi = index_expressions(s, &at(false))?;
    let start = predicate
        .iter()
        .filter(|&&i| !nn[i])
        .map(|&i| format!("{} >= 0", lo[i]))
        .collect();
    let stop = predicate
        .iter()
        .map(|&i| format!("{} < {}", hi[i], s.ids[i].extent))
        .collect();
    let (sound, counterexample) = match Space::new(s) {
        Ok(space) => check(&space, predicate)?,
        Err(_) => (None, None),
    };
    Ok(Unswitch {
        loops: s.unswitched.clone(),
        start,
        stop,
        sound,
        counterexample,
    })
}

fn check(space: &Space, predicate: &[Id]) -> Result<(Option<bool>, Option<String>)> {
    let s = space.schedule;
    let mut unswitched = vec![false; s.ids.len()];
    for &u in &s.unswitched {
        unswitched[u] = true;
    }
    let outer: Vec<Id> = space
        .loop_ids
        .iter()
        .copied()
        .filter(|&l| !unswitched[l])
        .collect();
    // Group the points by the other loop indices (a mixed-radix number over those of extent > 1,
    // outermost first, so numeric order is lexicographic order): all iterations pass?
    let radix: Vec<Id> = outer
        .iter()
        .copied()
        .filter(|&l| space.extents[l] > 1)
        .collect();
    let groups = radix
        .iter()
        .fold(1u64, |a, &l| a.saturating_mul(space.extents[l] as u64));
    // At most `points` groups (bounded by `MAX_POINTS`): one byte each.
    let mut all_pass = vec![2u8; groups.min(space.points) as usize];
    space.for_each(|idx| {
        let g = radix.iter().fold(0usize, |a, &l| {
            a * space.extents[l] as usize + idx[l] as usize
        });
        let p = u8::from(space.passes(idx, predicate));
        all_pass[g] = all_pass[g].min(p);
        Ok(true)
    })?;
    // Hoisted predicate for each group, from the two extreme points.
    let nn = nonnegative(s)?;
    let n = s.ids.len();
    let mut lo = vec![0i64; n];
    let mut hi = vec![0i64; n];
    for (g, &pass) in all_pass.iter().enumerate() {
        if pass == 2 {
            continue;
        }
        let ok = pass == 1;
        let mut rest = g;
        for &l in radix.iter().rev() {
            let e = space.extents[l] as usize;
            lo[l] = (rest % e) as i64;
            hi[l] = lo[l];
            rest /= e;
        }
        for &u in &s.unswitched {
            lo[u] = 0;
            hi[u] = space.extents[u] - 1;
        }
        space.propagate(&mut lo)?;
        space.propagate(&mut hi)?;
        let hoisted = predicate
            .iter()
            .all(|&i| (nn[i] || lo[i] >= 0) && hi[i] < space.extents[i]);
        if hoisted && !ok {
            let key: Vec<i64> = outer.iter().map(|&l| lo[l]).collect();
            return Ok((
                Some(false),
                Some(format!(
                    "at other loop indices {key:?} the hoisted predicate holds but some iteration is a hole"
                )),
            ));
        }
    }
    Ok((Some(true), None))
}
