//! Predicates: a minimal set of in-bound conditions logically equivalent to "no hole is visited".
//!
//! The derivation works on the transform DAG with Horn rules, each one a theorem of the seed
//! ("Divisibility of Split") or a small lemma stated next to it:
//!
//! * loop axiom: a loop index ranges over its extent, so loop IDs are always in bound;
//! * Theorem 1 (split): `in` and `inner` in bound ⇒ `outer` in bound (Coq:
//!   `split_inbound_theorem1` in `proofs/Divisibility.v`);
//! * Lemma (divisible split): a divisible split with both outputs in bound has its input in
//!   bound (`outer * E(inner) + inner < E(outer) * E(inner) = N`);
//! * Lemma (Euclidean remainder): an index computed as `x % E` is always in bound (the inner input
//!   of a backward merge, the inner output of a forward split);
//! * Theorem 2 (merge): with the inner input in bound, `outer` in bound ⇔ `output` in bound
//!   (Coq: `merge_inbound_theorem2`);
//! * Theorem 3 (resize): `left, right >= 0` and the input in bound ⇒ the output in bound (Coq:
//!   `resize_inbound_theorem3`);
//!   Lemma (slice), its converse for `left, right <= 0`: output in bound ⇒ input in bound;
//! * Theorem 4 (swizzle): `x` in bound ⇔ `out_x` in bound (Coq: `swizzle_inbound_theorem4`); Lemma (closed XOR): when `E(y)` is a
//!   power of two and `E(x) <= E(y)`, the two indices on one side in bound ⇒ the `y` index of the
//!   other side in bound.
//!
//! The rule set is proved sound over any transform DAG in `proofs/Predicates.v` (`rule_sound`,
//! `derivation_sound`, `predicate_iff_no_hole`).
//!
//! Starting from all non-loop IDs, conditions implied by the others are dropped (each with its
//! rule). When extents are concrete, a final enumeration pass drops what the rules cannot see, so
//! the result is minimal: no proper subset of the chosen conditions is equivalent.

use super::error::Result;
use super::eval::{check_predicate, plan, Direction, Space};
use super::ir::{Id, Schedule, Transform};
use super::symbolic::Decision;

/// A Horn rule: all premises in bound ⇒ conclusion in bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// Premises.
    pub premises: Vec<Id>,
    /// Conclusion.
    pub conclusion: Id,
    /// The theorem or lemma, e.g. `"Theorem 1 (split)"`.
    pub theorem: &'static str,
    /// The transform the rule is about (`None` for the loop axiom).
    pub transform: Option<usize>,
}

/// Why a condition was dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Justification {
    /// The IterDomain whose in-bound condition was dropped.
    pub id: Id,
    /// The theorem, lemma, or `"enumeration"`.
    pub theorem: String,
    /// The transform the theorem was applied to.
    pub transform: Option<usize>,
    /// The in-bound conditions it follows from.
    pub premises: Vec<Id>,
}

/// The predicate chosen by [`derive()`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derivation {
    /// IterDomains whose in-bound conditions form the predicate, in definition order.
    pub chosen: Vec<Id>,
    /// Dropped conditions with their justification. Every premise is a chosen condition, a loop
    /// ID or another dropped condition, and premises never form a cycle: together they are a
    /// proof of every in-bound condition from the chosen ones.
    pub dropped: Vec<Justification>,
    /// Whether an enumeration pass confirmed minimality (extents concrete).
    pub minimal_checked: bool,
}

/// Whether `v` is a power of two.
fn pow2(v: i64) -> bool {
    v > 0 && v & (v - 1) == 0
}

/// Whether the XOR swizzle on `(x, y)` keeps `x ^ y` inside `[0, E(y))` for in-bound `x, y`
/// (Lemma (closed XOR): `E(y)` a power of two and `E(x) <= E(y)`).
///
/// Pre: `x`, `y` exist. Post: `Yes` only if `x ^ y < E(y)` for all in-bound `x, y`.
/// Example: extents 4×4 give `Yes`, 3×3 give `No` (`1 ^ 2 = 3`).
pub fn xor_closed(s: &Schedule, x: Id, y: Id) -> Result<Decision> {
    let ex = s.ids[x].extent.eval(&s.facts)?;
    let ey = s.ids[y].extent.eval(&s.facts)?;
    Ok(match (ex, ey) {
        (Some(a), Some(b)) if pow2(b) && a <= b => Decision::Yes,
        (Some(_), Some(_)) => Decision::No,
        _ => Decision::Unknown,
    })
}

/// The Horn rules of the schedule, one group per propagation step (see the module docs).
///
/// Pre: the loop domain determines every index. Post: every rule is sound for every loop point.
///
/// Example: Figure 2 yields, among others, `{I0, I2} ⇒ I1` by Theorem 1 (split).
pub fn rules(s: &Schedule) -> Result<Vec<Rule>> {
    rules_assuming(s, &[])
}

/// [`rules`], treating the splits at the transform positions in `divisible` as divisible (used to
/// show the predicate a launch-time divisibility check would allow).
///
/// Pre: as [`rules`]. Post: sound for every loop point at which those splits are divisible.
///
/// Example: `split N0 by 6` assumed divisible adds `{I1, I2} ⇒ N0` (Lemma (divisible split)).
pub fn rules_assuming(s: &Schedule, divisible: &[usize]) -> Result<Vec<Rule>> {
    let mut out = Vec::new();
    for l in s.loop_ids()? {
        out.push(Rule {
            premises: vec![],
            conclusion: l,
            theorem: "loop axiom",
            transform: None,
        });
    }
    for st in plan(s)? {
        let t = Some(st.transform);
        let back = st.direction == Direction::Backward;
        let mut r = |premises: Vec<Id>, conclusion: Id, theorem: &'static str| {
            out.push(Rule {
                premises,
                conclusion,
                theorem,
                transform: t,
            })
        };
        match s.transforms[st.transform] {
            Transform::Split {
                input,
                outer,
                inner,
                ..
            } => {
                r(vec![input, inner], outer, "Theorem 1 (split)");
                if divisible.contains(&st.transform)
                    || s.split_divisible(st.transform)? == Decision::Yes
                {
                    r(vec![outer, inner], input, "Lemma (divisible split)");
                }
                if !back {
                    r(vec![], inner, "Lemma (Euclidean remainder)");
                }
            }
            Transform::Merge {
                outer,
                inner,
                output,
            } => {
                if back {
                    r(vec![], inner, "Lemma (Euclidean remainder)");
                }
                r(vec![output, inner], outer, "Theorem 2 (merge)");
                r(vec![outer, inner], output, "Theorem 2 (merge)");
            }
            Transform::Resize {
                input,
                output,
                left,
                right,
            } => {
                if left >= 0 && right >= 0 {
                    r(vec![input], output, "Theorem 3 (resize)");
                }
                if left <= 0 && right <= 0 {
                    r(vec![output], input, "Lemma (slice)");
                }
            }
            Transform::Swizzle { x, y, out_x, out_y } => {
                r(vec![x], out_x, "Theorem 4 (swizzle)");
                r(vec![out_x], x, "Theorem 4 (swizzle)");
                if xor_closed(s, x, y)? == Decision::Yes {
                    r(vec![out_x, out_y], y, "Lemma (closed XOR)");
                    r(vec![x, y], out_y, "Lemma (closed XOR)");
                }
            }
        }
    }
    Ok(out)
}

/// Forward chaining: the IterDomains proved in bound from `assumed`, with the rule that first
/// proved each one (`None` for assumed ones).
fn closure(n: usize, rules: &[Rule], assumed: &[Id]) -> Vec<Option<Option<usize>>> {
    // Worklist forward chaining, linear in the size of the rules: `missing[k]` counts the
    // unproved premises of rule `k`; a rule fires when it reaches zero.
    let mut proved: Vec<Option<Option<usize>>> = vec![None; n];
    let mut watch: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut missing: Vec<usize> = rules.iter().map(|r| r.premises.len()).collect();
    for (k, r) in rules.iter().enumerate() {
        for &p in &r.premises {
            watch[p].push(k);
        }
    }
    let mut queue: std::collections::VecDeque<Id> = std::collections::VecDeque::new();
    for &a in assumed {
        if proved[a].is_none() {
            proved[a] = Some(None);
            queue.push_back(a);
        }
    }
    let fire = |k: usize,
                proved: &mut Vec<Option<Option<usize>>>,
                queue: &mut std::collections::VecDeque<Id>| {
        let c = rules[k].conclusion;
        if proved[c].is_none() {
            proved[c] = Some(Some(k));
            queue.push_back(c);
        }
    };
    for (k, &m) in missing.iter().enumerate() {
        if m == 0 {
            fire(k, &mut proved, &mut queue);
        }
    }
    while let Some(id) = queue.pop_front() {
        for &k in &watch[id] {
            missing[k] -= 1;
            if missing[k] == 0 {
                fire(k, &mut proved, &mut queue);
            }
        }
    }
    proved
}

/// Work budget of the enumeration pass of [`derive()`] (points × steps × chosen conditions);
/// beyond it the predicate is the theorem-derived one and `minimal_checked` is `false`.
///
/// Pre/Post: a budget, not a correctness bound. Example: Figure 2 needs `2 × 32 × 4` units.
pub const MINIMALITY_WORK: u64 = 1 << 28;

/// Derives a minimal predicate equivalent to "no hole is visited".
///
/// Pre: the loop domain determines every index. Post: the conjunction of `0 <= i < E` over
/// `chosen` holds exactly at the loop points where every IterDomain is in bound (by the rules,
/// which are sound for any extents satisfying the facts); when extents are concrete, no condition
/// of `chosen` is implied by the others (checked by enumeration, so `chosen` is minimal).
/// Example: Figure 2 (three indivisible splits) gives `{I0, I2}`; `I1` is dropped by Theorem 1
/// (split) on `I1, I2 = split I0 by 6`.
pub fn derive(s: &Schedule) -> Result<Derivation> {
    let mut d = derive_by_theorems(s)?;
    let space = Space::new(s).ok().filter(|sp| {
        // The minimality pass enumerates once per chosen condition: keep it within budget.
        (d.chosen.len() as u64).saturating_mul(sp.work()) <= MINIMALITY_WORK
    });
    if let Some(space) = space {
        for x in drop_order(s)? {
            if !d.chosen.contains(&x) {
                continue;
            }
            let rest: Vec<Id> = d.chosen.iter().copied().filter(|&i| i != x).collect();
            if check_predicate(&space, &rest)?.equivalent {
                d.dropped.push(Justification {
                    id: x,
                    theorem: "enumeration".to_string(),
                    transform: None,
                    premises: rest.clone(),
                });
                d.chosen = rest;
            }
        }
        d.minimal_checked = true;
    }
    Ok(d)
}

/// Candidates in the order they are tried: intermediates before roots, newest first (roots are
/// what nvFuser predicates anyway, so keeping them reads naturally).
fn drop_order(s: &Schedule) -> Result<Vec<Id>> {
    let loop_ids = s.loop_ids()?;
    let roots = s.roots();
    let set: Vec<Id> = (0..s.ids.len()).filter(|i| !loop_ids.contains(i)).collect();
    let mut order: Vec<Id> = set.iter().copied().filter(|i| !roots.contains(i)).collect();
    order.reverse();
    order.extend(set.iter().copied().filter(|i| roots.contains(i)).rev());
    Ok(order)
}

/// The theorem-only part of [`derive()`]: drops every condition the rules prove from the others,
/// without enumeration (so it also works with symbolic extents).
///
/// Pre: the loop domain determines every index. Post: the chosen conditions imply every
/// IterDomain's in-bound condition by the rules alone (sound for every value of the symbols
/// satisfying the facts); `minimal_checked` is `false`.
/// Example: Figure 2 gives `{I0, I2}` already at this stage.
pub fn derive_by_theorems(s: &Schedule) -> Result<Derivation> {
    derive_by_theorems_assuming(s, &[])
}

/// [`derive_by_theorems`] with the splits at positions `divisible` taken as divisible: the
/// predicate that becomes valid once a launch-time check `extent % factor == 0` passes.
///
/// Pre: as [`derive_by_theorems`]. Post: equivalent to "no hole" whenever those splits are
/// divisible. Example: `N0 = iter N; I1, I2 = split N0 by 4` with split 0 assumed divisible gives
/// the empty predicate.
pub fn derive_by_theorems_assuming(s: &Schedule, divisible: &[usize]) -> Result<Derivation> {
    let rules = rules_assuming(s, divisible)?;
    let n = s.ids.len();
    let loop_ids = s.loop_ids()?;
    let mut set: Vec<Id> = (0..n).filter(|i| !loop_ids.contains(i)).collect();
    let order = drop_order(s)?;
    for &x in &order {
        let rest: Vec<Id> = set.iter().copied().filter(|&i| i != x).collect();
        if closure(n, &rules, &rest)[x].is_some() {
            set = rest;
        }
    }
    // Justify every dropped condition from the final set: the closure proves each one after its
    // premises, so the justifications form a well-founded proof (no circular reasoning).
    let proved = closure(n, &rules, &set);
    let mut dropped = Vec::new();
    for &x in &order {
        if let Some(Some(k)) = proved[x] {
            let r = &rules[k];
            dropped.push(Justification {
                id: x,
                theorem: r.theorem.to_string(),
                transform: r.transform,
                premises: r.premises.clone(),
            });
        }
    }
    Ok(Derivation {
        chosen: set,
        dropped,
        minimal_checked: false,
    })
}

/// nvFuser's choice, emulated after `NonDivisiblePredicateInfo` (reference §3.3): the predicate
/// domain (roots, and leaves outside the loop domain) plus every unsafe IterDomain whose extent is
/// used to build another index.
///
/// Rules along the propagation plan: backward split — an unsafe inner output is predicated, the
/// input is unsafe if the split is not proved divisible or the outer output is unsafe; forward
/// merge — an unsafe inner input is predicated, the output inherits the outer input's unsafety;
/// backward merge and forward split pass unsafety to the outer side; resize passes it on, adds it
/// when it creates holes, and predicates an unsafe slice output (nvFuser issue #3257); swizzle
/// predicates unsafe IDs of its computing side.
/// Post: the set is correct (equivalent to "no hole") on every schedule nvFuser accepts, not
/// necessarily minimal. Example: Figure 2 gives `{I0, I2}`; Example 8 of the reference gives the
/// root and `I2`.
pub fn nvfuser_choice(s: &Schedule) -> Result<Vec<Id>> {
    let n = s.ids.len();
    let loop_ids = s.loop_ids()?;
    let mut unsafe_ = vec![false; n];
    let mut pred = vec![false; n];
    for st in plan(s)? {
        let back = st.direction == Direction::Backward;
        match s.transforms[st.transform] {
            Transform::Split {
                input,
                outer,
                inner,
                ..
            } => {
                if back {
                    if unsafe_[inner] {
                        pred[inner] = true;
                    }
                    unsafe_[input] =
                        s.split_divisible(st.transform)? != Decision::Yes || unsafe_[outer];
                } else {
                    unsafe_[outer] = unsafe_[input];
                }
            }
            Transform::Merge {
                outer,
                inner,
                output,
            } => {
                if back {
                    unsafe_[outer] = unsafe_[output];
                } else {
                    if unsafe_[inner] {
                        pred[inner] = true;
                    }
                    unsafe_[output] = unsafe_[outer];
                }
            }
            Transform::Resize {
                input,
                output,
                left,
                right,
            } => {
                // nvFuser issue #3257: a resize on the indexing path needs its own predicate
                // when the far side's bound does not imply this side's (a slice seen backward, a
                // pad seen forward).
                if back {
                    if unsafe_[output] && (left < 0 || right < 0) {
                        pred[output] = true;
                    }
                    unsafe_[input] = unsafe_[output] || left > 0 || right > 0;
                } else {
                    if unsafe_[input] && (left > 0 || right > 0) {
                        pred[input] = true;
                    }
                    unsafe_[output] = unsafe_[input] || left < 0 || right < 0;
                }
            }
            Transform::Swizzle { x, y, out_x, out_y } => {
                let (from, to) = if back {
                    ([out_x, out_y], [x, y])
                } else {
                    ([x, y], [out_x, out_y])
                };
                for f in from {
                    if unsafe_[f] {
                        pred[f] = true;
                    }
                }
                let closed = xor_closed(s, x, y)? == Decision::Yes;
                unsafe_[to[0]] = false;
                unsafe_[to[1]] = !closed;
            }
        }
    }
    let leaves = s.leaves();
    for (i, p) in pred.iter_mut().enumerate() {
        if s.ids[i].definition.is_none() || leaves.contains(&i) {
            *p = true;
        }
    }
    Ok((0..n)
        .filter(|&i| pred[i] && !loop_ids.contains(&i))
        .collect())
}

/// "Predicate everything": every IterDomain that is not a loop ID.
///
/// Post: always equivalent to "no hole" (it is the definition). Example: Figure 2 gives
/// `{I0, I1, I2}`.
pub fn everything(s: &Schedule) -> Result<Vec<Id>> {
    let l = s.loop_ids()?;
    Ok((0..s.ids.len()).filter(|i| !l.contains(i)).collect())
}
