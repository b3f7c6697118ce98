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
//! `derivation_sound_acyclic`, `predicate_iff_no_hole_acyclic`), and the forward-chaining pass
//! that drops conditions (`closure`) in `proofs/Closure.v` (`closure_acyclic`, `closure_sound`);
//! the final enumeration pass in `proofs/EnumPass.v` (`enum_pass_sound`, `enum_pass_minimal`,
//! and with the rules `derive_iff_no_hole`: the kept predicate holds at an enumerated loop point
//! exactly when no IterDomain is out of bound there), bridged to this code by
//! `enumeration_pass_agrees_with_the_extracted_proof` (`tests/bridge.rs`). Trusted, tested only:
//! that the enumeration visits every loop point and computes the indices as the steps say.
//!
//! Starting from all non-loop IDs, conditions implied by the others are dropped (each with its
//! rule). When extents are concrete, a final enumeration pass drops what the rules cannot see, so
//! the result is minimal: no proper subset of the chosen conditions is equivalent.

use super::error::Result;
use super::eval::{equivalent, plan, Direction, Space};
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
/// Example: the three-splits example yields, among others, `{I0, I2} ⇒ I1` by Theorem 1 (split).
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
    let mut assumed = vec![false; s.transforms.len()];
    for &t in divisible {
        if let Some(a) = assumed.get_mut(t) {
            *a = true;
        }
    }
    let mut out = Vec::new();
    for l in s.loop_ids()? {
        out.push(Rule {
            premises: vec![],
            conclusion: l,
            theorem: "loop axiom",
            transform: None,
        });
    }
    let steps = plan(s)?;
    super::steps::tick(steps.len());
    for st in steps {
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
                if assumed[st.transform] || s.split_divisible(st.transform)? == Decision::Yes {
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
    super::steps::tick(n + rules.len());
    while let Some(id) = queue.pop_front() {
        super::steps::tick(watch[id].len());
        for &k in &watch[id] {
            missing[k] -= 1;
            if missing[k] == 0 {
                fire(k, &mut proved, &mut queue);
            }
        }
    }
    proved
}

/// Work budget of the enumeration pass of [`derive()`], in the units of [`minimality_work`]:
/// every index computed, every bound checked and every candidate set built; beyond it the
/// predicate is the theorem-derived one and `minimal_checked` is `false`.
///
/// Pre/Post: a budget, not a correctness bound: the pass does at most this much work
/// (`tests/domain/domain_scaling.rs` counts it on the slowest schedules we could build). Example:
/// The three-splits example needs `2 × 32 × (11 + 2) + 2² = 836` units.
pub const MINIMALITY_WORK: u64 = 1 << 28;

/// Upper bound of the work of [`derive()`]'s enumeration pass over `space` for `chosen`
/// theorem-derived conditions: one enumeration per condition (at most `points × (point_cost +
/// chosen)` units: [`super::eval::equivalent`]) and one candidate set built per condition
/// (`chosen` units).
///
/// Pre: none. Post: saturating; the pass's work counted by [`super::steps`] never exceeds it.
/// Example: the three-splits example (32 points, cost 11 per point, 2 conditions) gives 836.
pub fn minimality_work(space: &Space, chosen: usize) -> u64 {
    let c = chosen as u64;
    let per_check = space
        .points
        .saturating_mul(space.point_cost().saturating_add(c))
        .saturating_add(c);
    c.saturating_mul(per_check)
}

/// Derives a minimal predicate equivalent to "no hole is visited".
///
/// Pre: the loop domain determines every index. Post: the conjunction of `0 <= i < E` over
/// `chosen` holds exactly at the loop points where every IterDomain is in bound (by the rules,
/// which are sound for any extents satisfying the facts); when extents are concrete and the
/// enumeration pass fits [`MINIMALITY_WORK`], no condition of `chosen` is implied by the others
/// (checked by enumeration, so `chosen` is minimal: `enum_pass_minimal` in `proofs/EnumPass.v`).
/// Example: the three-splits example (three indivisible splits) gives `{I0, I2}`; `I1` is dropped by Theorem 1
/// (split) on `I1, I2 = split I0 by 6`.
///
/// ```
/// let text = "I0 = iter 15\nI1, I2 = split I0 by 6\nI3, I4 = split I1 by 2\n\
///             I5, I6 = split I2 by 4\nloop I3 I4 I5 I6\n";
/// let s = tessera::domain::parse(text).unwrap();
/// let d = tessera::domain::predicate::derive(&s).unwrap();
/// let names: Vec<&str> = d.chosen.iter().map(|&i| s.name(i)).collect();
/// assert_eq!(names, ["I0", "I2"]);
/// assert!(d.minimal_checked);
/// ```
pub fn derive(s: &Schedule) -> Result<Derivation> {
    let mut d = derive_by_theorems(s)?;
    let space = Space::new(s)
        .ok()
        .filter(|sp| minimality_work(sp, d.chosen.len()) <= MINIMALITY_WORK);
    if let Some(space) = space {
        let mut in_chosen = vec![false; s.ids.len()];
        for &c in &d.chosen {
            in_chosen[c] = true;
        }
        // Only the chosen conditions are candidates, in drop order.
        let order: Vec<Id> = drop_order(s)?
            .into_iter()
            .filter(|&x| in_chosen[x])
            .collect();
        for x in order {
            let rest: Vec<Id> = d.chosen.iter().copied().filter(|&i| i != x).collect();
            super::steps::tick(d.chosen.len());
            if equivalent(&space, &rest)? {
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

/// Marks the loop IterDomains: `v[i]` iff `i` is in the loop domain.
fn loop_mask(s: &Schedule) -> Result<Vec<bool>> {
    let mut v = vec![false; s.ids.len()];
    for l in s.loop_ids()? {
        v[l] = true;
    }
    Ok(v)
}

/// Candidates in the order they are tried: intermediates before roots, newest first (roots are
/// what nvFuser predicates anyway, so keeping them reads naturally).
fn drop_order(s: &Schedule) -> Result<Vec<Id>> {
    let is_loop = loop_mask(s)?;
    let root = |i: Id| s.ids[i].definition.is_none();
    let n = s.ids.len();
    let mut order: Vec<Id> = (0..n).rev().filter(|&i| !is_loop[i] && !root(i)).collect();
    order.extend((0..n).rev().filter(|&i| !is_loop[i] && root(i)));
    Ok(order)
}

/// The theorem-only part of [`derive()`]: drops every condition the rules prove from the others,
/// without enumeration (so it also works with symbolic extents).
///
/// Pre: the loop domain determines every index. Post: the chosen conditions imply every
/// IterDomain's in-bound condition by the rules alone (sound for every value of the symbols
/// satisfying the facts); `minimal_checked` is `false`.
/// Example: the three-splits example gives `{I0, I2}` already at this stage.
pub fn derive_by_theorems(s: &Schedule) -> Result<Derivation> {
    derive_by_theorems_assuming(s, &[])
}

/// [`derive_by_theorems`] with the splits at positions `divisible` taken as divisible: the
/// predicate that becomes valid once a launch-time check `extent % factor == 0` passes.
///
/// The candidates are tried in `drop_order`; each is dropped when the rules prove it from the
/// conditions still assumed. The answer is exactly that of one closure per candidate (checked
/// against it on random DAGs in `tests/domain/domain_scaling.rs`), found without re-running the
/// closure: see `Greedy`. Steps grow linearly on chains (1k → 100k statements, same test), and
/// the exploration never exceeds [`greedy_budget`] (O(n + rules)) on any DAG.
///
/// Pre: as [`derive_by_theorems`]. Post: equivalent to "no hole" whenever those splits are
/// divisible. Example: `N0 = iter N; I1, I2 = split N0 by 4` with split 0 assumed divisible gives
/// the empty predicate.
pub fn derive_by_theorems_assuming(s: &Schedule, divisible: &[usize]) -> Result<Derivation> {
    derive_by_theorems_budgeted(s, divisible, None)
}

/// [`derive_by_theorems_assuming`] with the greedy exploration budget set to `budget` instead of
/// [`greedy_budget`] (for tests of what happens past it).
///
/// Pre: as [`derive_by_theorems`]. Post: the chosen conditions imply every in-bound condition
/// by the rules, whatever the budget; with enough budget the answer is
/// [`derive_by_theorems_assuming`]'s. Example: budget 0 keeps every condition `base` does not
/// settle.
pub fn derive_by_theorems_budgeted(
    s: &Schedule,
    divisible: &[usize],
    budget: Option<u64>,
) -> Result<Derivation> {
    let rules = rules_assuming(s, divisible)?;
    let n = s.ids.len();
    let order = drop_order(s)?;
    let is_loop = loop_mask(s)?;
    let mut g = Greedy::new(n, &rules, &order);
    if let Some(b) = budget {
        g.budget = b;
    }
    for (i, &x) in order.iter().enumerate() {
        if g.implied(i, x) {
            g.state[x] = State::Dropped;
        } else {
            g.state[x] = State::Kept;
            g.add_to_base(x);
        }
    }
    let set: Vec<Id> = (0..n)
        .filter(|&i| !is_loop[i] && g.state[i] == State::Kept)
        .collect();
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

/// Where a candidate condition stands in the greedy pass of [`derive_by_theorems_assuming`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not tried yet (still assumed), or a loop IterDomain (never a candidate).
    Pending,
    /// Tried and kept in the predicate.
    Kept,
    /// Tried and dropped (implied by the others at its turn).
    Dropped,
}

/// Rules indexed both ways, in compressed rows: `rows[u]..rows[u + 1]` of `items`.
struct Index {
    rows: Vec<usize>,
    items: Vec<usize>,
}

impl Index {
    fn new(n: usize, pairs: impl Iterator<Item = (Id, usize)> + Clone) -> Index {
        let mut rows = vec![0usize; n + 1];
        for (u, _) in pairs.clone() {
            rows[u + 1] += 1;
        }
        for u in 0..n {
            rows[u + 1] += rows[u];
        }
        let mut fill = rows.clone();
        let mut items = vec![0usize; rows[n]];
        for (u, k) in pairs {
            items[fill[u]] = k;
            fill[u] += 1;
        }
        Index { rows, items }
    }
    fn get(&self, u: Id) -> &[usize] {
        &self.items[self.rows[u]..self.rows[u + 1]]
    }
}

/// The greedy pass of [`derive_by_theorems_assuming`] without re-running the closure per
/// candidate.
///
/// At candidate `i` (IterDomain `x = order[i]`) the question is whether `x` lies in the closure
/// of `K ∪ P ∪ loop`, `K` the conditions kept so far and `P` those not tried yet. Three facts make
/// each question cheap while keeping the answer exactly that of the full closure:
///
/// * `base`, the closure of `K ∪ loop`, only grows (kept conditions stay kept); it is maintained
///   by incremental forward chaining, linear in the rules over the whole pass;
/// * a dropped condition `d` is remembered with `dep[d]`, the smallest position (in `order`) of a
///   not-yet-tried condition its derivation used: the derivation stays valid for every later
///   question at a position below `dep[d]` (`usize::MAX`: it used only `base`);
/// * everything else is known, so a question only explores the dropped conditions `x` depends on
///   whose remembered derivation expired, by forward chaining restricted to that region.
///
/// Cost. Building the indexes and `base` is linear in the rules (each rule's premise count
/// reaches zero once). A question settled by `base` costs O(1). Any other question costs its
/// region: the expired dropped conditions it reaches, each with its rules. A dropped condition's
/// derivation is renewed whenever a region contains it, and expires only when the condition it
/// waited for is tried, so on chains, trees, fan-out and zigzags each is explored O(1) times
/// (`tests/domain/domain_scaling.rs`: deep merge trees, wide split trees, one root split 100,000 ways,
/// alternating split/merge, merge/split zigzags, 1k → 100k statements, steps ×10.5 per ×10).
/// No such bound is proved for every DAG (a condition could be renewed against the next
/// candidate each time), so the exploration is also budgeted: at most [`greedy_budget`] units
/// (O(n + rules)) over the whole pass, every unit counted in [`super::steps`]. Past it, a
/// question not settled by `base` keeps its condition: sound (the kept set still implies every
/// in-bound condition by the rules, as keeping never shrinks the closure), possibly not minimal;
/// the enumeration pass of [`derive()`] then removes what it can. No tested shape reaches it.
struct Greedy<'a> {
    rules: &'a [Rule],
    /// Rules concluding each IterDomain.
    concl: Index,
    /// Rules having each IterDomain as a premise.
    watch: Index,
    /// Position of each candidate in `order` (`usize::MAX` for loop IDs).
    pos: Vec<usize>,
    state: Vec<State>,
    /// Membership of the closure of `K ∪ loop`.
    base: Vec<bool>,
    /// Premises of each rule not yet in `base`.
    base_missing: Vec<usize>,
    /// See the type's docs; `0` is never valid.
    dep: Vec<usize>,
    /// Per-question scratch, tagged with the question's number.
    stamp: Vec<usize>,
    proved: Vec<usize>,
    new_dep: Vec<usize>,
    rule_stamp: Vec<usize>,
    rule_missing: Vec<usize>,
    region: Vec<Id>,
    queue: Vec<Id>,
    /// Exploration work left ([`greedy_budget`]); at 0 every question not settled by `base`
    /// keeps its condition.
    budget: u64,
}

/// The exploration budget of the greedy derivation for `n` IterDomains and rules with `size`
/// premises and conclusions in all: `16·(n + size) + 2^16` units.
///
/// Pre: none. Post: at least 2^16. Example: 1,000 IterDomains and 3,000 rule entries give
/// 129,536.
pub fn greedy_budget(n: usize, size: usize) -> u64 {
    16u64
        .saturating_mul(n.saturating_add(size) as u64)
        .saturating_add(1 << 16)
}

impl<'a> Greedy<'a> {
    fn new(n: usize, rules: &'a [Rule], order: &[Id]) -> Greedy<'a> {
        let concl = Index::new(n, rules.iter().enumerate().map(|(k, r)| (r.conclusion, k)));
        let watch = Index::new(
            n,
            rules
                .iter()
                .enumerate()
                .flat_map(|(k, r)| r.premises.iter().map(move |&p| (p, k))),
        );
        let mut pos = vec![usize::MAX; n];
        for (i, &x) in order.iter().enumerate() {
            pos[x] = i;
        }
        super::steps::tick(n + rules.len());
        let mut g = Greedy {
            rules,
            concl,
            watch,
            pos,
            state: vec![State::Pending; n],
            base: vec![false; n],
            base_missing: rules.iter().map(|r| r.premises.len()).collect(),
            dep: vec![0; n],
            stamp: vec![usize::MAX; n],
            proved: vec![usize::MAX; n],
            new_dep: vec![0; n],
            rule_stamp: vec![usize::MAX; rules.len()],
            rule_missing: vec![0; rules.len()],
            region: Vec::new(),
            queue: Vec::new(),
            budget: greedy_budget(n, rules.iter().map(|r| r.premises.len() + 1).sum::<usize>()),
        };
        // The closure of the loop axioms (and the unconditional lemmas).
        let mut start = Vec::new();
        for r in rules {
            if r.premises.is_empty() && !g.base[r.conclusion] {
                g.base[r.conclusion] = true;
                start.push(r.conclusion);
            }
        }
        g.propagate_base(start);
        g
    }

    /// Adds `x` to `K` and extends `base` by forward chaining.
    fn add_to_base(&mut self, x: Id) {
        if !self.base[x] {
            self.base[x] = true;
            self.propagate_base(vec![x]);
        }
    }

    fn propagate_base(&mut self, mut queue: Vec<Id>) {
        while let Some(u) = queue.pop() {
            let ks = self.watch.get(u);
            super::steps::tick(ks.len() + 1);
            for &k in ks {
                self.base_missing[k] -= 1;
                if self.base_missing[k] == 0 {
                    let c = self.rules[k].conclusion;
                    if !self.base[c] {
                        self.base[c] = true;
                        queue.push(c);
                    }
                }
            }
        }
    }

    /// The dependency value of a known IterDomain at question `i` (`None`: unknown).
    fn known(&self, i: usize, u: Id) -> Option<usize> {
        if self.base[u] {
            return Some(usize::MAX);
        }
        match self.state[u] {
            State::Pending if self.pos[u] > i && self.pos[u] != usize::MAX => Some(self.pos[u]),
            State::Dropped if self.dep[u] > i => Some(self.dep[u]),
            _ => None,
        }
    }

    /// Whether `x = order[i]` is in the closure of `K ∪ P ∪ loop` (see the type's docs); on
    /// `true`, records `x`'s dependency, and refreshes that of every dropped condition proved on
    /// the way.
    fn implied(&mut self, i: usize, x: Id) -> bool {
        if self.base[x] {
            self.dep[x] = usize::MAX;
            return true;
        }
        // Every unit of the exploration below is counted; past the budget the question is
        // abandoned (nothing of it was recorded yet) and `x` is kept, which is sound.
        let budget = self.budget;
        if budget == 0 {
            return false;
        }
        let mut work: u64 = 1;
        // The region: unknown IterDomains `x` may depend on, found backward through the rules.
        self.region.clear();
        self.region.push(x);
        self.stamp[x] = i;
        let mut next = 0;
        while next < self.region.len() {
            let u = self.region[next];
            next += 1;
            let (a, b) = (self.concl.rows[u], self.concl.rows[u + 1]);
            work += 1;
            for idx in a..b {
                let k = self.concl.items[idx];
                work += 1 + self.rules[k].premises.len() as u64;
                for &p in &self.rules[k].premises {
                    if self.stamp[p] != i && self.known(i, p).is_none() {
                        self.stamp[p] = i;
                        self.region.push(p);
                    }
                }
            }
            if work > budget {
                return self.exhausted(work);
            }
        }
        // Forward chaining inside the region.
        self.queue.clear();
        for r in 0..self.region.len() {
            let u = self.region[r];
            for idx in self.concl.rows[u]..self.concl.rows[u + 1] {
                let k = self.concl.items[idx];
                work += 1 + 2 * self.rules[k].premises.len() as u64;
                let missing = self.rules[k]
                    .premises
                    .iter()
                    .filter(|&&p| self.stamp[p] == i)
                    .count();
                self.rule_stamp[k] = i;
                self.rule_missing[k] = missing;
                if missing == 0 {
                    self.fire(i, k);
                }
            }
        }
        let mut head = 0;
        while head < self.queue.len() {
            let u = self.queue[head];
            head += 1;
            let (a, b) = (self.watch.rows[u], self.watch.rows[u + 1]);
            work += 1;
            for idx in a..b {
                let k = self.watch.items[idx];
                work += 1;
                if self.rule_stamp[k] == i {
                    work += 2 * self.rules[k].premises.len() as u64;
                    self.rule_missing[k] -= 1;
                    if self.rule_missing[k] == 0 {
                        self.fire(i, k);
                    }
                }
            }
            if work > budget {
                return self.exhausted(work);
            }
        }
        work += self.queue.len() as u64;
        for q in 0..self.queue.len() {
            let u = self.queue[q];
            self.dep[u] = self.new_dep[u];
        }
        self.budget = budget.saturating_sub(work);
        super::steps::tick(work as usize);
        self.proved[x] == i
    }

    /// Spends the rest of the budget on an abandoned question: its condition is kept.
    fn exhausted(&mut self, work: u64) -> bool {
        super::steps::tick(work as usize);
        self.budget = 0;
        false
    }

    /// Fires rule `k` inside question `i`'s region: proves its conclusion (if new) and computes
    /// its dependency from the premises'.
    fn fire(&mut self, i: usize, k: usize) {
        let c = self.rules[k].conclusion;
        if self.stamp[c] != i || self.proved[c] == i {
            return;
        }
        let mut d = usize::MAX;
        for &p in &self.rules[k].premises {
            let v = if self.stamp[p] == i {
                self.new_dep[p]
            } else {
                self.known(i, p).unwrap_or(0)
            };
            d = d.min(v);
        }
        self.proved[c] = i;
        self.new_dep[c] = d;
        self.queue.push(c);
    }
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
/// necessarily minimal. Example: the three-splits example gives `{I0, I2}`; Example 8 of the reference gives the
/// root and `I2`.
pub fn nvfuser_choice(s: &Schedule) -> Result<Vec<Id>> {
    let n = s.ids.len();
    let is_loop = loop_mask(s)?;
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
    let mut leaf = vec![false; n];
    for i in s.leaves() {
        leaf[i] = true;
    }
    for (i, p) in pred.iter_mut().enumerate() {
        if s.ids[i].definition.is_none() || leaf[i] {
            *p = true;
        }
    }
    Ok((0..n).filter(|&i| pred[i] && !is_loop[i]).collect())
}

/// "Predicate everything": every IterDomain that is not a loop ID.
///
/// Post: always equivalent to "no hole" (it is the definition). Example: the three-splits example gives
/// `{I0, I1, I2}`.
pub fn everything(s: &Schedule) -> Result<Vec<Id>> {
    let is_loop = loop_mask(s)?;
    Ok((0..s.ids.len()).filter(|&i| !is_loop[i]).collect())
}
