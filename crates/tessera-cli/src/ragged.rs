//! `tessera eval --ragged EXPR`: a divide (or `local_tile` / `local_partition`) over the padded
//! domain, with its holes, the minimal predicate in the user's coordinates and the TMA verdict;
//! and the `"ragged": true` form of a batch request.

use std::process::ExitCode;

use serde_json::{json, Value as Json};
use tessera::domain::ragged::analyze;
use tessera::notation::ragged::{evaluate, Outcome};
use tessera::tma::ragged::{ragged_verdict, report, RaggedTma};
use tessera::tma::DataType;

/// `tessera eval --ragged`.
pub fn run(text: &str, names: Option<&str>, dtype: DataType, code: bool) -> ExitCode {
    match report(text, names, dtype, code) {
        Ok(s) => {
            print!("{s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            // `error[CODE]: …`: usage codes (a parse error in --names) exit 2, refusals 1.
            let code = e
                .strip_prefix("error[")
                .and_then(|r| r.split(']').next())
                .unwrap_or("");
            crate::exit::status(code)
        }
    }
}

fn tma_json(t: &RaggedTma) -> Json {
    json!({
        "shape": t.request.shape,
        "box": t.request.box_dims,
        "element_strides": t.request.element_strides,
        "driver_errors": t.errors.iter().map(|f| f.code()).collect::<Vec<_>>(),
        "zero_filled": t.zero_filled,
        "data_filled": t.data_filled,
        "strong_sum": t.strong_sum,
        "strong_max": t.strong_max,
    })
}

/// The body of the batch answer to `{"id": .., "expr": .., "ragged": true}` (optional
/// `"names": [..]`); `batch` splices the request's id in front of it.
pub fn json_answer(text: &str, names: Option<&[String]>) -> Json {
    let fail = |code: &str, msg: String| json!({"error": {"code": code, "message": msg, "notes": [], "suggestions": []}});
    let outcome = match evaluate(text) {
        Ok(o) => o,
        Err(e) => return fail(e.code(), e.to_string()),
    };
    let (r, slice) = match &outcome {
        Outcome::Divide(r) => (r, None),
        Outcome::Slice(_, s, r) => (r, Some(s)),
    };
    let an = match analyze(r, names) {
        Ok(a) => a,
        Err(e) => return fail(e.code(), e.to_string()),
    };
    let tma = ragged_verdict(r, DataType::F16)
        .ok()
        .map(|t| tma_json(&t))
        .unwrap_or(Json::Null);
    let mut out = json!({
        "ok": r.layout.as_ref().map(|l| l.to_string()),
        "index": r.index.to_string(),
        "points": r.points,
        "holes": r.holes,
        "valid": r.valid,
        "predicate": an.predicate.iter().map(|b| b.to_string()).collect::<Vec<_>>(),
        "minimal_checked": an.minimal_checked,
        "over_allocation": an.over_allocation,
        "tma": tma,
    });
    if let Some(s) = slice {
        out["slice"] = json!({
            "layout": s.layout.as_ref().map(|l| l.to_string()),
            "offset": s.offset,
            "points": s.points,
            "valid": s.valid,
            "holes": s.holes,
            "extents": s.extents,
        });
    }
    out
}

/// `--svg FILE`: the padded tile grid with its holes (rank-2 layouts and rank-1 ones).
/// Returns `Some(FAILURE)` when the picture cannot be drawn or written.
pub fn svg(text: &str, _names: Option<&str>, path: &std::path::Path) -> Option<ExitCode> {
    let r = match evaluate(text) {
        Ok(Outcome::Divide(r)) | Ok(Outcome::Slice(_, _, r)) => r,
        Err(_) => return Some(ExitCode::FAILURE),
    };
    match tessera::render::ragged::grid_svg(&r) {
        Ok(p) => match std::fs::write(path, p.svg) {
            Ok(()) => None,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                Some(ExitCode::FAILURE)
            }
        },
        Err(e) => {
            eprintln!("error[{}]: {e}", e.code());
            Some(ExitCode::FAILURE)
        }
    }
}
