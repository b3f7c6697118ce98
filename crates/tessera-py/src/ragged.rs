//! `tessera.ragged(expr)`: a divide, `local_tile` or `local_partition` over the padded domain —
//! the holes, the minimal predicate in the user's coordinates and the TMA verdict (as
//! `tessera eval --ragged`; `docs/ragged.md`).

use pyo3::prelude::*;
use pyo3::types::PyDict;

use tessera::algebra::ragged::RaggedSlice;
use tessera::domain::ragged::analyze;
use tessera::notation::ragged::{evaluate, Outcome};
use tessera::tma::ragged::ragged_verdict;
use tessera::tma::DataType;

use crate::{raise, raise_coded};

fn type_error(message: String) -> PyErr {
    raise_coded("type_error", message)
}

/// The ragged form of `expr` (a call of a divide, `local_tile` or `local_partition`, with or
/// without the `ragged_` prefix) as a dict: `layout` (or None), `index`, `points`, `holes`,
/// `valid`, `predicate` (bounds in the user's coordinates), `minimal_checked`,
/// `over_allocation`, `tma` (a dict or None) and, for a slice, `slice`.
///
/// Pre: a divide, `local_tile` or `local_partition` call (the registry's arity and kinds); a
/// known dtype. Post: the padded domain's counts, the minimal predicate, the TMA view.
///
/// >>> r = tessera.ragged("logical_divide((3,5):(5,1),2:1)")
/// >>> r["holes"], r["predicate"]
/// (1, ['n < 5'])
#[pyfunction]
#[pyo3(signature = (expr, names = None, dtype = "f16"))]
fn ragged<'py>(
    py: Python<'py>,
    expr: &str,
    names: Option<Vec<String>>,
    dtype: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let dt = DataType::parse(dtype)
        .ok_or_else(|| type_error(format!("ragged: unknown dtype {dtype:?}")))?;
    // The library's ragged form: the registry's arity and argument types, as `eval --ragged`.
    let (r, slice): (_, Option<RaggedSlice>) = match evaluate(expr).map_err(raise)? {
        Outcome::Divide(r) => (r, None),
        Outcome::Slice(_, s, r) => (r, Some(s)),
    };
    let an = analyze(&r, names.as_deref()).map_err(|e| raise_coded(e.code(), e.to_string()))?;
    let d = PyDict::new(py);
    d.set_item("layout", r.layout.as_ref().map(|l| l.to_string()))?;
    d.set_item("index", r.index.to_string())?;
    d.set_item("points", r.points)?;
    d.set_item("holes", r.holes)?;
    d.set_item("valid", r.valid)?;
    let pred: Vec<String> = an.predicate.iter().map(|b| b.to_string()).collect();
    d.set_item("predicate", pred)?;
    d.set_item("minimal_checked", an.minimal_checked)?;
    d.set_item("over_allocation", an.over_allocation)?;
    d.set_item("python", an.python.clone())?;
    d.set_item("cuda", an.cuda.clone())?;
    match ragged_verdict(&r, dt) {
        Ok(t) => {
            let v = PyDict::new(py);
            v.set_item("shape", t.request.shape.clone())?;
            v.set_item("box", t.request.box_dims.clone())?;
            v.set_item("element_strides", t.request.element_strides.clone())?;
            let errs: Vec<&str> = t.errors.iter().map(|f| f.code()).collect();
            v.set_item("driver_errors", errs)?;
            v.set_item("zero_filled", t.zero_filled)?;
            v.set_item("data_filled", t.data_filled)?;
            v.set_item("strong_sum", t.strong_sum)?;
            v.set_item("strong_max", t.strong_max)?;
            d.set_item("tma", v)?;
        }
        Err(_) => d.set_item("tma", py.None())?,
    }
    if let Some(s) = slice {
        let v = PyDict::new(py);
        v.set_item("layout", s.layout.as_ref().map(|l| l.to_string()))?;
        v.set_item("offset", s.offset)?;
        v.set_item("points", s.points)?;
        v.set_item("valid", s.valid)?;
        v.set_item("holes", s.holes)?;
        v.set_item("extents", s.extents.clone())?;
        d.set_item("slice", v)?;
    }
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ragged, m)?)
}
