//! Equivalence of two transform sequences over the same roots.
//!
//! Two schedules are equivalent when their loop domains have the same extents and every loop
//! point maps to the same root indices (holes included): the (extent map, index map) equality of
//! nvFuser's `doc/reading/iterdomain.md` Def 1.2. Decided two ways: by rule — Theorem 5
//! (merge-then-split ≡ split-then-merge iff the split divides the inner extent; Coq:
//! `merge_split_commute_iff_divisible` in `proofs/Divisibility.v`) when the pair has
//! exactly that shape, otherwise by comparing the loop domains as terms over the roots after
//! rewriting every divisible merge-then-split into split-then-merge (equal normal forms ⇒
//! equivalent) — and by enumeration, which gives a counterexample.

use super::error::{Error, Result};
use super::eval::{plan, Direction, Space};
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
/// Post: `by_rule` is `Some` when the pair is Figure 3's (Theorem 5, `Yes`/`No`/`Unknown`) or
/// when the Theorem-5 normal forms agree (`Yes`); `by_enumeration` is `Some`
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
        _ => normal_forms_agree(a, b)?,
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

/// An IterDomain as a term over the roots (for schedules computed from the roots forward).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Term {
    Root(String, Extent),
    /// Output of a split: input, factor, outer-split kind, whether this is the outer output.
    Split(Box<Term>, i64, bool, bool),
    Merge(Box<Term>, Box<Term>),
    Resize(Box<Term>, i64, i64),
    /// Output of a swizzle: inputs, whether this is the Y output.
    Swizzle(Box<Term>, Box<Term>, bool),
}

impl Term {
    fn extent(&self) -> Result<Extent> {
        Ok(match self {
            Term::Root(_, e) => e.clone(),
            Term::Split(t, f, outer_kind, is_outer) => {
                let rem = t.extent()?.ceil_div(*f)?;
                if *outer_kind == *is_outer {
                    Extent::Const(*f)
                } else {
                    rem
                }
            }
            Term::Merge(a, b) => a.extent()?.mul(&b.extent()?)?,
            Term::Resize(t, l, r) => {
                t.extent()?.add(l.checked_add(*r).ok_or(Error::Overflow {
                    op: "add",
                    a: *l,
                    b: *r,
                })?)?
            }
            Term::Swizzle(x, y, is_y) => {
                if *is_y {
                    y.extent()?
                } else {
                    x.extent()?
                }
            }
        })
    }
}

/// Terms of every IterDomain, or `None` when some index is computed forward (then the loop
/// domain is not a function of root terms in this simple sense).
fn terms(s: &Schedule) -> Result<Option<Vec<Term>>> {
    if plan(s)?.iter().any(|st| st.direction == Direction::Forward) {
        return Ok(None);
    }
    // With an IterDomain used twice, which use computes it depends on definition order: the
    // terms would not determine the index map.
    let mut uses = vec![0usize; s.ids.len()];
    for tr in &s.transforms {
        for i in tr.inputs() {
            uses[i] += 1;
        }
    }
    if uses.iter().any(|&u| u > 1) {
        return Ok(None);
    }
    let mut t: Vec<Option<Term>> = vec![None; s.ids.len()];
    for (i, d) in s.ids.iter().enumerate() {
        if d.definition.is_none() {
            t[i] = Some(Term::Root(d.name.clone(), d.extent.clone()));
        }
    }
    for tr in &s.transforms {
        let get = |i: Id| t[i].clone().map(Box::new);
        match *tr {
            Transform::Split {
                input,
                outer,
                inner,
                factor,
                kind,
            } => {
                let Some(x) = get(input) else { return Ok(None) };
                let ok = kind == SplitKind::Outer;
                t[outer] = Some(Term::Split(x.clone(), factor, ok, true));
                t[inner] = Some(Term::Split(x, factor, ok, false));
            }
            Transform::Merge {
                outer,
                inner,
                output,
            } => {
                let (Some(a), Some(b)) = (get(outer), get(inner)) else {
                    return Ok(None);
                };
                t[output] = Some(Term::Merge(a, b));
            }
            Transform::Resize {
                input,
                output,
                left,
                right,
            } => {
                let Some(x) = get(input) else { return Ok(None) };
                t[output] = Some(Term::Resize(x, left, right));
            }
            Transform::Swizzle { x, y, out_x, out_y } => {
                let (Some(a), Some(b)) = (get(x), get(y)) else {
                    return Ok(None);
                };
                t[out_x] = Some(Term::Swizzle(a.clone(), b.clone(), false));
                t[out_y] = Some(Term::Swizzle(a, b, true));
            }
        }
    }
    Ok(t.into_iter().collect())
}

/// Rewrites with Theorem 5 until no redex is left: an inner split by `f` of `merge(A, B)` with
/// `f | E(B)` is `merge(A, split(B, f).outer)` (outer output) and `split(B, f).inner` (inner
/// output). Keeps every term's extent and forward index (`normalize_sound` in
/// `proofs/Normalize.v`).
fn normalize(t: &Term, s: &Schedule) -> Result<Term> {
    Ok(match t {
        Term::Root(..) => t.clone(),
        Term::Split(x, f, outer_kind, is_outer) => {
            let x = normalize(x, s)?;
            if let (Term::Merge(a, b), false) = (&x, *outer_kind) {
                if s.facts.divides(*f, &b.extent()?)? == Decision::Yes {
                    let split_b = Term::Split(b.clone(), *f, false, *is_outer);
                    return if *is_outer {
                        normalize(&Term::Merge(a.clone(), Box::new(split_b)), s)
                    } else {
                        normalize(&split_b, s)
                    };
                }
            }
            Term::Split(Box::new(x), *f, *outer_kind, *is_outer)
        }
        Term::Merge(a, b) => Term::Merge(Box::new(normalize(a, s)?), Box::new(normalize(b, s)?)),
        Term::Resize(x, l, r) => Term::Resize(Box::new(normalize(x, s)?), *l, *r),
        Term::Swizzle(x, y, is_y) => Term::Swizzle(
            Box::new(normalize(x, s)?),
            Box::new(normalize(y, s)?),
            *is_y,
        ),
    })
}

/// The general rule: both loop domains, as terms over the roots normalized with Theorem 5, are
/// equal ⇒ the schedules are equivalent. (Unequal normal forms prove nothing.)
fn normal_forms_agree(a: &Schedule, b: &Schedule) -> Result<Option<RuleVerdict>> {
    let (Some(ta), Some(tb)) = (terms(a)?, terms(b)?) else {
        return Ok(None);
    };
    let la: Vec<Term> = a
        .loop_ids()?
        .iter()
        .map(|&l| normalize(&ta[l], a))
        .collect::<Result<_>>()?;
    let lb: Vec<Term> = b
        .loop_ids()?
        .iter()
        .map(|&l| normalize(&tb[l], b))
        .collect::<Result<_>>()?;
    Ok((la == lb).then(|| RuleVerdict {
        rule: "normal forms under Theorem 5 rewriting agree".into(),
        equivalent: Decision::Yes,
        condition: "loop domains equal as terms over the roots".into(),
    }))
}
