//! `tessera batch`: JSON lines in, JSON lines out, one answer per input line, in order, flushed
//! as soon as it is known. The protocol (version 1) is documented in `docs/batch.md`.
//!
//! Every input line, blank ones included, gets exactly one answer line. A line is at most
//! [`crate::exit::max_input`] bytes (1 MiB unless `TESSERA_MAX_INPUT_BYTES` says otherwise); a
//! longer one is answered `input_too_large` as soon as the limit is passed and the rest of it is
//! skipped without being stored. Ids are echoed byte for byte (any JSON value).

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::sync::{Arc, Mutex};

use serde_json::value::RawValue;
use serde_json::{json, Value as Json};

/// The protocol version (`"version"` in requests, `docs/batch.md`).
pub const VERSION: u64 = 1;

/// Arguments of `tessera batch`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Answer with this many worker threads (answers stay in input order).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// One request, as read (the id kept as its exact text).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Request<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    expr: Option<String>,
    #[serde(default)]
    pycute: Option<bool>,
    #[serde(default)]
    schedule: Option<String>,
    #[serde(default)]
    tma: Option<Json>,
    /// With `expr`: answer the ragged form of a divide (holes, predicate, TMA verdict).
    #[serde(default)]
    ragged: Option<bool>,
    /// With `ragged`: the names of the user's coordinates in the predicate.
    #[serde(default)]
    names: Option<Vec<String>>,
}

fn error(code: &str, message: impl std::fmt::Display) -> Json {
    json!({"error": {"code": code, "message": message.to_string(), "notes": [], "suggestions": []}})
}

/// `{"id": ID, ...body}` with `id` spliced in as given.
fn with_id(id: &str, body: &Json) -> String {
    let b = body.to_string();
    match b.strip_prefix('{') {
        Some(rest) if rest != "}" => format!("{{\"id\":{id},{rest}"),
        _ => format!("{{\"id\":{id}}}"),
    }
}

/// The id of a line that is not a valid request: its `id` field when the line is a JSON object
/// with one, else `null`.
fn salvage_id(line: &str) -> String {
    #[derive(serde::Deserialize)]
    struct OnlyId<'a> {
        #[serde(borrow, default)]
        id: Option<&'a RawValue>,
    }
    serde_json::from_str::<OnlyId>(line)
        .ok()
        .and_then(|o| o.id.map(|r| r.get().to_string()))
        .unwrap_or_else(|| "null".into())
}

/// The answer to one input line (without its newline).
///
/// Pre: none. Post: one JSON object on one line, `{"id": ID, "ok": ...}` or
/// `{"id": ID, "error": {"code", "message", ...}}`; ID is the request's id byte for byte
/// (`null` when absent or unreadable). Example: `{"id":7,"expr":"size(4:1)"}` gives
/// `{"id":7,"ok":"4"}`.
pub fn answer(line: &str) -> String {
    if line.trim().is_empty() {
        return with_id(
            "null",
            &error(
                "bad_request",
                "blank line (every line gets one answer; see docs/batch.md)",
            ),
        );
    }
    let request: Request = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => {
            let id = salvage_id(line);
            return with_id(
                &id,
                &error("bad_request", format!("not a valid request: {e}")),
            );
        }
    };
    let id = request.id.map_or("null", |r| r.get());
    with_id(id, &body(&request))
}

fn body(r: &Request) -> Json {
    if let Some(v) = r.version {
        if v != VERSION {
            return error(
                "bad_request",
                format!("protocol version {v} is not supported (this is version {VERSION})"),
            );
        }
    }
    match (&r.expr, &r.schedule, &r.tma) {
        (Some(e), None, None) if r.ragged == Some(true) => {
            crate::ragged::json_answer(e, r.names.as_deref())
        }
        (Some(e), None, None) => expr(e, r.pycute.unwrap_or(false)),
        (None, Some(s), None) => schedule(s),
        (None, None, Some(t)) => tma(t),
        _ => error(
            "bad_request",
            "expected exactly one of \"expr\" (a string), \"schedule\" (a string) or \"tma\" (an object)",
        ),
    }
}

fn expr(text: &str, pycute: bool) -> Json {
    match tessera::notation::eval_noted(text) {
        (Ok(v), notes) => {
            let s = match (&v, pycute) {
                (tessera::notation::Value::Layout(l), true) => tessera::notation::pycute(l),
                _ => v.to_string(),
            };
            if notes.is_empty() {
                json!({"ok": s})
            } else {
                json!({"ok": s, "notes": notes_json(&notes)})
            }
        }
        (Err(e), _) => json!({"error": {
            "code": e.code(),
            "message": e.to_string(),
            "obligation": e.obligation().to_string(),
            "notes": e.notes(),
            "suggestions": e.suggestions(),
        }}),
    }
}

/// The `"notes"` of an `ok` answer (docs/batch.md): one object per note.
fn notes_json(notes: &[tessera::error::Note]) -> Json {
    notes
        .iter()
        .map(|n| {
            json!({
                "code": n.code,
                "message": n.message,
                "obligation": n.obligation,
                "hole": n.hole,
            })
        })
        .collect()
}

fn schedule(text: &str) -> Json {
    let s = match tessera::domain::parse(text) {
        Ok(s) => s,
        Err(e) => return error(e.code(), e),
    };
    match tessera::domain::report::analyze(&s) {
        Ok(r) => json!({"ok": crate::schedule::report_json(&s, &r)}),
        Err(e) => error(e.code(), e),
    }
}

fn tma(v: &Json) -> Json {
    match crate::tma::request_from_json(v) {
        Ok(r) => json!({"ok": crate::tma::to_json(&tessera::tma::validate(&r))}),
        Err((code, m)) => error(&code, m),
    }
}

/// One line read with a size bound.
enum Line {
    Text(Vec<u8>),
    TooLarge(u64),
}

/// Reads one line (without its `\n`), storing at most `limit` bytes; `None` at the end.
fn read_line(r: &mut impl BufRead, limit: u64) -> std::io::Result<Option<Line>> {
    let mut buf = Vec::new();
    let mut total = 0u64;
    let mut over = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if total == 0 {
                None
            } else if over {
                Some(Line::TooLarge(total))
            } else {
                Some(Line::Text(buf))
            });
        }
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(k) => (&chunk[..k], Some(k + 1)),
            None => (chunk, None),
        };
        total += part.len() as u64;
        if !over && total > limit {
            over = true;
            buf = Vec::new();
        }
        if !over {
            buf.extend_from_slice(part);
        }
        let used = done.unwrap_or(chunk.len());
        r.consume(used);
        if done.is_some() {
            return Ok(Some(if over {
                Line::TooLarge(total)
            } else {
                Line::Text(buf)
            }));
        }
    }
}

fn answer_line(line: Line) -> String {
    match line {
        Line::TooLarge(n) => with_id(
            "null",
            &error("input_too_large", crate::exit::too_large("the line", n)),
        ),
        Line::Text(bytes) => match std::str::from_utf8(&bytes) {
            Ok(t) => answer(t.strip_suffix('\r').unwrap_or(t)),
            Err(e) => with_id(
                "null",
                &error(
                    "invalid_utf8",
                    format!(
                        "the line is not UTF-8 (invalid byte at offset {})",
                        e.valid_up_to()
                    ),
                ),
            ),
        },
    }
}

/// Reads stdin to its end, one answer line per input line, each flushed at once.
///
/// Pre: none. Post: exit 0 at the end of input, 2 when stdin cannot be read, and 0 quietly when
/// stdout is closed (a client that hung up). Example: `printf '\n' | tessera batch` prints one
/// `bad_request` answer.
pub fn run(args: Args) -> ExitCode {
    let limit = crate::exit::max_input();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.threads > 1 {
        let input = std::io::BufReader::new(std::io::stdin());
        return threaded(args.threads.min(256), input, out, limit);
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    {
        loop {
            let line = match read_line(&mut input, limit) {
                Ok(Some(l)) => l,
                Ok(None) => return ExitCode::SUCCESS,
                Err(e) => return crate::exit::fail("io", format!("stdin: {e}")),
            };
            let reply = answer_line(line);
            if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
                return ExitCode::SUCCESS;
            }
        }
    }
}

/// `--threads N`: a reader, N workers and this thread writing answers in input order. At most
/// `4 N` lines are in flight (read but not yet written), so memory stays bounded.
fn threaded(n: usize, mut input: impl BufRead + Send, mut out: impl Write, limit: u64) -> ExitCode {
    let window = 4 * n;
    let (work_tx, work_rx) = sync_channel::<(u64, Line)>(window);
    let work_rx: Arc<Mutex<Receiver<(u64, Line)>>> = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = channel::<(u64, String)>();
    let (token_tx, token_rx) = sync_channel::<()>(window);
    for _ in 0..window {
        let _ = token_tx.send(());
    }
    let mut status = ExitCode::SUCCESS;
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            let mut seq = 0u64;
            loop {
                if token_rx.recv().is_err() {
                    return Ok(());
                }
                match read_line(&mut input, limit) {
                    Ok(Some(l)) => {
                        if work_tx.send((seq, l)).is_err() {
                            return Ok(());
                        }
                        seq += 1;
                    }
                    Ok(None) => return Ok(()),
                    Err(e) => return Err(e),
                }
            }
        });
        for _ in 0..n {
            let rx = Arc::clone(&work_rx);
            let tx = done_tx.clone();
            scope.spawn(move || loop {
                let job = match rx.lock() {
                    Ok(g) => g.recv(),
                    Err(_) => return,
                };
                let Ok((seq, line)) = job else { return };
                if tx.send((seq, answer_line(line))).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        let mut next = 0u64;
        let mut pending = BTreeMap::new();
        for (seq, reply) in done_rx.iter() {
            pending.insert(seq, reply);
            while let Some(reply) = pending.remove(&next) {
                if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
                    // The client hung up: stop reading (dropping the token sender ends the reader).
                    drop(token_tx);
                    return;
                }
                next += 1;
                let _ = token_tx.send(());
            }
        }
        drop(token_tx);
        if let Ok(Err(e)) = reader.join() {
            status = crate::exit::fail("io", format!("stdin: {e}"));
        }
    });
    status
}
