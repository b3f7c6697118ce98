//! Exact semantics by enumeration: iterate the loop domain and map every point back to the index of
//! every IterDomain (Euclidean division everywhere).

use super::error::{self, Error, Result};
use super::ir::{Id, Schedule, Transform};

/// Enumeration refuses loop domains with more points than this (an error, never a hang).
///
/// Pre/Post: enumeration functions return [`Error::TooManyPoints`] beyond it. Example: a
/// `4096 × 4097` loop domain is refused.
pub const MAX_POINTS: u64 = 1 << 24;

/// Enumeration also refuses more than this much work: points × [`Space::point_cost`], which counts
/// every index a point computes or checks (steps, bound checks of the computed IterDomains, loop
/// counters).
///
/// Pre/Post: [`Space::new`] returns [`Error::TooMuchWork`] beyond it. Example: 2^24 points
/// of a plain 4096 × 4096 loop nest (cost 3 per point) are allowed, 2^24 points with eight
/// resizes are not.
pub const MAX_WORK: u64 = 1 << 26;

/// Direction in which a transform's indices are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Outputs known, inputs computed (the usual case: from the loop domain towards the roots).
    Backward,
    /// Inputs known, outputs computed.
    Forward,
}

/// One step of index propagation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The transform.
    pub transform: usize,
    /// The direction.
    pub direction: Direction,
}

/// The order in which indices are computed from the loop indices.
///
/// Pre: the loop domain is valid. Post: every IterDomain's index is computed exactly once, after
/// the indices it depends on; otherwise [`Error::Undetermined`] names the first one left, and a
/// transform whose inputs and outputs are all determined along other routes is
/// [`Error::Overdetermined`] (its relation could not hold at every point).
/// Example: for the three-splits example the plan computes `I1`, `I2` (backward splits), then `I0`.
pub fn plan(s: &Schedule) -> Result<Vec<Step>> {
    plan_from(s, &s.loop_ids()?)
}

/// [`plan`] from the IterDomains `known` (distinct, existing) instead of the loop domain: the
/// order in which every index is computed from theirs (used to check that an allocation domain
/// determines the roots).
///
/// Pre: `s` validates. Post: as [`plan`]. Example: for the 6-by-4 example from `[I1, I2]` the plan computes
/// `I0` (backward split); from `[I1]` it fails with [`Error::Undetermined`].
pub fn plan_from(s: &Schedule, loop_ids: &[Id]) -> Result<Vec<Step>> {
    let mut known = vec![false; s.ids.len()];
    for &l in loop_ids {
        known[l] = true;
    }
    let mut done = vec![false; s.transforms.len()];
    let mut steps = Vec::new();
    // Definition order is topological (inputs are defined before use), so scanning it backward
    // settles every backward step in one pass and scanning forward every forward step; passes
    // alternate until nothing changes.
    let mut backward_scan = true;
    let mut stalled = 0;
    loop {
        let mut progress = false;
        let order: Vec<usize> = if backward_scan {
            (0..s.transforms.len()).rev().collect()
        } else {
            (0..s.transforms.len()).collect()
        };
        backward_scan = !backward_scan;
        super::steps::tick(order.len() + 1);
        for t in order {
            let tr = &s.transforms[t];
            if done[t] {
                continue;
            }
            let (ins, outs) = (tr.inputs(), tr.outputs());
            let all = |v: &[Id], k: &[bool]| v.iter().all(|&i| k[i]);
            let any_missing = |v: &[Id], k: &[bool]| v.iter().any(|&i| !k[i]);
            let dir = if all(&outs, &known) && any_missing(&ins, &known) {
                Direction::Backward
            } else if all(&ins, &known) && any_missing(&outs, &known) {
                Direction::Forward
            } else if all(&ins, &known) && all(&outs, &known) {
                // Both sides determined without this transform: its relation would be ignored.
                let names: Vec<&str> = ins.iter().chain(&outs).map(|&i| s.name(i)).collect();
                return Err(Error::Overdetermined {
                    transform: s.describe(t),
                    ids: names.join(", "),
                    index: t,
                });
            } else {
                continue;
            };
            // A side that is partly known cannot be recomputed consistently.
            let target = if dir == Direction::Backward {
                &ins
            } else {
                &outs
            };
            if target.iter().any(|&i| known[i]) {
                continue;
            }
            for &i in target {
                known[i] = true;
            }
            done[t] = true;
            steps.push(Step {
                transform: t,
                direction: dir,
            });
            progress = true;
        }
        if !progress && backward_scan {
            // Two consecutive passes (one each way) without progress: done.
            break;
        }
        if !progress {
            stalled += 1;
            if stalled >= 2 {
                break;
            }
        } else {
            stalled = 0;
        }
    }
    if let Some(i) = known.iter().position(|k| !k) {
        return Err(Error::Undetermined(s.name(i).to_string()));
    }
    Ok(steps)
}

/// A schedule prepared for enumeration: concrete extents, the plan, the loop domain.
#[derive(Debug, Clone)]
pub struct Space<'a> {
    /// The schedule.
    pub schedule: &'a Schedule,
    /// Concrete extents, one per IterDomain.
    pub extents: Vec<i64>,
    /// The propagation plan.
    pub steps: Vec<Step>,
    /// The loop domain.
    pub loop_ids: Vec<Id>,
    /// Number of loop points.
    pub points: u64,
    /// Positions in `loop_ids` of the loop IDs of extent > 1 (at most 24 of them: the others
    /// stay 0 at every point, so enumeration never touches them).
    pub varying: Vec<usize>,
    /// The IterDomains whose bound is not guaranteed: all but the loop IDs.
    pub checked: Vec<Id>,
    /// The roots that position a root item (loop roots of extent 1 add nothing).
    pub item_roots: Vec<Id>,
}

impl<'a> Space<'a> {
    /// Prepares enumeration.
    ///
    /// Pre: all extents evaluate; the loop domain has at most [`MAX_POINTS`] points.
    /// Post: [`Space::for_each`] visits every loop point in lexicographic order (first loop ID
    /// outermost).
    /// Example: the three-splits example has `2 * 2 * 2 * 4 = 32` points.
    pub fn new(schedule: &'a Schedule) -> Result<Space<'a>> {
        let extents = schedule.concrete_extents()?;
        let steps = plan(schedule)?;
        let loop_ids = schedule.loop_ids()?;
        let mut points: u64 = 1;
        for &l in &loop_ids {
            points = points.saturating_mul(extents[l] as u64);
        }
        if points > MAX_POINTS {
            return Err(Error::TooManyPoints {
                points,
                limit: MAX_POINTS,
            });
        }
        let mut is_loop = vec![false; extents.len()];
        for &l in &loop_ids {
            is_loop[l] = true;
        }
        super::steps::tick(extents.len());
        let varying: Vec<usize> = (0..loop_ids.len())
            .filter(|&k| extents[loop_ids[k]] > 1)
            .collect();
        let checked: Vec<Id> = (0..extents.len()).filter(|&i| !is_loop[i]).collect();
        let item_roots: Vec<Id> = schedule
            .roots()
            .into_iter()
            .filter(|&r| !is_loop[r] || extents[r] > 1)
            .collect();
        let space = Space {
            schedule,
            extents,
            steps,
            loop_ids,
            points,
            varying,
            checked,
            item_roots,
        };
        if space.work() > MAX_WORK {
            return Err(Error::TooMuchWork {
                points,
                steps: space.point_cost() as usize,
                limit: MAX_WORK,
            });
        }
        Ok(space)
    }

    /// Computes every IterDomain's index at one loop point (indices of the loop IDs in `idx` must
    /// already be set).
    ///
    /// Semantics (Euclidean `/` and `%`): split `in = outer * E(inner) + inner`, forward
    /// `outer = in / E(inner)`, `inner = in % E(inner)`; merge `out = outer * E(inner) + inner`,
    /// backward `outer = out / E(inner)`, `inner = out % E(inner)`; resize `out = in + left`;
    /// swizzle `out_x = x`, `out_y = x ^ y` (self-inverse).
    ///
    /// Pre: `idx.len()` is the number of IterDomains. Post: every index is set; overflow is an error.
    /// Example: the three-splits example at loop point `(1, 0, 1, 1)` sets `i1 = 2`, `i2 = 5`, `i0 = 17` (a hole).
    pub fn propagate(&self, idx: &mut [i64]) -> Result<()> {
        for st in &self.steps {
            let back = st.direction == Direction::Backward;
            match self.schedule.transforms[st.transform] {
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
                    let is_split = matches!(
                        self.schedule.transforms[st.transform],
                        Transform::Split { .. }
                    );
                    let ei = self.extents[inner];
                    // Split backward and merge forward compose; the others decompose.
                    if back == is_split {
                        idx[input] = error::add(error::mul(idx[outer], ei)?, idx[inner])?;
                    } else {
                        idx[outer] = error::ediv(idx[input], ei)?;
                        idx[inner] = error::emod(idx[input], ei)?;
                    }
                }
                Transform::Resize {
                    input,
                    output,
                    left,
                    ..
                } => {
                    if back {
                        idx[input] = error::sub(idx[output], left)?;
                    } else {
                        idx[output] = error::add(idx[input], left)?;
                    }
                }
                Transform::Swizzle { x, y, out_x, out_y } => {
                    if back {
                        idx[x] = idx[out_x];
                        idx[y] = idx[out_x] ^ idx[out_y];
                    } else {
                        idx[out_x] = idx[x];
                        idx[out_y] = idx[x] ^ idx[y];
                    }
                }
            }
        }
        Ok(())
    }

    /// Work per loop point of an enumeration that checks validity: `1 + steps + checked +
    /// varying` (the propagation steps, the bound checks of [`Space::valid`] and the loop
    /// counters of [`Space::for_each`]). Every computed IterDomain is computed by a step (at most
    /// two per step) and at most 24 loop IDs vary, so this is at most `3·steps + 25`.
    ///
    /// Pre: none. Post: `>= 1`. Example: the three-splits example: `1 + 3 + 3 + 4 = 11`.
    pub fn point_cost(&self) -> u64 {
        (1 + self.steps.len() + self.checked.len() + self.varying.len()) as u64
    }

    /// Work of one enumeration that checks validity: points × [`Space::point_cost`].
    ///
    /// Pre: none. Post: at most [`MAX_WORK`]. Example: the three-splits example: `32 × 11 = 352`.
    pub fn work(&self) -> u64 {
        self.points.saturating_mul(self.point_cost())
    }

    /// Whether IterDomain `id`'s index is in bound: `0 <= i < extent`.
    ///
    /// Pre: `id` exists. Post: no side effects. Example: in the three-splits example, `i0 = 17` is out of bound.
    pub fn in_bound(&self, idx: &[i64], id: Id) -> bool {
        idx[id] >= 0 && idx[id] < self.extents[id]
    }

    /// Visits every loop point in lexicographic order with all indices computed; `f` returns
    /// `false` to stop early.
    ///
    /// Pre: none beyond [`Space::new`]. Post: `f` is called at most [`Space::points`] times.
    ///
    /// Example: the three-splits example calls `f` 32 times; returning `Ok(false)` at the first hole stops at
    /// the 7th point, `(0, 0, 1, 2)` (`i2 = 6`).
    pub fn for_each(&self, mut f: impl FnMut(&[i64]) -> Result<bool>) -> Result<()> {
        let n = self.schedule.ids.len();
        // Loop IDs of extent 1 stay 0; only the varying ones are counted.
        let mut idx = vec![0i64; n];
        let vary: Vec<Id> = self.varying.iter().map(|&k| self.loop_ids[k]).collect();
        for _ in 0..self.points {
            self.propagate(&mut idx)?;
            if !f(&idx)? {
                return Ok(());
            }
            // Increment the mixed-radix counter, innermost (last) first.
            for &l in vary.iter().rev() {
                idx[l] += 1;
                if idx[l] < self.extents[l] {
                    break;
                }
                idx[l] = 0;
            }
        }
        Ok(())
    }

    /// Whether every IterDomain is in bound at this point (the point is not a hole).
    ///
    /// Pre: `idx` from [`Space::for_each`] (loop indices in bound; only the other IterDomains
    /// and the varying loop IDs are checked, `point_cost` of them at most). Post: no side
    /// effects. Example: the three-splits example has 15 valid points.
    pub fn valid(&self, idx: &[i64]) -> bool {
        self.checked.iter().all(|&i| self.in_bound(idx, i))
            && self
                .varying
                .iter()
                .all(|&k| self.in_bound(idx, self.loop_ids[k]))
    }

    /// Whether every IterDomain of `set` is in bound (the predicate built from `set`).
    ///
    /// Pre: `idx` from [`Space::propagate`]. Post: `passes(idx, all IDs) == valid(idx)`.
    /// Example: the three-splits example's 19 points pass `{I0}`.
    pub fn passes(&self, idx: &[i64], set: &[Id]) -> bool {
        set.iter().all(|&i| self.in_bound(idx, i))
    }

    /// The flat position of the root item at this point (row-major over root extents), or `None`
    /// if some root index is out of bound.
    ///
    /// Pre: `idx` was filled by [`Space::propagate`]. Post: distinct in-bound root tuples give
    /// distinct positions (below `u64::MAX`). Example: the merge-then-split order's point `(1, 1)` is `T[1, 0]`,
    /// position `1 * 5 + 0 = 5`.
    pub fn root_item(&self, idx: &[i64]) -> Option<u64> {
        let mut pos: u64 = 0;
        for &r in &self.item_roots {
            if !self.in_bound(idx, r) {
                return None;
            }
            // Saturates for astronomically many root items; such positions are never tracked.
            pos = pos
                .saturating_mul(self.extents[r] as u64)
                .saturating_add(idx[r] as u64);
        }
        Some(pos)
    }

    /// Number of root items (product of root extents), saturating.
    ///
    /// Pre: none. Post: saturates at `u64::MAX`. Example: the split-then-merge and merge-then-split orders have `2 * 5 = 10` items.
    pub fn root_items(&self) -> u64 {
        self.item_roots
            .iter()
            .fold(1u64, |a, &r| a.saturating_mul(self.extents[r] as u64))
    }
}

/// Counts of one enumeration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    /// Loop-domain points.
    pub iterations: u64,
    /// Points at which every IterDomain is in bound.
    pub valid: u64,
    /// `iterations - valid`.
    pub holes: u64,
    /// Per IterDomain: points at which its index is out of bound.
    pub out_of_bound: Vec<u64>,
}

/// Counts points, valid points, holes and out-of-bound indices per IterDomain.
///
/// Pre: as [`Space::new`]. Post: `holes == iterations - valid`.
/// Example: the three-splits example gives 32 iterations, 15 valid, 17 holes.
pub fn count(space: &Space) -> Result<Counts> {
    let n = space.schedule.ids.len();
    let mut c = Counts {
        iterations: 0,
        valid: 0,
        holes: 0,
        out_of_bound: vec![0; n],
    };
    // Loop indices are in bound by construction: only the other IterDomains are checked.
    space.for_each(|idx| {
        c.iterations += 1;
        let mut ok = true;
        for &i in &space.checked {
            if !space.in_bound(idx, i) {
                c.out_of_bound[i] += 1;
                ok = false;
            }
        }
        if ok {
            c.valid += 1;
        }
        Ok(true)
    })?;
    c.holes = c.iterations - c.valid;
    Ok(c)
}

/// What a predicate does on the loop domain, checked against "no hole is visited".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PredicateCheck {
    /// Points passing the predicate.
    pub passing: u64,
    /// Passing points that are holes (some IterDomain out of bound).
    pub holes_passing: u64,
    /// Valid points rejected by the predicate (impossible for an in-bound predicate).
    pub valid_rejected: u64,
    /// Extra visits of a root item among passing points (visits beyond the first).
    pub duplicates: u64,
    /// Passing points whose root index is out of bound (illegal reads).
    pub out_of_range_reads: u64,
    /// The predicate is logically equivalent to "no hole" on the loop domain.
    pub equivalent: bool,
}

/// Whether the predicate "every IterDomain of `set` is in bound" holds exactly at the valid
/// points, stopping at the first point where it does not (what [`check_predicate`] decides as
/// `equivalent`, without counting duplicates).
///
/// Pre: `set` names existing IterDomains. Post: the work done, at most `points ×
/// (point_cost + |set|)` units, is added to [`super::steps`]. Example: the three-splits example with `{I0, I2}`
/// is equivalent, with `{I0}` it is not (the 7th point is a hole that passes).
pub fn equivalent(space: &Space, set: &[Id]) -> Result<bool> {
    let mut visited: u64 = 0;
    let mut equivalent = true;
    space.for_each(|idx| {
        visited += 1;
        equivalent = space.passes(idx, set) == space.valid(idx);
        Ok(equivalent)
    })?;
    super::steps::tick(visited.saturating_mul(space.point_cost() + set.len() as u64) as usize);
    Ok(equivalent)
}

/// Checks the predicate "every IterDomain of `set` is in bound" by enumeration.
///
/// Post: `equivalent` iff the predicate holds exactly at the valid points.
/// Example: the three-splits example with `{I0}` passes 19 points with 4 duplicates; with `{I0, I2}` 15 and 0.
///
/// Pre: `set` names existing IterDomains.
pub fn check_predicate(space: &Space, set: &[Id]) -> Result<PredicateCheck> {
    // Loop IDs are in bound at every point: only the others are checked.
    let mut is_loop = vec![false; space.extents.len()];
    for &l in &space.loop_ids {
        is_loop[l] = true;
    }
    let set: Vec<Id> = set.iter().copied().filter(|&i| !is_loop[i]).collect();
    let set = &set[..];
    let items = space.root_items();
    let track = items <= MAX_POINTS;
    let mut seen = vec![false; if track { items as usize } else { 0 }];
    let mut c = PredicateCheck {
        passing: 0,
        holes_passing: 0,
        valid_rejected: 0,
        duplicates: 0,
        out_of_range_reads: 0,
        equivalent: false,
    };
    space.for_each(|idx| {
        let p = space.passes(idx, set);
        let v = space.valid(idx);
        if p {
            c.passing += 1;
            if !v {
                c.holes_passing += 1;
            }
            match space.root_item(idx) {
                Some(item) if track => {
                    if seen[item as usize] {
                        c.duplicates += 1;
                    }
                    seen[item as usize] = true;
                }
                Some(_) => {}
                None => c.out_of_range_reads += 1,
            }
        } else if v {
            c.valid_rejected += 1;
        }
        Ok(true)
    })?;
    c.equivalent = c.holes_passing == 0 && c.valid_rejected == 0;
    Ok(c)
}
