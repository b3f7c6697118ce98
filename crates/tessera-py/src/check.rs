//! `tessera.check(...)`: a whole GEMM kernel configuration (a dict with CUTLASS's names, or a
//! CUTLASS kernel name) checked obligation by obligation; the Python side (`tessera.check`)
//! wraps the JSON report in a result object.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};

use tessera::check::config::{parse_fact, Extent, Tree};
use tessera::check::{check, check_many, cutlass, text, Config};

use crate::raise_kind;

fn bad(message: String) -> PyErr {
    raise_kind("check", "bad_config", message)
}

fn tree(v: &Bound<'_, PyAny>) -> PyResult<Tree> {
    if v.is_instance_of::<PyBool>() {
        return Ok(Tree::Bool(v.extract()?));
    }
    if v.is_instance_of::<PyInt>() {
        return v
            .extract::<i64>()
            .map(Tree::Int)
            .map_err(|_| bad(format!("{v}: integer out of range")));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(Tree::Str(v.extract()?));
    }
    if let Ok(d) = v.downcast::<PyDict>() {
        let mut kv = Vec::with_capacity(d.len());
        for (k, x) in d.iter() {
            let key: String = k
                .extract()
                .map_err(|_| bad(format!("{k}: keys are strings")))?;
            kv.push((key, tree(&x)?));
        }
        return Ok(Tree::Table(kv));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for x in v.try_iter()? {
            items.push(tree(&x?)?);
        }
        return Ok(Tree::List(items));
    }
    Err(bad(format!(
        "{v}: not a configuration value (int, str, bool, list, dict)"
    )))
}

fn extent(v: &Bound<'_, PyAny>) -> PyResult<Extent> {
    if let Ok(n) = v.extract::<u64>() {
        if n > 0 {
            return Ok(Extent::Static(n));
        }
    }
    match v.extract::<String>() {
        Ok(s) if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            Ok(Extent::Runtime(s))
        }
        _ => Err(bad(format!(
            "problem extent {v}: a positive integer or a name"
        ))),
    }
}

fn config(
    cfg: &Bound<'_, PyAny>,
    problem: Option<&Bound<'_, PyAny>>,
    assume: Option<Vec<String>>,
) -> PyResult<Config> {
    let mut c = if let Ok(name) = cfg.extract::<String>() {
        cutlass::parse(&name).map_err(bad)?.config
    } else {
        Config::from_tree(&tree(cfg)?).map_err(|e| bad(e.to_string()))?
    };
    if let Some(p) = problem {
        let items: Vec<Bound<'_, PyAny>> = p.try_iter()?.collect::<PyResult<_>>()?;
        if !(3..=4).contains(&items.len()) {
            return Err(bad("problem: [M, N, K(, L)]".into()));
        }
        for (i, x) in items.iter().enumerate() {
            c.problem[i] = extent(x)?;
        }
        if items.len() == 3 {
            c.problem[3] = Extent::Static(1);
        }
    }
    for a in assume.unwrap_or_default() {
        c.assume
            .push(parse_fact(&a).map_err(|e| bad(e.to_string()))?);
    }
    Ok(c)
}

/// The report of one configuration as `(json, text)`.
#[pyfunction]
#[pyo3(signature = (cfg, problem = None, assume = None))]
fn check_report(
    cfg: &Bound<'_, PyAny>,
    problem: Option<&Bound<'_, PyAny>>,
    assume: Option<Vec<String>>,
) -> PyResult<(String, String)> {
    let c = config(cfg, problem, assume)?;
    let r = check(&c);
    Ok((text::to_json(&r), text::text(&c, &r)))
}

/// Verdicts of many configurations (no suggestions): `(verdicts, (valid, valid_if, invalid,
/// [(first refuted code, count)]))`.
#[pyfunction]
#[pyo3(signature = (cfgs, problem = None, assume = None))]
#[allow(clippy::type_complexity)]
fn check_space(
    cfgs: Vec<Bound<'_, PyAny>>,
    problem: Option<&Bound<'_, PyAny>>,
    assume: Option<Vec<String>>,
) -> PyResult<(Vec<String>, (u64, u64, u64, Vec<(String, u64)>))> {
    let cs = cfgs
        .iter()
        .map(|c| config(c, problem, assume.clone()))
        .collect::<PyResult<Vec<_>>>()?;
    let (v, s) = check_many(&cs);
    Ok((
        v.iter().map(|o| o.name().to_string()).collect(),
        (
            s.valid,
            s.valid_if,
            s.invalid,
            s.by_first_refuted
                .iter()
                .map(|(c, n)| (c.to_string(), *n))
                .collect(),
        ),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_report, m)?)?;
    m.add_function(wrap_pyfunction!(check_space, m)?)
}
