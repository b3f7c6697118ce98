//! Equivalence of two transform sequences over the same roots.
//!
//! Two schedules are equivalent when their loop domains have the same extents and every loop
//! point maps to the same root indices (holes included): the (extent map, index map) equality of
//! nvFuser's `doc/reading/iterdomain.md` Def 1.2. Decided two ways: by Theorem 5
//! (merge-then-split ≡ split-then-merge iff the split divides the inner extent) when the pair has
//! that shape, and by enumeration, which gives a counterexample.

use super::error::{Error, Result};
use super::eval::Space;
use super::ir::{Id, Schedule, SplitKind, Transform};
use super::symbolic::{Decision, Extent};

/// The answer of the divisibility rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleVerdict {
    /// The rule used, e.g. `"Theorem 5 (merge-then-split vs split-then-merge)"`.
    pub rule: String,
    /// The decision (`Unknown`: a runtime obligation).
    pub equivalent: Decision,
    /// The condition the rule reduces equivalence to, e.g. `4 | 5`.
    pub condition: String,
}

/// The answer of enumeration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumVerdict {
    /// Same loop extents and same root indices at every loop point.
    pub equivalent: bool,
    /// Whether the valid items are visited in the same order (a weaker property that holds for
    /// Theorem 5's indivisible counterexample too).
    pub same_valid_order: bool,
    /// A counterexample when not equivalent.
    pub counterexample: Option<String>,
}

/// Both answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Equivalence {
    /// By rule, when a rule applies.
    pub by_rule: Option<RuleVerdict>,
    /// By enumeration, when extents are concrete.
    pub by_enumeration: Option<EnumVerdict>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    SplitThenMerge,
    MergeThenSplit,
}

/// Recognizes Figure 3's shapes over roots `[R1, R2]` with loop `[outer, inner]`:
/// transformation 1 `R2 -> split by N -> (A, B)`, `merge R1, A`; transformation 2
/// `merge R1, R2`, `split by N`.
fn shape(s: &Schedule) -> Option<(Shape, i64)> {
    let roots = s.roots();
    if roots.len() != 2 || s.transforms.len() != 2 {
        return None;
    }
    let (r1, r2) = (roots[0], roots[1]);
    let lp = s.loop_ids().ok()?;
    match (&s.transforms[0], &s.transforms[1]) {
        (
            Transform::Split {
                input,
                outer,
                inner,
                factor,
                kind: SplitKind::Inner,
            },
            Transform::Merge {
                outer: mo,
                inner: mi,
                output,
            },
        ) if *input == r2 && *mo == r1 && *mi == *outer && lp == vec![*output, *inner] => {
            Some((Shape::SplitThenMerge, *factor))
        }
        (
            Transform::Merge {
                outer: mo,
                inner: mi,
                output,
            },
            Transform::Split {
                input,
                outer,
                inner,
                factor,
                kind: SplitKind::Inner,
            },
        ) if *mo == r1 && *mi == r2 && *input == *output && lp == vec![*outer, *inner] => {
            Some((Shape::MergeThenSplit, *factor))
        }
        _ => None,
    }
}

fn same_roots(a: &Schedule, b: &Schedule) -> Result<()> {
    let (ra, rb) = (a.roots(), b.roots());
    let sig = |s: &Schedule, r: &[Id]| -> Vec<(String, Extent)> {
        r.iter()
            .map(|&i| (s.ids[i].name.clone(), s.ids[i].extent.clone()))
            .collect()
    };
    if sig(a, &ra) != sig(b, &rb) {
        return Err(Error::NotComparable(format!(
            "roots differ: {:?} vs {:?}",
            sig(a, &ra),
            sig(b, &rb)
        )));
    }
    Ok(())
}

/// Decides equivalence of two schedules over the same roots.
///
/// Pre: the roots agree (names and extents, in order), else [`Error::NotComparable`].
/// Post: `by_rule` is `Some` when the pair is Figure 3's (Theorem 5); `by_enumeration` is `Some`
/// when extents are concrete, with a counterexample when they differ. When both are present
/// they agree (tested).
/// Example: Listings 1 and 2 (`I1{2}, I2{5}`, `N = 4`) are not equivalent: loop extents `[4, 4]`
/// vs `[3, 4]`; with `I2{8}` they are.
pub fn compare(a: &Schedule, b: &Schedule) -> Result<Equivalence> {
    same_roots(a, b)?;
    let by_rule = match (shape(a), shape(b)) {
        (Some((sa, fa)), Some((sb, fb))) if sa != sb && fa == fb => {
            let r2 = a.roots()[1];
            let e = &a.ids[r2].extent;
            let d = a.facts.divides(fa, e)?;
            Some(RuleVerdict {
                rule: "Theorem 5 (merge-then-split vs split-then-merge)".into(),
                equivalent: d,
                condition: format!("{fa} | {e}"),
            })
        }
        _ => None,
    };
    let by_enumeration = match (Space::new(a), Space::new(b)) {
        (Ok(sa), Ok(sb)) => Some(enumerate(&sa, &sb)?),
        _ => None,
    };
    Ok(Equivalence {
        by_rule,
        by_enumeration,
    })
}

fn roots_at(space: &Space, idx: &[i64]) -> Vec<i64> {
    space.schedule.roots().iter().map(|&r| idx[r]).collect()
}

fn valid_sequence(space: &Space) -> Result<Vec<Vec<i64>>> {
    let mut out = Vec::new();
    space.for_each(|idx| {
        if space.valid(idx) {
            out.push(roots_at(space, idx));
        }
        Ok(true)
    })?;
    Ok(out)
}

fn enumerate(a: &Space, b: &Space) -> Result<EnumVerdict> {
    let same_valid_order = valid_sequence(a)? == valid_sequence(b)?;
    let ea: Vec<i64> = a.loop_ids.iter().map(|&l| a.extents[l]).collect();
    let eb: Vec<i64> = b.loop_ids.iter().map(|&l| b.extents[l]).collect();
    if ea != eb {
        return Ok(EnumVerdict {
            equivalent: false,
            same_valid_order,
            counterexample: Some(format!("loop extents differ: {ea:?} vs {eb:?}")),
        });
    }
    let mut pa = Vec::new();
    a.for_each(|idx| {
        pa.push((
            a.loop_ids.iter().map(|&l| idx[l]).collect::<Vec<_>>(),
            roots_at(a, idx),
        ));
        Ok(true)
    })?;
    let mut k = 0;
    let mut cex = None;
    b.for_each(|idx| {
        let rb = roots_at(b, idx);
        if pa[k].1 != rb {
            cex = Some(format!(
                "at loop point {:?}: roots {:?} vs {:?}",
                pa[k].0, pa[k].1, rb
            ));
            return Ok(false);
        }
        k += 1;
        Ok(true)
    })?;
    Ok(EnumVerdict {
        equivalent: cex.is_none(),
        same_valid_order,
        counterexample: cex,
    })
}
