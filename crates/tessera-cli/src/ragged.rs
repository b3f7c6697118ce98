//! `tessera eval --ragged EXPR`: a divide (or `local_tile` / `local_partition`) over the padded
//! domain, with its holes, the minimal predicate in the user's coordinates and the TMA verdict;
//! and the `"ragged": true` form of a batch request.

use std::process::ExitCode;

use serde_json::{json, Value as Json};
use tessera::algebra::ragged::{
    holes_text, ragged_divide, ragged_local_partition, ragged_local_tile, Arrangement, Ragged,
    RaggedSlice,
};
use tessera::domain::ragged::{analyze, predicate_text, RaggedAnalysis};
use tessera::notation::{eval_expr, parse, Expr, Value};
use tessera::obligation::Error;
use tessera::tma::ragged::{ragged_verdict, verdict_text, RaggedTma};
use tessera::tma::DataType;

/// What a ragged expression evaluates to.
pub enum Outcome {
    /// A divide.
    Divide(Ragged),
    /// One tile or one thread's partition, with the divide it slices.
    Slice(&'static str, RaggedSlice, Ragged),
}

fn bad(message: String) -> Error {
    Error::Parse { column: 1, message }
}

/// Evaluates `op(args)` where `op` is a divide, `local_tile` or `local_partition` (a `ragged_`
/// prefix is allowed).
pub fn evaluate(text: &str) -> Result<Outcome, Error> {
    let e = parse(text)?;
    let Expr::Call { name, args, .. } = &e else {
        return Err(bad(
            "--ragged takes a call: a divide, local_tile or local_partition".into(),
        ));
    };
    let op = name.strip_prefix("ragged_").unwrap_or(name);
    let vals = args.iter().map(eval_expr).collect::<Result<Vec<_>, _>>()?;
    let layout = |i: usize| match vals.get(i) {
        Some(Value::Layout(l)) => Ok(l.clone()),
        Some(v) => match v.to_int_tuple() {
            Some(t) if i == 1 => tessera::Layout::compact(&t),
            _ => Err(bad(format!("{op}: argument {} must be a layout", i + 1))),
        },
        None => Err(bad(format!("{op}: missing argument {}", i + 1))),
    };
    let tiler = |i: usize| {
        vals.get(i)
            .and_then(|v| v.to_tiler())
            .ok_or_else(|| bad(format!("{op}: argument {} must be a tiler", i + 1)))
    };
    let want = |n: usize| {
        if vals.len() == n {
            Ok(())
        } else {
            Err(Error::Arity {
                op: op.to_string(),
                expected: if n == 2 { "2" } else { "3" },
                found: vals.len(),
            })
        }
    };
    if let Some(arr) = Arrangement::parse(op) {
        want(2)?;
        return Ok(Outcome::Divide(ragged_divide(
            &layout(0)?,
            &tiler(1)?,
            arr,
        )?));
    }
    match op {
        "local_tile" => {
            want(3)?;
            let (a, t) = (layout(0)?, tiler(1)?);
            let c = vals[2]
                .to_int_tuple()
                .ok_or_else(|| bad("local_tile: argument 3 must be a coordinate".into()))?;
            let s = ragged_local_tile(&a, &t, &c)?;
            Ok(Outcome::Slice(
                "local_tile",
                s,
                ragged_divide(&a, &t, Arrangement::Zipped)?,
            ))
        }
        "local_partition" => {
            want(3)?;
            let (a, th) = (layout(0)?, layout(1)?);
            let i = match vals[2] {
                Value::Int(i) => i,
                _ => return Err(bad("local_partition: argument 3 must be an integer".into())),
            };
            let s = ragged_local_partition(&a, &th, i)?;
            let sizes = th
                .modes()
                .map(|m| m.size().map(tessera::algebra::Tiler::Int))
                .collect::<Result<Vec<_>, _>>()?;
            let t = if th.is_leaf() && a.is_leaf() {
                sizes[0].clone()
            } else {
                tessera::algebra::Tiler::Tuple(sizes)
            };
            Ok(Outcome::Slice(
                "local_partition",
                s,
                ragged_divide(&a, &t, Arrangement::Zipped)?,
            ))
        }
        _ => Err(Error::UnknownFunction {
            name: name.clone(),
            column: 1,
        }),
    }
}

fn names(list: Option<&str>) -> Option<Vec<String>> {
    list.map(|l| l.split(',').map(|s| s.trim().to_string()).collect())
}

/// The report printed by `tessera eval --ragged`.
pub fn report(
    text: &str,
    names_list: Option<&str>,
    dtype: DataType,
    code: bool,
) -> Result<String, String> {
    let outcome = evaluate(text).map_err(|e| format!("error[{}]: {e}", e.code()))?;
    let (r, slice) = match &outcome {
        Outcome::Divide(r) => (r, None),
        Outcome::Slice(op, s, r) => (r, Some((*op, s))),
    };
    let nm = names(names_list);
    let an = analyze(r, nm.as_deref()).map_err(|e| format!("error[{}]: {e}", e.code()))?;
    let mut o = String::new();
    o.push_str(&format!("ragged {text}\n"));
    divide_lines(&mut o, r, &an);
    if let Some((op, s)) = slice {
        o.push_str(&format!("\n{op}:\n"));
        match (&s.layout, s.offset) {
            (Some(l), Some(off)) => o.push_str(&format!("  layout  {l} + offset {off}\n")),
            _ => o.push_str(&format!(
                "  index   {} + {} (no layout: A' o T is not admissible)\n",
                s.index, s.index_offset
            )),
        }
        let ext: Vec<String> = s
            .extents
            .iter()
            .map(|(v, t)| format!("{v} of {t}"))
            .collect();
        o.push_str(&format!(
            "  {} points, {} valid, {}; valid per mode: {}\n",
            s.points,
            s.valid,
            holes_text(s.holes),
            ext.join(", ")
        ));
    }
    o.push('\n');
    match ragged_verdict(r, dtype) {
        Ok(t) => o.push_str(&verdict_text(&t)),
        Err(e) => o.push_str(&format!("TMA: not a TMA box tiling: {e}")),
    }
    o.push('\n');
    if code {
        o.push_str("\nPython:\n");
        o.push_str(&an.python);
        o.push_str("\nCUDA C++:\n");
        o.push_str(&an.cuda);
    }
    Ok(o)
}

fn divide_lines(o: &mut String, r: &Ragged, an: &RaggedAnalysis) {
    match &r.layout {
        Some(l) => o.push_str(&format!(
            "  layout     {l}   (A' o T over the padded domain)\n"
        )),
        None => {
            o.push_str("  layout     none: A' o T is not admissible (the values are A(T(c)))\n")
        }
    }
    o.push_str(&format!(
        "  index map  {}   (padded coordinate -> padded index)\n",
        r.index
    ));
    for m in &r.modes {
        if let Some(t) = &m.tiler {
            let which = match m.position {
                Some(i) => format!("mode {i} ({})", m.mode),
                None => format!("{} as one 1-D domain", m.mode),
            };
            o.push_str(&format!(
                "  {which}: size {} by tile {t} (period {}): padded to {}, {}\n",
                m.size,
                m.period,
                m.padded_size,
                holes_text(m.holes())
            ));
        }
    }
    o.push_str(&format!(
        "  {} padded points, {} valid, {}\n",
        r.points,
        r.valid,
        holes_text(r.holes)
    ));
    o.push_str(&format!(
        "  predicate  {}   (minimal{})\n",
        predicate_text(&an.predicate),
        if an.minimal_checked {
            ", checked by enumeration"
        } else {
            " by the theorems; enumeration skipped"
        }
    ));
    for d in &an.dropped {
        o.push_str(&format!("    dropped {d}\n"));
    }
    o.push_str(&format!(
        "  allocated padded: {} slots, {} over-allocated\n",
        an.allocated, an.over_allocation
    ));
    for row in &an.correctness {
        let fill = match row.fill {
            None => "holes left unwritten".to_string(),
            Some(v) => format!("holes filled with {v}"),
        };
        let verdict = if row.strong {
            "strongly correct"
        } else if row.weak {
            "weakly correct"
        } else {
            "not correct"
        };
        o.push_str(&format!(
            "  predicated copy, {fill}, read by {}: {verdict}\n",
            format!("{:?}", row.reduction).to_lowercase()
        ));
    }
}

/// `tessera eval --ragged`.
pub fn run(text: &str, names: Option<&str>, dtype: DataType, code: bool) -> ExitCode {
    match report(text, names, dtype, code) {
        Ok(s) => {
            print!("{s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
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
