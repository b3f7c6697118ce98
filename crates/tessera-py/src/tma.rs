//! `tessera.tma(...)`: a TMA descriptor request checked against the driver's rules, with its
//! tiling view and picture.

use pyo3::prelude::*;

use tessera::tma::{rules, DataType, Request, Swizzle};

use crate::raise_coded;

/// `(code, severity, message, [(suggestion, checked_valid)])`.
type FindingTuple = (String, String, String, Vec<(String, bool)>);

/// A checked TMA request: `valid`, the findings (code, severity, message, checked suggestions).
#[pyclass(module = "tessera._tessera", name = "TmaReport", frozen)]
pub struct TmaReport {
    r: rules::Report,
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
            .map_err(|e| raise_coded(e.code(), e.to_string()))
    }
    fn _repr_svg_(&self) -> Option<String> {
        self.svg().ok()
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
/// first, as `tessera tma` takes them), `swizzle` (`"none"`, `"32B"`, `"64B"`, `"128B"`, ...).
#[pyfunction]
#[pyo3(signature = (dtype, shape, box_dims, swizzle = "none"))]
fn tma_check(
    dtype: &str,
    shape: Vec<u64>,
    box_dims: Vec<u64>,
    swizzle: &str,
) -> PyResult<TmaReport> {
    let dt = DataType::parse(dtype)
        .ok_or_else(|| raise_coded("type_error", format!("tma: unknown dtype {dtype:?}")))?;
    let sw = Swizzle::parse(swizzle)
        .ok_or_else(|| raise_coded("type_error", format!("tma: unknown swizzle {swizzle:?}")))?;
    let mut r = Request::new(dt, &shape, &box_dims);
    r.swizzle = sw;
    Ok(TmaReport {
        r: rules::validate(&r),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TmaReport>()?;
    m.add_function(wrap_pyfunction!(tma_check, m)?)
}
