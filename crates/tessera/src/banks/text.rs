//! The text forms of `tessera banks`: parsing its inputs (shared-memory layout, element type,
//! instruction, major order) and printing its answers (the readable report, the synthesis,
//! readable and JSON).

use std::fmt::Write as _;

use super::atoms::Major;
use super::synth::{Candidate, Synthesis};
use super::{Access, Atom, BResult, BankError, Dtype, Instr, Report, Smem};
use crate::algebra::linear::LinearLayout;
use crate::layout::AnyLayout;

/// Parses a shared-memory layout (`tessera banks --smem`): a linear layout (`… -> …`), a plain,
/// swizzled or composed layout, or the shorthand `Sw<B,M,S> o L` (offset 0 left out).
///
/// Pre: none. Post: `Err` is a parse error or [`BankError::BadInput`] with suggestions.
/// Example: `Sw<3,3,3> o (64,64):(64,1)` is the 128-byte swizzle over a 64×64 tile.
pub fn parse_smem(text: &str) -> BResult<Smem> {
    let t = text.trim();
    if t.contains("->") {
        return Ok(Smem::Linear(LinearLayout::parse(t)?));
    }
    if let Ok(any) = t.parse::<AnyLayout>() {
        return Ok(Smem::from_any(any));
    }
    // The shorthand `Sw<B,M,S> o L` (offset 0 left out).
    if let Some(rest) = t.strip_prefix("Sw<") {
        let bad = || BankError::BadInput {
            what: "smem",
            detail: format!("expected `Sw<B,M,S> o LAYOUT`, found `{t}`"),
            suggestions: vec!["Sw<3,3,3> o 0 o (64,64):(64,1)".into()],
        };
        let (params, layout) = rest.split_once('>').ok_or_else(bad)?;
        let p: Vec<u32> = params
            .split(',')
            .map(|x| x.trim().parse().map_err(|_| bad()))
            .collect::<std::result::Result<_, _>>()?;
        let [b, m, s] = p[..] else { return Err(bad()) };
        let layout = layout.trim().strip_prefix('o').ok_or_else(bad)?.trim();
        // An offset of 0 (`Sw<B,M,S> o 0 o L`) is allowed.
        let layout = layout.strip_prefix("0 o").map(str::trim).unwrap_or(layout);
        if b == 0 || s < b || b + m + s > 62 {
            return Err(BankError::BadInput {
                what: "swizzle",
                detail: format!("Sw<{b},{m},{s}> needs 1 <= B <= S and B + M + S <= 62"),
                suggestions: vec!["Sw<3,3,3>".into(), "Sw<2,3,3>".into(), "Sw<1,3,3>".into()],
            });
        }
        return Ok(Smem::Swizzled {
            bms: (b, m, s),
            layout: layout.parse()?,
        });
    }
    Ok(Smem::Plain(t.parse()?))
}

/// Parses a major order: `k`, or `mn` (also `m`, `n`); `None` when absent.
///
/// Pre: none. Post: `Err` is [`BankError::BadInput`]. Example: `Some("K")` gives `Major::K`.
pub fn parse_major(m: Option<&str>) -> BResult<Option<Major>> {
    match m {
        None => Ok(None),
        Some("k" | "K") => Ok(Some(Major::K)),
        Some("mn" | "MN" | "m" | "n") => Ok(Some(Major::MN)),
        Some(o) => Err(BankError::BadInput {
            what: "major",
            detail: format!("`{o}` is not k or mn"),
            suggestions: vec!["k".into(), "mn".into()],
        }),
    }
}

/// Parses an element type name, suggesting the known ones when it is unknown.
///
/// Pre: none. Post: `Err` is [`BankError::BadInput`]. Example: `f16` is 2 bytes.
pub fn parse_dtype(s: &str) -> BResult<Dtype> {
    match Dtype::parse(s) {
        Ok(d) => super::check_whole_bytes(d).map(|()| d),
        Err(_) => Err(BankError::BadInput {
            what: "dtype",
            detail: format!("unknown element type `{s}`"),
            suggestions: super::dtypes().map(|d| d.name.to_string()).collect(),
        }),
    }
}

/// Parses an instruction: `ld.shared` / `st.shared` (width from the access), or a copy atom's name.
///
/// Pre: none. Post: `Err` when the atom is unknown. Example: `ldmatrix.x4`.
pub fn parse_instr(s: &str) -> BResult<Instr> {
    if s == "ld.shared" || s == "st.shared" {
        return Ok(Instr::Shared { width: None });
    }
    Ok(Atom::parse(s)?.instr())
}

impl Report {
    /// Whether a simulated report agrees with this analysed one (vector width, instructions,
    /// phases, wavefronts, ideal, the worst phase's wavefronts).
    ///
    /// Pre: none. Post: equality of those six counts. Example: any report agrees with itself.
    pub fn agrees_with(&self, s: &Report) -> bool {
        let a = self;
        (
            a.vector_bytes,
            a.instructions,
            a.phases,
            a.wavefronts,
            a.ideal,
            a.worst.wavefronts,
        ) == (
            s.vector_bytes,
            s.instructions,
            s.phases,
            s.wavefronts,
            s.ideal,
            s.worst.wavefronts,
        )
    }
}

/// `1 wavefront`, `2 wavefronts`: a count with its noun in the right number.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The readable counts of a report: vector width, instructions, wavefronts against the ideal,
/// the worst phase (bank, threads) and the method.
///
/// Pre: none. Post: plain text, five lines. Example: a conflict-free access ends its third line
/// with `: conflict-free`.
pub fn text(r: &Report) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "vector width: {} bytes per thread", r.vector_bytes);
    let _ = writeln!(
        o,
        "instructions: {} ({} each)",
        r.instructions,
        counted(r.phases, "phase", "phases")
    );
    let _ = writeln!(
        o,
        "wavefronts: {} (ideal {}), conflict factor {:.2}{}",
        r.wavefronts,
        r.ideal,
        r.conflict_factor(),
        if r.wavefronts == r.ideal {
            ": conflict-free"
        } else {
            ""
        }
    );
    let w = &r.worst;
    let mut threads: Vec<String> = w
        .hits
        .iter()
        .map(|h| format!("T{}:w{}", h.0, h.1))
        .collect();
    threads.dedup();
    let _ = writeln!(
        o,
        "worst phase: instance {} instruction {} phase {}: {}; bank {} holds {} ({})",
        w.instance,
        w.instruction,
        w.phase,
        counted(w.wavefronts, "wavefront", "wavefronts"),
        w.bank,
        counted(w.hits.len() as u64, "access", "accesses"),
        threads.join(" ")
    );
    let _ = writeln!(o, "method: {}", r.method);
    o
}

/// The readable answer of `tessera banks` for one access: the shared-memory layout and element
/// type, the access, the counts ([`text`]) and, when the simulator ran, whether it agrees.
///
/// Pre: none. Post: plain text, each line ending in a newline. Example: the first line is
/// `shared memory: (64,64):(64,1) (f16, 2 bytes)` for that plain layout.
pub fn report_text(
    smem: &Smem,
    acc: &Access,
    dtype: Dtype,
    r: &Report,
    simulator_agrees: Option<bool>,
) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "shared memory: {} ({}, {} bytes)",
        smem.describe(),
        dtype.name,
        super::elem_bytes(dtype)
    );
    let _ = writeln!(
        o,
        "access: {} with TV {}{}",
        acc.instr,
        acc.tv,
        match acc.atom {
            Some((m, n)) => format!(" over a {m}x{n} atom tile, repeated over the tile"),
            None => String::new(),
        }
    );
    o.push_str(&text(r));
    if let Some(ok) = simulator_agrees {
        let _ = writeln!(o, "simulator: {}", if ok { "agrees" } else { "DISAGREES" });
    }
    o
}

/// [`Report::to_json`] with `"simulator_agrees"` when the simulator ran, `"notes"` when there
/// are warnings (each `{"code", "message", "obligation"}`, as `tessera batch` writes notes), and
/// a newline.
///
/// Pre: none. Post: one JSON object and `\n`. Example: ends in `"simulator_agrees":true}` when
/// the simulator agrees and there is no warning.
pub fn report_json(
    r: &Report,
    simulator_agrees: Option<bool>,
    notes: &[crate::error::Note],
) -> String {
    let mut j = r.to_json_value();
    if let Some(o) = j.as_object_mut() {
        if let Some(ok) = simulator_agrees {
            o.insert("simulator_agrees".into(), ok.into());
        }
        if !notes.is_empty() {
            let notes: Vec<serde_json::Value> = notes
                .iter()
                .map(|n| {
                    serde_json::json!({
                        "code": n.code,
                        "message": n.message,
                        "obligation": n.obligation,
                    })
                })
                .collect();
            o.insert("notes".into(), notes.into());
        }
    }
    j.to_string() + "\n"
}

fn candidate_line(c: &Candidate) -> String {
    format!(
        "{}: writer {} wavefronts (ideal {}), reader {} (ideal {})",
        c.smem.describe(),
        c.writer.wavefronts,
        c.writer.ideal,
        c.reader.wavefronts,
        c.reader.ideal
    )
}

fn candidate_json(c: &Candidate) -> serde_json::Value {
    serde_json::json!({
        "smem": c.smem.describe(),
        "writer": c.writer.to_json_value(),
        "reader": c.reader.to_json_value(),
        "conflict_free": c.conflict_free(),
    })
}

/// A synthesis as JSON (`tessera banks --synth --json`): the base, the conflict-free CuTe
/// swizzles, the cheapest one when none is, the F2 candidate and the F2 verdict.
///
/// Pre: none. Post: one JSON object and `\n`. Example: starts with `{"base":`.
pub fn synthesis_json(s: &Synthesis) -> String {
    let cute: Vec<serde_json::Value> = s.cute.iter().map(candidate_json).collect();
    let j = serde_json::json!({
        "base": candidate_json(&s.base),
        "cute": cute,
        "best_cute": s.best_cute.as_ref().map(candidate_json),
        "general": s.general.as_ref().map(candidate_json),
        "f2_verdict": s.f2_verdict,
    });
    j.to_string() + "\n"
}

/// A synthesis as readable text (`tessera banks --synth`), for the named writer and reader.
///
/// Pre: none. Post: plain text, each line ending in a newline; the conflict-free CuTe swizzles
/// first (`best`, then `also`). Example: the first line is `writer tma, reader ldmatrix.x4, f16
/// (2 bytes)`.
pub fn synthesis_text(s: &Synthesis, writer: &str, reader: &str, dtype: Dtype) -> String {
    let line = candidate_line;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "writer {}, reader {}, {} ({} bytes)",
        writer,
        reader,
        dtype.name,
        super::elem_bytes(dtype)
    );
    let _ = writeln!(o, "base   {}", line(&s.base));
    if s.base.conflict_free() {
        let _ = writeln!(o, "the base layout is already conflict-free for both");
    }
    for (i, c) in s.cute.iter().enumerate() {
        let _ = writeln!(
            o,
            "{} {}  (checked: conflict-free)",
            if i == 0 { "best  " } else { "also  " },
            line(c)
        );
    }
    if let Some(c) = &s.best_cute {
        let _ = writeln!(o, "no CuTe swizzle is conflict-free; cheapest: {}", line(c));
    }
    if let Some(c) = &s.general {
        let _ = writeln!(o, "F2     {}", line(c));
    }
    if let Some(v) = &s.f2_verdict {
        let _ = writeln!(o, "F2 search: {v}");
    }
    if let (Some(c), Some(g)) = (&s.best_cute, &s.general) {
        if !g.conflict_free() && c.cost() <= g.cost() {
            let _ = writeln!(
                o,
                "so {} reaches the best achievable cost ({} wavefronts) and CUTLASS can use it as is",
                c.smem.describe(),
                c.cost()
            );
        }
    }
    o
}
