//! The modules of the `tessera` command, as a library: the binary (`src/main.rs`) is a thin
//! shell that parses the flags and calls them, and the batch protocol's fuzz target
//! (`fuzz/fuzz_targets/batch.rs`) and tests call [`batch::answer_lines`] without a process.
//! Every subcommand's logic is here once; none of it is library algebra (that is `tessera`).

pub mod banks;
pub mod batch;
pub mod check;
pub mod diagnostic;
pub mod exit;
pub mod pictures;
pub mod ragged;
pub mod report;
pub mod schedule;
pub mod simplify;
pub mod strict;
pub mod symbolic;
pub mod tma;
pub mod tour;

use std::io::Write as _;

/// Writes to stdout, ignoring a closed pipe (`tessera tour | head` must not panic).
///
/// Pre: none. Post: `text` written to stdout, or nothing when stdout is closed. Example:
/// `out("valid\n")`.
pub fn out(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}
