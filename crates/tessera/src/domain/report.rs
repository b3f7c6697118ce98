//! Everything the `tessera schedule` command reports about one schedule.

use super::alloc::{allocation_info, AllocInfo};
use super::error::Result;
use super::eval::{check_predicate, count, Counts, PredicateCheck, Space};
use super::ir::{Id, Schedule, Transform};
use super::predicate::{
    derive, derive_by_theorems_assuming, everything, nvfuser_choice, xor_closed, Derivation,
};
use super::symbolic::Decision;
use super::unswitch::{unswitch, Unswitch};
use super::vectorize::{check_accesses, AccessKind, AccessVerdict};
use std::fmt::Write;

/// One predicate strategy and, when extents are concrete, what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strategy {
    /// `ours`, `nvfuser` or `everything`.
    pub name: &'static str,
    /// IterDomains whose in-bound conditions form the predicate.
    pub set: Vec<Id>,
    /// Enumeration check.
    pub check: Option<PredicateCheck>,
}

/// Kind of obligation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObligationKind {
    /// Must be validated at launch (with the bound sizes) before running.
    Launch,
    /// Undecided fact that only costs performance: the analysis stayed conservative.
    Conservative,
}

/// A condition the facts could not decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obligation {
    /// Launch check or conservative choice.
    pub kind: ObligationKind,
    /// The condition, e.g. `N % 6 == 0`.
    pub condition: String,
    /// Why it matters.
    pub reason: String,
}

/// The full analysis of a schedule.
#[derive(Debug, Clone)]
pub struct Report {
    /// The schedule.
    pub schedule: Schedule,
    /// Enumeration counts (extents concrete).
    pub counts: Option<Counts>,
    /// Why enumeration was not done (symbolic extents, or more than `MAX_POINTS` points).
    pub enumeration_skipped: Option<String>,
    /// Whether no loop point is a hole: by enumeration, or symbolically when the theorems prove
    /// every index in bound.
    pub hole_free: Decision,
    /// Our predicate.
    pub derivation: Derivation,
    /// The smaller predicate valid once every undecided split passes a launch-time divisibility
    /// check (`None` when nothing is undecided or nothing would change).
    pub specialized: Option<Derivation>,
    /// Ours, nvFuser's, everything.
    pub strategies: Vec<Strategy>,
    /// Allocation size.
    pub allocation: AllocInfo,
    /// Divisibility of each split, by transform position.
    pub splits: Vec<(usize, Decision)>,
    /// Vectorized and box IterDomains.
    pub accesses: Vec<AccessVerdict>,
    /// Runtime obligations and conservative choices.
    pub obligations: Vec<Obligation>,
    /// The hoisted predicate when loops are unswitched (`unswitch I`).
    pub unswitch: Option<Unswitch>,
}

/// Hole-freedom without enumeration.
///
/// Pre: `by_theorems` is `derive_by_theorems_assuming(s, &[])`. Post: `Yes` when the theorems
/// leave no condition (every index is in bound at every point, for every value the facts allow);
/// `No` when the extents are concrete, every transform is a split or a merge and the theorems
/// leave a condition (an indivisible split computed from its outputs reaches
/// `ceilDiv(N, f)·f > N`: Theorem 1 and its converse, checked against enumeration in
/// `tests/domain/domain_validity.rs`); else `Unknown`.
/// Example: `I0 = iter 1000000000` split by 7 is `No` without enumerating 10^9 points.
pub fn hole_free_closed_form(s: &Schedule, by_theorems: &Derivation) -> Result<Decision> {
    if by_theorems.chosen.is_empty() {
        return Ok(Decision::Yes);
    }
    let only_split_merge = s
        .transforms
        .iter()
        .all(|t| matches!(t, Transform::Split { .. } | Transform::Merge { .. }));
    Ok(if only_split_merge && s.is_concrete() {
        Decision::No
    } else {
        Decision::Unknown
    })
}

/// Analyzes a schedule: enumeration (when concrete), predicates, allocation, accesses,
/// obligations.
///
/// Pre: the loop domain determines every index. Post: `strategies[0]` is ours (equivalent to
/// "no hole", minimal when concrete); symbolic facts are used where they suffice and every
/// undecided condition is listed in `obligations`.
/// Example: the three-splits example gives counts 32/15/17 and ours `{I0, I2}`.
///
/// ```
/// // The three-splits example (ARCHITECTURE.md, glossary).
/// let text = "I0 = iter 15\nI1, I2 = split I0 by 6\nI3, I4 = split I1 by 2\n\
///             I5, I6 = split I2 by 4\nloop I3 I4 I5 I6\n";
/// let s = tessera::domain::parse(text).unwrap();
/// let r = tessera::domain::report::analyze(&s).unwrap();
/// let c = r.counts.as_ref().unwrap();
/// assert_eq!((c.iterations, c.valid, c.holes), (32, 15, 17));
/// assert_eq!(r.names(&r.derivation.chosen), ["I0", "I2"]);
/// ```
pub fn analyze(s: &Schedule) -> Result<Report> {
    let mut enumeration_skipped = None;
    let space = match Space::new(s) {
        Ok(sp) => Some(sp),
        Err(e @ super::Error::Unbound(_)) => {
            enumeration_skipped = Some(format!("symbolic extents without values ({e})"));
            None
        }
        Err(e @ (super::Error::TooManyPoints { .. } | super::Error::TooMuchWork { .. })) => {
            enumeration_skipped = Some(e.to_string());
            None
        }
        Err(e) => return Err(e),
    };
    let counts = match &space {
        Some(sp) => Some(count(sp)?),
        None => None,
    };
    let derivation = derive(s)?;
    let mut strategies = Vec::new();
    for (name, set) in [
        ("ours", derivation.chosen.clone()),
        ("nvfuser", nvfuser_choice(s)?),
        ("everything", everything(s)?),
    ] {
        let check = match &space {
            Some(sp) => Some(check_predicate(sp, &set)?),
            None => None,
        };
        strategies.push(Strategy { name, set, check });
    }
    let allocation = allocation_info(s)?;
    let mut splits = Vec::new();
    let mut obligations = Vec::new();
    // Every symbol must be a positive size: one launch check per symbol not known positive;
    // derived extents are then checked assuming those, so `ceilDiv(N, 4) >= 1` is not repeated.
    let mut symbols = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut here = Vec::new();
    for d in &s.ids {
        here.clear();
        d.extent.symbols(&mut here);
        for sym in here.drain(..) {
            if seen.insert(sym.clone()) {
                symbols.push(sym);
            }
        }
    }
    super::steps::tick(s.ids.len() + symbols.len());
    let mut assumed = s.facts.clone();
    for sym in &symbols {
        let e = super::symbolic::Extent::Sym(sym.clone());
        if s.facts.at_least(&e, 1)? == Decision::Unknown {
            obligations.push(Obligation {
                kind: ObligationKind::Launch,
                condition: format!("{sym} >= 1"),
                reason: format!("the size {sym} must be positive"),
            });
            assumed.assume(super::symbolic::Fact::AtLeast(sym.clone(), 1))?;
        }
    }
    for d in &s.ids {
        if !matches!(d.extent, super::symbolic::Extent::Sym(_))
            && assumed.at_least(&d.extent, 1)? == Decision::Unknown
        {
            obligations.push(Obligation {
                kind: ObligationKind::Launch,
                condition: format!("{} >= 1", d.extent),
                reason: format!("extent of {} must be positive", d.name),
            });
        }
    }
    for (t, tr) in s.transforms.iter().enumerate() {
        match tr {
            Transform::Split { input, factor, .. } => {
                let d = s.split_divisible(t)?;
                splits.push((t, d));
                if d == Decision::Unknown {
                    obligations.push(Obligation {
                        kind: ObligationKind::Conservative,
                        condition: format!("{} % {} == 0", s.ids[*input].extent, factor),
                        reason: format!(
                            "`{}` may create holes; the predicate assumes it does",
                            s.describe(t)
                        ),
                    });
                }
            }
            Transform::Swizzle { x, y, .. } if xor_closed(s, *x, *y)? == Decision::Unknown => {
                obligations.push(Obligation {
                    kind: ObligationKind::Conservative,
                    condition: format!(
                        "{} is a power of two >= {}",
                        s.ids[*y].extent, s.ids[*x].extent
                    ),
                    reason: format!(
                        "`{}` may create holes; the predicate assumes it does",
                        s.describe(t)
                    ),
                });
            }
            _ => {}
        }
    }
    // Hole-free is decided symbolically when the theorems leave no condition at all (then every
    // index is in bound at every point, for every value the facts allow); enumeration decides the
    // rest when extents are concrete.
    let by_theorems = derive_by_theorems_assuming(s, &[])?;
    let hole_free = match &counts {
        Some(c) => {
            if c.holes == 0 {
                Decision::Yes
            } else {
                Decision::No
            }
        }
        None => hole_free_closed_form(s, &by_theorems)?,
    };
    let undecided: Vec<usize> = splits
        .iter()
        .filter(|(_, d)| *d == Decision::Unknown)
        .map(|(t, _)| *t)
        .collect();
    let specialized = if undecided.is_empty() {
        None
    } else {
        let alt = derive_by_theorems_assuming(s, &undecided)?;
        (alt.chosen != derivation.chosen).then_some(alt)
    };
    let mut accesses = Vec::new();
    let wanted: Vec<(Id, AccessKind)> = (s.vectorized.iter().map(|&i| (i, AccessKind::Vectorize)))
        .chain(s.boxes.iter().map(|&i| (i, AccessKind::Box)))
        .collect();
    {
        for v in check_accesses(s, &wanted)? {
            let (id, kind) = (v.id, v.kind);
            if v.split_divisible == Some(Decision::Unknown) {
                if let Some(t) = s.ids[id].definition {
                    if let Transform::Split { input, factor, .. } = s.transforms[t] {
                        obligations.push(Obligation {
                            kind: ObligationKind::Launch,
                            condition: format!("{} % {} == 0", s.ids[input].extent, factor),
                            reason: format!(
                                "vectorized split `{}` must be divisible",
                                s.describe(t)
                            ),
                        });
                    }
                }
            }
            if let Some(r) = &v.rule {
                if r.legal == Decision::Unknown {
                    obligations.push(Obligation {
                        kind: ObligationKind::Launch,
                        condition: r.condition.clone(),
                        reason: format!(
                            "{} {} is split out of a merge of discontiguous {} and {}",
                            if kind == AccessKind::Box {
                                "box"
                            } else {
                                "vector"
                            },
                            s.name(id),
                            s.name(r.merge.0),
                            s.name(r.merge.1)
                        ),
                    });
                }
            }
            accesses.push(v);
        }
    }
    let unswitch = if s.unswitched.is_empty() {
        None
    } else {
        Some(unswitch(s, &derivation.chosen)?)
    };
    Ok(Report {
        unswitch,
        schedule: s.clone(),
        counts,
        enumeration_skipped,
        hole_free,
        derivation,
        specialized,
        strategies,
        allocation,
        splits,
        accesses,
        obligations,
    })
}

impl Report {
    /// Names of a set of IterDomains.
    ///
    /// Pre: IDs exist. Post: names in the same order. Example: `[0, 2]` in the three-splits example is `["I0", "I2"]`.
    pub fn names(&self, set: &[Id]) -> Vec<String> {
        set.iter()
            .map(|&i| self.schedule.name(i).to_string())
            .collect()
    }

    /// The predicate as text: `I0 < 15 ∧ I2 < 6` (`true` when empty); the lower bound `0 <=` is
    /// written only for indices that can be negative.
    ///
    /// Pre: IDs exist. Post: one conjunct per ID. Example: the three-splits example gives `I0 < 15 ∧ I2 < 6`.
    pub fn predicate_text(&self, set: &[Id]) -> String {
        if set.is_empty() {
            return "true".into();
        }
        let nn = super::codegen::nonnegative(&self.schedule).unwrap_or_default();
        set.iter()
            .map(|&i| {
                let lower = if nn.get(i).copied().unwrap_or(false) {
                    ""
                } else {
                    "0 <= "
                };
                format!(
                    "{lower}{} < {}",
                    self.schedule.name(i),
                    self.schedule.ids[i].extent
                )
            })
            .collect::<Vec<_>>()
            .join(" ∧ ")
    }

    /// The readable report.
    ///
    /// Pre: none. Post: deterministic text (pinned by the CLI tests). Example: see
    /// `examples/schedules/*.out`.
    pub fn render(&self) -> String {
        let s = &self.schedule;
        let mut o = String::new();
        let _ = writeln!(o, "IterDomains:");
        for d in &s.ids {
            let how = match d.definition {
                None => "root".to_string(),
                Some(t) => s.describe(t),
            };
            let _ = writeln!(o, "  {}{{{}}}  {}", d.name, d.extent, how);
        }
        for (t, d) in &self.splits {
            let word = match d {
                Decision::Yes => "divisible",
                Decision::No => "indivisible (creates holes)",
                Decision::Unknown => "divisibility undecided",
            };
            let _ = writeln!(o, "split `{}`: {}", s.describe(*t), word);
        }
        if let Ok(l) = s.loop_ids() {
            let _ = writeln!(o, "loop domain: [{}]", self.names(&l).join(", "));
        }
        match &self.counts {
            Some(c) => {
                let _ = writeln!(
                    o,
                    "enumeration: {} iterations, {} valid, {} holes",
                    c.iterations, c.valid, c.holes
                );
                for (i, n) in c.out_of_bound.iter().enumerate() {
                    if *n > 0 {
                        let _ = writeln!(o, "  {} out of bound at {} points", s.name(i), n);
                    }
                }
            }
            None => {
                let _ = writeln!(
                    o,
                    "enumeration: skipped: {}",
                    self.enumeration_skipped.clone().unwrap_or_default()
                );
            }
        }
        let _ = writeln!(
            o,
            "hole-free: {}",
            match self.hole_free {
                Decision::Yes => "yes",
                Decision::No => "no",
                Decision::Unknown if self.schedule.is_concrete() => {
                    "undecided (too many points to enumerate, and no theorem decides it)"
                }
                Decision::Unknown => "undecided (symbolic)",
            }
        );
        let _ = writeln!(
            o,
            "predicate (ours): {}",
            self.predicate_text(&self.derivation.chosen)
        );
        for j in &self.derivation.dropped {
            let premises = self.names(&j.premises).join(", ");
            let from = if premises.is_empty() {
                "unconditionally".to_string()
            } else {
                format!("from {premises}")
            };
            match j.transform {
                Some(t) => {
                    let _ = writeln!(
                        o,
                        "  dropped {}: follows {} by {} on `{}`",
                        s.name(j.id),
                        from,
                        j.theorem,
                        s.describe(t)
                    );
                }
                None => {
                    let _ = writeln!(
                        o,
                        "  dropped {}: follows {} by {}",
                        s.name(j.id),
                        from,
                        j.theorem
                    );
                }
            }
        }
        let _ = writeln!(
            o,
            "  minimal: {}",
            if self.derivation.minimal_checked {
                "yes (checked by enumeration)"
            } else {
                "by the theorems only (not enumerated)"
            }
        );
        if let Some(sp) = &self.specialized {
            let _ = writeln!(
                o,
                "  with the undecided splits checked divisible at launch: {}",
                self.predicate_text(&sp.chosen)
            );
        }
        let _ = writeln!(o, "strategies:");
        for st in &self.strategies {
            let set = format!("[{}]", self.names(&st.set).join(", "));
            match &st.check {
                Some(c) => {
                    let _ = writeln!(
                        o,
                        "  {:<10} {:<24} passes {}, holes passing {}, duplicates {}, equivalent to no-hole: {}",
                        st.name,
                        set,
                        c.passing,
                        c.holes_passing,
                        c.duplicates,
                        if c.equivalent { "yes" } else { "no" }
                    );
                }
                None => {
                    let _ = writeln!(o, "  {:<10} {}", st.name, set);
                }
            }
        }
        let a = &self.allocation;
        let _ = writeln!(
            o,
            "allocation: [{}] size {}, valid items {}, over-allocation {}",
            self.names(&a.ids).join(", "),
            a.size,
            a.valid_items,
            a.over_allocation
                .map_or("unknown".to_string(), |v| v.to_string())
        );
        for v in &self.accesses {
            let kind = if v.kind == AccessKind::Box {
                "box"
            } else {
                "vectorize"
            };
            let mut line = format!("{kind} {}:", s.name(v.id));
            if let Some(r) = &v.rule {
                let _ = write!(
                    line,
                    " split of merge({}, {}), rule {} -> {:?};",
                    s.name(r.merge.0),
                    s.name(r.merge.1),
                    r.condition,
                    r.legal
                );
            }
            if let Some(d) = v.split_divisible {
                let _ = write!(line, " vectorized split divisible: {d:?};");
            }
            match v.contiguous {
                Some(true) => line.push_str(" contiguous (enumeration)"),
                Some(false) => {
                    let _ = write!(
                        line,
                        " NOT contiguous: {}",
                        v.counterexample.clone().unwrap_or_default()
                    );
                }
                None => line.push_str(" contiguity not enumerated (symbolic)"),
            }
            let _ = writeln!(o, "{line}");
        }
        if let Some(u) = &self.unswitch {
            let conds: Vec<String> = u.start.iter().chain(&u.stop).cloned().collect();
            let _ = writeln!(
                o,
                "unswitch [{}]: hoisted predicate {}; {}",
                self.names(&u.loops).join(", "),
                if conds.is_empty() {
                    "true".to_string()
                } else {
                    conds.join(" ∧ ")
                },
                match (u.sound, &u.counterexample) {
                    (Some(true), _) => "sound (enumeration)".to_string(),
                    (Some(false), c) => format!("UNSOUND: {}", c.clone().unwrap_or_default()),
                    (None, _) => "soundness not enumerated".to_string(),
                }
            );
        }
        if self.obligations.is_empty() {
            let _ = writeln!(o, "obligations: none");
        } else {
            let _ = writeln!(o, "obligations:");
            for ob in &self.obligations {
                let k = match ob.kind {
                    ObligationKind::Launch => "validate at launch",
                    ObligationKind::Conservative => "undecided, conservative",
                };
                let _ = writeln!(o, "  [{k}] {}: {}", ob.condition, ob.reason);
            }
        }
        o
    }
}
