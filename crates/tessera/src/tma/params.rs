//! A [`Request`] from named parameters given as text (the flags of `tessera tma` and the keys of
//! its `--file`), with the checks a caller's input needs before the rules run: a power-of-two
//! alignment, a compute capability with TMA, a known element type, a box, a shape or a layout.

use super::{Address, DataType, Interleave, L2Promotion, OobFill, Request, Swizzle};

/// Parses a list of non-negative integers: `1024,4096`, `[1024, 4096]` or `(1024,4096)`.
///
/// Pre: none. Post: `Err` names the first entry that is not one. Example: `[64, 128]` gives
/// `[64, 128]`.
pub fn list(s: &str) -> Result<Vec<u64>, String> {
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

/// Parses an architecture as [`crate::target::Arch::parse`] reads it (`sm90`, `sm_90a`, `90`,
/// `9.0`, `sm_100f`, …) into the compute capability × 10 a [`Request`] carries.
///
/// Pre: none. Post: `Err((code, message))` with `arch_syntax` (the message gives the column),
/// `unknown_arch` or `arch_suffix`; whether the architecture has TMA is checked by
/// [`Params::request`]. Example: `parse_sm("sm_100f") == Ok(100)`.
///
/// ```
/// use tessera::tma::params::parse_sm;
/// assert_eq!(parse_sm("9.0"), Ok(90));
/// let (code, m) = parse_sm("sm_9x").unwrap_err();
/// assert_eq!(code, "arch_syntax");
/// assert!(m.contains("column 5"), "{m}");
/// ```
pub fn parse_sm(text: &str) -> Result<u32, (String, String)> {
    crate::target::Arch::parse(text)
        .map(|sm| sm.cc)
        .map_err(|e| (e.code().to_string(), e.to_string()))
}

/// Parses a non-negative integer, decimal or `0x` hexadecimal.
///
/// Pre: none. Post: `Err` quotes the text. Example: `0x100` gives 256.
pub fn parse_u64(s: &str) -> Result<u64, String> {
    let t = s.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse::<u64>(),
    }
    .map_err(|_| format!("`{t}` is not a non-negative integer"))
}

/// The request's parameters (from a file, overridden by flags); absent ones take their defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params {
    /// Element type name, e.g. `f16` (required).
    pub dtype: Option<String>,
    /// Tensor shape, outermost first (required unless `layout` is given).
    pub shape: Option<Vec<u64>>,
    /// Strides in elements, outermost first (default: contiguous row-major).
    pub strides: Option<Vec<u64>>,
    /// A Tessera layout instead of shape and strides (mode 0 innermost).
    pub layout: Option<String>,
    /// Box sizes, outermost first (required).
    pub box_dims: Option<Vec<u64>>,
    /// Element strides, outermost first (default all 1).
    pub element_strides: Option<Vec<u64>>,
    /// Interleave name (default none).
    pub interleave: Option<String>,
    /// Swizzle name (default none).
    pub swizzle: Option<String>,
    /// L2 promotion name (default none).
    pub l2: Option<String>,
    /// Out-of-bound fill name (default none).
    pub oob: Option<String>,
    /// The exact global address.
    pub address: Option<u64>,
    /// The known alignment of the global address in bytes (default 256).
    pub align: Option<u64>,
    /// Compute capability (default 90).
    pub sm: Option<u32>,
}

impl Params {
    /// The request, after the input checks (the rules themselves run in [`super::validate`]).
    ///
    /// Pre: none. Post: `Err((code, message))` with `bad_argument`, or the code of the layout's
    /// error when `layout` does not give a request. Example: dtype `f16`, shape `[64, 64]`, box
    /// `[64, 64]` give a request aligned to 256 bytes for sm_90.
    pub fn request(&self) -> Result<Request, (String, String)> {
        let raw = self;
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
            if !crate::target::Arch::of(sm).is_some_and(|a| a.tma()) {
                let tma_sms = crate::target::Arch::tma_numbers();
                return Err(bad(
                    "sm",
                    format!("{sm} is not a compute capability with TMA (one of {tma_sms:?})"),
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
                let layout: crate::Layout = l
                    .parse()
                    .map_err(|e: crate::Error| bad("layout", e.to_string()))?;
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
            r.swizzle =
                Swizzle::parse(s).ok_or_else(|| bad("swizzle", format!("unknown `{s}`")))?;
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
}
