//! `tessera banks`: shared-memory bank conflicts of an access (a TV layout or a named copy atom)
//! on a plain, swizzled or linear shared-memory layout; `--synth` finds a swizzle that makes a
//! writer and a reader conflict-free.

use std::path::PathBuf;
use std::process::ExitCode;
use tessera::banks::atoms::Major;
use tessera::banks::synth::{synthesize, Problem};
use tessera::banks::text::{
    parse_dtype, parse_instr, parse_major, parse_smem, report_json, report_text, synthesis_json,
    synthesis_text,
};
use tessera::banks::{analyze, simulate, Access, Atom, BankError, Dtype, Instr, Smem};
use tessera::diagnostic::Diagnose;

/// Arguments of `tessera banks`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shared-memory layout: a CuTe layout `(64,64):(64,1)`, a swizzled one
    /// `Sw<3,3,3> o 0 o (64,64):(64,1)`, a linear layout `offset = [[1], [2]] -> offset = 4` or
    /// its JSON (either direction: Triton's `offset -> dims` is inverted), or a Gluon shared
    /// layout `NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16)` with `--shape`.
    #[arg(long)]
    pub smem: String,
    /// With a Gluon `--smem`: the tensor shape, e.g. `64,64` (Triton's order, dim0 first).
    #[arg(long)]
    pub shape: Option<String>,
    /// The access as a TV layout `(thread, value) -> index` of the layout's domain (32 threads).
    #[arg(long)]
    pub tv: Option<String>,
    /// The access as a named copy atom repeated over the tile (e.g. `ldmatrix.x4`,
    /// `SM75_U32x4_LDSM_N`, `cp.async.16`, `tma`).
    #[arg(long)]
    pub atom: Option<String>,
    /// The element type (f16, bf16, f32, tf32, f64, i8, u8, e4m3, e5m2, ue8m0, i16, u16, i32, u32,
    /// i64, u64: every whole-byte type of `tessera::target`).
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
        let d = e.diagnostic();
        let j = serde_json::json!({"error": {
            "code": d.code,
            "message": d.message,
            "suggestions": d.suggestions,
        }});
        println!("{j}");
    } else {
        eprintln!("error[{}]: {e}", e.code());
        for s in e.suggestions() {
            eprintln!("help: {s}");
        }
    }
    // Unknown names and unreadable text are usage errors (2); failed obligations are refusals (1).
    if e.code() == "banks_bad_input" || e.code().ends_with("parse") || e.code() == "parse_error" {
        ExitCode::from(2)
    } else {
        crate::exit::status(e.code())
    }
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

/// The `--smem` layout and, for a linear or Gluon layout, a line saying how it was read.
fn smem_input(a: &Args) -> Result<(Smem, Option<String>), BankError> {
    use tessera::algebra::gluon::{class_names, linear_from_text, smem_direction, Gluon};
    let t = a.smem.trim();
    let head = t.split('(').next().unwrap_or("").trim();
    let class = head.rsplit('.').next().unwrap_or(head);
    let bad = |detail: String, suggestions: Vec<String>| BankError::BadInput {
        what: "smem",
        detail,
        suggestions,
    };
    if class_names().any(|c| c == class) {
        let g = Gluon::parse(t).map_err(|e| bad(e.to_string(), Vec::new()))?;
        if !g.is_shared() {
            return Err(bad(
                format!("{class} is a register layout, not a shared-memory layout"),
                vec!["NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16)".into()],
            ));
        }
        let shape = match (&a.shape, g.own_shape()) {
            (Some(s), _) => s
                .split(',')
                .map(|x| x.trim().parse::<u64>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| {
                    bad(
                        format!("--shape `{s}` is not a list of integers"),
                        vec!["64,64".into()],
                    )
                })?,
            (None, Some(s)) => s,
            (None, None) => {
                return Err(bad(
                    format!("{class} needs the tensor shape"),
                    vec![format!("--smem '{t}' --shape 64,64")],
                ))
            }
        };
        let l = g
            .to_linear(&shape)
            .map_err(|e| bad(e.to_string(), Vec::new()))?;
        let (inv, _) = smem_direction(&l)?;
        let named = match inv.to_any_layout() {
            Ok(c) => format!(", which is the CuTe layout {c}"),
            Err(_) => String::new(),
        };
        let dims: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
        let note = format!(
            "read as: Gluon {} over [{}]; its offset map (Triton's to_linear_layout) inverted to coordinates -> offset{named}",
            g.class(),
            dims.join(", ")
        );
        return Ok((Smem::Linear(inv), Some(note)));
    }
    if t.starts_with('{') || t.contains("->") {
        let l = linear_from_text(t)?;
        let (l2, flipped) = smem_direction(&l)?;
        let note = if flipped {
            "read as: a linear layout offset -> coordinates (Triton's direction), inverted to coordinates -> offset"
        } else {
            "read as: a linear layout coordinates -> offset"
        };
        return Ok((Smem::Linear(l2), Some(note.to_string())));
    }
    Ok((parse_smem(t)?, None))
}

fn run_inner(a: &Args) -> Result<String, BankError> {
    let (smem, note) = smem_input(a)?;
    let dtype = parse_dtype(&a.dtype)?;
    let major = parse_major(a.major.as_deref())?;
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
    let agrees = sim.as_ref().map(|s| r.agrees_with(s));
    // A tile no GPU's block can hold (but addressable): answered, with a warning.
    let notes: Vec<_> = tessera::banks::capacity_warning(&smem, dtype)?
        .into_iter()
        .collect();
    if !a.json {
        for n in &notes {
            eprintln!("warning[{}]: {}", n.code, n.message);
        }
    }
    Ok(if a.json {
        report_json(&r, agrees, &notes)
    } else {
        let mut out = note.map(|n| n + "\n").unwrap_or_default();
        out.push_str(&report_text(&smem, &acc, dtype, &r, agrees));
        out
    })
}

fn synth(a: &Args, smem: &Smem, dtype: Dtype, major: Option<Major>) -> Result<String, BankError> {
    let Smem::Plain(base) = smem else {
        return Err(BankError::BadInput {
            what: "smem",
            detail: "--synth starts from a plain layout (the unswizzled tile)".into(),
            suggestions: vec!["(64,64):(64,1)".into()],
        });
    };
    let (writer, reader) = (
        a.writer.as_deref().unwrap_or("tma"),
        a.reader.as_deref().unwrap_or("ldmatrix.x4"),
    );
    let p = Problem {
        base: base.clone(),
        dtype,
        writer: Atom::parse(writer)?,
        writer_major: major,
        reader: Atom::parse(reader)?,
        reader_major: None,
    };
    let s = synthesize(&p)?;
    Ok(if a.json {
        synthesis_json(&s)
    } else {
        synthesis_text(&s, writer, reader, dtype)
    })
}
