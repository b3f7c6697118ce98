//! The batch protocol (issue 30): arbitrary bytes as JSON lines through `tessera batch`'s own
//! driver (`tessera_cli::batch::answer_stream`, the code the binary runs on stdin), with
//! postconditions, not only "no panic":
//!
//! - exactly one answer line per input line, in order (a last line without `\n` included);
//! - every answer is a JSON object with an `id` and exactly one of `ok` and `error`, an error's
//!   `code` (and every note's) in the one catalogue (`tessera::diagnostic::catalogue`);
//! - a line that is a JSON object with distinct keys and an `id` is answered with that id;
//! - every answer equals the serde_json path's answer to the same line (`answer_general`: the
//!   hand-written scanner of the common shape changes nothing), or `input_too_large`;
//! - a plain `expr` request is answered with the library's own evaluation of the expression (its
//!   value printed in the requested face, or its error code); `composition(A,B)` and
//!   `coalesce(A)` of plain layouts are checked point by point against their definitions
//!   (`(A ∘ B)(i) = A(B(i))`, `coalesce(A)(i) = A(i)`, colex coordinates in 128 bits);
//! - with sentinels on, every input line is followed by a known request whose answer must come
//!   back exactly at its place: a hostile line never loses a neighbour's answer.
//!
//! The first byte picks the driver: bit 0 two worker threads, bit 1 sentinels, bits 2–3 the line
//! limit (1 MiB, 64, 300 or 2,000 bytes).
//!
//! Shared by the fuzz target `fuzz_targets/batch.rs` and the stable replay of its corpus and
//! regressions (`crates/tessera-cli/tests/fuzz_batch.rs`).
use serde_json::Value as Json;
use tessera::diagnostic::catalogue;
use tessera::notation::Value;
use tessera::Layout;
use tessera_cli::batch;

/// Known requests and their exact answers.
const SENTINELS: [(&str, &str); 3] = [
    (
        r#"{"id":"s","expr":"complement(4:2,24)"}"#,
        r#"{"id":"s","ok":"(2,3):(1,8)"}"#,
    ),
    (
        r#"{"id":["s"],"expr":"size((2,3):(1,2))"}"#,
        r#"{"id":["s"],"ok":"6"}"#,
    ),
    (
        r#"{"expr":"coalesce((2,4):(1,2))","id":-1}"#,
        r#"{"id":-1,"ok":"8:1"}"#,
    ),
];

/// `L(x)` from the definition: colex coordinates dotted with the strides, in 128 bits.
fn reference(l: &Layout, x: i128) -> i128 {
    let leaves: Vec<_> = l.leaves().collect();
    let mut rest = x;
    let mut acc = 0i128;
    for (k, m) in leaves.iter().enumerate() {
        let s = i128::from(m.shape);
        let c = if k + 1 == leaves.len() {
            rest
        } else {
            rest % s
        };
        acc += c * i128::from(m.stride);
        rest /= s;
    }
    acc
}

/// The top-level arguments of `name(…)`, split at depth-0 commas.
fn call_args<'a>(text: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let inner = text.trim().strip_prefix(name)?.trim_start();
    let inner = inner.strip_prefix('(')?.strip_suffix(')')?;
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (k, c) in inner.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&inner[start..]);
    Some(out)
}

fn plain(text: &str) -> Option<Layout> {
    match tessera::notation::eval(text) {
        Ok(Value::Layout(l)) => Some(l),
        _ => None,
    }
}

/// `composition(A,B)` and `coalesce(A)` of plain layouts, with an `ok` answer: every point of the
/// answer against the definition (when the domain is small).
fn check_definition(expr: &str, answer: &str) {
    let Some(r) = plain(answer) else { return };
    let Ok(n) = r.size() else { return };
    if n > 4096 {
        return;
    }
    if let Some([a, b]) = call_args(expr, "composition").as_deref() {
        if let (Some(a), Some(b)) = (plain(a), plain(b)) {
            let na = a.size().map_or(0, i128::from);
            for i in 0..n {
                let bi = reference(&b, i128::from(i));
                if !(0..na).contains(&bi) {
                    continue; // past A's domain: CuTe's extrapolation, not the definition
                }
                assert_eq!(
                    reference(&r, i128::from(i)),
                    reference(&a, bi),
                    "{expr} = {answer} at {i}"
                );
            }
        }
    } else if let Some([a]) = call_args(expr, "coalesce").as_deref() {
        if let Some(a) = plain(a) {
            assert_eq!(a.size().ok(), Some(n), "{expr} = {answer}");
            for i in 0..n {
                assert_eq!(
                    reference(&r, i128::from(i)),
                    reference(&a, i128::from(i)),
                    "{expr} = {answer} at {i}"
                );
            }
        }
    }
}

/// The expression and face of a plain `expr` request (keys among id, expr, pycute, version = 1).
fn plain_expr(req: &serde_json::Map<String, Json>) -> Option<(&str, bool)> {
    let expr = req.get("expr")?.as_str()?;
    let mut pycute = false;
    for (k, v) in req {
        match (k.as_str(), v) {
            ("id" | "expr", _) => {}
            ("pycute", Json::Bool(b)) => pycute = *b,
            ("version", v) if v.as_u64() == Some(batch::VERSION) => {}
            _ => return None,
        }
    }
    Some((expr, pycute))
}

/// The shape every answer has: a JSON object with an id and exactly one of `ok` and `error`, its
/// codes catalogued. Returns the object and its error code.
fn check_shape(answer: &str) -> (serde_json::Map<String, Json>, Option<String>) {
    let a: Json = serde_json::from_str(answer).unwrap_or_else(|e| panic!("{answer}: {e}"));
    let Json::Object(obj) = a else {
        panic!("not an object: {answer}")
    };
    assert!(obj.contains_key("id"), "no id: {answer}");
    assert!(
        obj.contains_key("ok") != obj.contains_key("error"),
        "not exactly one of ok and error: {answer}"
    );
    let code = obj.get("error").map(|e| {
        e["code"]
            .as_str()
            .unwrap_or_else(|| panic!("no code: {answer}"))
            .to_string()
    });
    if let Some(c) = &code {
        assert!(
            catalogue::lookup(c).is_some(),
            "{c} is not catalogued: {answer}"
        );
    }
    if let Some(Json::Array(notes)) = obj.get("notes") {
        for n in notes {
            let c = n["code"]
                .as_str()
                .unwrap_or_else(|| panic!("note without code: {answer}"));
            assert!(
                catalogue::lookup(c).is_some(),
                "note {c} is not catalogued: {answer}"
            );
        }
    }
    (obj, code)
}

/// The answer to one input line of at most `limit` bytes.
fn check_line(line: &[u8], answer: &str) {
    let (obj, code) = check_shape(answer);
    let Ok(line) = std::str::from_utf8(line) else {
        assert_eq!(code.as_deref(), Some("invalid_utf8"), "{answer}");
        return;
    };
    let line = line.strip_suffix('\r').unwrap_or(line);
    // The fast path and serde_json's path agree.
    assert_eq!(answer, batch::answer_general(line), "{line:?}");
    if tessera_cli::strict::object(line).is_err() {
        return;
    }
    let Ok(Json::Object(req)) = serde_json::from_str::<Json>(line) else {
        return;
    };
    if let Some(id) = req.get("id") {
        assert_eq!(&obj["id"], id, "{line:?}: {answer}");
    }
    let Some((expr, pycute)) = plain_expr(&req) else {
        return;
    };
    match (tessera::notation::eval_noted(expr), obj.get("ok")) {
        ((Ok(v), _), Some(Json::String(ok))) => {
            assert_eq!(
                ok,
                &tessera::notation::write::value_text(&v, pycute),
                "{line:?}"
            );
            if !pycute {
                check_definition(expr, ok);
            }
        }
        ((Err(e), _), None) => assert_eq!(code.as_deref(), Some(e.code()), "{line:?}: {answer}"),
        (r, _) => panic!("{line:?}: the library gives {:?}, batch {answer}", r.0),
    }
}

/// The checks of one input: its first byte the mode, the rest the lines.
pub fn check(data: &[u8]) {
    let Some((&mode, body)) = data.split_first() else {
        return;
    };
    let threads = if mode & 1 == 1 { 2 } else { 1 };
    let sentinels = mode & 2 == 2;
    let limit = [1u64 << 20, 64, 300, 2000][usize::from((mode >> 2) & 3)];
    // The input lines: split at `\n`, a last line without `\n` counted when not empty.
    let mut lines: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let mut input = Vec::with_capacity(body.len() + 64 * lines.len());
    let mut expected: Vec<(Option<&[u8]>, Option<usize>)> = Vec::new();
    for (k, l) in lines.iter().enumerate() {
        input.extend_from_slice(l);
        expected.push((Some(l), None));
        if sentinels {
            let s = k % SENTINELS.len();
            input.push(b'\n');
            input.extend_from_slice(SENTINELS[s].0.as_bytes());
            expected.push((None, Some(s)));
        }
        if sentinels || k + 1 < lines.len() || body.ends_with(b"\n") {
            input.push(b'\n');
        }
    }
    let mut out = Vec::new();
    let _ = batch::answer_stream(std::io::Cursor::new(input), &mut out, threads, limit);
    let out = String::from_utf8(out).expect("answers are UTF-8");
    let answers: Vec<&str> = out.lines().collect();
    assert!(
        out.is_empty() || out.ends_with('\n'),
        "an unterminated answer"
    );
    assert_eq!(answers.len(), expected.len(), "one answer per line: {out}");
    for (answer, (line, sentinel)) in answers.iter().zip(&expected) {
        match (line, sentinel) {
            (_, Some(s)) => assert_eq!(*answer, SENTINELS[*s].1, "a neighbour's answer was lost"),
            (Some(l), None) if l.len() as u64 > limit => {
                let (obj, code) = check_shape(answer);
                assert_eq!(code.as_deref(), Some("input_too_large"), "{answer}");
                assert_eq!(obj["id"], Json::Null, "{answer}");
            }
            (Some(l), None) => check_line(l, answer),
            (None, None) => unreachable!(),
        }
    }
}
