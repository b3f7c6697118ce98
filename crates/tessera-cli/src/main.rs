//! `tessera`: the command-line front end of the tessera library.

mod schedule;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "tessera", version, about = "Layout algebra and iteration domains, provably right")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate one expression, e.g. `tessera eval 'composition(20:2,(5,4):(4,1))'`.
    Eval {
        /// The expression.
        expr: String,
    },
    /// Analyze an iteration-domain schedule: holes, predicates, allocation, code.
    Schedule(schedule::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Eval { expr } => {
            println!("{expr}");
            ExitCode::SUCCESS
        }
        Command::Schedule(args) => schedule::run(args),
    }
}
