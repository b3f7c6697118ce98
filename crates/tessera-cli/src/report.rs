//! `tessera report FILE -o out.html`: one self-contained HTML page with the text report and the
//! pictures of a schedule (`.tsch`) or of a layout (a file holding one expression).

use std::path::PathBuf;
use std::process::ExitCode;
use tessera::render::html;

/// Arguments of `tessera report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A schedule (`.tsch`) or a file holding one layout expression (`#` lines are comments).
    pub file: PathBuf,
    /// Write the page to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

use crate::exit::fail;

/// The expression of a layout file: its lines without comments and blank lines, joined.
fn expression(text: &str) -> String {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the subcommand.
pub fn run(args: Args) -> ExitCode {
    let text = match crate::exit::read_file(&args.file) {
        Ok(t) => t,
        Err((c, m)) => return fail(c, m),
    };
    let name = args
        .file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let is_schedule = args.file.extension().is_some_and(|e| e == "tsch");
    let page = if is_schedule {
        match tessera::domain::parse(&text) {
            Ok(s) => html::schedule_report(&name, Some(&text), &s),
            Err(e) => return fail(e.code(), format!("{}: {e}", args.file.display())),
        }
    } else {
        let expr = expression(&text);
        match html::layout_report(&expr) {
            Ok(p) => Ok(p),
            // Not a layout: maybe a schedule without the `.tsch` extension.
            Err(layout_err) => match tessera::domain::parse(&text) {
                Ok(s) => html::schedule_report(&name, Some(&text), &s),
                Err(_) => Err(layout_err),
            },
        }
    };
    match page {
        Ok(p) => crate::pictures::emit(&p, args.output.as_deref()),
        Err(e) => fail(e.code(), format!("{}: {e}", args.file.display())),
    }
}
