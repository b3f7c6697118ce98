//! `tessera`: the command-line front end of the tessera library.

use tessera_cli::{
    banks, batch, check, diagnostic, exit, out, pictures, ragged, report, schedule, simplify,
    symbolic, tma, tour,
};

use clap::{Parser, Subcommand};
use std::io::Write as _;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tessera",
    version,
    about = "Layout algebra and iteration domains for GPU kernels, provably right"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate one expression, e.g. `tessera eval 'composition(20:2,(5,4):(4,1))'`.
    #[command(after_long_help = eval_help())]
    Eval {
        /// The expression.
        expr: String,
        /// Print layouts in pycute's notation (`(2, (2, 2)):(4, (1, 2))`).
        #[arg(long)]
        pycute: bool,
        /// A divide, `local_tile` or `local_partition` over the padded domain: holes, minimal
        /// predicate, TMA verdict (for tilers that do not divide the layout).
        #[arg(long)]
        ragged: bool,
        /// With --ragged: names of the layout's mode coordinates, e.g. `m,k` (default m,n,k,l).
        #[arg(long)]
        names: Option<String>,
        /// With --ragged: element type of the TMA verdict (default f16).
        #[arg(long, default_value = "f16")]
        dtype: String,
        /// With --ragged: also print the predicated loop nest (Python and CUDA C++).
        #[arg(long)]
        code: bool,
        /// With --ragged: draw the padded tile grid with its holes to this SVG file.
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
        /// Evaluate over runtime extents (names in leaves, docs/symbolic.md): the result and
        /// its guards. Implied by --assume and --emit-guard.
        #[arg(long)]
        symbolic: bool,
        /// A fact about the names (repeatable): `M % 128 == 0`, `K >= 64`, `M == 4*P`.
        #[arg(long)]
        assume: Vec<String>,
        /// Also print the guards' conjunction as a C++ or Python expression (`cpp`, `python`).
        #[arg(long)]
        emit_guard: Option<String>,
    },
    /// Answer JSON lines from stdin (`{"id": .., "expr": ".."}`, `"schedule"` or `"tma"`
    /// requests; docs/batch.md): one JSON line out per line in, flushed per line, in order.
    Batch(batch::Args),
    /// Print a rank-2 layout as CuTe's print_layout table, or draw it (`--svg`, `--tv`,
    /// `--svg-tma`).
    Show(pictures::ShowArgs),
    /// A walk through the seed examples and real GEMM tilings.
    Tour,
    /// Explain an error code (e.g. `tessera explain divisibility`) with a minimal example.
    Explain {
        /// The code, as printed in `error[CODE]`.
        code: String,
    },
    /// Analyze an iteration-domain schedule: holes, predicates, allocation, code.
    Schedule(schedule::Args),
    /// Validate a TMA descriptor (cuTensorMapEncodeTiled rules), its tiling and holes (FTTC).
    Tma(tma::Args),
    /// One self-contained HTML page with the report and pictures of a schedule or a layout.
    Report(report::Args),
    /// Simplify an index expression or predicate under assumptions (integer-division theorems).
    Simplify(simplify::Args),
    /// Shared-memory bank conflicts of an access, or a swizzle synthesized for a writer and reader.
    Banks(banks::Args),
    /// Check a whole GEMM kernel configuration (TOML, a CUTLASS kernel name, or a search space):
    /// every obligation proved, refuted with a witness and checked fixes, or a runtime guard.
    Check(check::Args),
}

/// The operations of the expression language, from the library's registry.
fn eval_help() -> String {
    format!(
        "Operations (`tessera eval --help`; the registry tessera::notation::ops):\n{}",
        tessera::notation::ops::help()
    )
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Eval { expr, .. } if exit::check_arg("the expression", &expr).is_err() => {
            let (c, m) = exit::check_arg("the expression", &expr).unwrap_err();
            exit::fail(c, m)
        }
        Command::Eval {
            expr,
            ragged: true,
            names,
            dtype,
            code,
            svg,
            ..
        } => {
            let Some(dt) = tessera::tma::DataType::parse(&dtype) else {
                return exit::fail("bad_argument", format!("unknown --dtype `{dtype}`"));
            };
            let rc = ragged::run(&expr, names.as_deref(), dt, code);
            match svg {
                Some(path) => ragged::svg(&expr, names.as_deref(), &path).unwrap_or(rc),
                None => rc,
            }
        }
        Command::Eval {
            expr,
            symbolic,
            assume,
            emit_guard,
            ..
        } if symbolic || !assume.is_empty() || emit_guard.is_some() => {
            symbolic::run(&expr, &assume, emit_guard.as_deref())
        }
        Command::Eval { expr, pycute, .. } => match tessera::notation::eval_noted(&expr) {
            (Ok(v), notes) => {
                let text = tessera::notation::write::value_text(&v, pycute);
                out(&format!("{text}\n"));
                for n in &notes {
                    let _ = write!(std::io::stderr(), "{}", diagnostic::render_note(&expr, n));
                }
                ExitCode::SUCCESS
            }
            (Err(e), _) => {
                let _ = write!(std::io::stderr(), "{}", diagnostic::render(&expr, &e));
                exit::status(e.code())
            }
        },
        Command::Batch(args) => batch::run(args),
        Command::Show(args) => pictures::show(args),
        Command::Tour => {
            out(&tour::tour());
            ExitCode::SUCCESS
        }
        Command::Explain { code } => explain(&code),
        Command::Schedule(args) => schedule::run(args),
        Command::Tma(args) => tma::run(args),
        Command::Report(args) => report::run(args),
        Command::Simplify(args) => simplify::run(args),
        Command::Banks(args) => banks::run(args),
        Command::Check(args) => check::run(args),
    }
}

/// `tessera explain CODE`: the entry of the one catalogue (`tessera::diagnostic::catalogue`),
/// and for the layout algebra's codes and notes the diagnostic its example produces.
fn explain(code: &str) -> ExitCode {
    use std::fmt::Write as _;
    use tessera::diagnostic::catalogue::{self, Example, Family};
    use tessera::obligation::catalogue::run_example;
    let mut o = String::new();
    if let Some(e) = tessera::check::rules::CODES
        .contains(&code)
        .then(|| catalogue::lookup(code))
        .flatten()
    {
        let ex = match e.example {
            Example::Expr(t) | Example::Rust(t) | Example::Text(t) => t,
        };
        let _ = writeln!(
            o,
            "{}: {} (an obligation of `tessera check`)\n\n{}\n",
            e.code, e.title, e.explanation
        );
        let _ = writeln!(
            o,
            "verdicts: proved, refuted (exit status 1), runtime (a guard), warning; docs/check.md"
        );
        let _ = writeln!(o, "\nexample:\n  {ex}");
        out(&o);
        return ExitCode::SUCCESS;
    }
    let Some(entry) = catalogue::lookup(code) else {
        let _ = writeln!(
            o,
            "error[bad_argument]: unknown error code `{code}`; the codes are:"
        );
        for e in catalogue::all().filter(|e| e.family != Family::Note) {
            let _ = writeln!(o, "  {:<26} {}", e.code, e.title);
        }
        let _ = std::io::stderr().lock().write_all(o.as_bytes());
        return exit::status("bad_argument");
    };
    let text = |ex: Example| match ex {
        Example::Expr(t) | Example::Rust(t) | Example::Text(t) => t,
    };
    match entry.family {
        Family::Algebra => {}
        Family::Banks => {
            let _ = writeln!(
                o,
                "{}: {}\n\n{}\n",
                entry.code, entry.obligation, entry.explanation
            );
            if entry.title.starts_with("warning") {
                let _ = writeln!(o, "exit status: 0 (a warning: the answer is given)");
            } else {
                let _ = writeln!(o, "exit status: {}", exit::status_number(entry.code));
            }
            let _ = writeln!(o, "\nminimal example:\n  {}", text(entry.example));
            out(&o);
            return ExitCode::SUCCESS;
        }
        Family::Note => {
            let ex = text(entry.example);
            let _ = writeln!(
                o,
                "{} (a note: the result is returned, with this warning)\n",
                entry.code
            );
            let _ = writeln!(
                o,
                "{}\n\nexample:\n  tessera eval '{ex}'\n",
                entry.explanation
            );
            if let (Ok(v), notes) = tessera::notation::eval_noted(ex) {
                let _ = writeln!(o, "  {v}");
                for n in &notes {
                    for line in diagnostic::render_note_with(ex, n, false).lines() {
                        let _ = writeln!(o, "  {line}");
                    }
                }
            }
            out(&o);
            return ExitCode::SUCCESS;
        }
        Family::Other => {
            let _ = writeln!(
                o,
                "{}: {}\n\n{}\n",
                entry.code, entry.title, entry.explanation
            );
            let _ = writeln!(o, "exit status: {}", exit::status_number(entry.code));
            let _ = writeln!(o, "\nminimal example:\n  {}", text(entry.example));
            out(&o);
            return ExitCode::SUCCESS;
        }
    }
    let _ = writeln!(o, "{}: {}\n", entry.code, entry.title);
    let _ = writeln!(o, "obligation: {}\n", entry.obligation);
    let _ = writeln!(o, "{}\n", entry.explanation);
    let _ = writeln!(o, "exit status: {}\n", exit::status_number(entry.code));
    let (input, how) = match entry.example {
        Example::Expr(t) => (t, format!("tessera eval '{t}'")),
        Example::Rust(t) | Example::Text(t) => ("", format!("Rust: {t}")),
    };
    let _ = writeln!(o, "minimal example:\n  {how}");
    if let Some(e) = run_example(entry) {
        let _ = writeln!(o);
        for line in diagnostic::render_with(input, &e, false).lines() {
            let _ = writeln!(o, "  {line}");
        }
    }
    out(&o);
    ExitCode::SUCCESS
}
