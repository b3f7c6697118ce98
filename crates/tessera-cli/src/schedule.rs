//! `tessera schedule FILE`: analyze an iteration-domain schedule (holes, predicates, allocation,
//! equivalence, vectorization) or emit its loop nest as Python or CUDA C++.

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
    report::{analyze, Report},
    Error, Id, Schedule,
};

pub use tessera::domain::wire::report_json;
use tessera::domain::wire::{equivalence_json, lowering_json, MAX_LISTED_CELLS};

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
    /// or `none` (weak/strong correctness of Divisibility of Split's Definitions 1-2).
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

/// Writes to stdout, ignoring a closed pipe (`tessera schedule … | head` must not panic).
fn out(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
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
            v["equivalence"] = equivalence_json(eq);
        }
        if let Some((name, l, red, c)) = &lowering {
            v["lowering"] = lowering_json(&report, name, l, *red, c);
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
