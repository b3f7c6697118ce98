//! `tessera.tma(...)`: a TMA descriptor request checked against the driver's rules, with its
//! tiling view and picture.

use pyo3::prelude::*;

use tessera::tma::{report, Address, DataType, Interleave, L2Promotion, OobFill, Request, Swizzle};

use crate::{raise_coded, raise_kind};

/// `(code, severity, message, [(suggestion, checked_valid)])`.
type FindingTuple = (String, String, String, Vec<(String, bool)>);

/// A checked TMA request: `valid`, the findings (code, severity, message, checked suggestions).
#[pyclass(module = "tessera._tessera", name = "TmaReport", frozen)]
pub struct TmaReport {
    r: report::Report,
}

fn as_i64(v: &[u64]) -> Vec<i64> {
    v.iter()
        .map(|&x| i64::try_from(x).unwrap_or(i64::MAX))
        .collect()
}

#[pymethods]
impl TmaReport {
    /// Whether the driver accepts the descriptor.
    #[getter]
    fn valid(&self) -> bool {
        self.r.valid()
    }
    /// `(code, severity, message, [(suggestion, checked_valid)])` per finding, errors first.
    fn findings(&self) -> Vec<FindingTuple> {
        self.r
            .findings
            .iter()
            .map(|f| {
                (
                    f.code().to_string(),
                    format!("{:?}", f.severity).to_lowercase(),
                    f.error.to_string(),
                    f.suggestions
                        .iter()
                        .map(|s| (s.text.clone(), s.valid))
                        .collect(),
                )
            })
            .collect()
    }
    /// The error codes, in rule order.
    fn errors(&self) -> Vec<String> {
        self.r.errors().map(|f| f.code().to_string()).collect()
    }
    /// The boxes over the tensor (SVG).
    fn svg(&self) -> PyResult<String> {
        let q = &self.r.request;
        let t = tessera::render::TmaTiling {
            shape: as_i64(&q.shape),
            box_shape: as_i64(&q.box_dims),
            element_strides: as_i64(&q.element_strides),
        };
        tessera::render::tma_svg(&t)
            .map(|p| p.svg)
            .map_err(|e| raise_kind("picture", e.code(), e.to_string()))
    }
    fn _repr_svg_(&self) -> Option<String> {
        self.svg().ok().map(|s| tessera::render::html::fit_svg(&s))
    }
    fn __str__(&self) -> String {
        let mut s = format!(
            "TMA {} tensor {:?} box {:?} swizzle {}: {}\n",
            self.r.request.dtype.name(),
            self.r.request.shape,
            self.r.request.box_dims,
            self.r.request.swizzle.name(),
            if self.r.valid() { "valid" } else { "invalid" }
        );
        for f in &self.r.findings {
            s.push_str(&format!(
                "{}[{}] {}\n",
                format!("{:?}", f.severity).to_lowercase(),
                f.code(),
                f.error
            ));
            for g in &f.suggestions {
                s.push_str(&format!(
                    "  suggestion ({}): {}\n",
                    if g.valid { "checked, valid" } else { "checked" },
                    g.text
                ));
            }
        }
        s
    }
    fn __repr__(&self) -> String {
        format!(
            "<tessera.TmaReport {} errors={:?}>",
            if self.r.valid() { "valid" } else { "invalid" },
            self.errors()
        )
    }
}

/// Checks a TMA request: `dtype` (e.g. `"f16"`), the tensor `shape` and the `box` (outermost
/// first, as `tessera tma` takes them), `swizzle` (`"none"`, `"32B"`, `"64B"`, `"128B"`, ...);
/// optionally `strides` (elements, outermost first; default row-major), `element_strides`,
/// `interleave`, `l2_promotion`, `oob_fill`, `address_alignment` (bytes) and `sm` (e.g. 90).
///
/// Pre: a dtype the driver knows, ranks 1 to 5 (errors are findings, not exceptions). Post: the
/// driver's verdict on the descriptor, its findings with their checked suggestions.
///
/// >>> tessera.tma_check("f16", [4096, 4096], [128, 128], "128B").errors()
/// ['tma_swizzle_span']
#[pyfunction]
#[pyo3(signature = (dtype, shape, box_dims, swizzle = "none", *, strides = None,
    element_strides = None, interleave = "none", l2_promotion = "none", oob_fill = "none",
    address_alignment = 256, sm = 90))]
#[allow(clippy::too_many_arguments)]
fn tma_check(
    dtype: &str,
    shape: Vec<u64>,
    box_dims: Vec<u64>,
    swizzle: &str,
    strides: Option<Vec<u64>>,
    element_strides: Option<Vec<u64>>,
    interleave: &str,
    l2_promotion: &str,
    oob_fill: &str,
    address_alignment: u64,
    sm: u32,
) -> PyResult<TmaReport> {
    let bad = |what: &str, v: &str| raise_coded("type_error", format!("tma: unknown {what} {v:?}"));
    let dt = DataType::parse(dtype).ok_or_else(|| bad("dtype", dtype))?;
    let mut r = Request::new(dt, &shape, &box_dims);
    r.swizzle = Swizzle::parse(swizzle).ok_or_else(|| bad("swizzle", swizzle))?;
    r.interleave = Interleave::parse(interleave).ok_or_else(|| bad("interleave", interleave))?;
    r.l2_promotion =
        L2Promotion::parse(l2_promotion).ok_or_else(|| bad("l2_promotion", l2_promotion))?;
    r.oob_fill = OobFill::parse(oob_fill).ok_or_else(|| bad("oob_fill", oob_fill))?;
    r.address = Address::Aligned(address_alignment);
    r.sm = sm;
    if let Some(s) = strides {
        r.strides = s;
    }
    if let Some(e) = element_strides {
        r.element_strides = e;
    }
    Ok(TmaReport {
        r: report::validate(&r),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TmaReport>()?;
    m.add_function(wrap_pyfunction!(tma_check, m)?)
}
