//! Allocation: size with over-allocation, and weak/strong correctness of a lowering.
//!
//! Seed, "Allocation and correctness model": allocating through IterDomains produced by
//! indivisible splits over-allocates (holes are allocated). Definition 1: a lowering is *weakly
//! correct* if every valid item of the consumer's allocation holds the correct value and no
//! illegal access happens. Definition 2: it is *strongly correct* if, in addition, every hole
//! holds the desired filling value (the identity of the reduction that reads it unpredicated:
//! sum 0, product 1, max −∞, min +∞).

use super::error::{self, Error, Result};
use super::eval::{Space, MAX_POINTS};
use super::ir::{Id, Schedule};
use super::symbolic::Extent;

/// Size of an allocation.
#[derive(Debug, Clone, PartialEq)]
pub struct AllocInfo {
    /// Allocated IterDomains, outermost first.
    pub ids: Vec<Id>,
    /// Element strides (contiguous row-major when not given).
    pub strides: Option<Vec<i64>>,
    /// Slots allocated: the product of the allocated extents, or `1 + Σ (E_k − 1)·stride_k` with
    /// explicit strides.
    pub size: Extent,
    /// Valid items: the product of the root extents.
    pub valid_items: Extent,
    /// `size − valid_items` when both evaluate.
    pub over_allocation: Option<i64>,
}

/// Checks that no two points of the allocation domain share an address: no IterDomain is
/// allocated twice, and with explicit strides and concrete extents the layout
/// `(E_0,…,E_k):(d_0,…,d_k)` is injective (decided by `algebra::decide::is_injective`, closed
/// form for super-increasing or divisibility-chain strides, else bounded enumeration; an
/// undecidable size or a symbolic extent is let through).
///
/// A declared allocation domain must also determine every root index along one route (as a loop
/// domain does): else [`Error::BadAlloc`] (items without a slot) or [`Error::Aliasing`] (an
/// index allocated twice through another).
///
/// Pre: none. Post: `Err(Aliasing)` names the IterDomains (and two colliding coordinates when
/// the size is small). Example: `alloc I1 I2 strides 0 0` with `I1{2}, I2{4}` is aliasing;
/// `alloc I1` alone is `bad_alloc` (`I0` has no slot).
pub fn check_aliasing(s: &Schedule) -> Result<()> {
    let a = s.allocation()?;
    let mut seen = vec![false; s.ids.len()];
    for &id in &a.ids {
        if std::mem::replace(&mut seen[id], true) {
            return Err(Error::Aliasing(format!(
                "{} is allocated twice",
                s.name(id)
            )));
        }
    }
    // The allocated indices must determine every root index, each along one route: otherwise
    // items have no slot (the over-allocation would be negative) or one index is allocated
    // twice through another (`alloc I0 I1` with `I1` split from `I0`).
    if s.allocation.is_some() {
        let names = || {
            a.ids
                .iter()
                .map(|&i| s.name(i))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // An allocated IterDomain computed from another allocated one (definition order is
        // topological: one forward pass marks the descendants of the allocated ones).
        let mut below = vec![false; s.ids.len()];
        for tr in &s.transforms {
            if tr.inputs().iter().any(|&i| seen[i] || below[i]) {
                for o in tr.outputs() {
                    below[o] = true;
                }
            }
        }
        super::steps::tick(s.transforms.len());
        if let Some(&d) = a.ids.iter().find(|&&i| below[i]) {
            return Err(Error::Aliasing(format!(
                "{} is allocated and computed from another allocated IterDomain of [{}]: slots repeat items",
                s.name(d),
                names()
            )));
        }
        match super::eval::plan_from(s, &a.ids) {
            Ok(_) => {}
            Err(Error::Undetermined(id)) => {
                return Err(Error::BadAlloc(format!(
                    "the allocation [{}] does not determine the index of {id}: some items would have no slot",
                    names()
                )))
            }
            Err(Error::Overdetermined { ids, .. }) => {
                return Err(Error::Aliasing(format!(
                    "the allocation [{}] determines an index twice ({ids} are all allocated or computed from allocated IterDomains): slots repeat items",
                    names()
                )))
            }
            Err(e) => return Err(e),
        }
    }
    let Some(st) = &a.strides else {
        return Ok(());
    };
    let mut ext = Vec::with_capacity(a.ids.len());
    for &id in &a.ids {
        match s.ids[id].extent.eval(&s.facts)? {
            Some(e) => ext.push(e),
            None => return Ok(()),
        }
    }
    for (k, &id) in a.ids.iter().enumerate() {
        if st[k] == 0 && ext[k] > 1 {
            return Err(Error::Aliasing(format!(
                "stride 0 of {} (extent {}) puts {0} = 0 and {0} = 1 at one address",
                s.name(id),
                ext[k]
            )));
        }
    }
    let layout = match crate::Layout::new(
        &crate::layout::IntTuple::flat(ext.iter().copied()),
        &crate::layout::IntTuple::flat(st.iter().copied()),
    ) {
        Ok(l) => l,
        Err(_) => return Ok(()),
    };
    match crate::algebra::decide::is_injective(&layout) {
        Ok(d) if !d.holds => {
            let names: Vec<&str> = a.ids.iter().map(|&i| s.name(i)).collect();
            let mut msg = format!(
                "the allocation [{}] with extents {:?} and strides {:?} maps two points to one address",
                names.join(", "),
                ext,
                st
            );
            if let Some((x, y, at)) = collision(&ext, st) {
                msg.push_str(&format!(": {x:?} and {y:?} both at {at}"));
            }
            Err(Error::Aliasing(msg))
        }
        _ => Ok(()),
    }
}

/// Two coordinates (row-major over `ext`) with the same offset (computed exactly, in 128 bits),
/// when the domain has at most 2^16 points. Only the dimensions of extent > 1 are enumerated (at most 16 of them; the others
/// are 0), so the search costs O(2^16 · 16) however many dimensions of extent 1 there are.
fn collision(ext: &[i64], st: &[i64]) -> Option<(Vec<i64>, Vec<i64>, i128)> {
    let n = ext.iter().try_fold(1i64, |a, &e| a.checked_mul(e))?;
    if n > 1 << 16 {
        return None;
    }
    let active: Vec<usize> = (0..ext.len()).filter(|&k| ext[k] > 1).collect();
    let coord = |mut i: i64| {
        let mut c = vec![0; active.len()];
        for j in (0..active.len()).rev() {
            c[j] = i % ext[active[j]];
            i /= ext[active[j]];
        }
        c
    };
    let full = |c: &[i64]| {
        let mut f = vec![0; ext.len()];
        for (j, &k) in active.iter().enumerate() {
            f[k] = c[j];
        }
        f
    };
    let mut seen = std::collections::HashMap::new();
    super::steps::tick(ext.len());
    for i in 0..n {
        super::steps::tick(active.len() + 1);
        let c = coord(i);
        // Offsets in 128 bits: a coordinate below 2^16 times an i64 stride, summed over at most 16
        // dimensions, cannot overflow, so a collision is a true one (no wrapped alias).
        let off = c
            .iter()
            .zip(&active)
            .map(|(&a, &k)| i128::from(a) * i128::from(st[k]))
            .sum::<i128>();
        if let Some(&j) = seen.get(&off) {
            return Some((full(&coord(j)), full(&c), off));
        }
        seen.insert(off, i);
    }
    None
}

/// Computes the allocation size of the schedule's allocation domain.
///
/// Pre: explicit strides are non-negative; the allocation is not aliasing
/// ([`check_aliasing`]). Post: `size >= valid_items` whenever the allocation covers the roots;
/// over-allocation counts the allocated holes.
/// Example: the 6-by-4 example (`I0{6}` split by 4, allocation `[I1, I2]`) gives size 8, 6 valid, 2 over.
///
/// ```
/// // The 6-by-4 example: I0{6} split by 4, allocated as [I1, I2].
/// let s = tessera::domain::parse("I0 = iter 6\nI1, I2 = split I0 by 4\nloop I1 I2\nalloc I1 I2\n")
///     .unwrap();
/// let a = tessera::domain::alloc::allocation_info(&s).unwrap();
/// assert_eq!((a.size.to_string(), a.over_allocation), ("8".to_string(), Some(2)));
/// ```
pub fn allocation_info(s: &Schedule) -> Result<AllocInfo> {
    check_aliasing(s)?;
    let a = s.allocation()?;
    let size = if let Some(st) = &a.strides {
        // `1 + Σ (E_k − 1)·d_k`, summed as a balanced tree: O(k) for k allocated IterDomains.
        let mut terms = Vec::with_capacity(a.ids.len() + 1);
        terms.push(Extent::Const(1));
        for (k, &id) in a.ids.iter().enumerate() {
            terms.push(s.ids[id].extent.add(-1)?.mul(&Extent::Const(st[k]))?);
        }
        Extent::sum(&terms)?
    } else {
        Extent::product(a.ids.iter().map(|&id| &s.ids[id].extent))?
    };
    let valid = Extent::product(s.roots().into_iter().map(|r| &s.ids[r].extent))?;
    let over = match (size.eval(&s.facts)?, valid.eval(&s.facts)?) {
        (Some(a), Some(b)) => Some(error::sub(a, b)?),
        _ => None,
    };
    Ok(AllocInfo {
        ids: a.ids,
        strides: a.strides,
        size,
        valid_items: valid,
        over_allocation: over,
    })
}

/// A reduction that reads the buffer unpredicated; its identity is the required hole value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    /// Sum: holes must be 0.
    Sum,
    /// Product: holes must be 1.
    Product,
    /// Max: holes must be −∞.
    Max,
    /// Min: holes must be +∞.
    Min,
}

impl Reduction {
    /// The identity element: the value holes must hold for strong correctness.
    ///
    /// Example: `Reduction::Max.identity() == f64::NEG_INFINITY`.
    ///
    /// Pre: none. Post: `x ⊕ identity = x` for the reduction `⊕`.
    pub fn identity(self) -> f64 {
        match self {
            Reduction::Sum => 0.0,
            Reduction::Product => 1.0,
            Reduction::Max => f64::NEG_INFINITY,
            Reduction::Min => f64::INFINITY,
        }
    }
    /// Parses `sum`, `product`, `max`, `min`.
    ///
    /// Pre: none. Post: `None` for an unknown name. Example: `Reduction::parse("max") == Some(Reduction::Max)`.
    pub fn parse(s: &str) -> Option<Reduction> {
        match s {
            "sum" => Some(Reduction::Sum),
            "product" | "prod" => Some(Reduction::Product),
            "max" => Some(Reduction::Max),
            "min" => Some(Reduction::Min),
            _ => None,
        }
    }
}

/// A lowering of "copy every root item into the allocation": at each loop point, if every
/// IterDomain of `predicate` is in bound, read the root item (its value is its row-major position)
/// and write it to the slot of the allocation indices; otherwise write `fill` there if given
/// (like TMA's zero fill for out-of-bound boxes), else write nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Lowering {
    /// IterDomains whose in-bound conditions guard the write.
    pub predicate: Vec<Id>,
    /// Value written where the predicate fails (`None`: no write).
    pub fill: Option<f64>,
}

/// Result of [`check_lowering`].
#[derive(Debug, Clone, PartialEq)]
pub struct LoweringCheck {
    /// Definition 1 holds.
    pub weak: bool,
    /// Definition 2 holds for the desired fill value.
    pub strong: bool,
    /// Final buffer content (`None`: never written).
    pub buffer: Vec<Option<f64>>,
    /// Why weak or strong correctness fails (first few reasons).
    pub reasons: Vec<String>,
}

/// Slot of a point in the allocation (`None` when outside `[0, size)`), from the allocated
/// IterDomains whose index can be other than 0 (`terms`: IterDomain and stride).
fn slot(terms: &[(Id, i64)], size: i64, idx: &[i64]) -> Result<Option<i64>> {
    let mut p: i64 = 0;
    for &(id, stride) in terms {
        p = error::add(p, error::mul(idx[id], stride)?)?;
    }
    Ok(if (0..size).contains(&p) {
        Some(p)
    } else {
        None
    })
}

/// A buffer cell as text: its value, or `garbage` if never written.
///
/// Pre: none. Post: `-inf`/`inf` for infinities. Example: `show(Some(4.0)) == "4"`.
pub fn show(cell: Option<f64>) -> String {
    match cell {
        Some(v) => format!("{v}"),
        None => "garbage".to_string(),
    }
}

/// Default row-major strides for the allocation extents.
///
/// Pre: extents `>= 1`. Post: `st[last] = 1`, `st[k] = st[k+1] * extents[k+1]`; overflow is an error.
/// Example: `contiguous_strides(&[2, 3, 4]) == Ok(vec![12, 4, 1])`.
pub fn contiguous_strides(extents: &[i64]) -> Result<Vec<i64>> {
    let mut st = vec![1i64; extents.len()];
    for k in (0..extents.len().saturating_sub(1)).rev() {
        st[k] = error::mul(st[k + 1], extents[k + 1])?;
    }
    Ok(st)
}

/// Runs a lowering by enumeration and checks weak and strong correctness (Divisibility of Split's Definitions 1–2; ARCHITECTURE.md, glossary).
///
/// Pre: extents concrete; allocation size at most [`MAX_POINTS`]. Post: `weak` iff no two valid
/// items share a slot, no passing point reads a root out of bound or writes outside the buffer,
/// and every slot of a valid point ends holding that point's root item; `strong` iff additionally every slot no valid point
/// writes holds `desired` (NaN never matches).
/// Example: reference Example 10 with predicate = roots and fill 0 is weak but not strong; with
/// our predicate `{I5}` and fill 0 it is strong.
pub fn check_lowering(s: &Schedule, lowering: &Lowering, desired: f64) -> Result<LoweringCheck> {
    let space = Space::new(s)?;
    let a = s.allocation()?;
    let alloc_ext: Vec<i64> = a.ids.iter().map(|&i| space.extents[i]).collect();
    let strides = match &a.strides {
        Some(st) => st.clone(),
        None => contiguous_strides(&alloc_ext)?,
    };
    let info = allocation_info(s)?;
    let size = info.size.eval(&s.facts)?.unwrap_or(0);
    if size < 0 || size as u64 > MAX_POINTS {
        return Err(Error::TooManyPoints {
            points: size.max(0) as u64,
            limit: MAX_POINTS,
        });
    }
    // Per point, only what can vary is looked at: loop IDs of extent 1 are 0 at every point
    // (allocated or not) and loop IDs are always in bound (never a predicate's concern), so the
    // work per point stays within the space's `point_cost` however many such IDs there are.
    let mut is_loop = vec![false; s.ids.len()];
    for &l in &space.loop_ids {
        is_loop[l] = true;
    }
    let terms: Vec<(Id, i64)> = a
        .ids
        .iter()
        .zip(&strides)
        .filter(|&(&id, _)| !(is_loop[id] && space.extents[id] == 1))
        .map(|(&id, &st)| (id, st))
        .collect();
    let predicate: Vec<Id> = lowering
        .predicate
        .iter()
        .copied()
        .filter(|&i| !is_loop[i])
        .collect();
    let mut buffer: Vec<Option<f64>> = vec![None; size as usize];
    // The root item each valid slot must end with; NaN: no valid item (8 bytes a slot, the
    // buffer 16: 384 MiB at the 2^24-slot bound).
    let mut expected: Vec<f64> = vec![f64::NAN; size as usize];
    let mut reasons = Vec::new();
    let mut weak = true;
    let names = |idx: &[i64]| -> String {
        space
            .loop_ids
            .iter()
            .map(|&l| format!("{}={}", s.name(l), idx[l]))
            .collect::<Vec<_>>()
            .join(", ")
    };
    space.for_each(|idx| {
        let sl = slot(&terms, size, idx)?;
        let value = space.root_item(idx).map(|v| v as f64);
        if space.valid(idx) {
            match sl {
                Some(p)
                    if !expected[p as usize].is_nan() && Some(expected[p as usize]) != value =>
                {
                    weak = false;
                    if reasons.len() < 8 {
                        reasons.push(format!(
                            "the allocation aliases two valid items in slot {p} (at ({}))",
                            names(idx)
                        ));
                    }
                }
                Some(p) => expected[p as usize] = value.unwrap_or(f64::NAN),
                None => {
                    weak = false;
                    if reasons.len() < 8 {
                        reasons.push(format!("valid point ({}) has no slot", names(idx)));
                    }
                }
            }
        }
        if space.passes(idx, &predicate) {
            match (value, sl) {
                (Some(v), Some(p)) => buffer[p as usize] = Some(v),
                (None, _) => {
                    weak = false;
                    if reasons.len() < 8 {
                        reasons.push(format!(
                            "illegal read: root index out of bound at ({})",
                            names(idx)
                        ));
                    }
                }
                (_, None) => {
                    weak = false;
                    if reasons.len() < 8 {
                        reasons.push(format!(
                            "illegal write outside the buffer at ({})",
                            names(idx)
                        ));
                    }
                }
            }
        } else if let (Some(f), Some(p)) = (lowering.fill, sl) {
            buffer[p as usize] = Some(f);
        }
        Ok(true)
    })?;
    for p in 0..buffer.len() {
        let e = expected[p];
        if !e.is_nan() && buffer[p] != Some(e) {
            weak = false;
            if reasons.len() < 8 {
                reasons.push(format!(
                    "valid slot {p} holds {}, expected {e}",
                    show(buffer[p])
                ));
            }
        }
    }
    let mut strong = weak;
    for p in 0..buffer.len() {
        if expected[p].is_nan() && buffer[p] != Some(desired) {
            strong = false;
            if reasons.len() < 8 {
                reasons.push(format!(
                    "hole slot {p} holds {}, desired {desired}",
                    show(buffer[p])
                ));
            }
        }
    }
    Ok(LoweringCheck {
        weak,
        strong,
        buffer,
        reasons,
    })
}
