//! The report as text, JSON, and a host-side `can_implement` guard.

use std::fmt::Write as _;

use super::config::{Config, Extent};
use super::rules::{Obligation, Verdict};
use super::{Overall, Report};

/// JSON string escaping.
///
/// Pre: none. Post: a JSON string literal with quotes. Example: `json_str("a\"b") == "\"a\\\"b\""`.
pub fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn obligation_json(o: &Obligation) -> String {
    let fields: Vec<String> = o.fields.iter().map(|f| json_str(f)).collect();
    let sugg: Vec<String> = o
        .suggestions
        .iter()
        .map(|s| {
            let ch: Vec<String> = s
                .changes
                .iter()
                .map(|(k, v)| format!("{}:{}", json_str(k), json_str(v)))
                .collect();
            format!(
                "{{\"text\":{},\"changes\":{{{}}},\"checked\":{}}}",
                json_str(&s.text),
                ch.join(","),
                s.checked
            )
        })
        .collect();
    format!(
        "{{\"code\":{},\"verdict\":{},\"fields\":[{}],\"message\":{},\"witness\":{},\"guard\":{},\"suggestions\":[{}]}}",
        json_str(o.code),
        json_str(o.verdict.name()),
        fields.join(","),
        json_str(&o.message),
        o.witness.as_deref().map_or("null".into(), json_str),
        o.guard.as_deref().map_or("null".into(), json_str),
        sugg.join(",")
    )
}

/// The report as one JSON object (schema in docs/check.md).
///
/// Pre: none. Post: `{"verdict", "guards", "obligations", "derived"}`, valid JSON.
/// Example: `to_json(&check(&Config::sm90_example()))` starts with `{"verdict":"valid_if"`.
pub fn to_json(r: &Report) -> String {
    let d = &r.derived;
    let obs: Vec<String> = r.obligations.iter().map(obligation_json).collect();
    let guards: Vec<String> = r.guards().iter().map(|g| json_str(g)).collect();
    let parts: Vec<String> = d
        .smem_parts
        .iter()
        .map(|(k, v)| format!("[{},{v}]", json_str(k)))
        .collect();
    let copies: Vec<String> = d
        .copies
        .iter()
        .map(|(k, v)| format!("{}:{}", json_str(k), json_str(v)))
        .collect();
    let banks: Vec<String> = d
        .banks
        .iter()
        .map(|(k, v)| format!("{}:{}", json_str(k), json_str(v)))
        .collect();
    format!(
        "{{\"verdict\":{},\"guards\":[{}],\"obligations\":[{}],\"derived\":{{\"threads\":{},\"stages\":{},\"stages_source\":{},\"stage_bytes\":{},\"smem_bytes\":{},\"smem_parts\":[{}],\"smem_capacity\":{},\"mma\":{},\"tiled_mma\":{},\"smem_layout_a\":{},\"smem_layout_b\":{},\"copies\":{{{}}},\"epilogue\":{},\"grid\":{},\"residue\":{},\"banks\":{{{}}}}}}}",
        json_str(r.overall().name()),
        guards.join(","),
        obs.join(","),
        d.threads,
        d.stages,
        json_str(&d.stages_source),
        d.stage_bytes,
        d.smem_bytes,
        parts.join(","),
        d.smem_capacity,
        json_str(&d.mma),
        json_str(&d.tiled_mma),
        json_str(&d.smem_layout_a),
        json_str(&d.smem_layout_b),
        copies.join(","),
        json_str(&d.epilogue),
        json_str(&d.grid),
        json_str(&d.residue),
        banks.join(",")
    )
}

/// The final line: `valid`, `valid if <guards>` or `invalid (N refuted)`.
///
/// Pre: none. Post: one line. Example: `valid if K % 8 == 0`.
pub fn verdict_line(r: &Report) -> String {
    match r.overall() {
        Overall::Valid => "valid".into(),
        Overall::ValidIf => format!("valid if {}", r.guards().join(" && ")),
        Overall::Invalid => format!("invalid ({} refuted)", r.refuted().count()),
    }
}

/// The readable report: obligations grouped (refuted, runtime, warning, proved), then the
/// derived kernel, then the verdict line.
///
/// Pre: none. Post: ends with [`verdict_line`]. Example: see `tessera check --help`.
pub fn text(c: &Config, r: &Report) -> String {
    let mut s = String::new();
    let prob: Vec<String> = c.problem.iter().map(Extent::to_string).collect();
    let _ = writeln!(
        s,
        "kernel: sm{} {} {}x{}x{} cluster {}x{}x{}, problem M={} N={} K={} L={}{}",
        c.sm,
        c.kernel.name(),
        c.tile[0],
        c.tile[1],
        c.tile[2],
        c.cluster[0],
        c.cluster[1],
        c.cluster[2],
        prob[0],
        prob[1],
        prob[2],
        prob[3],
        if c.assume.is_empty() {
            String::new()
        } else {
            format!(
                ", assuming {}",
                c.assume
                    .iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    s.push('\n');
    for v in [
        Verdict::Refuted,
        Verdict::Runtime,
        Verdict::Warning,
        Verdict::Proved,
    ] {
        for o in r.obligations.iter().filter(|o| o.verdict == v) {
            let _ = writeln!(s, "{:<8} {:<16} {}", v.name(), o.code, o.message);
            if let Some(w) = &o.witness {
                let _ = writeln!(s, "         {:<16} witness: {w}", "");
            }
            if let Some(g) = &o.guard {
                let _ = writeln!(s, "         {:<16} guard: {g}", "");
            }
            for sg in &o.suggestions {
                let _ = writeln!(
                    s,
                    "         {:<16} suggestion ({}): {}",
                    "",
                    if sg.checked {
                        "checked: proves it, refutes nothing new"
                    } else {
                        "unchecked"
                    },
                    sg.text
                );
            }
        }
    }
    let d = &r.derived;
    s.push_str("\nderived kernel:\n");
    let _ = writeln!(s, "  threads per CTA  {}", d.threads);
    let _ = writeln!(s, "  stages           {} — {}", d.stages, d.stages_source);
    let _ = writeln!(s, "  smem per stage   {} B (A + B)", d.stage_bytes);
    let _ = writeln!(
        s,
        "  smem total       {} B of {} B ({})",
        d.smem_bytes,
        d.smem_capacity,
        d.smem_parts
            .iter()
            .filter(|p| p.1 > 0)
            .map(|p| format!("{} {}", p.0, p.1))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(s, "  mma              {}", d.mma);
    let _ = writeln!(s, "  tiled mma        {}", d.tiled_mma);
    let _ = writeln!(s, "  smem layout A    {}", d.smem_layout_a);
    let _ = writeln!(s, "  smem layout B    {}", d.smem_layout_b);
    for (k, v) in &d.copies {
        let _ = writeln!(s, "  {:<16} {v}", k);
    }
    let _ = writeln!(s, "  epilogue         {}", d.epilogue);
    let _ = writeln!(s, "  grid             {}", d.grid);
    let _ = writeln!(s, "  residue          {}", d.residue);
    if !d.banks.is_empty() {
        let _ = writeln!(
            s,
            "  bank conflicts   {}",
            d.banks
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    s.push('\n');
    s.push_str(&verdict_line(r));
    s.push('\n');
    s
}

/// The runtime guards as a host-side function to paste before the launch.
///
/// Pre: `lang` is `cpp` or `python`. Post: a function `can_implement(M, N, K, L)` returning
/// whether every guard holds (true when there is none; false for an invalid configuration).
/// Example: `emit_guard(&r, "cpp")`.
pub fn emit_guard(c: &Config, r: &Report, lang: &str) -> Result<String, String> {
    let names: Vec<String> = c
        .problem
        .iter()
        .zip(["M", "N", "K", "L"])
        .map(|(e, d)| match e {
            Extent::Runtime(n) => n.clone(),
            Extent::Static(_) => d.to_string(),
        })
        .collect();
    let guards = r.guards();
    let body = if r.overall() == Overall::Invalid {
        "false".to_string()
    } else if guards.is_empty() {
        "true".to_string()
    } else {
        guards
            .iter()
            .map(|g| format!("({g})"))
            .collect::<Vec<_>>()
            .join(if lang == "python" { " and " } else { " && " })
    };
    match lang {
        "cpp" | "c++" => Ok(format!(
            "// tessera check: {}\ninline bool can_implement(long long {}, long long {}, long long {}, long long {}) {{\n  (void){}; (void){}; (void){}; (void){};\n  return {body};\n}}\n",
            verdict_line(r),
            names[0], names[1], names[2], names[3], names[0], names[1], names[2], names[3]
        )),
        "python" | "py" => Ok(format!(
            "# tessera check: {}\ndef can_implement({}, {}, {}, {}=1):\n    return {}\n",
            verdict_line(r),
            names[0],
            names[1],
            names[2],
            names[3],
            if body == "true" { "True".into() } else if body == "false" { "False".into() } else { body }
        )),
        o => Err(format!("--emit-guard {o}: expected cpp or python")),
    }
}
