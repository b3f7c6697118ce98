//! The wire form of a schedule's analysis: the JSON `tessera schedule --json` and `tessera batch`
//! (`"schedule"` requests) write, built with serde from the library's report types (keys in the
//! order written; schema by example in `docs/domain.md`).

use serde_json::{json, Value};

use super::alloc::{Lowering, LoweringCheck, Reduction};
use super::equiv::Equivalence;
use super::report::{ObligationKind, Report};
use super::symbolic::Decision;
use super::vectorize::AccessKind;
use super::Schedule;

/// The lowering's buffer is listed cell by cell (text and JSON) up to this many cells; past it
/// only its size is given (`"buffer": null`, `"buffer_cells"`), so that a 2^24-slot allocation
/// does not need gigabytes of text.
pub const MAX_LISTED_CELLS: usize = 1 << 16;

/// A three-valued decision: `true`, `false` or `"unknown"`.
fn decision(d: Decision) -> Value {
    match d {
        Decision::Yes => json!(true),
        Decision::No => json!(false),
        Decision::Unknown => json!("unknown"),
    }
}

/// The analysis as JSON (what `--json` prints, without `--equiv` and `--lowering`).
///
/// Pre: `report` is `analyze(s)`. Post: a JSON object. Example: the 6-by-4 example has `"holes": 2`.
///
/// ```
/// let s = tessera::domain::parse("I0 = iter 6\nI1, I2 = split I0 by 4\nloop I1 I2\nalloc I1 I2\n")
///     .unwrap();
/// let r = tessera::domain::report::analyze(&s).unwrap();
/// assert_eq!(tessera::domain::wire::report_json(&s, &r)["holes"], 2);
/// ```
pub fn report_json(s: &Schedule, report: &Report) -> Value {
    let ours = report.strategies[0].check.as_ref();
    json!({
        "iterations": report.counts.as_ref().map(|c| c.iterations),
        "valid": report.counts.as_ref().map(|c| c.valid),
        "holes": report.counts.as_ref().map(|c| c.holes),
        "duplicates": ours.map(|c| c.duplicates),
        "predicated": report.names(&report.derivation.chosen),
        "minimal_checked": report.derivation.minimal_checked,
        "enumeration_skipped": report.enumeration_skipped,
        "hole_free": decision(report.hole_free),
        "predicated_if_launch_checks_pass": report.specialized.as_ref().map(|d| report.names(&d.chosen)),
        "allocation": {
            "ids": report.names(&report.allocation.ids),
            "size": report.allocation.size.as_const().map_or_else(|| json!(report.allocation.size.to_string()), |c| json!(c)),
            "valid_items": report.allocation.valid_items.as_const().map_or_else(|| json!(report.allocation.valid_items.to_string()), |c| json!(c)),
            "over_allocation": report.allocation.over_allocation,
        },
        "dropped": report.derivation.dropped.iter().map(|j| json!({
            "id": s.name(j.id),
            "theorem": j.theorem,
            "transform": j.transform.map(|t| s.describe(t)),
            "premises": report.names(&j.premises),
        })).collect::<Vec<_>>(),
        "strategies": report.strategies.iter().map(|st| (st.name.to_string(), json!({
            "predicated": report.names(&st.set),
            "passing": st.check.as_ref().map(|c| c.passing),
            "holes_passing": st.check.as_ref().map(|c| c.holes_passing),
            "duplicates": st.check.as_ref().map(|c| c.duplicates),
            "equivalent": st.check.as_ref().map(|c| c.equivalent),
        }))).collect::<serde_json::Map<_, _>>(),
        "splits": report.splits.iter().map(|(t, d)| json!({
            "split": s.describe(*t), "divisible": decision(*d)
        })).collect::<Vec<_>>(),
        "accesses": report.accesses.iter().map(|a| json!({
            "id": s.name(a.id),
            "kind": if a.kind == AccessKind::Box { "box" } else { "vectorize" },
            "rule": a.rule.as_ref().map(|r| json!({
                "merge": [s.name(r.merge.0), s.name(r.merge.1)],
                "factor": r.factor,
                "contiguous_merge": r.contiguous_merge,
                "condition": r.condition,
                "legal": decision(r.legal),
            })),
            "split_divisible": a.split_divisible.map(decision),
            "contiguous": a.contiguous,
            "counterexample": a.counterexample,
        })).collect::<Vec<_>>(),
        "unswitch": report.unswitch.as_ref().map(|u| json!({
            "loops": report.names(&u.loops),
            "start": u.start,
            "stop": u.stop,
            "sound": u.sound,
            "counterexample": u.counterexample,
        })),
        "obligations": report.obligations.iter().map(|o| json!({
            "kind": if o.kind == ObligationKind::Launch { "launch" } else { "conservative" },
            "condition": o.condition,
            "reason": o.reason,
        })).collect::<Vec<_>>(),
    })
}

/// The equivalence of two schedules (`--equiv`): by rule and by enumeration.
///
/// Pre: none. Post: `{"rule": …|null, "enumeration": …|null}`.
pub fn equivalence_json(eq: &Equivalence) -> Value {
    json!({
        "rule": eq.by_rule.as_ref().map(|r| json!({
            "rule": r.rule, "condition": r.condition, "equivalent": decision(r.equivalent)
        })),
        "enumeration": eq.by_enumeration.as_ref().map(|e| json!({
            "equivalent": e.equivalent,
            "same_valid_order": e.same_valid_order,
            "counterexample": e.counterexample,
        })),
    })
}

/// A checked lowering (`--lowering`): its predicate (named `name`), fill, reduction, weak and
/// strong correctness, and the buffer (listed up to [`MAX_LISTED_CELLS`] cells; non-finite values
/// as text).
///
/// Pre: `c` is `check_lowering(s, l, red.identity())` and `report` is `analyze(s)`. Post: an object.
pub fn lowering_json(
    report: &Report,
    name: &str,
    l: &Lowering,
    red: Reduction,
    c: &LoweringCheck,
) -> Value {
    json!({
        "predicate": name,
        "predicated": report.names(&l.predicate),
        "fill": l.fill,
        "reduction": format!("{red:?}").to_lowercase(),
        "weak": c.weak,
        "strong": c.strong,
        "buffer": (c.buffer.len() <= MAX_LISTED_CELLS).then(|| c.buffer.iter().map(|x| x.map(|f| if f.is_finite() { json!(f) } else { json!(f.to_string()) })).collect::<Vec<_>>()),
        "buffer_cells": c.buffer.len(),
        "reasons": c.reasons,
    })
}
