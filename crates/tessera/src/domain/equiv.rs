//! Equivalence of two transform sequences over the same roots.
//!
//! Two schedules are equivalent when their loop domains have the same extents and every loop
//! point maps to the same root indices (holes included): the (extent map, index map) equality of
//! nvFuser's `doc/reading/iterdomain.md` Def 1.2. Decided two ways: by rule — Theorem 5
//! (merge-then-split ≡ split-then-merge iff the split divides the inner extent; Coq:
//! `merge_split_commute_iff_divisible` in `proofs/Divisibility.v`) when the pair has
//! exactly that shape, otherwise identical loop terms (`consistent_unique`), or equal loop
//! domains as terms over the roots after rewriting every divisible merge-then-split into
//! split-then-merge together with `backward_check` (`backward_check_sound` in
//! `proofs/NormalizeBackward.v`; equal normal forms alone are not enough at holes,
//! `normal_forms_unsound_at_holes`) — and by enumeration, which gives a counterexample.

use super::error::{Error, Result};
use super::eval::{plan, Direction, Space};
use super::ir::{Id, Schedule, SplitKind, Transform};
use super::symbolic::{Decision, Extent, Facts};
use std::collections::HashSet;

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

/// Recognizes the merge-split example's shapes over roots `[R1, R2]` with loop `[outer, inner]`:
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
/// Post: `by_rule` is `Some` when the pair is the merge-split example's (Theorem 5, `Yes`/`No`/`Unknown`), when
/// the loop terms are identical (`Yes`, `consistent_unique`), or when the Theorem-5 normal forms
/// agree and `backward_check` passes one way (`Yes`, `backward_check_sound`); normal forms that
/// agree while the check fails both ways leave the answer to enumeration when extents are
/// concrete and give `Unknown` when they are not. `by_enumeration` is `Some` when extents are
/// concrete, with a counterexample when they differ. A rule's `Yes`/`No` is proved in Coq for the
/// model of the schedule, `plan`, `terms` and `propagate` (`rust_normal_forms_sound`,
/// `rust_identical_terms_sound` in `proofs/BackwardRust.v`: `propagate` reaches the same roots in
/// both schedules); that Rust runs that model is bridged (`tests/bridge/backward.rs`) and its
/// consequences tested (the proptests and an exhaustive scan in `tests/domain/domain_equiv.rs`).
/// Example: the split-then-merge and merge-then-split orders (`I1{2}, I2{5}`, `N = 4`) are not equivalent: loop extents `[4, 4]`
/// vs `[3, 4]`; with `I2{8}` they are.
///
/// ```
/// use tessera::domain::{equiv::compare, parse};
/// // The merge-split example: T[I1{2}, I2{5}], N = 4 (5 is not divisible by 4).
/// let a = "I1 = iter 2\nI2 = iter 5\nI3, I5 = split I2 by 4\nI4 = merge I1, I3\nloop I4 I5\n";
/// let b = "I1 = iter 2\nI2 = iter 5\nI3 = merge I1, I2\nI4, I5 = split I3 by 4\nloop I4 I5\n";
/// let (a, b) = (parse(a).unwrap(), parse(b).unwrap());
/// let e = compare(&a, &b).unwrap();
/// assert!(!e.by_enumeration.unwrap().equivalent);
/// ```
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
    let by_rule = match by_rule {
        Some(r) => Some(r),
        None => match normal_forms_agree(a, b)? {
            TermRule::NotApplicable => None,
            TermRule::Proved(r) => Some(r),
            // The rule does not decide: enumeration does when it can, else Unknown.
            TermRule::Unchecked if by_enumeration.is_some() => None,
            TermRule::Unchecked => Some(RuleVerdict {
                rule: "normal forms under Theorem 5 rewriting agree".into(),
                equivalent: Decision::Unknown,
                condition: "backward_check fails both ways (holes may differ)".into(),
            }),
        },
    };
    Ok(Equivalence {
        by_rule,
        by_enumeration,
    })
}

fn roots_at(space: &Space, idx: &[i64]) -> Vec<i64> {
    space.schedule.roots().iter().map(|&r| idx[r]).collect()
}

/// The loop points of a space one at a time, in [`Space::for_each`]'s order (two walks can
/// then run in lockstep without storing either).
struct Walk<'s, 'a> {
    space: &'s Space<'a>,
    idx: Vec<i64>,
    vary: Vec<Id>,
    left: u64,
    started: bool,
}

impl<'s, 'a> Walk<'s, 'a> {
    fn new(space: &'s Space<'a>) -> Walk<'s, 'a> {
        Walk {
            space,
            idx: vec![0; space.schedule.ids.len()],
            vary: space.varying.iter().map(|&k| space.loop_ids[k]).collect(),
            left: space.points,
            started: false,
        }
    }

    /// The next point (all indices computed), or `None` after the last.
    fn next(&mut self) -> Result<Option<&[i64]>> {
        if self.left == 0 {
            return Ok(None);
        }
        if std::mem::replace(&mut self.started, true) {
            for &l in self.vary.iter().rev() {
                self.idx[l] += 1;
                if self.idx[l] < self.space.extents[l] {
                    break;
                }
                self.idx[l] = 0;
            }
        }
        self.left -= 1;
        self.space.propagate(&mut self.idx)?;
        Ok(Some(&self.idx))
    }

    /// The next valid point, or `None`.
    fn next_valid(&mut self) -> Result<Option<&[i64]>> {
        while self.left > 0 {
            self.next()?;
            if self.space.valid(&self.idx) {
                return Ok(Some(&self.idx));
            }
        }
        Ok(None)
    }
}

/// Decides both verdicts by walking the two spaces in lockstep: time O(points × cost per
/// point), memory O(IterDomains) (storing every point's roots, as first written, took
/// points × roots words: 2^21 points × 50,000 roots ran out of memory).
fn enumerate(a: &Space, b: &Space) -> Result<EnumVerdict> {
    // Roots compared: those whose index can be other than 0 in either schedule (a loop root of
    // extent 1 is 0 at every point). `same_roots` put the roots in the same order.
    let (ra, rb) = (a.schedule.roots(), b.schedule.roots());
    let mut loop_a = vec![false; a.extents.len()];
    let mut loop_b = vec![false; b.extents.len()];
    a.loop_ids.iter().for_each(|&l| loop_a[l] = true);
    b.loop_ids.iter().for_each(|&l| loop_b[l] = true);
    let rel: Vec<(Id, Id)> = ra
        .iter()
        .zip(&rb)
        .filter(|&(&x, &y)| !(a.extents[x] == 1 && loop_a[x] && b.extents[y] == 1 && loop_b[y]))
        .map(|(&x, &y)| (x, y))
        .collect();
    let same = |ia: &[i64], ib: &[i64]| rel.iter().all(|&(x, y)| ia[x] == ib[y]);
    let (mut wa, mut wb) = (Walk::new(a), Walk::new(b));
    let same_valid_order = loop {
        match (wa.next_valid()?, wb.next_valid()?) {
            (None, None) => break true,
            (Some(ia), Some(ib)) if same(ia, ib) => continue,
            _ => break false,
        }
    };
    let ea: Vec<i64> = a.loop_ids.iter().map(|&l| a.extents[l]).collect();
    let eb: Vec<i64> = b.loop_ids.iter().map(|&l| b.extents[l]).collect();
    if ea != eb {
        return Ok(EnumVerdict {
            equivalent: false,
            same_valid_order,
            counterexample: Some(format!("loop extents differ: {ea:?} vs {eb:?}")),
        });
    }
    let (mut wa, mut wb) = (Walk::new(a), Walk::new(b));
    let mut cex = None;
    while let (Some(ia), Some(ib)) = (wa.next()?, wb.next()?) {
        if !same(ia, ib) {
            let point: Vec<i64> = a.loop_ids.iter().map(|&l| ia[l]).collect();
            cex = Some(format!(
                "at loop point {point:?}: roots {:?} vs {:?}",
                roots_at(a, ia),
                roots_at(b, ib)
            ));
            break;
        }
    }
    Ok(EnumVerdict {
        equivalent: cex.is_none(),
        same_valid_order,
        counterexample: cex,
    })
}

/// An IterDomain as a term over the roots (for schedules computed from the roots forward).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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

/// Theorem 5's normal forms are computed only for IterDomains whose term over the roots has at
/// most this many nodes (real schedules have tens); past it `by_rule` is `None` and the
/// enumeration decides. Keeps the rewriting, which recurses along terms, shallow and small.
///
/// Pre/Post: a bound, not a correctness condition. Example: 30 rounds of "split by 1, merge the
/// two outputs back" build a term of 2^31 nodes: not tried.
pub const MAX_TERM_NODES: u64 = 1 << 10;

/// Terms of every IterDomain, or `None` when some index is computed forward (then the loop
/// domain is not a function of root terms in this simple sense). `rterms` of
/// `proofs/BackwardRust.v`: when it returns terms, the indices `Space::propagate` computes from
/// any loop point are the backward map of the loop terms (`rust_backward_consistent`,
/// `rust_backward_unique`).
fn terms(s: &Schedule) -> Result<Option<Vec<Term>>> {
    if plan(s)?.iter().any(|st| st.direction == Direction::Forward) {
        return Ok(None);
    }
    // With an IterDomain used twice, which use computes it depends on definition order: the
    // terms would not determine the index map. (Defensive: after a plan with no forward step
    // this never fires, `backward_plan_inputs_once` in `proofs/BackwardRust.v`.)
    let mut uses = vec![0usize; s.ids.len()];
    for tr in &s.transforms {
        for i in tr.inputs() {
            uses[i] += 1;
        }
    }
    if uses.iter().any(|&u| u > 1) {
        return Ok(None);
    }
    // A term is a tree: a split's two outputs share its input, so merging them back doubles it
    // (k such rounds: 2^k nodes). Past `MAX_TERM_NODES` the rule is not tried.
    let mut size = vec![1u64; s.ids.len()];
    for tr in &s.transforms {
        let n = tr
            .inputs()
            .iter()
            .fold(1u64, |a, &i| a.saturating_add(size[i]));
        for o in tr.outputs() {
            size[o] = n;
        }
    }
    super::steps::tick(s.ids.len());
    if size.iter().any(|&n| n > MAX_TERM_NODES) {
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
/// `proofs/Normalize.v`); the result is a normal form, and normalising it again changes nothing
/// (`normalize_normal_form`, `normalize_idempotent` in `proofs/NormalizeNF.v`); normalising every
/// term of a well-formed loop domain (both outputs of each split and swizzle present) gives a
/// well-formed one (`normalize_wf` in `proofs/NormalizeWF.v`).
fn normalize(t: &Term, facts: &Facts) -> Result<Term> {
    Ok(match t {
        Term::Root(..) => t.clone(),
        Term::Split(x, f, outer_kind, is_outer) => {
            let x = normalize(x, facts)?;
            if let (Term::Merge(a, b), false) = (&x, *outer_kind) {
                if facts.divides(*f, &b.extent()?)? == Decision::Yes {
                    let split_b = Term::Split(b.clone(), *f, false, *is_outer);
                    return if *is_outer {
                        normalize(&Term::Merge(a.clone(), Box::new(split_b)), facts)
                    } else {
                        normalize(&split_b, facts)
                    };
                }
            }
            Term::Split(Box::new(x), *f, *outer_kind, *is_outer)
        }
        Term::Merge(a, b) => Term::Merge(
            Box::new(normalize(a, facts)?),
            Box::new(normalize(b, facts)?),
        ),
        Term::Resize(x, l, r) => Term::Resize(Box::new(normalize(x, facts)?), *l, *r),
        Term::Swizzle(x, y, is_y) => Term::Swizzle(
            Box::new(normalize(x, facts)?),
            Box::new(normalize(y, facts)?),
            *is_y,
        ),
    })
}

/// `subs L` of `proofs/NormalizeBackward.v`: every IterDomain of a loop domain's terms (each
/// term and all its sub-terms; order and repeats do not matter).
fn subs(l: &[Term]) -> Vec<&Term> {
    let mut out = Vec::new();
    let mut stack: Vec<&Term> = l.iter().collect();
    while let Some(t) = stack.pop() {
        out.push(t);
        match t {
            Term::Root(..) => {}
            Term::Split(x, ..) | Term::Resize(x, ..) => stack.push(x),
            Term::Merge(a, b) | Term::Swizzle(a, b, _) => {
                stack.push(a);
                stack.push(b);
            }
        }
    }
    super::steps::tick(out.len());
    out
}

/// `wfb L`: every split and swizzle occurring in `L`'s terms has both outputs there (what
/// `plan` needs to compute its input backward).
fn wfb(l: &[Term]) -> bool {
    let all = subs(l);
    let splits: HashSet<(&Term, i64, bool, bool)> = all
        .iter()
        .filter_map(|t| match t {
            Term::Split(x, f, ok, io) => Some((&**x, *f, *ok, *io)),
            _ => None,
        })
        .collect();
    let swizzles: HashSet<(&Term, &Term, bool)> = all
        .iter()
        .filter_map(|t| match t {
            Term::Swizzle(x, y, is_y) => Some((&**x, &**y, *is_y)),
            _ => None,
        })
        .collect();
    splits.iter().all(|&(x, f, ok, _)| {
        splits.contains(&(x, f, ok, true)) && splits.contains(&(x, f, ok, false))
    }) && swizzles
        .iter()
        .all(|&(x, y, _)| swizzles.contains(&(x, y, false)) && swizzles.contains(&(x, y, true)))
}

/// `in_range E A b`: `b`'s extent is positive and `b` is in `A` (the anchored IterDomains of
/// `L1`), or is an inner split output, or an outer split output (factor `> 0`), merge or padding
/// resize (`l, r >= 0`) of `in_range` terms. Positivity must be `Yes` under `facts` (for every
/// value of the symbols the facts allow).
fn in_range(b: &Term, anchored: &HashSet<&Term>, facts: &Facts) -> Result<bool> {
    if facts.at_least(&b.extent()?, 1)? != Decision::Yes {
        return Ok(false);
    }
    if anchored.contains(b) {
        return Ok(true);
    }
    Ok(match b {
        Term::Split(x, f, _, true) => *f > 0 && in_range(x, anchored, facts)?,
        Term::Split(_, _, _, false) => true,
        Term::Merge(a, c) => in_range(a, anchored, facts)? && in_range(c, anchored, facts)?,
        Term::Resize(x, l, r) => *l >= 0 && *r >= 0 && in_range(x, anchored, facts)?,
        Term::Root(..) | Term::Swizzle(..) => false,
    })
}

/// `backward_check E L1 L2` of `proofs/NormalizeBackward.v`, transcribed: every split's inner
/// output in `L1` is a loop IterDomain of `L1`; `L2` is `wf`; every merge's inner input in `L2`
/// is `in_range` of `anchored L1` (`L1`'s loop terms and the merge inner inputs in `L1`'s terms).
///
/// Pre: `l1`, `l2` are the loop domains' terms (not normalized). Post: `true` ⇒ with equal
/// normal forms, both loop domains reach the same root indices backward from every point of
/// `L1`'s box, holes included (`backward_check_sound`). Example: the merge-split example with `f | E(B)` passes;
/// `normal_forms_unsound_at_holes`'s pair fails both ways (`backward_check_examples`).
fn backward_check(l1: &[Term], l2: &[Term], facts: &Facts) -> Result<bool> {
    let subs1 = subs(l1);
    // split_inners_loop L1
    let loop_inners: HashSet<(&Term, i64, bool)> = l1
        .iter()
        .filter_map(|t| match t {
            Term::Split(x, f, ok, false) => Some((&**x, *f, *ok)),
            _ => None,
        })
        .collect();
    let split_inners_loop = subs1.iter().all(|t| match t {
        Term::Split(x, f, ok, _) => loop_inners.contains(&(&**x, *f, *ok)),
        _ => true,
    });
    if !split_inners_loop || !wfb(l2) {
        return Ok(false);
    }
    // merges_in_range E L1 L2, with anchored L1 = L1 ++ merge_inners (subs L1)
    let anchored: HashSet<&Term> = l1
        .iter()
        .chain(subs1.iter().filter_map(|t| match t {
            Term::Merge(_, b) => Some(&**b),
            _ => None,
        }))
        .collect();
    for t in subs(l2) {
        if let Term::Merge(_, b) = t {
            if !in_range(b, &anchored, facts)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// A term of `proofs/NormalizeBackward.v` over numbered roots. Exists only for the bridge test
/// (`tests/bridge.rs`, [`backward_check_concrete`]); not part of the API.
#[doc(hidden)]
#[derive(Debug, Clone)]
pub enum BridgeTerm {
    /// Root `r` (extent `extents[r]`).
    Root(usize),
    /// Output of a split: input, factor, outer-split kind, whether this is the outer output.
    Split(Box<BridgeTerm>, i64, bool, bool),
    /// Merge of outer and inner.
    Merge(Box<BridgeTerm>, Box<BridgeTerm>),
    /// Resize by `left`, `right`.
    Resize(Box<BridgeTerm>, i64, i64),
    /// Output of a swizzle: inputs, whether this is the Y output.
    Swizzle(Box<BridgeTerm>, Box<BridgeTerm>, bool),
}

impl BridgeTerm {
    fn term(&self, extents: &[i64]) -> Term {
        let t = |x: &BridgeTerm| Box::new(x.term(extents));
        match self {
            BridgeTerm::Root(r) => Term::Root(
                format!("r{r}"),
                Extent::Const(extents.get(*r).copied().unwrap_or(0)),
            ),
            BridgeTerm::Split(x, f, ok, io) => Term::Split(t(x), *f, *ok, *io),
            BridgeTerm::Merge(a, b) => Term::Merge(t(a), t(b)),
            BridgeTerm::Resize(x, l, r) => Term::Resize(t(x), *l, *r),
            BridgeTerm::Swizzle(x, y, is_y) => Term::Swizzle(t(x), t(y), *is_y),
        }
    }
}

/// Exists only for the bridge test: `backward_check` with concrete root extents (the Coq
/// `E : nat -> Z`, `E r = extents[r]`, 0 past the end) and no facts, on terms over numbered roots.
///
/// Pre: split factors `>= 1` (the IR's; Rust's extents are not Coq's `cdiv` for others). Post:
/// the answer of `backward_check` on these terms. Example: the merge-split example with `f | E(B)` gives `true`.
#[doc(hidden)]
pub fn backward_check_concrete(
    l1: &[BridgeTerm],
    l2: &[BridgeTerm],
    extents: &[i64],
) -> Result<bool> {
    let l1: Vec<Term> = l1.iter().map(|t| t.term(extents)).collect();
    let l2: Vec<Term> = l2.iter().map(|t| t.term(extents)).collect();
    backward_check(&l1, &l2, &Facts::default())
}

impl BridgeTerm {
    /// The bridge term of a term over roots named `r0`, `r1`, ... (as [`BridgeTerm::term`] names
    /// them); another name becomes `Root(usize::MAX)`.
    fn of_term(t: &Term) -> BridgeTerm {
        let b = |x: &Term| Box::new(BridgeTerm::of_term(x));
        match t {
            Term::Root(name, _) => BridgeTerm::Root(
                name.strip_prefix('r')
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(usize::MAX),
            ),
            Term::Split(x, f, ok, io) => BridgeTerm::Split(b(x), *f, *ok, *io),
            Term::Merge(a, c) => BridgeTerm::Merge(b(a), b(c)),
            Term::Resize(x, l, r) => BridgeTerm::Resize(b(x), *l, *r),
            Term::Swizzle(x, y, is_y) => BridgeTerm::Swizzle(b(x), b(y), *is_y),
        }
    }
}

/// Exists only for the bridge test: `normalize` (Theorem 5 rewriting) with concrete root extents
/// (`E r = extents[r]`, 0 past the end) and no facts, on a term over numbered roots.
///
/// Pre: split factors `>= 1`. Post: the normal form `normalize` computes, as `normalizeR` of
/// `proofs/NormalizeNF.v` does. Example: the merge-split example's inner output (ARCHITECTURE.md, glossary) with `f | E(B)` becomes
/// `split(B, f).inner`.
#[doc(hidden)]
pub fn normalize_concrete(t: &BridgeTerm, extents: &[i64]) -> Result<BridgeTerm> {
    Ok(BridgeTerm::of_term(&normalize(
        &t.term(extents),
        &Facts::default(),
    )?))
}

/// Exists only for the bridge test (`tests/bridge/backward.rs`): `terms` of `s`, each root
/// written `Root(id)` (its IterDomain's index), as `rterms` of `proofs/BackwardRust.v` writes it.
///
/// Pre: none. Post: `Ok(None)` exactly when `terms` is `None` (an index computed forward, an
/// IterDomain used twice, a term past [`MAX_TERM_NODES`]); errors are `plan`'s. Example: the
/// split-then-merge order gives `Some` with `Root(0)`, `Root(1)` at the roots.
#[doc(hidden)]
pub fn terms_bridge(s: &Schedule) -> Result<Option<Vec<BridgeTerm>>> {
    fn conv(s: &Schedule, t: &Term) -> Result<BridgeTerm> {
        let b = |x: &Term| -> Result<Box<BridgeTerm>> { Ok(Box::new(conv(s, x)?)) };
        Ok(match t {
            Term::Root(name, _) => BridgeTerm::Root(s.id(name)?),
            Term::Split(x, f, ok, io) => BridgeTerm::Split(b(x)?, *f, *ok, *io),
            Term::Merge(a, c) => BridgeTerm::Merge(b(a)?, b(c)?),
            Term::Resize(x, l, r) => BridgeTerm::Resize(b(x)?, *l, *r),
            Term::Swizzle(x, y, is_y) => BridgeTerm::Swizzle(b(x)?, b(y)?, *is_y),
        })
    }
    match terms(s)? {
        None => Ok(None),
        Some(ts) => Ok(Some(ts.iter().map(|t| conv(s, t)).collect::<Result<_>>()?)),
    }
}

/// How the term rule ended.
enum TermRule {
    /// Terms not built (an index computed forward, an ID used twice, a term too large) or
    /// unequal normal forms: the rule says nothing.
    NotApplicable,
    /// Decided (`Yes`).
    Proved(RuleVerdict),
    /// Equal normal forms, but `backward_check` fails both ways: not a proof (holes may differ,
    /// `normal_forms_unsound_at_holes`).
    Unchecked,
}

/// The general rule. Identical loop terms (with `wf`) are equivalent: the backward map is a
/// function of the terms (`consistent_unique`). Otherwise both loop domains, as terms over the
/// roots normalized with Theorem 5, must be equal AND `backward_check` must pass one way or the
/// other (`backward_check_sound`; the conclusion is symmetric). Equal normal forms alone prove
/// nothing at holes (`normal_forms_unsound_at_holes`), nor do unequal ones.
fn normal_forms_agree(a: &Schedule, b: &Schedule) -> Result<TermRule> {
    let (Some(ta), Some(tb)) = (terms(a)?, terms(b)?) else {
        return Ok(TermRule::NotApplicable);
    };
    let pick = |s: &Schedule, t: &[Term]| -> Result<Vec<Term>> {
        Ok(s.loop_ids()?.iter().map(|&l| t[l].clone()).collect())
    };
    let (ra, rb) = (pick(a, &ta)?, pick(b, &tb)?);
    if ra == rb && wfb(&ra) {
        return Ok(TermRule::Proved(RuleVerdict {
            rule: "identical loop terms (consistent_unique)".into(),
            equivalent: Decision::Yes,
            condition: "loop domains equal as terms over the roots".into(),
        }));
    }
    let la: Vec<Term> = ra
        .iter()
        .map(|t| normalize(t, &a.facts))
        .collect::<Result<_>>()?;
    let lb: Vec<Term> = rb
        .iter()
        .map(|t| normalize(t, &b.facts))
        .collect::<Result<_>>()?;
    if la != lb {
        return Ok(TermRule::NotApplicable);
    }
    let way = if backward_check(&ra, &rb, &b.facts)? {
        "backward_check(first, second)"
    } else if backward_check(&rb, &ra, &a.facts)? {
        "backward_check(second, first)"
    } else {
        return Ok(TermRule::Unchecked);
    };
    Ok(TermRule::Proved(RuleVerdict {
        rule: "normal forms under Theorem 5 rewriting agree".into(),
        equivalent: Decision::Yes,
        condition: format!(
            "loop domains equal as terms over the roots after rewriting, and {way} passes"
        ),
    }))
}
