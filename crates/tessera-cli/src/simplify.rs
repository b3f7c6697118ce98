//! `tessera simplify EXPR --assume FACT`: simplify an index expression or a predicate with the
//! integer-division theorems (`tessera::domain::simplify`).

use std::io::Write as _;
use std::process::ExitCode;
use tessera::domain::simplify::simplify_text;

/// Arguments of `tessera simplify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The expression or predicate, e.g. `((8*i0) + i1) % 128`.
    pub expr: String,
    /// An assumption, e.g. `0 <= i0 < 32` (repeatable).
    #[arg(long = "assume", value_name = "FACT", allow_hyphen_values = true)]
    pub assume: Vec<String>,
    /// Also print the rules applied, one per line.
    #[arg(long)]
    pub rules: bool,
}

/// Runs the command: prints the simplified form (and rules), or `error[CODE]: …` with the status
/// of [`crate::exit`] (2 for a parse error, 1 for a refusal).
///
/// Pre: none. Post: never panics on output errors. Example: `tessera simplify 'i0 / 2 / 3'`
/// prints `i0 / 6`.
pub fn run(args: Args) -> ExitCode {
    for (what, t) in std::iter::once(("the expression", &args.expr))
        .chain(args.assume.iter().map(|a| ("an assumption", a)))
    {
        if let Err((c, m)) = crate::exit::check_arg(what, t) {
            return crate::exit::fail(c, m);
        }
    }
    let asm: Vec<&str> = args.assume.iter().map(String::as_str).collect();
    let mut out = std::io::stdout().lock();
    match simplify_text(&args.expr, &asm) {
        Ok((s, rules)) => {
            let _ = writeln!(out, "{s}");
            if args.rules {
                for r in rules {
                    let _ = writeln!(out, "  by {r}");
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => crate::exit::fail(e.code(), e),
    }
}
