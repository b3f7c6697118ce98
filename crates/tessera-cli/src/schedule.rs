//! `tessera schedule FILE`: analyze an iteration-domain schedule (holes, predicates, allocation,
//! equivalence, vectorization) or emit its loop nest as Python or CUDA C++.

use serde_json::{json, Value};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use tessera::domain::{
    alloc::{check_lowering, show, Lowering, Reduction},
    codegen::{emit, Lang},
    equiv::compare,
    parse,
    predicate::{everything, nvfuser_choice},
    report::{analyze, ObligationKind, Report},
    symbolic::Decision,
    vectorize::AccessKind,
    Error, Id, Schedule,
};

/// The lowering's buffer is listed cell by cell (text and JSON) up to this many cells, as
/// pictures are; past it only its size is given (`"buffer": null`, `"buffer_cells"`), so that a
/// 2^24-slot allocation does not need gigabytes of text.
const MAX_LISTED_CELLS: usize = 1 << 16;

/// Arguments of `tessera schedule`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The schedule file (one statement per line, `#` comments).
    pub file: PathBuf,
    /// Print JSON instead of the readable report.
    #[arg(long)]
    pub json: bool,
    /// Print the loop nest as code instead of the report: `python` or `cuda`.
    #[arg(long, value_name = "LANG")]
    pub emit: Option<String>,
    /// Predicate used by `--emit`: `ours` (default), `nvfuser`, `everything`, `roots`, `none`.
    #[arg(long, default_value = "ours")]
    pub predicate: String,
    /// Compare with another schedule over the same roots (Theorem 5 and enumeration).
    #[arg(long, value_name = "FILE")]
    pub equiv: Option<PathBuf>,
    /// Check a lowering into the allocation: predicate `ours`, `nvfuser`, `everything`, `roots`
    /// or `none` (weak/strong correctness, seed Definitions 1-2).
    #[arg(long, value_name = "PREDICATE")]
    pub lowering: Option<String>,
    /// Value the lowering writes where its predicate fails (e.g. TMA zero fill).
    #[arg(long, allow_hyphen_values = true)]
    pub fill: Option<f64>,
    /// Reduction reading the buffer: `sum` (holes 0), `product` (1), `max` (-inf), `min` (+inf).
    #[arg(long, default_value = "sum")]
    pub reduction: String,
    /// Pictures (`--svg dag|space|alloc`, `-o FILE`).
    #[command(flatten)]
    pub picture: crate::pictures::ScheduleSvg,
}

use crate::exit::fail;

fn load(path: &std::path::Path) -> Result<Schedule, ExitCode> {
    let text = crate::exit::read_file(path).map_err(|(c, m)| fail(c, m))?;
    parse(&text).map_err(|e| fail(e.code(), format!("{}: {e}", path.display())))
}

fn strategy(s: &Schedule, r: &Report, name: &str) -> Result<Vec<Id>, ExitCode> {
    let lib = |e: Error| fail(e.code(), e);
    Ok(match name {
        "ours" => r.derivation.chosen.clone(),
        "nvfuser" => nvfuser_choice(s).map_err(lib)?,
        "everything" | "all" => everything(s).map_err(lib)?,
        "roots" => s.roots(),
        "none" => vec![],
        other => {
            return Err(fail(
                "bad_argument",
                format!("unknown predicate `{other}` (ours, nvfuser, everything, roots, none)"),
            ))
        }
    })
}

fn decision(d: Decision) -> Value {
    match d {
        Decision::Yes => json!(true),
        Decision::No => json!(false),
        Decision::Unknown => json!("unknown"),
    }
}

/// Writes to stdout, ignoring a closed pipe (`tessera schedule … | head` must not panic).
fn out(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// The analysis as JSON (what `--json` prints, without `--equiv` and `--lowering`).
///
/// Pre: `report` is `analyze(s)`. Post: a JSON object. Example: the 6-by-4 example has `"holes": 2`.
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

/// An error of the whole loop domain (an enumeration past its bound, an overflow) says where:
/// the file and the line of its `loop` statement (or the last line when the loop domain is
/// implicit).
fn fail_at_loop(path: &std::path::Path, e: Error) -> ExitCode {
    let code = e.code();
    if !matches!(code, "too_many_points" | "too_much_work" | "overflow")
        || e.to_string().contains("line ")
    {
        return fail(code, e);
    }
    let text = crate::exit::read_file(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let (line, what) = match lines
        .iter()
        .position(|l| l.trim_start().starts_with("loop"))
    {
        Some(i) => (i + 1, "the `loop` statement"),
        None => (
            lines.len().max(1),
            "the implicit loop domain (no `loop` statement)",
        ),
    };
    fail(
        code,
        format!("{}: line {line}, column 1 ({what}): {e}", path.display()),
    )
}

/// Runs the subcommand.
pub fn run(args: Args) -> ExitCode {
    let s = match load(&args.file) {
        Ok(s) => s,
        Err(c) => return c,
    };
    if args.picture.svg.is_some() {
        return crate::pictures::schedule_picture(&s, &args.picture);
    }
    let report = match analyze(&s) {
        Ok(r) => r,
        Err(e) => return fail_at_loop(&args.file, e),
    };
    let pred = match strategy(&s, &report, &args.predicate) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(lang) = &args.emit {
        let lang = match lang.as_str() {
            "python" | "py" => Lang::Python,
            "cuda" | "cpp" | "c++" => Lang::Cuda,
            other => {
                return fail(
                    "bad_argument",
                    format!("unknown language `{other}` (python, cuda)"),
                )
            }
        };
        return match emit(&s, &pred, lang) {
            Ok(code) => {
                out(&code);
                ExitCode::SUCCESS
            }
            Err(e) => fail(e.code(), e),
        };
    }
    let equivalence = match &args.equiv {
        Some(path) => {
            let other = match load(path) {
                Ok(o) => o,
                Err(c) => return c,
            };
            match compare(&s, &other) {
                Ok(eq) => Some(eq),
                Err(e) => return fail(e.code(), e),
            }
        }
        None => None,
    };
    let lowering = match &args.lowering {
        Some(name) => {
            let set = match strategy(&s, &report, name) {
                Ok(p) => p,
                Err(c) => return c,
            };
            let Some(red) = Reduction::parse(&args.reduction) else {
                return fail(
                    "bad_argument",
                    format!("unknown reduction `{}`", args.reduction),
                );
            };
            let l = Lowering {
                predicate: set,
                fill: args.fill,
            };
            match check_lowering(&s, &l, red.identity()) {
                Ok(c) => Some((name.clone(), l, red, c)),
                Err(e) => return fail_at_loop(&args.file, e),
            }
        }
        None => None,
    };
    if args.json {
        let mut v = report_json(&s, &report);
        if let Some(eq) = &equivalence {
            v["equivalence"] = json!({
                "rule": eq.by_rule.as_ref().map(|r| json!({
                    "rule": r.rule, "condition": r.condition, "equivalent": decision(r.equivalent)
                })),
                "enumeration": eq.by_enumeration.as_ref().map(|e| json!({
                    "equivalent": e.equivalent,
                    "same_valid_order": e.same_valid_order,
                    "counterexample": e.counterexample,
                })),
            });
        }
        if let Some((name, l, red, c)) = &lowering {
            v["lowering"] = json!({
                "predicate": name,
                "predicated": report.names(&l.predicate),
                "fill": l.fill,
                "reduction": format!("{red:?}").to_lowercase(),
                "weak": c.weak,
                "strong": c.strong,
                "buffer": (c.buffer.len() <= MAX_LISTED_CELLS).then(|| c.buffer.iter().map(|x| x.map(|f| if f.is_finite() { json!(f) } else { json!(f.to_string()) })).collect::<Vec<_>>()),
                "buffer_cells": c.buffer.len(),
                "reasons": c.reasons,
            });
        }
        match serde_json::to_string_pretty(&v) {
            Ok(t) => out(&format!("{t}\n")),
            Err(e) => return fail("json", e),
        }
        return ExitCode::SUCCESS;
    }
    let mut o = report.render();
    if let Some(eq) = &equivalence {
        if let Some(r) = &eq.by_rule {
            let _ = writeln!(
                o,
                "equivalence by {}: {} -> {:?}",
                r.rule, r.condition, r.equivalent
            );
        }
        let _ = match &eq.by_enumeration {
            Some(e) => writeln!(
                o,
                "equivalence by enumeration: {}{}",
                if e.equivalent {
                    "equivalent"
                } else {
                    "NOT equivalent"
                },
                e.counterexample
                    .as_ref()
                    .map_or(String::new(), |c| format!(" ({c})"))
            ),
            None => writeln!(
                o,
                "equivalence by enumeration: not possible (symbolic extents)"
            ),
        };
    }
    if let Some((name, l, red, c)) = &lowering {
        let _ = writeln!(
            o,
            "lowering (predicate {name} [{}], fill {}, reduction {}, holes must hold {}): \
             weakly correct: {}, strongly correct: {}",
            report.names(&l.predicate).join(", "),
            l.fill.map_or("none".to_string(), |f| show(Some(f))),
            format!("{red:?}").to_lowercase(),
            show(Some(red.identity())),
            if c.weak { "yes" } else { "no" },
            if c.strong { "yes" } else { "no" }
        );
        if c.buffer.len() <= MAX_LISTED_CELLS {
            let _ = write!(o, "  buffer:");
            for &x in &c.buffer {
                let _ = write!(o, " {}", show(x));
            }
            let _ = writeln!(o);
        } else {
            let _ = writeln!(
                o,
                "  buffer: {} cells (listed up to {MAX_LISTED_CELLS})",
                c.buffer.len()
            );
        }
        for r in &c.reasons {
            let _ = writeln!(o, "  {r}");
        }
    }
    out(&o);
    ExitCode::SUCCESS
}
