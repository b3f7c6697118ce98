//! `tessera banks`: shared-memory bank conflicts of an access (a TV layout or a named copy atom)
//! on a plain, swizzled or linear shared-memory layout; `--synth` finds a swizzle that makes a
//! writer and a reader conflict-free.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use tessera::algebra::linear::LinearLayout;
use tessera::banks::atoms::Major;
use tessera::banks::synth::{synthesize, Candidate, Problem};
use tessera::banks::{
    analyze, simulate, Access, Atom, BankError, Dtype, Instr, Report, Smem, DTYPES,
};

/// Arguments of `tessera banks`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shared-memory layout: a CuTe layout `(64,64):(64,1)`, a swizzled one
    /// `Sw<3,3,3> o (64,64):(64,1)`, or a linear layout `offset = [[1], [2]] -> offset = 4`.
    #[arg(long)]
    pub smem: String,
    /// The access as a TV layout `(thread, value) -> index` of the layout's domain (32 threads).
    #[arg(long)]
    pub tv: Option<String>,
    /// The access as a named copy atom repeated over the tile (e.g. `ldmatrix.x4`,
    /// `SM75_U32x4_LDSM_N`, `cp.async.16`, `tma`).
    #[arg(long)]
    pub atom: Option<String>,
    /// The element type (f16, bf16, f32, tf32, f64, i8, u8, e4m3, e5m2, i16, i32, u32, i64).
    #[arg(long)]
    pub dtype: String,
    /// With `--tv`: the instruction (`ld.shared`, `st.shared`, `ld.shared.W`, `cp.async.W`,
    /// `ldmatrix.xN[.trans]`, `stmatrix.xN[.trans]`, `tma`); default `ld.shared` at the widest width.
    #[arg(long)]
    pub instr: Option<String>,
    /// Which tile dimension is contiguous in the copy's source: `k` (mode 1) or `mn` (mode 0).
    #[arg(long)]
    pub major: Option<String>,
    /// Also run the brute-force simulator and report whether it agrees.
    #[arg(long)]
    pub simulate: bool,
    /// Synthesize a swizzle for `--writer` and `--reader` over the `--smem` layout (plain).
    #[arg(long)]
    pub synth: bool,
    /// With `--synth`: the writer atom (default `tma`).
    #[arg(long)]
    pub writer: Option<String>,
    /// With `--synth`: the reader atom (default `ldmatrix.x4`).
    #[arg(long)]
    pub reader: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Draw the tile coloured by bank, the worst phase marked, into this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

fn error(e: &BankError, json: bool) -> ExitCode {
    if json {
        let sugg: Vec<String> = e
            .suggestions()
            .iter()
            .map(|s| format!("\"{}\"", esc(s)))
            .collect();
        println!(
            "{{\"error\":{{\"code\":\"{}\",\"message\":\"{}\",\"suggestions\":[{}]}}}}",
            e.code(),
            esc(&e.to_string()),
            sugg.join(",")
        );
    } else {
        eprintln!("error[{}]: {e}", e.code());
        for s in e.suggestions() {
            eprintln!("help: {s}");
        }
    }
    ExitCode::from(2)
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Parses `--smem`.
pub fn parse_smem(text: &str) -> Result<Smem, BankError> {
    let t = text.trim();
    if t.contains("->") {
        return Ok(Smem::Linear(LinearLayout::parse(t)?));
    }
    if let Some(rest) = t.strip_prefix("Sw<") {
        let bad = || BankError::BadInput {
            what: "smem",
            detail: format!("expected `Sw<B,M,S> o LAYOUT`, found `{t}`"),
            suggestions: vec!["Sw<3,3,3> o (64,64):(64,1)".into()],
        };
        let (params, layout) = rest.split_once('>').ok_or_else(bad)?;
        let p: Vec<u32> = params
            .split(',')
            .map(|x| x.trim().parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
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

fn parse_major(m: &Option<String>) -> Result<Option<Major>, BankError> {
    match m.as_deref() {
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

fn parse_dtype(s: &str) -> Result<Dtype, BankError> {
    Dtype::parse(s).ok_or_else(|| BankError::BadInput {
        what: "dtype",
        detail: format!("unknown element type `{s}`"),
        suggestions: DTYPES.iter().map(|d| d.name.to_string()).collect(),
    })
}

fn parse_instr(s: &str) -> Result<Instr, BankError> {
    if s == "ld.shared" || s == "st.shared" {
        return Ok(Instr::Shared { width: None });
    }
    Ok(Atom::parse(s)?.instr())
}

/// Runs `tessera banks`.
pub fn run(a: Args) -> ExitCode {
    match run_inner(&a) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => error(&e, a.json),
    }
}

fn run_inner(a: &Args) -> Result<String, BankError> {
    let smem = parse_smem(&a.smem)?;
    let dtype = parse_dtype(&a.dtype)?;
    let major = parse_major(&a.major)?;
    if a.synth {
        return synth(a, &smem, dtype, major);
    }
    let acc = match (&a.tv, &a.atom) {
        (Some(tv), None) => {
            let instr = match &a.instr {
                Some(i) => parse_instr(i)?,
                None => Instr::Shared { width: None },
            };
            Access {
                tv: tv.parse()?,
                instr,
                atom: None,
            }
        }
        (None, Some(atom)) => Atom::parse(atom)?.access(&smem, dtype, major)?,
        _ => {
            return Err(BankError::BadInput {
                what: "access",
                detail: "give exactly one of --tv and --atom".into(),
                suggestions: vec!["--tv '(32,1):(1,0)'".into(), "--atom ldmatrix.x4".into()],
            })
        }
    };
    let r = analyze(&smem, &acc, dtype)?;
    let sim = if a.simulate {
        Some(simulate(&smem, &acc, dtype)?)
    } else {
        None
    };
    if let Some(path) = &a.svg {
        let pic =
            tessera::render::banks_svg(&smem, dtype, &r).map_err(|e| BankError::BadInput {
                what: "svg",
                detail: e.to_string(),
                suggestions: Vec::new(),
            })?;
        std::fs::write(path, pic.svg).map_err(|e| BankError::BadInput {
            what: "svg",
            detail: format!("cannot write {}: {e}", path.display()),
            suggestions: Vec::new(),
        })?;
    }
    let agrees = sim.as_ref().map(|s| same(&r, s));
    if a.json {
        let mut j = r.to_json();
        if let Some(ok) = agrees {
            j.pop();
            let _ = write!(j, ",\"simulator_agrees\":{ok}}}");
        }
        return Ok(j + "\n");
    }
    let mut o = String::new();
    let _ = writeln!(
        o,
        "shared memory: {} ({}, {} bytes)",
        smem.describe(),
        dtype.name,
        dtype.bytes
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
    o.push_str(&text(&r));
    if let Some(ok) = agrees {
        let _ = writeln!(o, "simulator: {}", if ok { "agrees" } else { "DISAGREES" });
    }
    Ok(o)
}

fn same(a: &Report, s: &Report) -> bool {
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

fn text(r: &Report) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "vector width: {} bytes per thread", r.vector_bytes);
    let _ = writeln!(
        o,
        "instructions: {} ({} phases each)",
        r.instructions, r.phases
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
        "worst phase: instance {} instruction {} phase {}: {} wavefronts; bank {} holds {} accesses ({})",
        w.instance,
        w.instruction,
        w.phase,
        w.wavefronts,
        w.bank,
        w.hits.len(),
        threads.join(" ")
    );
    let _ = writeln!(o, "method: {}", r.method);
    o
}

fn synth(a: &Args, smem: &Smem, dtype: Dtype, major: Option<Major>) -> Result<String, BankError> {
    let Smem::Plain(base) = smem else {
        return Err(BankError::BadInput {
            what: "smem",
            detail: "--synth starts from a plain layout (the unswizzled tile)".into(),
            suggestions: vec!["(64,64):(64,1)".into()],
        });
    };
    let p = Problem {
        base: base.clone(),
        dtype,
        writer: Atom::parse(a.writer.as_deref().unwrap_or("tma"))?,
        writer_major: major,
        reader: Atom::parse(a.reader.as_deref().unwrap_or("ldmatrix.x4"))?,
        reader_major: None,
    };
    let s = synthesize(&p)?;
    let line = |c: &Candidate| {
        format!(
            "{}: writer {} wavefronts (ideal {}), reader {} (ideal {})",
            c.smem.describe(),
            c.writer.wavefronts,
            c.writer.ideal,
            c.reader.wavefronts,
            c.reader.ideal
        )
    };
    if a.json {
        let cj = |c: &Candidate| {
            format!(
                "{{\"smem\":\"{}\",\"writer\":{},\"reader\":{},\"conflict_free\":{}}}",
                esc(&c.smem.describe()),
                c.writer.to_json(),
                c.reader.to_json(),
                c.conflict_free()
            )
        };
        let cute: Vec<String> = s.cute.iter().map(cj).collect();
        return Ok(format!(
            "{{\"base\":{},\"cute\":[{}],\"best_cute\":{},\"general\":{},\"f2_verdict\":{}}}\n",
            cj(&s.base),
            cute.join(","),
            s.best_cute.as_ref().map(cj).unwrap_or("null".into()),
            s.general.as_ref().map(cj).unwrap_or("null".into()),
            s.f2_verdict
                .as_ref()
                .map(|v| format!("\"{}\"", esc(v)))
                .unwrap_or("null".into()),
        ));
    }
    let mut o = String::new();
    let _ = writeln!(
        o,
        "writer {} , reader {} , {} ({} bytes)",
        a.writer.as_deref().unwrap_or("tma"),
        a.reader.as_deref().unwrap_or("ldmatrix.x4"),
        dtype.name,
        dtype.bytes
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
    Ok(o)
}
