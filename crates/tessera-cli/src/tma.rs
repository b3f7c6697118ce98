//! `tessera tma`: validate a TMA descriptor request against every rule of
//! `cuTensorMapEncodeTiled` and the PTX bulk tensor copy, print the exact descriptor arguments,
//! checked suggestions, and the tiling view with its holes (FTTC).

use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use tessera::tma::{
    tiling::HoleKind, validate, Address, DataType, Interleave, L2Promotion, OobFill, Report,
    Request, Severity, Swizzle,
};

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
    /// Target compute capability with TMA: 90, 100, 101, 103, 110, 120 or 121 (default 90).
    #[arg(long)]
    pub sm: Option<u32>,
    /// The shared-memory layout the consumer expects (e.g.
    /// `tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(64,64))`), one mode per box dimension in
    /// `--box` order: checked to equal, as a function, the box TMA writes with `--swizzle`.
    #[arg(long, value_name = "LAYOUT")]
    pub smem: Option<String>,
    /// Print JSON instead of the readable report.
    #[arg(long)]
    pub json: bool,
    /// Compare with recorded driver verdicts (the format written by tools/tma_driver_check) and
    /// print the agreement table instead of one report.
    #[arg(long, value_name = "FILE")]
    pub driver_cases: Option<PathBuf>,
}

use crate::exit::fail;

/// Compute capabilities (`--sm`) whose GPUs have TMA: Hopper, Blackwell and Blackwell consumer.
pub const TMA_SMS: &[u32] = &[90, 100, 101, 103, 110, 120, 121];

fn list(s: &str) -> Result<Vec<u64>, String> {
    s.trim()
        .trim_start_matches(['[', '('])
        .trim_end_matches([']', ')'])
        .split(',')
        .filter(|x| !x.trim().is_empty())
        .map(|x| {
            x.trim()
                .parse::<u64>()
                .map_err(|_| format!("`{}` is not a non-negative integer", x.trim()))
        })
        .collect()
}

fn number(v: &Value) -> Result<u64, String> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .ok_or_else(|| format!("{n} is not a non-negative integer")),
        Value::String(s) => parse_u64(s),
        other => Err(format!("{other} is not a number")),
    }
}

fn parse_u64(s: &str) -> Result<u64, String> {
    let t = s.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse::<u64>(),
    }
    .map_err(|_| format!("`{t}` is not a non-negative integer"))
}

/// The request's parameters as text (from the file, overridden by flags).
#[derive(Default)]
struct Raw {
    dtype: Option<String>,
    shape: Option<Vec<u64>>,
    strides: Option<Vec<u64>>,
    layout: Option<String>,
    box_dims: Option<Vec<u64>>,
    element_strides: Option<Vec<u64>>,
    interleave: Option<String>,
    swizzle: Option<String>,
    l2: Option<String>,
    oob: Option<String>,
    address: Option<u64>,
    align: Option<u64>,
    sm: Option<u32>,
}

fn from_json(v: &Value) -> Result<Raw, String> {
    let obj = v.as_object().ok_or("the file must hold a JSON object")?;
    let mut r = Raw::default();
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
    for (k, x) in obj {
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
            "sm" => {
                r.sm = Some(
                    u32::try_from(number(x)?)
                        .map_err(|_| "sm does not fit in 32 bits".to_string())?,
                )
            }
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
            let v: Value = serde_json::from_str(&text)
                .map_err(|e| ("bad_json".to_string(), format!("{}: {e}", p.display())))?;
            from_json(&v).map_err(|m| ("bad_json".to_string(), format!("{}: {m}", p.display())))?
        }
        None => Raw::default(),
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
    if a.sm.is_some() {
        raw.sm = a.sm;
    }
    finish(raw)
}

/// A request from a JSON object with the keys of `--file` (what `tessera batch` reads).
///
/// Pre: none. Post: `Err((code, message))` with `bad_json` or `bad_argument`. Example:
/// `{"dtype":"f16","shape":[64,64],"box":[64,64]}` is a valid request.
pub fn request_from_json(v: &Value) -> Result<Request, (String, String)> {
    finish(from_json(v).map_err(|m| ("bad_json".to_string(), m))?)
}

fn finish(raw: Raw) -> Result<Request, (String, String)> {
    let bad = |what: &str, m: String| ("bad_argument".to_string(), format!("{what}: {m}"));
    if let Some(al) = raw.align {
        if !al.is_power_of_two() {
            return Err(bad(
                "align",
                format!("{al} is not a power of two (the known alignment of the address, in bytes, e.g. 16 or 256)"),
            ));
        }
    }
    if let Some(sm) = raw.sm {
        if !TMA_SMS.contains(&sm) {
            return Err(bad(
                "sm",
                format!("{sm} is not a compute capability with TMA (one of {TMA_SMS:?})"),
            ));
        }
    }
    let dname = raw.dtype.clone().ok_or_else(|| {
        bad(
            "dtype",
            "missing: give the element type explicitly (e.g. --dtype f16)".into(),
        )
    })?;
    let dtype =
        DataType::parse(&dname).ok_or_else(|| bad("dtype", format!("unknown `{dname}`")))?;
    let box_dims = raw
        .box_dims
        .clone()
        .ok_or_else(|| bad("box", "missing (e.g. --box 64,128)".into()))?;
    let mut r = match (&raw.layout, &raw.shape) {
        (Some(l), _) => {
            let layout: tessera::Layout = l
                .parse()
                .map_err(|e: tessera::Error| bad("layout", e.to_string()))?;
            Request::from_layout(dtype, &layout, &box_dims)
                .map_err(|e| (e.code().to_string(), e.to_string()))?
        }
        (None, Some(shape)) => {
            let mut r = Request::new(dtype, shape, &box_dims);
            if let Some(st) = &raw.strides {
                r.strides = st.clone();
            }
            r
        }
        (None, None) => return Err(bad("shape", "missing (e.g. --shape 1024,4096)".into())),
    };
    if let Some(es) = &raw.element_strides {
        r.element_strides = es.clone();
    }
    if let Some(s) = &raw.interleave {
        r.interleave =
            Interleave::parse(s).ok_or_else(|| bad("interleave", format!("unknown `{s}`")))?;
    }
    if let Some(s) = &raw.swizzle {
        r.swizzle = Swizzle::parse(s).ok_or_else(|| bad("swizzle", format!("unknown `{s}`")))?;
    }
    if let Some(s) = &raw.l2 {
        r.l2_promotion =
            L2Promotion::parse(s).ok_or_else(|| bad("l2", format!("unknown `{s}`")))?;
    }
    if let Some(s) = &raw.oob {
        r.oob_fill = OobFill::parse(s).ok_or_else(|| bad("oob", format!("unknown `{s}`")))?;
    }
    r.address = match (raw.address, raw.align) {
        (Some(a), _) => Address::Exact(a),
        (None, Some(al)) => Address::Aligned(al),
        (None, None) => Address::Aligned(256),
    };
    if let Some(sm) = raw.sm {
        r.sm = sm;
    }
    Ok(r)
}

/// The request as JSON (tensor order), in the file format `--file` reads.
pub fn request_json(r: &Request) -> Value {
    let mut m = Map::new();
    m.insert("dtype".into(), json!(r.dtype.name()));
    m.insert("shape".into(), json!(r.shape));
    m.insert("strides".into(), json!(r.strides));
    m.insert("box".into(), json!(r.box_dims));
    m.insert("element_strides".into(), json!(r.element_strides));
    m.insert("interleave".into(), json!(r.interleave.name()));
    m.insert("swizzle".into(), json!(r.swizzle.name()));
    m.insert(
        "l2".into(),
        json!(r
            .l2_promotion
            .cu_name()
            .trim_start_matches("CU_TENSOR_MAP_L2_PROMOTION_")),
    );
    m.insert(
        "oob".into(),
        json!(match r.oob_fill {
            OobFill::None => "none",
            OobFill::NanRequestZeroFma => "nan",
        }),
    );
    match r.address {
        Address::Exact(a) => m.insert("address".into(), json!(a)),
        Address::Aligned(a) => m.insert("align".into(), json!(a)),
    };
    m.insert("sm".into(), json!(r.sm));
    Value::Object(m)
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The report as JSON (what `--json` prints).
pub fn to_json(rep: &Report) -> Value {
    let findings: Vec<Value> = rep
        .findings
        .iter()
        .map(|f| {
            json!({
                "code": f.code(),
                "severity": severity(f.severity),
                "source": f.source().cite(),
                "message": f.error.to_string(),
                "suggestions": f.suggestions.iter().map(|s| json!({
                    "text": s.text, "valid": s.valid, "request": request_json(&s.request),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let descriptor = rep.descriptor.as_ref().map(|d| {
        json!({
            "tensorDataType": d.data_type.cu_name(),
            "tensorDataTypeValue": d.data_type.cu_value(),
            "tensorRank": d.rank,
            "globalAddress": d.global_address,
            "globalDim": d.global_dim,
            "globalStrides": d.global_strides,
            "boxDim": d.box_dim,
            "elementStrides": d.element_strides,
            "interleave": d.interleave.cu_name(),
            "swizzle": d.swizzle.cu_name(),
            "l2Promotion": d.l2_promotion.cu_name(),
            "oobFill": d.oob_fill.cu_name(),
            "copyBytes": d.copy_bytes,
            "smemAlignment": d.smem_alignment,
        })
    });
    let tiling = rep.tiling.as_ref().map(|t| {
        json!({
            "tensor": t.tensor.to_string(),
            "boxes": t.boxes.as_ref().map(|l| l.to_string()),
            "tiles": t.tiles.as_ref().map(|l| l.to_string()),
            "exact": t.exact,
            "all_holes_zero": t.all_holes_zero,
            "strong_correctness": t.strong_correctness,
            "notes": t.notes,
            "dims": t.dims.iter().map(|d| json!({
                "dim": d.dim, "size": d.size, "box": d.box_size, "element_stride": d.element_stride,
                "boxes": d.boxes, "tile": d.tile, "boxing_holes": d.boxing_holes,
                "striding_holes": d.striding_holes, "data_filled": d.data_filled,
                "zero_filled": d.zero_filled, "fttc": d.fttc,
                "sites": d.sites.iter().map(|h| json!({
                    "kind": match h.kind { HoleKind::Boxing => "boxing", HoleKind::Striding => "striding" },
                    "box": h.box_number, "offset": h.offset, "coordinate": h.coordinate,
                    "zero_filled": h.zero_filled,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    });
    json!({
        "valid": rep.valid(),
        "request": request_json(&rep.request),
        "findings": findings,
        "descriptor": descriptor,
        "tiling": tiling,
        "tiling_error": rep.tiling_error.as_ref().map(|e| e.to_string()),
        "combined": rep.combined.as_ref().map(|c| json!({
            "text": c.text, "valid": c.valid, "request": request_json(&c.request),
        })),
    })
}

fn join(v: &[u64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The readable report.
pub fn render(rep: &Report) -> String {
    let r = &rep.request;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "TMA request: {} tensor [{}], strides [{}] elements, box [{}], element strides [{}]",
        r.dtype.name(),
        join(&r.shape),
        join(&r.strides),
        join(&r.box_dims),
        join(&r.element_strides)
    );
    let addr = match r.address {
        Address::Exact(a) => format!("address {a:#x}"),
        Address::Aligned(a) => format!("address aligned to {a} bytes"),
    };
    let _ = writeln!(
        o,
        "  interleave {}, swizzle {}, {}, {}, {addr}, sm_{}",
        r.interleave.name(),
        r.swizzle.name(),
        r.l2_promotion
            .cu_name()
            .trim_start_matches("CU_TENSOR_MAP_"),
        r.oob_fill.cu_name().trim_start_matches("CU_TENSOR_MAP_"),
        r.sm
    );
    let _ = writeln!(
        o,
        "  (reports number dimensions as the driver does: dimension 0 is the innermost, the last of the shape)"
    );
    let _ = writeln!(o);
    for f in &rep.findings {
        let _ = writeln!(
            o,
            "{}[{}] {}\n  source: {}",
            severity(f.severity),
            f.code(),
            f.error,
            f.source().cite()
        );
        for s in &f.suggestions {
            let _ = writeln!(
                o,
                "  suggestion (checked{}): {} -> shape [{}], strides [{}], box [{}], element strides [{}], swizzle {}",
                if s.valid { ", valid" } else { ", fixes this rule" },
                s.text,
                join(&s.request.shape),
                join(&s.request.strides),
                join(&s.request.box_dims),
                join(&s.request.element_strides),
                s.request.swizzle.name()
            );
        }
    }
    if let Some(c) = &rep.combined {
        let _ = writeln!(
            o,
            "all errors fixed together (checked, valid): {} -> shape [{}], strides [{}], box [{}], element strides [{}], swizzle {}",
            c.text,
            join(&c.request.shape),
            join(&c.request.strides),
            join(&c.request.box_dims),
            join(&c.request.element_strides),
            c.request.swizzle.name()
        );
    }
    if !rep.findings.is_empty() {
        let _ = writeln!(o);
    }
    match &rep.descriptor {
        Some(d) => {
            let _ = writeln!(o, "valid: cuTensorMapEncodeTiled(");
            let _ = writeln!(
                o,
                "  tensorDataType = {} ({}),",
                d.data_type.cu_name(),
                d.data_type.cu_value()
            );
            let _ = writeln!(o, "  tensorRank     = {},", d.rank);
            let _ = writeln!(
                o,
                "  globalAddress  = {},",
                d.global_address
                    .map_or_else(|| "(base pointer)".to_string(), |a| format!("{a:#x}"))
            );
            let _ = writeln!(o, "  globalDim      = {{{}}},", join(&d.global_dim));
            let _ = writeln!(
                o,
                "  globalStrides  = {{{}}},  // bytes, dimensions 1..",
                join(&d.global_strides)
            );
            let _ = writeln!(o, "  boxDim         = {{{}}},", join(&d.box_dim));
            let _ = writeln!(o, "  elementStrides = {{{}}},", join(&d.element_strides));
            let _ = writeln!(o, "  interleave     = {},", d.interleave.cu_name());
            let _ = writeln!(o, "  swizzle        = {},", d.swizzle.cu_name());
            let _ = writeln!(o, "  l2Promotion    = {},", d.l2_promotion.cu_name());
            let _ = writeln!(o, "  oobFill        = {})", d.oob_fill.cu_name());
            let _ = writeln!(
                o,
                "one copy: {} bytes of shared memory, aligned to {} bytes",
                d.copy_bytes, d.smem_alignment
            );
        }
        None => {
            let n = rep.errors().count();
            let _ = writeln!(
                o,
                "invalid: the driver refuses this descriptor (CUDA_ERROR_INVALID_VALUE): {n} error{}",
                if n == 1 { "" } else { "s" }
            );
        }
    }
    let _ = writeln!(o);
    match (&rep.tiling, &rep.tiling_error) {
        (Some(t), _) => {
            let _ = writeln!(o, "tiling view (driver order, elements):");
            let _ = writeln!(o, "  tensor {}", t.tensor);
            if let Some(b) = &t.boxes {
                let _ = writeln!(o, "  boxes  {b}   ((box modes), (rest modes))");
            }
            if let Some(b) = &t.tiles {
                if t.dims.iter().any(|d| d.element_stride > 1) {
                    let _ = writeln!(o, "  tiles  {b}   ((strided tile modes), (rest modes))");
                }
            }
            for n in &t.notes {
                let _ = writeln!(o, "  note: {n}");
            }
            let _ = writeln!(
                o,
                "  {}",
                if t.exact {
                    "exact: the boxes tile the tensor with no hole"
                } else {
                    "not exact: holes"
                }
            );
            for d in &t.dims {
                let _ = write!(
                    o,
                    "  dim {}: S={} B={} e={}: {} box{}, {} element{} per copy",
                    d.dim,
                    d.size,
                    d.box_size,
                    d.element_stride,
                    d.boxes,
                    if d.boxes == 1 { "" } else { "es" },
                    d.tile,
                    if d.tile == 1 { "" } else { "s" }
                );
                if d.boxing_holes + d.striding_holes == 0 {
                    let _ = writeln!(o, ", no holes");
                    continue;
                }
                let _ = writeln!(o);
                if d.boxing_holes > 0 {
                    let _ = writeln!(
                        o,
                        "    boxing split {} by {}: {} hole{} at coordinates {}..{} (last box), zero-filled by the bound check",
                        d.size,
                        d.box_size,
                        d.boxing_holes,
                        if d.boxing_holes == 1 { "" } else { "s" },
                        d.size,
                        d.size + d.boxing_holes - 1
                    );
                }
                if d.striding_holes > 0 {
                    let _ = writeln!(
                        o,
                        "    striding split {} by {}: {} hole{} (box offsets {}..{} of every box): {} filled with in-bound data, {} zero-filled",
                        d.box_size,
                        d.element_stride,
                        d.striding_holes,
                        if d.striding_holes == 1 { "" } else { "s" },
                        d.box_size,
                        d.tile * d.element_stride - 1,
                        d.data_filled,
                        d.zero_filled
                    );
                    let shown: Vec<String> = d
                        .sites
                        .iter()
                        .filter(|h| h.kind == HoleKind::Striding)
                        .map(|h| {
                            format!(
                                "box {} offset {} -> coordinate {} {}",
                                h.box_number,
                                h.offset,
                                h.coordinate,
                                if h.zero_filled { "(zero)" } else { "(data)" }
                            )
                        })
                        .collect();
                    let _ = writeln!(o, "      {}", shown.join("; "));
                }
                if d.fttc {
                    let _ = writeln!(
                        o,
                        "    FTTC: e={} < B={} < S={} and {} does not divide {}: strong correctness is impossible",
                        d.element_stride, d.box_size, d.size, d.element_stride, d.box_size
                    );
                }
            }
            let _ = writeln!(
                o,
                "  {}",
                if t.all_holes_zero {
                    "every hole is zero-filled by the hardware: strongly correct for sum reductions with no predicate"
                } else if t.strong_correctness {
                    "some holes hold in-bound data, but the FTTC condition fails in every dimension: strong correctness is achievable by predicating the element-stride loop"
                } else {
                    "FTTC: strong correctness is impossible (holes hold in-bound data the hardware cannot be told to skip); only weak correctness"
                }
            );
        }
        (None, Some(e)) => {
            let _ = writeln!(o, "tiling view: unavailable ({e})");
        }
        (None, None) => {}
    }
    o
}

/// One recorded case: `t R il sw l2 of addr : dims : strides(bytes, dims 1..) : box : es : res`
/// (driver order), as printed by `tools/tma_driver_check/tma_driver_check.c`.
fn parse_case(line: &str) -> Option<(Request, i64)> {
    let parts: Vec<&str> = line.split(':').collect();
    if parts.len() != 6 {
        return None;
    }
    let nums = |s: &str| -> Option<Vec<u64>> {
        s.split_whitespace()
            .map(|x| x.parse::<u64>().ok())
            .collect()
    };
    let head = nums(parts[0])?;
    if head.len() != 7 {
        return None;
    }
    let dtype = *DataType::all().get(usize::try_from(head[0]).ok()?)?;
    let il = [Interleave::None, Interleave::B16, Interleave::B32];
    let l2 = [
        L2Promotion::None,
        L2Promotion::B64,
        L2Promotion::B128,
        L2Promotion::B256,
    ];
    let g = nums(parts[1])?;
    let st = nums(parts[2])?;
    let b = nums(parts[3])?;
    let e = nums(parts[4])?;
    let res: i64 = parts[5].trim().parse().ok()?;
    let elem = dtype.mem_bits() / 8;
    if elem == 0 {
        return None;
    }
    let mut strides: Vec<u64> = vec![1];
    for x in &st {
        strides.push(x / elem);
    }
    let rev = |mut v: Vec<u64>| {
        v.reverse();
        v
    };
    let mut r = Request::new(dtype, &rev(g), &rev(b));
    r.strides = rev(strides);
    if r.strides.len() != r.shape.len() {
        r.strides.truncate(r.shape.len());
    }
    r.element_strides = rev(e);
    r.interleave = *il.get(usize::try_from(head[2]).ok()?)?;
    r.swizzle = *Swizzle::all().get(usize::try_from(head[3]).ok()?)?;
    r.l2_promotion = *l2.get(usize::try_from(head[4]).ok()?)?;
    r.oob_fill = if head[5] == 0 {
        OobFill::None
    } else {
        OobFill::NanRequestZeroFma
    };
    r.address = Address::Exact(head[6]);
    Some((r, res))
}

fn driver_cases(path: &std::path::Path) -> ExitCode {
    let (mut n, mut agree, mut both_ok, mut both_bad) = (0u64, 0u64, 0u64, 0u64);
    let mut only_driver_ok: std::collections::BTreeMap<String, u64> = Default::default();
    let mut only_tessera_ok = 0u64;
    // Refusals the driver and Tessera share where Tessera finds exactly one error: evidence that
    // the driver enforces that rule on its own.
    let mut sole: std::collections::BTreeMap<String, u64> = Default::default();
    let mut examples: Vec<String> = Vec::new();
    let mut skipped = 0u64;
    // Streamed: the case files hold hundreds of thousands of lines.
    let streamed = crate::exit::for_each_line(path, |line| {
        if line.starts_with("driver") {
            return;
        }
        let Some((r, res)) = parse_case(line) else {
            skipped += 1;
            return;
        };
        n += 1;
        let rep = validate(&r);
        let ours = rep.valid();
        let theirs = res == 0;
        if ours == theirs {
            agree += 1;
            if ours {
                both_ok += 1;
            } else {
                both_bad += 1;
                let codes: Vec<&str> = rep.errors().map(|f| f.code()).collect();
                if let [only] = codes.as_slice() {
                    *sole.entry((*only).to_string()).or_default() += 1;
                }
            }
        } else if theirs {
            let codes: Vec<&str> = rep.errors().map(|f| f.code()).collect();
            *only_driver_ok.entry(codes.join("+")).or_default() += 1;
            if examples.len() < 10 {
                examples.push(format!(
                    "driver accepts, tessera refuses ({}): {line}",
                    codes.join("+")
                ));
            }
        } else {
            only_tessera_ok += 1;
            if examples.len() < 10 {
                examples.push(format!("driver refuses ({res}), tessera accepts: {line}"));
            }
        }
    });
    if let Err((c, m)) = streamed {
        return fail(c, m);
    }
    let mut o = String::new();
    let _ = writeln!(o, "| cases | agree | both valid | both invalid | driver only valid | tessera only valid | unparsed |");
    let _ = writeln!(o, "|---|---|---|---|---|---|---|");
    let _ = writeln!(
        o,
        "| {n} | {agree} | {both_ok} | {both_bad} | {} | {only_tessera_ok} | {skipped} |",
        n - agree - only_tessera_ok
    );
    let _ = writeln!(
        o,
        "refused by both with a single error (per rule): {}",
        sole.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (k, v) in &only_driver_ok {
        let _ = writeln!(o, "driver accepts, tessera refuses with {k}: {v}");
    }
    for e in &examples {
        let _ = writeln!(o, "{e}");
    }
    let _ = std::io::stdout().lock().write_all(o.as_bytes());
    if agree == n {
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
        render(&rep)
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    if let Some(smem) = &a.smem {
        match smem_report(&r, smem) {
            Ok((t, ok)) => {
                let _ = std::io::stdout().lock().write_all(t.as_bytes());
                if !ok {
                    return ExitCode::from(1);
                }
            }
            Err(e) => return fail(e.code(), e),
        }
    }
    if rep.valid() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `--smem LAYOUT`: is the box TMA writes with the requested swizzle exactly this layout?
fn smem_report(r: &Request, text: &str) -> Result<(String, bool), tessera::Error> {
    use tessera::tma::smem;
    let want = tessera::notation::eval(text)?
        .to_any_layout()
        .ok_or_else(|| tessera::Error::Type {
            op: "tma --smem".into(),
            position: 1,
            expected: "a layout or a composed layout",
            found: text.to_string(),
        })?;
    let c = smem::check(r.dtype, &r.box_dims, r.swizzle, &want)?;
    let mut out = String::new();
    let _ = writeln!(out, "\nshared memory (--smem):");
    let _ = writeln!(out, "  TMA writes the box as {}", c.written);
    let _ = writeln!(out, "  the consumer expects  {want}");
    let ok = c.mismatch.is_none();
    match &c.mismatch {
        None => {
            let _ = writeln!(
                out,
                "  equal as functions on all {} box elements: the swizzle {} matches",
                r.box_dims.iter().product::<u64>(),
                r.swizzle.name()
            );
        }
        Some((crd, got, exp)) => {
            let _ = writeln!(
                out,
                "error[tma_smem_mismatch] at box coordinate {crd} TMA writes element {got}, the consumer reads {exp}"
            );
            if c.modes_that_match.is_empty() {
                let _ = writeln!(out, "  no TMA swizzle mode writes this layout");
            }
            for m in &c.modes_that_match {
                let _ = writeln!(out, "  suggestion (checked): --swizzle {}", m.name());
            }
        }
    }
    for a in &c.atoms_that_match {
        let _ = writeln!(out, "  atom (checked): {a} is what this descriptor writes");
    }
    Ok((out, ok))
}
