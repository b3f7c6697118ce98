//! `tessera eval --symbolic / --assume FACT / --emit-guard cpp|python`: the layout algebra over
//! runtime extents (docs/symbolic.md), and the batch form (`"assume": [...]`).

use serde_json::{json, Value as Json};
use std::process::ExitCode;
use tessera::symbolic::{eval, Guard, Syntax};

/// The conjunction of the guards in a syntax (`true` when there is none).
///
/// Pre: none. Post: an expression of the language. Example: `M % 128 == 0 && K >= 64`.
pub fn conjunction(guards: &[Guard], syn: Syntax) -> String {
    if guards.is_empty() {
        return if syn == Syntax::Python {
            "True"
        } else {
            "true"
        }
        .to_string();
    }
    let and = if syn == Syntax::Python {
        " and "
    } else {
        " && "
    };
    guards
        .iter()
        .map(|g| {
            let s = g.pred.render(syn);
            if guards.len() > 1 && s.contains(['&', ' ']) && s.contains("&&") {
                format!("({s})")
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join(and)
}

/// Runs one symbolic evaluation: the result on stdout, then one `guard:` line per guard (with
/// the operation that needed it), then with `emit` the `can_implement:` conjunction.
///
/// Pre: none. Post: status 0 with a result, else the error's status. Example: see docs/symbolic.md.
pub fn run(expr: &str, assume: &[String], emit: Option<&str>) -> ExitCode {
    let syn = match emit {
        None => None,
        Some("cpp") | Some("c++") => Some(Syntax::Cpp),
        Some("python") | Some("py") => Some(Syntax::Python),
        Some(other) => {
            return crate::exit::fail(
                "bad_argument",
                format!("--emit-guard takes cpp or python, not `{other}`"),
            )
        }
    };
    match eval(expr, assume) {
        Ok(s) => {
            let mut text = format!("{}\n", s.value);
            for g in &s.guards {
                text.push_str(&format!("guard: {}    [{}]\n", g.pred, g.op));
            }
            if let Some(syn) = syn {
                text.push_str(&format!("can_implement: {}\n", conjunction(&s.guards, syn)));
            }
            crate::out(&text);
            ExitCode::SUCCESS
        }
        Err(e) => crate::exit::fail(e.code(), e),
    }
}

/// The batch answer of `{"expr": …, "assume": […]}`: `{"ok": RESULT, "guards": [...]}` (each
/// guard in Tessera's, C++ and Python syntax, with its operation) or an error object.
///
/// Pre: none. Post: a JSON object. Example: `{"ok":"M*N:1","guards":[]}`.
pub fn json_answer(expr: &str, assume: &[String]) -> Json {
    match eval(expr, assume) {
        Ok(s) => {
            let guards: Vec<Json> = s
                .guards
                .iter()
                .map(|g| {
                    json!({
                        "guard": g.pred.to_string(),
                        "cpp": g.pred.render(Syntax::Cpp),
                        "python": g.pred.render(Syntax::Python),
                        "op": g.op,
                    })
                })
                .collect();
            json!({"ok": s.value.to_string(), "guards": guards})
        }
        Err(e) => json!({"error": {
            "code": e.code(),
            "message": e.to_string(),
            "notes": [],
            "suggestions": [],
        }}),
    }
}
