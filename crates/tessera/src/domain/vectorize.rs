//! Vectorization and TMA box legality.
//!
//! Seed, "Merging discontiguous IterDomains": a vector (or TMA box) split out of a merge of two
//! discontiguous IterDomains is legal iff the split size divides the extent of the merge's inner
//! input — otherwise the access pattern is Theorem 5's transformation 2 (the merge-then-split order), which jumps
//! across the discontinuity inside one vector. This module decides that rule (symbolically when
//! possible) and, independently, checks by enumeration whether every vector/box instance touches
//! consecutive addresses of the allocation.

use super::alloc::contiguous_strides;
use super::error::{self, Error, Result};
use super::eval::Space;
use super::ir::{Id, Schedule, Transform};
use super::symbolic::Decision;
use std::collections::BTreeMap;

/// Contiguity is enumerated only up to this many loop points (it groups all points in memory).
///
/// Pre/Post: beyond it `contiguous` is `None`. Example: a `2048 × 1024` loop domain is not
/// enumerated for contiguity.
pub const MAX_ACCESS_POINTS: u64 = 1 << 20;

/// Vectorized access or TMA box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    /// Every lane must be a valid item; lanes at consecutive addresses.
    Vectorize,
    /// Lanes whose root item is in bound must be at consecutive addresses (hardware bound-checks
    /// the rest).
    Box,
}

/// The divisibility rule's answer for a split taken out of a merge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeSplitRule {
    /// The merge's inputs (outer, inner) and the split.
    pub merge: (Id, Id),
    /// The split factor.
    pub factor: i64,
    /// Whether the merge inputs are contiguous in the allocation (`None`: not both allocated).
    pub contiguous_merge: Option<bool>,
    /// Legal: contiguous merge, or `factor | extent(inner)`.
    pub legal: Decision,
    /// The divisibility condition, e.g. `4 | 5`.
    pub condition: String,
}

/// Verdict for one vectorized or box IterDomain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessVerdict {
    /// The IterDomain.
    pub id: Id,
    /// Vectorize or box.
    pub kind: AccessKind,
    /// The rule, when the ID is the inner output of a split of a merge output.
    pub rule: Option<MergeSplitRule>,
    /// For a vectorized inner output of a split: whether that split is divisible (a vectorized
    /// split must be).
    pub split_divisible: Option<Decision>,
    /// Enumeration: every instance contiguous (`None`: extents not concrete).
    pub contiguous: Option<bool>,
    /// First failing instance.
    pub counterexample: Option<String>,
}

fn strides(s: &Schedule, extents: &[i64]) -> Result<(Vec<Id>, Vec<i64>)> {
    let a = s.allocation()?;
    let st = match &a.strides {
        Some(st) => st.clone(),
        None => {
            let e: Vec<i64> = a.ids.iter().map(|&i| extents[i]).collect();
            contiguous_strides(&e)?
        }
    };
    Ok((a.ids, st))
}

/// Applies the seed's rule to `id` if it is the inner output of a split whose input is a merge
/// output.
///
/// Pre: none. Post: `legal == Yes` iff the merge is contiguous in the allocation or the factor
/// divides the merge's inner extent (decided with the facts; `Unknown` is a launch obligation).
/// Example: the merge-then-split order with allocation strides `8 1` (discontiguous rows of 5): `4 | 5` fails.
pub fn merge_split_rule(s: &Schedule, id: Id) -> Result<Option<MergeSplitRule>> {
    let a = s.allocation()?;
    rule_with(s, id, &a, &mut Strides::default())
}

/// The allocation's element strides and the concrete extents, computed on first use (`None`
/// inside: the extents are symbolic).
#[derive(Default)]
struct Strides(Option<Option<(Vec<i64>, Vec<i64>)>>);

impl Strides {
    fn get(&mut self, s: &Schedule) -> Result<Option<(&[i64], &[i64])>> {
        if self.0.is_none() {
            self.0 = Some(match s.concrete_extents() {
                Ok(ext) => Some((strides(s, &ext)?.1, ext)),
                Err(_) => None,
            });
        }
        Ok(self
            .0
            .as_ref()
            .and_then(|v| v.as_ref())
            .map(|(st, ext)| (st.as_slice(), ext.as_slice())))
    }
}

/// [`merge_split_rule`] with the allocation given and the strides cached by the caller.
fn rule_with(
    s: &Schedule,
    id: Id,
    a: &super::ir::Allocation,
    st: &mut Strides,
) -> Result<Option<MergeSplitRule>> {
    let Some(t) = s.ids[id].definition else {
        return Ok(None);
    };
    let Transform::Split {
        input,
        inner,
        factor,
        ..
    } = s.transforms[t]
    else {
        return Ok(None);
    };
    if inner != id {
        return Ok(None);
    }
    let Some(m) = s.ids[input].definition else {
        return Ok(None);
    };
    let Transform::Merge {
        outer: mo,
        inner: mi,
        ..
    } = s.transforms[m]
    else {
        return Ok(None);
    };
    let contiguous_merge = match (
        a.ids.iter().position(|&x| x == mo),
        a.ids.iter().position(|&x| x == mi),
    ) {
        (Some(po), Some(pi)) => match st.get(s)? {
            Some((st, ext)) => Some(st[po] == error::mul(ext[mi], st[pi])?),
            None => a.strides.is_none().then_some(po + 1 == pi),
        },
        _ => None,
    };
    let div = s.facts.divides(factor, &s.ids[mi].extent)?;
    let legal = if contiguous_merge == Some(true) {
        Decision::Yes
    } else {
        div
    };
    Ok(Some(MergeSplitRule {
        merge: (mo, mi),
        factor,
        contiguous_merge,
        legal,
        condition: format!("{factor} | {}", s.ids[mi].extent),
    }))
}

/// Checks a vectorized or box IterDomain: the rule, and contiguity by enumeration.
///
/// Pre: `id` is in the loop domain (else [`Error::BadVectorize`]). Post: `contiguous` is `None`
/// when extents are symbolic or there are more than [`MAX_ACCESS_POINTS`] points;
/// `contiguous == Some(true)`
/// iff for every assignment of the other loop indices the lanes (in lane order) are at addresses
/// `base, base + 1, …` of the allocation (element strides) — for vectors every lane must also be
/// a valid point, unless the whole vector is a hole.
/// Example: the split-then-merge order's `I5` as a box with contiguous allocation `[I1, I2]` is contiguous; the
/// merge-then-split order's `I5` with strides `8 1` is not (`T[0, 4]` then `T[1, 0]`).
pub fn check_access(s: &Schedule, id: Id, kind: AccessKind) -> Result<AccessVerdict> {
    let mut v = check_accesses(s, &[(id, kind)])?;
    Ok(v.remove(0))
}

/// The total enumeration work [`check_accesses`] spends on contiguity (points × (IterDomains +
/// loop IterDomains + steps + 1) per access, summed): beyond it the remaining accesses are not enumerated.
///
/// Pre/Post: a budget, not a correctness bound. Example: 1,000 `vectorize` statements over a
/// 2^16-point loop domain stop enumerating after a few dozen.
pub const MAX_ACCESS_WORK: u64 = 1 << 25;

/// [`check_access`] for several accesses at once, in order: the loop domain, the allocation, the
/// extents and the enumeration space are prepared once, a repeated `(id, kind)` is answered
/// once, and the contiguity enumerations share [`MAX_ACCESS_WORK`].
///
/// Pre: as [`check_access`] for each access. Post: one verdict per access, equal to
/// [`check_access`]'s except that an access past the budget has `contiguous == None` and a
/// counterexample saying why. Example: `[(I5, Box), (I5, Box)]` enumerates once.
pub fn check_accesses(s: &Schedule, accesses: &[(Id, AccessKind)]) -> Result<Vec<AccessVerdict>> {
    if accesses.is_empty() {
        return Ok(Vec::new());
    }
    let loop_ids = s.loop_ids()?;
    let mut loop_pos = vec![usize::MAX; s.ids.len()];
    for (k, &l) in loop_ids.iter().enumerate() {
        loop_pos[l] = k;
    }
    let alloc = s.allocation()?;
    let mut st = Strides::default();
    let space = Space::new(s);
    let mut budget = MAX_ACCESS_WORK;
    let mut done: std::collections::HashMap<(Id, bool), usize> = Default::default();
    let mut out: Vec<AccessVerdict> = Vec::with_capacity(accesses.len());
    for &(id, kind) in accesses {
        super::steps::tick(1);
        if let Some(&k) = done.get(&(id, kind == AccessKind::Box)) {
            out.push(out[k].clone());
            continue;
        }
        let Some(&pos) = loop_pos.get(id).filter(|&&p| p != usize::MAX) else {
            if id >= s.ids.len() {
                return Err(Error::UnknownId(format!("#{id}")));
            }
            return Err(Error::BadVectorize(format!(
                "{} is not in the loop domain",
                s.name(id)
            )));
        };
        let rule = rule_with(s, id, &alloc, &mut st)?;
        let split_divisible = match (kind, s.ids[id].definition) {
            (AccessKind::Vectorize, Some(t)) => match s.transforms[t] {
                Transform::Split { inner, .. } if inner == id => Some(s.split_divisible(t)?),
                _ => None,
            },
            _ => None,
        };
        let (contiguous, counterexample) = match &space {
            Ok(space) if space.points <= MAX_ACCESS_POINTS => {
                let cost = space
                    .points
                    .saturating_mul((s.ids.len() + loop_ids.len() + space.steps.len() + 1) as u64);
                if cost > budget {
                    (
                        None,
                        Some(format!(
                            "not enumerated: the accesses' enumeration budget ({MAX_ACCESS_WORK} index computations) is spent"
                        )),
                    )
                } else {
                    budget -= cost;
                    let st = strides(s, &space.extents)?.1;
                    contiguity(space, &loop_ids, pos, id, kind, &alloc.ids, &st)?
                }
            }
            Ok(_) => (
                None,
                Some(format!(
                    "not enumerated: more than {MAX_ACCESS_POINTS} points"
                )),
            ),
            Err(_) => (None, None),
        };
        done.insert((id, kind == AccessKind::Box), out.len());
        out.push(AccessVerdict {
            id,
            kind,
            rule,
            split_divisible,
            contiguous,
            counterexample,
        });
    }
    Ok(out)
}

/// The enumeration part of [`check_access`]: are the lanes of every instance consecutive?
fn contiguity(
    space: &Space,
    loop_ids: &[Id],
    pos: usize,
    id: Id,
    kind: AccessKind,
    aids: &[Id],
    st: &[i64],
) -> Result<(Option<bool>, Option<String>)> {
    // lanes[key] = (lane, address, valid, root in bound)
    type Lane = (i64, i64, bool, bool);
    let mut groups: BTreeMap<Vec<i64>, Vec<Lane>> = BTreeMap::new();
    space.for_each(|idx| {
        let key: Vec<i64> = loop_ids
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != pos)
            .map(|(_, &l)| idx[l])
            .collect();
        let mut addr: i64 = 0;
        for (k, &a) in aids.iter().enumerate() {
            addr = error::add(addr, error::mul(idx[a], st[k])?)?;
        }
        groups.entry(key).or_default().push((
            idx[id],
            addr,
            space.valid(idx),
            space.root_item(idx).is_some(),
        ));
        Ok(true)
    })?;
    let mut bad = None;
    for (key, lanes) in &groups {
        let used: Vec<&Lane> = match kind {
            AccessKind::Vectorize => {
                if lanes.iter().all(|l| !l.2) {
                    continue;
                }
                if let Some(h) = lanes.iter().find(|l| !l.2) {
                    bad = Some(format!(
                        "vector at other loop indices {key:?} has a hole at lane {}",
                        h.0
                    ));
                    break;
                }
                lanes.iter().collect()
            }
            AccessKind::Box => lanes.iter().filter(|l| l.3).collect(),
        };
        if let Some(first) = used.first() {
            let base = first.1 - first.0;
            if let Some(l) = used.iter().find(|l| l.1 - l.0 != base) {
                bad = Some(format!(
                    "at other loop indices {key:?}, lane {} is at address {} but lane {} is at {}",
                    first.0, first.1, l.0, l.1
                ));
                break;
            }
        }
    }
    Ok((Some(bad.is_none()), bad))
}
