//! One exit-status convention for every subcommand, and bounded reading of every input.
//!
//! Status: `0` the answer (a valid descriptor, a result, a report), `1` the input was understood
//! and refused (a failed obligation: `error[CODE]` with a code of `tessera explain`), `2` usage
//! errors and unreadable input (bad flags, parse errors, files that cannot be read, inputs over
//! their size limit). `docs/errors.md` lists every code.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

/// Codes that mean "usage or unreadable input" (status 2); every other code is status 1.
pub const USAGE_CODES: &[&str] = &[
    "parse",
    "parse_error",
    "io",
    "invalid_utf8",
    "input_too_large",
    "bad_argument",
    "bad_json",
    "bad_request",
    "bad_config",
    "arch_syntax",
    "unknown_arch",
    "arch_suffix",
];

/// The exit status of an error code.
///
/// Pre: none. Post: 2 for [`USAGE_CODES`], else 1. Example: `status("divisibility")` is 1.
pub fn status(code: &str) -> ExitCode {
    ExitCode::from(status_number(code))
}

/// [`status`] as a number.
///
/// Pre: none. Post: 1 or 2. Example: `status_number("parse") == 2`.
pub fn status_number(code: &str) -> u8 {
    if USAGE_CODES.contains(&code) {
        2
    } else {
        1
    }
}

/// Prints `error[CODE]: MSG` on stderr (a closed stderr is ignored) and returns its status.
///
/// Pre: none. Post: never panics. Example: `fail("io", "x: not found")` exits 2.
pub fn fail(code: &str, msg: impl std::fmt::Display) -> ExitCode {
    let _ = writeln!(std::io::stderr().lock(), "error[{code}]: {msg}");
    status(code)
}

/// The default size limit of any one input (a file, a line of `tessera batch`, an argument), in
/// bytes: 1 MiB. `TESSERA_MAX_INPUT_BYTES` raises or lowers it (at most 1 GiB).
pub const DEFAULT_MAX_INPUT: u64 = 1 << 20;

/// The size limit in force: `TESSERA_MAX_INPUT_BYTES` when set to a number in `1..=2^30`, else
/// [`DEFAULT_MAX_INPUT`].
///
/// Pre: none. Post: in `1..=2^30`. Example: unset gives 1048576.
pub fn max_input() -> u64 {
    std::env::var("TESSERA_MAX_INPUT_BYTES")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&v| (1..=1 << 30).contains(&v))
        .unwrap_or(DEFAULT_MAX_INPUT)
}

/// The message of an input over the limit.
///
/// Pre: none. Post: names the limit and how to raise it. Example: `too_large("FILE", 2000000)`.
pub fn too_large(what: &str, size: u64) -> String {
    format!(
        "{what} is over the input limit of {} bytes (read {size} bytes); set \
         TESSERA_MAX_INPUT_BYTES to raise it",
        max_input()
    )
}

/// Reads a file as UTF-8 text, at most [`max_input`] bytes (never more: `/dev/zero` and
/// `/dev/urandom` stop at the limit).
///
/// Pre: none. Post: `Err((code, message))` with code `io`, `input_too_large` or
/// `invalid_utf8`. Example: `read_file(Path::new("/dev/zero"))` is `input_too_large`.
pub fn read_file(path: &Path) -> Result<String, (&'static str, String)> {
    let limit = max_input();
    let f = std::fs::File::open(path).map_err(|e| ("io", format!("{}: {e}", path.display())))?;
    let mut bytes = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ("io", format!("{}: {e}", path.display())))?;
    if bytes.len() as u64 > limit {
        return Err((
            "input_too_large",
            too_large(&path.display().to_string(), bytes.len() as u64),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        (
            "invalid_utf8",
            format!(
                "{}: not UTF-8 text (invalid byte at offset {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Checks the size of a command-line argument against [`max_input`].
///
/// Pre: none. Post: `Err` with code `input_too_large`. Example: a 2 MB expression is refused.
pub fn check_arg(what: &str, text: &str) -> Result<(), (&'static str, String)> {
    if text.len() as u64 > max_input() {
        return Err(("input_too_large", too_large(what, text.len() as u64)));
    }
    Ok(())
}

/// Streams a file's lines (any number of them), each at most [`max_input`] bytes, to `f`.
///
/// Pre: none. Post: `Err((code, message))` with `io`, `input_too_large` (a line over the limit)
/// or `invalid_utf8`; memory stays within one line. Example: `tessera tma --driver-cases` reads
/// its (multi-megabyte) case files this way.
pub fn for_each_line(path: &Path, mut f: impl FnMut(&str)) -> Result<(), (&'static str, String)> {
    use std::io::BufRead;
    let limit = max_input();
    let file = std::fs::File::open(path).map_err(|e| ("io", format!("{}: {e}", path.display())))?;
    let mut r = std::io::BufReader::new(file);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut r)
            .take(limit + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| ("io", format!("{}: {e}", path.display())))?;
        if n == 0 {
            return Ok(());
        }
        if buf.len() as u64 > limit {
            return Err((
                "input_too_large",
                too_large(&format!("a line of {}", path.display()), buf.len() as u64),
            ));
        }
        let line = std::str::from_utf8(&buf).map_err(|e| {
            (
                "invalid_utf8",
                format!(
                    "{}: not UTF-8 text (invalid byte {} bytes into a line)",
                    path.display(),
                    e.valid_up_to()
                ),
            )
        })?;
        f(line.trim_end_matches(['\n', '\r']));
    }
}
