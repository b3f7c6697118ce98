//! `tessera tma`: validate a TMA descriptor request against every rule of
//! `cuTensorMapEncodeTiled` and the PTX bulk tensor copy, print the exact descriptor arguments,
//! checked suggestions, and the tiling view with its holes (FTTC).

use serde_json::Value;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use tessera::tma::driver::Agreement;
use tessera::tma::params::{list, parse_sm, parse_u64, Params};
use tessera::tma::{validate, Request};

/// Arguments of `tessera tma`. Arrays are in tensor order (outermost first, the last dimension
/// contiguous), as in `--shape 1024,4096 --box 64,128`; reports use the driver's order too.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Also draw the tensor tiled by boxes (rank 1 or 2) as SVG into this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// A JSON file with the request (keys as the flags: dtype, shape, strides, box,
    /// element_strides, interleave, swizzle, l2, oob, address, align, sm, layout); flags override it.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Element type (required, here or in `--file`): u8 u16 u32 i32 u64 i64 f16 bf16 f32 f64 f32_ftz tf32 tf32_ftz 16u4_align8b
    /// 16u4_align16b 16u6_align16b.
    #[arg(long)]
    pub dtype: Option<String>,
    /// Tensor shape, outermost first, e.g. `1024,4096`.
    #[arg(long)]
    pub shape: Option<String>,
    /// Strides in elements, outermost first (default: contiguous row-major).
    #[arg(long)]
    pub strides: Option<String>,
    /// A Tessera layout instead of shape/strides: mode 0 is the innermost (driver) dimension;
    /// `--box` is then given in mode order too.
    #[arg(long)]
    pub layout: Option<String>,
    /// Box sizes, outermost first.
    #[arg(long = "box")]
    pub box_dims: Option<String>,
    /// Element strides, outermost first (default all 1).
    #[arg(long)]
    pub element_strides: Option<String>,
    /// Interleave: none, 16B, 32B.
    #[arg(long)]
    pub interleave: Option<String>,
    /// Swizzle: none, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B.
    #[arg(long)]
    pub swizzle: Option<String>,
    /// L2 promotion: none, 64B, 128B, 256B.
    #[arg(long)]
    pub l2: Option<String>,
    /// Out-of-bound fill: none (zero) or nan (NAN_REQUEST_ZERO_FMA).
    #[arg(long)]
    pub oob: Option<String>,
    /// The exact global address (decimal or 0x hex).
    #[arg(long)]
    pub address: Option<String>,
    /// Only the known alignment of the global address, in bytes: a power of two (default 256, as
    /// cudaMalloc; below 16 the driver's alignment rule refuses the descriptor).
    #[arg(long)]
    pub align: Option<u64>,
    /// Target architecture with TMA, as `sm90`, `sm_90a`, `90`, `9.0` or `sm_100f` (sm_90,
    /// sm_100, sm_101, sm_103, sm_110, sm_120 or sm_121; default sm_90).
    #[arg(long)]
    pub sm: Option<String>,
    /// The shared-memory layout the consumer expects (e.g.
    /// `tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(64,64))`), one mode per box dimension in
    /// `--box` order: checked to equal, as a function, the box TMA writes with `--swizzle`.
    #[arg(long, value_name = "LAYOUT")]
    pub smem: Option<String>,
    /// A fact about the names in a symbolic `--shape` / `--strides` (`K % 8 == 0`, `M >= 128`);
    /// repeatable. Names in the shape or strides (or any `--assume`) check every rule that reads
    /// them symbolically: proved, refuted with a witness, or a runtime guard (docs/symbolic.md).
    #[arg(long, value_name = "FACT")]
    pub assume: Vec<String>,
    /// Print JSON instead of the readable report.
    #[arg(long)]
    pub json: bool,
    /// Compare with recorded driver verdicts (the format written by tools/tma_driver_check) and
    /// print the agreement table instead of one report.
    #[arg(long, value_name = "FILE")]
    pub driver_cases: Option<PathBuf>,
}

use crate::exit::fail;

fn number(v: &Value) -> Result<u64, String> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .ok_or_else(|| format!("{n} is not a non-negative integer")),
        Value::String(s) => parse_u64(s),
        other => Err(format!("{other} is not a number")),
    }
}

fn from_json(v: &Value) -> Result<Params, String> {
    let obj = v.as_object().ok_or("the file must hold a JSON object")?;
    let mut r = Params::default();
    let arr = |x: &Value| -> Result<Vec<u64>, String> {
        match x {
            Value::Array(a) => a.iter().map(number).collect(),
            Value::String(s) => list(s),
            other => Err(format!("{other} is not an array")),
        }
    };
    let text = |x: &Value| -> Result<String, String> {
        match x {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            other => Err(format!("{other} is not a string")),
        }
    };
    let mut seen = std::collections::HashMap::new();
    for (k, x) in obj {
        // Two spellings of one key (`box` and `box_dims`) are a repeated key too.
        let canonical = match k.as_str() {
            "data_type" => "dtype",
            "box_dims" => "box",
            "l2_promotion" => "l2",
            "oob_fill" => "oob",
            other => other,
        };
        if let Some(first) = seen.insert(canonical, k.as_str()) {
            return Err(format!("key `{k}` repeats `{first}` (the same field)"));
        }
        match k.as_str() {
            "dtype" | "data_type" => r.dtype = Some(text(x)?),
            "shape" => r.shape = Some(arr(x)?),
            "strides" => r.strides = Some(arr(x)?),
            "layout" => r.layout = Some(text(x)?),
            "box" | "box_dims" => r.box_dims = Some(arr(x)?),
            "element_strides" => r.element_strides = Some(arr(x)?),
            "interleave" => r.interleave = Some(text(x)?),
            "swizzle" => r.swizzle = Some(text(x)?),
            "l2" | "l2_promotion" => r.l2 = Some(text(x)?),
            "oob" | "oob_fill" => r.oob = Some(text(x)?),
            "address" => r.address = Some(number(x)?),
            "align" => r.align = Some(number(x)?),
            "sm" => r.sm = Some(parse_sm(&text(x)?).map_err(|(_, m)| m)?),
            other => return Err(format!("unknown key `{other}`")),
        }
    }
    Ok(r)
}

fn build(a: &Args) -> Result<Request, (String, String)> {
    let bad = |what: &str, m: String| ("bad_argument".to_string(), format!("{what}: {m}"));
    let mut raw = match &a.file {
        Some(p) => {
            let text = crate::exit::read_file(p).map_err(|(c, m)| (c.to_string(), m))?;
            let bad = |e: String| ("bad_json".to_string(), format!("{}: {e}", p.display()));
            crate::strict::object(&text).map_err(bad)?;
            crate::strict::integers(&text).map_err(bad)?;
            let v: Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
            from_json(&v).map_err(|m| ("bad_json".to_string(), format!("{}: {m}", p.display())))?
        }
        None => Params::default(),
    };
    if let Some(x) = &a.dtype {
        raw.dtype = Some(x.clone());
    }
    if let Some(x) = &a.shape {
        raw.shape = Some(list(x).map_err(|m| bad("--shape", m))?);
    }
    if let Some(x) = &a.strides {
        raw.strides = Some(list(x).map_err(|m| bad("--strides", m))?);
    }
    if let Some(x) = &a.layout {
        raw.layout = Some(x.clone());
    }
    if let Some(x) = &a.box_dims {
        raw.box_dims = Some(list(x).map_err(|m| bad("--box", m))?);
    }
    if let Some(x) = &a.element_strides {
        raw.element_strides = Some(list(x).map_err(|m| bad("--element-strides", m))?);
    }
    for (dst, src) in [
        (&mut raw.interleave, &a.interleave),
        (&mut raw.swizzle, &a.swizzle),
        (&mut raw.l2, &a.l2),
        (&mut raw.oob, &a.oob),
    ] {
        if let Some(x) = src {
            *dst = Some(x.clone());
        }
    }
    if let Some(x) = &a.address {
        raw.address = Some(parse_u64(x).map_err(|m| bad("--address", m))?);
    }
    if a.align.is_some() {
        raw.align = a.align;
    }
    if let Some(x) = &a.sm {
        raw.sm = Some(parse_sm(x).map_err(|(c, m)| (c, format!("--sm: {m}")))?);
    }
    raw.request()
}

pub use tessera::tma::wire::to_json;

/// A request from a JSON object with the keys of `--file` (what `tessera batch` reads).
///
/// Pre: none. Post: `Err((code, message))` with `bad_json` or `bad_argument`. Example:
/// `{"dtype":"f16","shape":[64,64],"box":[64,64]}` is a valid request.
pub fn request_from_json(v: &Value) -> Result<Request, (String, String)> {
    from_json(v)
        .map_err(|m| ("bad_json".to_string(), m))?
        .request()
}

fn driver_cases(path: &std::path::Path) -> ExitCode {
    let mut tally = Agreement::default();
    // Streamed: the case files hold hundreds of thousands of lines.
    if let Err((c, m)) = crate::exit::for_each_line(path, |line| tally.add(line)) {
        return fail(c, m);
    }
    let _ = std::io::stdout().lock().write_all(tally.text().as_bytes());
    if tally.all_agree() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Runs `tessera tma`.
pub fn run(a: Args) -> ExitCode {
    if let Some(p) = &a.driver_cases {
        return driver_cases(p);
    }
    let named = |x: &Option<String>| {
        x.as_deref()
            .is_some_and(|t| t.bytes().any(|b| b.is_ascii_alphabetic() || b == b'_'))
    };
    if !a.assume.is_empty() || named(&a.shape) || named(&a.strides) {
        return symbolic(a);
    }
    let r = match build(&a) {
        Ok(r) => r,
        Err((code, m)) => return fail(&code, m),
    };
    let rep = validate(&r);
    if let Some(path) = &a.svg {
        let tiling = tessera::render::TmaTiling {
            shape: r
                .shape
                .iter()
                .map(|&v| i64::try_from(v).unwrap_or(i64::MAX))
                .collect(),
            box_shape: r
                .box_dims
                .iter()
                .map(|&v| i64::try_from(v).unwrap_or(i64::MAX))
                .collect(),
            element_strides: r
                .element_strides
                .iter()
                .map(|&v| i64::try_from(v).unwrap_or(i64::MAX))
                .collect(),
        };
        let picture = tessera::render::tma_svg(&tiling).map_err(|e| e.to_string());
        if let Err(m) = picture.and_then(|p| std::fs::write(path, p.svg).map_err(|e| e.to_string()))
        {
            return fail("svg", m);
        }
    }
    let text = if a.json {
        let mut s = serde_json::to_string_pretty(&to_json(&rep)).unwrap_or_default();
        s.push('\n');
        s
    } else {
        tessera::tma::report::text(&rep)
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    if let Some(code) = smem_check(&r, a.smem.as_deref()) {
        return code;
    }
    if rep.valid() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Splits at top-level commas (not inside parentheses).
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    out.push(cur);
    out
}

/// `tessera tma` with runtime dimensions or strides: every rule that reads them proved, refuted
/// with a witness, or a runtime guard; the other rules as for integers.
fn symbolic(mut a: Args) -> ExitCode {
    use tessera::symbolic::{parse_expr, show_env, Facts, Poly, Syntax};
    use tessera::tma::symbolic::{check, runtime_guards, RuleVerdict, SymRequest};
    if a.svg.is_some() || a.layout.is_some() || a.file.is_some() {
        return fail(
            "bad_argument",
            "a symbolic --shape/--strides takes no --svg, --layout or --file",
        );
    }
    let Some(shape_text) = a.shape.take() else {
        return fail("bad_argument", "a symbolic request needs --shape");
    };
    let parse = |t: &str, what: &str| -> Result<Vec<Poly>, ExitCode> {
        split_top(t)
            .iter()
            .map(|x| parse_expr(x.trim()).map_err(|e| fail(e.code(), format!("{what}: {e}"))))
            .collect()
    };
    let shape = match parse(&shape_text, "--shape") {
        Ok(v) => v,
        Err(c) => return c,
    };
    let strides = match a.strides.take() {
        Some(t) => match parse(&t, "--strides") {
            Ok(v) => v,
            Err(c) => return c,
        },
        None => {
            // Contiguous row-major.
            let mut v = vec![Poly::constant(1); shape.len()];
            for i in (0..shape.len().saturating_sub(1)).rev() {
                v[i] = match v[i + 1].mul(&shape[i + 1]) {
                    Ok(p) => p,
                    Err(e) => return fail(e.code(), e),
                };
            }
            v
        }
    };
    // The other fields as for an integer request (the shape and strides are placeholders).
    a.shape = Some(vec!["1"; shape.len()].join(","));
    let base = match build(&a) {
        Ok(r) => r,
        Err((code, m)) => return fail(&code, m),
    };
    let facts = match Facts::parse(&a.assume) {
        Ok(f) => f,
        Err(e) => return fail(e.code(), e),
    };
    let mut names = Vec::new();
    for p in shape.iter().chain(&strides) {
        p.names(&mut names);
    }
    if let Err(e) = facts.check_known(&names) {
        return fail(e.code(), e);
    }
    let show = |v: &[Poly]| {
        v.iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut json = serde_json::json!({
        "request": {
            "dtype": a.dtype.as_deref().unwrap_or(""),
            "shape": shape.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            "strides": strides.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            "box": base.box_dims,
            "swizzle": base.swizzle.name(),
            "sm": base.sm,
            "assume": a.assume,
        },
    });
    let mut text = format!(
        "TMA request: {} tensor [{}], strides [{}] elements, box {:?}, swizzle {}, sm_{}\n",
        a.dtype.as_deref().unwrap_or(""),
        show(&shape),
        show(&strides),
        base.box_dims,
        base.swizzle.name(),
        base.sm
    );
    if !a.assume.is_empty() {
        text.push_str(&format!("  assuming {}\n", a.assume.join(", ")));
    }
    text.push_str("  (rules in the driver's numbering: dimension 0 is the innermost)\n\n");
    let smem_request = base.clone();
    let r = SymRequest {
        base,
        shape,
        strides,
    };
    let checks = match check(&r, &facts) {
        Ok(c) => c,
        Err(e) => return fail(e.code(), e),
    };
    let pred_json = |p: &tessera::symbolic::Pred| {
        serde_json::json!({
            "guard": p.to_string(),
            "cpp": p.render(Syntax::Cpp),
            "python": p.render(Syntax::Python),
        })
    };
    let mut rules = Vec::new();
    for c in &checks {
        let mut rule = serde_json::json!({
            "code": c.code,
            "severity": if c.severity == tessera::tma::Severity::Error { "error" } else { "warning" },
            "condition": c.condition,
        });
        match &c.verdict {
            RuleVerdict::Proved => rule["verdict"] = "proved".into(),
            RuleVerdict::Refuted(w) => {
                rule["verdict"] = "refuted".into();
                rule["witness"] = serde_json::json!(w);
                if let Some(m) = &c.message {
                    rule["message"] = m.clone().into();
                }
            }
            RuleVerdict::Guard(g) => {
                rule["verdict"] = "guard".into();
                rule["guards"] = g.iter().map(pred_json).collect::<Vec<_>>().into();
            }
        }
        rules.push(rule);
        let sev = if c.severity == tessera::tma::Severity::Error {
            ""
        } else {
            " (warning)"
        };
        let line = match &c.verdict {
            RuleVerdict::Proved => format!("proved   {}{sev}  {}", c.code, c.condition),
            RuleVerdict::Refuted(w) => {
                let why = c.message.clone().unwrap_or_else(|| c.condition.clone());
                if w.is_empty() {
                    format!("refuted  {}{sev}  {why}", c.code)
                } else {
                    format!("refuted  {}{sev}  {why}, e.g. {}", c.code, show_env(w))
                }
            }
            RuleVerdict::Guard(g) => format!(
                "guard    {}{sev}  {}: {}",
                c.code,
                c.condition,
                g.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(" && ")
            ),
        };
        text.push_str(&line);
        text.push('\n');
    }
    let verdict = runtime_guards(&checks);
    let ok = verdict.is_some();
    json["rules"] = rules.into();
    match &verdict {
        None => json["valid"] = "never".into(),
        Some(g) if g.is_empty() => json["valid"] = "always".into(),
        Some(g) => {
            json["valid"] = "guarded".into();
            json["guards"] = g.iter().map(pred_json).collect::<Vec<_>>().into();
            json["can_implement"] = g
                .iter()
                .map(|p| p.render(Syntax::Cpp))
                .collect::<Vec<_>>()
                .join(" && ")
                .into();
        }
    }
    text.push('\n');
    text.push_str(&match verdict {
        None => "invalid: an error-level rule fails for every size the facts allow\n".into(),
        Some(g) if g.is_empty() => "valid for every size the facts allow\n".into(),
        Some(g) => format!(
            "valid if {}\ncan_implement: {}\n",
            g.iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" && "),
            g.iter()
                .map(|p| p.render(Syntax::Cpp))
                .collect::<Vec<_>>()
                .join(" && ")
        ),
    });
    if a.json {
        text = serde_json::to_string_pretty(&json).unwrap_or_default();
        text.push('\n');
    }
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    // The shared-memory check reads only the box, the type and the swizzle: as for integers.
    if let Some(code) = smem_check(&smem_request, a.smem.as_deref()) {
        return code;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `--smem`: prints the check of the consumer layout `smem` against the box of `r`; the exit
/// code when it refuses it (1) or cannot read it, `None` when it fits or was not asked for.
fn smem_check(r: &Request, smem: Option<&str>) -> Option<ExitCode> {
    match tessera::tma::smem::text(r, smem?) {
        Ok((t, fits)) => {
            let _ = std::io::stdout().lock().write_all(t.as_bytes());
            (!fits).then(|| ExitCode::from(1))
        }
        Err(e) => Some(fail(e.code(), e)),
    }
}
