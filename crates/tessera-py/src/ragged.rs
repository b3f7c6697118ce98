//! `tessera.ragged(expr)`: a divide, `local_tile` or `local_partition` over the padded domain —
//! the holes, the minimal predicate in the user's coordinates and the TMA verdict (as
//! `tessera eval --ragged`; `docs/ragged.md`).

use pyo3::prelude::*;
use pyo3::types::PyDict;

use tessera::algebra::ragged::{
    ragged_divide, ragged_local_partition, ragged_local_tile, Arrangement, RaggedSlice,
};
use tessera::algebra::Tiler;
use tessera::domain::ragged::analyze;
use tessera::notation::{eval_expr, parse, Expr, Value};
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
    let e = parse(expr).map_err(raise)?;
    let Expr::Call { name, args, .. } = &e else {
        return Err(type_error(
            "ragged: expected a call of a divide, local_tile or local_partition".into(),
        ));
    };
    let op = name.strip_prefix("ragged_").unwrap_or(name).to_string();
    let vals = args
        .iter()
        .map(eval_expr)
        .collect::<Result<Vec<_>, _>>()
        .map_err(raise)?;
    let layout = |i: usize| match vals.get(i) {
        Some(Value::Layout(l)) => Ok(l.clone()),
        Some(v) if i == 1 => match v.to_int_tuple() {
            Some(t) => tessera::Layout::compact(&t).map_err(raise),
            None => Err(type_error(format!("{op}: argument 2 must be a layout"))),
        },
        _ => Err(type_error(format!(
            "{op}: argument {} must be a layout",
            i + 1
        ))),
    };
    let tiler = |i: usize| {
        vals.get(i)
            .and_then(|v| v.to_tiler())
            .ok_or_else(|| type_error(format!("{op}: argument {} must be a tiler", i + 1)))
    };
    let (r, slice): (_, Option<RaggedSlice>) = if let Some(arr) = Arrangement::parse(&op) {
        (
            ragged_divide(&layout(0)?, &tiler(1)?, arr).map_err(raise)?,
            None,
        )
    } else if op == "local_tile" && vals.len() == 3 {
        let (a, t) = (layout(0)?, tiler(1)?);
        let c = vals[2]
            .to_int_tuple()
            .ok_or_else(|| type_error("local_tile: argument 3 must be a coordinate".into()))?;
        let s = ragged_local_tile(&a, &t, &c).map_err(raise)?;
        (
            ragged_divide(&a, &t, Arrangement::Zipped).map_err(raise)?,
            Some(s),
        )
    } else if op == "local_partition" && vals.len() == 3 {
        let (a, th) = (layout(0)?, layout(1)?);
        let Value::Int(i) = vals[2] else {
            return Err(type_error(
                "local_partition: argument 3 must be an integer".into(),
            ));
        };
        let s = ragged_local_partition(&a, &th, i).map_err(raise)?;
        let sizes = th
            .modes()
            .map(|m| m.size().map(Tiler::Int))
            .collect::<Result<Vec<_>, _>>()
            .map_err(raise)?;
        let t = if th.is_leaf() && a.is_leaf() {
            sizes[0].clone()
        } else {
            Tiler::Tuple(sizes)
        };
        (
            ragged_divide(&a, &t, Arrangement::Zipped).map_err(raise)?,
            Some(s),
        )
    } else {
        return Err(type_error(format!(
            "ragged: {name} with {} arguments is not a divide, local_tile or local_partition",
            vals.len()
        )));
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
