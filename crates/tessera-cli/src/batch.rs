//! `tessera batch`: JSON lines in, JSON lines out, one for one, in order.

use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

use serde_json::{json, Value as Json};

/// The answer to one input line.
pub fn answer(line: &str) -> Json {
    let request: Json = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return json!({"id": null, "error": {
                "code": "bad_request",
                "message": format!("the line is not JSON: {e}"),
                "suggestions": [],
            }})
        }
    };
    let id = request.get("id").cloned().unwrap_or(Json::Null);
    let Some(expr) = request.get("expr").and_then(Json::as_str) else {
        return json!({"id": id, "error": {
            "code": "bad_request",
            "message": "expected an object {\"id\": ..., \"expr\": \"...\"} with a string expr",
            "suggestions": [],
        }});
    };
    if request.get("ragged") == Some(&Json::Bool(true)) {
        let names = request.get("names").and_then(Json::as_array).map(|a| {
            a.iter()
                .map(|v| v.as_str().unwrap_or_default().to_string())
                .collect()
        });
        return crate::ragged::json_answer(id, expr, names);
    }
    match tessera::notation::eval(expr) {
        Ok(v) => json!({"id": id, "ok": v.to_string()}),
        Err(e) => json!({"id": id, "error": {
            "code": e.code(),
            "message": e.to_string(),
            "obligation": e.obligation().to_string(),
            "notes": e.notes(),
            "suggestions": e.suggestions(),
        }}),
    }
}

/// Reads stdin to its end; blank lines are skipped.
pub fn run() -> ExitCode {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for line in stdin.lock().split(b'\n') {
        let Ok(bytes) = line else {
            return ExitCode::FAILURE;
        };
        let text = String::from_utf8_lossy(&bytes);
        if text.trim().is_empty() {
            continue;
        }
        let reply = answer(&text);
        if writeln!(out, "{reply}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
