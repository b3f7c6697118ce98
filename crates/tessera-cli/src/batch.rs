//! `tessera batch`: JSON lines in, JSON lines out, one answer per input line, in order, flushed
//! as soon as it is known. The protocol (version 1) is documented in `docs/batch.md`.
//!
//! Every input line, blank ones included, gets exactly one answer line. A line is at most
//! [`crate::exit::max_input`] bytes (1 MiB unless `TESSERA_MAX_INPUT_BYTES` says otherwise); a
//! longer one is answered `input_too_large` and the rest of it is skipped without being stored.
//! Ids are echoed byte for byte (any JSON value).
//!
//! Input is taken in chunks: whatever whole lines one `read` brings (at most [`CHUNK`] bytes), so
//! a client that writes one line and waits gets its answer, and a file is answered a chunk at a
//! time (one write and one flush per chunk). The common request `{"id": …, "expr": "…"}` is read
//! by a hand-written scanner ([`fast_request`]) and its answer written straight into the chunk's
//! output; every other line goes through serde_json, with the same answers.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use tessera::diagnostic::Diagnose;

use serde_json::value::RawValue;
use serde_json::{json, Value as Json};

/// The protocol version (`"version"` in requests, `docs/batch.md`).
pub const VERSION: u64 = 1;

/// Arguments of `tessera batch`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Answer with this many worker threads, at most twice the cores (answers stay in input order; default: the number
    /// of available cores).
    #[arg(long)]
    pub threads: Option<usize>,
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
    #[serde(borrow, default)]
    tma: Option<&'a RawValue>,
    /// A kernel configuration (the TOML of `tessera check` as JSON).
    #[serde(default)]
    check: Option<Json>,
    /// A CUTLASS kernel name, with `problem` and `assume`.
    #[serde(default)]
    check_cutlass: Option<String>,
    /// With `check_cutlass`: `[M, N, K(, L)]`.
    #[serde(default)]
    problem: Option<Json>,
    /// Facts about runtime extents (a list of strings). With `check` or `check_cutlass`: for the
    /// kernel's problem; with `expr`: the expression is evaluated symbolically and answered with
    /// its guards (docs/symbolic.md).
    #[serde(default)]
    assume: Option<Json>,
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
    if crate::strict::object(line).is_err() && !line.trim_start().starts_with('{') {
        return "null".into(); // an array's first element is not an id
    }
    serde_json::from_str::<OnlyId>(line)
        .ok()
        .and_then(|o| o.id.map(|r| r.get().to_string()))
        .unwrap_or_else(|| "null".into())
}

/// Appends the answer to one input line (without its newline) and a `\n`: the fast path for
/// the common request shape, else [`answer_general`].
///
/// Pre: none. Post: appends `answer_general(line)` and `\n`: one JSON object on one line,
/// `{"id": ID, "ok": ...}` or `{"id": ID, "error": {"code", "message", ...}}`, ID the request's
/// id byte for byte (`null` when absent or unreadable). Example:
/// `{"id":7,"expr":"size(4:1)"}` appends `{"id":7,"ok":"4"}\n`.
pub fn answer_into(out: &mut String, line: &str) {
    match fast_request(line) {
        Some(r) => expr_into(out, r.id, r.expr, r.pycute),
        None => out.push_str(&answer_general(line)),
    }
    out.push('\n');
}

/// The answer to one input line through serde_json (any request).
///
/// Pre: none. Post: as [`answer_into`], without the newline. Example: `{"id":[1],"expr":"4"}` gives `{"id":[1],"ok":"4"}`.
pub fn answer_general(line: &str) -> String {
    if line.trim().is_empty() {
        return with_id(
            "null",
            &error(
                "bad_request",
                "blank line (every line gets one answer; see docs/batch.md)",
            ),
        );
    }
    // A request is one JSON object with distinct keys at every level (serde_json would read an
    // array as positional fields and keep the last of two equal keys).
    if let Err(m) = crate::strict::object(line) {
        return with_id(
            &salvage_id(line),
            &error("bad_request", format!("not a valid request: {m}")),
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
    if r.check.is_some() || r.check_cutlass.is_some() {
        if r.expr.is_some()
            || r.schedule.is_some()
            || r.tma.is_some()
            || (r.check.is_some() && r.check_cutlass.is_some())
        {
            return error("bad_request", "expected exactly one of \"expr\", \"schedule\", \"tma\", \"check\" or \"check_cutlass\"");
        }
        return crate::check::batch_answer(
            r.check.as_ref(),
            r.check_cutlass.as_deref(),
            r.problem.as_ref(),
            r.assume.as_ref(),
        );
    }
    match (&r.expr, &r.schedule, &r.tma) {
        (Some(e), None, None) if r.ragged == Some(true) => {
            crate::ragged::json_answer(e, r.names.as_deref())
        }
        (Some(e), None, None) if r.assume.is_some() => match fact_list(r.assume.as_ref()) {
            Some(facts) => crate::symbolic::json_answer(e, &facts),
            None => error("bad_request", "\"assume\" must be a list of strings"),
        },
        (Some(e), None, None) => expr(e, r.pycute.unwrap_or(false)),
        (None, Some(s), None) => schedule(s),
        (None, None, Some(t)) => tma(t),
        _ => error(
            "bad_request",
            "expected exactly one of \"expr\" (a string), \"schedule\" (a string) or \"tma\" (an object)",
        ),
    }
}

/// The facts of an `assume` field: `Some` iff it is absent or a list of strings.
fn fact_list(assume: Option<&Json>) -> Option<Vec<String>> {
    match assume {
        None => Some(Vec::new()),
        Some(Json::Array(items)) => items
            .iter()
            .map(|x| x.as_str().map(str::to_string))
            .collect(),
        Some(_) => None,
    }
}

fn expr(text: &str, pycute: bool) -> Json {
    expr_json(tessera::notation::eval_noted(text), pycute)
}

fn expr_json(
    (r, notes): (
        tessera::Result<tessera::notation::Value>,
        Vec<tessera::obligation::Note>,
    ),
    pycute: bool,
) -> Json {
    match (r, notes) {
        (Ok(v), notes) => {
            let s = tessera::notation::write::value_text(&v, pycute);
            if notes.is_empty() {
                json!({"ok": s})
            } else {
                json!({"ok": s, "notes": notes_json(&notes)})
            }
        }
        (Err(e), _) => json!({"error": e.diagnostic().to_error_json()}),
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

fn tma(raw: &RawValue) -> Json {
    // Integers past 2^64 are refused as written (serde_json reads them as rounded floats).
    if let Err(m) = crate::strict::integers(raw.get()) {
        return error("bad_json", m);
    }
    let v: Json = match serde_json::from_str(raw.get()) {
        Ok(v) => v,
        Err(e) => return error("bad_json", e),
    };
    match crate::tma::request_from_json(&v) {
        Ok(r) => json!({"ok": crate::tma::to_json(&tessera::tma::validate(&r))}),
        Err((code, m)) => error(&code, m),
    }
}

// ------------------------------------------------------------------------------------ fast path

/// The common request `{"id": ID, "expr": "TEXT"}` (with optional `"version": 1` and
/// `"pycute": BOOL`), as read by [`fast_request`].
#[derive(Debug, PartialEq, Eq)]
struct FastRequest<'a> {
    /// The id's exact text (`null` when absent).
    id: &'a str,
    /// The expression (a JSON string without escapes, so its text is its value).
    expr: &'a str,
    pycute: bool,
}

/// JSON whitespace (RFC 8259; what serde_json skips).
#[inline]
fn json_ws(s: &[u8], mut i: usize) -> usize {
    while matches!(s.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// A JSON string at `i` with no escapes and no control characters: its contents and the index
/// after its closing quote.
#[inline]
fn plain_string(line: &str, i: usize) -> Option<(&str, usize)> {
    let s = line.as_bytes();
    if s.get(i) != Some(&b'"') {
        return None;
    }
    let body = &line[i + 1..];
    let end = memchr::memchr(b'"', body.as_bytes())?;
    // Escapes and control characters (which JSON forbids raw) are serde_json's to read; this
    // test over the whole contents has no early exit, so it runs a word at a time.
    let odd = body.as_bytes()[..end]
        .iter()
        .fold(false, |odd, &b| odd | (b == b'\\') | (b < 0x20));
    if odd {
        return None;
    }
    Some((&body[..end], i + 2 + end))
}

/// The end of a JSON id at `i` that is an integer (`-?(0|[1-9][0-9]*)`), a string without
/// escapes, `null`, `true` or `false`; `None` for anything else.
#[inline]
fn plain_id(line: &str, i: usize) -> Option<usize> {
    let s = line.as_bytes();
    match *s.get(i)? {
        b'"' => plain_string(line, i).map(|(_, j)| j),
        b'-' | b'0'..=b'9' => {
            let mut k = i + usize::from(s[i] == b'-');
            match *s.get(k)? {
                b'0' => k += 1,
                b'1'..=b'9' => {
                    while matches!(s.get(k), Some(b'0'..=b'9')) {
                        k += 1;
                    }
                }
                _ => return None,
            }
            Some(k)
        }
        _ => ["null", "true", "false"]
            .iter()
            .find(|w| s[i..].starts_with(w.as_bytes()))
            .map(|w| i + w.len()),
    }
}

/// Reads the common request shape by hand; `None` for anything else (then serde_json reads the
/// line).
///
/// Pre: none. Post: `Some(r)` only when serde_json reads the line as a request with `expr` =
/// `r.expr`, id text `r.id` (`null` when absent), `pycute` = `r.pycute`, version absent or 1,
/// and no other field; the keys may come in any order, with any JSON whitespace. Example:
/// `{"id": 3, "expr": "size(4:1)"}` gives id `3`, expr `size(4:1)`.
fn fast_request(line: &str) -> Option<FastRequest<'_>> {
    let s = line.as_bytes();
    let mut i = json_ws(s, 0);
    if s.get(i) != Some(&b'{') {
        return None;
    }
    let (mut id, mut expr, mut version, mut pycute) = (None, None, false, None);
    loop {
        let (key, j) = plain_string(line, json_ws(s, i + 1))?;
        i = json_ws(s, j);
        if s.get(i) != Some(&b':') {
            return None;
        }
        i = json_ws(s, i + 1);
        match key {
            "id" if id.is_none() => {
                let j = plain_id(line, i)?;
                id = Some(&line[i..j]);
                i = j;
            }
            "expr" if expr.is_none() => {
                let (e, j) = plain_string(line, i)?;
                expr = Some(e);
                i = j;
            }
            "version" if !version && s.get(i) == Some(&b'1') => {
                version = true;
                i += 1;
            }
            "pycute" if pycute.is_none() => {
                let v = s[i..].starts_with(b"true");
                if !v && !s[i..].starts_with(b"false") {
                    return None;
                }
                pycute = Some(v);
                i += if v { 4 } else { 5 };
            }
            _ => return None,
        }
        i = json_ws(s, i);
        match s.get(i) {
            Some(b',') => {}
            Some(b'}') => break,
            _ => return None,
        }
    }
    if json_ws(s, i + 1) != s.len() {
        return None;
    }
    Some(FastRequest {
        id: id.unwrap_or("null"),
        expr: expr?,
        pycute: pycute.unwrap_or(false),
    })
}

/// Appends the answer to an `expr` request (no newline): `{"id":ID,"ok":"TEXT"}` written
/// directly, an error through serde_json.
fn expr_into(out: &mut String, id: &str, text: &str, pycute: bool) {
    match tessera::notation::eval_noted(text) {
        (Ok(v), notes) if notes.is_empty() => {
            out.push_str("{\"id\":");
            out.push_str(id);
            out.push_str(",\"ok\":\"");
            let start = out.len();
            tessera::notation::write::write_value_face(out, &v, pycute);
            if out.as_bytes()[start..]
                .iter()
                .any(|&b| b == b'"' || b == b'\\' || b < 0x20)
            {
                let raw = out.split_off(start);
                escape_json_into(out, &raw);
            }
            out.push_str("\"}");
        }
        noted => out.push_str(&with_id(id, &expr_json(noted, pycute))),
    }
}

/// Appends the contents of the JSON string of `s`, escaped as serde_json escapes it (`"`, `\`
/// and control characters; `\b \t \n \f \r` short, the others `\u00xx`).
fn escape_json_into(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let b = c as usize;
                out.push_str("\\u00");
                out.push(HEX[b >> 4] as char);
                out.push(HEX[b & 15] as char);
            }
            c => out.push(c),
        }
    }
}

// ------------------------------------------------------------------------------------- input

/// The most bytes one `read` asks for: a chunk of input answered (and written) as a whole.
pub const CHUNK: usize = 64 << 10;

/// A piece of input: whole lines (each ending in `\n`, except a last line at the end of input),
/// or a line over the limit, of the given length, that was skipped.
enum Piece {
    Lines(Vec<u8>),
    TooLarge(u64),
}

/// Input cut into pieces at line ends, one `read` at a time; a line longer than the limit is
/// answered as soon as the limit is passed (a client streaming one endless line, or `/dev/zero`,
/// gets its answer at once) and the rest of it is skipped, up to its newline, without being
/// stored.
struct Pieces<R> {
    r: R,
    limit: u64,
    /// Bytes read and not yet handed out: the start of a line, or whole lines after a skip.
    buf: Vec<u8>,
    /// Inside the rest of a line over the limit, already answered.
    discarding: bool,
    eof: bool,
}

impl<R: Read> Pieces<R> {
    fn new(r: R, limit: u64) -> Self {
        Pieces {
            r,
            limit,
            buf: Vec::new(),
            discarding: false,
            eof: false,
        }
    }

    /// The next piece; `None` at the end of input.
    fn next(&mut self) -> std::io::Result<Option<Piece>> {
        loop {
            if !self.discarding {
                if let Some(p) = self.buf.iter().rposition(|&b| b == b'\n') {
                    let rest = self.buf.split_off(p + 1);
                    return Ok(Some(Piece::Lines(std::mem::replace(&mut self.buf, rest))));
                }
                if self.buf.len() as u64 > self.limit {
                    let n = self.buf.len() as u64;
                    self.buf = Vec::new();
                    self.discarding = true;
                    return Ok(Some(Piece::TooLarge(n)));
                }
            }
            if self.eof {
                return Ok(if self.discarding || self.buf.is_empty() {
                    self.discarding = false;
                    None
                } else {
                    Some(Piece::Lines(std::mem::take(&mut self.buf)))
                });
            }
            let old = self.buf.len();
            self.buf.resize(old + CHUNK, 0);
            let n = loop {
                match self.r.read(&mut self.buf[old..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        self.buf.truncate(old);
                        return Err(e);
                    }
                }
            };
            self.buf.truncate(old + n);
            if n == 0 {
                self.eof = true;
                continue;
            }
            if self.discarding {
                match self.buf.iter().position(|&b| b == b'\n') {
                    Some(p) => {
                        self.discarding = false;
                        self.buf.drain(..=p);
                    }
                    None => self.buf.clear(),
                }
            }
        }
    }
}

/// Appends the answers to a piece of input, one line each.
fn answer_piece(out: &mut String, piece: &Piece, limit: u64) {
    match piece {
        Piece::TooLarge(n) => too_large_into(out, *n),
        Piece::Lines(bytes) => {
            let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
            // A chunk that is UTF-8 as a whole has UTF-8 lines (`\n` is never inside a character).
            match std::str::from_utf8(bytes) {
                Ok(text) => {
                    let mut start = 0;
                    for end in memchr::memchr_iter(b'\n', bytes) {
                        answer_text(out, &text[start..end], limit);
                        start = end + 1;
                    }
                    answer_text(out, &text[start..], limit);
                }
                Err(_) => {
                    for line in bytes.split(|&b| b == b'\n') {
                        answer_bytes(out, line, limit);
                    }
                }
            }
        }
    }
}

fn too_large_into(out: &mut String, n: u64) {
    out.push_str(&with_id(
        "null",
        &error("input_too_large", crate::exit::too_large("the line", n)),
    ));
    out.push('\n');
}

/// Appends the answer to one line of text (without its `\n`).
#[inline]
fn answer_text(out: &mut String, line: &str, limit: u64) {
    if line.len() as u64 > limit {
        return too_large_into(out, line.len() as u64);
    }
    answer_into(out, line.strip_suffix('\r').unwrap_or(line));
}

/// Appends the answer to one line's bytes (without its `\n`).
fn answer_bytes(out: &mut String, line: &[u8], limit: u64) {
    if line.len() as u64 > limit {
        return too_large_into(out, line.len() as u64);
    }
    match std::str::from_utf8(line) {
        Ok(t) => answer_text(out, t, limit),
        Err(e) => {
            out.push_str(&with_id(
                "null",
                &error(
                    "invalid_utf8",
                    format!(
                        "the line is not UTF-8 (invalid byte at offset {})",
                        e.valid_up_to()
                    ),
                ),
            ));
            out.push('\n');
        }
    }
}

// ------------------------------------------------------------------------------------ driver

/// Reads stdin to its end, one answer line per input line, in order; the answers to each chunk
/// of input are written and flushed together (a line that arrives alone is answered alone).
///
/// Pre: none. Post: exit 0 at the end of input, 2 when stdin cannot be read, and 0 quietly when
/// stdout is closed (a client that hung up). Example: `printf '\n' | tessera batch` prints one
/// `bad_request` answer.
pub fn run(args: Args) -> ExitCode {
    let limit = crate::exit::max_input();
    // More workers than twice the cores answer no faster; each costs a stack and an arena.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = args.threads.unwrap_or(cores).min(2 * cores).min(256);
    let out = std::io::stdout().lock();
    if threads > 1 {
        return threaded(threads, Pieces::new(std::io::stdin(), limit), out, limit);
    }
    single(Pieces::new(std::io::stdin().lock(), limit), out, limit)
}

/// What `tessera batch` does with stdin and stdout, for any reader and writer: every line of
/// `input` answered on `out`, in order, with `threads` workers (1: this thread alone) and lines
/// of at most `limit` bytes. The fuzz target `fuzz/fuzz_targets/batch.rs` and the tests drive
/// the protocol through this, with no process.
///
/// Pre: none. Post: one answer line per input line (a last line without `\n` included, an
/// empty input none), in input order, each as [`answer_into`] gives it or `input_too_large`;
/// exit 0 at the end of input, 2 when `input` fails. Example: `answer_stream(&b"\n"[..],
/// &mut v, 1, 1 << 20)` writes one `bad_request` line to `v`.
pub fn answer_stream(
    input: impl Read + Send + 'static,
    out: impl Write,
    threads: usize,
    limit: u64,
) -> ExitCode {
    if threads > 1 {
        return threaded(threads.min(256), Pieces::new(input, limit), out, limit);
    }
    single(Pieces::new(input, limit), out, limit)
}

fn single(mut input: Pieces<impl Read>, mut out: impl Write, limit: u64) -> ExitCode {
    let mut text = String::new();
    loop {
        let piece = match input.next() {
            Ok(Some(p)) => p,
            Ok(None) => return ExitCode::SUCCESS,
            Err(e) => return crate::exit::fail("io", format!("stdin: {e}")),
        };
        if !write_answers(&mut out, &mut text, &piece, limit) {
            return ExitCode::SUCCESS;
        }
    }
}

/// Answers a piece of input into `text` (cleared first), then writes and flushes it; `false` when
/// stdout is closed (the client hung up).
fn write_answers(out: &mut impl Write, text: &mut String, piece: &Piece, limit: u64) -> bool {
    text.clear();
    answer_piece(text, piece, limit);
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_ok()
}

/// `--threads N`: a reader, N workers answering whole chunks, and this thread writing them in
/// input order. At most `2 N + 2` chunks are in flight (read but not yet written), so memory
/// stays bounded. The reader and workers are detached: when the client hangs up, this returns
/// at once, even if the reader waits on stdin.
fn threaded(
    n: usize,
    mut input: Pieces<impl Read + Send + 'static>,
    mut out: impl Write,
    limit: u64,
) -> ExitCode {
    let window = 2 * n + 2;
    let (work_tx, work_rx) = sync_channel::<(u64, Piece)>(window);
    let work_rx: Arc<Mutex<Receiver<(u64, Piece)>>> = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = channel::<(u64, String)>();
    let (token_tx, token_rx) = sync_channel::<()>(window);
    for _ in 0..window {
        let _ = token_tx.send(());
    }
    let reader = std::thread::Builder::new().spawn(move || -> std::io::Result<()> {
        let mut seq = 0u64;
        loop {
            if token_rx.recv().is_err() {
                return Ok(());
            }
            match input.next()? {
                Some(p) => {
                    if work_tx.send((seq, p)).is_err() {
                        return Ok(());
                    }
                    seq += 1;
                }
                None => return Ok(()),
            }
        }
    });
    let Ok(reader) = reader else {
        return crate::exit::fail("io", "cannot start a thread for --threads");
    };
    // A worker that cannot be started (a memory or thread limit) leaves fewer workers; with
    // none, this thread answers the chunks itself.
    let mut started = 0;
    for _ in 0..n {
        let rx = Arc::clone(&work_rx);
        let tx = done_tx.clone();
        let worker = std::thread::Builder::new().spawn(move || loop {
            let job = match rx.lock() {
                Ok(g) => g.recv(),
                Err(_) => return,
            };
            let Ok((seq, piece)) = job else { return };
            let mut text = String::new();
            answer_piece(&mut text, &piece, limit);
            if tx.send((seq, text)).is_err() {
                return;
            }
        });
        if worker.is_err() {
            break;
        }
        started += 1;
    }
    if started == 0 {
        drop(done_tx);
        let rx = match work_rx.lock() {
            Ok(g) => g,
            Err(_) => return crate::exit::fail("io", "the work queue failed"),
        };
        let mut text = String::new();
        for (_, piece) in rx.iter() {
            if !write_answers(&mut out, &mut text, &piece, limit) {
                return ExitCode::SUCCESS;
            }
            let _ = token_tx.send(());
        }
        drop(token_tx);
        return match reader.join() {
            Ok(Err(e)) => crate::exit::fail("io", format!("stdin: {e}")),
            _ => ExitCode::SUCCESS,
        };
    }
    drop(done_tx);
    let mut next = 0u64;
    let mut pending = BTreeMap::new();
    for (seq, text) in done_rx.iter() {
        pending.insert(seq, text);
        while let Some(text) = pending.remove(&next) {
            if out
                .write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .is_err()
            {
                // The client hung up.
                return ExitCode::SUCCESS;
            }
            next += 1;
            let _ = token_tx.send(());
        }
    }
    drop(token_tx);
    match reader.join() {
        Ok(Err(e)) => crate::exit::fail("io", format!("stdin: {e}")),
        _ => ExitCode::SUCCESS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers of the fast path and of serde_json's path, for a line.
    fn both(line: &str) -> (String, String) {
        let mut fast = String::new();
        answer_into(&mut fast, line);
        (fast, answer_general(line) + "\n")
    }

    #[test]
    fn the_fast_path_reads_the_common_shapes() {
        for (line, id, expr, pycute) in [
            (r#"{"id":7,"expr":"size(4:1)"}"#, "7", "size(4:1)", false),
            (r#"{"id": 0, "expr": "x"}"#, "0", "x", false),
            (
                " \t{ \"expr\" :\"a b\" , \"id\" : -12 } \r",
                "-12",
                "a b",
                false,
            ),
            (r#"{"expr":"é"}"#, "null", "é", false),
            (
                r#"{"id":"q","expr":"","pycute":true,"version":1}"#,
                "\"q\"",
                "",
                true,
            ),
            (
                r#"{"id":null,"expr":"1","pycute":false}"#,
                "null",
                "1",
                false,
            ),
            (r#"{"id":true,"expr":"1"}"#, "true", "1", false),
            (r#"{"id":"日本","expr":"1"}"#, "\"日本\"", "1", false),
        ] {
            assert_eq!(
                fast_request(line),
                Some(FastRequest { id, expr, pycute }),
                "{line}"
            );
        }
    }

    #[test]
    fn the_fast_path_leaves_everything_else_to_serde() {
        for line in [
            "",
            "{}",
            "[]",
            r#"{"id":1}"#,
            r#"{"id":1,"expr":"a\"b"}"#,
            r#"{"id":1,"expr":"a\nb"}"#,
            "{\"id\":1,\"expr\":\"a\tb\"}",
            r#"{"id":1.5,"expr":"1"}"#,
            r#"{"id":-0.0,"expr":"1"}"#,
            r#"{"id":1e3,"expr":"1"}"#,
            r#"{"id":01,"expr":"1"}"#,
            r#"{"id":-,"expr":"1"}"#,
            r#"{"id":[1],"expr":"1"}"#,
            r#"{"id":{"a":1},"expr":"1"}"#,
            r#"{"id":"\u00e9","expr":"1"}"#,
            r#"{"id":1,"id":2,"expr":"1"}"#,
            r#"{"id":1,"expr":"1","expr":"2"}"#,
            r#"{"id":1,"expr":"1","version":2}"#,
            r#"{"id":1,"expr":"1","version":10}"#,
            r#"{"id":1,"expr":"1","version":1.0}"#,
            r#"{"id":1,"expr":"1","version":null}"#,
            r#"{"id":1,"expr":"1","pycute":1}"#,
            r#"{"id":1,"expr":"1","pycute":truex}"#,
            r#"{"id":1,"expr":"1","ragged":true}"#,
            r#"{"id":1,"expr":"1","schedule":"x"}"#,
            r#"{"id":1,"expr":null}"#,
            r#"{"id":1,"expr":"1",}"#,
            r#"{"id":1,"expr":"1"} x"#,
            r#"{"id":1,"expr":"1"}}"#,
            r#"{"id":1 "expr":"1"}"#,
            r#"{"i\u0064":1,"expr":"1"}"#,
            r#"{"id":nul,"expr":"1"}"#,
            r#"{"id":12a,"expr":"1"}"#,
            r#"{"id":1,"expr":"1""#,
        ] {
            assert_eq!(fast_request(line), None, "{line}");
        }
    }

    #[test]
    fn fast_and_serde_paths_give_the_same_answers() {
        let corpus = include_str!("../../../benches/corpus/cases.txt");
        let mut lines: Vec<String> = Vec::new();
        for (i, case) in corpus
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .enumerate()
        {
            let f: Vec<&str> = case.split('\t').collect();
            let e = format!("{}({})", f[0], f[2..].join(","));
            lines.push(format!("{{\"id\": {i}, \"expr\": \"{e}\"}}"));
            if i % 5 == 0 {
                lines.push(format!(
                    "  {{ \"expr\" : \"{e}\",\"pycute\":true , \"id\":\"c{i}\", \"version\": 1}} "
                ));
            }
        }
        for extra in [
            r#"{"id":1,"expr":"coalesce_trace((2,(1,6)):(1,(6,2)))"}"#,
            r#"{"id":2,"expr":"composition((6,2):(1,7),4:2)"}"#,
            r#"{"id":3,"expr":"size(no_such(1))"}"#,
            r#"{"id":4,"expr":"size(4:1"}"#,
            r#"{"id":5,"expr":"Sw<3,4,3> o 0 o (8,64):(64,1)"}"#,
            r#"{"id":6,"expr":"make_swizzle(7,56)","pycute":true}"#,
            r#"{"id":7,"expr":"size(é)"}"#,
            r#"{"id":8,"expr":"(4,):(1,)","pycute":true}"#,
            r#"{"id":9,"expr":"complement(4:2,24)"}"#,
            r#"{"id":"","expr":" size ( 4 : 1 ) "}"#,
        ] {
            lines.push(extra.to_string());
        }
        for line in &lines {
            let (fast, general) = both(line);
            assert_eq!(fast, general, "{line}");
            assert!(fast_request(line).is_some(), "{line}");
        }
    }

    #[test]
    fn escapes_as_serde_json_does() {
        let s: String = (0u32..0x80)
            .filter_map(char::from_u32)
            .chain("é日\u{7f}\u{2028}".chars())
            .collect();
        let mut out = String::new();
        escape_json_into(&mut out, &s);
        assert_eq!(format!("\"{out}\""), serde_json::to_string(&s).unwrap());
    }

    /// Reads pieces from `input`, `step` bytes per read.
    fn pieces(input: &[u8], step: usize, limit: u64) -> Vec<String> {
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.1.min(buf.len()).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut p = Pieces::new(Trickle(input, step), limit);
        let mut out = Vec::new();
        while let Some(piece) = p.next().unwrap() {
            out.push(match piece {
                Piece::Lines(b) => String::from_utf8(b).unwrap(),
                Piece::TooLarge(n) => format!("<{n}>"),
            });
        }
        out
    }

    #[test]
    fn input_is_cut_at_line_ends_and_long_lines_are_skipped() {
        let long = "x".repeat(100);
        let input = format!("a\nbb\n{long}\ncc\n\nlast");
        // One byte per read: every line is its own piece (a client writing line by line); the
        // long line is answered once it passes the limit (11 bytes read), the rest skipped.
        assert_eq!(
            pieces(input.as_bytes(), 1, 10),
            ["a\n", "bb\n", "<11>", "cc\n", "\n", "last"]
        );
        // Whole reads: the lines that one read brings form one piece; a long line inside a
        // piece is left to the answerer, which measures every line.
        assert_eq!(
            pieces(input.as_bytes(), 1000, 10),
            [format!("a\nbb\n{long}\ncc\n\n"), "last".to_string()]
        );
        assert_eq!(pieces(input.as_bytes(), 7, 10)[0], "a\nbb\n");
        assert_eq!(pieces(b"", 7, 10), Vec::<String>::new());
        assert_eq!(pieces(&[b'('; 5000], 64, 1000), ["<1024>"]);
        let mut out = String::new();
        answer_piece(
            &mut out,
            &Piece::Lines(format!("{long}\n{{\"id\":1,\"expr\":\"1\"}}\n").into_bytes()),
            50,
        );
        let codes: Vec<bool> = out.lines().map(|l| l.contains("input_too_large")).collect();
        assert_eq!(codes, [true, false]);
    }
}
